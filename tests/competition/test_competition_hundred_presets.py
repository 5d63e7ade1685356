"""打百分's club-night presets: valid options for their game, offered for it alone, and a night
set up from each loads, scores and round-trips through the tournament file."""

from __future__ import annotations

from typing import Any

import pytest

from app.competition import tfile
from app.competition.hundred import HUNDRED_IDS, hundred_variant
from app.competition.presets import PRESETS, is_competition, presets_for
from app.competition.standings import standings_json
from engine.variants import ONE_TWENTY, RED_FIVE, TRACTOR

HUNDRED_PRESETS = ("club-hundred", "club-hundred-pairs", "club-forty", "club-hundred-3p")


def test_the_presets_are_valid_for_their_games_and_offered_for_them() -> None:
    for pid in HUNDRED_PRESETS:
        p = PRESETS[pid]
        assert p.variant is not None
        hundred_variant(p.variant, p.options)  # raises on a bad option
        assert p.name("zh") != p.name("en") and p.words("zh") and p.words("en")
        assert not is_competition(pid)
        assert set(p.match) == {"deals"}  # 打百分 has no levels: no to_a, no tie-break
    assert [p.id for p in presets_for("hundred-4p")] == ["club-hundred", "club-hundred-pairs"]
    assert [p.id for p in presets_for("forty-4p")] == ["club-forty"]
    assert [p.id for p in presets_for("hundred-3p")] == ["club-hundred-3p"]
    for other in ("tractor-4p", "red-five-5p", "one-twenty-6p"):
        assert not set(HUNDRED_PRESETS) & {p.id for p in presets_for(other)}
    # the event each one sets up: individuals re-seated, or pairs
    fixed = {
        pid: hundred_variant(PRESETS[pid].variant or "", PRESETS[pid].options).fixed_pairs
        for pid in HUNDRED_PRESETS
    }
    assert fixed == {
        "club-hundred": False,
        "club-hundred-pairs": True,
        "club-forty": True,
        "club-hundred-3p": False,
    }


def row(pid: str) -> dict[str, Any]:
    """A valid sheet row for the preset's game: seat 0 declares at 60 (1 unit) and its side
    wins with the attackers at 20."""
    p = PRESETS[pid]
    d: dict[str, Any] = {"declarer": 0}
    if p.variant == "forty-4p":
        d["turned"] = "9H"
    else:
        d["bid"] = 60
    d["trump"] = "H"
    if p.options.get("friend") == "hidden":
        d["friend_card"] = "AS"
        d["friend"] = 2
    d["points"] = 20
    return d


def night(pid: str) -> dict[str, Any]:
    p = PRESETS[pid]
    assert p.variant is not None
    pairs = hundred_variant(p.variant, p.options).fixed_pairs
    size = 2 if pairs else (3 if p.variant == "hundred-3p" else 4)
    names = [f"P{i}" for i in range(size * 2)]
    deals = [row(pid) for _ in range(p.match["deals"])]
    if pairs:
        entrants = [{"name": n, "players": [n + "a", n + "b"]} for n in names[:4]]
        tables = [
            {"table": 1, "sides": names[0:2], "deals": deals},
            {"table": 2, "sides": names[2:4], "deals": deals},
        ]
    else:
        entrants = [{"name": n, "players": [n]} for n in names]
        tables = [
            {"table": 1, "players": names[:size], "deals": deals},
            {"table": 2, "players": names[size:], "deals": deals},
        ]
    doc: dict[str, Any] = {
        "format": "shengji-tournament/1",
        "club": "Club",
        "name": p.name_en,
        "variant": p.variant,
    }
    if p.options:
        doc["options"] = dict(p.options)
    doc.update(
        {
            "pairing": "swiss" if pairs else "reseat",
            "rounds": 3,
            "match": dict(p.match),
            "points": {"win": 2, "draw": 1, "loss": 0},
            "preset": pid,
            "entrants": entrants,
            "played": [{"round": 1, "tables": tables}],
        }
    )
    return doc


@pytest.mark.parametrize("pid", HUNDRED_PRESETS)
def test_a_night_from_each_preset_loads_scores_and_round_trips(pid: str) -> None:
    doc = night(pid)
    t = tfile.load(doc)
    assert t.preset == pid and t.match.deals == PRESETS[pid].match["deals"]
    n = t.match.deals
    assert n is not None
    got = {r["entrant"]: r for r in standings_json(t)}
    if t.fixed_sides:  # side 0 won every deal: a win by n units at each table
        assert {k: (r["match_points"], r["level_diff"]) for k, r in got.items()} == {
            "P0": (2, n),
            "P1": (0, -n),
            "P2": (2, n),
            "P3": (0, -n),
        }
    elif t.variant == "hundred-3p":  # the declarer +2 a deal, each attacker −1
        assert [got[f"P{i}"]["score"] for i in range(6)] == [2 * n, -n, -n] * 2
    else:  # the declarer and the friend +1 a deal, the attackers −1
        assert [got[f"P{i}"]["score"] for i in range(8)] == [n, -n, n, -n] * 2
    assert tfile.dump(t) == doc
    assert tfile.load(tfile.dump(t)) == t


def test_a_preset_of_another_game_is_refused() -> None:
    doc = night("club-hundred")
    doc["preset"] = "club-forty"
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(doc)
    assert [str(x) for x in e.value.errors] == [
        "preset: 'club-forty' is not a rule preset of this game (club-hundred, club-hundred-pairs)"
    ]
    doc["preset"] = "club"  # the generic preset speaks of RULES.md and levels: not for 打百分
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(doc)
    assert [str(x) for x in e.value.errors] == [
        "preset: 'club' is not a rule preset of this game (club-hundred, club-hundred-pairs)"
    ]


LEVEL_GAMES = (TRACTOR, RED_FIVE, ONE_TWENTY)


@pytest.mark.parametrize("variant", [*LEVEL_GAMES, *HUNDRED_IDS])
def test_each_family_is_offered_its_own_presets_club_night_first(variant: str) -> None:
    """A game of levels is offered the generic presets and its own, 打百分's games only their
    own, none of whose words speak of levels; every game's list starts with a club night."""
    offered = presets_for(variant)
    assert offered and offered[0].id.startswith("club") and not is_competition(offered[0].id)
    assert all(p.variant in (None, variant) for p in offered)
    if variant in HUNDRED_IDS:
        assert all(p.variant == variant for p in offered)
        for p in offered:
            assert "level" not in p.words_en.lower() and "级" not in p.words_zh, p.id
            assert "RULES.md" not in p.words_en and "规则书" not in p.words_zh, p.id
    else:
        assert offered[0].id == "club"
        assert {p.id for p in PRESETS.values() if p.variant is None} <= {p.id for p in offered}
    # a generic preset is offered exactly for the games of levels
    for p in PRESETS.values():
        if p.variant is None:
            assert (p in offered) == (variant in LEVEL_GAMES), p.id
