"""Swiss quality: no repeat opponents while a repeat-free round exists, look-ahead in small
fields, byes to the lowest-ranked entrant without one, top half against bottom half."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.competition import pairing
from app.competition.model import Deal, Entrant, MatchSpec, Round, Tournament
from app.competition.pairing import pair_next_round, swiss_round


def names(n: int) -> list[str]:
    return [f"S{i:02d}" for i in range(n)]


def swiss(n: int, rounds: int) -> Tournament:
    return Tournament(
        club="c",
        name="t",
        variant="tractor-4p",
        pairing="swiss",
        rounds=rounds,
        match=MatchSpec(deals=1),
        entrants=tuple(Entrant(x, (x + "a", x + "b")) for x in names(n)),
    )


def play(t: Tournament, rng: random.Random) -> Tournament:
    plan = pair_next_round(t)
    tables = tuple(
        tab
        if tab.bye
        else replace(
            tab,
            deals=(Deal(points=5 * rng.randrange(0, 41), kitty=0, trump="S", declarer=0),),
        )
        for tab in plan.tables
    )
    return replace(t, played=(*t.played, Round(plan.round, tables)))


def history(t: Tournament) -> tuple[Counter[frozenset[str]], Counter[str]]:
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for rnd in t.played:
        for tab in rnd.tables:
            if tab.sides:
                met[frozenset(tab.sides)] += 1
            if tab.bye:
                byes[tab.bye] += 1
    return met, byes


def repeat_free_round_exists(t: Tournament) -> bool:
    """A perfect matching of the pairs that have not met (an odd field: the bye as a node
    joined to those with the fewest byes)."""
    met, byes = history(t)
    people = [e.name for e in t.entrants]
    g = nx.Graph()
    g.add_nodes_from(people)
    g.add_edges_from(p for p in combinations(people, 2) if frozenset(p) not in met)
    if len(people) % 2:
        fewest = min(byes[x] for x in people)
        g.add_edges_from((x, "bye") for x in people if byes[x] == fewest)
    return 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == g.number_of_nodes()


def run(n: int, seed: int) -> tuple[int, int, int]:
    """A Swiss as long as a round robin; (rounds with repeats or a second bye while a repeat-free
    round existed, rounds that had to repeat, repeated pairs in all)."""
    rounds = n - 1 if n % 2 == 0 else n
    t = swiss(n, rounds)
    rng = random.Random(seed)
    avoidable = forced = 0
    for _ in range(rounds):
        exists = repeat_free_round_exists(t)
        met, byes = history(t)
        t = play(t, rng)
        last = t.played[-1]
        bad = any(met[frozenset(tab.sides)] for tab in last.tables if tab.sides)
        fewest = min(byes[x] for x in names(n))
        bad = bad or any(byes[b] > fewest for b in last.byes)
        if bad:
            avoidable += exists
            forced += not exists
    met, _ = history(t)
    return avoidable, forced, sum(v - 1 for v in met.values())


@pytest.mark.parametrize("n", range(4, 17))
def test_no_repeats_in_a_round_robin_long_swiss(n: int) -> None:
    for seed in range(2):
        avoidable, forced, repeats = run(n, seed)
        assert avoidable == 0, "a repeat (or a second bye) although a repeat-free round existed"
        # with the look-ahead, every round of a round robin's length stays repeat-free
        assert forced == 0 and repeats == 0


def test_without_look_ahead_late_rounds_can_run_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The look-ahead is what prevents them: switched off, late rounds of some small fields
    find no repeat-free pairing left (yet never repeat while one exists)."""
    monkeypatch.setattr(pairing, "LOOK_AHEAD_MAX", 0)
    forced_total = 0
    for n in (8, 10, 12, 14):
        for seed in range(3):
            avoidable, forced, _ = run(n, seed)
            assert avoidable == 0
            forced_total += forced
    assert forced_total > 0


def test_widens_to_every_pair_that_has_not_met() -> None:
    """Score groups far apart and opponents met so that the only repeat-free round pairs the top
    with the bottom: the pruned graphs have no perfect matching; the full one has."""
    people = names(8)
    mp = {x: 2 * (8 - i) for i, x in enumerate(people)}  # every entrant its own score group
    only = {frozenset((people[i], people[7 - i])) for i in range(4)}
    met = {frozenset(p) for p in combinations(people, 2)} - only
    sp = swiss_round(people, mp, met)
    assert {frozenset(p) for p in sp.pairs} == only
    assert sp.repeats == 0 and sp.widened == 2
    # one more met pair: no repeat-free round left, the fewest repeats (one) are allowed
    sp = swiss_round(people, mp, met | {frozenset((people[0], people[7]))})
    assert sp.repeats == 1 and sp.widened == 3


def test_bye_to_the_lowest_ranked_without_one() -> None:
    people = names(7)
    mp = {x: 0 for x in people}
    assert swiss_round(people, mp).bye == people[6]
    assert swiss_round(people, mp, byes={people[6]: 1, people[5]: 1}).bye == people[4]
    # everyone had one: the rotation starts again from the bottom
    assert swiss_round(people, mp, byes={x: 1 for x in people}).bye == people[6]
    # even when the lowest-ranked without a bye met everyone else, he still gets it
    met = {frozenset((people[4], x)) for x in people if x != people[4]}
    sp = swiss_round(people, mp, met, byes={people[6]: 1, people[5]: 1})
    assert sp.bye == people[4] and sp.repeats == 0


def test_byes_rotate_over_a_whole_event() -> None:
    t = swiss(9, 9)
    rng = random.Random(3)
    for _ in range(9):
        t = play(t, rng)
    _, byes = history(t)
    assert sorted(byes) == names(9) and set(byes.values()) == {1}


def _fold_cost(group: list[str], pairs: list[tuple[str, str]]) -> int:
    """How far pairs inside a score group are from top half against bottom half."""
    at = {x: i for i, x in enumerate(group)}
    half = len(group) // 2
    return sum(abs(abs(at[a] - at[b]) - half) for a, b in pairs)


def _perfect_matchings(people: list[str], met: set[frozenset[str]]) -> list[list[tuple[str, str]]]:
    if not people:
        return [[]]
    a, rest = people[0], people[1:]
    out = []
    for b in rest:
        if frozenset((a, b)) not in met:
            others = [x for x in rest if x != b]
            out += [[(a, b), *m] for m in _perfect_matchings(others, met)]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_top_half_against_bottom_half_inside_a_score_group(seed: int) -> None:
    """A hand-made score group of 8 (with a group above and below), some pairs met: the group is
    paired as close to 1–5, 2–6, 3–7, 4–8 as the met pairs allow (brute force over all
    repeat-free pairings of the group)."""
    rng = random.Random(seed)
    people = names(12)
    mp = {x: 6 if i < 2 else 4 if i < 10 else 2 for i, x in enumerate(people)}
    group = people[2:10]
    met = {frozenset(p) for p in combinations(group, 2) if rng.random() < 0.3}
    options = _perfect_matchings(group, met)
    assert options, "the hand-made group must still be pairable"
    sp = swiss_round(people, mp, met)
    inside = [p for p in sp.pairs if p[0] in group]
    assert len(inside) == 4 and sp.repeats == 0
    assert _fold_cost(group, inside) == min(_fold_cost(group, m) for m in options)
    assert {frozenset(p) for p in sp.pairs} >= {frozenset(people[:2]), frozenset(people[10:])}


def test_first_round_is_the_exact_fold() -> None:
    people = names(8)
    sp = swiss_round(people, {x: 0 for x in people})
    assert sorted(tuple(sorted(p)) for p in sp.pairs) == [
        (people[i], people[i + 4]) for i in range(4)
    ]


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 18),
    seed=st.integers(0, 10_000),
    density=st.floats(0, 0.8),
    rounds_after=st.integers(0, 12),
)
def test_any_history_repeat_free_when_possible(
    n: int, seed: int, density: float, rounds_after: int
) -> None:
    """Random met pairs and byes: everyone seated once, the repeats counted right, and none
    while a repeat-free round exists, with or without the look-ahead."""
    rng = random.Random(seed)
    people = names(n)
    met = {frozenset(p) for p in combinations(people, 2) if rng.random() < density}
    byes = {x: rng.randrange(2) for x in people}
    mp = {x: 2 * rng.randrange(4) for x in people}
    ranked = sorted(people, key=lambda x: -mp[x])
    sp = swiss_round(ranked, mp, met, byes, rounds_after=rounds_after)
    seated = [x for p in sp.pairs for x in p] + ([sp.bye] if sp.bye else [])
    assert sorted(seated) == people
    assert sp.repeats == sum(frozenset(p) in met for p in sp.pairs)
    g = nx.Graph()
    g.add_nodes_from(people)
    g.add_edges_from(p for p in combinations(people, 2) if frozenset(p) not in met)
    if n % 2:
        fewest = min(byes.values())
        g.add_edges_from((x, "bye") for x in people if byes[x] == fewest)
    if 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == g.number_of_nodes():
        assert sp.repeats == 0
        assert sp.bye is None or byes[sp.bye] == min(byes.values())
