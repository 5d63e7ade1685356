"""Who played an entrant's seat in a round: the entered players, each seat taken by its latest
substitute whose round has come."""

from __future__ import annotations

from app.competition.model import Entrant, Substitute, seats_in_round


def test_a_seat_is_played_by_its_latest_substitute_from_their_round_on() -> None:
    e = Entrant(
        "李娜 & 王伟",
        ("李娜", "王伟"),
        substitutes=(Substitute(0, 4, "赵磊"), Substitute(0, 2, "张伟")),
    )
    assert e.players_in(1) == ("李娜", "王伟")
    assert e.players_in(2) == ("张伟", "王伟") == e.players_in(3)
    assert e.players_in(4) == ("赵磊", "王伟")
    assert Entrant("A & B", ("A", "B")).players_in(3) == ("A", "B")


def test_a_substitute_for_a_seat_the_side_does_not_have_changes_nothing() -> None:
    assert seats_in_round(["a", "b"], [(5, 1, "x")], 3) == ["a", "b"]
    assert seats_in_round([1, 2], [(1, 3, 9)], 2) == [1, 2]
    assert seats_in_round([1, 2], [(1, 3, 9)], 3) == [1, 9]
