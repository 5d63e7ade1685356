"""What 打百分's online pages show (``online/_hundred.html``, ``_hundred_spectate.html``,
``_hundred_replay.html``, ``_hundred_end.html``), arranged from the engine's views that
``bridge`` gives (no engine here): the table of four places (3人百分: three seats and the dummy,
laid out opposite its declarer once turned), the auction so far and the legal bids, trump, the
friend card (its holder only once the card falls, or to the holder itself), the kitty where the
view shows it, the trick on the felt, a seat's hand with the cards it may pick, the end of the
deal (bid, the threshold 100 − B, the attackers' points, 抠底, the result) and a finished deal
trick by trick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import bridge
from .cards import face_of, faces

DUMMY = 3  # the dummy's hand index in 3人百分 (hundred_game.DUMMY)
SPOTS = ("bottom", "right", "top", "left")  # the felt's places, in the order of play


def _faces(live_deal: Any, codes: Sequence[str] | None) -> list[dict[str, Any]]:
    return faces(live_deal, list(codes or []))


def _cycle(view: dict[str, Any]) -> list[int]:
    """The hands in the order of play from the declarer (3人百分: declarer, next, dummy, the
    last; before the auction ends, as if seat 0 declared)."""
    d = view["declarer"] if view["declarer"] is not None else 0
    if view["variant"] == "hundred-3p":
        return [d, (d + 1) % 3, DUMMY, (d + 2) % 3]
    return [(d + k) % 4 for k in range(4)]


def _threshold(view: dict[str, Any]) -> int | None:
    """What the attackers must pass: 100 − B (more than it wins); 40分下台: 40 (reaching it)."""
    if view["variant"] == "forty-4p":
        return 40
    return view["threshold"]


def board(
    live: bridge.Live,
    view: dict[str, Any],
    bottom: int | None,
    names: list[str],
    bots: set[int],
    waiting: int | None,
) -> dict[str, Any]:
    """The table seen from ``bottom`` (a seat; None: a spectator, seat 0 at the bottom): each
    place's name, role (declarer, friend once known, dummy), cards left and its play in the
    trick; the auction; trump, the friend card, the kitty where shown; the last trick."""
    deal = live.deal
    three = view["variant"] == "hundred-3p"
    cycle = _cycle(view)
    me = cycle.index(0 if bottom is None else bottom)
    declarer = view["declarer"]
    friend = view["friend"]
    trick = {p["hand"]: p["cards"] for p in view["trick"]}
    places = []
    for h in range(4):
        is_dummy = three and h == DUMMY
        seat_of = declarer if is_dummy else h  # the seat that acts for this hand
        places.append(
            {
                "hand": h,
                "spot": SPOTS[(cycle.index(h) - me) % 4],
                "name": names[h] if not is_dummy and h < len(names) else None,
                "dummy": is_dummy,
                "you": h == bottom,
                "bot": not is_dummy and h in bots,
                "cards": view["hand_counts"][h],
                "declarer": declarer is not None and h == declarer,
                "friend": friend is not None and h == friend,
                "turn": (
                    view["turn_hand"] == h
                    if view["phase"] == "play"
                    else (not is_dummy and waiting == h)
                ),
                "acts": seat_of,
                "play": _faces(deal, trick[h]) if h in trick else None,
                "won": view["won_points"][h],
                "shown": _faces(deal, view["dummy"]) if is_dummy and view["dummy"] else None,
            }
        )
    auction = view["auction"]
    last = view["tricks"][-1] if view["tricks"] else None
    return {
        "phase": view["phase"],
        "three": three,
        "places": places,
        "by_spot": {p["spot"]: p for p in places},
        "declarer": declarer,
        "bid": view["bid"],
        "threshold": _threshold(view),
        "trump": view["trump"],
        "turned": None if view["turned"] is None else face_of(view["turned"]),
        "friend_card": None if view["friend_card"] is None else face_of(view["friend_card"]),
        "friend": friend,
        "alone": view["alone"],
        "friend_mode": view["options"].get("friend"),
        "open_kitty": bool(view["options"].get("open_kitty")),
        "kitty": None if view["kitty"] is None else _faces(deal, view["kitty"]),
        "buried": None if view["buried"] is None else _faces(deal, view["buried"]),
        "auction": None
        if auction is None
        else {
            "entries": [{"seat": e["seat"], "bid": e["bid"]} for e in auction["entries"]],
            "bid": auction["bid"],
            "to_act": auction["to_act"],
        },
        "attackers_points": view["attackers_points"],
        "tricks_done": len(view["tricks"]),
        "last_trick": None
        if last is None or view["trick"]
        else {
            "winner": last["winner"],
            "plays": [
                {"hand": p["hand"], "cards": _faces(deal, p["cards"])} for p in last["plays"]
            ],
        },
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
    """A seat's page during a deal of 打百分: its hand (the cards it may pick now usable, the
    rest greyed), its moves (the legal bids and a pass; the four suits; the friend cards it may
    call; the burial; a play, from the dummy's hand when the declarer plays for it), and the
    table."""
    actions = list(view["actions"]) if offers_moves else []
    choices = set(view["choices"]) if actions else set()
    from_dummy = bool(actions) and view["moving_hand"] == DUMMY
    hand = [
        dict(face, usable=face["code"] in choices and not from_dummy)
        for face in _faces(live.deal, view["hand"])
    ]
    dummy_hand = []
    if from_dummy and view["dummy"]:
        dummy_hand = [
            dict(face, usable=face["code"] in choices) for face in _faces(live.deal, view["dummy"])
        ]
    pick = "bury" if "bury" in actions else "play" if "play" in actions else None
    return {
        "hundred": True,
        "view_phase": view["phase"],
        "actions": actions,
        "my_turn": waiting == seat and bool(actions),
        "hand": hand,
        "hand_size": len(hand),
        "pick": pick,
        "from_dummy": from_dummy,
        "dummy_hand": dummy_hand,
        "legal_bids": list(view["legal_bids"]) if "bid" in actions else [],
        "friend_cards": [face_of(c) for c in view["friend_cards"]] if "friend" in actions else [],
        "bury_count": 6,
        "hd": board(live, view, seat, names, bots, waiting),
    }


def deal_end(live: bridge.Live, view: dict[str, Any]) -> dict[str, Any] | None:
    """How a played deal ended, the same for everyone: the declarer and the friend (or alone,
    or the dummy), the bid and the threshold, the attackers' points in tricks, 抠底 and the
    kitty it added, the winning side, the units and each seat's change. None while played."""
    r = view["result"]
    if live.deal.outcome != "played" or r is None:
        return None
    declarer = view["declarer"]
    return {
        "hundred": True,
        "variant": view["variant"],
        "declarer": declarer,
        "friend": view["friend"],
        "alone": view["alone"],
        "friend_card": None if view["friend_card"] is None else face_of(view["friend_card"]),
        "bid": view["bid"],
        "threshold": _threshold(view),
        "trump": view["trump"],
        "turned": None if view["turned"] is None else face_of(view["turned"]),
        "points": view["attackers_points"],
        "total": r["total"],
        "kou_di": r["kou_di"],
        "winner": r["winner"],
        "units": r["units"],
        "scores": r["scores"],
    }


def spectator_context(
    live: bridge.Live, view: dict[str, Any], names: list[str], bots: set[int], waiting: int | None
) -> dict[str, Any]:
    """The spectators' table: the places with their counts, never a hand (the dummy's cards
    once turned are public); the friend only once its card falls."""
    return {
        "hundred": True,
        "phase": view["phase"],
        "hd": board(live, view, None, names, bots, waiting),
        "end": deal_end(live, view),
        "outcome": live.deal.outcome,
    }


def replay_context(replayed: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A finished deal trick by trick (``bridge.replay_moves``): the hands as dealt (and the
    dummy's), the kitty and the burial, the auction, every trick with its winner and points,
    the trick where the friend's card fell, the end."""
    deal = replayed["deal"]
    view = replayed["view"]
    three = view["variant"] == "hundred-3p"
    return {
        "hundred": True,
        "three": three,
        "dealt": [_faces(deal, h) for h in replayed["dealt"]],
        "kitty": _faces(deal, replayed["kitty"]),
        "buried": _faces(deal, replayed["buried"]),
        "auction": replayed["auction"],
        "tricks": [
            dict(
                t,
                plays=[dict(p, cards=_faces(deal, p["cards"])) for p in t["plays"]],
            )
            for t in replayed["tricks"]
        ],
        "revealed_at": replayed["revealed_at"],
        "declarer": view["declarer"],
        "friend": view["friend"],
        "friend_card": None if view["friend_card"] is None else face_of(view["friend_card"]),
        "trump": view["trump"],
        "bid": view["bid"],
        "threshold": _threshold(view),
        "turned": None if view["turned"] is None else face_of(view["turned"]),
        "result": view["result"],
        "points": view["attackers_points"],
        "names": names,
    }
