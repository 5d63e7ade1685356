"""Checks of what the tournament code passes in: a clear PrintError, never a broken page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.hundred_rules import HUNDRED_3P
from engine.hundred_rules import is_family as is_hundred
from engine.variants import CLIMBING, LEVELS, ONE_TWENTY, RED_FIVE, TRACTOR

from .layout import _clean
from .model import (
    SUITS,
    ClimbingDeal,
    FixedDeal,
    HundredDeal,
    PrintError,
    RedFiveDeal,
    ScoreSheet,
    SeatLink,
    TableCard,
)
from .words import PAPER_GAMES, PENALTY_KINDS, _check_variant

# --------------------------------------------------------------------------------------------
# Validation of the input dataclasses
# --------------------------------------------------------------------------------------------

_PLAYERS = {TRACTOR: 4, RED_FIVE: 5, ONE_TWENTY: 6}
CLIMBING_PLAYERS = (3, 4, 5, 6)  # 争上游: the ``players`` option


def _check_int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PrintError(f"{what} must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise PrintError(f"{what} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise PrintError(f"{what} must be at most {high}, not {value}")
    return value


def _check_level(value: object, what: str) -> str:
    if value not in LEVELS:
        raise PrintError(f"{what} must be a level 2 … A, not {value!r}")
    return str(value)


@dataclass(frozen=True)
class _Table:
    """A validated table: cleaned names, the variant's facts."""

    tournament: str
    club: str
    round: int
    table: int
    variant: str
    seats: tuple[str, ...]
    sides: tuple[str, ...]
    date: str
    links: tuple[SeatLink, ...] = ()
    entry_url: str = ""

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def fixed(self) -> bool:
        if is_hundred(self.variant):  # 打百分: pairs (fixed, 40分下台) have sides
            return bool(self.sides)
        return self.variant not in (RED_FIVE, CLIMBING)


def _check_table(src: TableCard | ScoreSheet, where: str) -> _Table:
    variant = _check_variant(src.variant, PAPER_GAMES)
    n = _players(src, variant, where)
    rnd = _check_int(src.round, f"{where}: round", 1)
    table = _check_int(src.table, f"{where}: table", 1)
    if not isinstance(src.seats, (tuple, list)) or len(src.seats) != n:
        raise PrintError(f"{where}: {variant} needs {n} seat names, got {src.seats!r}")
    seats = tuple(_clean(s, f"{where}: seat {i + 1}") for i, s in enumerate(src.seats))
    if is_hundred(variant) and not src.sides:  # 打百分's individual events
        sides: tuple[str, ...] = ()
    elif variant not in (RED_FIVE, CLIMBING):  # fixed sides: two entrants
        if not isinstance(src.sides, (tuple, list)) or len(src.sides) != 2:
            raise PrintError(f"{where}: {variant} needs the two sides' entrant names")
        sides = tuple(_clean(s, f"{where}: side {i}") for i, s in enumerate(src.sides))
    else:
        if src.sides:
            game = "red five" if variant == RED_FIVE else "争上游 (climbing)"
            raise PrintError(f"{where}: {game} has no fixed sides; leave sides empty")
        sides = ()
    return _Table(
        _clean(src.tournament, f"{where}: tournament"),
        _clean(src.club, f"{where}: club"),
        rnd,
        table,
        variant,
        seats,
        sides,
        _clean(src.date, f"{where}: date"),
        _check_links(src.links, n, where),
        _check_url(getattr(src, "entry_url", ""), f"{where}: score-entry page"),
    )


def _players(src: TableCard | ScoreSheet, variant: str, where: str) -> int:
    """The seats a table of the variant has: fixed, or 争上游's ``players`` option (a table card,
    which has no options, takes its number of names when it is one 争上游 plays with)."""
    if is_hundred(variant):
        return 3 if variant == HUNDRED_3P else 4
    if variant != CLIMBING:
        return _PLAYERS[variant]
    options = getattr(src, "options", None)
    if options is not None:
        n = options.get("players", 4) if isinstance(options, Mapping) else 4
    else:
        n = len(src.seats) if isinstance(src.seats, (tuple, list)) else 0
    if n not in CLIMBING_PLAYERS:
        raise PrintError(f"{where}: 争上游 is played by 3 to 6 players, not {n!r}")
    return int(n)


def _check_url(url: object, what: str) -> str:
    """A web address, or "" for none."""
    text = _clean(url, what)
    if text and (not text.startswith(("https://", "http://")) or len(text) > 500):
        raise PrintError(f"{what} must be a web address, not {text!r}")
    return text


def _check_links(links: object, n: int, where: str) -> tuple[SeatLink, ...]:
    if not isinstance(links, (tuple, list)) or (links and len(links) != n):
        raise PrintError(f"{where}: give a seat link for each of the {n} seats, or none")
    out = []
    for i, link in enumerate(links):
        if not isinstance(link, SeatLink):
            raise PrintError(f"{where}: seat {i + 1}'s link must be a SeatLink, not {link!r}")
        url = _check_url(link.url, f"{where}: seat {i + 1}'s link")
        if not url:
            raise PrintError(f"{where}: seat {i + 1}'s link must be a web address, not ''")
        out.append(SeatLink(url, _clean(link.member, f"{where}: seat {i + 1}'s member")))
    return tuple(out)


def _check_trump(value: object, what: str, allow_none: bool) -> None:
    if value is None and allow_none:
        return
    if value not in SUITS:
        allowed = "S, H, D, C" + (" or None (no trump)" if allow_none else "")
        raise PrintError(f"{what} must be one of {allowed}, not {value!r}")


def _check_climbing_deal(deal: object, players: int, what: str) -> None:
    if not isinstance(deal, ClimbingDeal):
        raise PrintError(f"{what}: a 争上游 sheet takes ClimbingDeal rows, not {deal!r}")
    if sorted(deal.places) != list(range(1, players + 1)):
        raise PrintError(f"{what}: places must be 1 … {players}, each once, not {deal.places!r}")
    if deal.tribute is not None:
        if not isinstance(deal.tribute, tuple) or len(deal.tribute) != 3:
            raise PrintError(f"{what}: the tribute is (from seat, to seat, card)")
        _check_int(deal.tribute[0], f"{what}: tribute from seat", 0, players - 1)
        _check_int(deal.tribute[1], f"{what}: tribute to seat", 0, players - 1)
        _clean(deal.tribute[2], f"{what}: tribute card")
    if deal.scores is not None and (
        len(deal.scores) != players or not all(isinstance(v, int) for v in deal.scores)
    ):
        raise PrintError(f"{what}: scores must be {players} whole numbers, not {deal.scores!r}")
    for item in deal.penalties:
        if not isinstance(item, tuple) or len(item) != 2 or item[0] != "takeback":
            raise PrintError(f'{what}: a 争上游 penalty is ("takeback", seat)')
        _check_int(item[1], f"{what}: penalty seat", 0, players - 1)
    for s in deal.warnings:
        _check_int(s, f"{what}: warned seat", 0, players - 1)


def _check_hundred_deal(deal: object, players: int, what: str) -> None:
    if not isinstance(deal, HundredDeal):
        raise PrintError(f"{what}: a 打百分 sheet takes HundredDeal rows, not {deal!r}")
    _check_int(deal.declarer, f"{what}: declarer", 0, players - 1)
    _check_trump(deal.trump, f"{what}: trump", allow_none=False)
    if deal.points is not None:
        _check_int(deal.points, f"{what}: points", 0, 100)
    if deal.bid is not None:
        _check_int(deal.bid, f"{what}: bid", 60, 100)
    if deal.friend is not None:
        _check_int(deal.friend, f"{what}: friend", 0, players - 1)
    if deal.kitty is not None:
        _check_int(deal.kitty, f"{what}: kitty", 0, 100)
    _clean(deal.turned, f"{what}: turned card")
    _clean(deal.friend_card, f"{what}: friend card")
    if deal.winner not in (None, "declarer", "attackers"):
        raise PrintError(f"{what}: the winner is declarer or attackers, not {deal.winner!r}")
    if deal.scores is not None and (
        len(deal.scores) != players or not all(isinstance(v, int) for v in deal.scores)
    ):
        raise PrintError(f"{what}: scores must be {players} whole numbers, not {deal.scores!r}")
    for item in deal.penalties:
        if (
            not isinstance(item, tuple)
            or len(item) != 2
            or item[0] not in ("revoke", "miscount", "takeback")
            or item[1] not in ("declarer", "attackers")
        ):
            raise PrintError(f'{what}: a 打百分 penalty is (kind, "declarer" / "attackers")')
    for s in deal.warnings:
        _check_int(s, f"{what}: warned seat", 0, players - 1)


def _check_deal(deal: object, variant: str, i: int, where: str, players: int = 0) -> None:
    what = f"{where}: deal {i + 1}"
    if is_hundred(variant):
        _check_hundred_deal(deal, players, what)
        return
    if variant == CLIMBING:
        _check_climbing_deal(deal, players, what)
        return
    if variant == RED_FIVE:
        if not isinstance(deal, RedFiveDeal):
            raise PrintError(f"{what}: a red five sheet takes RedFiveDeal rows, not {deal!r}")
        _check_int(deal.dealer, f"{what}: dealer", 0, 4)
        if deal.friend is not None:
            _check_int(deal.friend, f"{what}: friend", 0, 4)
        _check_trump(deal.trump, f"{what}: trump", allow_none=False)
        for s in deal.failed_throws:
            _check_int(s, f"{what}: failed throw seat", 0, 4)
        if deal.scores is not None and (
            len(deal.scores) != 5 or not all(isinstance(v, int) for v in deal.scores)
        ):
            raise PrintError(f"{what}: scores must be five whole numbers, not {deal.scores!r}")
    else:
        if not isinstance(deal, FixedDeal):
            raise PrintError(f"{what}: a {variant} sheet takes FixedDeal rows, not {deal!r}")
        _check_int(deal.declarer, f"{what}: declarer side", 0, 1)
        _check_trump(deal.trump, f"{what}: trump", allow_none=True)
        if deal.winner is not None:
            _check_int(deal.winner, f"{what}: winner side", 0, 1)
        for s in deal.misplays:
            _check_int(s, f"{what}: misplay side", 0, 1)
        if deal.level:
            _check_level(deal.level, f"{what}: level")
        if deal.levels is not None:
            if len(deal.levels) != 2:
                raise PrintError(f"{what}: levels must be the two sides' levels")
            for lv in deal.levels:
                _check_level(lv, f"{what}: new level")
    _check_penalties(deal, variant, what)
    _check_int(deal.points, f"{what}: points", 0)
    _check_int(deal.kitty, f"{what}: kitty", 0)
    _check_int(deal.multiplier, f"{what}: multiplier", 0)


def _check_penalties(deal: FixedDeal | RedFiveDeal, variant: str, what: str) -> None:
    seats = 4 if variant == RED_FIVE else 5
    for item in deal.penalties:
        if not isinstance(item, tuple) or len(item) != 2 or item[0] not in PENALTY_KINDS:
            raise PrintError(f"{what}: a penalty is (kind, who), the kinds {PENALTY_KINDS}")
        if variant == RED_FIVE:
            _check_int(item[1], f"{what}: penalty seat", 0, 4)
        elif item[1] not in ("declarer", "attackers"):
            raise PrintError(f"{what}: a penalty's side is declarer or attackers, not {item[1]!r}")
    for s in deal.warnings:
        _check_int(s, f"{what}: warned seat", 0, seats)
