"""Competition penalties (RULES §7) in the competition data: a deal's ``penalties`` in the
tournament file (read, written, refused by JSON path), the match derivation scoring them with the
engine exactly as ``python -m engine.conformance`` does, and a match lost by strikes counting as
a forfeit loss in the standings."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.competition import tfile
from app.competition.matches import (
    derive_fixed,
    derive_red_five,
    fixed_final,
    red_five_final,
)
from app.competition.model import Deal, MatchSpec, Table
from app.competition.standings import entrant_history, fixed_standings
from app.competition.tfile import TournamentFileError
from engine.conformance import answer
from engine.variants import make_variant


def doc(options: dict[str, Any], deals: list[dict[str, Any]], match: int = 4) -> dict[str, Any]:
    return {
        "format": "shengji-tournament/1",
        "club": "Riverside Card Club",
        "name": "Penalty Cup",
        "variant": "tractor-4p",
        "options": options,
        "pairing": "round-robin",
        "rounds": 1,
        "match": {"deals": match},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [
            {"name": "North", "players": ["N1", "N2"]},
            {"name": "South", "players": ["S1", "S2"]},
        ],
        "played": [
            {"round": 1, "tables": [{"table": 1, "sides": ["North", "South"], "deals": deals}]}
        ],
    }


def fixed(declarer: int, points: int, *penalties: tuple[str, str], **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"declarer": declarer, "trump": "S", "points": points, "kitty": 0}
    if penalties:
        d["penalties"] = [{"kind": k, "side": s} for k, s in penalties]
    d.update(kw)
    return d


def test_penalties_round_trip_and_an_empty_list_is_omitted() -> None:
    deals = [
        fixed(0, 60, ("takeback", "attackers")),
        fixed(0, 0, ("revoke", "declarer"), ("miscount", "attackers")),
        fixed(1, 100, penalties=[]),
    ]
    t = tfile.load(doc({}, deals))
    got = t.played[0].tables[0].deals
    assert got[0].penalties == (("takeback", "attackers"),)
    assert got[1].penalties == (("revoke", "declarer"), ("miscount", "attackers"))
    assert got[2].penalties == ()
    out = tfile.dump(t)["played"][0]["tables"][0]["deals"]
    assert out[0]["penalties"] == [{"kind": "takeback", "side": "attackers"}]
    assert out[1]["penalties"] == deals[1]["penalties"]
    assert "penalties" not in out[2]  # export omits an empty list: old readers see old files
    assert tfile.load(tfile.dump(t)) == t


@pytest.mark.parametrize(
    ("penalties", "path", "words"),
    [
        ("revoke", "deals[0].penalties", "must be a list"),
        (["revoke"], "deals[0].penalties[0]", "must be an object"),
        ([{"kind": "cheat", "side": "declarer"}], "deals[0].penalties[0].kind", "is not one of"),
        ([{"side": "declarer"}], "deals[0].penalties[0].kind", "is missing"),
        ([{"kind": "revoke", "side": "north"}], "deals[0].penalties[0].side", "declarer or"),
        ([{"kind": "revoke", "seat": 1}], "deals[0].penalties[0].seat", "unknown field"),
        ([{"kind": "wrong_kitty", "side": "attackers"}], "deals[0].penalties", "declarer side"),
    ],
)
def test_bad_penalties_are_refused_by_json_path(penalties: Any, path: str, words: str) -> None:
    d = fixed(0, 60)
    d["penalties"] = penalties
    with pytest.raises(TournamentFileError) as e:
        tfile.load(doc({}, [d]))
    messages = [str(x) for x in e.value.errors]
    assert any(m.startswith(f"played[0].tables[0].{path}:") and words in m for m in messages), (
        messages
    )


def _conformance(options: dict[str, Any], deal: Deal, before: tuple[str, str]) -> dict[str, Any]:
    assert deal.declarer is not None
    case: dict[str, Any] = {
        "id": "x",
        "variant": "tractor-4p",
        "query": "deal_result",
        "options": options,
        "points": deal.points,
        "kitty": None,
        "last": None,
        "penalties": deal.engine_penalties(),
        "levels_before": {
            "declarer": before[deal.declarer],
            "attackers": before[1 - deal.declarer],
        },
    }
    return answer(case)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"revoke_effect": "extra_level"},
        {"takeback_effect": "warning", "must_play_levels": ["5"]},
    ],
)
def test_paper_rows_and_the_conformance_command_agree(options: dict[str, Any]) -> None:
    deals = [
        fixed(0, 40, ("revoke", "attackers")),
        fixed(0, 60, ("takeback", "declarer"), ("revoke", "attackers")),
        fixed(1, 165, ("takeback", "attackers")),
        fixed(1, 0, ("revoke", "declarer"), ("takeback", "attackers")),
    ]
    t = tfile.load(doc(options, deals))
    table = t.played[0].tables[0]
    m = derive_fixed(t.rules, t.match, table)
    assert not m.errors and m.counts
    for deal, row in zip(table.deals, m.rows, strict=True):
        want = _conformance(options, deal, row.levels_before)
        assert "error" not in want, want
        assert (row.total, row.winner, row.gain) == (want["total"], want["winner"], want["levels"])
        after = want["levels_after"]
        d = row.declarer
        assert row.levels_after[d] == after["declarer"]
        assert row.levels_after[1 - d] == after["attackers"]
    assert fixed_final(t.rules, t.match, table) == m.values


def test_a_revoke_by_the_declarer_side_at_a_and_passing_a_by_the_attackers_penalty() -> None:
    v = make_variant("tractor-4p")
    # North (side 0) reaches A in four shutouts (2, 5, 8, J, A); then penalties at A
    shutout = [Deal(0, 0, "S", declarer=0) for _ in range(4)]
    at_a = Table(1, sides=("North", "South"), deals=(*shutout,))
    assert derive_fixed(v, MatchSpec(to_a=True), at_a).levels == ("A", "2")
    revoked = Table(
        1,
        sides=("North", "South"),
        deals=(*shutout, Deal(200, 0, "S", declarer=0, penalties=(("revoke", "declarer"),))),
    )
    m = derive_fixed(v, MatchSpec(to_a=True), revoked)
    row = m.rows[-1]
    assert (row.total, row.winner, row.gain, row.passed) == (None, "attackers", 0, False)
    assert m.levels == ("A", "2") and m.next_declarer == 1  # South takes over, no gain
    passed = Table(
        1,
        sides=("North", "South"),
        deals=(*shutout, Deal(200, 0, "S", declarer=0, penalties=(("miscount", "attackers"),))),
    )
    m = derive_fixed(v, MatchSpec(to_a=True), passed)
    assert m.passed_side == 0 and m.counts and m.values == (15, 2)
    assert fixed_final(v, MatchSpec(to_a=True), passed) == (15, 2)


def test_three_strikes_lose_the_match_as_a_forfeit() -> None:
    deals = [
        fixed(0, 60, ("takeback", "attackers")),  # South (attackers) 1
        fixed(0, 60, ("revoke", "declarer")),  # North 1; the deal ends, South takes over
        fixed(1, 0, ("miscount", "declarer"), ("takeback", "declarer")),  # South 2, 3: out
    ]
    t = tfile.load(doc({"strikes_lose_match": 3}, deals, match=6))
    table = t.played[0].tables[0]
    m = derive_fixed(t.rules, t.match, table)
    assert m.struck == 1 and m.counts and not m.errors
    assert m.outcome(1) == "loss" and m.outcome(0) == "win"
    assert m.level_diff(1) == -3 and m.level_diff(0) == 3
    rows = {r.entrant: r for r in fixed_standings(t)}
    assert (rows["South"].match_points, rows["South"].losses, rows["South"].forfeits) == (0, 1, 1)
    assert (rows["South"].level_diff, rows["North"].level_diff) == (-3, 3)
    assert rows["North"].match_points == 2 and rows["North"].rank == 1
    hist = entrant_history(t, "South")
    assert hist[0].forfeit and hist[0].outcome == "loss"
    # a deal after the match was lost by strikes is refused
    with pytest.raises(TournamentFileError) as e:
        tfile.load(doc({"strikes_lose_match": 3}, [*deals, fixed(0, 60)], match=6))
    assert any("lost the match by strikes" in str(x) for x in e.value.errors)
    # without the option the same penalties only move levels
    t2 = tfile.load(doc({}, deals, match=3))
    m2 = derive_fixed(t2.rules, t2.match, t2.played[0].tables[0])
    assert m2.struck is None and m2.counts


def red_doc(deals: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    names = ["张三", "李四", "王五", "赵六", "钱七"]
    return {
        "format": "shengji-tournament/1",
        "club": "红五俱乐部",
        "name": "罚则赛",
        "variant": "red-five-5p",
        "options": options or {},
        "pairing": "reseat",
        "rounds": 1,
        "match": {"deals": len(deals)},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [{"name": n, "players": [n]} for n in names],
        "played": [{"round": 1, "tables": [{"table": 1, "players": names, "deals": deals}]}],
    }


def test_red_five_penalties_by_seat() -> None:
    deals = [
        {
            "dealer": 0,
            "friend": 2,
            "trump": "S",
            "points": 130,
            "kitty": 0,
            "friend_grabbed": True,
            "failed_throws": [0],
            "penalties": [{"kind": "takeback", "seat": 0}],
        },
        {
            "dealer": 0,
            "friend": None,
            "trump": "H",
            "points": 60,
            "kitty": 0,
            "failed_throws": [1, 1, 1],
            "penalties": [{"kind": "revoke", "seat": 1}],
        },
    ]
    t = tfile.load(red_doc(deals))
    table = t.played[0].tables[0]
    red = derive_red_five(t.rules, t.match, table)
    # the same answers as conformance_penalties.jsonl: no 直搭 swap, outside the throw cap
    assert [r.scores for r in red.rows] == [(-4, 3, -5, 3, 3), (7, -13, 2, 2, 2)]
    assert red.totals == (3, -10, -3, 5, 5)
    assert red_five_final(t.rules, t.match, table) == (red.totals, red.dealer_wins, 2)
    out = tfile.dump(t)["played"][0]["tables"][0]["deals"]
    assert out[1]["penalties"] == [{"kind": "revoke", "seat": 1}]
    warned = tfile.load(red_doc(copy.deepcopy(deals), {"takeback_effect": "warning"}))
    first = derive_red_five(warned.rules, warned.match, warned.played[0].tables[0]).rows[0]
    assert first.scores == (0, 2, -6, 2, 2)  # the take-back is a warning only


def test_red_five_wrong_kitty_of_another_seat_is_refused() -> None:
    d = {"dealer": 0, "friend": 2, "trump": "S", "points": 0, "kitty": 0}
    d["penalties"] = [{"kind": "wrong_kitty", "seat": 3}]
    with pytest.raises(TournamentFileError) as e:
        tfile.load(red_doc([d]))
    assert any(
        str(x).startswith("played[0].tables[0].deals[0].penalties:") and "dealer" in str(x)
        for x in e.value.errors
    )


def test_ten_per_card_lists_in_the_file_score_like_the_engine() -> None:
    deals = [
        fixed(0, 70, failed_throws={"declarer": [2, 3, 1, 4], "attackers": []}),
        fixed(1, 20, failed_throws={"declarer": [1], "attackers": [4]}),
    ]
    t = tfile.load(doc({"throw_penalty": "ten_per_card"}, deals, match=2))
    table = t.played[0].tables[0]
    assert table.deals[0].failed_throws is not None
    m = derive_fixed(t.rules, t.match, table)
    # the hand-worked answers of conformance_penalties.jsonl: first three per side, clamped once
    assert [(r.total, r.winner, r.gain) for r in m.rows] == [
        (130, "attackers", 1),
        (0, "declarer", 3),
    ]
    assert fixed_final(t.rules, t.match, table) == m.values
    out = tfile.dump(t)["played"][0]["tables"][0]["deals"]
    assert out[0]["failed_throws"] == {"declarer": [2, 3, 1, 4], "attackers": []}
    assert tfile.load(tfile.dump(t)) == t
    # a count says nothing of the cards taken back: refused under ten_per_card, by path
    bad = fixed(0, 70, failed_throws={"declarer": 2, "attackers": 0})
    with pytest.raises(TournamentFileError) as e:
        tfile.load(doc({"throw_penalty": "ten_per_card"}, [bad], match=2))
    assert any(
        str(x).startswith("played[0].tables[0].deals[0].failed_throws.declarer:")
        for x in e.value.errors
    )
    # under ten_per_attempt, lists count one attempt each
    t2 = tfile.load(doc({}, deals, match=2))
    rows = derive_fixed(t2.rules, t2.match, t2.played[0].tables[0]).rows
    assert [r.total for r in rows] == [100, 20]


def test_an_online_ten_per_card_deal_derives_the_engines_total() -> None:
    from app.services.online.bridge import sheet_deal
    from engine.bots import make_bots, play_deal
    from engine.deal import new_deal

    options = {"throw_penalty": "ten_per_card", "redeal_below": None}
    v = make_variant("tractor-4p", options)
    seen = 0
    for seed in range(120):
        d = new_deal("tractor-4p", options, seed)
        play_deal(d, make_bots("random", 4, seed))
        if d.outcome != "played" or not d.failed_throws:
            continue
        assert d.result is not None and d.dealer is not None
        record = sheet_deal(d)
        row = derive_fixed(v, MatchSpec(deals=1), Table(1, deals=(record,))).rows[0]
        assert (row.total, row.winner, row.gain) == (
            d.result.total,
            d.result.winner,
            d.result.levels,
        )
        seen += 1
        if seen >= 5:
            return
    raise AssertionError("too few online deals with a failed throw")
