"""A tournament as plain frozen data, field for field as ``shared/formats/TOURNAMENT.md``.

Nothing here touches a database or Flask: the web layer maps its rows to these classes (and
back), the tournament file is read into them, and matches, standings and pairing work on them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from engine.variants import CLIMBING, RED_FIVE, Variant, make_variant

FORMAT_ID = "shengji-tournament/1"
PAIRINGS = ("round-robin", "swiss", "reseat")
MODES = ("paper", "online")
# how a fixed-side match with equal final levels is decided: a draw, the side on stage (台上: the
# declaring side of the last deal) wins, or one extra deal decides (its winner wins the match)
TIE_BREAKS = ("draw", "on_stage", "extra_deal")
TRUMPS = ("S", "H", "D", "C")
WARNING = "warning"  # a conduct warning (警告) stored among a deal's penalties; it scores nothing


@dataclass(frozen=True)
class FailedThrows:
    """tractor-4p: failed throws per side in one deal (counts above 3 are capped when scored).

    ``cards`` (``throw_penalty: ten_per_card``): the cards each failed throw took back, per side
    (declarer side, attackers); the counts are then their lengths (``per_card``)."""

    declarer: int = 0
    attackers: int = 0
    cards: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @classmethod
    def per_card(cls, declarer: tuple[int, ...], attackers: tuple[int, ...]) -> FailedThrows:
        return cls(len(declarer), len(attackers), (tuple(declarer), tuple(attackers)))

    def as_engine(self) -> dict[str, Any]:
        if self.cards is not None:
            return {"declarer": list(self.cards[0]), "attackers": list(self.cards[1])}
        return {"declarer": self.declarer, "attackers": self.attackers}

    def as_json(self) -> dict[str, Any]:
        """The tournament file's (and the database's) form: counts, or lists of cards."""
        return self.as_engine()

    def __bool__(self) -> bool:
        return bool(self.declarer or self.attackers)


@dataclass(frozen=True)
class Tribute:
    """争上游's 进贡 before a deal: the previous deal's loser (``giver``, a seat) gave ``card``
    (a card code such as ``"2S"`` or ``"HJ"``) to its winner (``receiver``)."""

    giver: int
    receiver: int
    card: str

    def as_json(self) -> dict[str, Any]:
        return {"from": self.giver, "to": self.receiver, "card": self.card}


@dataclass(frozen=True)
class Deal:
    """One row of the paper score sheet (记分表), typed or recorded by the engine online.

    Fixed sides use ``declarer`` (the dealer's side index), red five ``dealer`` and ``friend``
    (seats; ``friend`` None when the dealer played alone). ``multiplier`` 0 means the attackers
    did not win the last trick. ``failed_throws``: ``FailedThrows`` in tractor-4p, a tuple of the
    throwers' seats in red five, None otherwise. ``misplays``: 120分 side indexes, one per
    misplay. ``level``: the level written on the sheet, if any. ``penalties``: the competition
    penalties of the deal (RULES §7) in the order they happened, each ``(kind, at_fault)``: the
    side at fault as ``"declarer"`` / ``"attackers"`` (fixed sides) or a seat (red five).
    ``warnings``: the director's warnings for conduct (警告), each ``(seat, reason)``; they count
    for nothing (RULES §7).
    """

    points: int
    kitty: int
    trump: str | None = None
    declarer: int | None = None
    dealer: int | None = None
    friend: int | None = None
    multiplier: int = 0
    failed_throws: FailedThrows | tuple[int, ...] | None = None
    friend_grabbed: bool = False
    misplays: tuple[int, ...] = ()
    level: str | None = None
    penalties: tuple[tuple[str, str | int], ...] = ()
    warnings: tuple[tuple[int, str], ...] = ()
    # 争上游 (climbing): each seat's place 1 … n (seat 0 first), and the tribute (进贡) paid
    # before this deal; the trick fields stay at their defaults (points and kitty 0)
    places: tuple[int | None, ...] | None = None
    tribute: Tribute | None = None

    def warnings_json(self) -> list[dict[str, Any]]:
        """The warnings as stored beside the penalties and written in the tournament file."""
        return [{"kind": WARNING, "seat": seat, "reason": reason} for seat, reason in self.warnings]

    def engine_penalties(self) -> list[dict[str, Any]]:
        """The penalties in the engine's (and the tournament file's) JSON form."""
        out: list[dict[str, Any]] = []
        for kind, who in self.penalties:
            if isinstance(who, str):
                out.append({"kind": kind, "side": who})
            else:
                out.append({"kind": kind, "seat": who})
        return out

    def engine_failed_throws(self) -> Any:
        ft = self.failed_throws
        if isinstance(ft, FailedThrows):
            return ft.as_engine()
        if ft:
            return list(ft)
        return None


@dataclass(frozen=True)
class Table:
    """A table of one round: a fixed-side match (``sides``), a red five table (``players`` by
    seat), or a bye (``bye``: the entrant without a table; nothing else set)."""

    table: int
    sides: tuple[str, str] | None = None
    players: tuple[str, ...] | None = None
    bye: str | None = None
    forfeit: int | None = None  # the side index that did not play
    mode: str = "paper"
    finished: bool = False
    deals: tuple[Deal, ...] = ()
    # a match by time after the director's last-deal call: the deals the table may play in all
    # (the deal in progress at the call included; an extra deal may follow on equal levels)
    last_deal: int | None = None
    # a match of a number of deals the director ended before its last deal (``finished`` set):
    # why (time ran out, a player left); the match is scored on the deals played
    end_reason: str | None = None

    @property
    def is_bye(self) -> bool:
        return self.bye is not None

    @property
    def entrants(self) -> tuple[str, ...]:
        if self.bye is not None:
            return (self.bye,)
        return tuple(self.sides or self.players or ())


@dataclass(frozen=True)
class Round:
    round: int
    tables: tuple[Table, ...] = ()

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(t.bye for t in self.tables if t.bye is not None)

    @property
    def playing(self) -> tuple[Table, ...]:
        return tuple(t for t in self.tables if t.bye is None)


P = TypeVar("P")


def seats_in_round(
    players: Sequence[P], substitutes: Iterable[tuple[int, int, P]], round_no: int
) -> list[P]:
    """Who plays each seat of a side in round ``round_no``: ``players`` as they entered, each
    seat taken by its latest substitute ``(seat, from_round, who)`` whose round has come."""
    out = list(players)
    for seat, from_round, who in sorted(substitutes, key=lambda s: s[1]):
        if from_round <= round_no and 0 <= seat < len(out):
            out[seat] = who
    return out


@dataclass(frozen=True)
class Substitute:
    """From round ``from_round`` on, ``name`` plays seat ``seat`` (within the side) instead of
    whoever played it before; ``reason``: the director's words, if any."""

    seat: int
    from_round: int
    name: str
    reason: str | None = None


@dataclass(frozen=True)
class Entrant:
    """A pair, a trio or a single player; ``players`` in seat order within the side, as they
    entered; ``substitutes``: who took a seat from a round on (the entrant's results stand,
    each deal is credited to whoever played it: ``players_in``)."""

    name: str
    players: tuple[str, ...]
    withdrawn_after: int | None = None
    substitutes: tuple[Substitute, ...] = ()

    def active_in(self, round_no: int) -> bool:
        return self.withdrawn_after is None or round_no <= self.withdrawn_after

    def players_in(self, round_no: int) -> tuple[str, ...]:
        """The players who played for the entrant in round ``round_no``, in seat order: the
        one place that says who is credited with a round's deals."""
        if not self.substitutes:
            return self.players
        subs = ((s.seat, s.from_round, s.name) for s in self.substitutes)
        return tuple(seats_in_round(self.players, subs, round_no))


@dataclass(frozen=True)
class MatchSpec:
    """Exactly one of: a number of deals, a time limit in minutes, or play until a side passes
    ``target`` (A; "first past 10" plays to 10). ``tie_break`` (``TIE_BREAKS``) decides a
    fixed-side match whose final levels are equal."""

    deals: int | None = None
    minutes: int | None = None
    to_a: bool = False
    tie_break: str = "draw"
    target: str = "A"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any]
        if self.deals is not None:
            out = {"deals": self.deals}
        elif self.minutes is not None:
            out = {"minutes": self.minutes}
        else:
            out = {"to_a": True}
            if self.target != "A":
                out["target"] = self.target
        if self.tie_break != "draw":
            out["tie_break"] = self.tie_break
        return out


@dataclass(frozen=True)
class PointsSpec:
    """Match points (场分); ``bye`` None means "as a win"."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int | None = None
    forfeit_level_diff: int = 3

    @property
    def bye_points(self) -> int:
        return self.win if self.bye is None else self.bye


@dataclass(frozen=True)
class Tournament:
    club: str
    name: str
    variant: str
    pairing: str
    rounds: int
    match: MatchSpec
    points: PointsSpec = PointsSpec()
    options: Mapping[str, Any] = field(default_factory=dict)
    entrants: tuple[Entrant, ...] = ()
    played: tuple[Round, ...] = ()
    date: str | None = None  # ISO 8601 date of the night ("2026-12-04")
    venue: str | None = None
    season: str | None = None  # the name of a season of the same club
    division: str | None = None  # the name of one of that season's divisions
    draw_seed: int | None = None  # the first round's random draw (see ``drawn_entrants``)
    preset: str | None = None  # the rule preset the tournament started from (``presets``)

    @cached_property
    def drawn_entrants(self) -> tuple[Entrant, ...]:
        """The entrants in the order pairing uses: as entered, or shuffled by the recorded
        draw seed (the same seed always gives the same order)."""
        if self.draw_seed is None:
            return self.entrants
        order = list(self.entrants)
        random.Random(self.draw_seed).shuffle(order)
        return tuple(order)

    @cached_property
    def rules(self) -> Variant:
        """The engine variant with this tournament's options (validated)."""
        return make_variant(self.variant, self.options)

    @property
    def fixed_sides(self) -> bool:
        from engine.hundred_rules import is_family, make_hundred_variant

        if is_family(self.variant):  # 打百分: pairs in fixed and forty-4p (competition.hundred)
            return make_hundred_variant(self.variant, self.options).fixed_pairs
        return self.variant not in (RED_FIVE, CLIMBING)

    @property
    def climbing(self) -> bool:
        """争上游: individuals re-seated each round as red five's, scored by place."""
        return self.variant == CLIMBING

    @cached_property
    def entrant_map(self) -> dict[str, Entrant]:
        return {e.name: e for e in self.entrants}

    def active_entrants(self, round_no: int) -> list[Entrant]:
        return [e for e in self.entrants if e.active_in(round_no)]


def side_seats(players: int, side: int) -> tuple[int, ...]:
    """Fixed sides alternate round the table: side 0 in seats 0, 2 (, 4), side 1 in 1, 3 (, 5)."""
    return tuple(range(side, players, 2))


def seat_players(sides: tuple[Entrant, Entrant]) -> list[str]:
    """Players by seat for a fixed-side table: partners opposite (4) or alternating (6)."""
    a, b = sides
    if len(a.players) != len(b.players):
        raise ValueError("both sides of a table have the same number of players")
    seats: list[str] = []
    for pa, pb in zip(a.players, b.players, strict=True):
        seats += [pa, pb]
    return seats
