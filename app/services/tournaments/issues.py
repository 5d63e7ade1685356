"""Deal problems found by ``app.competition`` (an issue code and its values) in the user's
language. The competition package words them in English for the command line and the import;
the web pages render the same codes here, so nothing parses English text."""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ...competition.matches import MESSAGES, DealIssue, Issue, english

_SIDE = _l("Please choose one of the two sides.")
_SEAT = _l("Please choose one of the seats.")
_RED_FIVE_ONLY = _l("Only red five deals have this.")
_MISPLAYS = _l("Misplays (吃苍蝇) are recorded in 120分 only.")
_COMPLETE = _l("The match is complete: no more deals.")
_FORFEITED = _l("This table was forfeited: it has no deals.")

TEXTS = {
    "not_whole": _l("Please write a whole number."),
    "below_zero": _l("%(value)s is below 0."),
    "points_over_total": _l("%(value)s is more than the %(total)s points in %(decks)s decks."),
    "not_multiple_of_5": _l("%(value)s is not a multiple of 5: points come in steps of 5."),
    "no_kitty": _l("With %(decks)s decks there is no kitty."),
    "kitty_over_max": _l("A kitty of %(cards)s cards holds at most %(max)s points."),
    "points_kitty_over_total": _l(
        "Points %(points)s + kitty %(kitty)s = %(sum)s: more than the %(total)s points in the "
        "decks."
    ),
    "multiplier_not_allowed": _l("These rules do not allow × %(value)s (allowed: %(allowed)s)."),
    "trump_not_suit": _l("Please choose a suit or no trump (无主)."),
    "declarer_missing": _l("Please choose the declarer side (庄家)."),
    "declarer_not_side": _SIDE,
    "red_five_only_seat": _RED_FIVE_ONLY,
    "red_five_only": _RED_FIVE_ONLY,
    "failed_throws_shape_sides": _l("Please write the failed throws (甩牌) as counts."),
    "failed_throws_count": _l("A count from 0 upwards, please."),
    "failed_throws_cards": _l(
        "Please write, for each failed throw (甩牌), the cards taken back: 1 or more."
    ),
    "failed_throws_per_card": _l(
        "These rules charge 10 points per card: please write the cards each failed throw "
        "(甩牌) took back."
    ),
    "misplays_one_twenty_only_tractor": _MISPLAYS,
    "failed_throws_one_twenty": _l(
        "In 120分 a failed throw is a misplay (吃苍蝇): count it there."
    ),
    "misplay_not_side": _SIDE,
    "level_unknown": _l("%(value)s is not a level (2 … 10, J, Q, K, A)."),
    "declarer_red_five": _l("A red five deal has a dealer and a friend, not a declarer side."),
    "dealer_missing": _l("Please choose the dealer (庄家)."),
    "seat_out_of_range": _SEAT,
    "friend_out_of_range": _SEAT,
    "friend_is_dealer": _l("The friend is not the dealer: choose alone (独打)."),
    "trump_missing": _l("Red five always has a trump suit: please choose one."),
    "friend_grabbed_alone": _l("The dealer played alone: there is no friend."),
    "failed_throws_shape_seats": _l("Please write the failed throws (甩牌) as counts."),
    "misplays_one_twenty_only": _MISPLAYS,
    "level_red_five": _l("Red five is always played at level 2."),
    "penalties_shape": _l("Please record each penalty with its kind and who was at fault."),
    "penalty_kind": _l(
        "Please choose a penalty: revoke (出错牌), miscount (多牌/少牌), wrong kitty (扣底张数错) "
        "or take-back (悔牌)."
    ),
    "penalty_side": _SIDE,
    "penalty_seat": _SEAT,
    "penalty_kitty_side": _l(
        "Only the declarer side buries: a wrong kitty (扣底张数错) is theirs."
    ),
    "penalty_kitty_seat": _l("Only the dealer buries: a wrong kitty (扣底张数错) is the dealer's."),
    "penalty_no_kitty": _l("With %(decks)s decks there is no kitty, so no wrong kitty."),
    "warning_seat": _l("Please choose the seat that is warned."),
    "warning_reason": _l("Please write the reason for the warning, at most %(most)s characters."),
    "struck_out": _l("The match is over: a side lost it by penalties (strikes)."),
    "forfeit_has_deals": _FORFEITED,
    "forfeited": _FORFEITED,
    "passed_a": _l("The match is over: a side passed A."),
    "match_complete": _COMPLETE,
    "table_complete": _COMPLETE,
    "after_last_deal": _l(
        "Time is up: the director called the last deal, so this table plays %(deals)s deals "
        "and no further deal may start."
    ),
    "level_mismatch": _l("The sheet says %(written)s, but this side is at level %(level)s."),
    "no_such_deal": _l("There is no deal %(number)s at this table."),
    # 争上游 (climbing)
    "not_climbing": _l("A 争上游 row has each player's place and the tribute (进贡) only."),
    "climbing_only": _l("Only 争上游 rows have this."),
    "places_missing": _l("Please write each player's place, 1 to %(players)s."),
    "places_count": _l("Please write one place for each of the %(players)s players."),
    "place_missing": _l("Please write this player's place."),
    "place_out_of_range": _l("A place is 1 to %(players)s."),
    "place_twice": _l("Place %(place)s is written twice: each place once."),
    "tribute_off": _l("These rules pay no tribute (进贡)."),
    "tribute_same_seat": _l("The tribute goes from one player to another."),
    "tribute_not_card": _l("%(value)s is not a card: write e.g. 2S, 10H, AD, HJ."),
    "tribute_first_deal": _l("A first deal has no tribute (进贡)."),
    "tribute_not_loser": _l("The tribute is paid by the player who came last in the deal before."),
    "tribute_not_winner": _l("The tribute goes to the player who came first in the deal before."),
    "climbing_penalty": _l("In 争上游 only a take-back (悔牌) is recorded."),
    # 打百分 (competition.hundred)
    "hundred_declarer_missing": _l("Please choose the declarer (庄家)."),
    "hundred_seat": _l("Please choose one of the seats."),
    "hundred_bid_missing": _l("Please choose the winning bid (叫分): 60 to 100 in steps of 5."),
    "hundred_bid": _l("%(value)s is not a bid: 60 to 100 in steps of 5."),
    "hundred_bid_forty": _l("40分下台 has no bidding: write the turned card."),
    "hundred_turned_missing": _l("Please write the turned card (翻牌), e.g. 7H: it names trump."),
    "hundred_turned": _l("%(value)s is not a suited card such as 7H (a joker is never turned)."),
    "hundred_turned_only": _l("Only 40分下台 turns a card: here the bid names the declarer."),
    "hundred_trump_missing": _l("Please choose trump (主): 打百分 always has a trump suit."),
    "hundred_trump": _l("Please choose a suit: 打百分 always has a trump suit."),
    "hundred_trump_turned": _l("Trump is the turned card's suit, %(suit)s."),
    "hundred_friend_card_missing": _l("Please write the card the declarer called (e.g. AS, HJ)."),
    "hundred_friend_card": _l("%(value)s is not a card: write e.g. AS, 10H, HJ."),
    "hundred_friend_card_none": _l("%(what)s has no friend card."),
    "hundred_friend_missing": _l(
        "Please choose the seat that held the friend card (only a blind call plays alone)."
    ),
    "hundred_friend_is_declarer": _l(
        "The friend is not the declarer: choose alone (独打) if the declarer played alone."
    ),
    "hundred_friend_not_partner": _l(
        "Partners are fixed: the partner is the player opposite the declarer."
    ),
    "hundred_friend_3p": _l("3人百分 has no friend: the declarer plays with the dummy."),
    "hundred_points": _l("The attackers' points are 0 to 100 in steps of 5, not %(value)s."),
    "hundred_kou_di": _l("Please say whether an attacker won the last trick (抠底)."),
    "hundred_kitty": _l(
        "%(value)s is not the buried cards' points: 0 to %(most)s in steps of 5, or empty."
    ),
    "hundred_points_kitty": _l(
        "Points %(points)s + the buried cards' %(kitty)s = %(sum)s: more than the 100 in the deck."
    ),
    "hundred_penalties": _l("Please choose each penalty's kind and the side at fault."),
    "hundred_penalty_kind": _l(
        "Please choose a penalty: revoke (出错牌), miscount (多牌/少牌) or take-back (悔牌)."
    ),
    "hundred_penalty_side": _l(
        "Please choose who was at fault: the declarer side or the attackers."
    ),
    "hundred_warning_seat": _l("Please choose the seat that is warned."),
    "hundred_warning_reason": _l("Please write the reason for the warning."),
    "hundred_table_complete": _COMPLETE,
    "hundred_after_last_deal": _l(
        "The director called the last deal: this table plays %(deals)s deals."
    ),
}


def issue_text(issue: Issue | DealIssue) -> str:
    """One issue in the current language (English wording of the competition package when a
    code has no translation here, so a new code is never lost)."""
    args: Mapping[str, object] = dict(issue.params)
    text = TEXTS.get(issue.code)
    if text is None:
        return english(issue.code, dict(args)) if issue.code in MESSAGES else issue.message
    return str(text) % args


def later_text(issue: DealIssue) -> str:
    return _(
        "With this change, deal %(n)d after it would no longer be valid: %(why)s",
        n=issue.index + 1,
        why=issue_text(issue),
    )
