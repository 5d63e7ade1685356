"""Bots for 争上游: ``ClimbingRandomBot`` (a random legal player) and ``ClimbingHeuristicBot``
(keeps straights and pairs together, passes while a play would break a stronger combination,
goes out when it can).

``act(deal, seat)`` returns the action for the seat ``deal.to_act`` as a tuple
``(kind, seat, *args)`` — ``("play", seat, cards)``, ``("pass", seat)``, ``("tribute", seat,
card)``, ``("return", seat, card)`` — which ``perform`` applies. A bot reads only its own hand
and the public table (the standing play, the card counts).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from . import climbing as rules
from . import draws
from .climbing_deal import PLAY, RETURN, TRIBUTE, ClimbingDeal, _plays_from
from .deal import Record
from .errors import EngineError, IllegalAction

Action = tuple[Any, ...]


def _check_acting(deal: object, seat: object) -> ClimbingDeal:
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("bots.deal_type", got=repr(deal))
    s = deal._seat(seat)
    if deal.to_act != s:
        raise IllegalAction("bots.not_turn", seat=s, phase=deal.phase)
    return deal


def _check_turn(deal: object, seat: object, phase: str, what: str) -> ClimbingDeal:
    d = _check_acting(deal, seat)
    if d.phase != phase:
        raise IllegalAction("bots.nothing_to_choose", seat=seat, what=what, phase=d.phase)
    return d


def perform(deal: ClimbingDeal, action: Any) -> Record:
    """Apply a bot action ``(kind, seat, *args)`` to the deal."""
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("deal.type", got=repr(deal))
    if not isinstance(action, tuple | list) or len(action) < 2:
        raise IllegalAction("action.type", got=repr(action))
    kind, seat = action[0], action[1]
    if kind in ("play", "tribute", "return") and len(action) != 3:
        raise IllegalAction("action.arity", kind=repr(kind), got=repr(action))
    if kind == "play":
        return deal.play(seat, action[2])
    if kind == "pass":
        return deal.pass_(seat)
    if kind == "tribute":
        return deal.tribute(seat, action[2])
    if kind == "return":
        return deal.give_back(seat, action[2])
    raise IllegalAction("action.unknown", got=repr(kind))


class ClimbingRandomBot:
    """Plays a random legal move: to a standing play, passes with probability ``pass_rate``
    (and when it cannot beat it), else a random beating play; any lead at random."""

    def __init__(self, seed: int = 0, pass_rate: float = 0.3) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise EngineError("bots.seed", got=repr(seed))
        if isinstance(pass_rate, bool) or not isinstance(pass_rate, int | float):
            raise EngineError("bots.rate", name="pass_rate", got=repr(pass_rate))
        if not 0 <= pass_rate <= 1:
            raise EngineError("bots.rate", name="pass_rate", got=repr(pass_rate))
        self.rng = random.Random(seed)
        self.pass_rate = float(pass_rate)

    def act(self, deal: ClimbingDeal, seat: int) -> Action:
        d = _check_acting(deal, seat)
        if d.phase == TRIBUTE:
            return ("tribute", seat, self._choose_tribute(d, seat))
        if d.phase == RETURN:
            return ("return", seat, self._choose_return(d, seat))
        if d.phase != PLAY:  # pragma: no cover - to_act is None in the other phases
            raise IllegalAction("bots.nothing_to_do", seat=seat, phase=d.phase)
        play = self._choose_play(d, seat)
        return ("pass", seat) if play is None else ("play", seat, play)

    def choose_tribute(self, deal: ClimbingDeal, seat: int) -> int:
        """The card the loser gives (one of his highest rank)."""
        return self._choose_tribute(_check_turn(deal, seat, TRIBUTE, "tribute"), seat)

    def choose_return(self, deal: ClimbingDeal, seat: int) -> int:
        """The card the winner gives back."""
        return self._choose_return(_check_turn(deal, seat, RETURN, "card to give back"), seat)

    def choose_play(self, deal: ClimbingDeal, seat: int) -> list[int] | None:
        """The cards to play, or ``None`` to pass."""
        return self._choose_play(_check_turn(deal, seat, PLAY, "play"), seat)

    def _choose_tribute(self, deal: ClimbingDeal, seat: int) -> int:
        rank = deal.tribute_rank()
        top = [c for c in deal.hands[seat] if rules.crank(c) == rank]
        return draws.choice(self.rng, sorted(top))

    def _choose_return(self, deal: ClimbingDeal, seat: int) -> int:
        return draws.choice(self.rng, sorted(deal.hands[seat]))

    def _choose_play(self, deal: ClimbingDeal, seat: int) -> list[int] | None:
        plays = _plays_from(deal.hands[seat], deal.standing_shape)
        if deal.standing is not None and (not plays or self.rng.random() < self.pass_rate):
            return None
        return list(draws.choice(self.rng, plays))


def units(hand: Sequence[int]) -> list[list[int]]:
    """The hand cut into the combinations a player keeps together: every rank held two or more
    times as one n-of-a-kind, then runs of three or more consecutive single ranks (3 … A) as
    straights, the rest as singles; lowest first."""
    by_rank: list[list[int]] = [[] for _ in range(rules.RANK_COUNT)]
    for c in sorted(rules._checked(hand, "the hand")):
        by_rank[rules._CRANK[c]].append(c)
    out: list[list[int]] = []
    run: list[int] = []
    for r in range(rules.RANK_COUNT):
        cards = by_rank[r]
        if len(cards) == 1 and r <= rules.ACE:
            run.append(cards[0])
            continue
        _flush(run, out)
        run = []
        if cards:
            out.append(list(cards))
    _flush(run, out)
    out.sort(key=lambda u: (rules._CRANK[u[-1]], -len(u)))
    return out


def _flush(run: list[int], out: list[list[int]]) -> None:
    if len(run) >= 3:
        out.append(list(run))
    else:
        out.extend([c] for c in run)


class ClimbingHeuristicBot(ClimbingRandomBot):
    """Goes out when the whole hand is one play that may be played; otherwise plays whole
    combinations of its hand (``units``): it leads its lowest combination, beats a standing
    play with the lowest combination that does it without breaking another, and passes while
    every beating play would break a stronger combination — unless a player still in is down
    to a play's worth of cards, when it beats with the lowest play it has."""

    def _choose_return(self, deal: ClimbingDeal, seat: int) -> int:
        hand = deal.hands[seat]
        singles = [u[0] for u in units(hand) if len(u) == 1]
        pool = singles or hand
        return min(pool, key=rules.sort_key)

    def _choose_play(self, deal: ClimbingDeal, seat: int) -> list[int] | None:
        hand = deal.hands[seat]
        st = deal.standing_shape
        whole = rules._shape(hand)
        if whole.valid and (st is None or rules._beats(st, whole)):
            return list(hand)  # go out
        mine = units(hand)
        if st is None:
            # lead the lowest combination, longer ones first at the same height
            return list(mine[0])
        clean = [
            u for u in mine if rules._beats(st, rules._shape(u))
        ]  # whole combinations that beat it
        if clean:
            return list(clean[0])
        plays = _plays_from(hand, st)
        if not plays:
            return None
        danger = any(
            len(deal.hands[s]) <= st.size for s in range(deal.n) if s != seat and s not in deal.out
        )
        if danger:
            return list(plays[0])
        return None


def make_bots(kind: str, players: int, seed: int = 0) -> list[ClimbingRandomBot]:
    """One bot per seat: ``kind`` is ``random`` or ``heuristic``."""
    if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
        raise EngineError("bots.players", got=repr(players))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError("seed.type", got=repr(seed))
    if kind == "random":
        return [ClimbingRandomBot(seed * 1000 + s) for s in range(players)]
    if kind == "heuristic":
        return [ClimbingHeuristicBot(seed * 1000 + s) for s in range(players)]
    raise IllegalAction("bots.kind", got=repr(kind))


def play_deal(deal: ClimbingDeal, bots: Sequence[ClimbingRandomBot]) -> ClimbingDeal:
    """Run the deal to its end with one bot per seat."""
    if not isinstance(deal, ClimbingDeal):
        raise EngineError("bots.deal_type", got=repr(deal))
    if not isinstance(bots, Sequence) or not all(isinstance(b, ClimbingRandomBot) for b in bots):
        raise EngineError("bots.list_type", got=repr(bots))
    if len(bots) != deal.n:
        raise IllegalAction("bots.count", variant=deal.variant.id, need=deal.n, got=len(bots))
    while deal.outcome is None:
        if deal.phase == "draw":
            deal.draw()
            continue
        seat = deal.to_act
        assert seat is not None
        perform(deal, bots[seat].act(deal, seat))
    return deal
