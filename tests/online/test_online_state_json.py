"""A seat's view as JSON (``/play/<token>/state.json`` and the bound member's twin): the seat's
own page for a program — its hand and the moves the page offers, never another hand — answered
``no-store``, and the moves it names are accepted when posted as the page's forms post them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Member
from engine.cards import card_str
from engine.deal import Deal
from tests.online.online_helpers import (
    OnlineWorld,
    enabled_cards,
    moves,
    online_world,
    page_token,
    replay_row,
)
from tests.online.test_online_spectate import _client_of, _public
from tests.online.test_online_tables import _choose

KEYS = {
    "token",
    "seat",
    "variant",
    "options",
    "deal",
    "phase",
    "waiting",
    "my_turn",
    "actions",
    "hand",
    "playable",
    "calls",
    "kitty_size",
    "buried",
    "friend_choices",
    "trump",
    "level",
    "dealer",
    "trick",
    "hand_sizes",
    "summary",
    "paused",
    "over",
}


def _strings(x: Any) -> list[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in _strings(k) + _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return []


def assert_only_own_cards(deal: Deal, state: dict[str, Any], seat: int) -> None:
    """The JSON shows the seat's own hand exactly, and beyond it only public cards and the
    kitty the seat buried itself: no card only another hand (or the hidden kitty) holds."""
    assert Counter(state["hand"]) == Counter(card_str(c) for c in deal.hands[seat])
    assert set(state["playable"]) <= set(state["hand"])
    public = _public(deal)
    own = Counter(card_str(c) for c in deal.hands[seat])
    if deal.kitty_owner == seat:
        own.update(card_str(c) for c in deal.buried)
    held = Counter(card_str(c) for s, h in enumerate(deal.hands) if s != seat for c in h)
    if not deal.kitty_revealed and deal.kitty_owner != seat:
        held.update(card_str(c) for c in deal.buried)
    held.update(card_str(c) for c in deal.undealt())
    hidden = set(held) - set(public) - set(own)
    assert not hidden & set(_strings(state)), (hidden & set(_strings(state)), deal.phase)


def _state(client: FlaskClient, url: str) -> dict[str, Any]:
    r = client.get(url + "/state.json")
    assert r.status_code == 200, r.status_code
    assert r.mimetype == "application/json"
    assert r.headers.get("Cache-Control") == "no-store"
    state = r.get_json()
    assert isinstance(state, dict)
    return state


def _world(client: FlaskClient, variant: str = "tractor-4p") -> tuple[OnlineWorld, str]:
    ow = online_world(client, variant)
    players = {"tractor-4p": 4, "red-five-5p": 5, "one-twenty-6p": 6}[variant]
    ow.bots(*range(1, players))
    return ow, f"/play/{ow.seats()[0].token}"


def test_the_json_is_the_seat_page_and_its_moves_are_accepted(
    app: Flask, client: FlaskClient
) -> None:
    ow, url = _world(client)
    player = app.test_client()
    saw: set[str] = set()
    for _ in range(40):
        html = player.get(url).get_data(as_text=True)
        state = _state(player, url)
        assert set(state) >= KEYS, KEYS - set(state)
        assert state["seat"] == 0 and state["variant"] == "tractor-4p"
        assert state["options"]["decks"] == 2
        assert state["token"] == page_token(html)
        assert set(state["actions"]) == moves(html)
        deal = replay_row(ow.deals()[-1])
        assert_only_own_cards(deal, state, 0)
        assert state["hand_sizes"] == [len(h) for h in deal.hands]
        if "play" in state["actions"]:
            assert state["my_turn"] and state["waiting"] == 0 and state["phase"] == "play"
            assert set(state["playable"]) == set(enabled_cards(html))
            if deal.trick is not None and deal.trick.plays:
                lead = deal.trick.plays[0]
                first = state["trick"]["plays"][0]
                assert first["seat"] == lead[0]
                assert Counter(first["cards"]) == Counter(card_str(c) for c in lead[1])
        if "call" in state["actions"]:
            assert state["calls"] and all(set(c) <= set(state["hand"]) for c in state["calls"])
        if "bury" in state["actions"]:
            assert state["kitty_size"] == 8 and len(state["hand"]) == 33
        saw.update(state["actions"])
        if "play" in saw and state["trick"] is not None:
            break
        if not state["actions"]:
            break
        # the move the page would make, posted with the JSON's token
        move = _choose(ow, html)
        move["v"] = state["token"]
        assert player.post(url, data=move).status_code == 303
    assert "play" in saw and saw & {"call", "continue", "pass"}, saw
    # the cards it buried are its own to see; a stale token is refused as on the page
    state = _state(player, url)
    deal = replay_row(ow.deals()[-1])
    if deal.kitty_owner == 0 and not deal.kitty_revealed:
        assert Counter(state["buried"]) == Counter(card_str(c) for c in deal.buried)
    r = player.post(url, data={"v": "0.0", "kind": "play", "cards": state["playable"][:1]})
    assert r.status_code == 409


def test_a_follower_sees_the_lead_and_not_the_other_hands(app: Flask, client: FlaskClient) -> None:
    ow, url = _world(client, "one-twenty-6p")
    player = app.test_client()
    led = 0
    for _ in range(80):
        html = player.get(url).get_data(as_text=True)
        state = _state(player, url)
        deal = replay_row(ow.deals()[-1])
        assert_only_own_cards(deal, state, 0)
        if state["trick"] is not None and state["my_turn"]:
            led += 1
            if led >= 3:
                break
        if not state["actions"]:
            break
        move = _choose(ow, html)
        assert player.post(url, data=dict(move, v=state["token"])).status_code == 303
    assert led >= 1


def test_bad_links_and_bound_seats(app: Flask, client: FlaskClient) -> None:
    ow, url = _world(client)
    guest = app.test_client()
    assert guest.get("/play/not-a-seat-link/state.json").status_code == 404
    assert guest.get("/play/" + "x" * 60 + "/state.json").status_code == 404
    # bound to Pete, the seat's JSON is his alone: the link stops working
    pete = db.session.scalar(select(Member).where(Member.display_name == "Pete Player"))
    assert pete is not None
    seat1 = ow.seats()[1]
    r = ow.director.post(ow.table_url + "/seats", data={"seat": "1", "member": str(pete.id)})
    assert r.status_code == 303
    assert guest.get(f"/play/{seat1.token}/state.json").status_code == 404
    mine = f"/clubs/{ow.club.slug}/my-table/{seat1.id}"
    state = _state(_client_of(app, "player"), mine)
    assert state["seat"] == 1
    assert_only_own_cards(replay_row(ow.deals()[-1]), state, 1)
    assert _client_of(app, "outsider").get(mine + "/state.json").status_code == 404
    assert app.test_client().get(mine + "/state.json").status_code in (302, 401)
    # a seat's JSON never opens another seat: seat 0's link shows seat 0
    assert _state(guest, url)["seat"] == 0


def test_a_paused_table_offers_no_move(app: Flask, client: FlaskClient) -> None:
    ow, url = _world(client)
    player = app.test_client()
    for _ in range(10):
        if _state(player, url)["actions"]:
            break
        move = _choose(ow, player.get(url).get_data(as_text=True))
        player.post(url, data=move)
    assert _state(player, url)["actions"]
    ow.director.post(ow.table_url + "/pause", data={"paused": "1"})
    state = _state(player, url)
    assert state["paused"] and not state["actions"] and not state["my_turn"]
    assert state["error"] == "The director paused the table: wait until play resumes."
