"""What 争上游's online pages show (``online/_climb.html``, ``_climb_spectate.html``,
``_climb_replay.html``), arranged from the engine's views that ``bridge`` gives (no engine
here): the seats around the table with their card counts, the play to beat and each seat's move
in this round, who has gone out and in which place, the tribute (its cards to the two players
only, as the engine's view decides), a seat's hand in climbing order with the cards it may pick,
the end of the deal, and a finished deal move by move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import bridge
from .cards import faces


def _faces(live_deal: Any, codes: Sequence[str] | None) -> list[dict[str, Any]]:
    return faces(live_deal, list(codes or []))


def _tribute(deal: Any, t: dict[str, Any]) -> dict[str, Any]:
    """The tribute of this deal: who pays whom, and the cards where this view may see them."""
    return {
        "due": t["due"],
        "giver": t["from"],
        "receiver": t["to"],
        "refused": t["refused"],
        "given": t["given"],
        "given_back": t["given_back"],
        "card": None if t["card"] is None else _faces(deal, [t["card"]])[0],
        "returned": None if t["returned"] is None else _faces(deal, [t["returned"]])[0],
    }


def board(
    live: bridge.Live,
    view: dict[str, Any],
    bottom: int | None,
    names: list[str],
    bots: set[int],
    waiting: int | None,
) -> dict[str, Any]:
    """The table seen from ``bottom`` (a seat; None: a spectator, seat 0 first): each seat's
    cards left, its place once out, its move in this round (a play, or a pass), whose turn; the
    play to beat; the tribute."""
    deal = live.deal
    n = len(view["hand_sizes"])
    me = 0 if bottom is None else bottom
    out: list[int] = list(view["out"])
    moved: dict[int, list[str] | None] = {}
    for m in view["round"]:
        moved[m["seat"]] = m["cards"]
    standing = view["standing"]
    seats = []
    for s in range(n):
        move = moved.get(s, False)
        seats.append(
            {
                "seat": s,
                "name": names[s] if s < len(names) else str(s + 1),
                "pos": (s - me) % n,
                "you": s == bottom,
                "bot": s in bots,
                "cards": view["hand_sizes"][s],
                "turn": s == waiting,
                "place": out.index(s) + 1 if s in out else None,
                "passed": move is None,
                "play": _faces(deal, move) if isinstance(move, list) else None,
                "standing": standing is not None and standing["seat"] == s,
            }
        )
    seats.sort(key=lambda x: x["pos"])
    return {
        "n": n,
        "seats": seats,
        "phase": view["phase"],
        "standing": None
        if standing is None
        else {"seat": standing["seat"], "cards": _faces(deal, standing["cards"])},
        "leader": view["leader"],
        "lead_by": view["lead_by"],
        "turned": None if view["turned"] is None else _faces(deal, [view["turned"]])[0],
        "turned_seat": view["turned_seat"],
        "tribute": _tribute(deal, view["tribute"]),
        "out": out,
        "rounds_played": view["rounds_played"],
    }


def seat_context(
    live: bridge.Live,
    view: dict[str, Any],
    seat: int,
    names: list[str],
    bots: set[int],
    waiting: int | None,
    offers_moves: bool,
) -> dict[str, Any]:
    """A seat's page during a deal of 争上游: its hand in climbing order, the cards it may pick
    now (``usable``; the rest greyed), its moves, and the table."""
    actions = list(view["actions"]) if offers_moves else []
    choices = set(view["choices"]) if actions else set()
    hand = [dict(face, usable=face["code"] in choices) for face in _faces(live.deal, view["hand"])]
    return {
        "climbing": True,
        "view_phase": view["phase"],
        "actions": actions,
        "my_turn": waiting == seat and bool(actions),
        "hand": hand,
        "hand_size": len(hand),
        "climb": board(live, view, seat, names, bots, waiting),
    }


def deal_end(live: bridge.Live, view: dict[str, Any]) -> dict[str, Any] | None:
    """How a played deal ended, the same for everyone: the places in order with their points,
    the tribute paid before it (its cards shown to all now), and who pays whom at the start of
    the next deal. None while it is played."""
    r = view["result"]
    if live.deal.outcome != "played" or r is None:
        return None
    order = list(r["out_order"])
    tribute_on = bool(view["options"].get("tribute", True))
    return {
        "climbing": True,
        "n": len(order),
        "order": [
            {"place": i + 1, "seat": s, "points": r["points"][s]} for i, s in enumerate(order)
        ],
        "places": list(r["places"]),
        "tribute": _tribute(live.deal, view["tribute"]),
        "next_tribute": {"giver": order[-1], "receiver": order[0]} if tribute_on else None,
    }


def spectator_context(
    live: bridge.Live, view: dict[str, Any], names: list[str], bots: set[int], waiting: int | None
) -> dict[str, Any]:
    """The spectators' table: card counts, never a hand; the tribute's cards once it is over."""
    return {
        "climbing": True,
        "phase": view["phase"],
        "climb": board(live, view, None, names, bots, waiting),
        "end": deal_end(live, view),
        "outcome": view["outcome"],
    }


def replay_context(replayed: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A finished deal move by move (``bridge.replay_moves``): the hands as dealt, the tribute
    and its return, every play and pass by round, the places."""
    deal = replayed["deal"]
    tribute = replayed["tribute"]
    result = replayed["result"]
    return {
        "climbing": True,
        "dealt": [_faces(deal, h) for h in replayed["dealt"]],
        "moves": [dict(m, cards=_faces(deal, m["cards"])) for m in replayed["moves"]],
        "tribute": None
        if tribute is None
        else {
            "giver": tribute.giver,
            "receiver": tribute.receiver,
            "card": _faces(deal, [tribute.card])[0],
            "returned": None
            if replayed["returned"] is None
            else _faces(deal, [replayed["returned"]])[0],
        },
        "refused": replayed["refused"],
        "turned": _faces(deal, [replayed["turned"]])[0],
        "turned_seat": replayed["turned_seat"],
        "order": []
        if result is None
        else [
            {"place": i + 1, "seat": s, "points": result["points"][s]}
            for i, s in enumerate(result["out_order"])
        ],
        "names": names,
    }
