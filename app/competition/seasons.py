"""Season standings: a club's nights aggregated per *player*, always re-derived (TOURNAMENT.md
"Seasons"). Pure: no Flask, no database.

Each night gives every player of every entrant one line: the entrant's number that night (match
points for fixed sides, 积分 for red five, points by place for 争上游), its 级差 (0 for red five
and 争上游) and its finishing place. A
pair's or trio's result is credited to each of its players, so a player who changes partner keeps
one season line. The season's rule turns those lines into a score:

* ``total``: the sum over nights;
* ``best:N``: the sum of the N highest nights (nights ranked by their number, then by 级差);
* ``average``: the mean over nights played, rounded to 2 decimals (halves up); players with fewer
  than ``min_nights`` nights are listed after the ranked ones, unranked;
* ``places``: league points per finishing place in each night, from the season's table (a place
  beyond the table earns 0).

``level_diff`` is summed over the same nights as the score (all nights, or the best N). Order:
score, then level_diff, then nights, all descending, then the player's name by code point.
A player is one line however the name was typed: names are compared as ``names.name_match_key``
("王 伟" is 王伟), the line shows the first spelling met.

Divisions (甲级 / 乙级 …): ``promote_relegate`` moves the top k of each lower division up and the
bottom k of each upper division down, seeding the next season. A division's carry-over factor
(e.g. ×1.15 for the upper, ×0.90 for the lower) multiplies the score a player brings from the
season just ended into the next season's standings, by the division the player is seeded into;
carried points count as the player's starting score and count no night.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .model import Tournament
from .names import name_match_key
from .standings import FixedStanding, RedFiveStanding, entrant_history, standings

RULES = ("total", "best", "average", "places")


class SeasonRuleError(ValueError):
    """A season rule that cannot be used (its sentence says why, in English; the app words it)."""


@dataclass(frozen=True)
class Rule:
    kind: str = "total"  # one of RULES
    best: int = 0  # N of best:N
    min_nights: int = 1  # average: nights needed to be ranked
    places: tuple[int, ...] = ()  # places: league points for place 1, 2, …

    @property
    def label(self) -> str:
        return f"best:{self.best}" if self.kind == "best" else self.kind

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.label}
        if self.kind == "average":
            out["min_nights"] = self.min_nights
        if self.kind == "places":
            out["places"] = list(self.places)
        return out


def parse_rule(text: str, min_nights: int = 1, places: Sequence[int] | None = None) -> Rule:
    """``total``, ``best:N``, ``average`` or ``places`` (with the season's table)."""
    raw = (text or "").strip().lower()
    if raw == "total":
        return Rule("total")
    if raw.startswith("best:"):
        n = raw.removeprefix("best:")
        if not n.isdigit() or not 1 <= int(n) <= 1000:
            raise SeasonRuleError(f"best:N needs a whole number of nights from 1, not {n!r}")
        return Rule("best", best=int(n))
    if raw == "average":
        if not isinstance(min_nights, int) or not 1 <= min_nights <= 1000:
            raise SeasonRuleError("the minimum number of nights is a whole number from 1")
        return Rule("average", min_nights=min_nights)
    if raw == "places":
        table = tuple(places or ())
        if not table:
            raise SeasonRuleError("the places rule needs a table of league points per place")
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in table):
            raise SeasonRuleError("league points per place are whole numbers from 0")
        return Rule("places", places=table)
    raise SeasonRuleError(f"unknown season rule {text!r}: total, best:N, average or places")


@dataclass(frozen=True)
class NightLine:
    """One player's result in one night."""

    night: str  # the tournament's name
    player: str
    number: int  # match points (fixed sides), 积分 (red five) or points by place (争上游)
    level_diff: int
    place: int  # the entrant's rank that night (1 = first)
    entrant: str


def night_lines(t: Tournament, player_names: Mapping[str, str] | None = None) -> list[NightLine]:
    """Every player's line in one night, from the night's own standings. ``player_names`` maps a
    name as written on the night to the member's name (a linked member keeps one line)."""
    rename = player_names or {}
    lines: list[NightLine] = []
    for row in standings(t):
        entrant = t.entrant_map.get(row.entrant)
        players = entrant.players if entrant is not None and entrant.players else (row.entrant,)
        if isinstance(row, FixedStanding):
            number, diff = row.match_points, row.level_diff
        else:
            assert isinstance(row, RedFiveStanding)
            number, diff = row.score, 0
        if entrant is not None and entrant.substitutes:
            # each player is credited with the rounds they played for the entrant
            shares: dict[str, list[int]] = {}
            for h in entrant_history(t, row.entrant):
                for p in entrant.players_in(h.round):
                    share = shares.setdefault(p, [0, 0])
                    if not h.counted:
                        continue
                    share[0] += h.match_points if isinstance(row, FixedStanding) else h.score
                    share[1] += h.level_diff if isinstance(row, FixedStanding) else 0
            for p, (number, diff) in shares.items():
                lines.append(
                    NightLine(t.name, rename.get(p, p), number, diff, row.rank, row.entrant)
                )
            continue
        for p in players:
            lines.append(NightLine(t.name, rename.get(p, p), number, diff, row.rank, row.entrant))
    return lines


@dataclass
class SeasonRow:
    player: str
    nights: int = 0
    score: int | float = 0
    level_diff: int = 0
    carried: float = 0.0  # points brought from the previous season (carry-over factor applied)
    ranked: bool = True
    rank: int | None = None
    per_night: list[NightLine] = field(default_factory=list)  # in the order of the nights
    counted: list[str] = field(default_factory=list)  # nights that count under the rule

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "nights": self.nights,
            "score": self.score,
            "level_diff": self.level_diff,
        }


def _half_up(x: Fraction, places: int = 2) -> float:
    q = Decimal(x.numerator) / Decimal(x.denominator)
    return float(q.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else _half_up(x)


def season_standings(
    nights: Sequence[Sequence[NightLine]],
    rule: Rule = Rule(),
    carried: Mapping[str, float] | None = None,
) -> list[SeasonRow]:
    """The season's table, best first (see the module's docstring). ``nights`` in date order,
    each the lines of one night; ``carried``: points a player brings from the last season."""
    rows: dict[str, SeasonRow] = {}  # by name_match_key: "王 伟" one night is 王伟 the next
    for lines in nights:
        seen: set[str] = set()
        for line in lines:
            key = name_match_key(line.player)
            if key in seen:  # the same name twice in one night: count it once
                continue
            seen.add(key)
            row = rows.setdefault(key, SeasonRow(line.player))
            row.per_night.append(line)
            row.nights += 1
    for name, pts in (carried or {}).items():
        rows.setdefault(name_match_key(name), SeasonRow(name)).carried = float(pts)
    for row in rows.values():
        _score(row, rule)
    ordered = sorted(
        rows.values(),
        key=lambda r: (not r.ranked, -r.score, -r.level_diff, -r.nights, r.player),
    )
    place = 0
    for row in ordered:
        if row.ranked:
            place += 1
            row.rank = place
    return ordered


def _score(row: SeasonRow, rule: Rule) -> None:
    lines = row.per_night
    carry = Fraction(row.carried).limit_denominator(10_000)
    if rule.kind == "best":
        chosen = sorted(lines, key=lambda x: (-x.number, -x.level_diff))[: rule.best]
        row.score = _number(sum((Fraction(x.number) for x in chosen), carry))
        row.level_diff = sum(x.level_diff for x in chosen)
        row.counted = [x.night for x in chosen]
        return
    row.counted = [x.night for x in lines]
    row.level_diff = sum(x.level_diff for x in lines)
    if rule.kind == "places":
        table = rule.places
        pts = sum(table[x.place - 1] if 0 < x.place <= len(table) else 0 for x in lines)
        row.score = _number(Fraction(pts) + carry)
    elif rule.kind == "average":
        row.ranked = row.nights >= rule.min_nights
        if not lines:
            row.score = _number(carry)
        else:
            mean = Fraction(sum(x.number for x in lines), len(lines))
            row.score = _half_up(mean + carry)
    else:
        row.score = _number(Fraction(sum(x.number for x in lines)) + carry)


# --- divisions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Movement:
    """The next season's divisions: ``divisions[0]`` is the top; who went up and who down."""

    divisions: tuple[tuple[str, ...], ...]
    promoted: tuple[str, ...]
    relegated: tuple[str, ...]


def promote_relegate(final: Sequence[Sequence[str]], k: int) -> Movement:
    """``final``: each division's players in final order (top division first). The top ``k`` of
    each lower division swap with the bottom ``k`` of the division above it. A division smaller
    than ``k`` moves only what it has, and the exchange stays one for one so sizes are kept."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise SeasonRuleError("the number of players going up and down is a whole number from 0")
    divs = [list(d) for d in final]
    up: list[str] = []
    down: list[str] = []
    for i in range(len(divs) - 1):
        upper, lower = divs[i], divs[i + 1]
        n = min(k, len(upper), len(lower))
        if n == 0:
            continue
        going_down = upper[len(upper) - n :]
        going_up = lower[:n]
        divs[i] = upper[: len(upper) - n] + going_up
        divs[i + 1] = going_down + lower[n:]
        up += going_up
        down += going_down
    return Movement(tuple(tuple(d) for d in divs), tuple(up), tuple(down))


def carry_over(
    previous: Iterable[SeasonRow], seeded: Mapping[str, int], factors: Sequence[float]
) -> dict[str, float]:
    """Points each player brings into the next season: the season's score × the factor of the
    division the player is seeded into (``seeded``: player → division index). No factor for a
    division (or an empty list): nothing is carried."""
    out: dict[str, float] = {}
    for row in previous:
        div = seeded.get(row.player)
        if div is None or div >= len(factors) or not factors[div]:
            continue
        out[row.player] = round(float(row.score) * float(factors[div]), 2)
    return out


# --- one variant per season ----------------------------------------------------------------------


def season_variant(variant: str, options: Mapping[str, Any] | None = None) -> str:
    """What "a season holds nights of one variant" compares: the variant id, and for 打百分's
    ``hundred-4p`` its ``friend`` mode too (``"hundred-4p/fixed"``): a fixed-pair night scores
    match points and 分差, the other modes 积分 (blind with 一打三), so they never share a table."""
    if variant == "hundred-4p":
        friend = (options or {}).get("friend", "hidden")
        return f"{variant}/{friend}"
    return variant


def variant_refusal(season: str, held: str | None, night: Tournament) -> str | None:
    """Why ``night`` cannot count in a season whose nights are of ``held`` (a
    ``season_variant``), naming both; None when it can (or the season has no night yet)."""
    got = season_variant(night.variant, night.options)
    if held is None or held == got:
        return None
    return (
        f"{season} is a season of {held} nights; {night.name} is a {got} night and cannot count "
        "in it. Nothing was saved."
    )
