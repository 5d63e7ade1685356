"""Engine refusals in the reader's language.

The engine refuses a move with an ``EngineError`` that carries a stable code and its parameters
(``engine.codes.CODES`` holds the engine's English template of each code). ``REFUSALS`` words
every code for players, translated with ``make i18n``; ``refusal_text`` renders one in the
reader's locale: seats counted from 1 as the pages count them, cards as faces (♥10, 大王),
suits, phases, sides, climbing's kinds of play and its joker ranks in words, and a wrapped
error's cause worded too.
``tests/online/test_online_refusals.py`` fails while an engine code has no entry here or no
Chinese translation.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from engine.errors import EngineError

from .cards import face_of

REFUSALS: dict[str, Any] = {
    "card.not_a_card": _l(
        "%(got)s is not a card (a card is a number 0 to 53, or text such as 10H)."
    ),
    "card.rank_suit_type": _l(
        "Rank and suit are text such as 10 and H, not %(got_rank)s and %(got_suit)s."
    ),
    "card.no_such": _l("There is no card with rank %(got_rank)s and suit %(got_suit)s."),
    "card.text_type": _l("A card is written as text such as 10H or HJ, not %(got)s."),
    "card.unknown": _l("Unknown card %(text)s: write the rank, then the suit, e.g. 10H, QS, HJ."),
    "cards.list_type_text": _l("A list of cards is expected, such as 10H QS, not %(got)s."),
    "cards.list_type": _l("A list of cards is expected, not %(got)s."),
    "card.joker_rank": _l("A joker has no rank."),
    "pack.decks": _l("A pack has 1 to 8 decks, not %(got)s."),
    "decks.count": _l("The number of decks is a whole number, 1 or more, not %(got)s."),
    "cards.copies": _l(
        "There are %(n)s copies of %(card)s in %(what)s, but %(decks)s decks have only %(decks)s."
    ),
    "option.unknown": _l("Unknown option %(got)s; the options are %(options)s."),
    "seat.range": _l("%(got)s is not a seat at this table."),
    "variant.no_sides": _l("Red five has no fixed sides."),
    "side.range": _l("%(got)s is not a side: the sides are 0 and 1."),
    "variant.no_option": _l("%(variant)s has no option %(got)s."),
    "variant.unknown": _l("Unknown game %(got)s; the games are %(variants)s."),
    "variant.family": _l(
        "%(got)s is a game of the Hundred family (da bai fen), with its own rules."
    ),
    "option.not_for_variant": _l("%(variant)s has no option %(got)s; its options are %(options)s."),
    "option.bool": _l("Option %(name)s takes yes or no, not %(got)s."),
    "option.choice": _l("Option %(name)s takes one of %(choices)s, not %(got)s."),
    "option.points": _l(
        "Option %(name)s takes a number of points (a multiple of 5) or nothing, not %(got)s."
    ),
    "option.count": _l("Option %(name)s takes a whole number, 1 or more, or nothing, not %(got)s."),
    "option.levels": _l("Option %(name)s takes a list of levels such as 5, 10, K, A, not %(got)s."),
    "options.type": _l("The options must map option names to values, not %(got)s."),
    "card.not_a_number": _l("%(got)s is not a card (a card is a number 0 to 53)."),
    "ctx.type": _l("A trump context (variant, level, trump) is expected, not %(got)s."),
    "ctx.variant": _l("A trump context is built for a game variant, not %(got)s."),
    "ctx.level": _l("Unknown level %(got)s; a level is one of %(levels)s."),
    "ctx.trump": _l("Unknown trump suit %(got)s; write S, H, D, C or nothing (no trump)."),
    "ctx.red_five_level": _l("In red five the level rank is always 2, not %(level)s."),
    "ctx.red_five_trump": _l("Red five always has a trump suit; no trump is not possible."),
    "suit.index": _l("%(got)s is not a suit index (0 to 3, or %(trump)s for trump)."),
    "chain.position": _l("%(got)s is not a position in that suit's order (0 to %(last)s)."),
    "widths.type": _l("Widths are a list of unit widths such as 2, 2, not %(got)s."),
    "widths.ints": _l("Widths are whole numbers such as 2, 2, not %(got)s."),
    "classify.empty": _l("There are no cards to classify."),
    "lead.empty": _l("A lead needs at least one card."),
    "lead.one_suit": _l(
        "A lead must be of one suit (all trumps count as one suit); %(cards)s is not."
    ),
    "lead.not_a_card": _l("The lead holds %(got)s, which is not a card."),
    "lead_comps.type": _l("The lead's parts (lead_components) are expected, not %(got)s."),
    "cards.unhashable": _l("Something in %(what)s is not a card: %(got)s."),
    "cards.holds_non_card": _l("%(got)s in %(what)s is not a card."),
    "hand.too_few": _l("That takes %(n)s × %(card)s, but the hand holds only %(held)s."),
    "hand.missing": _l("%(card)s is not in the hand."),
    "follow.count": _l("The lead has %(lead)s cards, so play %(lead)s, not %(play)s."),
    "follow.suit": _l(
        "You hold %(held)s cards of %(suit)s: follow with %(lead)s of them, not %(cards)s."
    ),
    "follow.suit_all": _l(
        "You hold only %(held)s cards of %(suit)s: play all of them (%(cards)s) before other cards."
    ),
    "follow.shape": _l(
        "Follow the lead's shape as far as your hand allows: your %(suit)s can give "
        "%(shape)s, and this play does not."
    ),
    "trick.empty": _l("A trick needs at least the lead."),
    "trick.count": _l("Play %(index)s has %(got)s cards, but the lead has %(lead)s."),
    "level.unknown": _l("%(got)s is not a level; the levels are %(levels)s."),
    "call.variant_type": _l("A call is read for a game variant, not %(got)s."),
    "call.cards_type": _l("A call is a list of cards, not %(got)s."),
    "call.empty": _l("A call shows at least one card."),
    "call.level_cards": _l("A call shows only level cards (%(level)ss) and jokers."),
    "call.one_suit": _l("A call shows level cards of one suit only."),
    "call.red_five": _l("In red five a call shows exactly one 2."),
    "call.four_decks": _l("With 4 decks a call shows only level cards of one suit (no jokers)."),
    "call.joker_pair": _l(
        "A joker call is two small jokers or two big jokers; a joker alone is never a call."
    ),
    "call.tractor_shape": _l(
        "A call is one or two level cards of a suit plus one joker of its colour."
    ),
    "call.joker_colour": _l(
        "A call in %(suit)s needs the joker of its colour (%(card)s), not the other joker."
    ),
    "call.mixed": _l("A call shows level cards of one suit or identical jokers, not both."),
    "call.jokers_identical": _l(
        "A joker call shows identical jokers (only small jokers, or only big jokers)."
    ),
    "call.single_joker": _l(
        "A single joker is not a call; it takes at least two identical jokers."
    ),
    "callbook.variant_type": _l("A call book is kept for a game variant, not %(got)s."),
    "call.red_five_shown": _l("A 2 has already been shown; red five has no overcalls."),
    "call.own": _l("Your own call stands; you may not overcall yourself."),
    "call.more_level_cards": _l("A call must show more level cards than the standing %(count)s."),
    "call.stronger": _l("A call must be stronger than the standing call."),
    "call.race_won": _l(
        "Seat %(caller)s showed its side's level card first and won the race: no more calls."
    ),
    "call.race_level": _l("In a race, show your own side's level card: jokers do not call."),
    "call.stronger_120": _l(
        "A call must show more cards than the standing call, or as many of a stronger "
        "kind (level cards < small joker < big joker)."
    ),
    "calls.variant_type": _l("Calls are replayed for a game variant, not %(got)s."),
    "calls.red_five_level": _l("Red five is always played at level 2, not %(level)s."),
    "deal_no.range": _l("The deal number is 1 or more, not %(got)s."),
    "calls.dealer_side_type": _l("The dealer's side is a list of seats, not %(got)s."),
    "calls.list_type": _l("The calls are a list of seats and cards."),
    "calls.item": _l("Call %(index)s is not a seat and a list of cards."),
    "calls.item_cards": _l("Call %(index)s shows a list of cards, not %(got)s."),
    "calls.item_too_many": _l("Call %(index)s shows more cards than a hand holds."),
    "calls.seat": _l("%(got)s is not a seat of %(variant)s (in %(what)s)."),
    "record.type": _l("An action record has a kind and a seat, not %(got)s."),
    "record.kind": _l("Unknown action kind %(got)s; the kinds are %(kinds)s."),
    "record.kind_unknown": _l("Unknown action kind %(got)s."),
    "record.seat": _l("The seat of an action is a number, not %(got)s."),
    "record.cards": _l("The cards of an action are a list, not %(got)s."),
    "record.played": _l("The cards really played are a list, not %(got)s."),
    "setup.type": _l("A deal setup is an object."),
    "setup.unknown_fields": _l("Unknown deal setup fields: %(fields)s."),
    "setup.no_variant": _l("A deal setup names its game variant."),
    "setup.levels_type": _l("The levels are a list of the two sides' levels, not %(got)s."),
    "setup.levels": _l("The levels are the two sides' levels, such as 2 and 5, not %(got)s."),
    "setup.red_five_level": _l("Red five is always played at level 2."),
    "setup.dealer": _l("The dealer is a seat of this table, not %(got)s."),
    "setup.flags": _l("First and race are yes or no."),
    "setup.race": _l("Only 120 points has race deals (after a refused deal)."),
    "setup.later_dealer": _l("A later deal needs its dealer."),
    "setup.pack": _l("A stacked pack holds exactly the %(n)s cards of the decks."),
    "options.object": _l("The options map option names to values, not %(got)s."),
    "cards.named_list": _l("A list of cards is expected for %(what)s, not %(got)s."),
    "seed.type": _l("A seed is a whole number, not %(got)s."),
    "deal.setup_type": _l("A deal is built from a deal setup, not %(got)s."),
    "deal.type": _l("Actions are applied to a deal, not %(got)s."),
    "log.draw_after": _l("The log draws a card after the deal."),
    "log.seed_mismatch": _l(
        "The log does not match the shuffle: action %(action)s draws %(cards)s for seat %(seat)s."
    ),
    "seat.unknown": _l("%(got)s is not a seat at this table."),
    "cards.list": _l("Cards are a list, not %(got)s."),
    "card.invalid": _l("%(got)s is not a card."),
    "card.not_in_hand": _l("%(card)s is not in your hand."),
    "card.too_few_in_hand": _l("You hold %(held)s × %(card)s, not %(n)s."),
    "turn.nobody": _l("Nobody may %(action)s now (%(phase)s)."),
    "turn.not_yours": _l("It is seat %(to_act)s's turn, not yours (seat %(seat)s)."),
    "phase.draw_over": _l("All cards are dealt; the deal is at %(phase)s."),
    "phase.no_calls": _l("No calls now: the deal is at %(phase)s."),
    "call.after_deal": _l("Seat %(caller)s's call stands; overcalls come after the deal."),
    "call.last_rounds": _l(
        "In the last two rounds of the deal only the previous dealer (seat %(dealer)s) "
        "may still call."
    ),
    "call.dealer_side": _l("During the deal only the dealer's side may call (seats %(seats)s)."),
    "phase.pass": _l("There is nothing to pass on at %(phase)s."),
    "phase.redeal": _l("A redeal can be asked only before the kitty is taken, not at %(phase)s."),
    "redeal.points": _l(
        "Seat %(seat)s holds %(points)s points; a redeal needs a hand of fewer than %(limit)s."
    ),
    "phase.bury": _l("Nothing is buried at %(phase)s."),
    "bury.count": _l("Bury exactly %(need)s cards, not %(got)s."),
    "phase.friend": _l("The friend is called after the burial, not at %(phase)s."),
    "friend.card": _l(
        "The friend card is an A, a K, the red five (5♥) or a big joker, not %(card)s."
    ),
    "phase.play": _l("Cards are played in the play, not at %(phase)s."),
    "play.empty": _l("Play at least one card."),
    "throw.no_trump": _l("The trump is not settled yet: there is no lead to judge."),
    "level.passed_a": _l("Only a side at A can have passed A, not a side at %(level)s."),
    "must_play.type": _l("Must-play levels are a list of levels such as 5, A, not %(got)s."),
    "gain.type": _l("A level gain is a whole number, 0 or more, not %(got)s."),
    "kitty.component": _l("A lead's largest part holds 1 to %(most)s cards (a hand), not %(got)s."),
    "kitty.mode": _l("Unknown kitty multiplier rule %(got)s; it is one of %(modes)s."),
    "variant.type": _l("A game variant is expected, not %(got)s."),
    "total.type": _l("The attackers' total is a whole number, 0 or more, not %(got)s."),
    "number.type": _l("A whole number is expected for %(what)s, not %(got)s."),
    "points.range": _l("Points %(points)s is outside 0 to %(total)s (100 per deck)."),
    "points.multiple": _l("Points %(points)s is not a multiple of 5."),
    "kitty_points.negative": _l("Kitty points %(points)s is below 0."),
    "kitty_points.multiple": _l("Kitty points %(points)s is not a multiple of 5."),
    "kitty_points.no_kitty": _l(
        "This game has no kitty, so its kitty points are 0, not %(points)s."
    ),
    "kitty_points.most": _l(
        "Kitty points %(points)s is more than a kitty of %(kitty)s cards can hold (%(most)s)."
    ),
    "kitty_points.total": _l(
        "Points %(points)s plus kitty points %(kitty_points)s is more than the %(total)s "
        "points in the decks."
    ),
    "multiplier.no_kitty": _l("This game has no kitty, so there is no kitty multiplier."),
    "multiplier.impossible": _l(
        "Kitty multiplier %(multiplier)s is not possible with the rule %(mode)s "
        "(possible: %(possible)s%(more)s)."
    ),
    "throws.tractor_type": _l(
        "Failed throws in 升级 are counted for the declarer and the attackers, not %(got)s."
    ),
    "throws.sides": _l("Failed throws name only the declarer and the attackers, not %(got)s."),
    "throws.count": _l(
        "Failed throws of the %(side)s must be a whole number, 0 or more, not %(got)s."
    ),
    "throws.red_five_type": _l(
        "Failed throws in red five are a list of the throwers' seats, not %(got)s."
    ),
    "throws.seat": _l("Failed throw by seat %(got)s: there is no such seat."),
    "throws.cards": _l(
        "A failed throw of the %(side)s took back 1 to %(most)s cards, not %(got)s."
    ),
    "throws.per_card": _l(
        "With 10 points per card, the failed throws of the %(side)s are a list of the cards "
        "each took back, not the count %(got)s."
    ),
    "penalties.type": _l("The penalties are a list of a kind and the side at fault, not %(got)s."),
    "penalty.type": _l("A penalty of a side is expected, not %(got)s."),
    "penalty.item": _l("Penalty %(index)s is a kind and the side at fault, not %(got)s."),
    "penalty.fields": _l("Penalty %(index)s has fields other than kind, side and seat: %(got)s."),
    "penalty.kind": _l("Penalty %(index)s: %(got)s is not a penalty; the kinds are %(kinds)s."),
    "penalty.no_kitty": _l("Penalty %(index)s: there is no kitty, so no wrong kitty."),
    "penalty.side": _l(
        "Penalty %(index)s: the side at fault is the declarer or the attackers, not %(got)s."
    ),
    "penalty.kitty_side": _l(
        "Penalty %(index)s: only the declarer side buries, so only it can bury a wrong kitty."
    ),
    "penalty.seat": _l("Penalty %(index)s: %(got)s is not a seat at this table."),
    "penalty.kitty_seat": _l(
        "Penalty %(index)s: only the dealer (seat %(dealer)s) buries, so seat %(seat)s cannot "
        "bury a wrong kitty."
    ),
    "throws.one_twenty": _l(
        "120 points has no failed-throw points: a failed throw is a misplay (a level to "
        "the other side)."
    ),
    "decks.tractor": _l("升级 is played with 2 or 4 decks, not %(got)s."),
    "players.range": _l("A table has 2 to 6 players, not %(got)s."),
    "winner.type": _l("The winner is the declarer or the attackers, not %(got)s."),
    "units.type": _l("Red five units are a whole number 0 to 4, not %(got)s."),
    "scoring.seat": _l("A seat of this table is expected for %(what)s, not %(got)s."),
    "result.dealer_needed": _l("A red five deal needs its dealer's seat."),
    "result.friend_is_dealer": _l(
        "The friend cannot be the dealer (give no friend when the dealer plays alone)."
    ),
    "result.grabbed_alone": _l("A grabbed friend needs a friend: the dealer played alone."),
    "result.red_five_only": _l("Dealer, friend and grabbed friend belong to red five deals only."),
    "levels.pair": _l("A fixed-side deal has exactly two sides' levels, not %(got)s."),
    "result.type": _l("A deal result is expected, not %(got)s."),
    "misplays.type": _l("Misplays are a list of sides 0 or 1, not %(got)s."),
    "declarer.side": _l("The declaring side is 0 or 1, not %(got)s."),
    "result.no_levels": _l("A red five result has no levels."),
    "misplay.side": _l("A misplay is recorded by side 0 or 1, not %(got)s."),
    "save.deal_type": _l("Only a deal can be saved here, not %(got)s."),
    "log.type": _l("An action log is a list of actions."),
    "log.action": _l("Action %(action)s of the log (%(kind)s by seat %(seat)s): %(cause)s"),
    "save.not_json": _l("Not JSON: %(detail)s"),
    "save.deal_object": _l("A saved deal is a JSON object."),
    "save.schema": _l("Unknown format %(got)s; this engine reads format %(schema)s."),
    "save.deal_fields": _l("A saved deal has a setup and a log."),
    "save.deal_state": _l("The saved state does not match what its log replays to."),
    "save.game_type": _l("Only a game can be saved here, not %(got)s."),
    "save.game_object": _l("A saved game is a JSON object of format %(schema)s."),
    "save.game_fields": _l("A saved game has its rules and its deals' logs."),
    "save.game_action": _l("Deal %(deal)s, action %(action)s: %(cause)s"),
    "save.game_unfinished": _l("Deal %(deal)s of the saved game is not finished, yet more follow."),
    "save.game_state": _l("The saved game state does not match what its logs replay to."),
    "game.over": _l("The game is over: a side has passed A."),
    "game.deal_unfinished": _l("Finish the current deal first."),
    "game.not_current": _l("Only the game's current deal can be recorded."),
    "game.recorded": _l("This deal is already recorded."),
    "game.not_finished": _l("The deal is not finished."),
    "view.deal_type": _l("A view shows a deal, not %(got)s."),
    "bots.deal_type": _l("Bots play a deal, not %(got)s."),
    "bots.not_turn": _l("It is not seat %(seat)s's turn to act (%(phase)s)."),
    "bots.nothing_to_choose": _l("Seat %(seat)s has no %(what)s to choose now (%(phase)s)."),
    "action.type": _l("An action is a kind, a seat and its cards, not %(got)s."),
    "action.arity": _l("A %(kind)s action is a kind, a seat and cards, not %(got)s."),
    "action.unknown": _l("Unknown action %(got)s."),
    "bots.no_follow": _l("No legal follow was found."),
    "bots.seed": _l("A bot's seed is a whole number, not %(got)s."),
    "bots.rate": _l("%(name)s is a probability between 0 and 1, not %(got)s."),
    "bots.nothing_to_do": _l("Seat %(seat)s has nothing to do at %(phase)s."),
    "bots.players": _l("A table has 1 to 6 players, not %(got)s."),
    "bots.kind": _l("Unknown bot kind %(got)s; bots are random, heuristic or mc."),
    "bots.option": _l("%(name)s must be %(what)s, not %(got)s."),
    "bots.view_phase": _l("The search bot reads a seat's view of the play phase."),
    "bots.view_cards": _l("The seat's view does not add up to a pack of cards."),
    "bots.list_type": _l("Bots are a list of bots, not %(got)s."),
    "bots.count": _l("%(variant)s needs %(need)s bots, not %(got)s."),
    "case.type": _l("A case is a JSON object, not %(got)s."),
    "case.variant_type": _l("A case is answered for a game variant, not %(got)s."),
    "case.no_field": _l("The case has no %(field)s field."),
    "case.card": _l(
        "Unknown card %(text)s: cards are written rank then suit, such as 10H, QS, 2C, or HJ / LJ."
    ),
    "case.field_error": _l("%(field)s: %(cause)s"),
    "case.card_lists": _l("%(field)s must be a list of card lists."),
    "case.item_error": _l("%(field)s[%(index)s]: %(cause)s"),
    "case.variant": _l("The variant must be a variant name, not %(got)s."),
    "case.decks": _l("%(variant)s is played with 3 decks, not %(got)s."),
    "case.level": _l("The level must be a level such as 7 or A, not %(got)s."),
    "case.trump": _l("The trump must be S, H, D, C or nothing, not %(got)s."),
    "case.cards_empty": _l("The cards are empty: there is nothing to classify."),
    "case.plays_empty": _l("The plays are empty: a trick needs at least the lead."),
    "case.plays_count": _l("%(variant)s has %(players)s players, not %(got)s plays."),
    "case.lead_empty": _l("The lead has no cards."),
    "case.follow_count": _l("The lead has %(lead)s cards, but the play has %(play)s."),
    "case.follow_hand": _l("The play uses %(n)s × %(card)s, but the hand holds %(held)s."),
    "case.throw_empty": _l("The throw has no cards."),
    "case.others_count": _l("%(variant)s has only %(others)s other players."),
    "case.last_empty": _l(
        "The last lead is empty: give the cards led to the last trick, or nothing."
    ),
    "case.levels_before": _l(
        "levels_before gives the declarer's and the attackers' levels, not %(got)s."
    ),
    "case.levels_before_level": _l("levels_before %(role)s: %(got)s is not a level."),
    "case.points": _l("The points must be a whole number, 0 or more, not %(got)s."),
    "case.friend_is_dealer": _l(
        "The friend cannot be the dealer (write null when the dealer plays alone)."
    ),
    "case.grabbed": _l("Grabbed friend is yes or no, not %(got)s."),
    "case.calls": _l("The calls must be a list of seats and cards."),
    "case.call_item": _l("Call %(index)s must have a seat and cards."),
    "case.call_error": _l("Call %(index)s: %(cause)s"),
    "case.dealer_side": _l("The dealer's side must be a list of seats."),
    "case.no_id": _l("The case has no id."),
    "case.query": _l("Unknown query %(got)s; the queries are %(queries)s."),
    "case.depends": _l("%(cause)s, and the answer depends on it."),
    "option.place_points": _l(
        "Option %(name)s takes a list of whole numbers, first place first and never rising, "
        "or nothing, not %(got)s."
    ),
    "option.place_points_count": _l(
        "The points by place need %(players)s numbers (one per place), not %(got)s."
    ),
    "case.climb_empty": _l("%(field)s is empty: give the cards."),
    "case.climb_standing": _l("The standing cards are no play, so nothing can beat them."),
    "climb.standing_invalid": _l("%(cards)s is no play, so it cannot be the standing play."),
    "climb.hand_empty": _l("The hand has no cards."),
    "climb.decks": _l("Climbing is played with 1 or 2 decks, not %(got)s."),
    "climb.variant": _l("A game of climbing is expected, not %(got)s."),
    "climb.out_order": _l(
        "The order of going out names every seat of the table once, not %(got)s."
    ),
    "climb.setup_places": _l(
        "The winner and the loser are two different seats of this table (or both unknown), "
        "not %(got)s."
    ),
    "climb.phase_tribute": _l("No tribute is given now: the deal is at %(phase)s."),
    "climb.phase_return": _l("No card is given back now: the deal is at %(phase)s."),
    "climb.tribute_highest": _l(
        "The tribute is a card of your highest rank (%(rank)s), not %(card)s."
    ),
    "climb.no_play": _l(
        "%(cards)s is no play: play a single, a pair, a triple, four or more of a rank, "
        "or a straight."
    ),
    "climb.same_kind": _l("Beat the standing %(kind)s with a higher %(kind)s, not with a %(got)s."),
    "climb.not_higher": _l("%(cards)s does not beat %(standing)s: play higher or pass."),
    "climb.lead_pass": _l("You lead this round: play, you cannot pass."),
    "climb.unfinished": _l("The deal is not over yet."),
    "climb.one_card": _l("%(kind)s is exactly one card, not %(got)s."),
    "climb.shape": _l("The shape of a play, or nothing, is expected, not %(got)s."),
    # 打百分
    "hundred.trump": _l(
        "Trump is a suit, S, H, D or C (this game always has a trump suit), not %(got)s."
    ),
    "hundred.lead": _l(
        "A lead is one card, cards of one suit (all trumps count as one suit) or the four cards "
        "of one rank; %(cards)s is none of these."
    ),
    "hundred.follow_horizontal": _l(
        "To a horizontal throw play one card of each suit you hold: %(cards)s has none of "
        "your %(suits)s."
    ),
    "auction.over": _l("The bidding is over."),
    "auction.bid": _l("A bid is 60 to 100 in steps of 5, not %(got)s."),
    "auction.higher": _l("A bid must be higher than the standing %(standing)s, not %(got)s."),
    "hundred.bid": _l("The winning bid is 60 to 100 in steps of 5, not %(got)s."),
    "hundred.no_bid": _l("%(variant)s has no bidding: a turned card names trump."),
    "hundred.no_friend": _l("%(variant)s has no friend: the sides are fixed."),
    "hundred.friend_is_declarer": _l(
        "The friend cannot be the declarer (write null when the declarer plays alone)."
    ),
    "hundred.points": _l("The attackers' points are 0 to 100 in steps of 5, not %(got)s."),
    "hundred.last_won_by": _l(
        "Who won the last trick (last_won_by) is declarer or attackers, not %(got)s."
    ),
    "hundred.kitty_points": _l(
        "Points %(points)s plus the kitty's %(kitty_points)s is more than the 100 in the deck."
    ),
    "hundred.kitty_needed": _l(
        "The attackers won the last trick: give the buried cards (the kitty)."
    ),
    "hundred.act_value": _l("The value of an action is a bid or a suit, not %(got)s."),
    "hundred.setup_declarer": _l(
        "Only a later deal of forty-4p names its declarer in the setup, as a seat of this "
        "table, not %(got)s."
    ),
    "hundred.friend_card": _l(
        "The friend card is a card you neither hold nor have buried, not %(card)s."
    ),
    "hundred.friend_one": _l("Calling a friend names exactly one card."),
    "case.bids": _l(
        "The bids must be a list of a seat and a bid each (60 to 100, or null for a pass)."
    ),
    "case.bid_item": _l("Bid %(index)s must be an object with a seat and a bid."),
    "case.bid_seat": _l("Bid %(index)s: the seat is a whole number, not %(got)s."),
    "case.bid_value": _l(
        "Bid %(index)s: a bid is a whole number, or null for a pass, not %(got)s."
    ),
}

SUIT_WORDS: dict[str, Any] = {
    "S": _l("spades"),
    "H": _l("hearts"),
    "D": _l("diamonds"),
    "C": _l("clubs"),
    "trump": _l("trumps"),
    "trumps": _l("trumps"),
}

PHASE_WORDS: dict[str, Any] = {
    "draw": _l("the deal"),
    "calls": _l("calling trump"),
    "redeal": _l("the redeal"),
    "bury": _l("the burial"),
    "overcall": _l("overcalls"),
    "friend": _l("calling the friend"),
    "play": _l("the play"),
    "done": _l("the end"),
    "tribute": _l("the tribute"),
    "return": _l("the return of a card"),
}

SIDE_WORDS: dict[str, Any] = {"declarer": _l("declarer"), "attackers": _l("attackers")}

UNIT_WORDS: dict[str, Any] = {"pair": _l("a pair"), "triple": _l("a triple"), "quad": _l("a quad")}

TRACTOR_WORDS: dict[str, Any] = {
    "pair": _l("a tractor of %(length)s pairs"),
    "triple": _l("a tractor of %(length)s triples"),
    "quad": _l("a tractor of %(length)s quads"),
}

# the kinds of play in climbing (engine.climbing.KINDS), as engine.climbing_deal words them
CLIMB_KIND_WORDS: dict[str, Any] = {
    "single": _l("single"),
    "pair": _l("pair"),
    "triple": _l("triple"),
    "quad": _l("quad"),
}

CLIMB_SIZED_WORDS: dict[str, Any] = {
    "set": _l("set of %(size)s"),
    "straight": _l("straight of %(size)s"),
}

# the card one gives in climbing before the first lead (climbing_deal's action kinds)
GIVING_WORDS: dict[str, Any] = {"tribute": _l("The tribute"), "return": _l("The card given back")}

# climbing ranks (engine.climbing.RANK_NAMES) that are words rather than printed ranks
RANK_WORDS: dict[str, Any] = {"LJ": _l("small joker"), "HJ": _l("big joker")}

# seat numbers the engine counts from 0; the pages count them from 1
SEAT_PARAMS = frozenset({"seat", "to_act", "caller", "dealer"})


def _face(code: object) -> str:
    try:
        return str(face_of(str(code))["label"])
    except EngineError:
        return str(code)


def _demand(demand: Any) -> str:
    """One part of the shape a follow must give (``engine.play``'s ``demands`` parameter)."""
    kind = demand.get("kind") if isinstance(demand, dict) else None
    if kind in UNIT_WORDS:
        return str(UNIT_WORDS[kind])
    if kind == "tractor" and demand.get("unit") in TRACTOR_WORDS:
        return str(TRACTOR_WORDS[demand["unit"]] % {"length": demand.get("length")})
    if kind == "handled":
        return _(
            "a handled tractor of %(triples)s triples and %(pairs)s pairs",
            triples=demand.get("triples"),
            pairs=demand.get("pairs"),
        )
    return str(demand)


def _climb_kind(words: Any) -> Any:
    """A kind of play in climbing as the engine words it (``"a pair"``, ``"a straight of 5"``,
    ``"a set of 6"``: ``climbing_deal._kind_words``) in the reader's language."""
    m = re.fullmatch(r"an? (\w+)(?: of (\d+))?", str(words))
    if m is None:
        return words
    kind, size = m.groups()
    if size is None and kind in CLIMB_KIND_WORDS:
        return str(CLIMB_KIND_WORDS[kind])
    if size is not None and kind in CLIMB_SIZED_WORDS:
        return str(CLIMB_SIZED_WORDS[kind] % {"size": size})
    return words


def _separator() -> str:
    return _(", ")  # between the items of a list: "、" in Chinese


def _value(name: str, value: Any) -> Any:
    if name == "cause" and isinstance(value, dict):
        return refusal_words(str(value.get("code")), value.get("params") or {}, str(value))
    if name in SEAT_PARAMS and type(value) is int:
        return value + 1
    if name == "seats" and isinstance(value, list):
        return _separator().join(str(s + 1) if type(s) is int else str(s) for s in value)
    if name == "card" and isinstance(value, str):
        return _face(value)
    if name in ("cards", "standing") and isinstance(value, list):
        return " ".join(_face(c) for c in value)
    if name == "rank" and value in RANK_WORDS:
        return str(RANK_WORDS[value])
    if name == "suit" and value in SUIT_WORDS:
        return str(SUIT_WORDS[value])
    if name == "suits" and isinstance(value, str):  # 打百分: "S, trumps", the suits missing
        return _separator().join(str(SUIT_WORDS.get(s, s)) for s in value.split(", "))
    if name == "phase" and value in PHASE_WORDS:
        return str(PHASE_WORDS[value])
    if name == "side" and value in SIDE_WORDS:
        return str(SIDE_WORDS[value])
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def refusal_words(code: str, params: dict[str, Any], fallback: str) -> str:
    """The reader's sentence for an engine code and its parameters (``fallback`` when the code
    has no words here, which the tests do not allow)."""
    template = REFUSALS.get(code)
    if template is None:
        return fallback
    values = {name: _value(name, v) for name, v in params.items()}
    if code == "follow.shape" and isinstance(params.get("demands"), list):
        values["shape"] = _separator().join(_demand(d) for d in params["demands"])
    if code == "climb.same_kind":
        values["kind"] = _climb_kind(params.get("kind"))
        values["got"] = _climb_kind(params.get("got"))
    if code == "climb.one_card" and params.get("kind") in GIVING_WORDS:
        values["kind"] = str(GIVING_WORDS[params["kind"]])
    try:
        return str(template) % values
    except (KeyError, TypeError, ValueError):  # a parameter the engine did not give
        return fallback


def refusal_text(err: EngineError) -> str:
    """What the reader sees when the engine refuses: ``err`` worded in the current locale."""
    return refusal_words(err.code, err.params, str(err))
