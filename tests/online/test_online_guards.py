"""Nothing is lost by a director's click: pairing again, a forfeit or playing on paper refuse to
discard an online game with moves (a sentence says what would be lost, nothing changes); with
confirmation the game goes, its whole log is in the audit trail and replays in the engine."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.models import AuditEntry, OnlineAction, OnlineDeal, OnlineSeat, Round, Table
from app.models import Deal as DealRow
from app.services.online import advance, guards
from app.services.tournaments.sheets import sheet
from engine.deal import Deal, DealSetup, Record, apply
from engine.views import seat_view
from tests.online.online_helpers import OnlineWorld, online_world, page_token, replay_row

GAME = "Table 1 has an online game with 2 deals played and one in progress"
KEPT = "Confirm to discard it; its log is kept in the audit trail."


def _play_two_deals_and_start_a_third(ow: OnlineWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two deals recorded, the third waiting for seat 0 (a person): with a budget of one step,
    each director action lets the bots finish at most one deal."""
    monkeypatch.setattr(advance, "DEAL_BUDGET", 1)
    ow.t.online_pause = 0  # no wait between deals: the next deal starts with the next action
    db.session.commit()
    ow.bots(0, 1, 2, 3)  # deal 1 played out by the bots
    _seat(ow, 3, bot=False)  # deal 2 dealt, waiting for seat 3
    _seat(ow, 3, bot=True)  # deal 2 played out
    _seat(ow, 0, bot=False)  # deal 3 dealt, waiting for seat 0
    deals = ow.deals()
    assert [d.outcome for d in deals] == ["played", "played", None]
    assert len(_sheet_rows(ow)) == 2


def _seat(ow: OnlineWorld, seat: int, bot: bool) -> None:
    data = {"seat": str(seat), "bot": "1" if bot else "0"}
    assert ow.director.post(ow.table_url + "/bots", data=data).status_code == 303


def _sheet_rows(ow: OnlineWorld) -> list[DealRow]:
    db.session.expire_all()
    return list(db.session.scalars(select(DealRow).where(DealRow.table_id == ow.tab.id)))


def _snapshot(ow: OnlineWorld) -> dict[str, Any]:
    """Everything a guarded click could change."""
    db.session.expire_all()

    def count(model: Any) -> int:
        return db.session.scalar(select(func.count()).select_from(model)) or 0

    tables = db.session.execute(
        select(Table.id, Table.round_id, Table.mode, Table.forfeit, Table.finished, Table.code)
    ).all()
    logs = db.session.execute(
        select(OnlineDeal.id, OnlineDeal.version, OnlineDeal.outcome, OnlineDeal.sheet_index)
    ).all()
    return {
        "rounds": db.session.execute(select(Round.id, Round.status)).all(),
        "tables": sorted(tables),
        "online_deals": sorted(logs),
        "actions": count(OnlineAction),
        "seats": sorted(db.session.execute(select(OnlineSeat.id, OnlineSeat.bot)).all()),
        "deals": sorted(db.session.execute(select(DealRow.id, DealRow.points)).all()),
        "audit": count(AuditEntry),
        "version": ow.t.version,
    }


def _engine_states(ow: OnlineWorld) -> list[tuple[Any, ...]]:
    """Each online deal's state as the live tables replay it (the test's own replay)."""
    return [_state_of(replay_row(d)) for d in ow.deals()]


def _state_of(deal: Deal) -> tuple[Any, ...]:
    return (deal.outcome, deal.phase, deal.to_act, len(deal.log), seat_view(deal, 0))


def _replay_kept(kept: dict[str, Any]) -> Deal:
    """Read a kept deal back with the engine alone: setup, then every record in order."""
    deal = Deal(DealSetup.from_json(kept["setup"]))
    for action in kept["actions"]:
        if action["record"]["kind"] != "continue":
            apply(deal, Record.from_json(action["record"]))
    return deal


def _audit(ow: OnlineWorld, action: str) -> AuditEntry:
    db.session.expire_all()
    entry = db.session.scalar(
        select(AuditEntry)
        .where(AuditEntry.tournament_id == ow.t.id, AuditEntry.action == action)
        .order_by(AuditEntry.id.desc())
    )
    assert entry is not None
    return entry


def _assert_log_kept(entry: AuditEntry, states: list[tuple[Any, ...]], points: list[int]) -> None:
    """The entry keeps the whole log: every deal's seed and setup, and its records replay to
    the state the table had, played deals to the points the sheet held."""
    kept = guards.kept_logs(entry.before)
    assert len(kept) == 1 and kept[0]["table"] == 1
    deals = kept[0]["deals"]
    assert [d["number"] for d in deals] == [1, 2, 3]
    assert all(d["seed"] == d["setup"]["seed"] for d in deals)
    replayed = [_replay_kept(d) for d in deals]
    assert [_state_of(d) for d in replayed] == states
    assert [_state_of(guards.replay(d)) for d in deals] == states
    assert [d.attackers_points() for d in replayed[:2]] == points


def _flashes(page: Any) -> str:
    return unescape(page.get_data(as_text=True))


def _round_url(ow: OnlineWorld) -> str:
    return f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/rounds/1"


def _sheet_url(ow: OnlineWorld) -> str:
    return ow.table_url.removesuffix("/online")


# --- pairing again --------------------------------------------------------------------------


def test_pairing_again_refuses_then_discards_the_game_and_keeps_its_log(
    app, client, monkeypatch
) -> None:
    ow = online_world(client, "tractor-4p", deals=3)
    _play_two_deals_and_start_a_third(ow, monkeypatch)
    page = _flashes(client.get(_round_url(ow)))
    warning = f"{GAME}: pairing again would discard it. {KEPT}"
    assert warning in page and 'name="confirm"' in page and "Pair again" in page
    assert 'data-confirm="Pair round 1 again?' in page
    assert "Swap entrants before the round starts" not in page
    states = _engine_states(ow)
    points = [d.points for d in _sheet_rows(ow)]
    before = _snapshot(ow)

    r = client.post(_round_url(ow) + "/repair", follow_redirects=True)
    assert warning in _flashes(r)
    assert _snapshot(ow) == before  # refused: nothing changed
    # a swap cannot change who sits at a game in progress either
    rnd = db.session.get(Round, ow.rnd.id)
    assert rnd is not None
    ids = [s.entrant_id for tab in rnd.tables for s in tab.seats]
    r = client.post(
        _round_url(ow) + "/swap", data={"first": ids[0], "second": ids[-1]}, follow_redirects=True
    )
    assert "The round has started: entrants can no longer be swapped." in _flashes(r)
    assert _snapshot(ow) == before

    r = client.post(_round_url(ow) + "/repair", data={"confirm": "1"}, follow_redirects=True)
    assert "Round 1 paired again." in _flashes(r)
    db.session.expire_all()
    # the old tables are gone, with their game; the new ones are seated on paper
    new = db.session.execute(select(Table.code, Table.mode)).all()
    old = {code for _id, _r, _m, _f, _fin, code in before["tables"]}
    assert new and not {code for code, _mode in new} & old
    assert {mode for _code, mode in new} == {"paper"}
    assert db.session.scalar(select(func.count()).select_from(OnlineDeal)) == 0
    entry = _audit(ow, "repair_round")
    assert [t["table"] for t in entry.before["tables"]] == [1]
    _assert_log_kept(entry, states, points)
    # the audit page words it briefly (the log is data, not for reading)
    trail = _flashes(client.get(f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/audit"))
    assert "table 1: the log of 3 online deals is kept" in trail
    assert '"actions"' not in trail and "seed" not in trail


def test_pairing_again_discards_an_online_table_without_moves_silently(app, client) -> None:
    ow = online_world(client, "tractor-4p", deals=2)  # all seats people: only the draw ran
    assert guards.game_of(db.session.get(Table, ow.tab.id)).moves is False  # type: ignore[arg-type,union-attr]
    r = client.post(_round_url(ow) + "/repair", follow_redirects=True)
    assert "Round 1 paired again." in _flashes(r)
    assert guards.kept_logs(_audit(ow, "repair_round").before)[0]["deals"][0]["number"] == 1


# --- a forfeit ------------------------------------------------------------------------------


def test_a_forfeit_refuses_then_stops_the_online_table(app, client, monkeypatch) -> None:
    ow = online_world(client, "tractor-4p", deals=3)
    _play_two_deals_and_start_a_third(ow, monkeypatch)
    warning = f"{GAME}: a forfeit would discard it and stop the table. {KEPT}"
    page = _flashes(client.get(_sheet_url(ow)))
    assert warning in page and 'name="confirm"' in page
    states = _engine_states(ow)
    points = [d.points for d in _sheet_rows(ow)]
    seat0 = ow.seats()[0]
    player = app.test_client()
    html = player.get(f"/play/{seat0.token}").get_data(as_text=True)
    seen = page_token(html)
    assert "Your turn." in html
    before = _snapshot(ow)

    r = client.post(_sheet_url(ow) + "/forfeit", data={"side": "1"}, follow_redirects=True)
    assert warning in _flashes(r)
    assert _snapshot(ow) == before

    r = client.post(
        _sheet_url(ow) + "/forfeit", data={"side": "1", "confirm": "1"}, follow_redirects=True
    )
    assert "Forfeit recorded." in _flashes(r)
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and tab.forfeit == 1 and tab.finished and tab.mode == "online"
    assert not tab.deals and not ow.deals()
    derived = sheet(ow.t, tab)
    assert derived.counts and not derived.errors and derived.outcome(0) == "win"
    entry = _audit(ow, "forfeit")
    _assert_log_kept(entry, states, points)
    assert [d["points"] for d in entry.before["sheet_deals"]] == points
    assert entry.after == {"forfeit": 1}

    # the seat's page and its poll show the match over; a move is refused; no bot plays on
    html = player.get(f"/play/{seat0.token}").get_data(as_text=True)
    assert "The match is over." in html and "Your turn." not in html
    poll = player.get(f"/play/{seat0.token}/poll?v={seen}")
    assert poll.status_code == 200 and "The match is over." in poll.get_data(as_text=True)
    assert player.get(f"/play/{seat0.token}/poll?v={page_token(html)}").status_code == 204
    r = player.post(f"/play/{seat0.token}", data={"v": page_token(html), "kind": "pass"})
    assert r.status_code == 422
    stopped = _snapshot(ow)
    ow.bots(0)
    assert _snapshot(ow)["online_deals"] == stopped["online_deals"] == []
    assert "The match is over." in _flashes(client.get(ow.table_url))

    # the forfeit taken back: a fresh online game is dealt
    r = client.post(_sheet_url(ow) + "/forfeit", data={"side": ""}, follow_redirects=True)
    assert "Forfeit removed." in _flashes(r)
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and tab.forfeit is None and not tab.finished
    assert [d.number for d in ow.deals()] == [1]


# --- online → paper -------------------------------------------------------------------------


def test_playing_on_paper_keeps_the_recorded_deals_and_the_log(app, client, monkeypatch) -> None:
    ow = online_world(client, "tractor-4p", deals=3)
    _play_two_deals_and_start_a_third(ow, monkeypatch)
    warning = (
        f"{GAME}: playing on paper keeps the recorded deals on the sheet and discards the rest "
        f"of the online game. {KEPT}"
    )
    page = _flashes(client.get(ow.table_url))
    assert warning in page and "Play on paper instead" in page and 'name="confirm"' in page
    assert (
        'data-confirm="Play this table on paper from now on? The seat links stop working."' in page
    )
    states = _engine_states(ow)
    rows = [(d.index, d.points, d.declarer, d.source) for d in _sheet_rows(ow)]
    token = ow.seats()[0].token
    before = _snapshot(ow)

    r = client.post(ow.table_url + "/paper", follow_redirects=True)
    assert warning in _flashes(r)
    assert _snapshot(ow) == before

    r = client.post(ow.table_url + "/paper", data={"confirm": "1"}, follow_redirects=True)
    assert "The table is played on paper: enter its next deals on the score sheet." in _flashes(r)
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and tab.mode == "paper"
    assert [(d.index, d.points, d.declarer, d.source) for d in _sheet_rows(ow)] == rows
    assert not ow.deals() and not ow.seats()
    assert app.test_client().get(f"/play/{token}").status_code == 404
    entry = _audit(ow, "online_paper")
    _assert_log_kept(entry, states, [p for _i, p, _d, _s in rows])
    assert entry.after == {"mode": "paper"}
    trail = _flashes(client.get(f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/audit"))
    assert "table played on paper" in trail

    # the paper sheet goes on from the recorded deals: deal 3 is typed
    derived = sheet(ow.t, tab)
    r = client.post(
        _sheet_url(ow),
        data={
            "declarer": derived.next_declarer,
            "trump": "S",
            "points": 40,
            "kitty": 0,
            "seen": "2",
        },
    )
    assert r.status_code in (200, 303), r.get_data(as_text=True)[:2000]
    rows_after = _sheet_rows(ow)
    assert [d.source for d in rows_after] == ["online", "online", "paper"]
    assert sheet(ow.t, db.session.get(Table, ow.tab.id)).counts  # type: ignore[arg-type]
    # the deals recorded online are results of a paper table now: no pairing again over them
    kept = _snapshot(ow)
    r = client.post(_round_url(ow) + "/repair", data={"confirm": "1"}, follow_redirects=True)
    assert "A result is already entered: the round cannot be paired again." in _flashes(r)
    assert _snapshot(ow) == kept


def test_playing_on_paper_before_any_move_needs_no_confirmation(app, client) -> None:
    ow = online_world(client, "tractor-4p", deals=2)
    r = client.post(ow.table_url + "/paper", follow_redirects=True)
    assert "The table is played on paper" in _flashes(r)
    db.session.expire_all()
    assert db.session.get(Table, ow.tab.id).mode == "paper"  # type: ignore[union-attr]
    r = client.post(ow.table_url + "/paper", follow_redirects=True)
    assert "This table is already played on paper." in _flashes(r)
    # and online again: the table had no deal, so it may go online once more
    assert client.post(ow.table_url).status_code == 303
    assert [d.number for d in ow.deals()] == [1]


def test_the_refusal_speaks_the_directors_language(app, client, monkeypatch) -> None:
    ow = online_world(client, "tractor-4p", deals=3)
    _play_two_deals_and_start_a_third(ow, monkeypatch)
    before = _snapshot(ow)
    zh = {"Accept-Language": "zh-CN,zh;q=0.9"}
    r = client.post(_round_url(ow) + "/repair", headers=zh, follow_redirects=True)
    page = _flashes(r)
    assert (
        "第 1 桌有一场线上对局，已打完 2 局，另有一局正在进行：重新编排将丢弃这场对局。"
        "确认后才会丢弃；其对局记录保留在修改记录中。"
    ) in page
    r = client.post(ow.table_url + "/paper", headers=zh, follow_redirects=True)
    assert "改为纸面记分时，已记录的牌局留在记分表上" in _flashes(r)
    assert _snapshot(ow) == before
