"""Duplicate movements (复式): who sits where, in which direction, playing which boards. Pure.

A movement is a list of :class:`Sitting` rows — round, table, the boards played there and who
sits in each place — plus the entrants sitting out each round. Boards are numbered from 1; board
``k`` is the same deal wherever it is played (``app.competition.boards``), so a movement may send
one board to several tables in the same round (online that costs nothing; on paper the hand
records print a copy per table).

* ``team_movement(teams, boards_per_match, rounds=None)`` and ``team_round(...)``: teams of four
  (升级: two pairs a team; 120分: two trios a team). A team match is two tables playing the same
  boards: the team's first half sits in side 0 at its first table and its second half in side 1
  at the other, the opponents in the other places. Round robin of teams by the Berger tables
  (``pairing.berger_round``) or, through ``team_round``, any pairing (``pairing.swiss_round``).
  ``team_swiss_round`` pairs one Swiss round from the VPs so far; ``team_swiss_movement`` is a
  Swiss as far as its rounds are paired (the pairings are stored by the caller, never re-made).
  A side is named by a *half* number: ``2 × team + h`` (``h`` 0 or 1), see ``team_of``.
* ``mitchell(entrants, boards_per_round, rounds=None, sets=None)``: pairs (or trios) across the
  field with fixed sides. The side-0 entrants stay at their tables, the side-1 entrants move on
  and the boards move down, so every board keeps its direction (side 0 always held by side-0
  entrants) and no entrant meets a board twice. An odd count leaves one table short: its entrant
  sits out that round (a bye).
* ``red_five_movement(players, boards_per_round, rounds=None)``: individuals at tables of five.
  Each player meets each board once (all of them when the count is a multiple of five and every
  round is played), their seat moves on by one every round, and players started at different
  seats travel at different speeds so tables mix. When the count is not a multiple of five the
  missing places stay together at one table and its players sit out that round.

``check_movement`` verifies the invariants (used by the tests and by callers that build a
movement of their own): one place per entrant per round, no board played twice by an entrant,
and for fixed sides each board's direction straight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .pairing import PairingError, berger_round, berger_rounds, swiss_round

RED_FIVE_SEATS = 5


class MovementError(ValueError):
    """A movement that cannot be built (too few entrants, too many rounds …); says why."""


@dataclass(frozen=True)
class Sitting:
    """One table in one round: ``seats`` holds an entrant number per place — for fixed sides
    ``(side 0, side 1)``, for red five one player per seat 0..4."""

    round: int  # from 1
    table: int  # from 1
    boards: tuple[int, ...]  # board numbers, from 1
    seats: tuple[int, ...]
    match: int | None = None  # teams: the match number in the round (from 1)


@dataclass(frozen=True)
class Movement:
    kind: str  # "teams", "mitchell", "red-five"
    entrants: int  # teams: halves (2 per team); else pairs/trios or players
    boards: int  # board numbers 1..boards
    rounds: int
    tables: int  # tables in play per round
    sittings: tuple[Sitting, ...]
    byes: tuple[tuple[int, ...], ...] = field(default=())  # per round: entrants sitting out

    def round_sittings(self, round_no: int) -> list[Sitting]:
        return [s for s in self.sittings if s.round == round_no]

    def board_tables(self, board: int) -> list[Sitting]:
        """The sittings that play ``board`` (the rows of its traveller)."""
        return [s for s in self.sittings if board in s.boards]


def team_of(half: int) -> int:
    """The team of a half (side) number in a team movement."""
    return half // 2


def _check_count(n: object, what: str, low: int, high: int | None = None) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < low or (high is not None and n > high):
        top = "" if high is None else f" to {high}"
        raise MovementError(f"{what} must be a whole number from {low}{top}, not {n!r}")
    return n


# --- teams of four ------------------------------------------------------------------------------


def team_round(
    pairs: Sequence[tuple[int, int]],
    round_no: int,
    boards: Sequence[int],
    first_table: int = 1,
) -> list[Sitting]:
    """The two tables of each team match ``(team A, team B)`` of one round, all playing
    ``boards``: table 1 of a match has A's first half in side 0 and B's first half in side 1,
    table 2 B's second half in side 0 and A's second half in side 1."""
    seen: set[int] = set()
    out: list[Sitting] = []
    bs = tuple(boards)
    if not bs:
        raise MovementError("a team match needs at least one board")
    for m, (a, b) in enumerate(pairs, 1):
        if a == b or a in seen or b in seen:
            raise MovementError(f"team {a + 1} or {b + 1} is in two matches of round {round_no}")
        seen.update((a, b))
        t = first_table + 2 * (m - 1)
        out.append(Sitting(round_no, t, bs, (2 * a, 2 * b), m))
        out.append(Sitting(round_no, t + 1, bs, (2 * b + 1, 2 * a + 1), m))
    return out


def _round_boards(r: int, boards_per_match: int) -> range:
    """The boards every match of round ``r`` plays: ``(r − 1) × N + 1 … r × N``."""
    return range((r - 1) * boards_per_match + 1, r * boards_per_match + 1)


def _teams_movement(
    teams: int,
    boards_per_match: int,
    rounds: int,
    sittings: list[Sitting],
    byes: list[tuple[int, ...]],
) -> Movement:
    """A teams movement (round robin or Swiss) from its rounds' sittings and byes: two
    entrants (the halves) a team, two tables a match."""
    return Movement(
        "teams",
        2 * teams,
        rounds * boards_per_match,
        rounds,
        2 * (teams // 2),
        tuple(sittings),
        tuple(byes),
    )


def team_movement(teams: int, boards_per_match: int, rounds: int | None = None) -> Movement:
    """A round robin of ``teams`` (an odd count gives a bye each round), each match of
    ``boards_per_match`` boards; every match of a round plays the same boards, round ``r``
    boards ``(r − 1) × N + 1 … r × N``. ``rounds`` defaults to one full cycle."""
    _check_count(teams, "the number of teams", 2)
    _check_count(boards_per_match, "boards per match", 1)
    names = [str(i) for i in range(teams)]
    cycle = berger_rounds(names)
    if rounds is None:
        rounds = cycle
    _check_count(rounds, "the number of rounds", 1, cycle)
    sittings: list[Sitting] = []
    byes: list[tuple[int, ...]] = []
    for r in range(1, rounds + 1):
        try:
            pairs, bye = berger_round(names, r)
        except PairingError as e:
            raise MovementError(str(e)) from None
        bs = _round_boards(r, boards_per_match)
        sittings += team_round([(int(a), int(b)) for a, b in pairs], r, bs)
        byes.append(tuple(h for x in bye for h in (2 * int(x), 2 * int(x) + 1)))
    return _teams_movement(teams, boards_per_match, rounds, sittings, byes)


def team_swiss_round(
    teams: int,
    vps: Sequence[float],
    met: Sequence[tuple[int, int]],
    byes: Sequence[int],
    round_no: int,
    boards: Sequence[int],
    rounds_after: int = 0,
) -> tuple[list[Sitting], list[int]]:
    """One Swiss round of teams: teams with equal or nearest VPs meet (``vps[t]``, best
    ranked by VPs then number), never twice while avoidable (``met``), the bye to the lowest
    team without one (``byes``: byes had per team). ``rounds_after``: rounds still to pair
    after this one (a small field then keeps later rounds free of rematches too). Returns the
    sittings and the halves sitting out."""
    _check_count(teams, "the number of teams", 2)
    if len(vps) != teams or len(byes) != teams:
        raise MovementError("vps and byes must give one number per team")
    names = [str(t) for t in range(teams)]
    ranked = sorted(names, key=lambda x: (-vps[int(x)], int(x)))
    # swiss_round groups by whole match points: the dense rank of the VPs (equal VPs, one
    # group; a rank apart weighs like a match point apart)
    levels = sorted({round(float(v), 2) for v in vps})
    points = {x: levels.index(round(float(vps[int(x)]), 2)) for x in names}
    try:
        p = swiss_round(
            ranked,
            points,
            met=[frozenset((str(a), str(b))) for a, b in met],
            byes={str(t): byes[t] for t in range(teams)},
            round_no=round_no,
            rounds_after=rounds_after,
        )
    except PairingError as e:
        raise MovementError(str(e)) from None
    sittings = team_round([(int(a), int(b)) for a, b in p.pairs], round_no, boards)
    out = [] if p.bye is None else [2 * int(p.bye), 2 * int(p.bye) + 1]
    return sittings, out


def team_pairs(sittings: Sequence[Sitting]) -> list[tuple[int, int]]:
    """The team matches ``(team A, team B)`` of a round's sittings, by match number (A holds
    side 0 at the match's first table)."""
    first: dict[int, Sitting] = {}
    for s in sittings:
        if s.match is None:
            raise MovementError("not a team match sitting")
        if s.match not in first or s.table < first[s.match].table:
            first[s.match] = s
    return [(team_of(s.seats[0]), team_of(s.seats[1])) for _, s in sorted(first.items())]


def swiss_max_rounds(teams: int) -> int:
    """The most rounds a Swiss of ``teams`` plays: fewer than a round robin's cycle (as many
    would be the round robin itself)."""
    _check_count(teams, "the number of teams", 2)
    return berger_rounds([str(i) for i in range(teams)]) - 1


def team_swiss_movement(
    teams: int,
    boards_per_match: int,
    rounds: int,
    paired: Sequence[tuple[Sequence[tuple[int, int]], int | None]],
) -> Movement:
    """A Swiss of ``teams`` over ``rounds`` rounds as far as it is paired: ``paired[r − 1]``
    is round ``r``'s matches ``(team A, team B)`` and the team with the bye (or None). Round
    ``r`` plays boards ``(r − 1) × N + 1 … r × N`` as in the round robin; a round not paired
    yet has no sittings and no byes, its boards no tables (yet). ``boards`` counts every
    round's boards."""
    _check_count(teams, "the number of teams", 2)
    _check_count(boards_per_match, "boards per match", 1)
    _check_count(rounds, "the number of Swiss rounds", 1, swiss_max_rounds(teams))
    if len(paired) > rounds:
        raise MovementError(f"{len(paired)} rounds paired of a Swiss of {rounds}")
    sittings: list[Sitting] = []
    byes: list[tuple[int, ...]] = []
    for r in range(1, rounds + 1):
        if r > len(paired):
            byes.append(())
            continue
        pairs, bye = paired[r - 1]
        if any(not 0 <= t < teams for p in pairs for t in p) or (
            bye is not None and not 0 <= bye < teams
        ):
            raise MovementError(f"round {r} names a team that is not in the event")
        bs = _round_boards(r, boards_per_match)
        sittings += team_round(list(pairs), r, bs)
        byes.append(() if bye is None else (2 * bye, 2 * bye + 1))
    return _teams_movement(teams, boards_per_match, rounds, sittings, byes)


# --- pairs / trios across the field: Mitchell ------------------------------------------------


def _mitchell_motion(tables: int, sets: int, rounds: int) -> tuple[int, int, int]:
    """(step, skip round, skip) for the moving entrants: at round ``r`` (from 0) entrant ``j``
    sits at table ``j + step·r + (skip if r ≥ skip round)``; table ``t`` plays board set
    ``(t + r) mod sets``. Chosen so no moving entrant meets a set twice, with as few repeated
    opponents as possible: the classic Mitchell (step 1) for an odd number of sets, a skip
    half way for an even one."""
    half = max(1, sets // 2)
    best: tuple[int, int, int, int] | None = None
    for skip in range(tables):
        for step in range(1, tables + 1):
            sets_seen: set[int] = set()
            tables_seen: set[int] = set()
            repeats = 0
            for r in range(rounds):
                pos = step * r + (skip if r >= half else 0)
                s = (pos + r) % sets
                if s in sets_seen:
                    break
                sets_seen.add(s)
                repeats += pos % tables in tables_seen
                tables_seen.add(pos % tables)
            else:
                if repeats == 0:
                    return step, half, skip
                if best is None or repeats < best[0]:
                    best = (repeats, step, half, skip)
    if best is None:
        raise MovementError(
            f"no Mitchell movement of {rounds} rounds on {tables} tables with {sets} board sets"
        )
    return best[1], best[2], best[3]


def mitchell(
    entrants: int,
    boards_per_round: int,
    rounds: int | None = None,
    sets: int | None = None,
) -> Movement:
    """Pairs (trios) across the field, fixed sides. ``T = ⌈entrants / 2⌉`` tables; entrants
    ``0 … T − 1`` sit in side 0 at tables 1 … T for the whole session, the others move.
    ``sets`` board sets of ``boards_per_round`` boards (default one set per table; fewer sets
    must divide the table count, and then each set is at ``T / sets`` tables at once);
    ``rounds`` (default: every set once) at most ``sets``. With an odd count the missing
    side-1 entrant is a bye: its table's side-0 entrant sits out that round."""
    _check_count(entrants, "the number of pairs", 2)
    _check_count(boards_per_round, "boards per round", 1)
    tables = (entrants + 1) // 2
    if sets is None:
        sets = tables
    _check_count(sets, "the number of board sets", 1, tables)
    if tables % sets:
        raise MovementError(
            f"{sets} board sets do not share out over {tables} tables: "
            "the number of sets must divide the number of tables"
        )
    if rounds is None:
        rounds = sets
    _check_count(rounds, "the number of rounds", 1, sets)
    step, half, skip = _mitchell_motion(tables, sets, rounds)
    movers = list(range(tables, entrants))  # side 1; one short when the count is odd
    sittings: list[Sitting] = []
    byes: list[tuple[int, ...]] = []
    for r in range(rounds):
        pos = step * r + (skip if r >= half else 0)
        at: dict[int, int] = {}
        for j in range(tables):
            at[(j + pos) % tables] = j
        out: list[int] = []
        for t in range(tables):
            j = at[t]
            s = (t + r) % sets
            bs = tuple(range(s * boards_per_round + 1, (s + 1) * boards_per_round + 1))
            if j < len(movers):
                sittings.append(Sitting(r + 1, t + 1, bs, (t, movers[j])))
            else:
                out.append(t)
        byes.append(tuple(out))
    return Movement(
        "mitchell",
        entrants,
        sets * boards_per_round,
        rounds,
        entrants // 2,
        tuple(sittings),
        tuple(byes),
    )


# --- red five individuals ---------------------------------------------------------------------


def _speeds(tables: int, short: int) -> list[int]:
    """How far a player started at seat ``s`` moves each round: ``k + 1`` coprime to the
    number of tables (so the boards a player meets are all different), distinct where possible;
    the seats left empty (``short`` of them, the last seats) all stand still, so the empty
    places stay at one table."""
    ks = [k for k in range(tables) if math.gcd(k + 1, tables) == 1]  # 0 is always one
    real = RED_FIVE_SEATS - short
    if short:
        # the real seats move at speeds other than the empty seats' 0 where there are any
        ks = [k for k in ks if k != 0] or [0]
    return [ks[i % len(ks)] for i in range(real)] + [0] * short


def red_five_movement(players: int, boards_per_round: int, rounds: int | None = None) -> Movement:
    """Individuals at tables of five. ``T = ⌈players / 5⌉`` places of tables; the player
    started at table ``a``, seat ``s`` sits at round ``r`` (from 0) at table ``a + k_s·r`` in
    seat ``s + r`` (mod 5), and table ``t`` plays board set ``(t + r) mod T``, so a player
    meets set ``a + (k_s + 1)·r``: every set once over ``T`` rounds. ``rounds`` defaults to
    ``T``."""
    _check_count(players, "the number of players", RED_FIVE_SEATS)
    _check_count(boards_per_round, "boards per round", 1)
    places = -(-players // RED_FIVE_SEATS)
    short = places * RED_FIVE_SEATS - players
    if rounds is None:
        rounds = places
    _check_count(rounds, "the number of rounds", 1, places)
    speed = _speeds(places, short)
    # the start: player numbers fill tables seat by seat; the empty places are the last table's
    # last seats
    start: dict[tuple[int, int], int | None] = {}
    p = 0
    for a in range(places):
        for s in range(RED_FIVE_SEATS):
            if a == places - 1 and s >= RED_FIVE_SEATS - short:
                start[(a, s)] = None
            else:
                start[(a, s)] = p
                p += 1
    sittings: list[Sitting] = []
    byes: list[tuple[int, ...]] = []
    for r in range(rounds):
        grid: dict[int, list[int | None]] = {t: [None] * RED_FIVE_SEATS for t in range(places)}
        for (a, s), who in start.items():
            grid[(a + speed[s] * r) % places][(s + r) % RED_FIVE_SEATS] = who
        out: list[int] = []
        table_no = 0
        for t in range(places):
            seats = grid[t]
            if any(x is None for x in seats):
                out += [x for x in seats if x is not None]
                continue
            table_no += 1
            st = (t + r) % places
            bs = tuple(range(st * boards_per_round + 1, (st + 1) * boards_per_round + 1))
            sittings.append(Sitting(r + 1, table_no, bs, tuple(x for x in seats if x is not None)))
        byes.append(tuple(sorted(out)))
    return Movement(
        "red-five",
        players,
        places * boards_per_round,
        rounds,
        players // RED_FIVE_SEATS,
        tuple(sittings),
        tuple(byes),
    )


# --- the invariants -----------------------------------------------------------------------------


def check_movement(m: Movement) -> None:
    """Raise ``MovementError`` unless: every entrant has one place (or a bye) each round; no
    entrant plays a board twice; in a Mitchell each board is always held in side 0 by the
    stationary entrants; in a team match the two tables play the same boards and each team
    holds side 0 at one and side 1 at the other."""
    played: dict[int, set[int]] = {}
    direction: dict[int, set[int]] = {}
    for r in range(1, m.rounds + 1):
        here: list[int] = []
        for s in m.round_sittings(r):
            here += list(s.seats)
            for place, e in enumerate(s.seats):
                for b in s.boards:
                    if b in played.setdefault(e, set()):
                        raise MovementError(f"entrant {e + 1} plays board {b} twice")
                    played[e].add(b)
                    if m.kind == "mitchell":
                        # the stationary entrants hold side 0, the moving ones side 1
                        group = int(e >= (m.entrants + 1) // 2)
                        direction.setdefault(b, set()).add(group ^ place)
        byes = m.byes[r - 1] if m.byes else ()
        if sorted(here + list(byes)) != list(range(m.entrants)):
            raise MovementError(f"round {r} does not seat every entrant exactly once")
    for b, d in direction.items():
        if len(d) != 1:
            raise MovementError(f"board {b} is played in both directions by the same entrants")
    if m.kind == "teams":
        matches: dict[tuple[int, int | None], list[Sitting]] = {}
        for s in m.sittings:
            matches.setdefault((s.round, s.match), []).append(s)
        for (r, _), two in matches.items():
            if len(two) != 2 or two[0].boards != two[1].boards:
                raise MovementError(f"a team match of round {r} is not two tables on one board set")
            aa = [team_of(e) for e in two[0].seats]
            bb = [team_of(e) for e in two[1].seats]
            if aa != bb[::-1] or aa[0] == aa[1]:
                raise MovementError(
                    f"in round {r} a team's halves do not sit in opposite directions"
                )


# --- a duplicate event's movement -------------------------------------------------------------


def event_movement(
    kind: str,
    entrants: int,
    per_round: int,
    rounds: int | None = None,
    swiss: Sequence[tuple[Sequence[tuple[int, int]], int | None]] | None = None,
) -> Movement:
    """A duplicate event's movement: teams, a round robin (``rounds`` of its cycle) or, given
    ``swiss`` (the rounds paired so far), a Swiss of ``rounds``; red five individuals,
    ``rounds`` of the schedule; pairs, a Mitchell of ``rounds`` board sets (each played once by
    every pair; fewer sets than tables put each set at several tables at once). The app's
    events and the event file both derive theirs here."""
    if swiss is not None:
        assert rounds is not None
        return team_swiss_movement(entrants, per_round, rounds, swiss)
    if kind == "teams":
        return team_movement(entrants, per_round, rounds)
    if kind == "individuals":
        return red_five_movement(entrants, per_round, rounds)
    return mitchell(entrants, per_round, rounds, sets=rounds)
