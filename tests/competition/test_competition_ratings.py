"""Club ratings (OpenSkill): winners rise above losers, partnerships are teams, red five deals
are a dealer side against the attackers, corrections re-derive, equal times keep their order."""

from __future__ import annotations

from app.competition.ratings import AWARD_DRAW, AWARD_WIN, Game, display, rate, table


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
