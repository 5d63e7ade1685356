"""The drawing of a chart, independent of how it is rendered."""

from __future__ import annotations

from dataclasses import dataclass, field

# A small palette that stays apart in print and for common colour blindness (Okabe–Ito).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
MARK_KINDS = ("takeover", "failed_throw", "kitty", "passed")


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    kind: str  # one of MARK_KINDS
    label: str = ""


@dataclass
class Series:
    name: str
    points: list[tuple[float, float]]
    step: bool = False  # drawn as steps (a level holds until the next deal)
    color: str = PALETTE[0]
    marks: list[Mark] = field(default_factory=list)


@dataclass
class Chart:
    title: str
    x_labels: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    series: list[Series]
    y_min: float
    y_max: float
    x_min: float = 0.0
    x_max: float = 1.0
    width: int = 640
    height: int = 320
    invert_y: bool = False  # ranks: 1 at the top
    legend: list[tuple[str, str]] = field(default_factory=list)  # (mark kind, words)

    # plot area inside the chart (room for labels and the legend)
    left: int = 48
    right: int = 16
    top: int = 36
    bottom: int = 56

    def px(self, x: float) -> float:
        span = (self.x_max - self.x_min) or 1.0
        return self.left + (x - self.x_min) / span * (self.width - self.left - self.right)

    def py(self, y: float) -> float:
        """Screen y (0 at the top) of a value y."""
        span = (self.y_max - self.y_min) or 1.0
        frac = (y - self.y_min) / span
        if self.invert_y:
            frac = 1 - frac
        return self.top + (1 - frac) * (self.height - self.top - self.bottom)

    @staticmethod
    def legend_step(text: str) -> int:
        """How far the next legend entry starts after one labelled ``text`` (wide CJK glyphs
        count more), the same in every renderer."""
        return 24 + 7 * len(text) + 6 * sum(1 for ch in text if ord(ch) > 0x2E80)

    def path(self, s: Series) -> list[tuple[float, float]]:
        """The screen points of a series (steps expanded)."""
        pts: list[tuple[float, float]] = []
        for i, (x, y) in enumerate(s.points):
            if s.step and i:
                pts.append((self.px(x), self.py(s.points[i - 1][1])))
            pts.append((self.px(x), self.py(y)))
        return pts
