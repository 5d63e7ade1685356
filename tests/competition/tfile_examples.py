"""Tournament files the tests load, import and break: the example of
``shared/formats/TOURNAMENT.md`` (as written there, and parsed), a red five file and a 120分 file
between them using every optional field. Shared by the tests of ``app.competition.tfile``, of the
import and export commands and of hostile uploads: copy before changing one."""

from __future__ import annotations

import json
from typing import Any

# The example of shared/formats/TOURNAMENT.md, as written there.
EXAMPLE_TEXT = """{
  "format": "shengji-tournament/1",
  "club": "Riverside Card Club",
  "name": "Autumn Cup 2026",
  "variant": "tractor-4p",
  "options": {"throw_penalty": "ten_per_attempt"},
  "pairing": "swiss",
  "rounds": 3,
  "match": {"deals": 2},
  "points": {"win": 2, "draw": 1, "loss": 0},
  "entrants": [
    {"name": "Li & Zhang", "players": ["Li Wei", "Zhang Min"]},
    {"name": "Wang & Zhao", "players": ["Wang Fang", "Zhao Lei"]},
    {"name": "Chen & Liu", "players": ["Chen Jie", "Liu Yang"]}
  ],
  "played": [
    {"round": 1, "tables": [
      {"table": 1, "sides": ["Li & Zhang", "Wang & Zhao"], "deals": [
        {"declarer": 0, "trump": "S", "points": 85, "kitty": 10, "multiplier": 4},
        {"declarer": 1, "trump": null, "points": 35, "kitty": 0, "failed_throws": {"declarer": 1, "attackers": 0}}
      ]},
      {"table": 2, "bye": "Chen & Liu"}
    ]}
  ]
}
"""

EXAMPLE: dict[str, Any] = json.loads(EXAMPLE_TEXT)

RED_FIVE: dict[str, Any] = {
    "format": "shengji-tournament/1",
    "club": "红五俱乐部",
    "name": "春季赛",
    "variant": "red-five-5p",
    "pairing": "reseat",
    "rounds": 2,
    "match": {"minutes": 45},
    "points": {"win": 2, "draw": 1, "loss": 0, "bye": 1},
    "entrants": [{"name": n, "players": [n]} for n in ["张三", "李四", "王五", "赵六", "钱七"]]
    + [{"name": "孙八", "players": ["孙八"], "withdrawn_after": 1}],
    "played": [
        {
            "round": 1,
            "tables": [
                {
                    "table": 1,
                    "players": ["张三", "李四", "王五", "赵六", "钱七"],
                    "finished": True,
                    "deals": [
                        {
                            "dealer": 0,
                            "friend": 2,
                            "trump": "S",
                            "points": 130,
                            "kitty": 20,
                            "multiplier": 6,
                            "failed_throws": [1, 1],
                            "friend_grabbed": True,
                            "level": "2",
                        },
                        {"dealer": 1, "friend": None, "trump": "D", "points": 0, "kitty": 0},
                    ],
                },
                {"table": 2, "bye": "孙八"},
            ],
        }
    ],
}

ONE20: dict[str, Any] = {
    "format": "shengji-tournament/1",
    "club": "C",
    "name": "120",
    "variant": "one-twenty-6p",
    "pairing": "round-robin",
    "rounds": 1,
    "match": {"to_a": True},
    "points": {"win": 3, "draw": 1, "loss": 0, "forfeit_level_diff": 4},
    "entrants": [
        {"name": "X", "players": ["x1", "x2", "x3"]},
        {"name": "Y", "players": ["y1", "y2", "y3"]},
    ],
    "played": [
        {
            "round": 1,
            "tables": [
                {
                    "table": 1,
                    "sides": ["X", "Y"],
                    "mode": "online",
                    "deals": [
                        {
                            "declarer": 0,
                            "trump": "H",
                            "points": 40,
                            "kitty": 0,
                            "misplays": [1],
                            "level": "2",
                        },
                        {"declarer": 0, "trump": None, "points": 180, "kitty": 10, "multiplier": 2},
                    ],
                }
            ],
        }
    ],
}
