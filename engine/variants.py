"""Every game of the engine by its id, and the three trick variants as frozen data with every
option of RULES.md and its default.

``ALL_VARIANT_IDS`` names the seven games: the trick variants of RULES.md (tractor-4p,
red-five-5p, one-twenty-6p), 打百分's family of HUNDRED.md (hundred-4p, forty-4p, hundred-3p) and
争上游 of CLIMBING.md (climbing); ``option_names``, ``option_spec`` and ``default_options`` answer
for each. ``make_variant("tractor-4p", {"decks": 4})`` validates the options of a trick game or
争上游 and returns a ``Variant``; ``make_any_variant`` builds any of the seven, 打百分's as an
``engine.hundred_rules.HundredVariant``. A variant is plain data: the rules modules read it,
nothing in it acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .cards import CARDS_PER_DECK, POINTS_PER_DECK, RANKS
from .errors import OptionError

if TYPE_CHECKING:
    from .hundred_rules import HundredVariant

TRACTOR: Final = "tractor-4p"
RED_FIVE: Final = "red-five-5p"
ONE_TWENTY: Final = "one-twenty-6p"
VARIANT_IDS: Final[tuple[str, ...]] = (TRACTOR, RED_FIVE, ONE_TWENTY)
# 争上游 (CLIMBING.md): a game of individuals with its own state machine (engine.climbing_deal),
# not a trick game of engine.deal, so it is not among VARIANT_IDS
CLIMBING: Final = "climbing"
# 打百分 (HUNDRED.md): one deck, an auction, its own state machine (engine.hundred) and options
# (engine.hundred_rules builds its variants)
HUNDRED_4P: Final = "hundred-4p"
FORTY_4P: Final = "forty-4p"
HUNDRED_3P: Final = "hundred-3p"
HUNDRED_IDS: Final[tuple[str, ...]] = (HUNDRED_4P, FORTY_4P, HUNDRED_3P)
# every game of the engine, in the order the app offers them
ALL_VARIANT_IDS: Final[tuple[str, ...]] = (*VARIANT_IDS, *HUNDRED_IDS, CLIMBING)

LEVELS: Final[tuple[str, ...]] = RANKS  # "2" … "A"


@dataclass(frozen=True)
class OptionSpec:
    name: str
    choices: tuple[Any, ...] | None  # None: validated by ``kind``
    kind: str  # "choice", "bool", "points_or_null", "count_or_null", "levels"
    help: str  # plain words, shown to a tournament director


_SPECS: Final[dict[str, OptionSpec]] = {
    "decks": OptionSpec(
        "decks", (2, 4), "choice", "Number of decks (4 decks: no kitty, hidden calls)"
    ),
    "triple_tractors": OptionSpec(
        "triple_tractors", (True, False), "bool", "Consecutive triples form a tractor"
    ),
    "kitty_multiplier": OptionSpec(
        "kitty_multiplier",
        ("by_shape", "power", "double"),
        "choice",
        "Kitty bonus when the attackers win the last trick: 2 × cards of the largest "
        "component (by_shape), 2 to that power (power), or always × 2 (double)",
    ),
    "throw_penalty": OptionSpec(
        "throw_penalty",
        ("ten_per_attempt", "ten_per_card", "none"),
        "choice",
        "Failed throw: 10 points to the other side per attempt (ten_per_attempt) or 10 per card "
        "taken back (ten_per_card), at most 3 failed throws per side and deal",
    ),
    "no_call_trump": OptionSpec(
        "no_call_trump",
        ("kitty", "spades"),
        "choice",
        "Nobody called: turn kitty cards until one names the trump suit, or spades are trump",
    ),
    "redeal_below": OptionSpec(
        "redeal_below", None, "points_or_null", "An attacker with fewer points may ask for a redeal"
    ),
    "refuse_below": OptionSpec(
        "refuse_below",
        None,
        "points_or_null",
        "Opponents may refuse a deal when a hand has fewer points",
    ),
    "score_table": OptionSpec("score_table", ("units60",), "choice", "Red five score table"),
    "must_play_levels": OptionSpec(
        "must_play_levels", None, "levels", "Levels a gain may never skip"
    ),
    "revoke_effect": OptionSpec(
        "revoke_effect",
        ("ends_deal", "extra_level"),
        "choice",
        "A revoke (出错牌) ends the deal (declarer side at fault: the attackers take over; "
        "attackers at fault: the declarer side gains 1), or gives the other side one extra level",
    ),
    "takeback_effect": OptionSpec(
        "takeback_effect",
        ("level", "warning"),
        "choice",
        "A take-back (悔牌) costs its side one level (red five: 4 积分), or is a warning only",
    ),
    "strikes_lose_match": OptionSpec(
        "strikes_lose_match",
        None,
        "count_or_null",
        "A side whose penalties in one match reach this count loses it as a forfeit",
    ),
}

# options whose name another variant uses with other values (climbing's decks)
_VARIANT_SPECS: Final[dict[str, dict[str, OptionSpec]]] = {
    CLIMBING: {
        "decks": OptionSpec("decks", (1, 2), "choice", "Number of decks (2 for 6 players or more)"),
        "players": OptionSpec("players", (3, 4, 5, 6), "choice", "Number of players"),
        "tribute": OptionSpec(
            "tribute",
            (True, False),
            "bool",
            "From the second deal the last player gives his highest card to the first, who "
            "gives one back and leads (false: the turned card decides every first lead)",
        ),
        "place_points": OptionSpec(
            "place_points",
            None,
            "place_points",
            "Points by place, first place first (null: players - 1 for the first out down to 0)",
        ),
    }
}

_VARIANT_OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    TRACTOR: (
        "decks",
        "triple_tractors",
        "kitty_multiplier",
        "throw_penalty",
        "no_call_trump",
        "redeal_below",
        "must_play_levels",
        "revoke_effect",
        "takeback_effect",
        "strikes_lose_match",
    ),
    RED_FIVE: ("triple_tractors", "kitty_multiplier", "score_table", "takeback_effect"),
    ONE_TWENTY: (
        "triple_tractors",
        "kitty_multiplier",
        "refuse_below",
        "must_play_levels",
        "revoke_effect",
        "takeback_effect",
        "strikes_lose_match",
    ),
    CLIMBING: ("players", "decks", "tribute", "place_points"),
}


def option_names(variant_id: str) -> tuple[str, ...]:
    """The names of a game's options (打百分's from ``engine.hundred_rules``)."""
    if is_hundred(variant_id):
        from .hundred_rules import family_option_names

        return family_option_names(variant_id)
    _check_id(variant_id)
    return _VARIANT_OPTIONS[variant_id]


def is_hundred(variant_id: object) -> bool:
    """Whether ``variant_id`` names a game of 打百分's family."""
    return isinstance(variant_id, str) and variant_id in HUNDRED_IDS


def option_spec(name: str, variant_id: str | None = None) -> OptionSpec:
    """The option's spec; ``variant_id`` for a variant's own values (climbing's ``decks``, 打百分's
    options)."""
    if variant_id is not None and is_hundred(variant_id):
        from .hundred_rules import OPTION_HELP, family_option_choices

        if not isinstance(name, str) or name not in option_names(variant_id):
            raise OptionError(
                "option.not_for_variant",
                variant=variant_id,
                got=repr(name),
                options=", ".join(option_names(variant_id)),
            )
        values = family_option_choices(name)
        return OptionSpec(
            name, values, "bool" if isinstance(values[0], bool) else "choice", OPTION_HELP[name]
        )
    if variant_id is not None:
        _check_id(variant_id)
        own = _VARIANT_SPECS.get(variant_id, {})
        if isinstance(name, str) and name in own:
            return own[name]
    if not isinstance(name, str) or name not in _SPECS:
        known = [*_SPECS, *(n for s in _VARIANT_SPECS.values() for n in s if n not in _SPECS)]
        raise OptionError("option.unknown", got=repr(name), options=", ".join(known))
    return _SPECS[name]


def default_options(variant_id: str, decks: int | None = None) -> dict[str, Any]:
    """The defaults of RULES.md ("Options at a glance"); some depend on the number of decks.
    打百分's are HUNDRED.md's (``engine.hundred_rules``)."""
    if is_hundred(variant_id):
        from .hundred_rules import make_hundred_variant

        return dict(make_hundred_variant(variant_id).options)
    _check_id(variant_id)
    if variant_id == CLIMBING:
        return {"players": 4, "decks": 1, "tribute": True, "place_points": None}
    if variant_id != TRACTOR:
        decks = None  # only tractor-4p has a choice of decks
    elif decks is not None:
        decks = _check_option(TRACTOR, "decks", decks)
    if variant_id == TRACTOR:
        d = decks or 2
        return {
            "decks": d,
            "triple_tractors": True,
            "kitty_multiplier": "by_shape",
            "throw_penalty": "ten_per_attempt",
            "no_call_trump": "spades" if d == 4 else "kitty",
            "redeal_below": 15,
            "must_play_levels": ["A"],
            "revoke_effect": "ends_deal",
            "takeback_effect": "level",
            "strikes_lose_match": None,
        }
    if variant_id == RED_FIVE:
        return {
            "triple_tractors": True,
            "kitty_multiplier": "by_shape",
            "score_table": "units60",
            "takeback_effect": "level",
        }
    return {
        "triple_tractors": True,
        "kitty_multiplier": "double",
        "refuse_below": 20,
        "must_play_levels": ["A"],
        "revoke_effect": "extra_level",
        "takeback_effect": "level",
        "strikes_lose_match": None,
    }


@dataclass(frozen=True)
class Variant:
    id: str
    players: int
    decks: int
    kitty: int
    hand: int
    options: Mapping[str, Any] = field(hash=False, compare=True)

    @property
    def total_points(self) -> int:
        return POINTS_PER_DECK * self.decks

    @property
    def fixed_sides(self) -> bool:
        return self.id != RED_FIVE and self.id != CLIMBING

    @property
    def triples(self) -> bool:
        """Triples (and so tractors of triples) exist with 3 or more decks."""
        return self.decks >= 3

    @property
    def quads(self) -> bool:
        return self.decks >= 4

    @property
    def must_play_levels(self) -> tuple[str, ...]:
        return tuple(self.options.get("must_play_levels", ["A"]))

    def check_seat(self, seat: object) -> int:
        """``seat`` itself if it is a seat of this variant; raise ``OptionError`` otherwise."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise OptionError("seat.range", got=repr(seat), last=self.players - 1)
        return seat

    def side_of(self, seat: int) -> int:
        """Fixed sides alternate: {0,2(,4)} is side 0, {1,3(,5)} side 1."""
        if not self.fixed_sides:
            raise OptionError("variant.no_sides")
        return self.check_seat(seat) % 2

    def side_seats(self, side: int) -> tuple[int, ...]:
        if side not in (0, 1) or isinstance(side, bool):
            raise OptionError("side.range", got=repr(side))
        return tuple(s for s in range(self.players) if s % 2 == side)

    def option(self, name: str) -> Any:
        if not isinstance(name, str) or name not in self.options:
            raise OptionError("variant.no_option", variant=self.id, got=repr(name))
        return self.options[name]

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.id, "options": dict(self.options)}


def _check_id(variant_id: object) -> None:
    if not isinstance(variant_id, str) or variant_id not in _VARIANT_OPTIONS:
        raise OptionError(
            "variant.unknown", got=repr(variant_id), variants=", ".join(ALL_VARIANT_IDS)
        )


def _check_option(variant_id: str, name: str, value: Any) -> Any:
    if not isinstance(name, str) or name not in _VARIANT_OPTIONS[variant_id]:
        allowed = ", ".join(_VARIANT_OPTIONS[variant_id])
        raise OptionError(
            "option.not_for_variant", variant=variant_id, got=repr(name), options=allowed
        )
    spec = _VARIANT_SPECS.get(variant_id, {}).get(name) or _SPECS[name]
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise OptionError("option.bool", name=name, got=repr(value))
        return value
    if spec.kind == "choice":
        assert spec.choices is not None
        # bool is an int subclass: refuse True for decks=1 lookalikes
        if isinstance(value, bool) or value not in spec.choices:
            allowed = ", ".join(repr(c) for c in spec.choices)
            raise OptionError("option.choice", name=name, choices=allowed, got=repr(value))
        return value
    if spec.kind == "points_or_null":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value % 5:
            raise OptionError("option.points", name=name, got=repr(value))
        return value
    if spec.kind == "count_or_null":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError("option.count", name=name, got=repr(value))
        return value
    if spec.kind == "levels":
        if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, str) and v in LEVELS for v in value
        ):
            raise OptionError("option.levels", name=name, got=repr(value))
        levels = sorted(set(value), key=LEVELS.index)
        if "A" not in levels:
            levels.append("A")  # A is always a level that cannot be skipped
        return levels
    if spec.kind == "place_points":
        if value is None:
            return None
        if (
            not isinstance(value, (list, tuple))
            or not value
            or not all(type(v) is int for v in value)
            or any(value[i] < value[i + 1] for i in range(len(value) - 1))
        ):
            raise OptionError("option.place_points", name=name, got=repr(value))
        return list(value)
    raise AssertionError(spec.kind)  # pragma: no cover


def make_variant(variant_id: str, options: Mapping[str, Any] | None = None) -> Variant:
    """Build a validated variant of a trick game or 争上游; unknown options or bad values raise
    ``OptionError``. 打百分's family has its own kind of variant: ``make_any_variant``."""
    if is_hundred(variant_id):
        raise OptionError("variant.family", got=repr(variant_id))
    _check_id(variant_id)
    if not isinstance(options, (Mapping, type(None))):
        raise OptionError("options.type", got=repr(options))
    given = dict(options or {})
    if variant_id == CLIMBING:
        return _make_climbing(given)
    decks = given.get("decks", 2) if variant_id == TRACTOR else 3
    if variant_id == TRACTOR:
        decks = _check_option(variant_id, "decks", decks)
    merged = default_options(variant_id, decks)
    for name, value in given.items():
        merged[name] = _check_option(variant_id, name, value)
    if variant_id == TRACTOR:
        players, kitty = 4, (8 if decks == 2 else 0)
    elif variant_id == RED_FIVE:
        players, kitty = 5, 7
    else:
        players, kitty = 6, 6
    hand = (CARDS_PER_DECK * decks - kitty) // players
    return Variant(variant_id, players, decks, kitty, hand, merged)


def make_any_variant(
    variant_id: str, options: Mapping[str, Any] | None = None
) -> Variant | HundredVariant:
    """Build a validated variant of any of the seven games of ``ALL_VARIANT_IDS``: a
    ``HundredVariant`` for 打百分's family (``engine.hundred_rules``), a ``Variant`` otherwise."""
    if is_hundred(variant_id):
        from .hundred_rules import make_hundred_variant

        return make_hundred_variant(variant_id, options)
    return make_variant(variant_id, options)


def _make_climbing(given: dict[str, Any]) -> Variant:
    """争上游: every card dealt, the first drawers' hands one card longer (``hand`` is the short
    one); ``place_points`` stays ``None`` for the default n − 1 … 0 (``climbing.place_points``)."""
    merged = default_options(CLIMBING)
    for name, value in given.items():
        merged[name] = _check_option(CLIMBING, name, value)
    players, decks = merged["players"], merged["decks"]
    points = merged["place_points"]
    if points is not None and len(points) != players:
        raise OptionError("option.place_points_count", players=players, got=len(points))
    return Variant(CLIMBING, players, decks, 0, CARDS_PER_DECK * decks // players, merged)
