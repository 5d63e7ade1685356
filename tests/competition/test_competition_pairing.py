"""app.competition.pairing: Berger tables, Swiss and red five re-seating, and their properties."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.competition import tfile
from app.competition.model import (
    Deal,
    Entrant,
    MatchSpec,
    Round,
    Table,
    Tournament,
    seat_players,
)
from app.competition.pairing import (
    PairingError,
    berger_round,
    berger_rounds,
    pair_next_round,
    reseat_round,
    swiss_round,
)


def names(n: int) -> list[str]:
    return [f"E{i:03d}" for i in range(n)]


# --- round robin ------------------------------------------------------------------------------


def test_berger_matches_the_published_table_for_14() -> None:
    n = [str(i) for i in range(1, 15)]
    assert berger_round(n, 1)[0] == [
        ("1", "14"),
        ("2", "13"),
        ("3", "12"),
        ("4", "11"),
        ("5", "10"),
        ("6", "9"),
        ("7", "8"),
    ]
    assert berger_round(n, 2)[0] == [
        ("14", "8"),
        ("9", "7"),
        ("10", "6"),
        ("11", "5"),
        ("12", "4"),
        ("13", "3"),
        ("1", "2"),
    ]
    assert berger_round(n, 3)[0][:2] == [("2", "14"), ("3", "1")]
    assert berger_round(n, 4)[0][:2] == [("14", "9"), ("10", "8")]


@pytest.mark.parametrize("n", range(2, 15))
def test_round_robin_complete(n: int) -> None:
    people = names(n)
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for r in range(1, berger_rounds(people) + 1):
        pairs, bye = berger_round(people, r)
        seated = [x for p in pairs for x in p] + bye
        assert sorted(seated) == sorted(people), f"round {r}: everyone exactly once"
        assert len(bye) == n % 2
        met.update(frozenset(p) for p in pairs)
        byes.update(bye)
    assert set(met) == {frozenset(p) for p in combinations(people, 2)}
    assert set(met.values()) == {1}
    assert all(byes[x] == 1 for x in people) if n % 2 else not byes
    # a second cycle swaps the sides
    assert berger_round(people, berger_rounds(people) + 1)[0] == [
        (b, a) for a, b in berger_round(people, 1)[0]
    ]


def test_berger_bad_input() -> None:
    with pytest.raises(PairingError):
        berger_round(["a"], 1)
    with pytest.raises(PairingError):
        berger_round(["a", "a"], 1)
    with pytest.raises(PairingError):
        berger_round(["a", "b"], 0)


# --- Swiss --------------------------------------------------------------------------------------


def test_swiss_first_round_top_half_against_bottom_half() -> None:
    people = names(20)
    sp = swiss_round(people, {x: 0 for x in people})
    assert sorted(frozenset(p) for p in sp.pairs) == sorted(
        frozenset((people[i], people[i + 10])) for i in range(10)
    )
    assert sp.bye is None and sp.repeats == 0 and sp.widened == 0


def test_swiss_score_groups_and_floaters() -> None:
    people = names(10)
    mp = {x: (4 if i < 4 else 2 if i < 7 else 0) for i, x in enumerate(people)}
    sp = swiss_round(people, mp)
    got = {frozenset(p) for p in sp.pairs}
    # top group of 4: 0–2, 1–3 (top half vs bottom half); group of 3: 4–5 and the lowest, 6,
    # floats down to meet the top of the group below, 7 (as the Dutch system does)
    assert got == {
        frozenset((people[0], people[2])),
        frozenset((people[1], people[3])),
        frozenset((people[4], people[5])),
        frozenset((people[6], people[7])),
        frozenset((people[8], people[9])),
    }


def test_swiss_avoids_repeats_and_gives_the_bye_to_the_lowest_without_one() -> None:
    people = names(5)
    mp = {x: 0 for x in people}
    met = {frozenset((people[0], people[2])), frozenset((people[1], people[3]))}
    sp = swiss_round(people, mp, met, byes={people[4]: 1})
    assert sp.bye == people[3]
    assert not {frozenset(p) for p in sp.pairs} & met


def test_swiss_sides_balance() -> None:
    a, b = "A", "B"
    assert swiss_round([a, b], {}, side0={a: 2, b: 1}).pairs == [(b, a)]
    assert swiss_round([a, b], {}, side0={a: 1, b: 2}).pairs == [(a, b)]


def test_swiss_repeat_only_when_unavoidable() -> None:
    a, b = "A", "B"
    sp = swiss_round([a, b], {}, {frozenset((a, b))})
    assert sp.pairs and sp.repeats == 1


def _result(rng: random.Random) -> tuple[Deal, ...]:
    return (Deal(points=5 * rng.randrange(0, 41), kitty=0, trump="S", declarer=0),)


def _tournament(
    n: int, rounds: int, variant: str = "tractor-4p", pairing: str = "swiss"
) -> Tournament:
    size = {"tractor-4p": 2, "one-twenty-6p": 3, "red-five-5p": 1}[variant]
    return Tournament(
        club="c",
        name="t",
        variant=variant,
        pairing=pairing,
        rounds=rounds,
        match=MatchSpec(deals=1),
        entrants=tuple(
            Entrant(x, tuple(f"{x}-{k}" for k in range(size)) if size > 1 else (x,))
            for x in names(n)
        ),
    )


def _play(t: Tournament, seed: int, deals: int = 1) -> Tournament:
    rng = random.Random(seed)
    plan = pair_next_round(t)
    if t.fixed_sides:
        tables = tuple(t2 if t2.bye else replace(t2, deals=_result(rng)) for t2 in plan.tables)
    else:
        tables = tuple(
            t2
            if t2.bye
            else replace(
                t2,
                deals=(
                    Deal(
                        points=5 * rng.randrange(0, 61),
                        kitty=0,
                        trump="H",
                        dealer=rng.randrange(5),
                        friend=None,
                    ),
                ),
            )
            for t2 in plan.tables
        )
    return replace(t, played=(*t.played, Round(plan.round, tables)))


def test_swiss_200_entrants_nine_rounds_no_repeats() -> None:
    t = _tournament(200, 9)
    for r in range(9):
        t = _play(t, r)
    met: Counter[frozenset[str]] = Counter()
    for rnd in t.played:
        assert len(rnd.tables) == 100
        assert [tab.table for tab in rnd.tables] == list(range(1, 101))
        met.update(frozenset(tab.sides or ()) for tab in rnd.tables)
    assert max(met.values()) == 1
    tfile.load(tfile.dump(t))  # a valid tournament file


def test_swiss_byes_rotate() -> None:
    t = _tournament(9, 8)
    for r in range(8):
        t = _play(t, r)
    byes = [rnd.byes[0] for rnd in t.played]
    assert len(set(byes)) == 8
    for rnd in t.played:
        seated = [x for tab in rnd.tables for x in tab.entrants]
        assert sorted(seated) == names(9)


def test_swiss_bye_goes_to_the_lowest_ranked() -> None:
    t = _play(_tournament(5, 3), 1)
    from app.competition.standings import fixed_standings

    rows = fixed_standings(t)
    plan = pair_next_round(t)
    first_bye = t.played[0].byes[0]
    # lowest-ranked without a bye: pairing order puts entrant order last among full ties
    order = [
        r.entrant
        for r in sorted(
            rows, key=lambda r: (-r.match_points, -r.level_diff, -r.opponents_points, r.entrant)
        )
    ]
    expected = [x for x in order if x != first_bye][-1]
    assert plan.byes == (expected,)
    assert t.played[0].byes == ("E004",)  # round 1: all equal, seed order: the last entrant


def test_withdrawn_entrants_are_not_paired() -> None:
    t = _play(_tournament(6, 3), 0)
    out = t.entrants[0].name
    t = replace(t, entrants=(replace(t.entrants[0], withdrawn_after=1), *t.entrants[1:]))
    plan = pair_next_round(t)
    assert out not in [x for tab in plan.tables for x in tab.entrants]
    assert len(plan.byes) == 1


def test_round_robin_tournament() -> None:
    t = _tournament(5, 5, pairing="round-robin")
    for r in range(5):
        t = _play(t, r)
    met = Counter(frozenset(tab.sides) for rnd in t.played for tab in rnd.tables if tab.sides)
    assert len(met) == 10 and set(met.values()) == {1}
    assert sorted(b for rnd in t.played for b in rnd.byes) == names(5)
    with pytest.raises(PairingError, match="5 rounds"):
        pair_next_round(t)


def test_round_robin_withdrawal_gives_the_opponent_a_bye() -> None:
    t = _play(_tournament(4, 3, pairing="round-robin"), 0)
    t = replace(t, entrants=(replace(t.entrants[0], withdrawn_after=1), *t.entrants[1:]))
    plan = pair_next_round(t)
    assert len(plan.playing) == 1 and len(plan.byes) == 1


def test_seats_follow_sides() -> None:
    a = Entrant("A", ("a1", "a2", "a3"))
    b = Entrant("B", ("b1", "b2", "b3"))
    assert seat_players((a, b)) == ["a1", "b1", "a2", "b2", "a3", "b3"]


# --- red five -------------------------------------------------------------------------------------


def _mates(tables: list[list[str]], into: dict[str, Counter[str]]) -> None:
    for tab in tables:
        for x in tab:
            into.setdefault(x, Counter()).update(y for y in tab if y != x)


def test_reseat_basic() -> None:
    people = names(12)
    res = reseat_round(people, {}, {})
    assert [len(t) for t in res.tables] == [5, 5]
    assert res.byes == people[-2:]  # the lowest-ranked sit out first
    assert res.tables[0] == people[:5] and res.repeats == 0  # by standing
    with pytest.raises(PairingError, match="at least 5"):
        reseat_round(names(4))


def test_reseat_no_repeats_while_avoidable() -> None:
    people = names(50)
    mates: dict[str, Counter[str]] = {}
    rng = random.Random(5)
    for _ in range(5):
        ranked = people[:]
        rng.shuffle(ranked)
        res = reseat_round(ranked, mates, {})
        assert res.repeats == 0
        _mates(res.tables, mates)
    assert all(max(c.values()) == 1 for c in mates.values())


def test_reseat_second_round_of_25_meets_only_new_players() -> None:
    people = names(25)
    mates: dict[str, Counter[str]] = {}
    first = reseat_round(people, mates, {})
    _mates(first.tables, mates)
    second = reseat_round(people, mates, {})
    assert second.repeats == 0


def test_reseat_byes_rotate_in_a_tournament() -> None:
    t = _tournament(13, 6, variant="red-five-5p", pairing="reseat")
    for r in range(6):
        t = _play(t, r)
    byes = Counter(b for rnd in t.played for b in rnd.byes)
    assert sum(byes.values()) == 18 and max(byes.values()) - min(byes[x] for x in names(13)) <= 1
    tfile.load(tfile.dump(t))


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 40), st.integers(0, 10_000))
def test_reseat_everyone_seated_once(n: int, seed: int) -> None:
    rng = random.Random(seed)
    people = names(n)
    rng.shuffle(people)
    mates: dict[str, Counter[str]] = {}
    res = reseat_round(people, mates, {})
    seated = [x for t in res.tables for x in t] + res.byes
    assert sorted(seated) == sorted(people)
    assert len(res.byes) == n % 5 and all(len(t) == 5 for t in res.tables)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 30), st.integers(0, 10_000))
def test_swiss_everyone_seated_once(n: int, seed: int) -> None:
    rng = random.Random(seed)
    people = names(n)
    mp = {x: rng.choice((0, 1, 2, 4)) for x in people}
    ranked = sorted(people, key=lambda x: -mp[x])
    sp = swiss_round(ranked, mp)
    seated = [x for p in sp.pairs for x in p] + ([sp.bye] if sp.bye else [])
    assert sorted(seated) == sorted(people)
    assert (sp.bye is None) == (n % 2 == 0)


def test_pairing_past_the_last_round() -> None:
    t = _tournament(4, 1)
    t = _play(t, 0)
    with pytest.raises(PairingError):
        pair_next_round(t)


def test_table_entrants() -> None:
    assert Table(3, bye="x").entrants == ("x",)
    assert Table(1, sides=("a", "b")).entrants == ("a", "b")
