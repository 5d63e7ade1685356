"""What an online table's pages show: a seat's page (that seat's view, never another hand), the
director's page, the spectators' live view (no hand at all) and the replay of a finished deal.
The engine's state comes from ``bridge``; this module only arranges it."""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import inspect, or_, select
from sqlalchemy.orm import selectinload

from ...competition.matches import FixedMatch
from ...competition.standings import SheetTable
from ...db import reads_only
from ...extensions import db
from ...models import DuplicateOnlineTable, Entrant, OnlineSeat, Table, TableSeat, Tournament
from ..duplicate import tables as duplicate_tables
from ..tournaments.rows import seat_names
from ..tournaments.sheets import sheet
from . import (
    between_deals,
    bridge,
    climbing_pages,
    clock,
    deal_view,
    hundred_pages,
    takeback,
    tokens,
)
from . import seats as seats_module
from .cards import card_face, face_of, faces, hand_groups, sorted_cards
from .seats import seats_of
from .throws import failed_throw

if TYPE_CHECKING:  # the type only: the engine is driven by ``bridge`` alone
    from engine.deal import Deal


def _fresh(obj: Any) -> bool:
    """Is ``obj`` loaded in this transaction (not expired by a commit or a rollback)?"""
    if obj is None:
        return False
    state = inspect(obj)
    return not state.expired and not state.expired_attributes


def _seat_table(seat_row: OnlineSeat) -> Table:
    """The seat's table, with its round and tournament. A seat opened by its link or by its
    member came with them (``seats.seat_by_token``); after a move's commit every object is
    expired, and one query reads the seat and all three again."""
    tab: Table | None = seat_row.__dict__.get("table")
    rnd = None if tab is None else tab.__dict__.get("round")
    if (
        tab is not None
        and _fresh(seat_row)
        and _fresh(tab)
        and _fresh(rnd)
        and _fresh(None if rnd is None else rnd.__dict__.get("tournament"))
    ):
        return tab
    identity = inspect(seat_row).identity  # read without loading the expired row
    assert identity is not None
    again = seats_module.seat_with_table(identity[0])
    assert again is seat_row
    return again.table


# the names at a table and its score sheet, by table, while its tournament's version stands
# (every change bumps it: ``Tournament.version``), as ``rows.load`` caches the tournament
_SHEETS: OrderedDict[tuple[Any, ...], tuple[list[str], list[str], SheetTable, int | None]] = (
    OrderedDict()
)
_SHEETS_SIZE = 2048  # a round's tables are kept together
_SHEETS_LOCK = threading.Lock()


def names_and_sheet(t: Tournament, tab: Table) -> tuple[list[str], list[str], Any, int | None]:
    """``seat_names``, ``sheet`` and the duplicate board it deals (None: a tournament's own
    table) of a table, kept per tournament version: a seat's page during a deal reads neither
    the seating, the sheet rows nor the board again. Kept only when read in a request that
    writes nothing more (``reads_only``: a page, a poll, a move's answer once committed), so
    that a version never committed is never kept.

    A miss there reads every table of the round at once (``_whole_round``): the tables of a
    round miss together — when the round's pages first open, and after each version (a deal
    recorded anywhere bumps it) — and one by one each would cost some eight queries."""
    key = _sheet_key(t, tab.id)
    with _SHEETS_LOCK:
        hit = _SHEETS.get(key)
        if hit is not None:
            _SHEETS.move_to_end(key)
    if hit is None:
        if not reads_only():  # kept only from committed data, never from a write's own
            sides, names = seat_names(tab)
            return sides, names, sheet(t, tab), duplicate_tables.board_number(tab)
        found = _whole_round(t, tab)
        hit = found[tab.id]
        with _SHEETS_LOCK:
            for table_id, got in found.items():
                _SHEETS[_sheet_key(t, table_id)] = got
            while len(_SHEETS) > _SHEETS_SIZE:
                _SHEETS.popitem(last=False)
    return list(hit[0]), list(hit[1]), hit[2], hit[3]


def _sheet_key(t: Tournament, table_id: int) -> tuple[Any, ...]:
    stamp = t.created_at.isoformat() if t.created_at else ""
    return (str(db.engine.url), t.id, stamp, t.version, table_id)


def _whole_round(
    t: Tournament, tab: Table
) -> dict[int, tuple[list[str], list[str], SheetTable, int | None]]:
    """What ``names_and_sheet`` keeps, for ``tab`` and every other online table of its round,
    from six queries: the tables with their seats, entrants, players, substitutes and deals,
    and the duplicate boards they deal."""
    tables = db.session.scalars(
        select(Table)
        .where(
            Table.round_id == tab.round_id,
            or_(Table.id == tab.id, (Table.mode == "online") & (Table.kind != "bye")),
        )
        .options(
            selectinload(Table.seats)
            .selectinload(TableSeat.entrant)
            .options(selectinload(Entrant.players), selectinload(Entrant.substitutions)),
            selectinload(Table.deals),
        )
    ).all()
    boards: dict[int, int] = {
        table_id: board
        for table_id, board in db.session.execute(
            select(DuplicateOnlineTable.table_id, DuplicateOnlineTable.board).where(
                DuplicateOnlineTable.table_id.in_([x.id for x in tables])
            )
        )
    }
    out = {}
    for x in tables:
        sides, names = seat_names(x)
        out[x.id] = (sides, names, sheet(t, x), boards.get(x.id))
    return out


def _without_result(deal: Deal) -> str | None:
    """Why a duplicate board's deal ended without a result (it is not dealt again): "nobody"
    called, or a "weak" hand had it dealt again or refused; None: it has a result or is on."""
    if deal.outcome not in duplicate_tables.NO_RESULT:
        return None
    return "nobody" if deal.redeal_by is None else "weak"


def seat_page(seat_row: OnlineSeat) -> dict[str, Any]:
    """Everything the seat's page shows: this seat's view (never another hand) and the sheet."""
    tab = _seat_table(seat_row)
    t = tab.round.tournament
    seat = seat_row.seat
    sides, names, derived, duplicate_board = names_and_sheet(t, tab)
    got = bridge.latest(tab)  # the deal and who plays each seat, in one query
    if got is None:
        bots = {s.seat for s in seats_of(tab) if s.bot}
        live = None
    else:
        bots = set(got[2]) - got[1]
        live = bridge.load_row(*got)
    fixed = isinstance(derived, FixedMatch)
    over = live is None or tab.finished or between_deals.match_complete(t, tab, live)
    page: dict[str, Any] = {
        "token": tokens.token_of(tab, None if live is None else live.row),
        "seat": seat,
        "names": names,
        "sides": sides,
        "bots": bots,
        "variant": t.variant,
        "tournament": t.name,
        "table": tab.number,
        "round": tab.round.number,
        "duplicate_board": duplicate_board,  # a duplicate board: "board k"
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
    if tab.finished and live.deal.outcome is None:
        return page  # time was up during this deal: it is not played on
    if live.family == bridge.HUNDRED:
        return _hundred_seat(page, t, tab, live, derived, seat_row, names, bots, over)
    if live.family != bridge.TRICKS:
        return _climbing_seat(page, t, tab, live, derived, seat_row, names, bots, over)
    deal = live.trick
    if duplicate_board is not None:
        page["no_result"] = _without_result(deal)
    view = bridge.view(live, seat)
    waiting = live.waiting_for()
    paused = tab.paused and not tab.finished
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
    if seat_row.bot or paused:
        actions = []  # a paused table takes no move: its seats are told so, not "your turn"
    groups = hand_groups(deal, seat)
    for g in groups:
        g["cards"] = [dict(c, playable=c["code"] in playable) for c in g["cards"]]
    summary = between_deals.deal_summary(live)
    page.update(
        {
            "view_phase": view["phase"],
            "deal_number": live.row.number,
            "waiting": waiting,
            "paused": paused,
            "my_turn": waiting == seat and bool(actions),
            # the redeal window's buttons say what they do: 暴动 (升级) or refusing the deal
            # (120分) below this many points, or playing on
            "redeal_limit": deal.redeal_limit() if view["phase"] == "redeal" else None,
            "hand_groups": groups,
            "hand_size": len(view["hand"]),
            "actions": actions,
            "calls": [faces(deal, c) for c in calls],
            "call_help": deal_view.call_help(live, seat) if not seat_row.bot else None,
            "trump": view["trump"],
            "trump_known": view["trump_known"],
            "level": view["level"],
            "dealer": view["dealer"],
            "attackers_points": view["attackers_points"],
            "friend_card": (None if view["friend_card"] is None else face_of(view["friend_card"])),
            "friend": view["friend"],
            "kitty_size": view["kitty"]["size"],
            "my_kitty": (
                faces(deal, view["kitty"]["cards"])
                if view["kitty"]["cards"] and view["kitty"]["owner"] == seat and summary is None
                else []
            ),
            "calls_made": [
                {"seat": c["seat"], "cards": faces(deal, c["cards"])} for c in view["calls"]
            ],
            "friend_choices": _friend_choices() if "friend" in actions else [],
            "board": board(live, view, seat, names, bots, waiting),
            # the move clock (clock.py): the waited human seat's seconds left, and what the
            # clock played for this seat when its time ran out
            "move_left": clock.seconds_left(t, tab, live),
            "timed_out": None if seat_row.bot else clock.timed_out_note(live, seat),
            # a take-back (悔牌): may this seat ask for one, and the one asked meanwhile
            "takeback_askable": not seat_row.bot and not paused and takeback.askable(live, seat),
            "takeback": takeback.pending(live),
            "takeback_refused_by": takeback.refused_by(live, seat),
            "summary": None
            if summary is None
            else summary_page(t, tab, live, summary, derived, seat, over),
        }
    )
    return page


def _climbing_seat(
    page: dict[str, Any],
    t: Tournament,
    tab: Table,
    live: bridge.Live,
    derived: SheetTable,
    seat_row: OnlineSeat,
    names: list[str],
    bots: set[int],
    over: bool,
) -> dict[str, Any]:
    """``seat_page`` for a deal of 争上游 (``climbing_pages``): its own table and hand, the same
    header, clock, waiting and end of the deal with its Continue."""
    seat = seat_row.seat
    view = bridge.view(live, seat)
    waiting = live.waiting_for()
    paused = tab.paused and not tab.finished
    page.update(
        climbing_pages.seat_context(
            live, view, seat, names, bots, waiting, not seat_row.bot and not paused
        )
    )
    end = climbing_pages.deal_end(live, view)
    page.update(
        {
            "deal_number": live.row.number,
            "waiting": waiting,
            "paused": paused,
            "move_left": clock.seconds_left(t, tab, live),
            "timed_out": None if seat_row.bot else clock.timed_out_note(live, seat),
            "summary": None
            if end is None
            else summary_page(t, tab, live, end, derived, seat, over),
        }
    )
    return page


def _hundred_seat(
    page: dict[str, Any],
    t: Tournament,
    tab: Table,
    live: bridge.Live,
    derived: SheetTable,
    seat_row: OnlineSeat,
    names: list[str],
    bots: set[int],
    over: bool,
) -> dict[str, Any]:
    """``seat_page`` for a deal of 打百分 (``hundred_pages``), as ``_climbing_seat``."""
    seat = seat_row.seat
    view = bridge.view(live, seat)
    waiting = live.waiting_for()
    paused = tab.paused and not tab.finished
    page.update(
        hundred_pages.seat_context(
            live, view, seat, names, bots, waiting, not seat_row.bot and not paused
        )
    )
    end = hundred_pages.deal_end(live, view)
    page.update(
        deal_number=live.row.number,
        waiting=waiting,
        paused=paused,
        move_left=clock.seconds_left(t, tab, live),
        timed_out=None if seat_row.bot else clock.timed_out_note(live, seat),
        summary=None if end is None else summary_page(t, tab, live, end, derived, seat, over),
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
    whose turn, the cards each holds, and the trick by seat with the winning play and the size of
    its lead."""
    n = len(view["hand_sizes"])
    me = 0 if bottom is None else bottom
    dealer = view["dealer"]
    fixed = view["variant"] != "red-five-5p"
    friend = view["friend"]
    alone = view["friend_called"] and view["friend_card"] is None
    sides_known = dealer is not None and (fixed or friend is not None or alone)
    trick = deal_view.trick_plays(live)
    previous = deal_view.trick_plays(live, "previous")
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
        # how many cards the trick's lead holds (each follow must give as many); None: no lead
        "lead_size": None if trick is None else len(trick["plays"][trick["leader"]]),
        "previous": previous,
        # a failed throw stays announced above the felt until the trick after it is complete:
        # when bots answer at once, its own trick is already the previous one
        "failed": (trick or {}).get("failed") or (previous or {}).get("failed"),
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
    derived: SheetTable,
    seat: int | None,
    over: bool,
) -> dict[str, Any]:
    """The deal summary's context (``online/_summary.html``): the engine's summary, the sheet
    row it became (levels before → after, or the 积分), and who still has to press Continue."""
    idx = live.row.sheet_index
    row = derived.rows[idx] if idx is not None and idx < len(derived.rows) else None
    ready = between_deals.ready_seats(live)
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
        pause_left=0 if over else between_deals.pause_left(t, live),
        pause=t.online_pause,
    )


def match_result(derived: SheetTable, names: list[str], sides: list[str]) -> dict[str, Any]:
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
    return [face_of(c) for c in codes]


def director_page(tab: Table) -> dict[str, Any]:
    """The director's view of an online table: seats with their links and bot marks, the state
    token, whose turn it is (no hand)."""
    _sides, names = seat_names(tab)
    live = bridge.load(tab)
    t = bridge.tournament_of(tab)
    return {
        "seats": seats_of(tab),
        "names": names,
        "token": tokens.state_token(tab),
        "deal_number": None if live is None else live.row.number,
        "waiting": None if live is None or tab.finished else live.waiting_for(),
        "over": live is None or tab.finished or between_deals.match_complete(t, tab, live),
        "timed": "minutes" in (t.match or {}),
    }


# --- the spectators' live view ------------------------------------------------------------------


def _public_faces(deal: Deal, cards: Sequence[str] | None) -> list[dict[str, Any]]:
    return faces(deal, list(cards or []))


def _trick(deal: Deal, trick: dict[str, Any] | None) -> dict[str, Any] | None:
    if trick is None or not trick["plays"]:
        return None
    return {
        "winner": trick.get("winner"),
        "points": trick.get("points", 0),
        "plays": [
            {"seat": p["seat"], "cards": _public_faces(deal, p["cards"])} for p in trick["plays"]
        ],
    }


def _idle(page: dict[str, Any], tab: Table, waiting: int | None, bots: set[int]) -> None:
    """How long the waited human seat has kept the table waiting (``page["idle"]``)."""
    if waiting is not None and waiting not in bots:
        waited = tokens.idle_for(tab)
        if waited is not None:
            page["idle"] = {"seat": waiting, "minutes": int(waited.total_seconds() // 60)}


def spectator_page(tab: Table) -> dict[str, Any]:
    """What a spectator (or the director) sees of an online table as it is played: the public
    table only (the engine's spectator view: no hand, no buried kitty before it is revealed),
    whose turn it is, and how long a human seat has kept the table waiting."""
    t = bridge.tournament_of(tab)
    sides, names = seat_names(tab)
    bots = {s.seat for s in seats_of(tab) if s.bot}
    live = bridge.load(tab)
    page: dict[str, Any] = {
        "watch_token": tokens.watch_token(tab),
        "names": names,
        "sides": sides,
        "bots": bots,
        "tournament": t.name,
        "table": tab.number,
        "round": tab.round.number,
        "paper": tab.mode != "online",
        "paused": tab.paused and not tab.finished,
        "finished": tab.finished,
        "closed": tab.round.status == "closed",
        "fixed": tab.kind == "sides",
        "over": live is None or live.deal.outcome is not None or tab.finished,
        "deal_number": None,
        "idle": None,
    }
    if live is None or (tab.finished and live.deal.outcome is None):
        return page  # no deal yet, or time was up during this deal: it is not played on
    if live.family == bridge.HUNDRED:
        waiting = live.waiting_for()
        _idle(page, tab, waiting, bots)
        page.update(
            hundred_pages.spectator_context(live, bridge.spectate(live), names, bots, waiting),
            deal_number=live.row.number,
            waiting=waiting,
        )
        return page
    if live.family != bridge.TRICKS:
        view = bridge.spectate(live)
        waiting = live.waiting_for()
        _idle(page, tab, waiting, bots)
        page.update(
            climbing_pages.spectator_context(live, view, names, bots, waiting),
            deal_number=live.row.number,
            waiting=waiting,
        )
        return page
    deal = live.trick
    if deal.outcome in duplicate_tables.NO_RESULT:  # only then: which duplicate board, if any
        board = duplicate_tables.board_number(tab)
        if board is not None:
            page["duplicate_board"] = board
            page["no_result"] = _without_result(deal)
    view = bridge.spectate(live)
    waiting = live.waiting_for()
    _idle(page, tab, waiting, bots)
    kitty = view["kitty"]
    friend = view["friend"]
    page.update(
        {
            "deal_number": live.row.number,
            "phase": view["phase"],
            "waiting": waiting,
            "trump": view["trump"],
            "trump_known": view["trump_known"],
            "level": view["level"],
            "levels": view["levels"],
            "dealer": view["dealer"],
            "friend_card": (None if view["friend_card"] is None else face_of(view["friend_card"])),
            "friend": friend,
            "attackers_points": view["attackers_points"],
            "seats": [
                {
                    "seat": s,
                    "cards": view["hand_sizes"][s],
                    "won": view["won"][s],
                    "dealer": s == view["dealer"],
                    "friend": friend is not None and s == friend,
                    "to_act": s == waiting,
                }
                for s in range(len(names))
            ],
            "calls": [
                {"seat": c["seat"], "cards": _public_faces(deal, c["cards"])} for c in view["calls"]
            ],
            "tricks_done": len(view["tricks"]),
            "trick": _trick(deal, view["trick"]),
            "last_trick": _trick(deal, view["tricks"][-1] if view["tricks"] else None),
            "trick_failed": failed_throw(deal, len(view["tricks"])) if view["trick"] else None,
            "last_failed": failed_throw(deal, len(view["tricks"]) - 1) if view["tricks"] else None,
            "kitty_size": kitty["size"],
            "kitty_owner": kitty["owner"],
            "kitty": _public_faces(deal, kitty["cards"]) if kitty["cards"] is not None else None,
            "kitty_points": kitty["points"],
            "turned": _public_faces(deal, kitty["turned"]) if kitty["turned"] else [],
            "result": view["result"],
            "outcome": view["outcome"],
        }
    )
    return page


# --- replays ----------------------------------------------------------------------------------


def replay_list(tab: Table) -> list[dict[str, Any]]:
    """The finished deals of an online table (each can be replayed): its number at the table,
    how it ended, and the score sheet row it became (1-based; None for a deal dealt again)."""
    return [
        {
            "id": row.id,
            "number": row.number,
            "outcome": row.outcome,
            "sheet_row": None if row.sheet_index is None else row.sheet_index + 1,
        }
        for row in bridge.finished_deals(tab)
    ]


def _faces_of(deal: Deal, cards: Sequence[int], marked: Sequence[int] = ()) -> list[dict]:
    """Card faces in the deal's order; ``marked`` cards (counted, for two copies) flagged."""
    left = Counter(marked)
    out = []
    for c in sorted_cards(deal, list(cards)):
        face = card_face(c)
        face["marked"] = left[c] > 0
        left[c] -= 1
        out.append(face)
    return out


def replay_page(tab: Table, number: int, trick: int) -> dict[str, Any] | None:
    """A finished deal of the table replayed: the calls, the kitty buried, every trick by seat
    with its winner, and every hand (the deal is over). ``trick``: 0 is the moment the first
    trick is led; it is kept inside the deal's tricks. None: no such finished deal."""
    row = bridge.finished_deal(tab, number)
    if row is None:
        return None
    if bridge.family_of_row(row) != bridge.TRICKS:
        t = bridge.tournament_of(tab)
        _sides, names = seat_names(tab)
        family_pages = (
            hundred_pages if bridge.family_of_row(row) == bridge.HUNDRED else climbing_pages
        )
        return dict(
            family_pages.replay_context(bridge.replay_moves(row), names),
            tournament=t.name,
            table=tab.number,
            round=tab.round.number,
            deal_number=row.number,
            sheet_row=None if row.sheet_index is None else row.sheet_index + 1,
            outcome=row.outcome,
        )
    r = bridge.replay(row)
    deal = r.deal
    t = bridge.tournament_of(tab)
    sides, names = seat_names(tab)
    count = len(r.tricks)
    timeouts = clock.timed_out_plays(row, deal.n)
    k = min(max(trick, 0), count)
    shown = r.tricks[k - 1] if k else None
    played: dict[int, list[int]] = {}
    if shown is not None:
        played = {s: cards for s, cards, _attempt in shown.plays}
    hands = r.hands_at(k)
    won = shown.won if shown is not None else [0] * deal.n
    attackers = [s for s in range(deal.n) if deal.dealer is not None and deal.is_attacker(s)]
    result = deal.result
    return {
        "tournament": t.name,
        "table": tab.number,
        "round": tab.round.number,
        "names": names,
        "sides": sides,
        "fixed": tab.kind == "sides",
        "deal_number": row.number,
        "sheet_row": None if row.sheet_index is None else row.sheet_index + 1,
        "outcome": deal.outcome,
        "redeal_by": deal.redeal_by,
        "dealer": deal.dealer,
        "friend": deal.friend,
        "friend_card": None if deal.friend_card is None else card_face(deal.friend_card),
        "trump": deal.trump,
        "trump_known": deal.trump_set,
        "level": deal.level,
        "levels": list(deal.levels),
        "result": None
        if result is None
        else {"total": result.total, "winner": result.winner, "levels": result.levels},
        "kitty_bonus": deal.kitty_bonus,
        "calls": [{"seat": s, "cards": _faces_of(deal, cs)} for s, cs in r.calls],
        "kitty_dealt": _faces_of(deal, deal.kitty_cards) if deal.variant.kitty else [],
        "burials": [{"seat": s, "cards": _faces_of(deal, cs)} for s, cs in r.burials],
        "dealt": [_faces_of(deal, h) for h in r.dealt],
        "trick_count": count,
        "k": k,
        "trick": None
        if shown is None
        else {
            "number": shown.number,
            "leader": shown.leader,
            "winner": shown.winner,
            "points": shown.points,
            "plays": [
                {
                    "seat": s,
                    "cards": _faces_of(deal, cards),
                    "attempt": None if attempt is None else _faces_of(deal, attempt),
                    "timeout": (shown.number, s) in timeouts,  # the move clock played it
                }
                for s, cards, attempt in shown.plays
            ],
        },
        "hands": [
            {"seat": s, "cards": _faces_of(deal, hands[s], played.get(s, ()))}
            for s in range(deal.n)
        ],
        "won": won,
        "attackers_points": sum(won[s] for s in attackers),
        "attackers": attackers,
    }
