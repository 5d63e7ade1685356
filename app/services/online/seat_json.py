"""A seat's view as JSON (``GET /play/<token>/state.json``): what the seat's page shows, for a
program playing the seat over HTTP (the load benchmark's clients, a bot of one's own).

It is built from the seat page's own context (``pages.seat_page``), so it offers exactly the
moves the page offers and shows exactly the cards the page shows: the seat's own hand, which of
its cards may be played now, the calls it may make, the kitty it buried itself, and the public
table (the trick in play, the calls shown, hand sizes, whose turn). Never another seat's hand.
A move is then posted to the seat's link as the page's form posts it (``v`` = ``token``).
"""

from __future__ import annotations

from typing import Any

from . import bridge


def _codes(faces: list[dict[str, Any]]) -> list[str]:
    return [f["code"] for f in faces]


def seat_json(page: dict[str, Any], tab: Any) -> dict[str, Any]:
    """The JSON view of a seat from its page's context (``page``, after the route's own
    changes: a paused table offers no move) at the table ``tab``."""
    t = bridge.tournament_of(tab)
    out: dict[str, Any] = {
        "token": page["token"],
        "seat": page["seat"],
        "variant": page["variant"],
        "options": bridge.options_of(t),
        "tournament": page["tournament"],
        "round": page["round"],
        "table": page["table"],
        "names": list(page["names"]),
        "bots": sorted(page["bots"]),
        "bot_seat": page["bot_seat"],
        "paused": bool(tab.paused) and not tab.finished,
        "over": page["over"],
        "duplicate_board": page.get("duplicate_board"),  # a duplicate board's number, or None
        # the board ended without a result and is not dealt again: "nobody" called, or a "weak"
        # hand had it dealt again or refused (None: it has a result, or is being played)
        "no_result": page.get("no_result"),
        "error": page.get("error"),
        "deal": page.get("deal_number"),
        "phase": page.get("view_phase"),
        "waiting": page.get("waiting"),
        "my_turn": page["my_turn"] and bool(page.get("actions")),
        "actions": list(page.get("actions", [])),
        "hand": [],
        "playable": [],
        "calls": [_codes(c) for c in page.get("calls", [])],
        "kitty_size": page.get("kitty_size"),
        "buried": _codes(page.get("my_kitty", [])),
        "friend_choices": _codes(page.get("friend_choices", [])),
        "trump": page.get("trump"),
        "trump_known": page.get("trump_known"),
        "level": page.get("level"),
        "dealer": page.get("dealer"),
        "friend_card": None if page.get("friend_card") is None else page["friend_card"]["code"],
        "friend": page.get("friend"),
        "attackers_points": page.get("attackers_points"),
        "calls_made": [
            {"seat": c["seat"], "cards": _codes(c["cards"])} for c in page.get("calls_made", [])
        ],
        "hand_sizes": [],
        "trick": None,
        "summary": None,
    }
    if page.get("hundred"):  # 打百分: the hand, the legal bids, the auction, the table
        return _hundred_json(page, out)
    if page.get("climbing"):  # 争上游: the hand in climbing order, the table, the places
        out["hand"] = [c["code"] for c in page.get("hand", [])]
        out["playable"] = [c["code"] for c in page.get("hand", []) if c.get("usable")]
        cb = page.get("climb")
        if cb is not None:
            by_seat = sorted(cb["seats"], key=lambda s: s["seat"])
            out["hand_sizes"] = [s["cards"] for s in by_seat]
            out["climbing"] = {
                "standing": None
                if cb["standing"] is None
                else {"seat": cb["standing"]["seat"], "cards": _codes(cb["standing"]["cards"])},
                "leader": cb["leader"],
                "out": list(cb["out"]),
                "round": [
                    {"seat": s["seat"], "cards": None if s["passed"] else _codes(s["play"])}
                    for s in by_seat
                    if s["passed"] or s["play"]
                ],
                "tribute": {
                    "giver": cb["tribute"]["giver"],
                    "receiver": cb["tribute"]["receiver"],
                    "due": cb["tribute"]["due"],
                    "refused": cb["tribute"]["refused"],
                    "card": None
                    if cb["tribute"]["card"] is None
                    else cb["tribute"]["card"]["code"],
                    "returned": None
                    if cb["tribute"]["returned"] is None
                    else cb["tribute"]["returned"]["code"],
                },
            }
        sm = page.get("summary")
        if sm is not None:
            out["summary"] = {
                "places": list(sm["places"]),
                "ready": list(sm["ready"]),
                "waiting_for": list(sm["waiting_for"]),
                "me_ready": sm["me_ready"],
                "pause_left": sm["pause_left"],
            }
        return out
    for g in page.get("hand_groups", []):
        for c in g["cards"]:
            out["hand"].append(c["code"])
            if c.get("playable"):
                out["playable"].append(c["code"])
    board = page.get("board")
    if board is not None:
        out["hand_sizes"] = [s["cards"] for s in board["seats"]]
        trick = board["trick"]
        if trick is not None:
            out["trick"] = {
                "leader": trick["leader"],
                "winner": trick["winner"],
                "points": trick["points"],
                "plays": [{"seat": s, "cards": _codes(trick["plays"][s])} for s in trick["order"]],
            }
    sm = page.get("summary")
    if sm is not None:  # the deal is played out: its result, and who still has to Continue
        out["summary"] = {
            "total": sm["total"],
            "winner": sm["winner"],
            "ready": list(sm["ready"]),
            "waiting_for": list(sm["waiting_for"]),
            "me_ready": sm["me_ready"],
            "pause_left": sm["pause_left"],
        }
    return out


def _hundred_json(page: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """A seat of 打百分 as JSON: its hand and the cards it may pick (from the dummy's hand when
    the declarer plays it), the legal bids, the friend cards it may call, and the table as the
    page shows it (the friend only once revealed, or to itself)."""
    out["hand"] = [c["code"] for c in page.get("hand", [])]
    picks = page.get("dummy_hand") if page.get("from_dummy") else page.get("hand", [])
    out["playable"] = [c["code"] for c in picks or [] if c.get("usable")]
    out["legal_bids"] = list(page.get("legal_bids", []))
    out["friend_choices"] = _codes(page.get("friend_cards", []))
    out["from_dummy"] = bool(page.get("from_dummy"))
    hd = page.get("hd")
    if hd is not None:
        places = sorted(hd["places"], key=lambda p: p["hand"])
        out["hand_sizes"] = [p["cards"] for p in places]
        out["trump"] = hd["trump"]
        out["trump_known"] = hd["trump"] is not None
        out["friend_card"] = None if hd["friend_card"] is None else hd["friend_card"]["code"]
        out["friend"] = hd["friend"]
        out["attackers_points"] = hd["attackers_points"]
        out["buried"] = _codes(hd["buried"] or [])
        out["hundred"] = {
            "declarer": hd["declarer"],
            "bid": hd["bid"],
            "threshold": hd["threshold"],
            "alone": hd["alone"],
            "auction": None if hd["auction"] is None else hd["auction"]["entries"],
            "kitty": None if hd["kitty"] is None else _codes(hd["kitty"]),
            "dummy": next((_codes(p["shown"]) for p in places if p["shown"]), None),
            "trick": [{"hand": p["hand"], "cards": _codes(p["play"])} for p in places if p["play"]],
        }
    sm = page.get("summary")
    if sm is not None:
        out["summary"] = {
            "winner": sm["winner"],
            "units": sm["units"],
            "scores": sm["scores"],
            "points": sm["points"],
            "bid": sm["bid"],
            "threshold": sm["threshold"],
            "ready": list(sm["ready"]),
            "waiting_for": list(sm["waiting_for"]),
            "me_ready": sm["me_ready"],
            "pause_left": sm["pause_left"],
        }
    return out
