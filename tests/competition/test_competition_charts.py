"""Charts: valid SVG with the right number of steps and marks, the same scene drawn for the PDF
(reportlab) and as a PNG, text escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from app.charts import builders, drawing, svg
from app.competition import tfile
from app.competition.matches import derive_fixed

WORDS = builders.LevelWords("Levels", "Deal", "take-over", "failed throw", "抠底", "passed A")


def _match(deals):
    t = tfile.load(
        {
            "format": "shengji-tournament/1",
            "club": "C",
            "name": "N",
            "variant": "tractor-4p",
            "pairing": "round-robin",
            "rounds": 1,
            "match": {"deals": len(deals)},
            "entrants": [
                {"name": "A", "players": ["a", "b"]},
                {"name": "B", "players": ["c", "d"]},
            ],
            "played": [{"round": 1, "tables": [{"table": 1, "sides": ["A", "B"], "deals": deals}]}],
        }
    )
    tab = t.played[0].tables[0]
    return derive_fixed(t.rules, t.match, tab), tab.deals


DEALS = [
    {"declarer": 0, "trump": "S", "points": 0, "kitty": 0},  # A +3 → 5
    {
        "declarer": 0,
        "trump": "S",
        "points": 130,
        "kitty": 10,
        "multiplier": 2,
    },  # B take over +1 (150)
    {
        "declarer": 1,
        "trump": "H",
        "points": 40,
        "kitty": 0,
        "failed_throws": {"declarer": 1, "attackers": 0},
    },
]


def test_the_level_chart_is_valid_svg_with_a_step_per_deal_and_the_marks():
    m, deals = _match(DEALS)
    chart = builders.level_chart(m, deals, ["A & <b>", "B"], WORDS)
    text = str(svg.render(chart))
    root = ET.fromstring(text)  # valid XML
    assert root.tag.endswith("svg")
    paths = [e for e in root.iter() if e.get("class") == "series"]
    assert [p.get("data-points") for p in paths] == ["4", "4"]  # start + 3 deals
    # steps: each deal after the first adds a horizontal then a vertical segment
    assert all(len(p.get("d").split("L")) == 2 * 3 + 1 for p in paths)
    kinds = [e.get("class") for e in root.iter() if (e.get("class") or "").startswith("mark ")]
    assert sorted(kinds) == ["mark mark-failed_throw", "mark mark-kitty", "mark mark-takeover"]
    assert "A &amp; &lt;b&gt;" in text and "<b>" not in text
    a, b = (s.points for s in chart.series)
    assert a == [(0, 2), (1, 5), (2, 5), (3, 5)]
    assert b[-1][1] > b[1][1]  # B rose by taking over and then keeping


def test_the_same_scene_draws_for_the_pdf_and_a_png():
    from reportlab.graphics import renderPDF

    m, deals = _match(DEALS)
    chart = builders.level_chart(m, deals, ["A", "B"], WORDS)
    d = drawing.render(chart)
    assert d.width == chart.width
    pdf = renderPDF.drawToString(d)
    assert pdf.startswith(b"%PDF")


def test_line_charts_keep_the_best_eight_and_ranks_put_first_on_top():
    names = [f"P{i}" for i in range(12)]
    ranks = {n: [i + 1, (i + 3) % 12 + 1] for i, n in enumerate(names)}
    chart = builders.ranks_chart("Night", ["R1", "R2"], ranks, names)
    assert len(chart.series) == 8
    assert chart.py(1) < chart.py(12)  # place 1 is drawn higher than place 12
    root = ET.fromstring(str(svg.render(chart)))
    assert len([e for e in root.iter() if e.get("class") == "series"]) == 8
    rating = builders.rating_chart(
        "Rating", [("2026-01-01#1", 1000), ("2026-01-01#2", 1040), ("2026-02-01#3", 990)], "Ann"
    )
    text = str(svg.render(rating))
    assert len(re.findall(r"2026-01-01", text)) == 1  # one label per day
