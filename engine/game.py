"""A game: a sequence of deals with levels, the next dealer, and the end at A (RULES.md §5).

``Game(variant, options, seed)`` hands out deals one at a time (``next_deal()``); after a deal is
done, ``record(deal)`` applies its outcome: levels (with 120分 misplays and must-play levels),
the next dealer, a redeal with the same dealer, a refused 120分 deal followed by a race. The game
ends when a side wins a deal as declarer at A (``over``). Red five has no levels: its game is a
number of deals, and ``scores`` adds up each seat's 积分. Deal seeds come from the game seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .deal import Deal, DealSetup
from .errors import EngineError, IllegalAction
from .scoring import next_dealer, next_levels
from .variants import ONE_TWENTY, RED_FIVE, make_variant


@dataclass(frozen=True)
class DealSummary:
    deal_no: int
    outcome: str
    dealer: int | None
    trump: str | None
    level: str | None
    points: int | None  # the attackers' total after kitty and penalties
    winner: str | None
    gain: int | None  # levels (fixed sides) or units (red five)
    levels_after: tuple[str, str]
    friend: int | None = None
    scores: tuple[int, ...] | None = None
    misplays: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["levels_after"] = list(self.levels_after)
        d["scores"] = None if self.scores is None else list(self.scores)
        d["misplays"] = list(self.misplays)
        return d


class Game:
    def __init__(self, variant: str, options: dict[str, Any] | None = None, seed: int = 0) -> None:
        self.variant = make_variant(variant, options)
        self.options = dict(options or {})
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise EngineError("seed.type", got=repr(seed))
        self.seed = seed
        self._rng = random.Random(seed)
        self.levels: tuple[str, str] = ("2", "2")
        self.dealer: int | None = 0 if self.variant.id == RED_FIVE else None
        self.first = True
        self.race = False
        self.deal_no = 0  # deals played (redeals and refusals count: every shuffle is a deal)
        self.over = False
        self.passed_by: int | None = None  # the side that passed A
        self.scores = [0] * self.variant.players
        self.history: list[DealSummary] = []
        self.current: Deal | None = None
        self._deals: list[Deal] = []

    def next_deal(self) -> Deal:
        if self.over:
            raise IllegalAction("game.over")
        if self.current is not None and self.current.outcome is None:
            raise IllegalAction("game.deal_unfinished")
        self.deal_no += 1
        setup = DealSetup(
            self.variant.id,
            self.options,
            self._rng.getrandbits(48),
            self.levels,
            self.dealer,
            self.first,
            self.race,
            self.deal_no,
        )
        self.current = Deal(setup)
        self._deals.append(self.current)
        return self.current

    def record(self, deal: Deal) -> DealSummary:
        """Apply a finished deal's outcome to the game."""
        if deal is not self.current:
            raise IllegalAction("game.not_current")
        if self.history and len(self.history) == len(self._deals):
            raise IllegalAction("game.recorded")
        if deal.outcome is None:
            raise IllegalAction("game.not_finished")
        v = self.variant
        before = self.levels
        summary: DealSummary
        if deal.outcome == "redeal":
            # the dealer stays; 120分's first deal without a call is simply dealt again
            if deal.dealer is not None:
                self.dealer = deal.dealer
                self.first = False
            summary = DealSummary(
                deal.setup.deal_no,
                "redeal",
                deal.dealer,
                None,
                deal.level,
                None,
                None,
                None,
                before,
            )
        elif deal.outcome == "refused":
            self.race = True
            self.dealer = deal.dealer
            summary = DealSummary(
                deal.setup.deal_no,
                "refused",
                deal.dealer,
                None,
                deal.level,
                None,
                None,
                None,
                before,
            )
        else:
            r = deal.result
            assert r is not None and deal.dealer is not None
            self.race = False
            self.first = False
            if v.id == RED_FIVE:
                assert r.scores is not None
                self.scores = [a + b for a, b in zip(self.scores, r.scores, strict=True)]
                self.dealer = deal.dealer  # the previous dealer of the next deal
                summary = DealSummary(
                    deal.setup.deal_no,
                    "played",
                    deal.dealer,
                    deal.trump,
                    deal.level,
                    r.total,
                    r.winner,
                    r.units,
                    before,
                    friend=deal.friend,
                    scores=tuple(r.scores),
                )
            else:
                side = deal.dealer % 2
                misplays = deal.misplays() if v.id == ONE_TWENTY else []
                change = next_levels(self.levels, side, r, misplays, v.must_play_levels)
                self.levels = change.levels
                self.dealer = next_dealer(v, deal.dealer, r.winner)
                if change.passed:
                    self.over = True
                    self.passed_by = side
                summary = DealSummary(
                    deal.setup.deal_no,
                    "played",
                    deal.dealer,
                    deal.trump,
                    deal.level,
                    r.total,
                    r.winner,
                    r.levels,
                    self.levels,
                    misplays=tuple(misplays),
                )
        self.history.append(summary)
        return summary

    @property
    def deals(self) -> list[Deal]:
        """Every deal handed out so far, the current one last."""
        return list(self._deals)

    def state_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.id,
            "options": dict(self.options),
            "seed": self.seed,
            "levels": list(self.levels),
            "dealer": self.dealer,
            "first": self.first,
            "race": self.race,
            "deal_no": self.deal_no,
            "over": self.over,
            "passed_by": self.passed_by,
            "scores": list(self.scores),
            "history": [h.to_json() for h in self.history],
        }
