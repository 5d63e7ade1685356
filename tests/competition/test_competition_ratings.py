"""Club ratings (OpenSkill): winners rise above losers, partnerships are teams, red five deals
are a dealer side against the attackers, 争上游 deals are free-for-alls of individuals ranked by
the deal's points, corrections re-derive, equal times keep their order."""

from __future__ import annotations

import pytest

from app.competition.ratings import (
    AWARD_DEAL_WIN,
    AWARD_DRAW,
    AWARD_WIN,
    Game,
    display,
    points_ranks,
    rate,
    table,
)

FOUR = (("A",), ("B",), ("C",), ("D",))


def climb(when: str, ranks: tuple[int, ...], winner: int = 0) -> Game:
    return Game(when, FOUR, winner, "争上游", "deal", ranks)


def test_a_player_who_wins_every_match_rates_above_one_who_loses_every_match():
    games = []
    partners = ["P", "Q", "R"]
    for i in range(12):
        # Winner always wins with changing partners; Loser always loses
        games.append(
            Game(f"2026-01-{i + 1:02d}", (("Winner", partners[i % 3]), ("Loser", f"X{i}")), 0)
        )
    ratings = rate(games)
    assert ratings["Winner"].display > ratings["P"].display > ratings["Loser"].display
    assert ratings["Winner"].matches == 12 and ratings["Winner"].award == 12 * AWARD_WIN
    assert ratings["Loser"].award == 0
    assert [r.player for r in table(ratings)][0] == "Winner"
    history = ratings["Winner"].history
    assert len(history) == 12 and history[-1][1] == ratings["Winner"].display
    assert history[0][1] < history[-1][1]  # rises as the wins confirm it


def test_a_new_player_shows_the_base_and_a_draw_moves_both_towards_each_other():
    assert display(25.0, 25 / 3) == 1000
    r = rate([Game("2026-01-01", (("A", "B"), ("C", "D")), None)])
    assert r["A"].display == r["C"].display
    assert r["A"].award == AWARD_DRAW


def test_a_correction_re_derives_the_ratings():
    before = rate([Game("1", (("A", "B"), ("C", "D")), 0), Game("2", (("A", "C"), ("B", "D")), 0)])
    after = rate([Game("1", (("A", "B"), ("C", "D")), 1), Game("2", (("A", "C"), ("B", "D")), 0)])
    assert before["A"].display > after["A"].display
    assert after["C"].display > before["C"].display
    # derived again from the same results: the very same numbers
    again = rate([Game("1", (("A", "B"), ("C", "D")), 1), Game("2", (("A", "C"), ("B", "D")), 0)])
    assert {k: (v.mu, v.sigma) for k, v in again.items()} == {
        k: (v.mu, v.sigma) for k, v in after.items()
    }


def test_equal_times_keep_the_given_order_and_the_order_matters():
    g1 = Game("2026-02-01", (("A",), ("B",)), 0)
    g2 = Game("2026-02-01", (("A",), ("B",)), 1)
    x = rate([g1, g2])
    y = rate([g2, g1])
    assert x["A"].mu != y["A"].mu  # the order is the given one, not sorted by content
    assert rate([g1, g2])["A"].mu == x["A"].mu  # and stable


def test_red_five_deals_rate_the_dealer_side_against_the_attackers():
    deals = [
        Game(f"d{i}", (("Dealer", "Friend"), ("C", "D", "E")), 0, kind="deal") for i in range(5)
    ]
    r = rate(deals)
    assert r["Dealer"].display > r["C"].display
    assert r["Dealer"].matches == 0 and r["Dealer"].games == 5
    alone = rate([Game("d", (("Solo",), ("B", "C", "D", "E")), 1, kind="deal")])
    assert alone["Solo"].display < alone["B"].display


def test_a_game_with_a_player_on_both_sides_rates_nobody():
    assert rate([Game("1", (("A", "B"), ("B", "C")), 0)]) == {}


def test_a_climbing_first_place_gains_and_a_last_place_loses() -> None:
    r = rate([climb("d1", (0, 1, 2, 3))])
    assert r["A"].display > 1000 > r["D"].display
    assert r["A"].display > r["B"].display > r["C"].display > r["D"].display
    assert (r["A"].award, r["B"].award) == (AWARD_DEAL_WIN, 0)
    assert all(p.games == 1 and p.matches == 0 for p in r.values())
    # a later deal the other way round undoes it as far as the ratings go
    back = rate([climb("d1", (0, 1, 2, 3)), climb("d2", (3, 2, 1, 0), winner=3)])
    assert back["D"].display > r["D"].display and back["A"].display < r["A"].display


def test_climbing_equal_points_share_the_places_they_span() -> None:
    strict = rate([climb("d1", (0, 1, 2, 3))])
    r = rate([climb("d1", (0, 1, 1, 3))])  # place_points 3, 1, 1, 0: second and third level
    assert (r["B"].mu, r["B"].sigma) == pytest.approx((r["C"].mu, r["C"].sigma))
    assert r["B"].mu == pytest.approx((strict["B"].mu + strict["C"].mu) / 2)
    assert (r["A"].mu, r["D"].mu) == pytest.approx((strict["A"].mu, strict["D"].mu))
    # tied first stays above a lone third (OpenSkill's own ties put the third level with them)
    top = rate([climb("d1", (0, 0, 2, 3))])
    assert top["A"].mu == pytest.approx(top["B"].mu) and top["B"].mu > top["C"].mu > top["D"].mu
    # everybody level: nobody moves
    level = rate([climb("d1", (0, 0, 0, 0))])
    assert all(p.mu == pytest.approx(25.0) for p in level.values())


def test_climbing_ranks_come_from_the_deals_points_take_backs_included() -> None:
    # default points 3, 2, 1, 0; the first out's take-back (3 - 1) brings him level with the
    # second, as a penalty changes a red five deal's winner or a fixed-side match's levels
    assert points_ranks((3, 2, 1, 0)) == (0, 1, 2, 3)
    assert points_ranks((2, 2, 1, 0)) == (0, 0, 2, 3)
    assert points_ranks((0, 1, 2, 5)) == (3, 2, 1, 0)
    clean = rate([climb("d", points_ranks((3, 2, 1, 0)))])
    took_back = rate([climb("d", points_ranks((2, 2, 1, 0)))])
    assert clean["A"].display > clean["B"].display
    assert took_back["A"].mu == pytest.approx(took_back["B"].mu)
    assert took_back["A"].award == AWARD_DEAL_WIN
    assert took_back["A"].display < clean["A"].display and took_back["B"].mu > clean["B"].mu


def test_a_climbing_deal_with_bad_data_rates_nobody() -> None:
    assert rate([Game("d", (("A",), ("B",), ("a",)), 0, kind="deal", ranks=(0, 1, 2))]) == {}
    assert rate([Game("d", FOUR, 0, kind="deal", ranks=(0, 1, 2))]) == {}  # a rank missing
