"""争上游 played online (issue 25): a table of four sent online by the director, a seat's page with
its hand in climbing order and only the cards of a beating play selectable, moves through the
seat's link, an illegal play refused in the reader's language with nothing changed, the bots
finishing the deal, the deal written on the score sheet exactly as a typed row (places and the
tribute), the next deal opening with the tribute shown to its two players only, the spectators
seeing no hand, and a finished deal's replay."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from app.competition import tfile
from app.extensions import db
from app.models import (
    AuditEntry,
    Deal,
    OnlineAction,
    OnlineDeal,
    OnlineSeat,
    Table,
    Tournament,
    utcnow,
)
from app.services.online import autoplay, bridge, guards, tokens
from engine import climbing_deal as cd
from engine.cards import card_str, cards_str
from engine.climbing import beats, crank, sort_key
from engine.climbing_bots import ClimbingHeuristicBot, ClimbingRandomBot
from tests.online.online_helpers import (
    CLIMB,
    OnlineWorld,
    climbing_world,
    enabled_cards,
    moves,
    page_token,
)
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world


def replayed(row: OnlineDeal) -> cd.ClimbingDeal:
    """The test's own replay of a deal row's log (the entries for people skipped)."""
    log = [a.record for a in row.actions if a.record["kind"] not in ("ready", "continue")]
    return cd.replay(row.setup, log)


def link(s: OnlineSeat) -> str:
    return f"/play/{s.token}"


def hand_codes(html: str) -> list[str]:
    block = re.search(r'<div class="hand climb-hand" id="hand">(.*?)</div></div>', html, re.S)
    assert block, html[:3000]
    return re.findall(r'value="([^"]+)"', block.group(1)) or re.findall(
        r'title="([^"]+)"', block.group(1)
    )


def post_move(client: FlaskClient, s: OnlineSeat, kind: str, cards: Any = ()) -> Any:
    page = client.get(link(s)).get_data(as_text=True)
    return client.post(link(s), data={"v": page_token(page), "kind": kind, "cards": list(cards)})


def test_a_climbing_table_goes_online_and_a_seat_plays_against_three_bots(client):
    ow = climbing_world(client)
    ow.bots(1, 2, 3)
    seats = ow.seats()
    me = seats[0]
    row = ow.deals()[0]
    assert row.setup["variant"] == "climbing" and row.setup["winner"] is None
    deal = replayed(row)
    assert deal.phase == cd.PLAY  # dealt, and the bots moved until seat 0 must act
    assert deal.to_act == 0
    page = client.get(link(me)).get_data(as_text=True)
    assert 'id="climb-seats"' in page
    # the hand in climbing order (3 … A 2 jokers), every card of it shown
    mine = deal.hand(0)
    assert hand_codes(page) == [c for c in cards_str(mine)]
    assert [sort_key(c) for c in mine] == sorted(sort_key(c) for c in mine)
    # selectable: exactly the engine's playable cards (the rest greyed)
    assert sorted(enabled_cards(page)) == sorted(cards_str(deal.playable_cards(0)))
    assert "play" in moves(page)
    # no other hand on the page
    for s in (1, 2, 3):
        for c in cards_str(deal.hands[s]):
            assert f'value="{c}"' not in page
    # the seat's JSON offers the same: its hand, the playable cards, the counts, no other hand
    js = client.get(f"/play/{me.token}/state.json").get_json()
    assert js["hand"] == cards_str(mine)
    assert sorted(js["playable"]) == sorted(cards_str(deal.playable_cards(0)))
    assert js["hand_sizes"] == [len(h) for h in deal.hands]
    assert js["actions"] == deal.actions(0) and js["my_turn"]


def _illegal_play(deal: cd.ClimbingDeal, seat: int) -> list[int] | None:
    """Two cards of different ranks that are no play (or a single too low to beat)."""
    hand = sorted(deal.hands[seat], key=sort_key)
    for a in hand:
        for b in hand:
            if crank(a) != crank(b) and abs(crank(a) - crank(b)) > 0:
                return [a, b]
    return None


def test_an_illegal_play_is_refused_in_words_and_changes_nothing(client):
    ow = climbing_world(client)
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    row = ow.deals()[0]
    before = row.version
    deal = replayed(row)
    bad = _illegal_play(deal, 0)
    assert bad is not None
    r = post_move(client, me, "play", cards_str(bad))
    assert r.status_code == 422
    text = r.get_data(as_text=True)
    error = re.search(r'<p class="flash error" role="alert">(.*?)</p>', text, re.S)
    assert error and error.group(1).strip()
    assert "climb." not in error.group(1)  # the engine's refusal in words, not its code
    # said next to the Play button (on a phone the hand fills the screen), once
    assert re.search(r'<div class="play-bar">\s*<div class="errors"', text)
    assert text.count('class="flash error"') == 1
    # the same refusal in Chinese for a Chinese reader
    page = client.get(link(me)).get_data(as_text=True)
    r = client.post(
        link(me),
        data={"v": page_token(page), "kind": "play", "cards": cards_str(bad)},
        headers={"Accept-Language": "zh-CN"},
    )
    assert r.status_code == 422
    zh = re.search(r'<p class="flash error" role="alert">(.*?)</p>', r.get_data(as_text=True), re.S)
    assert zh and re.search(r"[\u4e00-\u9fff]", zh.group(1)), zh
    db.session.expire_all()
    assert ow.deals()[0].version == before
    # a pass to lead is refused too: the leader must play
    if deal.standing is None:
        r = post_move(client, me, "pass")
        assert r.status_code == 422
        assert ow.deals()[0].version == before


def _play_out(client: FlaskClient, ow: OnlineWorld, me: OnlineSeat, number: int) -> OnlineDeal:
    """Play seat 0 with the engine's lowest legal play (a pass when it may pass) until deal
    ``number`` is over."""
    for _ in range(400):
        row = next(r for r in ow.deals() if r.number == number)
        if row.outcome is not None:
            return row
        deal = replayed(row)
        assert deal.to_act == 0, (deal.phase, deal.to_act)
        if deal.phase == cd.TRIBUTE:
            rank = deal.tribute_rank()
            card = next(c for c in deal.hands[0] if crank(c) == rank)
            r = post_move(client, me, "tribute", cards_str([card]))
        elif deal.phase == cd.RETURN:
            r = post_move(client, me, "return", cards_str([deal.hand(0)[0]]))
        elif deal.standing is not None and len(deal.hands[0]) > 4:
            r = post_move(client, me, "pass")
        else:
            plays = deal.legal_plays(0)
            if not plays:
                r = post_move(client, me, "pass")
            else:
                play = plays[0]
                if deal.standing is not None:
                    assert beats(list(deal.standing[1]), play)
                r = post_move(client, me, "play", cards_str(play))
        assert r.status_code in (200, 303), r.get_data(as_text=True)[:3000]
    raise AssertionError("the deal did not end")


def test_a_whole_deal_goes_on_the_sheet_and_the_next_opens_with_the_tribute(client):
    ow = climbing_world(client)
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    first = _play_out(client, ow, me, 1)
    deal = replayed(first)
    assert first.outcome == "played" and deal.result is not None
    # the sheet row: the places, no tribute before a first deal — as a typed row
    db.session.expire_all()
    rows = db.session.scalars(select(Deal).where(Deal.table_id == ow.tab.id)).all()
    assert len(rows) == 1 and first.sheet_index == 0
    assert rows[0].places == list(deal.result.places)
    assert rows[0].source == "online" and rows[0].tribute is None
    # the end of the deal on the seat's page: places, the next deal's tribute, Continue
    page = client.get(link(me)).get_data(as_text=True)
    assert 'id="places"' in page and 'id="next-tribute"' in page
    assert "ready" in moves(page)
    r = client.post(f"/play/{me.token}/ready", data={"v": page_token(page)})
    assert r.status_code in (200, 204, 303)
    deals = ow.deals()
    assert len(deals) == 2
    second = deals[1]
    assert second.setup["winner"] == deal.result.winner
    assert second.setup["loser"] == deal.result.loser
    d2 = replayed(second)
    loser, winner = deal.result.loser, deal.result.winner
    if d2.refused:
        return
    assert d2.tribute_card is not None or d2.to_act == loser
    # the tribute's card: shown to the two players, not to a third seat
    seats = ow.seats()
    third = next(s for s in range(4) if s not in (loser, winner))
    if d2.tribute_card is not None:
        code = card_str(d2.tribute_card)
        for s in (loser, winner):
            if s == 0:
                html = client.get(link(seats[s])).get_data(as_text=True)
                assert 'id="tribute"' in html
                assert f'data-card="{code}"' in html
        v2 = cd.seat_view(d2, third)
        assert v2["tribute"]["card"] is None


@pytest.mark.parametrize(("players", "decks"), [(3, 1), (5, 2), (6, 2)])
def test_tables_of_three_to_six_play_out_with_bots(client, players, decks):
    """A table of 3, 5 or 6 (two decks for the larger ones): its bots play the match, each deal a
    sheet row of as many places; each seat's page shows every seat's count."""
    ow = climbing_world(client, deals=1, players=players, decks=decks)
    seats = ow.seats()
    assert len(seats) == players
    ow.bots(*range(players))
    deals = ow.deals()
    assert [d.outcome for d in deals] == ["played"]
    d = replayed(deals[0])
    assert d.n == players and d.variant.decks == decks
    db.session.expire_all()
    rows = db.session.scalars(select(Deal).where(Deal.table_id == ow.tab.id)).all()
    assert [r.places for r in rows] == [list(d.result.places)]  # type: ignore[union-attr]
    page = client.get(link(seats[0])).get_data(as_text=True)
    assert page.count('class="cseat') == 0  # the match is over: the end of the deal shows
    assert page.count("data-place=") >= players


def test_the_sheet_row_of_a_played_deal_carries_the_tribute(client):
    ow = climbing_world(client, deals=2)
    ow.bots(0, 1, 2, 3)  # a table of bots plays its whole match
    db.session.expire_all()
    deals = ow.deals()
    assert [d.outcome for d in deals] == ["played", "played"]
    rows = db.session.scalars(
        select(Deal).where(Deal.table_id == ow.tab.id).order_by(Deal.index)
    ).all()
    assert len(rows) == 2
    d1, d2 = replayed(deals[0]), replayed(deals[1])
    for row, d in zip(rows, (d1, d2), strict=True):
        assert row.places == list(d.result.places)  # type: ignore[union-attr]
    if d2.tribute_card is not None:
        assert rows[1].tribute == {
            "from": d1.result.loser,  # type: ignore[union-attr]
            "to": d1.result.winner,  # type: ignore[union-attr]
            "card": card_str(d2.tribute_card),
        }
    else:
        assert d2.refused and rows[1].tribute is None
    # the export: the online table with its rows, which imports as it is; standings from it
    doc = json.loads(
        ow.director.get(f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/export.json").data
    )
    table_doc = next(x for x in doc["played"][0]["tables"] if x.get("mode") == "online")
    assert [d["places"] for d in table_doc["deals"]] == [
        list(d1.result.places),  # type: ignore[union-attr]
        list(d2.result.places),  # type: ignore[union-attr]
    ]
    comp = tfile.load(doc)
    wins = {r["entrant"]: r["wins"] for r in tfile.standings_json(comp)}
    assert sum(wins.values()) == 2  # each played deal has its 上游


def test_spectators_see_no_hand_and_a_finished_deal_replays(client):
    ow = climbing_world(client, deals=2)
    ow.bots(1, 2, 3)
    row = ow.deals()[0]
    deal = replayed(row)
    # the director's page of the table answers, with its live view
    assert client.get(ow.table_url).status_code == 200
    assert client.get(ow.table_url + "/live").status_code == 200
    watch = ow.table_url.replace("/online", "/watch")
    page = client.get(watch).get_data(as_text=True)
    assert 'id="climb-seats"' in page, page[:3000]
    assert 'id="hand"' not in page and 'name="cards"' not in page
    for s in range(4):
        for c in cards_str(deal.hands[s]):
            assert f'data-card="{c}"' not in page or c in _public(deal)
    me = ow.seats()[0]
    _play_out(client, ow, me, 1)
    r = client.get(f"/play/{me.token}/replays/1")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert 'id="climb-moves"' in text
    n_moves = db.session.scalar(
        select(OnlineAction.seq)
        .where(OnlineAction.deal_id == row.id)
        .order_by(OnlineAction.seq.desc())
        .limit(1)
    )
    assert n_moves
    assert text.count('class="cmove') == sum(
        1 for a in ow.deals()[0].actions if a.record["kind"] in ("play", "pass")
    )


def _public(deal: cd.ClimbingDeal) -> set[str]:
    """The cards on the table: played in this round, or the turned card."""
    out = {card_str(deal.turned)}
    for _s, cards in deal.round:
        out.update(cards_str(cards or ()))
    return out


def test_the_bot_levels_choose_the_climbing_bot(app):
    """``easy`` seats play the random climbing bot, ``normal`` and ``strong`` the heuristic one
    (the climbing engine has no searching bot), each seeded by the deal and the moment."""
    with app.test_request_context():
        for seed in range(1, 30):
            deal = cd.new_deal({"players": 4}, seed=seed)
            while deal.phase == cd.DRAW:
                deal.draw()
            seat = deal.to_act
            assert seat is not None
            row = OnlineDeal(seed=seed, setup=deal.setup.to_json(), version=0)
            for level, kind in (("easy", ClimbingRandomBot), ("normal", ClimbingHeuristicBot)):
                live = bridge.Live(row, replayed_copy(deal), [], frozenset(), levels={seat: level})
                got = bridge.lent_bot_move(live, seat)
                want = kind(seed * 4099 + seat).act(replayed_copy(deal), seat)
                assert got["kind"] == want[0]
                assert got.get("cards", []) == ([] if want[0] == "pass" else cards_str(want[2]))


def replayed_copy(deal: cd.ClimbingDeal) -> cd.ClimbingDeal:
    return cd.replay(deal.setup, list(deal.log))


def test_a_climbing_round_goes_online_from_the_round_page(client):
    """The round page sends a 争上游 round's tables online together, each dealt."""
    w = world()
    login(client, w.director)
    t = create(client, w.club, **CLIMB)
    add_entrants(client, w.club, t, 8, 1)
    rnd = seat(client, w.club, t)
    url = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}"
    page = client.get(url).get_data(as_text=True)
    seen = re.search(r'name="seen" value="([0-9a-f]+)"', page)
    assert seen and 'id="play-online"' in page
    r = client.post(url + "/online", data={"seen": seen.group(1), "tables": ["1", "2"]})
    assert r.status_code == 303
    db.session.expire_all()
    tabs = db.session.scalars(select(Table).where(Table.round_id == rnd.id)).all()
    assert sorted(x.mode for x in tabs) == ["online", "online"]
    for tab in tabs:
        rows = db.session.scalars(select(OnlineDeal).where(OnlineDeal.table_id == tab.id)).all()
        assert [r.setup["variant"] for r in rows] == ["climbing"]


def test_the_move_clock_plays_a_climbing_seat_out_of_time(client, monkeypatch):
    """With seconds per move, a 争上游 seat out of time has its bot make that one move (marked in
    the log), and its page says so."""
    ow = climbing_world(client)
    ow.bots(1, 2, 3)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    t.move_seconds = 45
    db.session.commit()
    me = ow.seats()[0]
    page = client.get(link(me)).get_data(as_text=True)
    assert re.search(r'data-move-clock="4[45]"', page), page[:3000]
    before = ow.deals()[-1].version
    monkeypatch.setattr(tokens, "now", lambda: utcnow() + timedelta(seconds=50))
    r = client.post(link(me) + "/clock", headers={"HX-Request": "true"})
    assert r.status_code == 200
    row = ow.deals()[-1]
    assert row.version > before
    timed = [a.record for a in row.actions if a.record.get("timeout")]
    assert len(timed) == 1 and timed[0]["seat"] == 0
    assert timed[0]["kind"] in ("play", "pass")
    assert "Your time ran out" in r.get_data(as_text=True)


def test_run_bots_plays_a_climbing_table_to_the_end_with_any_kind(client):
    """``flask tournament run-bots`` (autoplay.run_bots): every seat a bot of the kind asked
    (``mc`` has no climbing counterpart: the heuristic plays) until the match counts."""
    ow = climbing_world(client, deals=2)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    run = autoplay.run_bots(t, "mc", db.session.commit)
    assert [one.table.number for one in run.tables] == [ow.tab.number]
    assert [d.outcome for d in ow.deals()] == ["played", "played"]
    db.session.expire_all()
    rows = db.session.scalars(select(Deal).where(Deal.table_id == ow.tab.id)).all()
    assert len(rows) == 2 and all(r.source == "online" for r in rows)


def test_a_climbing_game_moved_to_paper_keeps_its_log_which_replays(client):
    """The director moves the table to paper (confirmed): the online game is discarded, its
    whole log kept in the audit trail, and it replays to the climbing deal it was."""
    ow = climbing_world(client)
    ow.bots(1, 2, 3)
    before = replayed(ow.deals()[0])
    r = client.post(ow.table_url + "/paper", data={"confirm": "1"})
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Table, ow.tab.id).mode == "paper"  # type: ignore[union-attr]
    entries = db.session.scalars(select(AuditEntry).order_by(AuditEntry.id)).all()
    kept = [log for e in entries for log in guards.kept_logs(e.before)]
    assert len(kept) == 1
    again = guards.replay(kept[0]["deals"][0])
    assert isinstance(again, cd.ClimbingDeal)
    assert again.state_dict() == before.state_dict()
