"""Standings with tie-breaks on hand-made tournaments, as the public page and the CLI show them."""

from __future__ import annotations

import json
import re

from app.competition import tfile


def _deal(declarer: int, points: int) -> dict:
    return {"declarer": declarer, "trump": "S", "points": points, "kitty": 0}


# Six pairs, one deal a match. Round 1: A beats B by 3 levels (0 points), C beats D by 1
# (declarer keeps with 40..75 → +1), E draws F?  (one deal: a side always wins) — E beats F by 1.
# Round 2: A beats C by 1, B beats E by 1, D beats F by 1.
# Match points: A 4, then B, C, D, E 2 each, F 0.
#   级差: B -3+1 = -2, C +1-1 = 0, D -1+1 = 0, E +1-1 = 0.
#   C, D, E tie on 2 points and 级差 0; 对手分: C met D(2), A(4) = 6; D met C(2), F(0) = 2;
#   E met F(0), B(2) = 2 → C first, then D and E tie on everything: by name, D before E.
DOC = {
    "format": "shengji-tournament/1",
    "club": "Tie Club",
    "name": "Tie Cup",
    "variant": "tractor-4p",
    "pairing": "swiss",
    "rounds": 2,
    "match": {"deals": 1},
    "points": {"win": 2, "draw": 1, "loss": 0},
    "entrants": [{"name": n, "players": [n + "1", n + "2"]} for n in "ABCDEF"],
    "played": [
        {
            "round": 1,
            "tables": [
                {"table": 1, "sides": ["A", "B"], "deals": [_deal(0, 0)]},
                {"table": 2, "sides": ["C", "D"], "deals": [_deal(0, 40)]},
                {"table": 3, "sides": ["E", "F"], "deals": [_deal(0, 40)]},
            ],
        },
        {
            "round": 2,
            "tables": [
                {"table": 1, "sides": ["A", "C"], "deals": [_deal(0, 40)]},
                {"table": 2, "sides": ["B", "E"], "deals": [_deal(0, 40)]},
                {"table": 3, "sides": ["D", "F"], "deals": [_deal(0, 40)]},
            ],
        },
    ],
}

EXPECTED = [
    ("A", 4, 4, 4),  # 级差 +3 +1; opponents B 2 + C 2
    ("C", 2, 0, 6),
    ("B", 2, -2, 6),
    ("D", 2, 0, 2),
    ("E", 2, 0, 2),
    ("F", 0, -2, 4),
]


def test_tie_breaks_cli_and_page(runner, client, tmp_path):
    path = tmp_path / "tie.json"
    path.write_text(json.dumps(DOC), "utf-8")
    assert runner.invoke(args=["tournament", "import", str(path)]).exit_code == 0
    out = json.loads(runner.invoke(args=["tournament", "standings", "Tie Cup", "--json"]).stdout)
    got = [(r["entrant"], r["match_points"], r["level_diff"], r["opponents_points"]) for r in out]
    ordered = sorted(EXPECTED, key=lambda x: (-x[1], -x[2], -x[3], x[0]))
    assert got == ordered
    assert [r["rank"] for r in out] == [1, 2, 3, 4, 5, 6]
    assert out == tfile.standings_json(tfile.load(DOC))
    from sqlalchemy import select

    from app.extensions import db
    from app.models import Tournament
    from app.services.visibility import set_visibility

    t = db.session.scalar(select(Tournament).where(Tournament.name == "Tie Cup"))
    assert t is not None
    set_visibility(t, "public")  # an imported night is the club's until made public
    db.session.commit()
    html = client.get(f"/p/{t.public_token}").get_data(as_text=True)
    names = re.findall(r'/entrants/\d+">([A-F])</a>', html)
    assert names == [g[0] for g in got]


RED = {
    "format": "shengji-tournament/1",
    "club": "Tie Club",
    "name": "Red Tie",
    "variant": "red-five-5p",
    "pairing": "reseat",
    "rounds": 1,
    "match": {"deals": 2},
    "entrants": [{"name": n} for n in ["Ann", "Bo", "Cy", "Di", "Ed"]],
    "played": [
        {
            "round": 1,
            "tables": [
                {
                    "table": 1,
                    "players": ["Ann", "Bo", "Cy", "Di", "Ed"],
                    "deals": [
                        {"dealer": 0, "friend": 1, "trump": "H", "points": 60, "kitty": 0},
                        {"dealer": 1, "friend": 0, "trump": "S", "points": 60, "kitty": 0},
                    ],
                }
            ],
        }
    ],
}


def test_red_five_ties_by_dealer_wins_then_name(runner, client, tmp_path):
    path = tmp_path / "red.json"
    path.write_text(json.dumps(RED), "utf-8")
    assert runner.invoke(args=["tournament", "import", str(path)]).exit_code == 0
    out = json.loads(runner.invoke(args=["tournament", "standings", "Red Tie", "--json"]).stdout)
    # 60 points: dealer side wins 1 unit. Ann: +2 +1 = 3; Bo: +1 +2 = 3; others -2.
    assert [(r["entrant"], r["score"], r["dealer_wins"]) for r in out] == [
        ("Ann", 3, 2),
        ("Bo", 3, 2),
        ("Cy", -2, 0),
        ("Di", -2, 0),
        ("Ed", -2, 0),
    ]
    assert out == tfile.standings_json(tfile.load(RED))
