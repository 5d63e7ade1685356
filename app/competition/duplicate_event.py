"""A duplicate event's standings from its board results (复式排名). Pure: no Flask, no database.

Results are one per table per board (:class:`TableResult`): who sat in each place and the score
— side 0's value for fixed sides (DUPLICATE.md's ``value``), each seat's 积分 change for red five.

* ``field_standings(results)``: pairs/trios across the field and red five individuals. Each
  board's results are compared in their direction (fixed sides: side 0 with side 0 by side 0's
  value, side 1 with side 1 by side 1's value ``−value[0]``; red five: seat by seat), 2
  matchpoints per result beaten, 1 per tie (``duplicate.matchpoints``). An entrant's total
  percentage is ``100 × ΣMP / Σtop``, a board's top being ``2 × (k − 1)`` for ``k`` results.
  A board played once gives its result 0 matchpoints of a top of 0 and 50 % (DUPLICATE.md):
  the matchpoints and top shown leave it out, the percentage counts it as half of a top of 2.
  Ranked by percentage, then matchpoints.
* ``team_standings(v, results, teams, match_boards)``: teams of four. A match's two tables
  give team A each board's IMPs (``duplicate.team_board`` on side 0's values), the IMP margin
  gives the VPs on the scale of the match's full ``N`` boards (``match_boards``), also while
  only some of them are in: such a match is *provisional* (never scored as a shorter match);
  standings by VPs, then the IMP quotient (IMPs won ÷ IMPs lost; none lost ranks above any
  quotient when some were won, and counts as 1 when none were).
* ``visible(board, viewer, scheduled, results)``: no peeking — a board's comparison is shown
  to a viewer only when the viewer is not still to play it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from engine.variants import Variant

from .duplicate import DuplicateError, imps_for, matchpoints, vp


@dataclass(frozen=True)
class TableResult:
    board: int
    table: int
    round: int
    seats: tuple[int, ...]  # fixed sides: (side 0, side 1) entrants; red five: player by seat
    value0: int | None = None  # fixed sides
    scores: tuple[int, ...] | None = None  # red five: each seat's 积分 change
    match: int | None = None  # teams: the match in its round


@dataclass(frozen=True)
class FieldRow:
    entrant: int
    mp: int
    top: int
    pct: float
    boards: int
    rank: int


@dataclass(frozen=True)
class BoardScore:
    """One result's matchpoints on its board, per place (seat or side)."""

    board: int
    table: int
    mp: tuple[int, ...]
    pct: tuple[float, ...]


def _round2(x: Fraction) -> float:
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return float(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _directions(r: TableResult) -> list[float]:
    """The score of each place in its direction."""
    if r.scores is not None:
        return [float(s) for s in r.scores]
    if r.value0 is None:
        raise DuplicateError(f"board {r.board}, table {r.table}: no result")
    return [float(r.value0), float(-r.value0)]


def _pct(mp: int, k: int) -> float:
    return 50.0 if k == 1 else _round2(Fraction(100 * mp, 2 * (k - 1)))


_PCT: dict[tuple[int, int], float] = {}


def fast_matchpoints(values: Sequence[float]) -> tuple[list[int], list[float]]:
    """``duplicate.matchpoints`` in ``O(k log k)``: a result's matchpoints are twice the
    results below it plus those equal to it (itself not counted)."""
    k = len(values)
    if k == 0:
        return matchpoints(list(values))  # raises the sentence for no results
    order = sorted(values)
    mps = [
        2 * bisect_left(order, x) + (bisect_right(order, x) - bisect_left(order, x) - 1)
        for x in values
    ]
    pcts = []
    for mp in mps:
        key = (mp, k)
        pct = _PCT.get(key)
        if pct is None:
            pct = _PCT[key] = _pct(mp, k)
        pcts.append(pct)
    return mps, pcts


def board_scores(results: Iterable[TableResult]) -> list[BoardScore]:
    """Every result's matchpoints and percentage per place, board by board."""
    by_board: dict[int, list[TableResult]] = {}
    seen: set[tuple[int, int, int]] = set()
    for r in results:
        key = (r.board, r.round, r.table)
        if key in seen:
            raise DuplicateError(f"board {r.board} has two results at table {r.table}")
        seen.add(key)
        by_board.setdefault(r.board, []).append(r)
    out: list[BoardScore] = []
    for b in sorted(by_board):
        rows = sorted(by_board[b], key=lambda r: (r.round, r.table))
        dirs = [_directions(r) for r in rows]
        places = len(dirs[0])
        if any(len(d) != places for d in dirs):
            raise DuplicateError(f"board {b}: results with different numbers of places")
        mps: list[list[int]] = [[0] * places for _ in rows]
        pcts: list[list[float]] = [[0.0] * places for _ in rows]
        for p in range(places):
            mp, pct = fast_matchpoints([d[p] for d in dirs])
            for i in range(len(rows)):
                mps[i][p] = mp[i]
                pcts[i][p] = pct[i]
        for r, mp_row, pct_row in zip(rows, mps, pcts, strict=True):
            out.append(BoardScore(b, r.table, tuple(mp_row), tuple(pct_row)))
    return out


def field_standings(results: Sequence[TableResult]) -> list[FieldRow]:
    counts: dict[int, int] = {}
    for r in results:
        counts[r.board] = counts.get(r.board, 0) + 1
    mp: dict[int, int] = {}
    top: dict[int, int] = {}
    once: dict[int, int] = {}  # boards played once: 0 MP of a top of 0, at 50 %
    played: dict[int, int] = {}
    scores = board_scores(results)
    ordered = sorted(results, key=lambda r: (r.board, r.round, r.table))
    for r, s in zip(ordered, scores, strict=True):
        k = counts[r.board]
        for place, e in enumerate(r.seats):
            mp[e] = mp.get(e, 0) + s.mp[place]
            top[e] = top.get(e, 0) + 2 * (k - 1)
            once[e] = once.get(e, 0) + (k == 1)
            played[e] = played.get(e, 0) + 1
    share = {e: Fraction(mp[e] + once[e], top[e] + 2 * once[e]) for e in mp}
    rows = [(e, mp[e], top[e], _round2(100 * share[e]), played[e]) for e in mp]
    rows.sort(key=lambda x: (-share[x[0]], -x[1], x[0]))
    out: list[FieldRow] = []
    for i, (e, m, t, pct, n) in enumerate(rows):
        prev = out[-1] if out else None
        tied = prev is not None and share[prev.entrant] == share[e]
        out.append(FieldRow(e, m, t, pct, n, prev.rank if tied and prev else i + 1))
    return out


# --- teams -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchScore:
    round: int
    match: int
    teams: tuple[int, int]  # (A, B): A holds side 0 at the match's first table
    imps: tuple[int, int]  # IMPs won by A, by B
    boards: int  # boards with both tables' results
    vp: tuple[float, float]  # on the scale of the match's full ``of`` boards
    of: int = 0  # the match's boards (N); 0: those played

    @property
    def provisional(self) -> bool:
        """Some of the match's boards are still to be scored: its VPs may change."""
        return self.boards < self.of


@dataclass(frozen=True)
class TeamRow:
    team: int
    vp: float
    imps_won: int
    imps_lost: int
    quotient: float | None  # None when no IMPs were lost
    matches: int
    rank: int
    provisional: bool = False  # a match of the team is part-played


def match_scores(
    v: Variant,
    results: Sequence[TableResult],
    b_factor: float = 10,
    match_boards: Mapping[tuple[int, int], int] | None = None,
) -> list[MatchScore]:
    """Each team match's IMPs and VPs. A match's first table (the lower number) has team A's
    first half in side 0; a board counts once both tables have its result. The VPs use the
    match's boards ``N`` (``match_boards[(round, match)]``, DUPLICATE.md) however many are in:
    a part-played match is provisional, not a shorter match. Without ``match_boards``, ``N``
    is the boards played."""
    by: dict[tuple[int, int], dict[int, dict[int, TableResult]]] = {}
    for r in results:
        if r.match is None or r.value0 is None:
            raise DuplicateError(f"board {r.board}, table {r.table}: not a team match result")
        by.setdefault((r.round, r.match), {}).setdefault(r.board, {})[r.table] = r
    out: list[MatchScore] = []
    for (rnd, m), boards in sorted(by.items()):
        tables = sorted({t for b in boards.values() for t in b})
        if len(tables) > 2:
            raise DuplicateError(f"round {rnd}, match {m} has more than two tables")
        first = min(tables)
        a = b = None
        won = lost = played = 0
        for _, two in sorted(boards.items()):
            if len(two) != 2:
                continue
            t1 = two[first]
            t2 = next(r for t, r in two.items() if t != first)
            a, b = t1.seats[0] // 2, t1.seats[1] // 2
            assert t1.value0 is not None and t2.value0 is not None
            i = imps_for(v, t1.value0 - t2.value0)
            won += max(i, 0)
            lost += max(-i, 0)
            played += 1
        if played == 0 or a is None or b is None:
            continue
        n = (match_boards or {}).get((rnd, m), played)
        if n < played:
            raise DuplicateError(f"round {rnd}, match {m}: {played} boards played of {n}")
        out.append(MatchScore(rnd, m, (a, b), (won, lost), played, vp(n, won - lost, b_factor), n))
    return out


def table_imps(v: Variant, results: Sequence[TableResult]) -> dict[tuple[int, int, int], int]:
    """Each team-match table's IMPs on a board for its side 0's team, by (board, round,
    table), once both tables of the match have the board (team A holds side 0 at the match's
    first table, team B at the other): a team event's comparison is the two tables of its
    match, never the field."""
    by: dict[tuple[int, int, int | None], dict[int, int]] = {}
    for r in results:
        if r.match is None or r.value0 is None:
            raise DuplicateError(f"board {r.board}, table {r.table}: not a team match result")
        by.setdefault((r.board, r.round, r.match), {})[r.table] = r.value0
    out: dict[tuple[int, int, int], int] = {}
    for (board, rnd, _), two in by.items():
        if len(two) != 2:
            continue
        first, other = min(two), max(two)
        i = imps_for(v, two[first] - two[other])
        out[(board, rnd, first)] = i
        out[(board, rnd, other)] = -i
    return out


def team_standings(
    v: Variant,
    results: Sequence[TableResult],
    teams: Collection[int] = (),
    b_factor: float = 10,
    match_boards: Mapping[tuple[int, int], int] | None = None,
) -> list[TeamRow]:
    vps: dict[int, float] = {t: 0.0 for t in teams}
    won: dict[int, int] = {t: 0 for t in teams}
    lost: dict[int, int] = {t: 0 for t in teams}
    n: dict[int, int] = {t: 0 for t in teams}
    partial: set[int] = set()
    for ms in match_scores(v, results, b_factor, match_boards):
        for side, t in enumerate(ms.teams):
            vps[t] = vps.get(t, 0.0) + ms.vp[side]
            won[t] = won.get(t, 0) + ms.imps[side]
            lost[t] = lost.get(t, 0) + ms.imps[1 - side]
            n[t] = n.get(t, 0) + 1
            if ms.provisional:
                partial.add(t)

    def quotient(t: int) -> float | None:
        return None if lost[t] == 0 else won[t] / lost[t]

    def key(t: int) -> tuple[float, float]:
        q = quotient(t)
        return (-round(vps[t], 2), -(q if q is not None else float("inf") if won[t] else 1.0))

    order = sorted(vps, key=lambda t: (*key(t), t))
    out: list[TeamRow] = []
    for i, t in enumerate(order):
        prev = out[-1] if out else None
        tied = prev is not None and key(prev.team) == key(t)
        out.append(
            TeamRow(
                t,
                round(vps[t], 2),
                won[t],
                lost[t],
                None if quotient(t) is None else round(quotient(t) or 0.0, 3),
                n[t],
                prev.rank if tied and prev else i + 1,
                t in partial,
            )
        )
    return out


# --- no peeking --------------------------------------------------------------------------------


def visible(
    board: int,
    viewer: int | None,
    scheduled: Mapping[int, Collection[int]],
    played: Mapping[int, Collection[int]],
) -> bool:
    """May ``viewer`` (an entrant number; ``None``: anyone who is not an entrant, e.g. the
    public) see board ``board``'s comparison? ``scheduled[e]``: the boards entrant ``e`` is to
    play; ``played[e]``: those it has a result on. Not while any viewer scheduled to play it
    has not — for the public, not while any entrant still has to play it."""
    if viewer is None:
        return all(
            board not in boards or board in played.get(e, ()) for e, boards in scheduled.items()
        )
    return board not in scheduled.get(viewer, ()) or board in played.get(viewer, ())
