"""What an online table's pages show: a seat's page (that seat's view, never another hand) and
the director's page. The engine's state comes from ``bridge``; this module only arranges it."""

from __future__ import annotations

from typing import Any

from ...competition.matches import FixedMatch, RedFiveTable
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
    fixed = isinstance(derived, FixedMatch)
    over = live is None or tab.finished or bridge.match_complete(t, tab, live)
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
        "fixed": fixed,
        # the header's levels are the score sheet's: before the first deal both sides are at 2
        "levels": derived.levels if isinstance(derived, FixedMatch) else None,
        "over": over,
        "bot_seat": seat_row.bot,
        "my_turn": False,
        "match_result": match_result(derived, names, sides) if over and derived.rows else None,
    }
    if live is None:
        return page
    deal = live.deal
    if tab.finished and deal.outcome is None:
        return page  # time was up during this deal: it is not played on
    view = bridge.view(live, seat)
    waiting = live.waiting_for()
    playable = set(view["playable"])
    actions: list[str] = []
    calls = view["legal_calls"]
    if deal.phase == bridge.DRAW:
        if waiting == seat:
            actions = ["call", bridge.CONTINUE]
        else:
            calls = []
    elif not seat_row.bot:
        actions = list(view["actions"])
    if seat_row.bot:
        actions = []
    groups = bridge.hand_groups(live, seat)
    for g in groups:
        g["cards"] = [dict(c, playable=c["code"] in playable) for c in g["cards"]]
    summary = bridge.deal_summary(live, seat)
    page.update(
        {
            "view_phase": view["phase"],
            "deal_number": live.row.number,
            "waiting": waiting,
            "my_turn": waiting == seat and bool(actions),
            "hand_groups": groups,
            "hand_size": len(view["hand"]),
            "actions": actions,
            "calls": [bridge.faces(deal, c) for c in calls],
            "call_help": bridge.call_help(live, seat) if not seat_row.bot else None,
            "trump": view["trump"],
            "trump_known": view["trump_known"],
            "level": view["level"],
            "dealer": view["dealer"],
            "attackers_points": view["attackers_points"],
            "friend_card": (
                None if view["friend_card"] is None else bridge.face_of(view["friend_card"])
            ),
            "friend": view["friend"],
            "kitty_size": view["kitty"]["size"],
            "my_kitty": (
                bridge.faces(deal, view["kitty"]["cards"])
                if view["kitty"]["cards"] and view["kitty"]["owner"] == seat and summary is None
                else []
            ),
            "calls_made": [
                {"seat": c["seat"], "cards": bridge.faces(deal, c["cards"])} for c in view["calls"]
            ],
            "friend_choices": _friend_choices() if "friend" in actions else [],
            "board": board(live, view, seat, names, bots, waiting),
            "summary": None
            if summary is None
            else summary_page(t, tab, live, summary, derived, seat, over),
        }
    )
    return page


def board(
    live: bridge.Live,
    view: dict[str, Any],
    bottom: int | None,
    names: list[str],
    bots: set[int],
    waiting: int | None,
) -> dict[str, Any]:
    """The neutral context of ``online/_table.html``: the seats around the table as seen from
    ``bottom`` (a seat, or None for a spectator: seat 0 at the bottom), their names and marks,
    whose turn, the cards each holds, and the trick by seat with the winning play."""
    n = len(view["hand_sizes"])
    me = 0 if bottom is None else bottom
    dealer = view["dealer"]
    fixed = view["variant"] != "red-five-5p"
    friend = view["friend"]
    alone = view["friend_called"] and view["friend_card"] is None
    sides_known = dealer is not None and (fixed or friend is not None or alone)
    trick = bridge.trick_plays(live)
    previous = bridge.trick_plays(live, "previous")
    seats = []
    for s in range(n):
        marks: list[str] = []
        if s == dealer:
            marks.append("dealer")
        elif fixed and bottom is not None and s % 2 == bottom % 2 and s != bottom:
            marks.append("partner")
        if not fixed and s == friend and s != dealer:
            marks.append("friend")
        attacker = sides_known and (
            (s % 2 != dealer % 2) if fixed else (s != dealer and s != friend)
        )
        if attacker:
            marks.append("attacker")
        seats.append(
            {
                "seat": s,
                "name": names[s] if s < len(names) else str(s + 1),
                "pos": (s - me) % n,
                "you": s == bottom,
                "bot": s in bots,
                "marks": marks,
                "attacker": attacker,
                "turn": s == waiting,
                "cards": view["hand_sizes"][s],
                "play": None if trick is None else trick["plays"].get(s),
                "winning": trick is not None and trick["winner"] == s,
                "won": view["won"][s],
            }
        )
    return {
        "n": n,
        "seats": seats,
        "trick": trick,
        "previous": previous,
        "names": names,
        "trump": view["trump"],
        "trump_known": view["trump_known"],
        "level": view["level"],
        "attackers_points": view["attackers_points"],
        "phase": view["phase"],
    }


def summary_page(
    t: Any,
    tab: Table,
    live: bridge.Live,
    summary: dict[str, Any],
    derived: FixedMatch | RedFiveTable,
    seat: int | None,
    over: bool,
) -> dict[str, Any]:
    """The deal summary's context (``online/_summary.html``): the engine's summary, the sheet
    row it became (levels before → after, or the 积分), and who still has to press Continue."""
    idx = live.row.sheet_index
    row = derived.rows[idx] if idx is not None and idx < len(derived.rows) else None
    ready = bridge.ready_seats(live)
    humans = sorted(live.humans)
    return dict(
        summary,
        row=row,
        match_over=over,
        ready=sorted(ready),
        humans=humans,
        waiting_for=[s for s in humans if s not in ready],
        me_ready=seat is not None and seat in ready,
        me_human=seat is not None and seat in live.humans,
        pause_left=0 if over else bridge.pause_left(t, live),
        pause=t.online_pause,
    )


def match_result(
    derived: FixedMatch | RedFiveTable, names: list[str], sides: list[str]
) -> dict[str, Any]:
    """The match as it ended: fixed sides, the winner, the final levels and the 级差; red five,
    the 积分 totals, best first."""
    if isinstance(derived, FixedMatch):
        diff = derived.level_diff(0)
        return {
            "fixed": True,
            "winner": None if diff == 0 else (0 if diff > 0 else 1),
            "levels": derived.levels,
            "passed": derived.passed_side,
            "diff": abs(diff),
            "sides": sides,
        }
    order = sorted(range(len(derived.totals)), key=lambda s: (-derived.totals[s], s))
    return {
        "fixed": False,
        "ranking": [{"seat": s, "name": names[s], "total": derived.totals[s]} for s in order],
    }


def _friend_choices() -> list[dict[str, Any]]:
    codes = ["5H", "HJ"] + [r + s for r in ("A", "K") for s in ("S", "H", "D", "C")]
    return [bridge.face_of(c) for c in codes]


def director_page(tab: Table) -> dict[str, Any]:
    """The director's view of an online table: seats with their links and bot marks, the state
    token, whose turn it is (no hand)."""
    _sides, names = seat_names(tab)
    live = bridge.load(tab)
    t = bridge.tournament_of(tab)
    return {
        "seats": seats_of(tab),
        "names": names,
        "token": bridge.state_token(tab),
        "deal_number": None if live is None else live.row.number,
        "waiting": None if live is None or tab.finished else live.waiting_for(),
        "over": live is None or tab.finished or bridge.match_complete(t, tab, live),
        "timed": "minutes" in (t.match or {}),
    }
