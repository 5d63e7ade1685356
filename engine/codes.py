"""The registry of engine error codes: code → English template (``str.format`` placeholders).

``EngineError(code, **params)`` words its sentence from here; an application keeps its own table
of the same codes in its readers' languages. Parameter names say what a value is: ``seat``,
``seats``, ``to_act``, ``caller``, ``dealer`` (seat numbers from 0), ``card``/``cards`` (card
strings such as ``"10H"``), ``suit`` (``S H D C`` or ``trumps``), ``phase`` (a deal phase),
``got`` (the repr of a value that was refused), ``what`` (an English phrase naming the argument,
for programmers), ``cause`` (the nested error a wrapping error reports).
"""

CODES: dict[str, str] = {
    # --- cards ---------------------------------------------------------------------------------
    "card.not_a_card": "{got} is not a card (a card is a number 0..53, or text such as '10H')",
    "card.rank_suit_type": "rank and suit are text such as '10' and 'H', not {got_rank} and {got_suit}",
    "card.no_such": "there is no card with rank {got_rank} and suit {got_suit}",
    "card.text_type": "a card is written as text such as '10H' or 'HJ', not {got}",
    "card.unknown": "unknown card {text}: write rank then suit, e.g. '10H', 'QS', 'HJ'",
    "cards.list_type_text": "a list of cards is expected, such as ['10H', 'QS'], not {got}",
    "cards.list_type": "a list of cards is expected, not {got}",
    "card.joker_rank": "a joker has no rank",
    "pack.decks": "a pack has 1 to 8 decks, not {got}",
    "decks.count": "a number of decks is a whole number 1 or more, not {got}",
    "cards.copies": "{what} hold {n} copies of {card}, but {decks} decks have only {decks}",
    # --- variants and options ------------------------------------------------------------------
    "option.unknown": "unknown option {got}; the options are {options}",
    "seat.range": "{got} is not a seat: seats are 0..{last}",
    "variant.no_sides": "red five has no fixed sides",
    "side.range": "{got} is not a side: the sides are 0 and 1",
    "variant.no_option": "{variant} has no option {got}",
    "variant.unknown": "unknown variant {got}; the variants are {variants}",
    "variant.family": "{got} is a game of 打百分's family: make_any_variant builds it",
    "option.not_for_variant": "{variant} has no option {got}; its options are {options}",
    "option.bool": "option {name} takes true or false, not {got}",
    "option.choice": "option {name} takes one of {choices}, not {got}",
    "option.points": "option {name} takes a number of points (a multiple of 5) or null, not {got}",
    "option.count": "option {name} takes a whole number 1 or more, or null, not {got}",
    "option.levels": 'option {name} takes a list of levels such as ["5", "10", "K", "A"], not {got}',
    "options.type": "options must be an object of option names to values, not {got}",
    "option.place_points": (
        "option {name} takes a list of whole numbers, first place first and never rising, "
        "or null, not {got}"
    ),
    "option.place_points_count": "place_points needs {players} numbers (one per place), not {got}",
    "card.not_a_number": "{got} is not a card (a card is a number 0..53)",
    # --- trump context and combinations --------------------------------------------------------
    "ctx.type": "a TrumpContext(variant, level, trump) is expected, not {got}",
    "ctx.variant": "a TrumpContext is built for a variant (make_variant), not {got}",
    "ctx.level": "unknown level {got}; a level is one of {levels}",
    "ctx.trump": "unknown trump suit {got}; write S, H, D, C or null (no trump)",
    "ctx.red_five_level": "in red-five-5p the level rank is always 2, not {level}",
    "ctx.red_five_trump": "red-five-5p always has a trump suit; null (no trump) is not possible",
    "suit.index": "{got} is not a suit index (0..3, or {trump} for trump)",
    "chain.position": "{got} is not a position of that suit's chain (0..{last})",
    "widths.type": "widths are a list of unit widths such as [2, 2], not {got}",
    "widths.ints": "widths are whole numbers such as [2, 2], not {got}",
    "classify.empty": "there are no cards to classify",
    # --- leading and following -----------------------------------------------------------------
    "lead.empty": "a lead needs at least one card",
    "lead.one_suit": "a lead must be of one suit (all trumps count as one suit); {cards} is not",
    "lead.not_a_card": "the lead holds {got}, which is not a card",
    "lead_comps.type": "lead_comps are the lead's components (lead_components), not {got}",
    "cards.unhashable": "{what} hold something that is not a card: {got}",
    "cards.holds_non_card": "{what} hold {got}, which is not a card",
    "hand.too_few": "{what} use {n} × {card} but the hand holds {held}",
    "hand.missing": "{card} is not in the hand",
    "follow.count": "the lead has {lead} cards, so play {lead}, not {play}",
    "follow.suit": "you hold {held} cards of {suit}: follow with {lead} of them, not {cards}",
    "follow.suit_all": (
        "you hold only {held} cards of {suit}: play all of them ({cards}) before other cards"
    ),
    "follow.shape": (
        "follow the lead's shape as far as your hand allows: your {suit} can give {shape}, "
        "and this play does not"
    ),
    "trick.empty": "a trick needs at least the lead",
    "trick.count": "play {index} has {got} cards but the lead has {lead}",
    # --- trump calls ---------------------------------------------------------------------------
    "level.unknown": "{got} is not a level; levels are {levels}",
    "call.variant_type": "a call is read for a variant (make_variant), not {got}",
    "call.cards_type": "a call is a list of cards, not {got}",
    "call.empty": "a call shows at least one card",
    "call.level_cards": "a call shows only level cards ({level}s) and jokers",
    "call.one_suit": "a call shows level cards of one suit only",
    "call.red_five": "in red five a call shows exactly one 2",
    "call.four_decks": "with 4 decks a call shows only level cards of one suit (no jokers)",
    "call.joker_pair": "a joker call is LJ LJ or HJ HJ; a joker alone is never a call",
    "call.tractor_shape": "a call is one or two level cards of a suit plus one joker of its colour",
    "call.joker_colour": "a call in {suit} needs the joker of its colour ({card}), not the other joker",
    "call.mixed": "a call shows level cards of one suit or identical jokers, not both",
    "call.jokers_identical": "a joker call shows identical jokers (LJ LJ …, or HJ HJ …)",
    "call.single_joker": "a single joker is not a call; it takes at least two identical jokers",
    "callbook.variant_type": "a call book is kept for a variant (make_variant), not {got}",
    "call.red_five_shown": "a 2 has already been shown; red five has no overcalls",
    "call.own": "your own call stands; you may not overcall yourself",
    "call.more_level_cards": "a call must show more level cards than the standing {count}",
    "call.stronger": "a call must be stronger than the standing call",
    "call.race_won": (
        "seat {caller} showed its side's level card first and won the race: no more calls"
    ),
    "call.race_level": "in a race, show your own side's level card: jokers do not call",
    "call.stronger_120": (
        "a call must show more cards than the standing call, or as many of a stronger kind "
        "(level cards < LJ < HJ)"
    ),
    "calls.variant_type": "calls are replayed for a variant (make_variant), not {got}",
    "calls.red_five_level": "red five is always played at level 2, not {level}",
    "deal_no.range": "the deal number is 1 or more, not {got}",
    "calls.dealer_side_type": "dealer_side is a list of seats, not {got}",
    "calls.list_type": "calls is a list of {{seat, cards}}",
    "calls.item": "call {index} is not a seat and a list of cards",
    "calls.item_cards": "call {index} shows a list of cards, not {got}",
    "calls.item_too_many": "call {index} shows more cards than a hand holds",
    "calls.seat": "{what}: {got} is not a seat; {variant} has seats 0 to {last}",
    # --- deal set-up and records -----------------------------------------------------------------
    "record.type": "an action record is an object with kind and seat, not {got}",
    "record.kind": "unknown action kind {got}; kinds are {kinds}",
    "record.kind_unknown": "unknown action kind {got}",
    "record.seat": "the seat of an action is a number, not {got}",
    "record.cards": "the cards of an action are a list, not {got}",
    "record.played": "the cards really played are a list, not {got}",
    "setup.type": "a deal setup is an object",
    "setup.unknown_fields": "unknown deal setup fields: {fields}",
    "setup.no_variant": "a deal setup names its variant",
    "setup.levels_type": "levels is a list of the two sides' levels, not {got}",
    "setup.levels": "levels are the two sides' levels, such as ['2', '5'], not {got}",
    "setup.red_five_level": "red five is always played at level 2",
    "setup.dealer": "the dealer is a seat 0 … {last}, not {got}",
    "setup.flags": "first and race are true or false",
    "setup.race": "only 120分 has race deals (after a refused deal)",
    "setup.later_dealer": "a later deal needs its dealer",
    "setup.pack": "a stacked pack holds exactly the {n} cards of the decks",
    "options.object": "options are an object of option names to values, not {got}",
    "cards.named_list": "{what} is a list of cards, not {got}",
    "seed.type": "a seed is a whole number, not {got}",
    "deal.setup_type": "a deal is built from a DealSetup, not {got}",
    "deal.type": "actions are applied to a Deal, not {got}",
    "log.draw_after": "the log draws a card after the deal",
    "log.seed_mismatch": (
        "the log does not match the seed: action {action} draws {cards} for seat {seat}"
    ),
    # --- actions in a deal -----------------------------------------------------------------------
    "seat.unknown": "{got} is not a seat; seats are 0 to {last}",
    "cards.list": "cards are a list, not {got}",
    "card.invalid": "{got} is not a card",
    "card.not_in_hand": "seat {seat} cannot {action} {card}: it is not in that hand",
    "card.too_few_in_hand": "seat {seat} cannot {action} {card} {n} times: it holds {held}",
    "turn.nobody": "no seat may {action} now (phase {phase})",
    "turn.not_yours": "it is seat {to_act}'s turn, not seat {seat}'s",
    "phase.draw_over": "all cards are dealt; the deal is in phase {phase}",
    "phase.no_calls": "no calls now: the deal is in phase {phase}",
    "call.after_deal": "seat {caller}'s call stands; overcalls (反主) come after the deal",
    "call.last_rounds": (
        "in the last two rounds of the deal only the previous dealer (seat {dealer}) "
        "may still declare"
    ),
    "call.dealer_side": "during the deal only the dealer's side may call (seats {seats})",
    "phase.pass": "there is nothing to pass on in phase {phase}",
    "phase.redeal": "a redeal can be asked only before the kitty is taken, not in {phase}",
    "redeal.points": "seat {seat} holds {points} points; a redeal needs a hand of fewer than {limit}",
    "phase.bury": "nothing is buried in phase {phase}",
    "bury.count": "bury exactly {need} cards, not {got}",
    "phase.friend": "the friend is called after the burial, not in phase {phase}",
    "friend.card": "the friend card is an A, a K, the red five (5H) or HJ, not {card}",
    "phase.play": "cards are played in the play phase, not in phase {phase}",
    "play.empty": "play at least one card",
    "throw.no_trump": "the trump is not settled yet: there is no lead to judge",
    # --- scoring ----------------------------------------------------------------------------------
    "level.passed_a": "only a side at A can have passed A, not a side at {level}",
    "must_play.type": 'must_play_levels is a list of levels such as ["5", "A"], not {got}',
    "gain.type": "a level gain is a whole number 0 or more, not {got}",
    "kitty.component": "a lead's largest component holds 1 … {most} cards (a hand), not {got}",
    "kitty.mode": "unknown kitty_multiplier {got}; it is one of {modes}",
    "variant.type": "a variant (make_variant) is expected, not {got}",
    "total.type": "the attackers' total is a whole number 0 or more, not {got}",
    "number.type": "{what} must be a whole number, not {got}",
    "points.range": "points {points} is outside 0 … {total} (100 per deck)",
    "points.multiple": "points {points} is not a multiple of 5",
    "kitty_points.negative": "kitty points {points} is below 0",
    "kitty_points.multiple": "kitty points {points} is not a multiple of 5",
    "kitty_points.no_kitty": "this variant has no kitty, so its kitty points are 0, not {points}",
    "kitty_points.most": (
        "kitty points {points} is more than a kitty of {kitty} cards can hold ({most})"
    ),
    "kitty_points.total": (
        "points {points} + kitty points {kitty_points} is more than the {total} points in the decks"
    ),
    "multiplier.no_kitty": "this variant has no kitty, so there is no kitty multiplier",
    "multiplier.impossible": (
        "kitty multiplier {multiplier} is not possible with kitty_multiplier {mode} "
        "(possible: {possible}{more})"
    ),
    "throws.tractor_type": (
        'failed throws in tractor-4p are {{"declarer": n, "attackers": m}}, not {got}'
    ),
    "throws.sides": "failed throws name only the sides 'declarer' and 'attackers', not {got}",
    "throws.count": "failed throws of the {side} must be a whole number 0 or more, not {got}",
    "throws.red_five_type": "failed throws in red five are a list of the throwers' seats, not {got}",
    "throws.seat": "failed throw by seat {got}: seats are 0 … {last}",
    "throws.cards": (
        "a failed throw of the {side} took back 1 … {most} cards (a list entry), not {got}"
    ),
    "throws.per_card": (
        "with throw_penalty ten_per_card, the {side}'s failed throws are a list of the cards "
        "each took back, not the count {got}"
    ),
    "penalties.type": (
        'penalties are a list such as [{{"kind": "revoke", "side": "declarer"}}], not {got}'
    ),
    "penalty.type": "a penalty of a fixed side (Penalty with side) is expected, not {got}",
    "penalty.item": 'penalty {index} is an object {{"kind": …, "side": …}}, not {got}',
    "penalty.fields": "penalty {index} has fields other than kind, side and seat: {got}",
    "penalty.kind": "penalty {index}: {got} is not a penalty; the kinds are {kinds}",
    "penalty.no_kitty": "penalty {index}: there is no kitty, so no wrong kitty (wrong_kitty)",
    "penalty.side": "penalty {index}: the side at fault is 'declarer' or 'attackers', not {got}",
    "penalty.kitty_side": (
        "penalty {index}: only the declarer side buries, so only it can bury a wrong kitty"
    ),
    "penalty.seat": "penalty {index}: the seat at fault is 0 … {last}, not {got}",
    "penalty.kitty_seat": (
        "penalty {index}: only the dealer (seat {dealer}) buries, so seat {seat} cannot bury "
        "a wrong kitty"
    ),
    "throws.one_twenty": (
        "120分 has no failed-throw points: a failed throw is a misplay (a level to the other side)"
    ),
    "decks.tractor": "tractor-4p is played with 2 or 4 decks, not {got}",
    "players.range": "a table has 2 to 6 players, not {got}",
    "winner.type": "the winner is 'declarer' or 'attackers', not {got}",
    "units.type": "red five units are a whole number 0 … 4, not {got}",
    "scoring.seat": "{what} must be a seat 0 … {last}, not {got}",
    "result.dealer_needed": "a red five deal needs its dealer's seat",
    "result.friend_is_dealer": "the friend cannot be the dealer (write no friend for 独打)",
    "result.grabbed_alone": "friend_grabbed needs a friend: the dealer played alone",
    "result.red_five_only": "dealer, friend and friend_grabbed belong to red five deals only",
    "levels.pair": "a fixed-side deal has exactly two sides' levels, not {got}",
    "result.type": "a deal result (deal_result) is expected, not {got}",
    "misplays.type": "misplays are a list of sides 0 or 1, not {got}",
    "declarer.side": "the declaring side is 0 or 1, not {got}",
    "result.no_levels": "a red five result has no levels",
    "misplay.side": "a misplay is recorded by side 0 or 1, not {got}",
    # --- saved deals and games ---------------------------------------------------------------------
    "save.deal_type": "to_json writes a Deal, not {got}",
    "log.type": "an action log is a list of actions",
    "log.action": "action {action} of the log ({kind} by seat {seat}): {cause}",
    "save.not_json": "not JSON: {detail}",
    "save.deal_object": "a saved deal is a JSON object",
    "save.schema": "unknown schema {got}; this engine reads schema {schema}",
    "save.deal_fields": "a saved deal has a setup and a log",
    "save.deal_state": "the saved state does not match what its log replays to",
    "save.game_type": "game_to_json writes a Game, not {got}",
    "save.game_object": "a saved game is a JSON object with schema {schema}",
    "save.game_fields": "a saved game has its rules (game) and its deals' logs (deals)",
    "save.game_action": "deal {deal}, action {action}: {cause}",
    "save.game_unfinished": "deal {deal} of the saved game is not finished, yet more follow",
    "save.game_state": "the saved game state does not match what its logs replay to",
    # --- games ---------------------------------------------------------------------------------------
    "game.over": "the game is over: a side has passed A",
    "game.deal_unfinished": "finish the current deal first",
    "game.not_current": "record the game's current deal",
    "game.recorded": "this deal is already recorded",
    "game.not_finished": "the deal is not finished",
    "view.deal_type": "a view is of a Deal, not {got}",
    # --- bots ----------------------------------------------------------------------------------------
    "bots.deal_type": "bots play a Deal, not {got}",
    "bots.not_turn": "it is not seat {seat}'s turn to act (phase {phase})",
    "bots.nothing_to_choose": "seat {seat} has no {what} to choose now (phase {phase})",
    "action.type": "a bot action is a tuple (kind, seat, *args), not {got}",
    "action.arity": "a {kind} action is (kind, seat, cards), not {got}",
    "action.unknown": "unknown action {got}",
    "bots.no_follow": "no legal follow found",
    "bots.seed": "a bot's seed is a whole number, not {got}",
    "bots.rate": "{name} is a probability between 0 and 1, not {got}",
    "bots.nothing_to_do": "seat {seat} has nothing to do in phase {phase}",
    "bots.players": "a table has 1 to 6 players, not {got}",
    "bots.kind": "unknown bot kind {got}; bots are random, heuristic or mc",
    "bots.option": "{name} must be {what}, not {got}",
    "bots.view_phase": "the search bot reads a seat's view of the play phase",
    "bots.view_cards": "the seat's view does not add up to a pack of cards",
    "bots.list_type": "bots are a list of bots (make_bots), not {got}",
    "bots.count": "{variant} needs {need} bots, not {got}",
    # --- 打百分, the one-deck bidding family (engine.hundred_rules, engine.hundred) -------------
    "hundred.trump": "the trump suit is S, H, D or C (this family always has one), not {got}",
    "hundred.lead": (
        "a lead is one card, cards of one suit (all trumps are one suit) or the four cards of "
        "one rank; {cards} is none of these"
    ),
    "hundred.follow_horizontal": (
        "to a horizontal throw play one card of each suit you hold: {cards} has none of {suits}"
    ),
    "auction.over": "the auction is over",
    "auction.bid": "a bid is 60 to 100 in steps of 5, not {got}",
    "auction.higher": "a bid must be higher than the standing {standing}, not {got}",
    "hundred.bid": "the winning bid is 60 to 100 in steps of 5, not {got}",
    "hundred.no_bid": "{variant} has no bidding: a turned card names trump",
    "hundred.no_friend": "{variant} has no friend: the sides are fixed",
    "hundred.friend_is_declarer": "the friend cannot be the declarer (write null when alone)",
    "hundred.points": "the attackers' points are 0 to 100 in steps of 5, not {got}",
    "hundred.last_won_by": "last_won_by is 'declarer' or 'attackers', not {got}",
    "hundred.kitty_points": (
        "points {points} and the kitty's {kitty_points} are more than the 100 in the deck"
    ),
    "hundred.kitty_needed": "the attackers won the last trick: give the buried cards (kitty)",
    "hundred.act_value": "the value of an action is a bid or a suit, not {got}",
    "hundred.setup_declarer": (
        "only a later 40分下台 deal names its declarer (a seat 0 … 3) in the setup, not {got}"
    ),
    "hundred.friend_card": (
        "the friend card is a card the declarer does not hold nor buried, not {card}"
    ),
    "hundred.friend_one": "a friend action names exactly one card",
    # --- rule cases (python -m engine.conformance) ------------------------------------------------
    "case.type": "a case is a JSON object, not {got}",
    "case.variant_type": "a case is answered for a variant (make_variant), not {got}",
    "case.no_field": "the case has no {field} field",
    "case.card": (
        "unknown card {text}: cards are written rank then suit, such as "
        "'10H', 'QS', '2C', or 'HJ' / 'LJ'"
    ),
    "case.field_error": "{field}: {cause}",
    "case.card_lists": '{field} must be a list of card lists, such as [["AH"], ["3S"]]',
    "case.item_error": "{field}[{index}]: {cause}",
    "case.variant": "variant must be a variant name, not {got}",
    "case.decks": "{variant} is played with 3 decks, not {got}",
    "case.level": 'level must be a level such as "7" or "A", not {got}',
    "case.trump": "trump must be S, H, D, C or null, not {got}",
    "case.cards_empty": "cards is empty: there is nothing to classify",
    "case.plays_empty": "plays is empty: a trick needs at least the lead",
    "case.plays_count": "{variant} has {players} players, not {got} plays",
    "case.lead_empty": "the lead has no cards",
    "case.follow_count": "the lead has {lead} cards but the play has {play}",
    "case.follow_hand": "the play uses {n} × {card} but the hand holds {held}",
    "case.throw_empty": "the throw has no cards",
    "case.others_count": "{variant} has only {others} other players",
    "case.last_empty": "last is empty: give the cards led to the last trick, or null",
    "case.levels_before": (
        'levels_before is {{"declarer": L, "attackers": L}} with levels such as "7", not {got}'
    ),
    "case.levels_before_level": "levels_before {role}: {got} is not a level (2 … 10, J, Q, K, A)",
    "case.points": "points must be a whole number 0 or more, not {got}",
    "case.friend_is_dealer": "the friend cannot be the dealer (write null for 独打)",
    "case.grabbed": "friend_grabbed is true or false, not {got}",
    "case.calls": 'calls must be a list of {{"seat": n, "cards": [...]}}',
    "case.call_item": "call {index} must be an object with seat and cards",
    "case.call_error": "call {index}: {cause}",
    "case.dealer_side": "dealer_side must be a list of seats",
    "case.no_id": "the case has no id",
    "case.query": "unknown query {got}; the queries are {queries}",
    "case.depends": "{cause}, and the answer depends on it",
    "case.climb_empty": "{field} is empty: give the cards",
    "case.climb_standing": "the standing cards are no play, so nothing can beat them",
    # --- 争上游 (climbing) -----------------------------------------------------------------------
    "climb.standing_invalid": "{cards} is no play, so it cannot be the standing play",
    "climb.hand_empty": "the hand has no cards",
    "climb.decks": "climbing is played with 1 or 2 decks, not {got}",
    "climb.variant": "a climbing variant (make_variant('climbing')) is expected, not {got}",
    "climb.out_order": "the order of going out names every seat 0 … {last} once, not {got}",
    "climb.setup_places": (
        "winner and loser are two different seats 0 … {last} (or both null), not {got}"
    ),
    "climb.phase_tribute": "no tribute is given in phase {phase}",
    "climb.phase_return": "no card is given back in phase {phase}",
    "climb.tribute_highest": "the tribute is the highest card, a {rank}, not {card}",
    "climb.no_play": "{cards} is no play: play a single, a pair, a triple, four or more of a rank, "
    "or a straight",
    "climb.same_kind": "beat {kind} with a higher one of the same kind, not with {got}",
    "climb.not_higher": "{cards} does not beat {standing}: play higher or pass",
    "climb.lead_pass": "the leader of a round plays; he cannot pass",
    "climb.unfinished": "the deal is not over yet",
    "climb.one_card": "a {kind} gives one card, not {got}",
    "climb.shape": "a play's shape (climbing.classify) or None is expected, not {got}",
    "case.bids": 'bids must be a list of {{"seat": n, "bid": 60 … 100 or null}}',
    "case.bid_item": "bid {index} must be an object with seat and bid",
    "case.bid_seat": "bid {index}: the seat is a whole number, not {got}",
    "case.bid_value": "bid {index}: a bid is a whole number or null (a pass), not {got}",
}
