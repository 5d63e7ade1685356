"""The fast standings path equals the checked one.

``matches.fixed_final`` skips the rows and messages of ``derive_fixed`` (and checks each deal by
set lookups): on random tables, valid or not, it must give exactly ``derive_fixed``'s ``counts``
and ``values``. ``standings.fixed_standings`` uses it: on random tournaments it must equal the
straightforward computation over ``derive_fixed`` kept below as the reference.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from app.competition.matches import (
    derive_fixed,
    derive_red_five,
    fixed_final,
    fixed_tables,
    red_five_final,
    red_five_tables,
)
from app.competition.model import (
    Deal,
    Entrant,
    FailedThrows,
    MatchSpec,
    PointsSpec,
    Round,
    Table,
    Tournament,
)
from app.competition.standings import (
    FixedStanding,
    RedFiveStanding,
    fixed_standings,
    red_five_standings,
    standings_json,
)
from engine.scoring import allowed_multiplier_set, max_kitty_points
from engine.variants import Variant, make_variant

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("tractor-4p", {}),
    ("tractor-4p", {"decks": 4}),  # no kitty
    ("tractor-4p", {"throw_penalty": "none", "kitty_multiplier": "power"}),
    ("tractor-4p", {"must_play_levels": ["5", "10", "K", "A"], "kitty_multiplier": "double"}),
    ("one-twenty-6p", {}),
    ("one-twenty-6p", {"must_play_levels": ["J", "A"], "kitty_multiplier": "by_shape"}),
]
ODD: list[Any] = [True, False, 5.0, "5", None, -5, 3]
LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _points(v: Variant) -> st.SearchStrategy[Any]:
    total = v.total_points
    return st.one_of(
        st.sampled_from([0, 0, 5, 10, 20, 35]),  # low: the declarers climb, A gets passed
        st.integers(0, total // 10).map(lambda x: 5 * x),
        st.integers(0, total // 5).map(lambda x: 5 * x),
    )


@st.composite
def deals(draw: st.DrawFn, v: Variant, n_max: int = 12) -> list[Deal]:
    tractor = v.id == "tractor-4p"
    odd = st.sampled_from(ODD)
    kitties = [0, 0, 5, 10, 25, 40, 60, 80, 100, 150][: 3 if v.kitty == 0 else 8]
    mults = sorted(allowed_multiplier_set(v))[:4] + [0, 0, 0, 0]
    climb = draw(st.booleans())  # low points: declarers climb to A and pass it
    low = st.sampled_from([0, 0, 5, 10, 20, 35, 40, 60, 85])
    out: list[Deal] = []
    for _ in range(draw(st.integers(0, n_max))):
        weird = draw(st.integers(0, 30)) == 0  # now and then a deal carries a bad field
        ft: Any = None
        if tractor and draw(st.booleans()):
            ft = FailedThrows(draw(st.integers(0, 4)), draw(st.integers(0, 5)))
        misplays: tuple[Any, ...] = ()
        if not tractor and draw(st.integers(0, 3)) == 0:
            misplays = tuple(draw(st.lists(st.integers(0, 1), max_size=3)))
        d = Deal(
            points=draw(low if climb else _points(v)),
            kitty=draw(st.sampled_from(kitties)),
            trump=draw(st.sampled_from(["S", "H", "D", "C", None])),
            declarer=draw(st.integers(0, 1)),
            multiplier=draw(st.sampled_from(mults)),
            failed_throws=ft,
            misplays=misplays,
        )
        if weird:
            field = draw(
                st.sampled_from(
                    [
                        "points",
                        "kitty",
                        "multiplier",
                        "declarer",
                        "trump",
                        "dealer",
                        "friend",
                        "friend_grabbed",
                        "failed_throws",
                        "misplays",
                        "level",
                    ]
                )
            )
            bad: Any = {
                "trump": draw(st.sampled_from(["X", "", 0, "s"])),
                "friend_grabbed": True,
                "failed_throws": draw(
                    st.sampled_from(
                        [
                            (1,),
                            FailedThrows(-1, 0),
                            FailedThrows(True, 0),
                            FailedThrows(0, 1.0),  # type: ignore[arg-type]
                            FailedThrows(1, 0),
                            {"declarer": 1},
                        ]
                    )
                ),
                "misplays": draw(st.sampled_from([(2,), (True,), (0, -1), (1,), ("0",)])),
                "level": draw(st.sampled_from(["1", "B", "a", 2])),
                "points": draw(st.sampled_from([*ODD, 7, -10, v.total_points + 5])),
            }.get(field, draw(odd))
            d = replace(d, **{field: bad})
        out.append(d)
    # the level written on the sheet: absent, right (as the sheet derives it) or wrong
    open_spec = MatchSpec(to_a=True)
    for i in range(len(out)):
        roll = draw(st.integers(0, 24))
        mode = "wrong" if roll == 0 else "none" if roll < 10 else "right"
        if mode == "none":
            continue
        m = derive_fixed(v, open_spec, Table(1, sides=("a", "b"), deals=tuple(out[: i + 1])))
        right = m.rows[i].level if len(m.rows) == i + 1 else "2"
        level = right if mode == "right" else draw(st.sampled_from(LEVELS))
        out[i] = replace(out[i], level=level)
    return out


SPECS = st.one_of(
    st.integers(0, 12).map(lambda n: MatchSpec(deals=n)),
    st.just(MatchSpec(to_a=True)),
    st.just(MatchSpec(minutes=40)),
)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), which=st.sampled_from(VARIANTS), finished=st.booleans())
def test_fixed_final_equals_derive_fixed(
    data: st.DataObject, which: tuple[str, dict[str, Any]], finished: bool
) -> None:
    v = make_variant(*which)
    table = Table(1, sides=("a", "b"), finished=finished, deals=tuple(data.draw(deals(v))))
    spec = data.draw(st.one_of(st.just(MatchSpec(deals=len(table.deals))), SPECS))
    m = derive_fixed(v, spec, table)
    assert fixed_final(v, spec, table) == (m.values if m.counts else None)
    event("counts" if m.counts else "errors" if m.errors else "unfinished")
    if m.passed_side is not None:
        event("passed A")


def test_fixed_final_reaches_both_answers() -> None:
    """The property test above is not vacuous: counted results, passed A and errors occur."""
    v = make_variant("tractor-4p")
    zero = Deal(points=0, kitty=0, trump="S", declarer=0)
    # side 0 wins every deal by 3 levels: 2 → 5 → 8 → J → A (stops) → passes A on the 5th
    t = Table(1, sides=("a", "b"), deals=(zero,) * 5)
    assert fixed_final(v, MatchSpec(deals=8), t) == (15, 2)
    assert derive_fixed(v, MatchSpec(deals=8), t).values == (15, 2)
    assert fixed_final(v, MatchSpec(deals=6), replace(t, deals=(zero,) * 6)) is None
    assert fixed_final(v, MatchSpec(deals=4), replace(t, deals=(zero,) * 4)) == (14, 2)
    assert fixed_final(v, MatchSpec(deals=1), replace(t, deals=(replace(zero, points=3),))) is None
    with pytest.raises(ValueError, match="forfeited"):
        fixed_final(v, MatchSpec(deals=1), replace(t, forfeit=0))
    with pytest.raises(ValueError, match="no fixed sides"):
        fixed_tables(make_variant("red-five-5p"))


@pytest.mark.parametrize("which", VARIANTS, ids=lambda w: repr(w))
def test_fixed_final_on_every_single_deal_number(which: tuple[str, dict[str, Any]]) -> None:
    """Every points / kitty / multiplier on one deal, around each limit, as derive_fixed says."""
    v = make_variant(*which)
    allowed = sorted(allowed_multiplier_set(v))
    mults = sorted({0, 1, 3, *allowed[:2], *allowed[-1:]})
    spec = MatchSpec(deals=1)
    counted = 0
    for points in range(-5, v.total_points + 10, 5):
        for kitty in range(-5, max_kitty_points(v) + 10, 5):
            for m in mults:
                deal = Deal(points=points, kitty=kitty, trump="S", declarer=1, multiplier=m)
                table = Table(1, sides=("a", "b"), deals=(deal,))
                want = derive_fixed(v, spec, table)
                assert fixed_final(v, spec, table) == (want.values if want.counts else None)
                counted += want.counts
    assert counted > 40


# --- whole standings against the straightforward computation ----------------------------------


def reference_standings(t: Tournament) -> list[FixedStanding]:
    """TOURNAMENT.md "Standings" for fixed sides, straight over ``derive_fixed``."""
    rows: dict[str, FixedStanding] = {e.name: FixedStanding(e.name) for e in t.entrants}

    def row(name: str) -> FixedStanding:
        return rows.setdefault(name, FixedStanding(name))

    for rnd in t.played:
        for table in rnd.tables:
            if table.bye is not None:
                row(table.bye).byes += 1
                row(table.bye).match_points += t.points.bye_points
                continue
            if table.sides is None:
                continue
            m = derive_fixed(t.rules, t.match, table)
            if not m.counts:
                for name in table.sides:
                    row(name).in_progress += 1
                continue
            for side in (0, 1):
                r = row(table.sides[side])
                r.played += 1
                outcome = m.outcome(side)
                r.match_points += getattr(t.points, outcome)
                r.level_diff += m.level_diff(side, t.points.forfeit_level_diff)
                count = {"win": "wins", "draw": "draws", "loss": "losses"}[outcome]
                setattr(r, count, getattr(r, count) + 1)
                if m.forfeit == side:
                    r.forfeits += 1
                r.opponents.append(table.sides[1 - side])
    for r in rows.values():
        r.opponents_points = sum(rows[o].match_points for o in r.opponents)
    ordered = sorted(
        rows.values(),
        key=lambda r: (-r.match_points, -r.level_diff, -r.opponents_points, r.entrant),
    )
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


@st.composite
def tournaments(draw: st.DrawFn) -> Tournament:
    which = draw(st.sampled_from(VARIANTS))
    v = make_variant(*which)
    n = draw(st.integers(2, 9))
    names = [f"E{i}" for i in range(n)]
    spec = draw(SPECS)
    played = []
    for rno in range(1, draw(st.integers(0, 4)) + 1):
        order = draw(st.permutations(names))
        tables: list[Table] = []
        for i in range(0, n - 1, 2):
            a, b = order[i], order[i + 1]
            kind = draw(st.sampled_from(["deals", "deals", "deals", "forfeit", "empty"]))
            if kind == "forfeit":
                tables.append(Table(len(tables) + 1, sides=(a, b), forfeit=draw(st.integers(0, 1))))
            elif kind == "empty":
                tables.append(Table(len(tables) + 1, sides=(a, b), finished=draw(st.booleans())))
            else:
                ds = tuple(draw(deals(v, 8)))
                tables.append(
                    Table(len(tables) + 1, sides=(a, b), finished=draw(st.booleans()), deals=ds)
                )
        if n % 2:
            tables.append(Table(len(tables) + 1, bye=order[-1]))
        played.append(Round(rno, tuple(tables)))
    points = PointsSpec(
        win=draw(st.integers(0, 3)),
        draw=draw(st.integers(0, 2)),
        loss=draw(st.integers(-1, 1)),
        bye=draw(st.sampled_from([None, 0, 1])),
        forfeit_level_diff=draw(st.integers(0, 5)),
    )
    dropped = draw(st.integers(0, 1))  # an entrant seated but missing from the list
    return Tournament(
        club="C",
        name="T",
        variant=which[0],
        options=which[1],
        pairing="swiss",
        rounds=len(played) + 1,
        match=spec,
        points=points,
        entrants=tuple(Entrant(x, (x + "1", x + "2")) for x in names[dropped:]),
        played=tuple(played),
    )


@settings(max_examples=120, deadline=None)
@given(t=tournaments())
def test_fixed_standings_equal_the_straightforward_computation(t: Tournament) -> None:
    want = [vars(r) for r in reference_standings(t)]
    assert [vars(r) for r in fixed_standings(t)] == want
    assert standings_json(t) == [
        {k: r[k] for k in ("rank", "entrant", "played", "match_points", "level_diff")}
        | {"opponents_points": r["opponents_points"]}
        for r in want
    ]


# --- red five -----------------------------------------------------------------------------------

RED_FIVE: list[dict[str, Any]] = [{}, {"kitty_multiplier": "power"}, {"kitty_multiplier": "double"}]


@st.composite
def red_five_deals(draw: st.DrawFn, v: Variant, n_max: int = 10) -> list[Deal]:
    mults = sorted(allowed_multiplier_set(v))[:4] + [0, 0, 0]
    out: list[Deal] = []
    for _ in range(draw(st.integers(0, n_max))):
        dealer = draw(st.integers(0, 4))
        others = [x for x in range(5) if x != dealer]
        friend = draw(st.one_of(st.none(), st.sampled_from(others)))
        d = Deal(
            points=draw(st.integers(0, v.total_points // 5).map(lambda x: 5 * x)),
            kitty=draw(st.sampled_from([0, 0, 5, 10, 25, 40, 60])),
            trump=draw(st.sampled_from(["S", "H", "D", "C"])),
            dealer=dealer,
            friend=friend,
            multiplier=draw(st.sampled_from(mults)),
            failed_throws=tuple(draw(st.lists(st.integers(0, 4), max_size=4))) or None,
            friend_grabbed=friend is not None and draw(st.booleans()),
            level=draw(st.sampled_from([None, None, "2"])),
        )
        if draw(st.integers(0, 25)) == 0:
            field = draw(
                st.sampled_from(
                    [
                        "points",
                        "kitty",
                        "multiplier",
                        "declarer",
                        "trump",
                        "dealer",
                        "friend",
                        "friend_grabbed",
                        "failed_throws",
                        "misplays",
                        "level",
                    ]
                )
            )
            bad: Any = {
                "trump": draw(st.sampled_from([None, "X", 0])),
                "dealer": draw(st.sampled_from([None, 5, -1, True, 1.0])),
                "friend": draw(st.sampled_from([dealer, 5, True, "1"])),
                "friend_grabbed": True,
                "declarer": 0,
                "failed_throws": draw(st.sampled_from([[1], (5,), (True,), FailedThrows(1, 0)])),
                "misplays": (0,),
                "level": draw(st.sampled_from(["3", "A", 2])),
                "points": draw(st.sampled_from([*ODD, 7, v.total_points + 5])),
            }.get(field, draw(st.sampled_from(ODD)))
            if field == "friend_grabbed":
                d = replace(d, friend=None)
            d = replace(d, **{field: bad})
        out.append(d)
    return out


@settings(max_examples=250, deadline=None)
@given(data=st.data(), options=st.sampled_from(RED_FIVE), finished=st.booleans())
def test_red_five_final_equals_derive_red_five(
    data: st.DataObject, options: dict[str, Any], finished: bool
) -> None:
    v = make_variant("red-five-5p", options)
    players = ("a", "b", "c", "d", "e")
    table = Table(1, players=players, finished=finished, deals=tuple(data.draw(red_five_deals(v))))
    spec = data.draw(st.one_of(st.just(MatchSpec(deals=len(table.deals))), SPECS))
    tab = derive_red_five(v, spec, table)
    want = (tab.totals, tab.dealer_wins, tab.deals) if tab.counts else None
    assert red_five_final(v, spec, table) == want
    event("counts" if tab.counts else "errors" if tab.errors else "unfinished")


def test_red_five_final_by_hand() -> None:
    v = make_variant("red-five-5p")
    # 0 points: the dealer's side wins 3 units; dealer +6, friend +3, the others −3 each;
    # seat 4 failed a throw twice and seat 3 once: −4/+1 per counted failure
    d = Deal(points=0, kitty=0, trump="H", dealer=0, friend=2, failed_throws=(4, 4, 4, 3))
    t = Table(1, players=tuple("abcde"), deals=(d,))
    # seat 3: −3 + 2 − 4 = −5; seat 4: −3 − 8 + 1 = −10; the dealer 6 + 2 + 1 = 9
    assert red_five_final(v, MatchSpec(deals=1), t) == ((9, 0, 6, -5, -10), (1, 0, 1, 0, 0), 1)
    grab = replace(d, points=150, friend_grabbed=True, failed_throws=None)  # 直搭, lost: swap
    t2 = replace(t, deals=(grab,))
    assert red_five_final(v, MatchSpec(deals=1), t2) == ((-1, 1, -2, 1, 1), (0, 0, 0, 0, 0), 1)
    assert red_five_final(v, MatchSpec(deals=2), t) is None
    cases: list[tuple[str, Any]] = [("level", "3"), ("declarer", 0), ("misplays", (1,))]
    for field, bad in [*cases, ("trump", None)]:
        t3 = replace(t, deals=(replace(d, **{field: bad}),))
        assert derive_red_five(v, MatchSpec(deals=1), t3).errors
        assert red_five_final(v, MatchSpec(deals=1), t3) is None, field
    assert red_five_final(v, MatchSpec(deals=1), replace(t, deals=(replace(d, level="2"),)))
    with pytest.raises(ValueError, match="not red five"):
        red_five_tables(make_variant("tractor-4p"))


def reference_red_five(t: Tournament) -> list[RedFiveStanding]:
    rows: dict[str, RedFiveStanding] = {e.name: RedFiveStanding(e.name) for e in t.entrants}

    def row(name: str) -> RedFiveStanding:
        return rows.setdefault(name, RedFiveStanding(name))

    for rnd in t.played:
        for table in rnd.tables:
            if table.bye is not None:
                row(table.bye).byes += 1
                continue
            if table.players is None:
                continue
            tab = derive_red_five(t.rules, t.match, table)
            for seat, name in enumerate(table.players):
                r = row(name)
                if not tab.counts:
                    r.in_progress += 1
                    continue
                r.tables += 1
                r.deals += tab.deals
                r.score += tab.totals[seat]
                r.dealer_wins += tab.dealer_wins[seat]
                r.tablemates += [p for p in table.players if p != name]
    ordered = sorted(rows.values(), key=lambda r: (-r.score, -r.dealer_wins, r.entrant))
    for i, r in enumerate(ordered, 1):
        r.rank = i
    return ordered


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(5, 13), rounds=st.integers(0, 3))
def test_red_five_standings_equal_the_straightforward_computation(
    data: st.DataObject, n: int, rounds: int
) -> None:
    v = make_variant("red-five-5p")
    people = [f"P{i}" for i in range(n)]
    spec = data.draw(SPECS)
    played = []
    for rno in range(1, rounds + 1):
        order = data.draw(st.permutations(people))
        tables = [
            Table(
                i + 1,
                players=tuple(order[5 * i : 5 * i + 5]),
                finished=data.draw(st.booleans()),
                deals=tuple(data.draw(red_five_deals(v, 4))),
            )
            for i in range(n // 5)
        ]
        tables += [Table(len(tables) + j + 1, bye=b) for j, b in enumerate(order[5 * (n // 5) :])]
        played.append(Round(rno, tuple(tables)))
    t = Tournament(
        club="C",
        name="T",
        variant="red-five-5p",
        pairing="reseat",
        rounds=rounds + 1,
        match=spec,
        entrants=tuple(Entrant(x, (x,)) for x in people[data.draw(st.integers(0, 1)) :]),
        played=tuple(played),
    )
    assert [vars(r) for r in red_five_standings(t)] == [vars(r) for r in reference_red_five(t)]
