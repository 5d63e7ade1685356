"""A season's standings as files: CSV (safe for spreadsheets), the printed table with the chart
(PDF), and a phone-sized picture for the club's group chat (PNG) — the same drawing for both."""

from __future__ import annotations

import csv
import io

from flask_babel import gettext as _

from ...charts import builders, drawing
from ...competition.seasons import Rule
from ...models import Club, Season
from ...printing.images import ImageRow, StandingsImage, standings_png
from ...printing.season import SeasonStandings, season_standings
from ..tournaments.csv_export import safe_cell
from .standings import chart_lines, grouped_json, rule_of

RULE_WORDS = {
    "total": "总分 total",
    "best": "最好 {n} 场 best {n} nights",
    "average": "每场平均 average per night",
    "places": "名次积分 league points per place",
}


def rule_words(rule: Rule) -> str:
    return RULE_WORDS[rule.kind].format(n=rule.best)


COLUMNS = ("rank", "player", "nights", "score", "level_diff")


def standings_csv(season: Season, rule: Rule | None = None) -> str:
    """One row per player; with divisions a ``division`` column first (empty: no division),
    the rows grouped by division in the season's order and ranked within it."""
    rows = grouped_json(season, rule)
    grouped = bool(season.divisions)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow((["division"] if grouped else []) + list(COLUMNS))
    for r in rows:
        cells = [("" if r[k] is None else r[k]) for k in COLUMNS]
        if grouped:
            cells.insert(0, r["division"] or "")
        w.writerow([safe_cell(v) for v in cells])
    return buf.getvalue()


def _chart(season: Season, rule: Rule) -> object | None:
    labels, totals, final = chart_lines(season, rule)
    if len(labels) < 2:
        return None
    return drawing.render(
        builders.totals_chart(_("The season night by night"), labels, totals, final)
    )


def standings_pdf(season: Season, club: Club, page_size: str, rule: Rule | None = None) -> bytes:
    chosen = rule or rule_of(season)
    rows = tuple(grouped_json(season, chosen))
    doc = SeasonStandings(season.name, club.name, rule_words(chosen), rows, _chart(season, chosen))
    return season_standings(doc, page_size)


def image_rows(season: Season, rule: Rule) -> tuple[ImageRow, ...]:
    """The picture's rows: with divisions, a title row before each division's rows."""
    rows: list[ImageRow] = []
    heading: object = object()
    for r in grouped_json(season, rule):
        if "division" in r and r["division"] != heading:
            heading = r["division"]
            rows.append(ImageRow("", f"【{heading or _('Nights in no division')}】", ""))
        rows.append(
            ImageRow(
                "–" if r["rank"] is None else str(r["rank"]),
                r["player"],
                str(r["score"]),
                f"{r['level_diff']:+d}" if r["level_diff"] else "",
            )
        )
    return tuple(rows)


def standings_image(season: Season, club: Club, rule: Rule | None = None) -> bytes:
    chosen = rule or rule_of(season)
    rows = image_rows(season, chosen)
    img = StandingsImage(
        title=season.name,
        subtitle=f"{club.name} · {rule_words(chosen)}",
        head=(_("#"), _("Player"), _("Score"), _("级差")),
        rows=rows,
        chart=_chart(season, chosen),
        footer=_("Shengji Club · standings re-derived from every recorded deal"),
    )
    return standings_png(img)
