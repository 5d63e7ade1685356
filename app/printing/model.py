"""What the printing functions take: plain dataclasses of the printed things, and PrintError."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class PrintError(ValueError):
    """The data given to a layout function cannot be printed; the message says why."""


# --------------------------------------------------------------------------------------------
# Input data
# --------------------------------------------------------------------------------------------

SUITS = ("S", "H", "D", "C")


@dataclass(frozen=True)
class FixedDeal:
    """One recorded deal of a fixed-sides table (``tractor-4p``, ``one-twenty-6p``).

    The first fields are what the sheet records (TOURNAMENT.md); the derived ones (``level``,
    ``total``, ``winner``, ``gain``, ``levels``) come from the engine's scoring via the caller and
    are printed as given.
    """

    declarer: int  # side index (0 = 甲 A, 1 = 乙 B) of the dealer's side
    trump: str | None  # "S", "H", "D", "C", or None for no trump (无主)
    points: int  # attackers' card points in tricks
    kitty: int = 0  # card points in the buried kitty
    multiplier: int = 0  # kitty multiplier applied (0: attackers did not win the last trick)
    failed_throws: tuple[int, int] = (0, 0)  # tractor-4p: (declarer side, attackers)
    misplays: tuple[int, ...] = ()  # one-twenty-6p: side index per misplay
    level: str = ""  # level played (declarer side's level before the deal)
    total: int | None = None  # attackers' total after kitty and penalties
    winner: int | None = None  # side index that won the deal
    gain: int | None = None  # levels the winner gained by the deal's own result
    levels: tuple[str, str] | None = None  # both sides' levels after the deal (misplays included)
    passed_a: bool = False  # the declarer side won at A: the match ends
    # competition penalties (RULES §7) in order: (kind, "declarer" / "attackers")
    penalties: tuple[tuple[str, str], ...] = ()
    warnings: tuple[int, ...] = ()  # the seats warned for conduct (警告)


@dataclass(frozen=True)
class RedFiveDeal:
    """One recorded deal of a red five table; seats 0..4. Derived fields as given by the caller."""

    dealer: int
    friend: int | None  # None: dealer alone (独打, or the called card lay in the kitty)
    trump: str  # "S", "H", "D", "C"
    points: int
    kitty: int = 0
    multiplier: int = 0
    failed_throws: tuple[int, ...] = ()  # thrower's seat per failure
    called_card: str = ""  # e.g. "AS", "KH", "5H", "HJ"; "" when not recorded
    friend_grabbed: bool = False  # 抢伴
    total: int | None = None
    dealer_side_won: bool | None = None
    units: int | None = None
    scores: tuple[int, ...] | None = None  # the five seats' 积分 changes, by seat
    penalties: tuple[tuple[str, int], ...] = ()  # (kind, seat at fault), in order
    warnings: tuple[int, ...] = ()  # the seats warned for conduct (警告)


@dataclass(frozen=True)
class ClimbingDeal:
    """One recorded deal of a 争上游 (climbing) table; seats 0..n-1. ``scores`` as given by the
    caller (points by place, less a point per take-back)."""

    places: tuple[int, ...]  # each seat's place, 1 (上游, first out) … n (下游, last)
    tribute: tuple[int, int, str] | None = None  # (from seat, to seat, card code) when paid
    scores: tuple[int, ...] | None = None  # this deal's points per seat
    penalties: tuple[tuple[str, int], ...] = ()  # ("takeback", seat at fault), in order
    warnings: tuple[int, ...] = ()  # the seats warned for conduct (警告)


@dataclass(frozen=True)
class HundredDeal:
    """One recorded deal of a 打百分 table (HUNDRED.md §8); seats 0..n-1, the declarer's seat
    (not a side, even in a pair event). What the sheet records first, then what the caller
    derived (``winner``, ``units``, ``scores``: each seat's units for the deal), printed as
    given."""

    declarer: int
    trump: str  # "S", "H", "D", "C": 打百分 always has one
    points: int | None  # the attackers' points; None when a penalty ended the deal
    bid: int | None = None  # the winning bid (none in 40分下台)
    turned: str = ""  # 40分下台's turned card, e.g. "7H"
    friend_card: str = ""  # the card called (friend modes shown, hidden, blind)
    friend: int | None = None  # the friend's seat; None: alone, or no friend in this mode
    kou_di: bool = False  # an attacker won the last trick (抠底): the attackers win
    kitty: int | None = None  # the buried cards' points when written
    winner: str | None = None  # "declarer" or "attackers"
    units: int | None = None
    scores: tuple[int, ...] | None = None  # each seat's units for the deal, by seat
    penalties: tuple[tuple[str, str], ...] = ()  # (kind, "declarer" / "attackers"), in order
    warnings: tuple[int, ...] = ()  # the seats warned for conduct (警告)


Deal = FixedDeal | RedFiveDeal | ClimbingDeal | HundredDeal


@dataclass(frozen=True)
class SeatLink:
    """The address that plays one seat of an online table, printed as a QR code on its card.

    ``member``: the club member the seat is bound to (they open it logged in); "" for a guest's
    secret link."""

    url: str
    member: str = ""


@dataclass(frozen=True)
class TableCard:
    """Who sits where at one table in one round (``links``: an online table's seat links, one
    per seat, printed as QR codes; ``entry_url``: a paper table's score-entry page, the
    table-code page, printed as one QR code)."""

    tournament: str
    round: int
    table: int
    variant: str
    seats: tuple[str, ...]  # player names by seat (0 …)
    sides: tuple[str, ...] = ()  # fixed sides: the two entrants' names (side 0, side 1)
    club: str = ""
    date: str = ""
    links: tuple[SeatLink, ...] = ()
    entry_url: str = ""


@dataclass(frozen=True)
class ScoreSheet:
    """One table's 记分表 for one round.

    ``match`` is the tournament file's match object: ``{"deals": n}``, ``{"minutes": n}`` or
    ``{"to_a": True}``. ``options`` are the tournament's rule options (names of RULES.md); the
    defaults of the rest are filled in and every option in force is printed in plain words.
    """

    tournament: str
    club: str
    round: int
    table: int
    variant: str
    seats: tuple[str, ...]
    sides: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    match: Mapping[str, Any] = field(default_factory=lambda: {"deals": 8})
    start_levels: tuple[str, str] = ("2", "2")
    deals: tuple[Deal, ...] = ()
    date: str = ""
    entry_code: str = ""  # the table's score-entry code, printed for the players if given
    finished: bool = False  # a minutes / to-A match is over (a deals match knows by its count)
    links: tuple[SeatLink, ...] = ()  # an online table's seat links (on its table card)
    preset: str = ""  # the rule preset's bilingual name, first on the rules line
    entry_url: str = ""  # a paper table's score-entry page (a QR code on its table card)

    def card(self) -> TableCard:
        return TableCard(
            self.tournament,
            self.round,
            self.table,
            self.variant,
            self.seats,
            self.sides,
            self.club,
            self.date,
            self.links,
            self.entry_url,
        )


@dataclass(frozen=True)
class RoundPack:
    """A round: one score sheet per table (in any order; printed by table number) and the byes."""

    tournament: str
    club: str
    round: int
    variant: str
    sheets: tuple[ScoreSheet, ...]
    byes: tuple[str, ...] = ()
    date: str = ""


@dataclass(frozen=True)
class Standings:
    """Standings rows as ``flask tournament standings --json`` prints them (best first).

    Fixed sides: ``rank, entrant, played, match_points, level_diff, opponents_points``;
    red five: ``rank, entrant, deals, score, dealer_wins``. ``columns`` picks and orders the
    columns (default: all of the variant's); an optional ``note`` key per row is printed after
    the entrant (e.g. "进行中 in progress").
    """

    tournament: str
    club: str
    variant: str
    rows: tuple[Mapping[str, Any], ...]
    after_round: int | None = None
    columns: tuple[str, ...] | None = None
    date: str = ""
