"""Duplicate event standings: matchpoints across the field, IMPs and VPs of team matches, and
no peeking at a board one has yet to play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.competition import duplicate as dup
from app.competition.duplicate_event import (
    TableResult,
    board_scores,
    fast_matchpoints,
    field_standings,
    match_scores,
    table_imps,
    team_standings,
    visible,
)
from app.competition.movements import mitchell, team_movement

T4 = dup.variant_of("tractor-4p")


def test_field_matchpoints_by_direction_and_total_percentage() -> None:
    # board 1 at three tables: side 0 entrants 0, 1, 2 against 3, 4, 5
    rs = [
        TableResult(1, 1, 1, (0, 3), value0=40),
        TableResult(1, 2, 1, (1, 4), value0=-10),
        TableResult(1, 3, 1, (2, 5), value0=40),
        # board 2 at two tables
        TableResult(2, 1, 2, (0, 4), value0=5),
        TableResult(2, 2, 2, (1, 5), value0=25),
    ]
    sc = {(s.board, s.table): s for s in board_scores(rs)}
    assert sc[(1, 1)].mp == (3, 1) and sc[(1, 2)].mp == (0, 4) and sc[(1, 3)].mp == (3, 1)
    assert sc[(1, 1)].pct == (75.0, 25.0) and sc[(1, 2)].pct == (0.0, 100.0)
    rows = {r.entrant: r for r in field_standings(rs)}
    # entrant 0: 3 of 4 on board 1, 0 of 2 on board 2 -> 3/6
    assert (rows[0].mp, rows[0].top, rows[0].pct, rows[0].boards) == (3, 6, 50.0, 2)
    # entrant 4: 4 of 4, then side 1 of board 2 beat: value -5 vs -25 -> 2 of 2
    assert (rows[4].mp, rows[4].top, rows[4].pct) == (6, 6, 100.0)
    ranked = field_standings(rs)
    assert ranked[0].entrant == 4 and ranked[0].rank == 1
    # equal percentages share a rank, the next rank skips
    by_pct: dict[float, set[int]] = {}
    for r in ranked:
        by_pct.setdefault(r.pct, set()).add(r.rank)
    assert all(len(v) == 1 for v in by_pct.values())
    assert [r.rank for r in ranked] == [1 + sum(x.pct > r.pct for x in ranked) for r in ranked]
    pcts = [r.pct for r in ranked]
    assert pcts == sorted(pcts, reverse=True)


def test_a_board_played_once_is_fifty_percent_and_results_are_unique() -> None:
    # DUPLICATE.md: a board played once gives its result 0 matchpoints and 50 %
    rows = field_standings([TableResult(3, 1, 1, (0, 1), value0=90)])
    assert [(r.mp, r.top, r.pct) for r in rows] == [(0, 0, 50.0), (0, 0, 50.0)]
    assert rows[0].rank == rows[1].rank == 1
    (sc,) = board_scores([TableResult(3, 1, 1, (0, 1), value0=90)])
    assert (sc.mp, sc.pct) == ((0, 0), (50.0, 50.0))
    # beside a board played at three tables: its 0 MP add nothing to the matchpoints and
    # nothing to the top shown, and the percentage counts it at 50 %
    rs = [
        TableResult(1, 1, 1, (0, 3), value0=40),
        TableResult(1, 2, 1, (1, 4), value0=-10),
        TableResult(1, 3, 1, (2, 5), value0=40),
        TableResult(2, 1, 2, (0, 4), value0=5),
    ]
    rows = {r.entrant: r for r in field_standings(rs)}
    assert (rows[0].mp, rows[0].top, rows[0].pct, rows[0].boards) == (3, 4, 66.67, 2)
    assert (rows[4].mp, rows[4].top, rows[4].pct) == (4, 4, 83.33)
    assert (rows[1].mp, rows[1].top, rows[1].pct) == (0, 4, 0.0)
    with pytest.raises(dup.DuplicateError, match="two results"):
        field_standings([TableResult(3, 1, 1, (0, 1), value0=9)] * 2)


def test_red_five_compares_each_seat_with_that_seat() -> None:
    rs = [
        TableResult(1, 1, 1, (0, 1, 2, 3, 4), scores=(2, -1, -1, 1, -1)),
        TableResult(1, 2, 1, (5, 6, 7, 8, 9), scores=(-2, 1, 1, -1, 1)),
    ]
    rows = {r.entrant: r for r in field_standings(rs)}
    assert rows[0].pct == 100.0 and rows[5].pct == 0.0
    assert rows[1].pct == 0.0 and rows[6].pct == 100.0


def test_a_whole_mitchell_scores_to_a_field_average_of_fifty() -> None:
    m = mitchell(10, 2)
    rs = [
        TableResult(b, s.table, s.round, s.seats, value0=(b * 7 + s.table * 13) % 50 - 20)
        for s in m.sittings
        for b in s.boards
    ]
    rows = field_standings(rs)
    assert len(rows) == 10 and all(r.boards == m.boards for r in rows)
    assert sum(r.mp for r in rows) == sum(r.top for r in rows) // 2


def test_team_match_imps_and_vps() -> None:
    m = team_movement(2, 4)
    (t1, t2) = m.sittings  # team 0: half 0 at table 1 in side 0, half 1 at table 2 in side 1
    values = {1: (40, -10), 2: (0, 0), 3: (-20, 25), 4: (10, 10)}  # (table 1, table 2)
    rs = []
    for b, (v1, v2) in values.items():
        rs.append(TableResult(b, t1.table, 1, t1.seats, value0=v1, match=1))
        rs.append(TableResult(b, t2.table, 1, t2.seats, value0=v2, match=1))
    (ms,) = match_scores(T4, rs)
    # d = 50 -> +4, 0, -45 -> -4, 0: A won 4, lost 4
    assert ms.imps == (4, 4) and ms.boards == 4 and ms.vp == (10.0, 10.0)
    rs[0] = TableResult(1, t1.table, 1, t1.seats, value0=80, match=1)  # d = 90 -> +6
    (ms,) = match_scores(T4, rs)
    assert ms.imps == (6, 4) and ms.vp == dup.vp(4, 2)
    table = team_standings(T4, rs, teams=[0, 1])
    assert [r.team for r in table] == [0, 1]
    assert table[0].vp == ms.vp[0] and table[0].quotient == 1.5 and table[1].quotient == 0.667
    # a board counts only once both tables have played it
    (half,) = match_scores(T4, rs[:-1])
    assert half.boards == 3 and not half.provisional  # without N: the boards played
    # a match part-played is scored on its full N (DUPLICATE.md), and is provisional
    (part,) = match_scores(T4, rs[:-1], match_boards={(1, 1): 4})
    assert part.boards == 3 and part.of == 4 and part.provisional
    assert part.imps == (6, 4) and part.vp == dup.vp(4, 2) != dup.vp(3, 2)
    table = team_standings(T4, rs[:-1], teams=[0, 1], match_boards={(1, 1): 4})
    assert [r.provisional for r in table] == [True, True] and table[0].vp == dup.vp(4, 2)[0]
    (whole,) = match_scores(T4, rs, match_boards={(1, 1): 4})
    assert not whole.provisional and whole.vp == part.vp
    assert not any(r.provisional for r in team_standings(T4, rs, [0, 1], 10, {(1, 1): 4}))
    with pytest.raises(dup.DuplicateError, match="4 boards played of 3"):
        match_scores(T4, rs, match_boards={(1, 1): 3})
    # the VP scale's factor
    (ms,) = match_scores(T4, rs, 15, {(1, 1): 4})
    assert ms.vp == dup.vp(4, 2, 15) != dup.vp(4, 2)


def test_table_imps_compare_the_two_tables_of_a_match() -> None:
    m = team_movement(2, 2)
    (t1, t2) = m.sittings
    rs = [
        TableResult(1, t1.table, 1, t1.seats, value0=40, match=1),
        TableResult(1, t2.table, 1, t2.seats, value0=-10, match=1),  # d = 50: A +4
        TableResult(2, t1.table, 1, t1.seats, value0=0, match=1),  # table 2 still to play
    ]
    assert table_imps(T4, rs) == {(1, 1, t1.table): 4, (1, 1, t2.table): -4}
    with pytest.raises(dup.DuplicateError, match="not a team match result"):
        table_imps(T4, [TableResult(1, 1, 1, (0, 1), value0=5)])


def test_team_standings_vps_then_quotient() -> None:
    m = team_movement(4, 1)
    rs = []
    for s in m.sittings:
        a_first = s.table % 2 == 1
        # table 1 of each match: side 0 does 30 better than at table 2 for the lower team
        rs.append(
            TableResult(
                s.boards[0], s.table, s.round, s.seats, value0=30 if a_first else 0, match=s.match
            )
        )
    table = team_standings(T4, rs, teams=range(4))
    assert [r.matches for r in table] == [3, 3, 3, 3]
    assert sum(r.vp for r in table) == pytest.approx(120.0)  # 6 matches of 20
    vps = [r.vp for r in table]
    assert vps == sorted(vps, reverse=True)


def test_no_peeking() -> None:
    scheduled = {0: {1, 2}, 1: {1, 2}, 2: {3}}
    played = {0: {1}, 1: set(), 2: set()}
    assert visible(1, 0, scheduled, played)  # played it
    assert not visible(1, 1, scheduled, played)  # yet to play it
    assert visible(1, 2, scheduled, played)  # not scheduled to play it
    assert not visible(1, None, scheduled, played)  # the public: someone still to play
    played[1] = {1}
    assert visible(1, None, scheduled, played)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-60, 60).map(lambda x: x * 5), min_size=1, max_size=40))
def test_fast_matchpoints_are_the_pages_matchpoints(values: list[int]) -> None:
    assert fast_matchpoints(values) == dup.matchpoints(values)
