"""Duplicate boards online beyond 升级's played boards: a 120分 team match's round played
through by ``run-bots``' code path (both tables of the board drew the identical cards in the
identical order, and the results reach the event's IMPs), and a 120分 board nobody calls (a
duplicate board is not dealt again: the table ends without a result, its seat page, its live
view and the director's event page say so, and the director types the result by hand)."""

from __future__ import annotations

from sqlalchemy import select

from app.db import write_transaction
from app.extensions import db
from app.models import DuplicateEvent, DuplicateOnlineTable, DuplicateResult, OnlineDeal, OnlineSeat
from app.models import Table as TableRow
from app.services.duplicate import events as svc
from app.services.online import autoplay, bridge, moves, tokens
from tests.duplicate.test_duplicate_audit import _audit_rows
from tests.duplicate.test_duplicate_online import _deal_row, _links
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.forms import submit
from tests.tournaments.tournament_helpers import login, world

TEAMS = "红队\n蓝队"


def _draws(row: OnlineDeal) -> list[tuple[int, list[str]]]:
    """The deal's draw order as its log recorded it: each draw's seat and card."""
    return [
        (a.record["seat"], a.record["cards"]) for a in row.actions if a.record["kind"] == "draw"
    ]


def _one_twenty_event(client, w, name: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    login(client, w.director)
    did = _event_id(
        _create(
            client,
            w,
            name=name,
            variant="one-twenty-6p",
            kind="teams",
            entrants=TEAMS,
            boards_per_round=1,
        )
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    assert client.post(base + "/rounds/1/online").status_code == 303
    return did, base


def test_a_one_twenty_match_played_through_by_run_bots(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    did, base = _one_twenty_event(client, w, "120分 online")
    links = _links(did)
    assert [(x.table_no, x.board) for x in links] == [(1, 1), (2, 1)]
    tab = db.session.get(TableRow, links[0].table_id)
    t = bridge.tournament_of(tab)
    with app.test_request_context(), write_transaction():  # as flask tournament run-bots
        run = autoplay.run_bots(t, "heuristic", db.session.commit)
    assert len(run.tables) == 2 and all(
        r.derived is not None and r.derived.counts for r in run.tables
    )

    one, two = (_deal_row(x) for x in _links(did))
    assert one.outcome == two.outcome == "played"
    a, b = bridge.replay(one), bridge.replay(two)
    # the same board: one setup (seed, shuffler, level), one deck order, one cut card and first
    # drawer, and the draw, card by card and seat by seat, identical at both tables
    assert one.setup == two.setup and a.deal.setup.first is True
    assert a.deal.pack == b.deal.pack and a.deal.cut_card == b.deal.cut_card
    assert a.deal.first_drawer == b.deal.first_drawer
    assert _draws(one) == _draws(two) and len(_draws(one)) == 6 * a.deal.variant.hand
    assert a.dealt == b.dealt and a.deal.kitty_cards == b.deal.kitty_cards
    # played without the refusal (refuse_below off on a duplicate board)
    assert a.deal.variant.option("refuse_below") is None

    db.session.expire_all()
    rows = {
        r.table_no: r
        for r in db.session.scalars(select(DuplicateResult).where(DuplicateResult.event_id == did))
    }
    for tno, rep in ((1, a), (2, b)):
        assert rep.deal.result is not None and rep.deal.dealer is not None
        assert (rows[tno].declarer, rows[tno].total) == (rep.deal.dealer % 2, rep.deal.result.total)
    ev = db.session.get(DuplicateEvent, did)
    (match,) = svc.standings_page(ev, director=False)["matches"]
    login(client, w.player)
    page = client.get(base).get_data(as_text=True)
    assert "Team matches" in page and f"IMPs {match['imps'][0]}:{match['imps'][1]}" in page


def _nobody_calls(link: DuplicateOnlineTable) -> None:
    """Every seat human, and none calls: each pause of the draw goes on, the last window passes."""
    tab = db.session.get(TableRow, link.table_id)
    assert tab is not None
    seats = {
        s.seat: s
        for s in db.session.scalars(select(OnlineSeat).where(OnlineSeat.table_id == tab.id))
    }
    assert not any(s.bot for s in seats.values())
    for _ in range(200):
        db.session.expire_all()
        got = bridge.latest(tab)
        assert got is not None
        live = bridge.load_row(*got)
        if live.deal.outcome is not None:
            return
        seat = live.waiting_for()
        assert seat is not None
        kind = bridge.CONTINUE if live.deal.phase == bridge.DRAW else "pass"
        moves.act(seats[seat], tokens.token_of(tab, got[0]), kind)
        db.session.commit()
    raise AssertionError("the deal did not end")


def test_a_board_nobody_calls_ends_without_a_result(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    did, base = _one_twenty_event(client, w, "120分 nobody calls")
    first, second = _links(did)
    with app.test_request_context(), write_transaction():  # the seats; run-bots: table 2
        _nobody_calls(first)
        autoplay.run_bots(bridge.tournament_of(first.table), "heuristic", db.session.commit)

    db.session.expire_all()
    row = _deal_row(first)  # the board was not dealt again: still its one deal
    assert row.outcome == "redeal"
    tab = db.session.get(TableRow, first.table_id)
    assert tab is not None and tab.finished
    got = {
        r.table_no
        for r in db.session.scalars(select(DuplicateResult).where(DuplicateResult.event_id == did))
    }
    assert got == {2}  # the other table played it; this one has no result

    notice = "Nobody called on board 1."
    fixed = "A duplicate board's cards are fixed, so it is not dealt again"
    seat = db.session.scalars(select(OnlineSeat).where(OnlineSeat.table_id == tab.id)).first()
    assert seat is not None
    page = client.get(f"/play/{seat.token}").get_data(as_text=True)
    assert notice in page and fixed in page and "The match is over." in page
    state = client.get(f"/play/{seat.token}/state.json").get_json()
    assert (state["duplicate_board"], state["no_result"], state["over"]) == (1, "nobody", True)
    watch = f"/clubs/{w.club.slug}/tournaments/{tab.round.tournament_id}/rounds/1/tables/{tab.number}/watch"
    page = client.get(watch).get_data(as_text=True)
    assert notice in page and fixed in page and "The deal was dealt again." not in page
    page = client.get(base).get_data(as_text=True)
    assert "ended without a result (nobody called)" in page
    assert "Type table 1's result on board 1's traveller" in page
    assert (
        "1 of 2 tables" in page and "complete" not in page.split("Boards</h2>")[1].split("</ul>")[0]
    )
    # players see no comparison: the board waits for the director's line
    login(client, w.player)
    assert "Team matches" not in client.get(base).get_data(as_text=True)

    # the director types the table's result by hand (120: worth 0 to both sides)
    login(client, w.director)
    sheet = client.get(base + "/boards/1").get_data(as_text=True)
    assert sheet.count("online: nobody called, no result") == 1
    other = db.session.scalars(
        select(DuplicateResult).where(
            DuplicateResult.event_id == did, DuplicateResult.table_no == 2
        )
    ).one()
    form = {
        "r1t1_declarer": "0",
        "r1t1_total": "120",
        "r1t2_declarer": str(other.declarer),
        "r1t2_total": str(other.total),
    }
    assert submit(client, base + "/boards/1", form).status_code == 303
    page = client.get(base).get_data(as_text=True)
    assert "ended without a result" not in page and "2 of 2 tables" in page
    login(client, w.player)
    assert "Team matches" in client.get(base).get_data(as_text=True)

    # the event's trail: the round sent online, table 2's result written by the online game,
    # table 1 ended without one, then typed by the director
    login(client, w.director)
    rows = {
        tuple(r[1:3]): r[3:]
        for r in _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    }
    where = "board 1, round 1, table 1"
    assert rows[("Dora Director", "round played online · round 1")] == [
        "Mode of play: on paper",
        "Mode of play: online; Tables: 2",
    ]
    assert rows[("online game", f"online board ended without a result · {where}")] == [
        "",
        "How the board ended: nobody called: no result",
    ]
    assert rows[("online game", "board result typed in · board 1, round 1, table 2")][0] == ""
    assert rows[("Dora Director", f"board result typed in · {where}")][1].endswith(
        "Attackers' points: 120"
    )
