"""Duplicate movements: every board once per entrant, directions straight, the right tables."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.competition.movements import (
    MovementError,
    Sitting,
    check_movement,
    mitchell,
    red_five_movement,
    swiss_max_rounds,
    team_movement,
    team_of,
    team_pairs,
    team_round,
    team_swiss_movement,
    team_swiss_round,
)

QUICK = settings(max_examples=25, deadline=None)


def boards_of(m, entrant):  # type: ignore[no-untyped-def]
    return [b for s in m.sittings if entrant in s.seats for b in s.boards]


@QUICK
@given(st.integers(2, 20), st.integers(1, 4))
def test_teams_round_robin(teams: int, per_match: int) -> None:
    m = team_movement(teams, per_match)
    check_movement(m)
    assert m.tables == 2 * (teams // 2)
    assert m.rounds == (teams - 1 if teams % 2 == 0 else teams)
    for r in range(1, m.rounds + 1):
        rs = m.round_sittings(r)
        assert len(rs) == m.tables
        assert len(m.byes[r - 1]) == (2 if teams % 2 else 0)
    # every team meets every other team once
    met = Counter(frozenset(team_of(e) for e in s.seats) for s in m.sittings if s.table % 2 == 1)
    assert len(met) == teams * (teams - 1) // 2 and set(met.values()) == {1}
    # each half plays its team's boards once: a team with no bye plays every board
    for half in range(2 * teams):
        bs = boards_of(m, half)
        assert len(bs) == len(set(bs))
    if teams % 2 == 0:
        assert sorted(boards_of(m, 0)) == list(range(1, m.boards + 1))


def test_team_match_halves_in_opposite_directions() -> None:
    two = team_round([(3, 5)], 2, [7, 8], first_table=9)
    assert two == [
        Sitting(2, 9, (7, 8), (6, 10), 1),
        Sitting(2, 10, (7, 8), (11, 7), 1),
    ]
    with pytest.raises(MovementError, match="two matches"):
        team_round([(0, 1), (1, 2)], 1, [1])


def test_teams_swiss_avoids_rematches_and_gives_the_bye_to_the_lowest() -> None:
    sittings, byes = team_swiss_round(
        5, [20.0, 15.5, 10.0, 4.5, 0.0], met=[(0, 1)], byes=[0] * 5, round_no=2, boards=[5, 6]
    )
    assert byes == [8, 9]  # team 4, the lowest
    pairs = {frozenset(team_of(e) for e in s.seats) for s in sittings}
    assert frozenset((0, 1)) not in pairs and len(pairs) == 2
    assert all(s.boards == (5, 6) for s in sittings)


@QUICK
@given(st.integers(3, 12), st.integers(1, 3), st.data())
def test_teams_swiss_movement_round_by_round(teams: int, per_match: int, data) -> None:  # type: ignore[no-untyped-def]
    """Paired round by round from made-up VPs, a Swiss keeps the round robin's boards per
    round, never repeats a match (fewer rounds than the round robin leave room) nor a bye."""
    most = swiss_max_rounds(teams)
    assert most == (teams - 2 if teams % 2 == 0 else teams - 1)
    rounds = data.draw(st.integers(1, most))
    paired: list[tuple[list[tuple[int, int]], int | None]] = []
    vps = [0.0] * teams
    for r in range(1, rounds + 1):
        m = team_swiss_movement(teams, per_match, rounds, paired)
        assert m.boards == rounds * per_match and m.rounds == rounds
        assert m.round_sittings(r) == [] and m.byes[r - 1] == ()  # not paired yet
        met = [p for pairs, _ in paired for p in pairs]
        byes = [sum(b == t for _, b in paired) for t in range(teams)]
        boards = range((r - 1) * per_match + 1, r * per_match + 1)
        sittings, out = team_swiss_round(teams, vps, met, byes, r, boards, rounds - r)
        pairs = team_pairs(sittings)
        assert team_round(pairs, r, boards) == sittings
        paired.append((pairs, out[0] // 2 if out else None))
        for a, b in pairs:  # made-up results: A's VPs from the draw
            x = data.draw(st.sampled_from([0.0, 6.5, 10.0, 17.25, 20.0]))
            vps[a] += x
            vps[b] += 20 - x
    m = team_swiss_movement(teams, per_match, rounds, paired)
    check_movement(m)
    met = [frozenset(p) for pairs, _ in paired for p in pairs]
    assert len(met) == len(set(met))
    got = [b for _, b in paired if b is not None]
    assert len(got) == len(set(got)) == (rounds if teams % 2 else 0)
    assert all(
        s.boards == tuple(range((s.round - 1) * per_match + 1, s.round * per_match + 1))
        for s in m.sittings
    )


def test_teams_swiss_movement_refuses_what_it_cannot_be() -> None:
    with pytest.raises(MovementError, match="Swiss rounds"):
        team_swiss_movement(5, 1, 5, [])  # 5 rounds of 5 teams: the round robin
    with pytest.raises(MovementError, match="Swiss rounds"):
        team_swiss_movement(2, 1, 1, [])
    with pytest.raises(MovementError, match="2 rounds paired of a Swiss of 1"):
        team_swiss_movement(4, 1, 1, [([(0, 1), (2, 3)], None)] * 2)
    with pytest.raises(MovementError, match="not in the event"):
        team_swiss_movement(4, 1, 2, [([(0, 1), (2, 7)], None)])
    with pytest.raises(MovementError, match="two matches"):
        team_swiss_movement(4, 1, 2, [([(0, 1), (1, 3)], None)])
    with pytest.raises(MovementError, match="not a team match"):
        team_pairs([Sitting(1, 1, (1,), (0, 1))])


@QUICK
@given(st.integers(4, 30), st.integers(1, 3))
def test_mitchell_every_board_once_direction_straight(pairs: int, per_round: int) -> None:
    m = mitchell(pairs, per_round)
    check_movement(m)
    tables = (pairs + 1) // 2
    assert m.tables == pairs // 2
    assert m.rounds == tables and m.boards == tables * per_round
    for r in range(1, m.rounds + 1):
        assert len(m.round_sittings(r)) == pairs // 2
        assert len(m.byes[r - 1]) == pairs % 2
    stationary = set(range(tables))
    for s in m.sittings:
        assert s.seats[0] in stationary and s.seats[1] not in stationary
        assert s.seats[0] == s.table - 1  # side 0 never moves
    for e in range(pairs):
        bs = boards_of(m, e)
        assert len(bs) == len(set(bs))
        if pairs % 2 == 0:
            assert sorted(bs) == list(range(1, m.boards + 1))
    # each board is played by several tables (every table once it has gone round)
    for b in range(1, m.boards + 1):
        assert len(m.board_tables(b)) == m.rounds - sum(
            1
            for r in range(m.rounds)
            if any((t + r) % tables == (b - 1) // per_round for t in m.byes[r])
        )


def test_mitchell_even_tables_skip_and_shared_sets() -> None:
    # 4 tables: the moving pairs skip a table half way. Over all 4 rounds each moving pair
    # meets one opponent twice (an even cyclic group has no orthomorphism), over 3 none.
    m = mitchell(8, 2)
    check_movement(m)
    met = Counter((s.seats[0], s.seats[1]) for s in m.sittings)
    assert sorted(Counter(b for (_, b), k in met.items() if k == 2).values()) == [1, 1, 1, 1]
    short = mitchell(8, 2, rounds=3)
    assert max(Counter((s.seats[0], s.seats[1]) for s in short.sittings).values()) == 1
    big = mitchell(60, 4, sets=6)  # 30 tables, 24 boards: each set at 5 tables at once
    check_movement(big)
    assert (big.tables, big.rounds, big.boards) == (30, 6, 24)
    assert all(len(big.board_tables(b)) == 30 for b in range(1, 25))
    with pytest.raises(MovementError, match="divide"):
        mitchell(60, 2, sets=12)
    with pytest.raises(MovementError, match="rounds"):
        mitchell(8, 2, rounds=5)
    with pytest.raises(MovementError, match="pairs"):
        mitchell(1, 2)


@QUICK
@given(st.integers(5, 40), st.integers(1, 3))
def test_red_five_each_board_once_seats_rotate(players: int, per_round: int) -> None:
    m = red_five_movement(players, per_round)
    check_movement(m)
    places = -(-players // 5)
    assert m.tables == players // 5
    for r in range(1, m.rounds + 1):
        rs = m.round_sittings(r)
        assert len(rs) == places - (1 if players % 5 else 0)
        assert all(len(s.seats) == 5 for s in rs)
        assert len(m.byes[r - 1]) == (5 - (-players % 5)) % 5
    seat_of: dict[int, list[int]] = {}
    for s in sorted(m.sittings, key=lambda s: s.round):
        for seat, p in enumerate(s.seats):
            seat_of.setdefault(p, []).append(seat)
    for p in range(players):
        bs = boards_of(m, p)
        assert len(bs) == len(set(bs))
        if players % 5 == 0:
            assert sorted(bs) == list(range(1, m.boards + 1))
    # seats rotate: a player never keeps the seat from one round to the next
    for r in range(1, m.rounds):
        now = {p: i for s in m.round_sittings(r) for i, p in enumerate(s.seats)}
        nxt = {p: i for s in m.round_sittings(r + 1) for i, p in enumerate(s.seats)}
        assert all(nxt[p] == (now[p] + 1) % 5 for p in now if p in nxt)


def test_red_five_tables_mix() -> None:
    m = red_five_movement(35, 2)  # 7 tables, 7 rounds
    met = Counter(frozenset((a, b)) for s in m.sittings for a in s.seats for b in s.seats if a < b)
    assert max(met.values()) <= 2  # players started at different seats part again


def test_check_movement_refuses_a_board_played_twice() -> None:
    m = mitchell(6, 1)
    bad = type(m)(
        m.kind,
        m.entrants,
        m.boards,
        m.rounds,
        m.tables,
        m.sittings + (Sitting(1, 9, (1,), (0, 5)),),
        m.byes,
    )
    with pytest.raises(MovementError):
        check_movement(bad)
