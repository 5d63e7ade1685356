"""A take-back (悔牌) at an online table: the seat that played last asks, before the next seat
has played; the next seat accepts (the deal is rebuilt from its log without that play, the card
back in the hand) or refuses (nothing changes). In a competition preset an accepted take-back
is written on the score sheet as RULES §7's ``takeback`` penalty, with its effect."""

from __future__ import annotations

import copy
import re
from dataclasses import replace

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.competition.matches import FixedMatch
from app.extensions import db
from app.models import Deal as SheetDeal
from app.models import OnlineAction, Table, Tournament
from app.services.tournaments.rows import deal_from_row, derive_row_table
from engine.bots import HeuristicBot, perform
from engine.cards import RANKS, cards_str
from tests.online.online_helpers import (
    OnlineWorld,
    form,
    moves,
    online_world,
    page_token,
    replay_row,
)


def _choose(ow: OnlineWorld, seat: int, html: str) -> dict:
    v = page_token(html)
    offered = moves(html)
    if "continue" in offered:
        return form(v, "continue")
    if "pass" in offered:
        return form(v, "pass")
    deal = replay_row(ow.deals()[-1])
    kind, _seat, *rest = HeuristicBot(11 + seat).act(deal, seat)
    return form(v, kind, cards_str(rest[0]) if rest else ())


def _setup(app: Flask, client: FlaskClient) -> tuple[OnlineWorld, dict[int, FlaskClient]]:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(2, 3)
    return ow, {0: app.test_client(), 1: app.test_client()}


def _url(ow: OnlineWorld, seat: int) -> str:
    return f"/play/{ow.seats()[seat].token}"


def _to_askable(ow: OnlineWorld, players: dict[int, FlaskClient]) -> list[str]:
    """Play until seat 0 has just played a card that seat 1 (a human) answers next, in an
    open trick; returns the cards seat 0 played."""
    for _ in range(400):
        od = ow.deals()[-1]
        deal = replay_row(od)
        turn = deal.to_act if deal.outcome is None else None
        if turn not in (0, 1):
            # the draw waits for a seat that may call: find it on the pages
            pages = {s: players[s].get(_url(ow, s)).get_data(as_text=True) for s in (0, 1)}
            turn = next(s for s, p in pages.items() if "Your turn." in p)
        page = players[turn].get(_url(ow, turn)).get_data(as_text=True)
        data = _choose(ow, turn, page)
        if turn == 0 and data["kind"] == "play" and deal.phase == "play":
            after = copy.deepcopy(deal)
            perform(
                after,
                (
                    "play",
                    0,
                    [c for c in deal.hands[0] if cards_str([c])[0] in data["cards"]][
                        : len(data["cards"])
                    ],
                ),
            )
            if after.to_act == 1 and after.trick is not None and after.trick.plays:
                r = players[0].post(_url(ow, 0), data=data)
                assert r.status_code == 303
                return list(data["cards"])
        r = players[turn].post(_url(ow, turn), data=data)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    raise AssertionError("seat 0 never played before seat 1")


def _ask(ow: OnlineWorld, players: dict[int, FlaskClient]) -> str:
    page = players[0].get(_url(ow, 0)).get_data(as_text=True)
    assert 'data-takeback="ask"' in page, "the seat that played last may ask"
    r = players[0].post(_url(ow, 0) + "/takeback", data={"v": page_token(page), "answer": "ask"})
    assert r.status_code == 303
    page1 = players[1].get(_url(ow, 1)).get_data(as_text=True)
    assert "asks to take back" in page1 and 'data-takeback="accept"' in page1
    return page1


def _finish(ow: OnlineWorld, players: dict[int, FlaskClient]) -> None:
    for _ in range(400):
        if ow.deals()[-1].outcome is not None:
            return
        pages = {s: players[s].get(_url(ow, s)).get_data(as_text=True) for s in (0, 1)}
        turn = next((s for s, p in pages.items() if "Your turn." in p), None)
        assert turn is not None
        r = players[turn].post(_url(ow, turn), data=_choose(ow, turn, pages[turn]))
        assert r.status_code == 303
    raise AssertionError("the deal never ended")


def _sheet_penalties(ow: OnlineWorld) -> list:
    db.session.expire_all()
    rows = list(db.session.scalars(select(SheetDeal).where(SheetDeal.table_id == ow.tab.id)))
    assert len(rows) == 1
    return list(rows[0].penalties or [])


def test_an_accepted_takeback_rebuilds_the_deal_and_is_a_penalty_in_competition(
    app: Flask, client: FlaskClient
) -> None:
    ow, players = _setup(app, client)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    t.preset = "competition-tractor"
    db.session.commit()
    played = _to_askable(ow, players)
    hand_before = replay_row(ow.deals()[-1]).hands[0]
    page1 = _ask(ow, players)
    r = players[1].post(
        _url(ow, 1) + "/takeback", data={"v": page_token(page1), "answer": "accept"}
    )
    assert r.status_code == 303
    deal = replay_row(ow.deals()[-1])
    assert deal.to_act == 0, "the seat plays again"
    assert len(deal.hands[0]) == len(hand_before) + len(played)
    page0 = players[0].get(_url(ow, 0)).get_data(as_text=True)
    assert "Your turn." in page0
    for c in played:
        assert re.search(rf'name="cards" value="{c}"', page0), "the card is back in the hand"
    kinds = [a.record["kind"] for a in db.session.scalars(select(OnlineAction))]
    assert kinds.count("takeback") == 1 and kinds.count("takeback_ask") == 1
    _finish(ow, players)
    declarer = replay_row(ow.deals()[-1]).dealer
    assert declarer is not None
    side = "declarer" if declarer % 2 == 0 else "attackers"
    assert _sheet_penalties(ow) == [{"kind": "takeback", "side": side}]
    # its effect (takeback_effect "level"): the asker's side one level lower than without it
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    with_it = derive_row_table(t, tab)
    without = derive_row_table(t, tab, [replace(deal_from_row(d), penalties=()) for d in tab.deals])
    assert isinstance(with_it, FixedMatch) and isinstance(without, FixedMatch)
    mine, other = RANKS.index(with_it.levels[0]), RANKS.index(without.levels[0])
    assert mine == max(other - 1, 0), (with_it.levels, without.levels)
    assert with_it.levels[1] == without.levels[1]


def test_a_refused_takeback_leaves_the_deal(app: Flask, client: FlaskClient) -> None:
    ow, players = _setup(app, client)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    t.preset = "competition-tractor"
    db.session.commit()
    _to_askable(ow, players)
    before = replay_row(ow.deals()[-1])
    page1 = _ask(ow, players)
    r = players[1].post(
        _url(ow, 1) + "/takeback", data={"v": page_token(page1), "answer": "refuse"}
    )
    assert r.status_code == 303
    after = replay_row(ow.deals()[-1])
    assert after.hands == before.hands and after.to_act == 1
    page0 = players[0].get(_url(ow, 0)).get_data(as_text=True)
    assert "refused to let you take your card back" in page0
    assert 'data-takeback="ask"' not in page0, "one ask per play"
    _finish(ow, players)
    assert _sheet_penalties(ow) == []


def test_a_takeback_in_a_club_tournament_is_not_a_penalty(app: Flask, client: FlaskClient) -> None:
    ow, players = _setup(app, client)
    _to_askable(ow, players)
    page1 = _ask(ow, players)
    r = players[1].post(
        _url(ow, 1) + "/takeback", data={"v": page_token(page1), "answer": "accept"}
    )
    assert r.status_code == 303
    _finish(ow, players)
    assert _sheet_penalties(ow) == []


def test_a_takeback_is_refused_once_the_next_seat_has_played(
    app: Flask, client: FlaskClient
) -> None:
    ow, players = _setup(app, client)
    _to_askable(ow, players)
    page0 = players[0].get(_url(ow, 0)).get_data(as_text=True)
    page1 = players[1].get(_url(ow, 1)).get_data(as_text=True)
    r = players[1].post(_url(ow, 1), data=_choose(ow, 1, page1))
    assert r.status_code == 303
    r = players[0].post(
        _url(ow, 0) + "/takeback",
        data={"v": page_token(page0), "answer": "ask"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 409  # the page was stale: the next seat played meanwhile
    page0 = players[0].get(_url(ow, 0)).get_data(as_text=True)
    r = players[0].post(
        _url(ow, 0) + "/takeback",
        data={"v": page_token(page0), "answer": "ask"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 422
    assert "Only your last card can be taken back" in r.get_data(as_text=True)
