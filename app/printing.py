"""Printed paper: score sheets (记分表), table cards, pairings, standings and a round's print pack.

This module owns all page layout. It is pure: it takes the plain dataclasses below and returns PDF
bytes; it never imports Flask or the database (the tournament code maps its rows into these
dataclasses). Everything is drawn on a reportlab canvas with ``drawString``, which prints text
literally, so markup typed into a name (``<b>``, ``&amp;``, ``<font …>``) is printed as typed and
never interpreted; no ``Paragraph`` (whose markup once allowed code execution, CVE-2023-33733) is
used anywhere.

Chinese renders with the WenQuanYi Micro Hei font shipped in ``static/fonts/`` (face 0 of the
TrueType collection, embedded as a subset). Labels are bilingual, Chinese first.

Seats are numbered from 0 in the data (as in the tournament file) and printed from 1 (座1 …).
Fixed sides: side 0 (甲 A) sits in seats 0, 2 (, 4); side 1 (乙 B) in seats 1, 3 (, 5).
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import segno
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from engine.errors import EngineError
from engine.variants import LEVELS, ONE_TWENTY, RED_FIVE, TRACTOR, VARIANT_IDS, make_variant

__all__ = [
    "FixedDeal",
    "PrintError",
    "RedFiveDeal",
    "RoundPack",
    "ScoreSheet",
    "SeatLink",
    "Standings",
    "TableCard",
    "pairings",
    "print_pack",
    "score_sheet",
    "standings",
    "table_cards",
]


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


Deal = FixedDeal | RedFiveDeal


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
    per seat, printed as QR codes)."""

    tournament: str
    round: int
    table: int
    variant: str
    seats: tuple[str, ...]  # player names by seat (0 …)
    sides: tuple[str, ...] = ()  # fixed sides: the two entrants' names (side 0, side 1)
    club: str = ""
    date: str = ""
    links: tuple[SeatLink, ...] = ()


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


# --------------------------------------------------------------------------------------------
# QR codes of seat links (the web page's come from here too: app/qr.py)
# --------------------------------------------------------------------------------------------

QR_ERROR = "m"  # 15 % of a code may be smudged or folded and it still reads
QR_BORDER = 4  # the quiet zone around a code, in modules, as the QR standard asks


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``: the smallest version that holds it at level M (or better)."""
    return segno.make(url, error=QR_ERROR, micro=False)


# --------------------------------------------------------------------------------------------
# Fonts, page sizes, text
# --------------------------------------------------------------------------------------------

FONT = "WQYMicroHei"
_FONT_FILES = (
    Path(__file__).resolve().parent.parent / "static" / "fonts" / "wqy-microhei.ttc",
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
)
_font_ready = False


def _ensure_font() -> None:
    global _font_ready
    if _font_ready:
        return
    for path in _FONT_FILES:
        if path.is_file():
            pdfmetrics.registerFont(TTFont(FONT, str(path), subfontIndex=0))
            _font_ready = True
            return
    raise PrintError(
        "the CJK font static/fonts/wqy-microhei.ttc is missing (it ships with the project; "
        "Debian's fonts-wqy-microhei package provides it too)"
    )


_PAGE_SIZES = {"A4": A4, "LETTER": LETTER}


def _page_size(name: str) -> tuple[float, float]:
    size = _PAGE_SIZES.get(str(name).upper())
    if size is None:
        raise PrintError(f"page size must be 'A4' or 'Letter', not {name!r}")
    return size


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _clean(text: object, what: str) -> str:
    """User text as it will be printed: control characters (newlines…) become spaces."""
    if not isinstance(text, str):
        raise PrintError(f"{what} must be text, not {text!r}")
    return _CONTROL.sub(" ", unicodedata.normalize("NFC", text)).strip()


def _width(text: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, FONT, size)


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Greedy line breaking: at spaces for Latin words, between any two CJK characters."""
    tokens = re.findall(r"\s+|[^\s]", text)
    # merge runs of non-wide, non-space characters into words
    words: list[str] = []
    for tok in tokens:
        if words and not tok.isspace() and not _is_wide(tok):
            last = words[-1]
            if last and not last[-1].isspace() and not _is_wide(last[-1]):
                words[-1] = last + tok
                continue
        words.append(tok)
    lines: list[str] = []
    line = ""
    for word in words:
        if word.isspace():
            if line:
                line += " "
            continue
        trial = line + word
        if not line or _width(trial, size) <= width:
            line = trial
            continue
        lines.append(line.rstrip())
        line = word
    if line.strip():
        lines.append(line.rstrip())
    # a single word longer than the line: cut it by characters
    out: list[str] = []
    for ln in lines:
        while _width(ln, size) > width and len(ln) > 1:
            cut = len(ln)
            while cut > 1 and _width(ln[:cut], size) > width:
                cut -= 1
            out.append(ln[:cut])
            ln = ln[cut:]
        out.append(ln)
    return out


def _wrap_items(items: Sequence[str], width: float, size: float, sep: str = "  ·  ") -> list[str]:
    """Lines of items joined by ``sep``, an item broken only when it is longer than a line."""
    lines: list[str] = []
    line = ""
    for item in items:
        trial = line + sep + item if line else item
        if _width(trial, size) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        parts = [item] if _width(item, size) <= width else _wrap(item, width, size)
        lines.extend(parts[:-1])
        line = parts[-1]
    if line:
        lines.append(line)
    return lines


GREY = (0.45, 0.45, 0.45)
LIGHT = (0.72, 0.72, 0.72)
SHADE = (0.93, 0.93, 0.93)
ROW_SHADE = (0.975, 0.975, 0.975)


class _Pen:
    """A canvas with the few text and box operations the layouts use (top-down helpers)."""

    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas
        self.forms: set[str] = set()  # the QR codes already defined in this document

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """The QR code of ``url`` (with its quiet zone) in the square ``size`` wide whose
        lower-left corner is ``x, y``: one form per address, its dark modules as rectangles of
        one module's height (the matrix of ``qr_code``, which the web page draws too)."""
        rows = qr_code(url).matrix
        n = len(rows)
        total = n + 2 * QR_BORDER
        name = "qr" + hashlib.sha256(url.encode()).hexdigest()[:24]
        c = self.c
        if name not in self.forms:
            c.beginForm(name, 0, 0, total, total)
            c.setFillColorRGB(1, 1, 1)
            c.rect(0, 0, total, total, stroke=0, fill=1)
            c.setFillColorRGB(0, 0, 0)
            for r, row in enumerate(rows):
                y_row = total - QR_BORDER - r - 1
                col = 0
                while col < n:
                    if not row[col]:
                        col += 1
                        continue
                    end = col
                    while end < n and row[end]:
                        end += 1
                    c.rect(QR_BORDER + col, y_row, end - col, 1, stroke=0, fill=1)
                    col = end
            c.endForm()
            self.forms.add(name)
        c.saveState()
        c.translate(x, y)
        c.scale(size / total, size / total)
        c.doForm(name)
        c.restoreState()

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float,
        *,
        bold: bool = False,
        align: str = "left",
        color: tuple[float, float, float] = (0, 0, 0),
    ) -> None:
        if not s:
            return
        c = self.c
        c.setFont(FONT, size)
        c.setFillColorRGB(*color)
        w = _width(s, size)
        if align == "center":
            x -= w / 2
        elif align == "right":
            x -= w
        if bold:
            c.setStrokeColorRGB(*color)
            c.setLineWidth(size * 0.035)
            c.drawString(x, y, s, mode=2)
            c.setStrokeColorRGB(0, 0, 0)
        else:
            c.drawString(x, y, s)
        c.setFillColorRGB(0, 0, 0)

    def fit(
        self,
        x: float,
        y: float,
        w: float,
        s: str,
        size: float,
        *,
        min_size: float = 5.5,
        bold: bool = False,
        align: str = "left",
        color: tuple[float, float, float] = (0, 0, 0),
    ) -> float:
        """One line in width ``w``: shrink down to ``min_size``, then cut with an ellipsis."""
        while size > min_size and _width(s, size) > w:
            size = max(min_size, size * 0.92)
        if _width(s, size) > w:
            while len(s) > 1 and _width(s + "…", size) > w:
                s = s[:-1]
            s += "…"
        ax = x + w / 2 if align == "center" else x + w if align == "right" else x
        self.text(ax, y, s, size, bold=bold, align=align, color=color)
        return size

    def block(
        self,
        x: float,
        y_top: float,
        w: float,
        h: float,
        s: str,
        size: float,
        *,
        min_size: float = 5.5,
        bold: bool = False,
        align: str = "center",
        valign: str = "middle",
        color: tuple[float, float, float] = (0, 0, 0),
        leading: float = 1.18,
    ) -> None:
        """Text in a box: one line if it fits (shrunk by up to a third), else wrapped lines,
        shrinking until they fit."""
        one_line = max(min_size, size * 0.68)
        if _width(s, one_line) <= w and one_line * leading <= h:
            while _width(s, size) > w:
                size *= 0.95
        while True:
            lines = [s] if _width(s, size) <= w else _wrap(s, w, size)
            total = len(lines) * size * leading
            if (total <= h and all(_width(ln, size) <= w for ln in lines)) or size <= min_size:
                break
            size = max(min_size, size * 0.92)
        max_lines = max(1, int(h // (size * leading)))
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            last = lines[-1]
            while len(last) > 1 and _width(last + "…", size) > w:
                last = last[:-1]
            lines[-1] = last + "…"
        total = len(lines) * size * leading
        y = y_top - size if valign == "top" else y_top - (h - total) / 2 - size * 0.95
        ax = x + w / 2 if align == "center" else x + w if align == "right" else x
        for ln in lines:
            self.text(ax, y, ln, size, bold=bold, align=align, color=color)
            y -= size * leading

    def rect(
        self,
        x: float,
        y_top: float,
        w: float,
        h: float,
        *,
        fill: tuple[float, float, float] | None = None,
        stroke: bool = True,
        width: float = 0.6,
    ) -> None:
        c = self.c
        c.setLineWidth(width)
        if fill is not None:
            c.setFillColorRGB(*fill)
        c.rect(x, y_top - h, w, h, stroke=1 if stroke else 0, fill=1 if fill is not None else 0)
        c.setFillColorRGB(0, 0, 0)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.6) -> None:
        self.c.setLineWidth(width)
        self.c.line(x1, y1, x2, y2)


# --------------------------------------------------------------------------------------------
# Words: variants, options, cards
# --------------------------------------------------------------------------------------------

_VARIANT_NAMES = {
    TRACTOR: ("升级（拖拉机）", "Tractor, 4 players"),
    RED_FIVE: ("红五", "Red five, 5 players"),
    ONE_TWENTY: ("120分", "One-twenty, 6 players"),
}
_SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SIDE = ("甲A", "乙B")
_SIDE_LONG = ("甲方 A", "乙方 B")


def _variant_label(variant: str) -> str:
    zh, en = _VARIANT_NAMES[variant]
    return f"{zh} {en}"


def _check_variant(variant: object) -> str:
    if variant not in VARIANT_IDS:
        raise PrintError(f"unknown variant {variant!r}; the variants are {', '.join(VARIANT_IDS)}")
    return str(variant)


def _trump_text(trump: str | None) -> str:
    return "无主 NT" if trump is None else _SUIT_SIGNS[trump]


def _card_text(card: str) -> str:
    card = card.strip().upper()
    if card == "HJ":
        return "大王 HJ"
    if card == "LJ":
        return "小王 LJ"
    if len(card) >= 2 and card[-1] in _SUIT_SIGNS:
        return card[:-1] + _SUIT_SIGNS[card[-1]]
    return card


def _yes(v: bool) -> str:
    return "是 yes" if v else "否 no"


def _option_words(variant: str, options: Mapping[str, Any]) -> list[str]:
    """Every option in force, in plain bilingual words (Chinese first)."""
    words: list[str] = []
    for name, value in options.items():
        if name == "decks":
            words.append(
                f"{value} 副牌 {value} decks" + ("（无底牌 no kitty）" if value == 4 else "")
            )
        elif name == "triple_tractors":
            words.append(f"三张连算拖拉机 Tractors of triples: {_yes(bool(value))}")
        elif name == "kitty_multiplier":
            if options.get("decks") == 4:
                continue  # no kitty with 4 decks
            text = {
                "by_shape": "按牌型 ×2×张数 by shape: 2 × cards of the largest unit",
                "power": "2 的张数次方 2 to the power of the unit's cards",
                "double": "一律 ×2 always × 2",
            }[value]
            words.append(f"抠底倍数 Kitty multiplier: {text}")
        elif name == "throw_penalty":
            text = (
                "每次罚 10 分，每方每局至多 3 次 10 points per failure, at most 3 per side"
                if value == "ten_per_attempt"
                else "不罚 no penalty"
            )
            words.append(f"甩牌失败 Failed throw: {text}")
        elif name == "no_call_trump":
            text = (
                "翻底定主 turn the kitty over" if value == "kitty" else "黑桃为主 spades are trump"
            )
            words.append(f"无人叫主 Nobody calls: {text}")
        elif name == "redeal_below":
            words.append(
                "不许暴动 No redeal"
                if value is None
                else f"闲家手牌不足 {value} 分可暴动重发 Redeal if an attacker holds < {value} points"
            )
        elif name == "refuse_below":
            words.append(
                "不许拒打 No refusing"
                if value is None
                else f"对方手牌不足 {value} 分可拒打 Opponents may refuse if a hand holds < {value}"
            )
        elif name == "score_table":
            words.append("积分表：每 60 分一个单位 Score table: units of 60 points")
        elif name == "must_play_levels":
            levels = " ".join(value)
            words.append(f"必打级 Must-play levels: {levels}")
        else:  # an option without printed words yet: never leave a rule in force off the sheet
            words.append(f"{name}: {value}")
    return words


def _match_words(match: Mapping[str, Any]) -> str:
    kind = _match_kind(match)
    if kind[0] == "deals":
        return f"{kind[1]} 局 deals"
    if kind[0] == "minutes":
        return f"{kind[1]} 分钟 minutes"
    return "打过A to A"


def _match_kind(match: object) -> tuple[str, int]:
    if not isinstance(match, Mapping) or len(match) != 1:
        raise PrintError(
            f'match must be one of {{"deals": n}}, {{"minutes": n}}, {{"to_a": true}}, not {match!r}'
        )
    ((key, value),) = match.items()
    if key in ("deals", "minutes"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PrintError(f"match {key} must be a whole number ≥ 1, not {value!r}")
        return key, value
    if key == "to_a" and value is True:
        return "to_a", 0
    raise PrintError(
        f'match must be one of {{"deals": n}}, {{"minutes": n}}, {{"to_a": true}}, not {match!r}'
    )


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# --------------------------------------------------------------------------------------------
# Validation of the input dataclasses
# --------------------------------------------------------------------------------------------

_PLAYERS = {TRACTOR: 4, RED_FIVE: 5, ONE_TWENTY: 6}


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

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def fixed(self) -> bool:
        return self.variant != RED_FIVE


def _check_table(src: TableCard | ScoreSheet, where: str) -> _Table:
    variant = _check_variant(src.variant)
    n = _PLAYERS[variant]
    rnd = _check_int(src.round, f"{where}: round", 1)
    table = _check_int(src.table, f"{where}: table", 1)
    if not isinstance(src.seats, (tuple, list)) or len(src.seats) != n:
        raise PrintError(f"{where}: {variant} needs {n} seat names, got {src.seats!r}")
    seats = tuple(_clean(s, f"{where}: seat {i + 1}") for i, s in enumerate(src.seats))
    if variant == RED_FIVE:
        if src.sides:
            raise PrintError(f"{where}: red five has no fixed sides; leave sides empty")
        sides: tuple[str, ...] = ()
    else:
        if not isinstance(src.sides, (tuple, list)) or len(src.sides) != 2:
            raise PrintError(f"{where}: {variant} needs the two sides' entrant names")
        sides = tuple(_clean(s, f"{where}: side {i}") for i, s in enumerate(src.sides))
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
    )


def _check_links(links: object, n: int, where: str) -> tuple[SeatLink, ...]:
    if not isinstance(links, (tuple, list)) or (links and len(links) != n):
        raise PrintError(f"{where}: give a seat link for each of the {n} seats, or none")
    out = []
    for i, link in enumerate(links):
        if not isinstance(link, SeatLink):
            raise PrintError(f"{where}: seat {i + 1}'s link must be a SeatLink, not {link!r}")
        url = _clean(link.url, f"{where}: seat {i + 1}'s link")
        if not url.startswith(("https://", "http://")) or len(url) > 500:
            raise PrintError(f"{where}: seat {i + 1}'s link must be a web address, not {url!r}")
        out.append(SeatLink(url, _clean(link.member, f"{where}: seat {i + 1}'s member")))
    return tuple(out)


def _check_trump(value: object, what: str, allow_none: bool) -> None:
    if value is None and allow_none:
        return
    if value not in SUITS:
        allowed = "S, H, D, C" + (" or None (no trump)" if allow_none else "")
        raise PrintError(f"{what} must be one of {allowed}, not {value!r}")


def _check_deal(deal: object, variant: str, i: int, where: str) -> None:
    what = f"{where}: deal {i + 1}"
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
    _check_int(deal.points, f"{what}: points", 0)
    _check_int(deal.kitty, f"{what}: kitty", 0)
    _check_int(deal.multiplier, f"{what}: multiplier", 0)


# --------------------------------------------------------------------------------------------
# Page frame
# --------------------------------------------------------------------------------------------

MARGIN = 34.0


@dataclass
class _Frame:
    width: float
    height: float

    @property
    def left(self) -> float:
        return MARGIN

    @property
    def right(self) -> float:
        return self.width - MARGIN

    @property
    def top(self) -> float:
        return self.height - MARGIN

    @property
    def bottom(self) -> float:
        return MARGIN

    @property
    def inner(self) -> float:
        return self.width - 2 * MARGIN


def _footer(pen: _Pen, fr: _Frame, left: str, page: int, pages: int) -> None:
    y = fr.bottom - 14
    pen.fit(fr.left, y, fr.inner * 0.7, left, 7, color=GREY)
    pen.text(
        fr.right, y, f"第 {page} / {pages} 页  Page {page} of {pages}", 7, align="right", color=GREY
    )


def _new_canvas(size: tuple[float, float], title: str) -> tuple[Canvas, io.BytesIO]:
    _ensure_font()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=FONT)
    c.setTitle(title)
    c.setAuthor("Shengji club")
    c.setCreator("app.printing (reportlab)")
    return c, buf


# --------------------------------------------------------------------------------------------
# Seat diagram (score sheets and table cards)
# --------------------------------------------------------------------------------------------


def _seat_diagram(
    pen: _Pen,
    t: _Table,
    x: float,
    y_top: float,
    w: float,
    h: float,
    scale: float = 1.0,
    box_w: float = 80.0,
) -> None:
    """Seats around the table, counter-clockwise in play order from seat 1 at the bottom."""
    n = t.players
    bw, bh = box_w * scale, 31.0 * scale
    if w < 2 * bw + 60 * scale:
        bw = (w - 60 * scale) / 2
    cx, cy = x + w / 2, y_top - h / 2
    rx, ry = (w - bw) / 2, (h - bh) / 2
    # the table top
    c = pen.c
    c.setLineWidth(0.8)
    c.setFillColorRGB(*SHADE)
    tw, th = rx * 2 - bw - 8 * scale, ry * 2 - bh - 8 * scale
    if n == 4:
        c.roundRect(cx - tw / 2, cy - th / 2, tw, th, 6 * scale, stroke=1, fill=1)
    else:
        c.ellipse(cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    pen.text(cx, cy + 2 * scale, f"第 {t.table} 桌", 13 * scale, bold=True, align="center")
    pen.text(cx, cy - 9 * scale, f"Table {t.table}", 8 * scale, align="center")
    pen.text(cx, cy - 19 * scale, "↺ 出牌顺序 play order", 6 * scale, align="center", color=GREY)
    for seat in range(n):
        ang = math.radians(-90 + seat * 360 / n)
        sx, sy = cx + rx * math.cos(ang), cy + ry * math.sin(ang)
        bx, by = sx - bw / 2, sy + bh / 2
        fill = (1.0, 1.0, 1.0) if not t.fixed or seat % 2 == 0 else (0.96, 0.96, 0.96)
        pen.rect(bx, by, bw, bh, fill=fill, width=0.8)
        label = f"座{seat + 1} Seat {seat + 1}"
        if t.fixed:
            label += f" · {_SIDE[seat % 2]}"
        pen.fit(bx + 3 * scale, by - 9 * scale, bw - 6 * scale, label, 6.5 * scale, color=GREY)
        pen.block(
            bx + 2 * scale,
            by - 10 * scale,
            bw - 4 * scale,
            bh - 11 * scale,
            t.seats[seat],
            9.5 * scale,
            min_size=5,
            bold=True,
        )


# --------------------------------------------------------------------------------------------
# Score sheet
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Col:
    key: str
    zh: str
    en: str
    weight: float
    hint: str = ""  # light text in an empty cell, to circle or fill in


def _sheet_columns(t: _Table, options: Mapping[str, Any]) -> list[_Col]:
    if t.variant == RED_FIVE:
        cols = [
            _Col("no", "局", "No.", 0.55),
            _Col("dealer", "庄家", "Dealer", 0.75),
            _Col("card", "叫牌", "Called", 0.8),
            _Col("friend", "伴", "Friend", 0.75),
            _Col("trump", "主", "Trump", 0.95, "♠ ♥ ♦ ♣"),
            _Col("points", "得分", "Points", 0.8),
            _Col("kitty", "底分×倍", "Kitty×", 0.95, "×"),
            _Col("total", "合计", "Total", 0.8),
            _Col("units", "级数", "Units", 0.9, "庄 · 闲"),
        ]
        cols += [_Col(f"s{i}", f"座{i + 1}", t.seats[i], 0.95) for i in range(5)]
        cols.append(_Col("throws", "甩牌失败", "Failed thr.", 0.95))
        return cols
    cols = [
        _Col("no", "局", "No.", 0.5),
        _Col("decl", "庄家方", "Declarer", 0.95, "甲A  乙B"),
        _Col("trump", "主", "Trump", 1.05, "♠ ♥ ♦ ♣ 无"),
        _Col("level", "级", "Level", 0.65),
        _Col("points", "得分", "Points", 0.8),
    ]
    if t.variant != TRACTOR or options.get("decks", 2) != 4:
        cols.append(_Col("kitty", "底分×倍", "Kitty × mult.", 1.05, "×"))
    if t.variant == TRACTOR:
        cols.append(_Col("throws", "甩牌失败", "Failed throws", 1.0, "庄     闲"))
    else:
        cols.append(_Col("misplays", "吃苍蝇", "Misplays", 1.0, "甲     乙"))
    cols += [
        _Col("total", "合计", "Total", 0.75),
        _Col("change", "升级", "Level change", 1.15),
        _Col("new0", "甲A 级", "new level", 0.75),
        _Col("new1", "乙B 级", "new level", 0.75),
    ]
    return cols


def _fixed_cells(d: FixedDeal) -> dict[str, str]:
    cells = {
        "decl": _SIDE[d.declarer],
        "trump": _trump_text(d.trump),
        "level": d.level,
        "points": str(d.points),
        "kitty": (f"{d.kitty} × {d.multiplier}" if d.multiplier else str(d.kitty)),
        "total": "" if d.total is None else str(d.total),
    }
    dt, at = d.failed_throws
    cells["throws"] = f"{dt}  /  {at}" if dt or at else ""
    cells["misplays"] = " ".join(_SIDE[s] for s in d.misplays)
    if d.winner is not None:
        change = _SIDE[d.winner]
        if d.winner != d.declarer:
            change += " 上台"
        if d.gain is not None and (d.gain or d.winner == d.declarer):
            change += f" +{d.gain}"
        if d.passed_a:
            change += " 过A"
        cells["change"] = change
    if d.levels is not None:
        cells["new0"], cells["new1"] = d.levels
    return cells


def _red_five_cells(d: RedFiveDeal) -> dict[str, str]:
    cells = {
        "dealer": str(d.dealer + 1),
        "card": _card_text(d.called_card) if d.called_card else "",
        "friend": "独 alone" if d.friend is None else str(d.friend + 1),
        "trump": _SUIT_SIGNS[d.trump],
        "points": str(d.points),
        "kitty": (f"{d.kitty} × {d.multiplier}" if d.multiplier else str(d.kitty)),
        "total": "" if d.total is None else str(d.total),
        "throws": ",".join(str(s + 1) for s in d.failed_throws),
    }
    if d.friend_grabbed:
        cells["friend"] += " 抢伴"
    if d.units is not None and d.dealer_side_won is not None:
        cells["units"] = ("庄 " if d.dealer_side_won else "闲 ") + str(d.units)
    if d.scores is not None:
        for i, v in enumerate(d.scores):
            cells[f"s{i}"] = _signed(v)
    return cells


ROW_H = 20.0
MAX_ROW_H = 27.0
MIN_ROW_H = 17.0
HEAD_H = 27.0


@dataclass(frozen=True)
class _SheetPlan:
    rows_per_page: tuple[int, ...]

    @property
    def pages(self) -> int:
        return len(self.rows_per_page)


class _SheetLayout:
    """Geometry of one score sheet: heights of its parts for a page size."""

    def __init__(self, t: _Table, fr: _Frame, options: Mapping[str, Any]) -> None:
        self.t = t
        self.fr = fr
        self.options = options
        self.option_words = _option_words(t.variant, options)
        self.rules_lines = _wrap_items(self.option_words, fr.inner - 70, 7.2)
        self.title_h = 44.0
        self.info_h = 30.0
        self.rules_h = 8.0 + len(self.rules_lines) * 9.0
        self.seats_h = 168.0 if t.players == 6 else 150.0
        self.first_head = self.title_h + self.info_h + 6 + self.rules_h + 8 + self.seats_h + 10
        self.cont_head = 52.0
        self.end_h = 96.0 if t.fixed else 86.0  # final line / total row + signatures
        self.body = fr.top - fr.bottom - 6

    def avail(self, first: bool, last: bool) -> float:
        """Height left for deal rows on a page."""
        avail = self.body - (self.first_head if first else self.cont_head) - HEAD_H
        return avail - self.end_h if last else avail

    def capacity(self, first: bool, last: bool) -> int:
        return max(1, int(self.avail(first, last) // ROW_H))

    def plan(self, rows: int) -> _SheetPlan:
        """Rows per page; the signatures go on the last page, which holds at least one row."""
        pages: list[int] = []
        remaining = rows
        first = True
        while True:
            if remaining <= self.capacity(first, True):
                pages.append(remaining)
                return _SheetPlan(tuple(pages))
            take = min(self.capacity(first, False), remaining - 1)
            pages.append(take)
            remaining -= take
            first = False

    def fill_pages(self, rows: int) -> int:
        """The smallest number of rows ≥ ``rows`` that fills every page it needs."""
        if rows <= self.capacity(True, True):
            return self.capacity(True, True)
        total = self.capacity(True, False)
        while True:
            if rows - total <= self.capacity(False, True):
                return total + self.capacity(False, True)
            total += self.capacity(False, False)


def _planned_rows(layout: _SheetLayout, match: Mapping[str, Any], recorded: int) -> int:
    """Deal rows to print: n for ``deals: n``; for a time limit (a deal takes at least about
    5 minutes) or a game to A (rarely under 25 deals), whole pages."""
    kind, n = _match_kind(match)
    if kind == "deals":
        return max(n, recorded)
    target = max(math.ceil(n / 5) if kind == "minutes" else 25, recorded)
    if target * MIN_ROW_H <= layout.avail(True, True):
        return max(target, layout.capacity(True, True))
    return layout.fill_pages(target)


@dataclass(frozen=True)
class _Sheet:
    t: _Table
    options: dict[str, Any]
    match: Mapping[str, Any]
    start_levels: tuple[str, str]
    deals: tuple[Deal, ...]
    filled: bool
    entry_code: str
    finished: bool


def _check_sheet(sheet: ScoreSheet, filled: bool) -> _Sheet:
    if not isinstance(sheet, ScoreSheet):
        raise PrintError(f"expected a ScoreSheet, not {sheet!r}")
    where = f"table {sheet.table}"
    t = _check_table(sheet, where)
    try:
        options = dict(make_variant(t.variant, sheet.options).options)
    except EngineError as exc:
        raise PrintError(f"{where}: {exc}") from exc
    _match_kind(sheet.match)
    if len(sheet.start_levels) != 2:
        raise PrintError(f"{where}: start_levels must be the two sides' levels")
    start = (
        _check_level(sheet.start_levels[0], f"{where}: start level"),
        _check_level(sheet.start_levels[1], f"{where}: start level"),
    )
    for i, deal in enumerate(sheet.deals):
        _check_deal(deal, t.variant, i, where)
    return _Sheet(
        t,
        options,
        sheet.match,
        start,
        tuple(sheet.deals) if filled else (),
        filled,
        _clean(sheet.entry_code, f"{where}: entry code"),
        bool(sheet.finished),
    )


def _draw_sheet(pen: _Pen, fr: _Frame, s: _Sheet) -> int:
    """Draw one score sheet (one or more pages, each ended); returns the number of pages."""
    t = s.t
    layout = _SheetLayout(t, fr, s.options)
    cols = _sheet_columns(t, s.options)
    total_w = sum(col.weight for col in cols)
    widths = [fr.inner * col.weight / total_w for col in cols]
    rows = _planned_rows(layout, s.match, len(s.deals))
    if rows * MIN_ROW_H <= layout.avail(True, True):  # one page, rows as tall as it allows
        plan = _SheetPlan((rows,))
        row_h = min(MAX_ROW_H, layout.avail(True, True) / rows)
    else:
        plan = layout.plan(rows)
        row_h = ROW_H
    cells = [_red_five_cells(d) if isinstance(d, RedFiveDeal) else _fixed_cells(d) for d in s.deals]
    foot = (
        f"记分表 Score sheet · {t.tournament} · 第 {t.round} 轮 Round {t.round}"
        f" · 第 {t.table} 桌 Table {t.table}"
    )
    row_no = 0
    for page, count in enumerate(plan.rows_per_page):
        first, last = page == 0, page == plan.pages - 1
        y = fr.top
        y = _sheet_head(pen, fr, s, layout) if first else _sheet_cont_head(pen, fr, s)
        y = _sheet_table_head(pen, fr, cols, widths, y)
        for _ in range(count):
            x = fr.left
            values = cells[row_no] if row_no < len(cells) else {}
            if row_no % 2 == 1:
                pen.rect(fr.left, y, fr.inner, row_h, fill=ROW_SHADE, stroke=False)
            base = y - row_h / 2 - 3.2
            for col, w in zip(cols, widths, strict=True):
                pen.rect(x, y, w, row_h, width=0.5)
                if col.key == "no":
                    pen.text(x + w / 2, base, str(row_no + 1), 8.5, align="center")
                elif col.key in values and values[col.key]:
                    pen.fit(x + 2, base, w - 4, values[col.key], 9.5, align="center")
                elif col.hint and row_no >= len(cells):
                    pen.fit(x + 2, base, w - 4, col.hint, 6.5, align="center", color=LIGHT)
                x += w
            y -= row_h
            row_no += 1
        if last:
            _sheet_end(pen, fr, s, cols, widths, y)
        _footer(pen, fr, foot, page + 1, plan.pages)
        pen.c.showPage()
    return plan.pages


def _sheet_head(pen: _Pen, fr: _Frame, s: _Sheet, layout: _SheetLayout) -> float:
    t = s.t
    y = fr.top
    # title band: title left, table number box right
    box_w = 170.0 if s.entry_code else 118.0
    pen.text(fr.left, y - 20, "记分表", 20, bold=True)
    pen.text(fr.left + _width("记分表", 20) + 8, y - 20, "Score sheet", 13)
    pen.fit(fr.left, y - 38, fr.inner - box_w - 10, t.tournament, 12.5, bold=True)
    bx = fr.right - box_w
    pen.rect(bx, y, box_w, 44, width=1.4)
    pen.text(bx + 7, y - 12, "桌号 Table", 7.5, color=GREY)
    pen.fit(fr.right - 78, y - 38, 70, str(t.table), 26, bold=True, align="right")
    if s.entry_code:
        pen.text(bx + 7, y - 27, "录入码 Entry code", 6.5, color=GREY)
        pen.fit(bx + 7, y - 38, box_w - 90, s.entry_code, 9.5, bold=True)
    y -= layout.title_h + 4
    # info cells
    info = [
        ("俱乐部 Club", t.club, 2.2),
        ("轮次 Round", str(t.round), 0.8),
        ("玩法 Variant", _variant_label(t.variant), 2.1),
        ("赛制 Match", _match_words(s.match), 1.4),
        ("日期 Date", t.date, 1.1),
    ]
    tw = sum(i[2] for i in info)
    x = fr.left
    for label, value, weight in info:
        w = fr.inner * weight / tw
        pen.rect(x, y, w, layout.info_h, width=0.6)
        pen.text(x + 3, y - 8.5, label, 6.5, color=GREY)
        pen.fit(x + 3, y - 24, w - 6, value, 10.5, bold=True)
        x += w
    y -= layout.info_h + 6
    # rules in force
    pen.rect(fr.left, y, fr.inner, layout.rules_h, width=0.6)
    pen.text(fr.left + 4, y - 10, "规则 Rules", 7.5, bold=True)
    ly = y - 10
    for line in layout.rules_lines:
        pen.text(fr.left + 64, ly, line, 7.2)
        ly -= 9.0
    y -= layout.rules_h + 8
    # seats: diagram left, entrants right
    dw = 292.0
    _seat_diagram(pen, t, fr.left, y, dw, layout.seats_h)
    bx, bw = fr.left + dw + 10, fr.inner - dw - 10
    if t.fixed:
        half = (layout.seats_h - 6) / 2
        for side in (0, 1):
            top = y - side * (half + 6)
            pen.rect(bx, top, bw, half, width=0.8, fill=(1, 1, 1) if side == 0 else (0.96,) * 3)
            seats = " · ".join(str(i + 1) for i in range(side, t.players, 2))
            pen.text(bx + 5, top - 12, _SIDE_LONG[side], 9.5, bold=True)
            pen.fit(bx + 50, top - 12, bw - 55, f"座 {seats} Seats {seats}", 7, color=GREY)
            pen.block(bx + 5, top - 16, bw - 10, 17, t.sides[side], 11, bold=True, align="left")
            names = " · ".join(t.seats[i] for i in range(side, t.players, 2))
            pen.block(bx + 5, top - 34, bw - 10, half - 58, names, 8, align="left", valign="top")
            pen.text(bx + 5, top - half + 9, "起始级 Start level", 7.5, color=GREY)
            lx = bx + bw - 42
            pen.rect(lx, top - half + 24, 36, 20, width=0.8)
            pen.text(lx + 18, top - half + 9, s.start_levels[side], 12, bold=True, align="center")
    else:
        h = layout.seats_h
        pen.rect(bx, y, bw, h, width=0.8)
        pen.text(bx + 5, y - 12, "座位 Seats", 9.5, bold=True)
        ly = y - 28
        for i, name in enumerate(t.seats):
            pen.text(bx + 5, ly, f"座{i + 1}", 8.5, color=GREY)
            pen.fit(bx + 32, ly, bw - 38, name, 10, bold=True)
            ly -= 19
        pen.block(
            bx + 5,
            ly + 4,
            bw - 10,
            22,
            "级数固定打 2，按积分排名 Level stays 2; players rank by 积分 (score)",
            7,
            align="left",
            valign="top",
            color=GREY,
        )
    return y - layout.seats_h - 10


def _sheet_cont_head(pen: _Pen, fr: _Frame, s: _Sheet) -> float:
    t = s.t
    y = fr.top
    pen.text(fr.left, y - 16, "记分表（续）", 15, bold=True)
    pen.text(fr.left + _width("记分表（续）", 15) + 6, y - 16, "Score sheet, continued", 10)
    pen.text(
        fr.right,
        y - 16,
        f"第 {t.table} 桌 Table {t.table} · 第 {t.round} 轮 Round {t.round}",
        11,
        bold=True,
        align="right",
    )
    if t.fixed:
        legend = f"甲A = {t.sides[0]}    乙B = {t.sides[1]}"
    else:
        legend = "    ".join(f"座{i + 1} {n}" for i, n in enumerate(t.seats))
    pen.fit(fr.left, y - 32, fr.inner, t.tournament, 9, color=GREY)
    pen.fit(fr.left, y - 45, fr.inner, legend, 9)
    return y - 52


def _sheet_table_head(
    pen: _Pen, fr: _Frame, cols: list[_Col], widths: list[float], y: float
) -> float:
    x = fr.left
    for col, w in zip(cols, widths, strict=True):
        pen.rect(x, y, w, HEAD_H, fill=SHADE, width=0.7)
        pen.fit(x + 1.5, y - 11, w - 3, col.zh, 8.5, bold=True, align="center")
        pen.fit(x + 1.5, y - 21.5, w - 3, col.en, 6.3, align="center", color=GREY)
        x += w
    return y - HEAD_H


def _sheet_end(
    pen: _Pen, fr: _Frame, s: _Sheet, cols: list[_Col], widths: list[float], y: float
) -> None:
    t = s.t
    y -= 8
    if t.fixed:
        final = ("", "")
        passed = False
        if s.deals:
            last = s.deals[-1]
            assert isinstance(last, FixedDeal)
            final = last.levels or ("", "")
            passed = last.passed_a
        kind, n = _match_kind(s.match)
        done = passed or s.finished or (kind == "deals" and len(s.deals) >= n)
        if s.deals and not done:  # an unfinished match: the levels so far
            pen.text(fr.left, y - 8, f"第 {len(s.deals)} 局后", 8.5, bold=True)
            pen.text(fr.left, y - 17, f"after deal {len(s.deals)}", 6.5, color=GREY)
        else:
            pen.text(fr.left, y - 13, "终局 Final", 9.5, bold=True)
        x = fr.left + 62
        for side in (0, 1):
            pen.text(x, y - 13, f"{_SIDE[side]} 级 level", 8.5)
            pen.rect(x + 62, y - 1, 34, 18, width=0.8)
            pen.text(x + 79, y - 13, final[side], 11, bold=True, align="center")
            x += 112
        pen.text(x, y - 13, "过A passed A:", 8.5)
        pen.rect(x + 58, y - 4, 11, 11, width=0.8)
        if passed:
            pen.text(x + 63.5, y - 13, "✓", 9, align="center")
        pen.text(x + 82, y - 13, "胜方 Winner:", 8.5)
        pen.line(x + 136, y - 15, fr.right, y - 15, 0.5)
        y -= 26
        labels = [
            "甲方队长签名 Captain, side A",
            "乙方队长签名 Captain, side B",
            "裁判签名 Table director",
        ]
    else:
        # total row of the five seats' score changes
        x = fr.left
        sums: dict[str, str] = {}
        if s.deals and all(isinstance(d, RedFiveDeal) and d.scores for d in s.deals):
            for i in range(5):
                sums[f"s{i}"] = _signed(
                    sum(d.scores[i] for d in s.deals if isinstance(d, RedFiveDeal) and d.scores)
                )
        y += 8
        label_w = 0.0
        for col, w in zip(cols, widths, strict=True):
            if col.key.startswith("s") and col.key[1:].isdigit():
                pen.rect(x, y, w, ROW_H, width=0.9, fill=SHADE)
                pen.fit(
                    x + 2,
                    y - ROW_H + 6,
                    w - 4,
                    sums.get(col.key, ""),
                    10,
                    bold=True,
                    align="center",
                )
            elif col.key == "throws":
                pass
            else:
                label_w += w
            x += w
        pen.rect(fr.left, y, label_w, ROW_H, width=0.9, fill=SHADE)
        pen.text(
            fr.left + label_w - 6,
            y - ROW_H + 6.5,
            "积分合计 Score total",
            9,
            bold=True,
            align="right",
        )
        y -= ROW_H + 12
        labels = [f"座{i + 1} 签名 Seat {i + 1}" for i in range(5)] + ["裁判 Director"]
    n = len(labels)
    gap = 8.0
    w = (fr.inner - gap * (n - 1)) / n
    h = 52.0
    x = fr.left
    for label in labels:
        pen.rect(x, y, w, h, width=0.8)
        pen.fit(x + 4, y - 10, w - 8, label, 7.5, color=GREY)
        x += w + gap


# --------------------------------------------------------------------------------------------
# Table cards
# --------------------------------------------------------------------------------------------


def _draw_table_card(pen: _Pen, fr: _Frame, t: _Table, y_top: float, h: float) -> None:
    """One table card in the box from ``y_top`` down ``h`` points (a page or half a page). An
    online table's card also has a QR code per seat, under the seat diagram."""
    full = h > (fr.top - fr.bottom) * 0.75
    s = 1.0 if full else 0.72
    x, w = fr.left, fr.inner
    pen.rect(x, y_top, w, h, width=1.6)
    pen.fit(x + 14, y_top - 22 * s, w * 0.62, t.tournament, 14 * s, bold=True)
    if t.club:
        pen.fit(x + 14, y_top - 37 * s, w * 0.62, t.club, 9 * s, color=GREY)
    pen.text(x + w - 14, y_top - 22 * s, f"第 {t.round} 轮", 14 * s, bold=True, align="right")
    pen.text(x + w - 14, y_top - 37 * s, f"Round {t.round}", 10 * s, align="right")
    if t.date:
        pen.text(x + w - 14, y_top - 50 * s, t.date, 8 * s, align="right", color=GREY)
    # the number, as large as the box allows (smaller when the seats' QR codes need room)
    big = (210.0 if full else 105.0) * ((0.62 if full else 0.45) if t.links else 1.0)
    label_y = y_top - (64 if full else 36)
    pen.text(x + w / 2, label_y, "桌号 Table", 18 * s, align="center", color=GREY)
    pen.fit(x + 20, label_y - 8 - big * 0.74, w - 40, str(t.table), big, bold=True, align="center")
    y = label_y - 16 - big * 0.74
    sides_h = (58 * s) if t.fixed else 0.0
    room = y - (y_top - h) - sides_h - 12 * s
    codes = None
    if t.links:  # the codes take what they need, up to about half the room
        codes = _plan_codes(t.players, w - 28, room * (0.52 if full else 0.45) - 10 * s, s)
        room -= codes.height + 10 * s
    dw = w - 30
    dh = min(room, dw * (0.7 if full else 0.42))
    _seat_diagram(
        pen,
        t,
        x + (w - dw) / 2,
        y - (room - dh) / 2,
        dw,
        dh,
        scale=1.75 if full else 1.15,
        box_w=96 if full else 90,
    )
    if codes is not None:
        _seat_codes(pen, t, codes, x + 14, y - room - 10 * s, w - 28, s)
    y = (y_top - h) + sides_h + 6 * s
    if t.fixed:
        for side in (0, 1):
            seats = "·".join(str(i + 1) for i in range(side, t.players, 2))
            pen.text(x + 20, y - 16 * s, _SIDE_LONG[side], 13 * s, bold=True)
            pen.text(x + 20, y - 26 * s, f"座 {seats} seats", 7.5 * s, color=GREY)
            pen.fit(x + 20 + 70 * s, y - 17 * s, w - 40 - 70 * s, t.sides[side], 15 * s, bold=True)
            y -= 27 * s


@dataclass(frozen=True)
class _CodesPlan:
    side: float  # one code's width and height, quiet zone included
    per_row: int
    rows: int
    label_h: float
    gap: float

    @property
    def height(self) -> float:
        return self.rows * (self.side + self.label_h) + (self.rows - 1) * self.gap


def _plan_codes(n: int, w: float, h: float, s: float) -> _CodesPlan:
    """The seats' QR codes in a box ``w`` wide and at most ``h`` high: one row, or two when
    that makes them larger (at most 150 points a side)."""
    label_h, gap = 24 * s, 12 * s
    best: _CodesPlan | None = None
    for per_row in sorted({n, math.ceil(n / 2)}):
        rows = math.ceil(n / per_row)
        side = min(
            150 * s,
            (w - gap * (per_row - 1)) / per_row,
            (h - rows * label_h - (rows - 1) * gap) / rows,
        )
        if best is None or side > best.side:
            best = _CodesPlan(side, per_row, rows, label_h, gap)
    assert best is not None
    return best


def _seat_codes(
    pen: _Pen, t: _Table, plan: _CodesPlan, x: float, y_top: float, w: float, s: float
) -> None:
    """The seats' QR codes from ``y_top`` down, centred in ``w``; each labelled with its seat
    and who opens it (the member who logs in, or anyone who scans a guest's code)."""
    n, side, gap = t.players, plan.side, plan.gap
    for i, link in enumerate(t.links):
        r, col = divmod(i, plan.per_row)
        in_row = min(plan.per_row, n - r * plan.per_row)
        qx = x + (w - (in_row * side + (in_row - 1) * gap)) / 2 + col * (side + gap)
        qy = y_top - r * (side + plan.label_h + gap) - side
        pen.qr(link.url, qx, qy, side)
        pen.fit(
            qx - gap / 2,
            qy - 10 * s,
            side + gap,
            f"座{i + 1} Seat {i + 1} · {t.seats[i]}",
            8 * s,
            bold=True,
            align="center",
        )
        note = f"登录 log in: {link.member}" if link.member else "扫码入座 scan to play"
        pen.fit(qx - gap / 2, qy - 20 * s, side + gap, note, 6.5 * s, align="center", color=GREY)


# --------------------------------------------------------------------------------------------
# Lists: pairings and standings
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _ListCol:
    zh: str
    en: str
    weight: float
    align: str = "left"


_Cell = tuple[str, str]  # main text, small second line ("" for none)


def _draw_list(
    pen: _Pen,
    fr: _Frame,
    title: tuple[str, str],
    subtitle: str,
    cols: Sequence[_ListCol],
    rows: Sequence[Sequence[_Cell]],
    foot: str,
    after: Callable[[float], float] | None = None,
    big: bool = False,
) -> int:
    """A paginated list with the column heads repeated on each page; returns pages drawn."""
    total_w = sum(c.weight for c in cols)
    widths = [fr.inner * c.weight / total_w for c in cols]
    main_size = 12.0 if big else 10.0
    row_hs = [
        (main_size * 2.05 + 8) if any(cell[1] for cell in row) else (main_size + 12) for row in rows
    ]
    head_block = 58.0
    col_head = 26.0
    avail = fr.top - fr.bottom - 6 - head_block - col_head
    pages: list[list[int]] = [[]]
    used = 0.0
    for i, rh in enumerate(row_hs):
        if used + rh > avail and pages[-1]:
            pages.append([])
            used = 0.0
        pages[-1].append(i)
        used += rh
    n_pages = len(pages)
    for p, idxs in enumerate(pages):
        y = fr.top
        pen.text(fr.left, y - 18, title[0], 18, bold=True)
        pen.text(fr.left + _width(title[0], 18) + 8, y - 18, title[1], 12)
        pen.fit(fr.left, y - 36, fr.inner, subtitle, 10, color=GREY)
        y -= head_block
        x = fr.left
        for c, w in zip(cols, widths, strict=True):
            pen.rect(x, y, w, col_head, fill=SHADE, width=0.7)
            ax = {"left": x + 5, "center": x + w / 2, "right": x + w - 5}[c.align]
            pen.text(ax, y - 11, c.zh, 8.5, bold=True, align=c.align)
            pen.text(ax, y - 21, c.en, 6.5, align=c.align, color=GREY)
            x += w
        y -= col_head
        for k, i in enumerate(idxs):
            rh = row_hs[i]
            if k % 2 == 1:
                pen.rect(fr.left, y, fr.inner, rh, fill=ROW_SHADE, stroke=False)
            pen.line(fr.left, y, fr.right, y, 0.4)
            pen.line(fr.left, y - rh, fr.right, y - rh, 0.4)
            x = fr.left
            for c, w, (main, sub) in zip(cols, widths, rows[i], strict=True):
                fx = x + 5
                base = y - main_size - 3 if sub else y - rh / 2 - main_size * 0.35
                pen.fit(fx, base, w - 10, main, main_size, bold=c.weight >= 2, align=c.align)
                if sub:
                    pen.fit(
                        fx,
                        base - main_size - 2,
                        w - 10,
                        sub,
                        main_size * 0.75,
                        align=c.align,
                        color=GREY,
                    )
                x += w
            y -= rh
        if after is not None and p == n_pages - 1:
            after(y)
        _footer(pen, fr, foot, p + 1, n_pages)
        pen.c.showPage()
    return n_pages


def _pairings_rows(tables: Sequence[_Table]) -> tuple[list[_ListCol], list[list[_Cell]]]:
    if not tables:
        return [_ListCol("桌", "Table", 0.6, "center")], []
    first = tables[0]
    cols = [_ListCol("桌", "Table", 0.6, "center")]
    rows: list[list[_Cell]] = []
    if first.fixed:
        n = first.players
        for side in (0, 1):
            seats = "·".join(str(i + 1) for i in range(side, n, 2))
            cols.append(_ListCol(_SIDE_LONG[side], f"seats {seats}", 4.0))
        for t in tables:
            row: list[_Cell] = [(str(t.table), "")]
            for side in (0, 1):
                players = " · ".join(t.seats[i] for i in range(side, t.players, 2))
                row.append((t.sides[side], players))
            rows.append(row)
    else:
        for i in range(5):
            cols.append(_ListCol(f"座{i + 1}", f"Seat {i + 1}", 2.0))
        for t in tables:
            rows.append([(str(t.table), "")] + [(name, "") for name in t.seats])
    return cols, rows


_STANDING_COLS: dict[str, _ListCol] = {
    "rank": _ListCol("名次", "Rank", 0.7, "center"),
    "entrant": _ListCol("参赛者", "Entrant", 4.2),
    "played": _ListCol("场数", "Played", 0.9, "right"),
    "match_points": _ListCol("场分", "Match points", 1.2, "right"),
    "level_diff": _ListCol("级差", "Level diff.", 1.1, "right"),
    "opponents_points": _ListCol("对手分", "Opp. points", 1.2, "right"),
    "deals": _ListCol("局数", "Deals", 0.9, "right"),
    "score": _ListCol("积分", "Score", 1.1, "right"),
    "dealer_wins": _ListCol("庄胜", "Dealer wins", 1.2, "right"),
}
_DEFAULT_STANDING_COLS = {
    "fixed": ("rank", "entrant", "played", "match_points", "level_diff", "opponents_points"),
    RED_FIVE: ("rank", "entrant", "deals", "score", "dealer_wins"),
}


def _standing_cell(key: str, value: Any, row_no: int) -> str:
    if key == "entrant":
        return _clean(value, f"standings row {row_no}: entrant")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PrintError(f"standings row {row_no}: {key} must be a number, not {value!r}")
    if key in ("level_diff", "score"):
        return _signed(int(value)) if float(value).is_integer() else f"{value:+g}"
    return f"{value:g}" if isinstance(value, float) else str(value)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def score_sheet(sheet: ScoreSheet, filled: bool = False, page_size: str = "A4") -> bytes:
    """A table's 记分表; ``filled`` prints the recorded deals in the rows (else blank rows)."""
    checked = _check_sheet(sheet, filled)
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"记分表 Score sheet - table {checked.t.table}")
    _draw_sheet(_Pen(c), _Frame(*size), checked)
    c.save()
    return buf.getvalue()


def table_cards(
    cards: Sequence[TableCard | ScoreSheet], page_size: str = "A4", per_page: int = 1
) -> bytes:
    """Table cards in table order: one per page, or two per page (``per_page=2``)."""
    if per_page not in (1, 2):
        raise PrintError(f"per_page must be 1 or 2, not {per_page!r}")
    tables = sorted(
        (_check_table(card, f"card {i + 1}") for i, card in enumerate(cards)),
        key=lambda t: t.table,
    )
    if not tables:
        raise PrintError("no table cards to print")
    size = _page_size(page_size)
    c, buf = _new_canvas(size, "桌卡 Table cards")
    pen, fr = _Pen(c), _Frame(*size)
    _draw_cards(pen, fr, tables, per_page)
    c.save()
    return buf.getvalue()


def _draw_cards(pen: _Pen, fr: _Frame, tables: Sequence[_Table], per_page: int) -> None:
    full = fr.top - fr.bottom
    if per_page == 1:
        for t in tables:
            _draw_table_card(pen, fr, t, fr.top, full)
            pen.c.showPage()
        return
    half = (full - 24) / 2
    for k in range(0, len(tables), 2):
        _draw_table_card(pen, fr, tables[k], fr.top, half)
        if k + 1 < len(tables):
            pen.c.setDash(4, 3)
            pen.line(fr.left - 20, fr.top - half - 12, fr.right + 20, fr.top - half - 12, 0.5)
            pen.c.setDash()
            _draw_table_card(pen, fr, tables[k + 1], fr.top - half - 24, half)
        pen.c.showPage()


def _check_round(rnd: RoundPack) -> tuple[list[_Table], list[str]]:
    if not isinstance(rnd, RoundPack):
        raise PrintError(f"expected a RoundPack, not {rnd!r}")
    _check_variant(rnd.variant)
    _check_int(rnd.round, "round", 1)
    tables = []
    seen: set[int] = set()
    for i, sheet in enumerate(rnd.sheets):
        t = _check_table(sheet, f"sheet {i + 1}")
        if t.variant != rnd.variant or t.round != rnd.round:
            raise PrintError(
                f"table {t.table}: its variant/round ({t.variant}, {t.round}) differ from the"
                f" round's ({rnd.variant}, {rnd.round})"
            )
        if t.table in seen:
            raise PrintError(f"table {t.table} appears twice in round {rnd.round}")
        seen.add(t.table)
        tables.append(t)
    byes = [_clean(b, "bye") for b in rnd.byes]
    return sorted(tables, key=lambda t: t.table), byes


def _draw_pairings(
    pen: _Pen, fr: _Frame, rnd: RoundPack, tables: list[_Table], byes: list[str]
) -> int:
    cols, rows = _pairings_rows(tables)
    tournament = _clean(rnd.tournament, "tournament")
    club = _clean(rnd.club, "club")
    date = _clean(rnd.date, "date")
    subtitle = " · ".join(
        p
        for p in (
            tournament,
            club,
            f"第 {rnd.round} 轮 Round {rnd.round}",
            _variant_label(rnd.variant),
            date,
        )
        if p
    )

    def after(y: float) -> float:
        if byes:
            pen.block(
                fr.left,
                y - 8,
                fr.inner,
                40,
                "轮空 Bye: " + " · ".join(byes),
                10.5,
                align="left",
                valign="top",
            )
        return y

    return _draw_list(
        pen,
        fr,
        (f"第 {rnd.round} 轮对阵", f"Pairings, round {rnd.round}"),
        subtitle,
        cols,
        rows,
        f"对阵 Pairings · {tournament} · 第 {rnd.round} 轮 Round {rnd.round}",
        after,
        big=True,
    )


def pairings(rnd: RoundPack, page_size: str = "A4") -> bytes:
    """A round's pairings list (tables in order, players by seat, byes)."""
    tables, byes = _check_round(rnd)
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"对阵 Pairings - round {rnd.round}")
    _draw_pairings(_Pen(c), _Frame(*size), rnd, tables, byes)
    c.save()
    return buf.getvalue()


def standings(doc: Standings, page_size: str = "A4") -> bytes:
    """Standings with the tie-break columns (see ``Standings``)."""
    if not isinstance(doc, Standings):
        raise PrintError(f"expected Standings, not {doc!r}")
    variant = _check_variant(doc.variant)
    default = _DEFAULT_STANDING_COLS[RED_FIVE if variant == RED_FIVE else "fixed"]
    keys = tuple(doc.columns) if doc.columns is not None else default
    for key in keys:
        if key not in default:
            raise PrintError(
                f"unknown standings column {key!r} for {variant}; the columns are"
                f" {', '.join(default)}"
            )
    if "entrant" not in keys:
        raise PrintError("standings need the entrant column")
    cols = [_STANDING_COLS[k] for k in keys]
    rows: list[list[_Cell]] = []
    for n, row in enumerate(doc.rows, start=1):
        if not isinstance(row, Mapping):
            raise PrintError(f"standings row {n} must be an object, not {row!r}")
        cells: list[_Cell] = []
        for key in keys:
            if key not in row:
                raise PrintError(f"standings row {n} has no {key!r}")
            text = _standing_cell(key, row[key], n)
            note = _clean(row.get("note", ""), f"standings row {n}: note")
            cells.append((text, note if key == "entrant" else ""))
        rows.append(cells)
    tournament = _clean(doc.tournament, "tournament")
    club = _clean(doc.club, "club")
    after = (
        f"第 {doc.after_round} 轮后 after round {doc.after_round}"
        if doc.after_round is not None
        else ""
    )
    subtitle = " · ".join(
        p for p in (tournament, club, _variant_label(variant), after, _clean(doc.date, "date")) if p
    )
    size = _page_size(page_size)
    c, buf = _new_canvas(size, "排名 Standings")
    _draw_list(
        _Pen(c),
        _Frame(*size),
        ("排名", "Standings"),
        subtitle,
        cols,
        rows,
        f"排名 Standings · {tournament}",
        big=True,
    )
    c.save()
    return buf.getvalue()


def print_pack(
    rnd: RoundPack,
    page_size: str = "A4",
    filled: bool = False,
    with_pairings: bool = True,
    with_cards: bool = True,
) -> bytes:
    """A round's whole pack in one PDF: the pairings list, then per table (in table order) its
    table card and its score sheet (``filled``: with the recorded deals)."""
    tables, byes = _check_round(rnd)
    sheets = sorted((_check_sheet(s, filled) for s in rnd.sheets), key=lambda s: s.t.table)
    if not sheets:
        raise PrintError(f"round {rnd.round} has no tables to print")
    size = _page_size(page_size)
    c, buf = _new_canvas(size, f"第 {rnd.round} 轮 Round {rnd.round} print pack")
    pen, fr = _Pen(c), _Frame(*size)
    if with_pairings:
        _draw_pairings(pen, fr, rnd, tables, byes)
    for s in sheets:
        if with_cards:
            _draw_table_card(pen, fr, s.t, fr.top, fr.top - fr.bottom)
            c.showPage()
        _draw_sheet(pen, fr, s)
    c.save()
    return buf.getvalue()
