"""An online table with some human seats (guest links) and bots at the others, and a driver that
plays the human seats legally through their links until a condition holds (for the seat, card
and move-fuzz security tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from app.services.online.cards import card_face
from engine.bots import RandomBot
from engine.cards import card_str
from engine.deal import DRAW, Deal
from tests.online.online_helpers import OnlineWorld, moves, online_world, page_token, replay_row


def human_table(client: FlaskClient, bots: tuple[int, ...] = (2, 3)) -> OnlineWorld:
    ow = online_world(client, "tractor-4p")
    ow.bots(*bots)
    return ow


def links(ow: OnlineWorld) -> dict[int, str]:
    return {s.seat: f"/play/{s.token}" for s in ow.seats() if not s.bot}


def deal_now(ow: OnlineWorld) -> Deal:
    return replay_row(ow.deals()[-1])


def legal_form(ow: OnlineWorld, seat: int, html: str, seed: int = 1) -> dict[str, Any] | None:
    """A legal move for ``seat`` from its page (None: the seat has nothing to do)."""
    offered = moves(html)
    if not offered:
        return None
    v = page_token(html)
    if "continue" in offered:
        return {"v": v, "kind": "continue"}
    deal = deal_now(ow)
    if deal.phase == DRAW or deal.to_act != seat:
        return None
    action = RandomBot(seed, throw_rate=0).act(deal, seat)
    form: dict[str, Any] = {"v": v, "kind": action[0]}
    if action[0] in ("call", "bury", "play"):
        form["cards"] = [card_str(c) for c in action[2]]
    return form


def play_until(
    app: Flask, ow: OnlineWorld, done: Callable[[Deal], bool], limit: int = 200
) -> dict[int, str]:
    """Play the human seats until ``done(deal)``; the seats' pages as they are then."""
    player = app.test_client()
    seat_links = links(ow)
    for step in range(limit):
        if done(deal_now(ow)):
            break
        moved = False
        for seat, link in seat_links.items():
            html = player.get(link).get_data(as_text=True)
            form = legal_form(ow, seat, html, seed=step)
            if form is not None:
                r = player.post(link, data=form)
                assert r.status_code == 303, (form, r.status_code)
                moved = True
                break
        assert moved, "no human seat could move"
    else:
        raise AssertionError("the condition never held")
    return {s: player.get(link).get_data(as_text=True) for s, link in seat_links.items()}


def hidden_from(deal: Deal, seat: int) -> set[int]:
    """Cards ``seat`` may not see now: the other hands, but what lies on the table (the last
    and current tricks, the calls shown) and the kitty it buried itself."""
    shown = set(deal.hands[seat])
    for t in deal.tricks[-1:] + ([deal.trick] if deal.trick else []):
        shown |= {c for _s, p in t.plays for c in p}
    shown |= {c for _s, cs, _k in deal.call_seq for c in cs}
    if deal.kitty_owner == seat:
        shown |= set(deal.buried)
    return {c for h in deal.hands for c in h} - shown


def assert_no_hidden_card(deal: Deal, seat: int, html: str, where: str) -> int:
    """No card hidden from ``seat`` is named in ``html`` (as a form value or a face); returns
    how many there were to hide (the check is not empty)."""
    hidden = hidden_from(deal, seat)
    for c in sorted(hidden):
        assert f'value="{card_str(c)}"' not in html, (where, card_str(c))
        assert f">{card_face(c)['label']}<" not in html, (where, card_face(c)["label"])
    return len(hidden)
