"""The end of every online deal, shown: each seat's page stops on the deal's summary (the last
trick, the kitty face up with its multiplier, the attackers' points, penalties, the result in
words and the levels before → after, equal to the score sheet's), and the next deal starts only
when every human seat has pressed Continue or the tournament's pause has passed — on a POST,
never on a GET. At the end of the match the result is stated."""

from __future__ import annotations

import html as html_lib
import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import OnlineAction, OnlineDeal, Table, Tournament
from app.services.online.cards import card_face
from app.services.tournaments.rows import derive_row_table
from engine.bots import HeuristicBot
from engine.cards import cards_str
from tests.online.online_helpers import (
    OnlineWorld,
    enabled_cards,
    form,
    moves,
    online_world,
    page_token,
    replay_row,
)


def _text(html: str) -> str:
    """The page as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", html)))


def _section(html: str, ident: str) -> str:
    """The inside of the element with that id (up to the first closing tag of its kind)."""
    m = re.search(rf'<(\w+)[^>]*\sid="{ident}"[^>]*>(.*?)</\1>', html, re.S)
    assert m, (ident, html[:3000])
    return m.group(2)


def _choose(ow: OnlineWorld, seat: int, html: str) -> dict:
    """A legal move for a human seat, chosen from what its page offers."""
    v = page_token(html)
    offered = moves(html)
    if "continue" in offered:
        return form(v, "continue")
    if "pass" in offered:
        return form(v, "pass")
    if "friend" in offered:
        return {"v": v, "kind": "friend", "card": "AS"}
    deal = replay_row(ow.deals()[-1])
    kind, _seat, *rest = HeuristicBot(11 + seat).act(deal, seat)
    assert kind in offered, (kind, offered)
    cards = cards_str(rest[0])
    if kind == "play":
        assert set(cards) <= set(enabled_cards(html))
    return form(v, kind, cards)


def _play_deal(ow: OnlineWorld, players: dict[int, FlaskClient], deal_no: int) -> dict[int, str]:
    """Play deal ``deal_no`` for the human seats until every one of them shows its summary;
    returns each human seat's page then. Checks on the way that the kitty stays hidden from
    the seats that did not bury it."""
    urls = {s: f"/play/{tok}" for s, tok in _tokens(ow).items() if s in players}
    for _ in range(400):
        pages = {s: players[s].get(u).get_data(as_text=True) for s, u in urls.items()}
        if all('id="summary"' in p for p in pages.values()):
            assert ow.deals()[-1].number == deal_no
            return pages
        od = ow.deals()[-1]
        assert od.number == deal_no
        deal = replay_row(od)
        for s, p in pages.items():
            if deal.kitty_owner != s:
                assert 'id="kitty"' not in p  # the kitty face up only after the deal
        turn = next((s for s, p in pages.items() if "Your turn." in p), None)
        assert turn is not None, {s: _text(p)[:400] for s, p in pages.items()}
        r = players[turn].post(urls[turn], data=_choose(ow, turn, pages[turn]))
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    raise AssertionError("the deal never ended")


def _tokens(ow: OnlineWorld) -> dict[int, str]:
    return {s.seat: s.token for s in ow.seats()}


def _tab(ow: OnlineWorld) -> Table:
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    return tab


def _age_deal(od: OnlineDeal, seconds: int) -> None:
    """The deal's moves were made ``seconds`` earlier (the pause runs from the last one)."""
    db.session.expire_all()
    for a in db.session.scalars(select(OnlineAction).where(OnlineAction.deal_id == od.id)):
        a.created_at = a.created_at - timedelta(seconds=seconds)
    db.session.commit()


def _two_humans(app: Flask, client: FlaskClient, deals: int = 2) -> tuple[OnlineWorld, dict]:
    ow = online_world(client, "tractor-4p", deals=deals)
    ow.bots(2, 3)
    return ow, {0: app.test_client(), 1: app.test_client()}


def test_the_summary_shows_how_the_deal_ended(app: Flask, client: FlaskClient) -> None:
    ow, players = _two_humans(app, client)
    pages = _play_deal(ow, players, 1)
    od = ow.deals()[-1]
    deal = replay_row(od)
    assert deal.result is not None and deal.dealer is not None
    row = derive_row_table(ow.t, _tab(ow)).rows[0]
    for _seat, html in pages.items():
        text = _text(html)
        assert "Deal over" in _text(_section(html, "summary-title"))
        assert "The match is over." not in text
        # the kitty: turned face up for every seat once the deal is over (it counts only with
        # 抠底, when the attackers won the last trick)
        kitty = _text(_section(html, "kitty"))
        assert sorted(re.findall(r"大王|小王|(?:10|[2-9JQKA])[♠♥♦♣]", kitty)) == sorted(
            card_face(c)["label"] for c in deal.buried
        )
        # the last trick as played, the winner marked
        last = _section(html, "last-trick")
        for s, cards in deal.tricks[-1].plays:
            assert ow.seats()[s] is not None
            for c in cards:
                assert card_face(c)["label"] in last
        # 抠底 with its multiplier, or why the kitty does not count
        mult = _text(_section(html, "multiplier"))
        if deal.kitty_bonus is not None:
            pts, m = deal.kitty_bonus
            assert f"Kitty ×{m} (抠底)" in mult and f"count {pts * m}" in mult
        else:
            assert "does not count" in mult
        # the result in words and the attackers' total
        words = _text(_section(html, "result"))
        if deal.result.winner == "declarer":
            assert f"The declarers hold: up {deal.result.levels} level" in words
        elif deal.result.levels:
            assert f"The attackers take over and go up {deal.result.levels} level" in words
        else:
            assert "The attackers take over." in words
        assert f"The attackers' total: {deal.result.total} " in text
        # levels before → after: the score sheet's row
        levels = _text(_section(html, "levels"))
        for side in (0, 1):
            assert f"{row.levels_before[side]} → {row.levels_after[side]}" in levels
        # the header's levels are the sheet's (after the deal)
        head = _text(_section(html, "head-levels"))
        assert re.findall(r" ([2-9JQKA]|10)(?= |$)", head) == list(row.levels_after)
        assert 'data-move="ready"' in html
    # in Chinese
    zh = players[0].get(f"/play/{_tokens(ow)[0]}", headers={"Accept-Language": "zh-CN"})
    words = _text(_section(zh.get_data(as_text=True), "result"))
    if deal.result.winner == "declarer":
        assert f"庄家守住，升 {deal.result.levels} 级" in words
    else:
        assert "闲家上台" in words
    assert "底牌" in _text(zh.get_data(as_text=True))


def test_the_next_deal_waits_for_every_human_seat(app: Flask, client: FlaskClient) -> None:
    ow, players = _two_humans(app, client)
    pages = _play_deal(ow, players, 1)
    tokens = _tokens(ow)
    od = ow.deals()[-1]
    assert len(ow.deals()) == 1  # the bots do not race ahead to deal 2
    # GETs never deal on, even long after the pause
    _age_deal(od, 3600)
    for s in (0, 1):
        assert players[s].get(f"/play/{tokens[s]}").status_code == 200
        assert players[s].get(f"/play/{tokens[s]}/poll?v=0.0").status_code == 200
    assert len(ow.deals()) == 1
    _age_deal(od, -3600)  # back to now: the pause has not passed
    before = page_token(pages[0])
    r = players[0].post(f"/play/{tokens[0]}/ready", data={"v": before})
    assert r.status_code == 303
    assert len(ow.deals()) == 1  # seat 1 has not pressed Continue yet
    after = players[0].get(f"/play/{tokens[0]}").get_data(as_text=True)
    assert page_token(after) != before  # the ready entry moved the state on: polls see it
    assert 'data-move="ready"' not in after  # seat 0 is ready
    assert "Waiting for: " + ow_names(ow)[1] in _text(after)
    seat1 = players[1].get(f"/play/{tokens[1]}").get_data(as_text=True)
    assert 'data-move="ready"' in seat1
    # a second Continue of seat 0 changes nothing
    players[0].post(f"/play/{tokens[0]}/ready", data={"v": page_token(after)})
    assert len(ow.deals()) == 1
    assert sum(1 for a in ow.deals()[0].actions if a.record["kind"] == "ready") == 1
    # the last human presses Continue: deal 2 starts
    r = players[1].post(f"/play/{tokens[1]}/ready", data={"v": page_token(seat1)})
    assert r.status_code == 303
    deals = ow.deals()
    assert [d.number for d in deals] == [1, 2]
    assert [a.record for a in deals[0].actions if a.record["kind"] == "ready"] == [
        {"kind": "ready", "seat": 0},
        {"kind": "ready", "seat": 1},
    ]
    assert replay_row(deals[0]).outcome == "played"  # replay skips the ready entries
    page = players[0].get(f"/play/{tokens[0]}").get_data(as_text=True)
    assert 'id="summary"' not in page and 'id="table"' in page
    # the header's levels during deal 2 are still the sheet's
    derived = derive_row_table(ow.t, _tab(ow))
    head = _text(_section(page, "head-levels"))
    assert re.findall(r" ([2-9JQKA]|10)(?= |$)", head) == list(derived.levels)


def ow_names(ow: OnlineWorld) -> list[str]:
    from app.services.tournaments.rows import seat_names

    return seat_names(_tab(ow))[1]


def test_the_pause_deals_on_by_a_post_once_it_has_passed(app: Flask, client: FlaskClient) -> None:
    ow, players = _two_humans(app, client)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    t.online_pause = 30
    db.session.commit()
    pages = _play_deal(ow, players, 1)
    tokens = _tokens(ow)
    left = re.search(r'data-countdown="(\d+)"', pages[0])
    assert left and 25 <= int(left.group(1)) <= 30
    # the page's countdown posts "next" too early (its clock is ahead): nothing happens
    r = players[1].post(f"/play/{tokens[1]}/next")
    assert r.status_code == 303 and len(ow.deals()) == 1
    _age_deal(ow.deals()[0], 31)
    page = players[0].get(f"/play/{tokens[0]}").get_data(as_text=True)
    assert 'data-countdown="0"' in page and len(ow.deals()) == 1  # a GET does not deal on
    r = players[1].post(f"/play/{tokens[1]}/next")
    assert r.status_code == 303
    assert [d.number for d in ow.deals()] == [1, 2]
    # a second "next" from the other page changes nothing
    players[0].post(f"/play/{tokens[0]}/next")
    assert [d.number for d in ow.deals()] == [1, 2]


def test_a_bot_table_and_a_redeal_do_not_wait(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p", deals=2)
    ow.bots(0, 1, 2, 3)  # nobody to wait for
    assert [d.outcome for d in ow.deals()] == ["played", "played"]


def test_the_match_result_is_stated_at_the_end(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    pages = _play_deal(ow, {0: app.test_client()}, 1)
    html = pages[0]
    text = _text(html)
    derived = derive_row_table(ow.t, _tab(ow))
    assert derived.counts
    sides = _sides(ow)
    assert "The match is over." in text
    result = _text(_section(html, "match-result"))
    diff = derived.level_diff(0)
    if diff == 0:
        assert "A draw" in result
    else:
        assert f"{sides[0 if diff > 0 else 1]} win the match." in result
    assert f"Level difference (级差): {abs(diff)}" in result
    for side in (0, 1):
        assert f"{sides[side]} {derived.levels[side]}" in result
    assert 'data-move="ready"' not in html and "data-countdown" not in html
    zh = players_get_zh(app, ow)
    assert "本场比赛已结束。" in zh
    assert "级差" in zh


def players_get_zh(app: Flask, ow: OnlineWorld) -> str:
    r = app.test_client().get(f"/play/{_tokens(ow)[0]}", headers={"Accept-Language": "zh-CN"})
    return _text(r.get_data(as_text=True))


def _sides(ow: OnlineWorld) -> list[str]:
    from app.services.tournaments.rows import seat_names

    return seat_names(_tab(ow))[0]


def test_a_red_five_match_states_the_points_totals(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(HeuristicBot, "on_draw", lambda self, deal, seat: None)
    ow = online_world(client, "red-five-5p", deals=1)
    ow.bots(1, 2, 3, 4)
    html = _play_deal(ow, {0: app.test_client()}, 1)[0]
    derived = derive_row_table(ow.t, _tab(ow))
    names = ow_names(ow)
    deal = replay_row(ow.deals()[-1])
    assert deal.result is not None and deal.result.scores is not None
    # this deal's 积分 and the totals, per player
    levels = _text(_section(html, "levels"))
    for s in range(5):
        assert f"{names[s]}" in levels
        assert f"{deal.result.scores[s]:+d} {derived.totals[s]}" in levels
    result = _text(_section(html, "match-result"))
    top = max(derived.totals)
    leaders = [names[s] for s in range(5) if derived.totals[s] == top]
    if len(leaders) == 1:
        assert f"{leaders[0]} wins the table with {top} point" in result
    else:
        assert f"{', '.join(leaders)} share the top of the table with {top} point" in result
    for s in range(5):
        assert f"{names[s]} {derived.totals[s]}" in result
    units = deal.result.units
    words = _text(_section(html, "result"))
    side = "The dealer's side wins" if deal.result.winner == "declarer" else "The attackers win"
    assert f"{side}: {units} unit" in words


def test_a_continue_that_met_another_write_is_tried_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.services.online import bridge, moves

    ow, players = _two_humans(app, client)
    pages = _play_deal(ow, players, 1)
    real = moves.ready
    calls: list[int] = []

    def once_stale(seat_row, seen):  # type: ignore[no-untyped-def]
        calls.append(seat_row.seat)
        if len(calls) == 1:  # as if seat 1's Continue took the version first
            raise bridge.Stale("moved on")
        return real(seat_row, seen)

    monkeypatch.setattr(moves, "ready", once_stale)
    token = _tokens(ow)[0]
    r = players[0].post(f"/play/{token}/ready", data={"v": page_token(pages[0])})
    assert r.status_code == 303 and calls == [0, 0]
    assert [a.record for a in ow.deals()[0].actions if a.record["kind"] == "ready"] == [
        {"kind": "ready", "seat": 0}
    ]
