"""打百分 played online (issue 24): a hundred-4p table with a hidden friend sent online by the
director, a seat's page offering only the legal bids and a pass with the auction so far, trump
named, the friend card called, the kitty buried, the tricks; an illegal move refused in the
reader's language with nothing changed; the hidden friend unknown to the others (and to the
spectators) until its card falls; the bots finishing the deal; the deal written on the score
sheet exactly as a typed row; the next deal from the engine's next setup; 3人百分's dummy laid
out once turned; a finished deal's replay."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from app.competition.hundred import deal_result, hundred_issues, hundred_variant
from app.extensions import db
from app.models import Deal, OnlineDeal, OnlineSeat, Table
from app.services.online import bridge, hundred_game
from app.services.tournaments.rows import deal_from_row
from engine import hundred as hd
from engine.cards import card_str, cards_str
from engine.hundred_bots import HeuristicHundredBot
from tests.online.online_helpers import OnlineWorld, enabled_cards, moves, page_token
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

HIDDEN = {
    "variant": "hundred-4p",
    "pairing": "reseat",
    "match_value": 2,
    "preset": "club-hundred",
    "opt_friend": "hidden",
}
THREE = {
    "variant": "hundred-3p",
    "pairing": "reseat",
    "match_value": 2,
    "preset": "club-hundred-3p",
}
FORTY = {"variant": "forty-4p", "pairing": "swiss", "match_value": 2, "preset": "club-forty"}
PAIRS = {
    "variant": "hundred-4p",
    "pairing": "swiss",
    "match_value": 2,
    "preset": "club-hundred-pairs",
    "opt_friend": "fixed",
}


def hundred_world(
    client: FlaskClient, fields: dict[str, Any], entrants: int = 4, size: int = 1
) -> OnlineWorld:
    w = world()
    login(client, w.director)
    t = create(client, w.club, **fields)
    add_entrants(client, w.club, t, entrants, size)
    rnd = seat(client, w.club, t)
    tab = min((x for x in rnd.tables if x.kind != "bye"), key=lambda x: x.number)
    ow = OnlineWorld(w.club, t, rnd, tab, client)
    r = client.post(ow.table_url)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    db.session.expire_all()
    assert db.session.get(Table, tab.id).mode == "online"  # type: ignore[union-attr]
    return ow


def replayed(row: OnlineDeal) -> hd.HundredDeal:
    """The test's own replay of a deal row's log (the entries for people skipped)."""
    log = [a.record for a in row.actions if a.record["kind"] not in ("ready", "continue")]
    return hd.replay(hd.HundredSetup.from_json(row.setup), log)


def link(s: OnlineSeat) -> str:
    return f"/play/{s.token}"


def post(client: FlaskClient, s: OnlineSeat, kind: str, cards: Any = (), card: str = "") -> Any:
    page = client.get(link(s)).get_data(as_text=True)
    data: dict[str, Any] = {"v": page_token(page), "kind": kind, "cards": list(cards)}
    if card:
        data["card"] = card
    return client.post(link(s), data=data)


def bid_buttons(html: str) -> list[int]:
    return [int(b) for b in re.findall(r'data-bid="(\d+)"', html)]


def play_seat_to_end(client: FlaskClient, ow: OnlineWorld, me: OnlineSeat) -> hd.HundredDeal:
    """Seat ``me`` plays its whole deal through its page's form, as the heuristic bot would
    choose; the bots answer. Returns the deal as replayed at its end."""
    for _ in range(200):
        row = ow.deals()[-1]
        deal = replayed(row)
        if deal.phase == hd.DONE:
            return deal
        assert deal.to_act == me.seat, (deal.phase, deal.to_act)
        kind, _s, *rest = HeuristicHundredBot(7).act(deal, me.seat)
        arg = rest[0] if rest else None
        if kind == "bid":
            r = post(client, me, "bid", card=str(arg))
        elif kind in ("bury", "play"):
            r = post(client, me, kind, cards_str(arg))  # type: ignore[arg-type]
        elif kind == "friend":
            r = post(client, me, kind, card=card_str(arg))  # type: ignore[arg-type]
        elif kind == "trump":
            r = post(client, me, kind, card=str(arg))
        else:
            r = post(client, me, kind)
        assert r.status_code in (200, 303), r.get_data(as_text=True)[:3000]
    raise AssertionError("the deal did not end")


def error_of(html: str) -> str:
    m = re.search(r'<p class="flash error" role="alert">(.*?)</p>', html, re.S)
    assert m, html[:3000]
    return m.group(1).strip()


def sheet_rows(ow: OnlineWorld) -> list[Deal]:
    db.session.expire_all()
    return list(
        db.session.scalars(select(Deal).where(Deal.table_id == ow.tab.id).order_by(Deal.index))
    )


def test_a_hidden_friend_table_plays_a_deal_online_with_three_bots(client):
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    seats = ow.seats()
    me = seats[0]
    row = ow.deals()[0]
    assert row.setup["variant"] == "hundred-4p"
    deal = replayed(row)
    assert deal.variant.friend_mode == "hidden"
    assert deal.phase == hd.AUCTION and deal.to_act == 0  # seat 0 draws first and bids first
    page = client.get(link(me)).get_data(as_text=True)
    assert 'id="hundred"' in page
    # the bid buttons are exactly the legal bids, and a pass
    assert bid_buttons(page) == deal.legal_bids(0) == list(range(60, 105, 5))
    assert "pass" in moves(page)
    # my hand, and no other
    for c in cards_str(deal.hands[0]):
        assert f'data-card="{c}"' in page
    for s in (1, 2, 3):
        for c in cards_str(deal.hands[s]):
            assert f'data-card="{c}"' not in page
    end = play_seat_to_end(client, ow, me)
    assert end.result is not None and end.outcome == "played"
    # the deal is on the score sheet as the typed row of the same deal would be
    rows = sheet_rows(ow)
    assert len(rows) == 1
    got = deal_from_row(rows[0])
    want = hundred_game.sheet_row(end)
    assert got == want
    variant = hundred_variant("hundred-4p", ow.t.options)
    assert hundred_issues(variant, got) == []
    typed = deal_result(variant, got)
    assert (typed.winner, typed.units, typed.scores) == (
        end.result.winner,
        end.result.units,
        end.result.scores,
    )


def test_an_illegal_bid_is_refused_in_words_and_changes_nothing(client):
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    before = ow.deals()[0].version
    r = post(client, me, "bid", card="55")
    assert r.status_code == 422
    text = error_of(r.get_data(as_text=True))
    assert "60" in text and "auction." not in text
    page = client.get(link(me)).get_data(as_text=True)
    r = client.post(
        link(me),
        data={"v": page_token(page), "kind": "bid", "card": "62"},
        headers={"Accept-Language": "zh-CN"},
    )
    assert r.status_code == 422
    assert re.search(r"[\u4e00-\u9fff]", error_of(r.get_data(as_text=True)))
    # a burial before the auction is over, a play out of turn: refused too
    assert post(client, me, "bury", ["AS"]).status_code == 422
    assert post(client, me, "nonsense").status_code == 422
    assert ow.deals()[0].version == before


def test_a_refused_burial_is_said_next_to_its_button(client):
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    assert post(client, me, "bid", card="100").status_code in (200, 303)
    deal = replayed(ow.deals()[0])
    assert deal.phase == hd.BURY and deal.declarer == 0
    r = post(client, me, "bury", cards_str(deal.hands[0][:1]))  # one card of the six
    assert r.status_code == 422
    text = r.get_data(as_text=True)
    assert error_of(text) and "hundred." not in error_of(text)
    # on a phone the hand fills the screen: the refusal sits by the button, once
    assert re.search(r'<div class="play-bar">\s*<div class="errors"', text)
    assert text.count('class="flash error"') == 1
    assert replayed(ow.deals()[0]).phase == hd.BURY


def _declare(client: FlaskClient, ow: OnlineWorld, me: OnlineSeat) -> hd.HundredDeal:
    """Seat 0 bids 100 (the auction ends at once), buries, names trump."""
    assert post(client, me, "bid", card="100").status_code in (200, 303)
    deal = replayed(ow.deals()[0])
    assert deal.declarer == 0 and deal.phase == hd.BURY
    page = client.get(link(me)).get_data(as_text=True)
    assert 'data-move="bury"' in page and 'data-need="6"' in page
    bury = HeuristicHundredBot(1).bury(deal, 0)
    assert post(client, me, "bury", cards_str(bury)).status_code in (200, 303)
    page = client.get(link(me)).get_data(as_text=True)
    assert re.findall(r'data-trump="([SHDC])"', page) == ["S", "H", "D", "C"]
    assert post(client, me, "trump", card="H").status_code in (200, 303)
    return replayed(ow.deals()[0])


def test_the_hidden_friend_is_known_only_to_its_holder_until_its_card_falls(client):
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    seats = ow.seats()
    me = seats[0]
    deal = _declare(client, ow, me)
    assert deal.phase == hd.FRIEND
    page = client.get(link(me)).get_data(as_text=True)
    offered = re.findall(r'<option value="([^"]+)"', page)
    assert sorted(offered) == sorted(card_str(c) for c in range(54) if deal.can_call_friend(0, c))
    # call the highest card seat 2 holds that seat 0 will not lead out soon
    card = card_str(max(deal.hands[2]))
    assert post(client, me, "friend", card=card).status_code in (200, 303)
    watch = ow.table_url.replace("/online", "/watch")
    checked = False
    for _ in range(60):
        deal = replayed(ow.deals()[0])
        if deal.phase == hd.DONE:
            break
        assert deal.friend == 2
        pages = {s.seat: client.get(link(s)).get_data(as_text=True) for s in seats}
        public = client.get(watch).get_data(as_text=True)
        if not deal.friend_revealed:
            checked = True
            for s in (0, 1, 3):
                assert 'data-friend="2"' not in pages[s]
                assert "secret-friend" not in pages[s]
            assert 'data-friend="2"' not in public
            assert 'id="secret-friend"' in pages[2]  # the holder knows
            # the spectators see no hand
            for s in range(4):
                for c in cards_str(deal.hands[s]):
                    assert f'data-card="{c}"' not in public or c == card  # the called card
        else:
            assert 'data-friend="2"' in public
            assert 'data-friend="2"' in pages[1]
        play = HeuristicHundredBot(3).act(deal, 0)
        assert play[0] == "play"
        r = post(client, me, "play", cards_str(play[2]))
        assert r.status_code in (200, 303), r.get_data(as_text=True)[:2000]
    assert checked
    deal = replayed(ow.deals()[0])
    assert deal.phase == hd.DONE and deal.friend_revealed
    row = deal_from_row(sheet_rows(ow)[0])
    assert row.bid == 100 and row.friend == 2 and row.friend_card == card and row.trump == "H"
    # the end of the deal: the bid, the threshold and the result, for the seat and spectators
    page = client.get(link(me)).get_data(as_text=True)
    assert 'id="end-threshold"' in page and "100 − 100 = 0" in page
    assert f'data-winner="{deal.result.winner}"' in page
    public = client.get(watch).get_data(as_text=True)
    assert 'data-friend="2"' in public or "end-facts" in public


def test_the_next_deal_follows_the_engine_and_the_deal_replays(client):
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    end = play_seat_to_end(client, ow, me)
    page = client.get(link(me)).get_data(as_text=True)
    assert "ready" in moves(page)
    r = client.post(f"/play/{me.token}/ready", data={"v": page_token(page)})
    assert r.status_code in (200, 303)
    deals = ow.deals()
    assert len(deals) == 2
    assert deals[1].setup == end.next_setup(deals[1].seed).to_json()
    r = client.get(f"/play/{me.token}/replays/1")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert text.count('class="htrick"') == 12
    assert 'id="replay-auction"' in text


def test_a_three_player_table_lays_out_the_dummy(client):
    ow = hundred_world(client, THREE, entrants=3)
    ow.bots(1, 2)
    seats = ow.seats()
    assert [s.seat for s in seats] == [0, 1, 2]
    me = seats[0]
    deal = replayed(ow.deals()[0])
    assert deal.to_act == 0
    _declare(client, ow, me)
    deal = replayed(ow.deals()[0])
    assert deal.phase == hd.PLAY
    dummy = cards_str(deal.hands[hd.DUMMY])
    for s in seats:  # the dummy's cards face up to everyone, opposite its declarer
        page = client.get(link(s)).get_data(as_text=True)
        shown = re.search(r'class="place (\w+)[^"]*dummy"', page)
        if s.seat == 0:
            assert shown and shown.group(1) == "top"
        for c in dummy:
            assert f'data-card="{c}"' in page
    for _ in range(60):
        deal = replayed(ow.deals()[0])
        if deal.phase == hd.DONE:
            break
        assert deal.to_act == 0
        page = client.get(link(me)).get_data(as_text=True)
        if deal.turn_hand == hd.DUMMY:
            assert 'id="dummy-hand"' in page
            assert sorted(enabled_cards(page)) == sorted(cards_str(deal.playable_cards(0)))
        play = HeuristicHundredBot(3).act(deal, 0)
        r = post(client, me, "play", cards_str(play[2]))
        assert r.status_code in (200, 303), r.get_data(as_text=True)[:2000]
    deal = replayed(ow.deals()[0])
    assert deal.phase == hd.DONE
    row = deal_from_row(sheet_rows(ow)[0])
    assert row == hundred_game.sheet_row(deal) and row.friend is None


@pytest.mark.parametrize("fields", [FORTY, PAIRS], ids=["forty-4p", "hundred-4p-fixed"])
def test_forty_and_fixed_pairs_play_to_the_sheet_with_bots_only(client, fields):
    ow = hundred_world(client, fields, entrants=4, size=2)
    ow.bots(0, 1, 2, 3)
    deals = ow.deals()
    assert len(deals) == 2 and all(d.outcome == "played" for d in deals)
    rows = sheet_rows(ow)
    assert [deal_from_row(r) for r in rows] == [hundred_game.sheet_row(replayed(d)) for d in deals]
    assert deals[1].setup == replayed(deals[0]).next_setup(deals[1].seed).to_json()


def test_the_seat_json_and_the_directors_pages(client):
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    me, other = ow.seats()[0], ow.seats()[1]
    deal = replayed(ow.deals()[0])
    js = client.get(f"/play/{me.token}/state.json").get_json()
    assert js["hand"] == hundred_game.sort_codes(deal, cards_str(deal.hands[0]))
    assert js["legal_bids"] == deal.legal_bids(0) and js["actions"] == ["bid", "pass"]
    assert js["hand_sizes"] == [12, 12, 12, 12]
    assert js["options"]["friend"] == "hidden"
    theirs = client.get(f"/play/{other.token}/state.json").get_json()
    assert theirs["legal_bids"] == []
    assert sorted(theirs["hand"]) == sorted(cards_str(deal.hands[1]))
    assert not set(theirs["hand"]) & set(js["hand"])
    assert client.get(ow.table_url).status_code == 200
    assert client.get(ow.table_url + "/live").status_code == 200
    watch = client.get(ow.table_url.replace("/online", "/watch")).get_data(as_text=True)
    assert 'id="hundred-places"' in watch and 'id="watch-auction"' in watch


def test_the_bot_levels_choose_the_hundred_bot(app):
    """``easy`` seats play the random 打百分 bot, ``normal`` the heuristic one, each seeded by
    the deal and the moment; ``strong`` searches its plays (a legal one)."""
    from engine.hundred_bots import RandomHundredBot

    with app.test_request_context():
        for seed in range(1, 20):
            deal = hd.new_hundred_deal("hundred-4p", {"friend": "hidden"}, seed=seed)
            seat = deal.to_act
            assert seat is not None
            row = OnlineDeal(seed=seed, setup=deal.setup.to_json(), version=0)
            for level, kind in (("easy", RandomHundredBot), ("normal", HeuristicHundredBot)):
                copy = hd.replay(deal.setup, list(deal.log))
                live = bridge.Live(row, copy, [], frozenset(), levels={seat: level})
                got = bridge.lent_bot_move(live, seat)
                want = kind(seed * 4099 + seat).act(hd.replay(deal.setup, list(deal.log)), seat)
                assert got["kind"] == want[0]
                assert got.get("value") == (want[2] if want[0] == "bid" else None)
        # a strong seat in play: the searching bot's move is legal
        deal = hd.new_hundred_deal("hundred-4p", {"friend": "hidden"}, seed=5)
        bots = [HeuristicHundredBot(i) for i in range(4)]
        from engine.hundred_bots import perform

        while deal.phase != hd.PLAY:
            s = deal.to_act
            assert s is not None
            perform(deal, bots[s].act(deal, s))
        s = deal.to_act
        assert s is not None
        row = OnlineDeal(seed=5, setup=deal.setup.to_json(), version=0)
        live = bridge.Live(row, deal, [], frozenset(), levels={s: "strong"})
        got = bridge.lent_bot_move(live, s)
        assert got["kind"] == "play" and deal.log[-1].kind == "play"


@pytest.mark.parametrize("open_kitty", [True, False], ids=["open", "hidden-kitty"])
def test_the_kitty_and_the_burial_shown_to_all_only_when_open(client, open_kitty):
    fields = dict(HIDDEN, opt_open_kitty="true") if open_kitty else HIDDEN
    ow = hundred_world(client, fields)
    ow.bots(1, 2, 3)
    seats = ow.seats()
    deal = _declare(client, ow, seats[0])  # seat 0 declares and buries
    buried = cards_str(deal.buried)
    theirs = client.get(link(seats[1])).get_data(as_text=True)
    public = client.get(ow.table_url.replace("/online", "/watch")).get_data(as_text=True)
    mine = client.get(link(seats[0])).get_data(as_text=True)
    assert 'id="buried"' in mine and all(f'data-card="{c}"' in mine for c in buried)
    for page in (theirs, public):
        shown = [c for c in buried if f'data-card="{c}"' in page]
        assert (shown == buried) if open_kitty else not shown


def test_a_blind_friend_deal_with_bots_only_reaches_the_sheet(client):
    ow = hundred_world(client, dict(HIDDEN, opt_friend="blind"))
    ow.bots(0, 1, 2, 3)
    deals = ow.deals()
    assert deals and deals[0].outcome == "played"
    first = replayed(deals[0])
    assert first.variant.friend_mode == "blind"
    rows = sheet_rows(ow)
    assert deal_from_row(rows[0]) == hundred_game.sheet_row(first)


def test_a_three_player_round_goes_online_from_the_round_page(client):
    """The round page sends a 3人百分 round's tables online together: three seats each, each
    table dealt a hundred-3p deal (its dummy no one's seat)."""
    w = world()
    login(client, w.director)
    t = create(client, w.club, **THREE)
    add_entrants(client, w.club, t, 6, 1)
    rnd = seat(client, w.club, t)
    url = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}"
    page = client.get(url).get_data(as_text=True)
    seen = re.search(r'name="seen" value="([0-9a-f]+)"', page)
    assert seen and 'id="play-online"' in page
    r = client.post(url + "/online", data={"seen": seen.group(1), "tables": ["1", "2"]})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    db.session.expire_all()
    tabs = db.session.scalars(select(Table).where(Table.round_id == rnd.id)).all()
    assert sorted(x.mode for x in tabs) == ["online", "online"]
    for tab in tabs:
        rows = db.session.scalars(select(OnlineDeal).where(OnlineDeal.table_id == tab.id)).all()
        assert [r.setup["variant"] for r in rows] == ["hundred-3p"]
        n = db.session.scalars(select(OnlineSeat).where(OnlineSeat.table_id == tab.id)).all()
        assert sorted(s.seat for s in n) == [0, 1, 2]
