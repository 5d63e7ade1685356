"""What an online table's pages show: a seat's page (that seat's view, never another hand) and
the director's page. The engine's state comes from ``bridge``; this module only arranges it."""

from __future__ import annotations

from typing import Any

from ...competition.matches import FixedMatch
from ...extensions import db
from ...models import OnlineSeat, Table
from ..tournament_rows import seat_names
from ..tournament_sheets import sheet
from . import bridge
from .seats import seats_of


def seat_page(seat_row: OnlineSeat) -> dict[str, Any]:
    """Everything the seat's page shows: this seat's view (never another hand) and the sheet."""
    tab = db.session.get(Table, seat_row.table_id)
    assert tab is not None
    t = bridge.tournament_of(tab)
    seat = seat_row.seat
    sides, names = seat_names(tab)
    seats = seats_of(tab)
    bots = {s.seat for s in seats if s.bot}
    live = bridge.load(tab)
    derived = sheet(t, tab)
    over = live is None or live.deal.outcome is not None or tab.finished
    page: dict[str, Any] = {
        "token": bridge.state_token(tab),
        "seat": seat,
        "names": names,
        "sides": sides,
        "bots": bots,
        "variant": t.variant,
        "tournament": t.name,
        "table": tab.number,
        "round": tab.round.number,
        "derived": derived,
        "fixed": isinstance(derived, FixedMatch),
        "over": over,
        "bot_seat": seat_row.bot,
    }
    if live is None:
        return page
    deal = live.deal
    if tab.finished and deal.outcome is None:
        return page  # time was up during this deal: it is not played on
    view = bridge.view(live, seat)
    waiting = live.waiting_for()
    playable = set(view["playable"])
    hand = bridge.faces(deal, view["hand"])
    actions: list[str] = []
    calls = view["legal_calls"]
    if deal.phase == bridge.DRAW:
        if waiting == seat:
            actions = ["call", bridge.CONTINUE]
        else:
            calls = []
    elif not seat_row.bot:
        actions = list(view["actions"])
    trick = view["trick"]
    last = view["tricks"][-1] if view["tricks"] else None
    shown = trick if trick and trick["plays"] else last
    page.update(
        {
            "view_phase": view["phase"],
            "deal_number": live.row.number,
            "waiting": waiting,
            "hand": [dict(c, playable=c["code"] in playable) for c in hand],
            "actions": [] if seat_row.bot else actions,
            "calls": [bridge.faces(deal, c) for c in calls],
            "trump": view["trump"],
            "trump_known": view["trump_known"],
            "level": view["level"],
            "levels": view["levels"],
            "dealer": view["dealer"],
            "attackers_points": view["attackers_points"],
            "won": view["won"],
            "hand_sizes": view["hand_sizes"],
            "friend_card": (
                None if view["friend_card"] is None else bridge.face_of(view["friend_card"])
            ),
            "friend": view["friend"],
            "kitty_size": view["kitty"]["size"],
            "my_kitty": (
                bridge.faces(deal, view["kitty"]["cards"])
                if view["kitty"]["cards"] and view["kitty"]["owner"] == seat
                else []
            ),
            "trick": None
            if shown is None
            else {
                "current": shown is trick,
                "winner": shown.get("winner"),
                "plays": [
                    {"seat": p["seat"], "cards": bridge.faces(deal, p["cards"])}
                    for p in shown["plays"]
                ],
            },
            "result": view["result"],
            "outcome": view["outcome"],
            "calls_made": [
                {"seat": c["seat"], "cards": bridge.faces(deal, c["cards"])} for c in view["calls"]
            ],
            "friend_choices": _friend_choices() if "friend" in actions else [],
        }
    )
    return page


def _friend_choices() -> list[dict[str, Any]]:
    codes = ["5H", "HJ"] + [r + s for r in ("A", "K") for s in ("S", "H", "D", "C")]
    return [bridge.face_of(c) for c in codes]


def director_page(tab: Table) -> dict[str, Any]:
    """The director's view of an online table: seats with their links and bot marks, the state
    token, whose turn it is (no hand)."""
    _sides, names = seat_names(tab)
    live = bridge.load(tab)
    return {
        "seats": seats_of(tab),
        "names": names,
        "token": bridge.state_token(tab),
        "deal_number": None if live is None else live.row.number,
        "waiting": None if live is None or tab.finished else live.waiting_for(),
        "over": live is None or live.deal.outcome is not None or tab.finished,
        "timed": "minutes" in (bridge.tournament_of(tab).match or {}),
    }
