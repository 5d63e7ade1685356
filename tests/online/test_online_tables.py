"""Online tables: bots fill seats, a human plays through the seat link, moves carry the version
they saw, a seat sees only its own hand, and a restarted app resumes the same game. Finished
deals land in the score sheet as rows equal to what the engine computed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select, update

from app.extensions import db
from app.models import Deal as DealRow
from app.models import OnlineAction, OnlineDeal, OnlineSeat, Round, Table
from app.services.tournaments.rows import derive_row_table
from engine.bots import HeuristicBot
from engine.cards import card_str, cards_str
from tests.online.online_helpers import (
    OnlineWorld,
    disabled_cards,
    enabled_cards,
    form,
    moves,
    online_world,
    page_token,
    replay_row,
)


def _rows(ow: OnlineWorld) -> list[DealRow]:
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    return list(tab.deals)


def _assert_rows_match_engine(ow: OnlineWorld) -> int:
    """Every played online deal is a sheet row holding the engine's own numbers."""
    rows = _rows(ow)
    played = [d for d in ow.deals() if d.outcome == "played"]
    assert len(rows) == len(played)
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    derived = derive_row_table(ow.t, tab)
    assert not derived.errors
    for i, (od, row) in enumerate(zip(played, rows, strict=True)):
        deal = replay_row(od)
        assert od.sheet_index == row.index == i
        assert row.source == "online"
        assert deal.result is not None and deal.dealer is not None
        assert row.points == deal.attackers_points()
        kitty, mult = deal.kitty_bonus or (0, 0)
        assert (row.kitty, row.multiplier) == (kitty, mult)
        assert row.trump == deal.trump
        if ow.t.variant == "red-five-5p":
            assert (row.dealer, row.friend) == (deal.dealer, deal.friend)
            assert derived.rows[i].scores == tuple(deal.result.scores or ())
        else:
            assert row.declarer == deal.dealer % 2
            assert row.level == deal.level
            assert derived.rows[i].winner == deal.result.winner
            assert derived.rows[i].gain == deal.result.levels
        assert derived.rows[i].total == deal.result.total
    return len(rows)


@pytest.mark.parametrize(
    ("variant", "deals"), [("tractor-4p", 2), ("red-five-5p", 2), ("one-twenty-6p", 1)]
)
def test_a_table_of_bots_plays_its_match_into_the_sheet(
    app: Flask, client, variant: str, deals: int
) -> None:
    ow = online_world(client, variant, deals=deals)
    players = {"tractor-4p": 4, "red-five-5p": 5, "one-twenty-6p": 6}[variant]
    ow.bots(*range(players))
    assert _assert_rows_match_engine(ow) == deals
    last = ow.deals()[-1]
    assert last.outcome == "played" and last.version == len(last.actions)
    # the next deal follows the rules: the dealer the engine's game would name
    if variant == "tractor-4p":
        first, second = (replay_row(d) for d in ow.deals() if d.outcome == "played")
        assert second.setup.first is False
        assert second.setup.dealer == (
            (first.dealer + 2) % 4
            if first.result.winner == "declarer"  # type: ignore[union-attr]
            else (first.dealer + 1) % 4  # type: ignore[operator]
        )
        assert second.setup.levels == tuple(
            derive_row_table(ow.t, db.session.get(Table, ow.tab.id)).rows[0].levels_after  # type: ignore[arg-type,union-attr]
        )


def _choose(ow: OnlineWorld, html: str) -> dict:
    """A human move for seat 0, from what its page offers (a bot's choice of cards, which the
    page must show as selectable)."""
    v = page_token(html)
    offered = moves(html)
    od = ow.deals()[-1]
    deal = replay_row(od)
    if "continue" in offered:
        return form(v, "continue")
    if "pass" in offered:
        return form(v, "pass")
    if "friend" in offered:
        return {"v": v, "kind": "friend", "card": "AS"}
    kind, _seat, *rest = HeuristicBot(7).act(deal, 0)
    assert kind in offered, (kind, offered)
    cards = cards_str(rest[0])
    # what the table shows, in its data-* attributes too: level, trump, the lead's cards, and
    # how many cards the play button asks for (the kitty's size; the lead's when following)
    felt = re.search(r'id="table"[^>]*? data-level="([^"]*)" data-trump="([^"]*)"', html)
    assert felt is not None and felt.groups() == (deal.level or "", deal.trump or "")
    need = re.search(r'data-move="(?:play|bury)" data-need="(\d+)"', html)
    tr = deal.trick
    if kind == "bury":
        assert need is not None and int(need.group(1)) == deal.kitty_size
    elif tr is not None and tr.plays:
        leader, lead = tr.plays[0]
        assert f'data-leader="{leader}"' in html
        shown = re.search(rf'data-seat="{leader}" data-cards="([^"]*)"', html)
        assert shown is not None and sorted(shown.group(1).split()) == sorted(cards_str(lead))
        assert need is not None and int(need.group(1)) == len(lead)
    else:
        assert need is None and "data-leader=" not in html
    if kind == "play":
        playable = enabled_cards(html)
        assert set(cards) <= set(playable)
        assert set(playable) == set(cards_str(deal.playable_cards(0)))
        assert not set(disabled_cards(html)) & set(playable)
    return form(v, kind, cards)


@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p", "one-twenty-6p"])
def test_a_human_plays_a_whole_deal_against_bots(app: Flask, client, variant: str) -> None:
    ow = online_world(client, variant, deals=1)
    players = {"tractor-4p": 4, "red-five-5p": 5, "one-twenty-6p": 6}[variant]
    ow.bots(*range(1, players))
    me = ow.seats()[0]
    player = app.test_client()  # no login: the link is the capability
    url = f"/play/{me.token}"
    moves_made = 0
    while True:
        page = player.get(url)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        if "The match is over." in html:
            break
        assert "Your turn." in html, html[:3000]
        r = player.post(url, data=_choose(ow, html))
        assert r.status_code == 303, r.get_data(as_text=True)[:3000]
        moves_made += 1
        assert moves_made < 300
    assert _assert_rows_match_engine(ow) == 1
    # seat 0 played every card of its hand itself, the bots never moved for it
    mine = [
        a for a in ow.deals()[-1].actions if a.record["seat"] == 0 and a.record["kind"] == "play"
    ]
    assert {a.actor for a in mine} == {"seat 0"}
    hand = replay_row(ow.deals()[-1]).variant.hand
    assert sum(len(a.record.get("played") or a.record["cards"]) for a in mine) == hand
    assert moves_made >= len(mine)
    actors = set(
        db.session.scalars(
            select(OnlineAction.actor).join(OnlineDeal).where(OnlineDeal.table_id == ow.tab.id)
        )
    )
    assert {"seat 0", "bot", "chance"} <= actors and "seat 1" not in actors


def _state(ow: OnlineWorld) -> tuple:
    db.session.expire_all()
    n = db.session.scalar(
        select(func.count(OnlineAction.id)).join(OnlineDeal).where(OnlineDeal.table_id == ow.tab.id)
    )
    return n, [(d.number, d.version) for d in ow.deals()], len(_rows(ow))


def _to_my_turn(ow: OnlineWorld, player, url: str) -> str:
    """Continue/pass until seat 0 must bury or play."""
    for _ in range(50):
        html = player.get(url).get_data(as_text=True)
        offered = moves(html)
        if "play" in offered or "bury" in offered:
            return html
        r = player.post(url, data=_choose(ow, html))
        assert r.status_code == 303
    raise AssertionError("seat 0 never had to play")


def test_stale_or_repeated_moves_change_nothing(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    player = app.test_client()
    url = f"/play/{me.token}"
    html = _to_my_turn(ow, player, url)
    move = _choose(ow, html)
    before = _state(ow)
    stale = dict(move, v="1.3")
    r = player.post(url, data=stale)
    assert r.status_code == 409
    assert "moved on" in r.get_data(as_text=True)
    assert _state(ow) == before
    r = player.post(url, data=move)
    assert r.status_code == 303
    after = _state(ow)
    assert after != before
    again = player.post(url, data=move)  # a double click: the same move on the old version
    assert again.status_code == 409
    assert _state(ow) == after
    # an illegal move (a card not in the hand) is refused with the engine's reason
    html = _to_my_turn(ow, player, url)
    now = _state(ow)
    mine = set(enabled_cards(html)) | set(disabled_cards(html))
    foreign = next(c for c in ("AS", "AH", "AD", "AC", "KS", "KH", "2C") if c not in mine)
    r = player.post(url, data=form(page_token(html), "play", [foreign]))
    assert r.status_code == 422
    assert _state(ow) == now
    # polling: 204 while nothing changed, the partial otherwise
    token = page_token(html)
    assert player.get(f"{url}/poll?v={token}").status_code == 204
    r = player.get(f"{url}/poll?v=0.0")
    assert r.status_code == 200 and 'id="seat"' in r.get_data(as_text=True)
    assert "<html" not in r.get_data(as_text=True)


def _labels(cards: list[int]) -> set[str]:
    from app.services.online.cards import card_face

    return {card_face(c)["label"] for c in cards}


def test_a_seat_link_shows_only_its_own_hand(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    seats = ow.seats()
    player = app.test_client()
    for turn in range(12):
        deal = replay_row(ow.deals()[-1])
        for s in seats:
            if s.bot:
                continue
            html = player.get(f"/play/{s.token}").get_data(as_text=True)
            mine = set(deal.hands[s.seat])
            shown: set[int] = set(mine)
            for t in deal.tricks[-1:] + ([deal.trick] if deal.trick else []):
                shown |= {c for _s, p in t.plays for c in p}
            shown |= {c for _s, cs, _k in deal.call_seq for c in cs}
            if deal.kitty_owner == s.seat:
                shown |= set(deal.buried)  # the cards it buried itself
            hidden = {c for h in deal.hands for c in h} - shown
            for label in _labels(sorted(hidden)):
                assert f">{label}<" not in html, (turn, label)
            for c in hidden:
                assert f'value="{card_str(c)}"' not in html
            # a second seat's link shows its own hand, not this one
            assert f"· seat {s.seat + 1}" in html
        me = seats[0]
        html = player.get(f"/play/{me.token}").get_data(as_text=True)
        if "Your turn." not in html:
            break
        player.post(f"/play/{me.token}", data=_choose(ow, html))
    # a guessed link is a 404, and a seat link is not a director's page
    assert player.get("/play/not-a-real-seat-token").status_code == 404
    assert player.get(ow.table_url).status_code in (302, 401)


def test_a_restarted_app_resumes_the_same_game(app: Flask, client) -> None:
    from app import create_app
    from tests.conftest import app_config

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    url = f"/play/{me.token}"
    html = _to_my_turn(ow, app.test_client(), url)
    token = page_token(html)
    hand = re.findall(r'name="cards" value="([^"]+)"', html)
    move = _choose(ow, html)  # decided before the restart, sent after it
    db.session.remove()
    second = create_app(app_config(SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"]))
    with second.app_context():
        other = second.test_client()
        html2 = other.get(url).get_data(as_text=True)
        assert page_token(html2) == token
        assert re.findall(r'name="cards" value="([^"]+)"', html2) == hand
        r = other.post(url, data=move)
        assert r.status_code == 303
        assert page_token(other.get(url).get_data(as_text=True)) != token


def test_the_director_switches_before_the_first_deal_only(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p", tables=2)
    page = client.get(ow.table_url).get_data(as_text=True)
    links = re.findall(r"/play/[A-Za-z0-9_-]+", page)
    assert len(set(links)) == 4
    round_page = client.get(ow.table_url.split("/tables/")[0]).get_data(as_text=True)
    # only table 1 (the round's own "play this round online" form posts to …/rounds/1/online)
    assert len(re.findall(r'/tables/\d+/online"', round_page)) == 1 and ow.table_url in round_page
    assert client.post(ow.table_url).status_code == 303  # already online: refused, nothing new
    assert len(ow.seats()) == 4
    # the paper sheet refuses typed deals for an online table
    sheet = ow.table_url.removesuffix("/online")
    r = client.post(sheet, data={"declarer": 0, "trump": "S", "points": 40, "kitty": 0})
    assert r.status_code == 422
    assert _rows(ow) == []
    # a table with a typed deal cannot go online
    tab2 = next(x for x in ow.rnd.tables if x.number != ow.tab.number)
    sheet2 = sheet.rsplit("/", 1)[0] + f"/{tab2.number}"
    assert (
        client.post(
            sheet2, data={"declarer": 0, "trump": "S", "points": 40, "kitty": 0, "multiplier": 0}
        ).status_code
        == 303
    )
    r = client.post(sheet2 + "/online", follow_redirects=True)
    assert "only go online before" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Table, tab2.id).mode == "paper"  # type: ignore[union-attr]


def test_red_five_human_dealer_buries_and_calls_the_friend(
    app: Flask, client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bots never call: seat 0, the previous dealer, stays dealer (压庄) and acts as one
    monkeypatch.setattr(HeuristicBot, "on_draw", lambda self, deal, seat: None)
    ow = online_world(client, "red-five-5p", deals=1)
    ow.bots(1, 2, 3, 4)
    me = ow.seats()[0]
    player = app.test_client()
    url = f"/play/{me.token}"
    seen: list[str] = []
    for _ in range(300):
        html = player.get(url).get_data(as_text=True)
        if "The match is over." in html:
            break
        offered = moves(html)
        seen += sorted(offered)
        if "bury" in offered:
            v = replay_row(ow.deals()[-1]).variant
            assert len(enabled_cards(html)) == v.hand + v.kitty
            assert not disabled_cards(html)  # any card may be buried
        assert player.post(url, data=_choose(ow, html)).status_code == 303
    assert "bury" in seen and "friend" in seen
    deal = replay_row(ow.deals()[-1])
    assert deal.dealer == 0 and deal.friend_card is not None and card_str(deal.friend_card) == "AS"
    assert _assert_rows_match_engine(ow) == 1


def test_a_human_calls_trump_while_the_cards_are_dealt(
    app: Flask, client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # shuffle 1 gives seat 0 a call during the draw; the bots keep quiet
    monkeypatch.setattr("app.services.online.bridge.secrets.randbits", lambda _bits: 1)
    monkeypatch.setattr(HeuristicBot, "on_draw", lambda self, deal, seat: None)
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    for _ in range(60):
        html = player.get(url).get_data(as_text=True)
        deal = replay_row(ow.deals()[-1])
        assert deal.phase == "draw"
        if "call" in moves(html):
            form_html = html.split('value="call">', 1)[1].split("</form>", 1)[0]
            cards = re.findall(r'name="cards" value="([^"]+)"', form_html)
            assert cards in [cards_str(c) for c in deal.legal_calls(0)]
            r = player.post(url, data=form(page_token(html), "call", cards))
            assert r.status_code == 303
            deal = replay_row(ow.deals()[-1])
            assert deal.call_seq[0][0] == 0 and cards_str(deal.call_seq[0][1]) == cards
            return
        assert moves(html) == {"continue"}, moves(html)
        player.post(url, data=form(page_token(html), "continue"))
    raise AssertionError("the draw never paused for seat 0")


def test_a_closed_round_takes_no_more_moves(app: Flask, client) -> None:
    from app.models import Round

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = player.get(url).get_data(as_text=True)
    rnd = db.session.get(Round, ow.rnd.id)
    assert rnd is not None
    rnd.status = "closed"
    db.session.commit()
    before = _state(ow)
    r = player.post(url, data=_choose(ow, html))
    assert r.status_code == 422 and "closed" in r.get_data(as_text=True)
    assert _state(ow) == before


CHANGED_MEANWHILE = {
    "round closed": lambda ow: update(Round).where(Round.id == ow.rnd.id).values(status="closed"),
    "table finished": lambda ow: update(Table).where(Table.id == ow.tab.id).values(finished=True),
    "table on paper": lambda ow: update(Table).where(Table.id == ow.tab.id).values(mode="paper"),
    "my seat to a bot": lambda ow: (
        update(OnlineSeat)
        .where(OnlineSeat.table_id == ow.tab.id, OnlineSeat.seat == 0)
        .values(bot=True)
    ),
    "a bot's seat back to its player": lambda ow: (
        update(OnlineSeat)
        .where(OnlineSeat.table_id == ow.tab.id, OnlineSeat.seat == 2)
        .values(bot=False)
    ),
}


@pytest.mark.parametrize("change", sorted(CHANGED_MEANWHILE))
def test_a_move_computed_before_its_table_changed_writes_nothing(
    app: Flask, client, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another worker changes the table between the move's reads and its write: the write
    (the deal row's compare and swap, which checks the table and its seats) refuses it."""
    from app.services.online import bridge

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    html = _to_my_turn(ow, player, url)
    move = _choose(ow, html)
    before = _state(ow)
    real = bridge.write_alone  # the move has read and computed; its write comes next

    def meanwhile(session: Any) -> bool:
        with db.engine.begin() as other:  # another worker's transaction, committed
            other.execute(CHANGED_MEANWHILE[change](ow))
        return real(session)

    monkeypatch.setattr(bridge, "write_alone", meanwhile)
    r = player.post(url, data=move, headers={"HX-Request": "true"})
    assert r.status_code == 409, r.get_data(as_text=True)[:2000]
    assert "moved on" in r.get_data(as_text=True)
    assert _state(ow) == before


def test_a_move_its_write_refused_is_computed_again_and_written(app: Flask, client) -> None:
    """A request whose write found the table changed may compute the move again and write it,
    as the move clock's and the take-back's retries do: its second try acts on a copy of the
    deal of its own (not the cache's), and writes."""
    from app.db import read_first
    from app.services.online import bridge

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    tab_id = ow.tab.id
    back = CHANGED_MEANWHILE["a bot's seat back to its player"](ow)
    tries: list[str] = []

    @read_first
    def view() -> None:
        for attempt in (1, 2):
            tab = db.session.get(Table, tab_id)
            assert tab is not None
            live = bridge.load(tab)
            assert live is not None and live.waiting_for() == 0
            live.add({"kind": "continue", "seat": 0}, "seat 0")
            if attempt == 1:
                with db.engine.begin() as other:  # another worker, meanwhile
                    other.execute(back)
            try:
                bridge.save(live)
            except bridge.Stale:
                db.session.rollback()
                tries.append("stale")
                continue
            db.session.commit()
            tries.append("written")
            return

    before = _state(ow)
    db.session.remove()  # the view's session begins in it, as a request's does
    with app.test_request_context(method="POST"):
        view()
    assert tries == ["stale", "written"]
    assert _state(ow)[1][-1][1] == before[1][-1][1] + 1


def test_two_writers_of_one_version_cannot_both_append(app: Flask, client) -> None:
    """Compare and swap: a writer whose version was taken meanwhile writes nothing (Stale)."""
    from app.services.online import bridge

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    with app.test_request_context(method="POST"):  # a writer (a GET's deal is only read)
        live = bridge.load(tab)
        assert live is not None and live.waiting_for() == 0
        version = live.row.version
        # another worker appended meanwhile (its own transaction moved the version on)
        db.session.execute(
            update(OnlineDeal)
            .where(OnlineDeal.id == live.row.id)
            .values(version=version + 1)
            .execution_options(synchronize_session=False)
        )
        live.add({"kind": "continue", "seat": 0}, "seat 0")
        with pytest.raises(bridge.Stale):
            bridge.save(live)
        db.session.rollback()
    assert [d.version for d in ow.deals()] == [version]


def test_a_timed_match_stops_when_the_director_says_time_is_up(app: Flask, client) -> None:
    w = online_world(client, "tractor-4p", deals=30, kind="minutes")
    w.bots(0, 1, 2, 3)  # bots only: a budget of deals per request, not an endless loop
    played = _assert_rows_match_engine(w)
    assert 1 <= played < 60
    page = client.get(w.table_url).get_data(as_text=True)
    assert "Time is up: stop the table" in page
    token = w.seats()[0].token
    w.director.post(w.table_url + "/bots", data={"seat": "0", "bot": "0"})  # seat 0 is human
    before = _state(w)
    assert before[2] >= played
    r = client.post(w.table_url + "/finish")
    assert r.status_code == 303
    db.session.expire_all()
    tab = db.session.get(Table, w.tab.id)
    assert tab is not None and tab.finished
    derived = derive_row_table(w.t, tab)
    assert derived.counts  # the match counts with the deals recorded so far
    player = app.test_client()
    html = player.get(f"/play/{token}").get_data(as_text=True)
    assert "The match is over." in html
    r = player.post(f"/play/{token}", data=form(page_token(html), "pass"))
    assert r.status_code == 422
    w.bots(0)  # no bot moves at a finished table
    assert _state(w) == before
