"""Seating a round: round robin (Berger tables), Swiss, and red five re-seating.

- ``berger_round(names, n)``: round ``n`` of the Berger tables (FIDE order); an odd count adds a
  bye slot. Rounds past one cycle repeat the cycle with the sides swapped.
- ``swiss_round(...)``: sides with equal or nearest match points meet; never twice the same
  opponents while avoidable; top half against bottom half inside a score group; a bye to the
  lowest-ranked side without one (byes rotate: nobody gets a second before everyone had one).
  Solved as one maximum-weight perfect matching (networkx blossom) on a pruned graph, widened
  step by step only when the pruned graph has no perfect matching.
- ``reseat_round(...)``: red five tables of 5 individuals by standing, with as few repeated
  tablemates as a swap search finds; when the count is not a multiple of 5, the leftover players
  sit out (a bye, 0 积分): those with the fewest byes, lowest-ranked first, so byes rotate.
- ``pair_next_round(t)``: the next ``Round`` of a tournament (tables numbered from the top, the
  byes last), ready to be stored; seats follow from the sides (``model.seat_players``).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from engine.hundred_rules import is_family

from .model import Round, Table, Tournament
from .standings import fixed_standings, red_five_standings

TABLE_SIZE = 5  # red five


class PairingError(ValueError):
    """The round cannot be seated (too few entrants, a round past the schedule …)."""


# --- round robin --------------------------------------------------------------------------------


def berger_round(names: Sequence[str], round_no: int) -> tuple[list[tuple[str, str]], list[str]]:
    """Pairs (side 0, side 1) of round ``round_no`` (1-based) of the Berger tables, and the bye."""
    if len(names) < 2:
        raise PairingError("a round robin needs at least 2 entrants")
    if len(set(names)) != len(names):
        raise PairingError("entrant names in a round robin must be unique")
    if round_no < 1:
        raise PairingError(f"rounds are numbered from 1, not {round_no}")
    slots: list[str | None] = list(names)
    if len(slots) % 2:
        slots.append(None)  # the bye
    m = len(slots)
    r = (round_no - 1) % (m - 1)  # 0-based round within the cycle
    swap = ((round_no - 1) // (m - 1)) % 2 == 1
    x = (r * (m // 2)) % (m - 1)
    pairs_idx = [(x, m - 1) if r % 2 == 0 else (m - 1, x)]
    for i in range(1, m // 2):
        pairs_idx.append(((x + i) % (m - 1), (x - i) % (m - 1)))
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for a, b in pairs_idx:
        sa, sb = slots[a], slots[b]
        if swap:
            sa, sb = sb, sa
        if sa is None or sb is None:
            byes.append(sb if sa is None else sa)  # type: ignore[arg-type]
        else:
            pairs.append((sa, sb))
    return pairs, byes


def berger_rounds(names: Sequence[str]) -> int:
    """Rounds in one cycle of the Berger tables."""
    n = len(names)
    return n - 1 if n % 2 == 0 else n


# --- Swiss ---------------------------------------------------------------------------------------

BYE = "\x00bye"  # the dummy node of an odd count; never a valid entrant name (names are text)
_REPEAT = 10**12
_BYE_RANK = 10**7
_SCORE = 10**4


@dataclass(frozen=True)
class SwissPairing:
    pairs: list[tuple[str, str]]  # (side 0, side 1), best-ranked pair first
    bye: str | None
    repeats: int  # pairs that had met before (0 unless unavoidable)
    widened: int  # 0: the pruned graph sufficed; 1–3: how far it had to widen


def swiss_round(
    ranked: Sequence[str],
    match_points: Mapping[str, int],
    met: Collection[frozenset[str]] = (),
    byes: Mapping[str, int] | None = None,
    side0: Mapping[str, int] | None = None,
    round_no: int = 1,
    near: int = 8,
    rounds_after: int = 0,
) -> SwissPairing:
    """Pair ``ranked`` (best first) for one Swiss round.

    ``met``: pairs that already played each other; ``byes``: byes had so far; ``side0``: how
    often each sat as side 0 (balanced when choosing sides). ``near`` prunes large score groups
    to partners near the ideal top-half/bottom-half position.

    A repeat-free pairing is always found when one exists (the last try before allowing repeats
    is the whole graph of pairs that have not met). ``rounds_after``: rounds still to be paired
    after this one; in small fields (up to ``LOOK_AHEAD_MAX`` entrants) the pairing then looks
    ahead: it prefers a pairing after which that many more repeat-free rounds remain possible
    (late repeats in a short round robin-like Swiss come from early choices).
    """
    n = len(ranked)
    if n < 2:
        raise PairingError("a Swiss round needs at least 2 entrants")
    if len(set(ranked)) != n:
        raise PairingError("entrant names must be unique")
    byes = byes or {}
    side0 = side0 or {}
    index = {name: i for i, name in enumerate(ranked)}
    groups: dict[int, list[str]] = {}
    for name in ranked:
        groups.setdefault(match_points.get(name, 0), []).append(name)
    scores = sorted(groups, reverse=True)
    pos = {name: (s, i) for s in scores for i, name in enumerate(groups[s])}
    met_set = {p for p in met if len(p) == 2}
    fewest = min(byes.get(x, 0) for x in ranked)

    def cost(a: str, b: str) -> int:
        if b == BYE or a == BYE:
            x = a if b == BYE else b
            c = (n - 1 - index[x]) * _BYE_RANK
            c += (byes.get(x, 0) - fewest) * _REPEAT
            return c
        c = _REPEAT if frozenset((a, b)) in met_set else 0
        sa, ia = pos[a]
        sb, ib = pos[b]
        c += _SCORE * (sa - sb) ** 2
        if sa == sb:
            g = len(groups[sa])
            c += abs(abs(ia - ib) - g // 2)
        else:
            hi, lo = (a, b) if sa > sb else (b, a)
            c += (len(groups[pos[hi][0]]) - 1 - pos[hi][1]) + pos[lo][1]
        return c

    nodes = list(ranked) + ([BYE] if n % 2 else [])
    need = len(nodes) // 2
    for level in range(4):
        g = nx.Graph()
        g.add_nodes_from(nodes)
        for a, b in _candidate_edges(level, ranked, groups, scores, pos, met_set, near):
            g.add_edge(a, b, weight=-cost(a, b))
        if n % 2:
            for x in _bye_candidates(level, ranked, byes, fewest):
                g.add_edge(x, BYE, weight=-cost(x, BYE))
        base = 1 + max((-w for _, _, w in g.edges(data="weight")), default=0)
        for _, _, d in g.edges(data=True):
            d["weight"] += base
        matching = nx.max_weight_matching(g, maxcardinality=True)
        if len(matching) == need:
            break
    else:  # pragma: no cover - level 3 is a complete graph: always perfect
        raise PairingError("no pairing found")
    if rounds_after > 0 and level < 3 and n <= LOOK_AHEAD_MAX:
        matching = _look_ahead(nodes, ranked, met_set, byes, fewest, cost, matching, rounds_after)
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    repeats = 0
    for a, b in matching:
        if BYE in (a, b):
            bye = a if b == BYE else b
            continue
        if frozenset((a, b)) in met_set:
            repeats += 1
        hi, lo = (a, b) if index[a] < index[b] else (b, a)
        # sides: the one who sat fewer times as side 0 takes side 0; ties alternate by round
        da, db = side0.get(hi, 0), side0.get(lo, 0)
        first = hi if da < db or (da == db and round_no % 2 == 1) else lo
        pairs.append((first, lo if first == hi else hi))
    pairs.sort(key=lambda p: min(index[p[0]], index[p[1]]))
    return SwissPairing(pairs, bye, repeats, level)


LOOK_AHEAD_MAX = 40  # entrants: the look-ahead only runs in fields this small
_LOOK_AHEAD_TRIES = 40  # alternative matchings tried at most
_LOOK_AHEAD_NODES = 20_000  # search steps per check (past it: assume the rounds are possible)
_LOOK_AHEAD_ALL_NODES = 60_000  # search steps for one round in all


def _look_ahead(
    nodes: list[str],
    ranked: Sequence[str],
    met: set[frozenset[str]],
    byes: Mapping[str, int],
    fewest: int,
    cost: Callable[[str, str], int],
    matching: set[tuple[str, str]],
    rounds_after: int,
) -> set[tuple[str, str]]:
    """The best matching (by ``cost``) after which ``rounds_after`` more repeat-free rounds are
    still possible, searched among the optimum and alternatives with some of its pairs banned;
    the optimum itself when none is found (the later rounds will repeat as little as they can).
    """
    at = {x: i for i, x in enumerate(nodes)}
    free = [0] * len(nodes)  # pairs that may still meet (and who may still get a bye)
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            if frozenset((a, b)) not in met:
                free[at[a]] |= 1 << at[b]
                free[at[b]] |= 1 << at[a]
    if BYE in at:
        for x in ranked:
            if byes.get(x, 0) == fewest:
                free[at[x]] |= 1 << at[BYE]
                free[at[BYE]] |= 1 << at[x]

    def edges_ok(m: set[tuple[str, str]]) -> bool:
        return all(free[at[a]] >> at[b] & 1 for a, b in m)

    def possible(m: set[tuple[str, str]]) -> bool:
        rest = list(free)
        for a, b in m:
            rest[at[a]] &= ~(1 << at[b])
            rest[at[b]] &= ~(1 << at[a])
        k = min(rounds_after, min(x.bit_count() for x in rest))
        steps = [min(_LOOK_AHEAD_NODES, left[0])]
        answer = _disjoint_matchings(rest, k, steps)
        left[0] -= min(_LOOK_AHEAD_NODES, left[0]) - max(steps[0], 0)
        return answer is not False

    left = [_LOOK_AHEAD_ALL_NODES]
    if not edges_ok(matching) or possible(matching):
        return matching
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        bits = free[i]
        for j in range(i + 1, len(nodes)):
            if bits >> j & 1:
                graph.add_edge(a, nodes[j], weight=-cost(a, nodes[j]))
    base = 1 + max((-w for _, _, w in graph.edges(data="weight")), default=0)
    for _, _, d in graph.edges(data=True):
        d["weight"] += base

    def key(e: tuple[str, str]) -> tuple[str, str]:
        return (e[0], e[1]) if at[e[0]] < at[e[1]] else (e[1], e[0])

    def total(m: set[tuple[str, str]]) -> int:
        return sum(cost(a, b) for a, b in m)

    # breadth first over sets of banned pairs, the costliest pairs of a failed matching first
    queue: list[tuple[frozenset[tuple[str, str]], set[tuple[str, str]]]] = [(frozenset(), matching)]
    seen: set[frozenset[tuple[str, str]]] = {frozenset()}
    found: list[tuple[int, list[tuple[str, str]], set[tuple[str, str]]]] = []
    tries = 0
    while queue and tries < _LOOK_AHEAD_TRIES and not found:
        nxt: list[tuple[frozenset[tuple[str, str]], set[tuple[str, str]]]] = []
        for bans, m in queue:
            for e in sorted((key(e) for e in m), key=lambda e: -cost(*e)):
                banned = bans | {e}
                if banned in seen or tries >= _LOOK_AHEAD_TRIES:
                    continue
                seen.add(banned)
                tries += 1
                graph.remove_edges_from(banned)
                alt = nx.max_weight_matching(graph, maxcardinality=True)
                for a, b in banned:
                    graph.add_edge(a, b, weight=base - cost(a, b))
                if 2 * len(alt) != len(nodes):
                    continue
                if possible(alt):
                    found.append((total(alt), sorted(key(e) for e in alt), alt))
                else:
                    nxt.append((banned, alt))
        queue = nxt
    if not found:
        return matching
    return min(found, key=lambda f: (f[0], f[1]))[2]


def _disjoint_matchings(adj: list[int], k: int, budget: list[int]) -> bool | None:
    """Whether the graph (``adj``: neighbour bit masks) holds ``k`` edge-disjoint perfect
    matchings: a backtracking search, None when it ran out of ``budget`` steps."""
    if k <= 0:
        return True
    if any(x.bit_count() < k for x in adj):
        return False
    full = (1 << len(adj)) - 1

    def matchings(
        adj: list[int], open_: int, pairs: list[tuple[int, int]]
    ) -> Iterator[list[tuple[int, int]]]:
        if not open_:
            yield pairs
            return
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfSteps
        # the open node with the fewest open neighbours first
        best, best_n, rest = -1, 1 << 30, open_
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            rest ^= low
            c = (adj[v] & open_).bit_count()
            if c < best_n:
                best, best_n = v, c
                if c <= 1:
                    break
        if best_n == 0:
            return
        cand = adj[best] & open_
        while cand:
            low = cand & -cand
            u = low.bit_length() - 1
            cand ^= low
            pairs.append((best, u))
            yield from matchings(adj, open_ & ~(1 << best) & ~low, pairs)
            pairs.pop()

    def solve(adj: list[int], k: int) -> bool:
        if k == 0:
            return True
        if any(x.bit_count() < k for x in adj):
            return False
        for m in matchings(adj, full, []):
            rest = list(adj)
            for a, b in m:
                rest[a] &= ~(1 << b)
                rest[b] &= ~(1 << a)
            if solve(rest, k - 1):
                return True
        return False

    try:
        return solve(adj, k)
    except _OutOfSteps:
        return None


class _OutOfSteps(Exception):
    pass


def _candidate_edges(
    level: int,
    ranked: Sequence[str],
    groups: dict[int, list[str]],
    scores: list[int],
    pos: dict[str, tuple[int, int]],
    met: set[frozenset[str]],
    near: int,
) -> list[tuple[str, str]]:
    if level >= 2:  # every pair (level 3 even repeats, at a huge cost)
        out = []
        for i, a in enumerate(ranked):
            for b in ranked[i + 1 :]:
                if level == 3 or frozenset((a, b)) not in met:
                    out.append((a, b))
        return out
    edges: set[tuple[str, str]] = set()

    def add(a: str, b: str) -> None:
        if frozenset((a, b)) not in met:
            edges.add((a, b) if a < b else (b, a))

    if level == 1:  # whole score groups, and each group with the next two below
        for k, s in enumerate(scores):
            block = [x for t in scores[k : k + 3] for x in groups[t]]
            for i, a in enumerate(groups[s]):
                for b in block:
                    if b != a and (pos[b][0] != s or pos[b][1] > i):
                        add(a, b)
        return sorted(edges)
    floaters = 4
    for k, s in enumerate(scores):
        members = groups[s]
        g = len(members)
        half = g // 2
        for i, a in enumerate(members):
            for j in range(i + 1, g):
                if g <= 2 * near + 2 or abs((j - i) - half) <= near:
                    add(a, members[j])
        # floaters: the bottom of this group with the top of the next groups down
        below = [x for t in scores[k + 1 : k + 3] for x in groups[t][: floaters * 2]]
        for a in members[-floaters:]:
            for b in below:
                add(a, b)
    return sorted(edges)


def _bye_candidates(
    level: int, ranked: Sequence[str], byes: Mapping[str, int], fewest: int
) -> list[str]:
    eligible = [x for x in ranked if byes.get(x, 0) == fewest]
    if level == 0:
        return eligible[-6:]
    if level == 1:
        return eligible
    return list(ranked)


# --- red five re-seating ------------------------------------------------------------------------


@dataclass(frozen=True)
class Reseat:
    tables: list[list[str]]  # five players per table, by seat; table 1 first
    byes: list[str]
    repeats: int  # tablemate pairs at the new tables that had shared a table before


RESEAT_STEPS = 400_000  # swap evaluations at most per round (about half a second)
_RESEAT_REPEAT = 1000  # one repeated tablemate outweighs any move away from one's standing


def reseat_round(
    ranked: Sequence[str],
    tablemates: Mapping[str, Mapping[str, int]] | None = None,
    byes: Mapping[str, int] | None = None,
    passes: int = 20,
    kicks: int = 30,
    *,
    steps: int = RESEAT_STEPS,
    seed: int | None = None,
    history: Sequence[Sequence[Sequence[str]]] = (),
    size: int = TABLE_SIZE,
) -> Reseat:
    """Seat ``ranked`` (best first) at tables of ``size`` (5: red five; 争上游 3 to 6), by
    standing, avoiding repeated tablemates.

    A greedy start (each player, best first, to the table nearest his standing where he meets
    the fewest former tablemates), then a tabu search over swaps of players who meet a former
    tablemate: the best swap each step, a swapped player not moved back for a few steps, and
    after ``passes`` × 10 steps without progress a kick (a few random swaps from the best
    seating found; at most ``kicks``). It stops when no tablemate repeats, or after ``steps``
    swap evaluations. Deterministic: the random choices come from ``random.Random(seed)``
    (``seed`` None: the number of players).

    25 players at 5 tables can meet 24 new tablemates in 6 rounds (the affine plane of order
    5), but only if the rounds fit together; a search round by round does not see that. With
    ``history`` (the tables of the rounds so far, players by seat), when 25 play and two earlier
    rounds seated exactly them crosswise (every table of one meets every table of the other
    once), those two give the players coordinates, and a parallel class of the plane on them
    that repeats nobody is taken (the one closest to the standing) instead of searching.

    Sitting out (when the count is not a multiple of the table size): those with the fewest
    byes so far, lowest-ranked first, so byes rotate.
    """
    n = len(ranked)
    if n < size:
        raise PairingError(f"a table needs at least {size} players, not {n}")
    if len(set(ranked)) != n:
        raise PairingError("entrant names must be unique")
    tablemates = tablemates or {}
    byes = byes or {}
    rank = {name: i for i, name in enumerate(ranked)}
    out = n % size
    # byes: fewest byes first, then the lowest-ranked
    by_bye = sorted(ranked, key=lambda x: (byes.get(x, 0), -rank[x]))
    sitting_out = sorted(by_bye[:out], key=rank.__getitem__)
    gone = set(sitting_out)
    players = [x for x in ranked if x not in gone]
    seated = len(players)
    k = seated // size
    # met[i][j]: how often players i and j (by standing, 0 best) shared a table
    met = [[0] * seated for _ in range(seated)]
    at = {x: i for i, x in enumerate(players)}
    for a, row in tablemates.items():
        i = at.get(a)
        if i is None:
            continue
        for b, times in row.items():
            j = at.get(b)
            if j is not None and j != i and times > met[i][j]:
                met[i][j] = met[j][i] = times
    home = [i // size for i in range(seated)]
    rng = random.Random(seated if seed is None else seed)
    plane = _plane_seating(at, history, met, home) if k == size == TABLE_SIZE else None
    if plane is not None:
        where = plane
    else:
        where = _greedy_seating(met, home, k, size)
        if k > 1:
            where = _tabu_seating(met, home, k, where, rng, passes * 10, kicks, steps)
    tables: list[list[str]] = [[] for _ in range(k)]
    for i, ti in enumerate(where):
        tables[ti].append(players[i])
    repeats = 0
    for t in tables:
        t.sort(key=rank.__getitem__)
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                if met[at[a]][at[b]]:
                    repeats += 1
    tables.sort(key=lambda t: rank[t[0]])
    return Reseat(tables, sitting_out, repeats)


def _plane_seating(
    at: Mapping[str, int],
    history: Sequence[Sequence[Sequence[str]]],
    met: list[list[int]],
    home: list[int],
) -> list[int] | None:
    """25 players: a parallel class of the affine plane of order 5 that repeats nobody (see
    ``reseat_round``), its lines at the tables nearest the standing; None when there is none."""
    q = TABLE_SIZE
    rounds: list[list[int]] = []  # each earlier round that seated exactly these players
    for tables in history:
        seated = [t for t in tables if t]
        if len(seated) != q or any(len(t) != q for t in seated):
            continue
        where = [-1] * len(at)
        for ti, t in enumerate(seated):
            for name in t:
                i = at.get(name)
                if i is None or where[i] >= 0:
                    break
                where[i] = ti
        if min(where) >= 0:
            rounds.append(where)
    coords = None
    for r1, w1 in enumerate(rounds):
        for w2 in rounds[r1 + 1 :]:
            cells = {(x, y) for x, y in zip(w1, w2, strict=True)}
            if len(cells) == q * q:  # crosswise: every pair of tables shares one player
                coords = (w1, w2)
                break
        if coords:
            break
    if coords is None:
        return None
    xs, ys = coords
    classes = [list(xs), list(ys)]
    classes += [[(y - m * x) % q for x, y in zip(xs, ys, strict=True)] for m in range(1, q)]
    best: tuple[int, int, list[int]] | None = None
    for ci, lines in enumerate(classes):
        if any(met[i][j] for i in range(len(lines)) for j in range(i) if lines[i] == lines[j]):
            continue
        # the lines to tables: the order with the least distance from the standing
        dist = [[0] * q for _ in range(q)]
        for i, line in enumerate(lines):
            for pos in range(q):
                dist[line][pos] += abs(pos - home[i])
        cost, order = min(
            (sum(dist[line][pos] for line, pos in enumerate(p)), p)
            for p in itertools.permutations(range(q))
        )
        if best is None or cost < best[0]:
            best = (cost, ci, [order[line] for line in lines])
    return best[2] if best else None


def _greedy_seating(
    met: list[list[int]], home: list[int], k: int, size: int = TABLE_SIZE
) -> list[int]:
    """Each player, best-ranked first, to the open table with the fewest former tablemates,
    then nearest his own standing."""
    members: list[list[int]] = [[] for _ in range(k)]
    where = [0] * len(home)
    for i, h in enumerate(home):
        row = met[i]
        best_t, best_c = -1, 0
        for t in range(k):
            if len(members[t]) == size:
                continue
            c = _RESEAT_REPEAT * sum(row[j] for j in members[t]) + abs(t - h)
            if best_t < 0 or c < best_c:
                best_t, best_c = t, c
        members[best_t].append(i)
        where[i] = best_t
    return where


def _tabu_seating(
    met: list[list[int]],
    home: list[int],
    k: int,
    where: list[int],
    rng: random.Random,
    stall: int,
    kicks: int,
    steps: int,
) -> list[int]:
    """Tabu search over swaps (see ``reseat_round``); the best seating found."""
    size = len(where)
    w = _RESEAT_REPEAT
    where = list(where)
    # conf[i][t]: how often player i met the players now at table t
    conf = [[0] * k for _ in range(size)]
    for i in range(size):
        row, ci = met[i], conf[i]
        for j in range(size):
            if row[j]:
                ci[where[j]] += row[j]

    def cost() -> int:
        return sum(w * conf[i][where[i]] for i in range(size)) // 2 + sum(
            abs(where[i] - home[i]) for i in range(size)
        )

    def swap(a: int, b: int) -> None:
        ta, tb = where[a], where[b]
        ma, mb = met[a], met[b]
        for x in range(size):
            d = mb[x] - ma[x]
            if d:
                conf[x][ta] += d
                conf[x][tb] -= d
        where[a], where[b] = tb, ta

    current = cost()
    best, best_where = current, list(where)
    tabu = [0] * size
    it = since = 0
    evaluations = 0
    while evaluations < steps:
        conflicted = [i for i in range(size) if conf[i][where[i]]]
        if not conflicted:
            break  # no repeat left: the descent below tidies the standing
        it += 1
        best_d: int | None = None
        moves: list[tuple[int, int]] = []
        for a in conflicted:
            ta, ha, ca, ma = where[a], home[a], conf[a], met[a]
            base = -ca[ta] * w - abs(ta - ha)
            for b in range(size):
                tb = where[b]
                if tb == ta:
                    continue
                cb = conf[b]
                d = (
                    w * (cb[ta] + ca[tb] - 2 * ma[b] - cb[tb])
                    + abs(ta - home[b])
                    + abs(tb - ha)
                    - abs(tb - home[b])
                    + base
                )
                if (tabu[a] > it or tabu[b] > it) and current + d >= best:
                    continue
                if best_d is None or d < best_d:
                    best_d, moves = d, [(a, b)]
                elif d == best_d:
                    moves.append((a, b))
            evaluations += size
        if best_d is None:
            break
        a, b = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
        swap(a, b)
        current += best_d
        tabu[a] = it + 2 + rng.randrange(8)
        tabu[b] = it + 2 + rng.randrange(8)
        if current < best:
            best, best_where, since = current, list(where), 0
        else:
            since += 1
            if since >= stall:
                if kicks <= 0:
                    break
                kicks -= 1
                since = 0
                for i, t in enumerate(best_where):  # back to the best, then shake it
                    if where[i] != t:
                        j = next(j for j in range(size) if where[j] == t and best_where[j] != t)
                        swap(i, j)
                for _ in range(max(2, k // 2)):
                    a = rng.randrange(size)
                    b = rng.randrange(size)
                    if where[a] != where[b]:
                        swap(a, b)
                current = cost()
                tabu = [0] * size
    # restore the best and descend: swaps that lower the cost (the standing, once no repeats)
    for i, t in enumerate(best_where):
        if where[i] != t:
            j = next(j for j in range(size) if where[j] == t and best_where[j] != t)
            swap(i, j)
    improved = True
    while improved and evaluations < steps:
        improved = False
        for a in range(size):
            ta, ha, ca, ma = where[a], home[a], conf[a], met[a]
            for b in range(a + 1, size):
                tb = where[b]
                if tb == ta:
                    continue
                cb = conf[b]
                d = w * (cb[ta] + ca[tb] - 2 * ma[b] - cb[tb] - ca[ta]) + (
                    abs(ta - home[b]) + abs(tb - ha) - abs(tb - home[b]) - abs(ta - ha)
                )
                if d < 0:
                    swap(a, b)
                    improved = True
                    ta, ca = where[a], conf[a]
            evaluations += size
    return where


# --- a tournament's next round --------------------------------------------------------------------


def pair_next_round(t: Tournament) -> Round:
    """Seat the round after the last played one (pairing, byes, table numbers)."""
    round_no = len(t.played) + 1
    if round_no > t.rounds:
        raise PairingError(f"the tournament has {t.rounds} rounds; all are seated")
    if is_family(t.variant) and not t.fixed_sides:  # 打百分, individuals at tables of 4 (3)
        from .hundred_event import reseat_next_round

        return reseat_next_round(t, round_no)
    drawn = t.drawn_entrants
    live_names = {e.name for e in t.active_entrants(round_no)}
    active = [e.name for e in drawn if e.name in live_names]
    order = {e.name: i for i, e in enumerate(drawn)}
    if not t.fixed_sides:
        rows = red_five_standings(t)
        ranked = [
            r.entrant
            for r in sorted(rows, key=lambda r: (-r.score, -r.dealer_wins, order.get(r.entrant, 0)))
            if r.entrant in set(active)
        ]
        mates = _tablemates(t)  # every seated table counts, finished or not
        byes = {r.entrant: r.byes for r in rows}
        history = [[tab.players for tab in rnd.tables if tab.players] for rnd in t.played]
        seat = reseat_round(ranked, mates, byes, history=history, size=t.rules.players)
        tables = [Table(i + 1, players=tuple(p)) for i, p in enumerate(seat.tables)]
        tables += [Table(len(tables) + j + 1, bye=b) for j, b in enumerate(seat.byes)]
        return Round(round_no, tuple(tables))
    if t.pairing == "round-robin":
        names = [e.name for e in drawn]
        pairs, rr_byes = berger_round(names, round_no)
        live = set(active)
        kept: list[tuple[str, str]] = []
        byes_out = [b for b in rr_byes if b in live]
        for a, b in pairs:
            if a in live and b in live:
                kept.append((a, b))
            elif a in live or b in live:
                byes_out.append(a if a in live else b)  # the opponent withdrew
        tables = [Table(i + 1, sides=p) for i, p in enumerate(kept)]
        tables += [Table(len(tables) + j + 1, bye=b) for j, b in enumerate(byes_out)]
        return Round(round_no, tuple(tables))
    srows = fixed_standings(t)
    ranked = [
        r.entrant
        for r in sorted(
            srows,
            key=lambda r: (
                -r.match_points,
                -r.level_diff,
                -r.opponents_points,
                order.get(r.entrant, 0),
            ),
        )
        if r.entrant in set(active)
    ]
    mp = {r.entrant: r.match_points for r in srows}
    met: set[frozenset[str]] = set()
    side0: Counter[str] = Counter()
    bye_count: Counter[str] = Counter()
    for rnd in t.played:
        for tab in rnd.tables:
            if tab.sides:
                met.add(frozenset(tab.sides))
                side0[tab.sides[0]] += 1
            if tab.bye:
                bye_count[tab.bye] += 1
    sp = swiss_round(ranked, mp, met, bye_count, side0, round_no, rounds_after=t.rounds - round_no)
    tables = [Table(i + 1, sides=p) for i, p in enumerate(sp.pairs)]
    if sp.bye is not None:
        tables.append(Table(len(tables) + 1, bye=sp.bye))
    return Round(round_no, tuple(tables))


def _tablemates(t: Tournament) -> dict[str, Counter[str]]:
    """Who shared a red five table with whom, over every seated round (finished or not)."""
    mates: dict[str, Counter[str]] = {}
    for rnd in t.played:
        for tab in rnd.tables:
            if not tab.players:
                continue
            for a in tab.players:
                c = mates.setdefault(a, Counter())
                for b in tab.players:
                    if b != a:
                        c[b] += 1
    return mates
