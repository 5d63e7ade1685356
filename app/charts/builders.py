"""One chart per thing people look at. Words are passed in translated by the caller (the app's
locale), so this module stays free of Flask."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.scoring import LEVELS, level_value

from ..competition.matches import FixedMatch
from ..competition.model import Deal, FailedThrows
from .scene import PALETTE, Chart, Mark, Series

LEVEL_TICKS: list[tuple[float, str]] = [(float(level_value(lv)), lv) for lv in LEVELS]
MAX_LINES = 8  # more lines than this are unreadable: the best ones are drawn


@dataclass(frozen=True)
class LevelWords:
    title: str
    deal: str  # x axis words, e.g. "Deal" / "局"
    takeover: str
    failed_throw: str
    kitty: str
    passed: str


def level_chart(
    match: FixedMatch, deals: Sequence[Deal], sides: Sequence[str], words: LevelWords
) -> Chart:
    """Both sides' levels deal by deal, as steps; take-overs, failed throws, 抠底 and a passed A
    marked on the side they concern."""
    series = [
        Series(str(sides[i]), [(0, level_value("2"))], step=True, color=PALETTE[i]) for i in (0, 1)
    ]
    for i, row in enumerate(match.rows, 1):
        for side in (0, 1):
            lv = row.levels_after[side]
            passed = row.passed and row.winner_side == side
            series[side].points.append((i, 15 if passed else level_value(lv)))
        deal = deals[i - 1] if i - 1 < len(deals) else None
        attackers = 1 - row.declarer
        y_of = lambda s: series[s].points[-1][1]  # noqa: E731
        if row.winner == "attackers":
            series[attackers].marks.append(Mark(i, y_of(attackers), "takeover", words.takeover))
        if row.passed:
            series[row.winner_side].marks.append(
                Mark(i, y_of(row.winner_side), "passed", words.passed)
            )
        if deal is not None:
            if deal.multiplier:
                series[attackers].marks.append(
                    Mark(i, y_of(attackers), "kitty", f"{words.kitty} ×{deal.multiplier}")
                )
            ft = deal.failed_throws
            if isinstance(ft, FailedThrows):
                for side, n in ((row.declarer, ft.declarer), (attackers, ft.attackers)):
                    if n:
                        series[side].marks.append(
                            Mark(i, y_of(side), "failed_throw", f"{words.failed_throw} ×{n}")
                        )
            for side in deal.misplays or ():
                series[side].marks.append(Mark(i, y_of(side), "failed_throw", words.failed_throw))
    n = len(match.rows)
    top = max(max(y for _x, y in s.points) for s in series)
    y_max = max(top, 6)
    ticks = [t for t in LEVEL_TICKS if t[0] <= y_max] + ([(15.0, "A+")] if top >= 15 else [])
    return Chart(
        title=words.title,
        x_labels=[(i, str(i)) for i in range(0, n + 1)],
        y_ticks=ticks,
        series=series,
        y_min=2,
        y_max=y_max,
        x_min=0,
        x_max=max(n, 1),
        legend=[
            ("takeover", words.takeover),
            ("failed_throw", words.failed_throw),
            ("kitty", words.kitty),
        ],
    )


def _lines(
    title: str,
    labels: Sequence[str],
    by_name: Mapping[str, Sequence[float]],
    best: Sequence[str],
    invert: bool,
    y_min: float | None = None,
) -> Chart:
    names = list(best)[:MAX_LINES]
    series = [
        Series(name, [(i, float(v)) for i, v in enumerate(by_name[name])], color=PALETTE[k % 8])
        for k, name in enumerate(names)
    ]
    values = [v for s in series for _x, v in s.points] or [0.0, 1.0]
    lo = min(values) if y_min is None else y_min
    hi = max(values)
    if hi == lo:
        hi = lo + 1
    step = max(1, round((hi - lo) / 6))
    ticks = [(float(v), str(int(v))) for v in range(int(lo), int(hi) + 1, step)]
    return Chart(
        title=title,
        x_labels=[(i, label) for i, label in enumerate(labels)],
        y_ticks=ticks,
        series=series,
        y_min=lo,
        y_max=hi,
        x_min=0,
        x_max=max(len(labels) - 1, 1),
        invert_y=invert,
    )


def ranks_chart(
    title: str, labels: Sequence[str], ranks: Mapping[str, Sequence[int]], final: Sequence[str]
) -> Chart:
    """A night's standings over rounds: each entrant's place after every round (1 on top)."""
    return _lines(title, labels, ranks, final, invert=True, y_min=1)


def totals_chart(
    title: str, labels: Sequence[str], totals: Mapping[str, Sequence[float]], final: Sequence[str]
) -> Chart:
    """A season's standings over nights: each player's running score after every night."""
    return _lines(title, labels, totals, final, invert=False)


def rating_chart(title: str, history: Sequence[tuple[str, int]], name: str) -> Chart:
    """A player's rating after each rated game."""
    labels = [when.split("#")[0] for when, _r in history]
    shown = [lab if i == 0 or lab != labels[i - 1] else "" for i, lab in enumerate(labels)]
    return _lines(title, shown, {name: [r for _w, r in history]}, [name], invert=False)
