"""打百分 on paper (HUNDRED.md §8): the score sheet's refusals field by field, the result and units
from the engine, an individual event of three re-seated rounds, a pair event, the tournament
file's round trip and seasons."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from app.competition import tfile
from app.competition.hundred import (
    HundredDeal,
    check_hundred_entry,
    derive_hundred,
    hundred_issues,
    hundred_variant,
)
from app.competition.hundred_event import individual_standings, pair_standings
from app.competition.model import MatchSpec, Round, Table
from app.competition.pairing import PairingError, pair_next_round, reseat_round
from app.competition.seasons import night_lines, season_variant, variant_refusal
from app.competition.standings import entrant_history, standings_json
from engine.cards import parse_card, points_of
from engine.hundred_rules import deal_outcome

BURIED_25 = ("5S", "10S", "KS", "2H", "3H", "4H")  # 25 points: the engine's kitty in a check


def row(**kw: Any) -> HundredDeal:
    base: dict[str, Any] = {
        "points": 30,
        "kitty": 0,
        "declarer": 0,
        "bid": 70,
        "trump": "S",
        "friend_card": "AH",
        "friend": 2,
    }
    base.update(kw)
    return HundredDeal(**base)


HIDDEN = hundred_variant("hundred-4p", {"friend": "hidden"})
SHOWN = hundred_variant("hundred-4p", {"friend": "shown"})
BLIND = hundred_variant("hundred-4p", {"friend": "blind"})
FIXED = hundred_variant("hundred-4p", {"friend": "fixed"})
FORTY = hundred_variant("forty-4p")
THREE = hundred_variant("hundred-3p")


def fixed_row(**kw: Any) -> HundredDeal:
    return row(**{"friend_card": None, "friend": None, **kw})


def forty_row(**kw: Any) -> HundredDeal:
    base: dict[str, Any] = {"bid": None, "turned": "7S"}
    base.update(kw)
    return fixed_row(**base)


def three_row(**kw: Any) -> HundredDeal:
    return fixed_row(**kw)


REFUSALS = [
    # (variant, row, field, words of the message)
    (HIDDEN, row(bid=62), "bid", "62 is not a bid: 60 … 100 in steps of 5"),
    (HIDDEN, row(bid=105), "bid", "105 is not a bid"),
    (HIDDEN, row(bid=55), "bid", "55 is not a bid"),
    (HIDDEN, row(bid=None), "bid", "is missing: the winning bid"),
    (HIDDEN, row(bid=True), "bid", "True is not a bid"),
    (FORTY, forty_row(bid=70), "bid", "40分下台 has no bidding"),
    (FORTY, forty_row(turned=None), "turned", "is missing: 40分下台's turned card"),
    (FORTY, forty_row(turned="HJ"), "turned", "'HJ' is not a suited card"),
    (FORTY, forty_row(turned="7X"), "turned", "'7X' is not a suited card"),
    (FORTY, forty_row(trump="H"), "trump", "'H' is not the turned card's suit S"),
    (HIDDEN, row(turned="7S"), "turned", "belongs to 40分下台 only"),
    (HIDDEN, row(trump=None), "trump", "is missing: 打百分 always has a trump suit"),
    (HIDDEN, row(trump="N"), "trump", "'N' is not a suit"),
    (HIDDEN, row(declarer=None), "declarer", "is missing: the declarer's seat, 0 … 3"),
    (HIDDEN, row(declarer=4), "declarer", "4 is not a seat 0 … 3"),
    (THREE, three_row(declarer=3), "declarer", "3 is not a seat 0 … 2"),
    (HIDDEN, row(points=105), "points", "105 is not the attackers' points: 0 … 100"),
    (HIDDEN, row(points=87), "points", "87 is not the attackers' points"),
    (HIDDEN, row(points=-5), "points", "-5 is not the attackers' points"),
    (HIDDEN, row(points="30"), "points", "'30' is not the attackers' points"),
    (HIDDEN, row(friend=0), "friend", "is the declarer: write null"),
    (HIDDEN, row(friend=4), "friend", "4 is not a seat 0 … 3"),
    (HIDDEN, row(friend=None), "friend", "is missing: the seat that held the friend card"),
    (SHOWN, row(friend=None), "friend", "is missing"),
    (FIXED, fixed_row(friend=1), "friend", "1 is not the declarer's partner opposite (seat 2)"),
    (
        FIXED,
        fixed_row(declarer=1, friend=2),
        "friend",
        "2 is not the declarer's partner opposite (seat 3)",
    ),
    (FORTY, forty_row(friend=3), "friend", "3 is not the declarer's partner opposite (seat 2)"),
    (FIXED, fixed_row(friend=0), "friend", "is the declarer"),
    (THREE, three_row(friend=1), "friend", "3人百分 has no friend"),
    (HIDDEN, row(friend_card=None), "friend_card", "is missing: the card the declarer called"),
    (HIDDEN, row(friend_card="ZZ"), "friend_card", "'ZZ' is not a card"),
    (FIXED, fixed_row(friend_card="AH"), "friend_card", "is not used: fixed has no friend card"),
    (FORTY, forty_row(friend_card="AH"), "friend_card", "40分下台 has no friend card"),
    (THREE, three_row(friend_card="AH"), "friend_card", "3人百分 has no friend card"),
    (HIDDEN, row(kou_di="yes"), "kou_di", "'yes' is not true or false"),
    (HIDDEN, row(kou_di=1), "kou_di", "1 is not true or false"),
    (
        HIDDEN,
        row(kitty_points=65),
        "kitty",
        "65 is not the buried cards' points: 0 … 60 in steps of 5 (six cards of one deck)",
    ),
    (HIDDEN, row(kou_di=True, kitty_points=12), "kitty", "12 is not the buried cards' points"),
    (HIDDEN, row(kitty_points=-5), "kitty", "-5 is not the buried cards' points"),
    (HIDDEN, row(kitty_points="10"), "kitty", "'10' is not the buried cards' points"),
    (HIDDEN, row(kitty_points=True), "kitty", "True is not the buried cards' points"),
    (
        HIDDEN,
        row(points=80, kitty_points=25),
        "kitty",
        "points 80 + the buried cards' 25 = 105 is more than the 100 in the deck",
    ),
    (
        HIDDEN,
        row(penalties=(("wrong_kitty", "declarer"),)),
        "penalties",
        "'wrong_kitty' is not a penalty here",
    ),
    (HIDDEN, row(penalties=(("revoke", "dealer"),)), "penalties", "'dealer' is not the side"),
    (HIDDEN, row(warnings=((4, "slow"),)), "warnings", "4 is not the seat warned 0 … 3"),
    (HIDDEN, row(warnings=((1, " "),)), "warnings", "a warning needs its reason"),
]


@pytest.mark.parametrize(("variant", "deal", "field", "words"), REFUSALS)
def test_each_bad_field_is_refused_on_its_own_field(
    variant: Any, deal: HundredDeal, field: str, words: str
) -> None:
    issues = hundred_issues(variant, deal)
    assert [i.field for i in issues] == [field], issues
    assert words in issues[0].message
    # and a table holding the row does not count, the row's issue on the same field
    tab = derive_hundred(variant, MatchSpec(deals=1), Table(1, players=("a",), deals=(deal,)))
    assert not tab.counts and [e.field for e in tab.errors] == [field]


def test_good_rows_have_no_issues() -> None:
    assert hundred_issues(HIDDEN, row()) == []
    assert hundred_issues(SHOWN, row()) == []
    assert hundred_issues(BLIND, row(friend=None, friend_card="2S")) == []  # it lay in the kitty
    # 抠底 yes/no, the buried cards' points optional (0 … 60, with the points at most 100)
    assert hundred_issues(HIDDEN, row(kou_di=True)) == []
    assert hundred_issues(HIDDEN, row(kou_di=True, kitty_points=60, points=40)) == []
    assert hundred_issues(HIDDEN, row(kitty_points=0)) == []
    assert hundred_issues(HIDDEN, row(points=75, kitty_points=25)) == []
    assert hundred_issues(FIXED, fixed_row()) == []
    assert hundred_issues(FIXED, fixed_row(friend=2)) == []  # the partner: what fixed means
    assert hundred_issues(FORTY, forty_row()) == []
    assert hundred_issues(THREE, three_row(declarer=2)) == []


def test_several_bad_fields_are_each_reported() -> None:
    issues = hundred_issues(HIDDEN, row(bid=62, points=101, friend=0))
    assert {i.field for i in issues} == {"bid", "points", "friend"}


def table_of(variant: Any, *deals: HundredDeal, n: int | None = None) -> Any:
    players = tuple("abcd"[: variant.players])
    spec = MatchSpec(deals=n or len(deals))
    return derive_hundred(variant, spec, Table(1, players=players, deals=deals))


def test_results_and_units_come_from_the_rows() -> None:
    # bid 80 (5 units): attackers win with more than 20
    tab = table_of(HIDDEN, row(bid=80, points=20), row(bid=80, points=25))
    assert [r.winner for r in tab.rows] == ["declarer", "attackers"]
    assert tab.rows[0].scores == (5, -5, 5, -5)
    assert tab.rows[1].scores == (-5, 5, -5, 5)
    assert tab.totals == (0, 0, 0, 0) and tab.counts
    # 抠底: the attackers win whatever their points, the buried points added for the record
    kou = table_of(HIDDEN, row(points=0, kou_di=True, kitty_points=25))
    assert kou.rows[0].winner == "attackers" and kou.rows[0].total == 25
    assert kou.rows[0].kitty == 25 and kou.rows[0].scores == (-3, 3, -3, 3)
    unknown = table_of(HIDDEN, row(points=10, kou_di=True))  # the kitty's points not written
    assert unknown.rows[0].winner == "attackers" and unknown.rows[0].total == 10
    assert unknown.rows[0].kitty is None
    # no 抠底: the kitty's points are recorded only, never added
    held = table_of(HIDDEN, row(points=30, kitty_points=25))
    assert held.rows[0].winner == "declarer" and held.rows[0].total == 30
    # blind, alone against three: ±3u; stakes flat: 1 unit whatever the bid
    alone = table_of(BLIND, row(bid=100, points=0, friend=None, friend_card="2S"))
    assert alone.rows[0].scores == (27, -9, -9, -9)
    flat = hundred_variant("hundred-4p", {"stakes": "flat"})
    assert table_of(flat, row(bid=100, points=0)).rows[0].scores == (1, -1, 1, -1)
    # 3人百分: the declarer ±2u; 40分下台: 40 or more wins for the attackers, always 1 unit
    assert table_of(THREE, three_row(declarer=1, bid=65)).rows[0].scores == (-2, 4, -2)
    assert table_of(FORTY, forty_row(points=40)).rows[0].scores == (-1, 1, -1, 1)
    assert table_of(FORTY, forty_row(points=35)).rows[0].scores == (1, -1, 1, -1)
    # a revoke by the declarer's side ends the deal: the attackers win it, units by the bid
    pen = table_of(HIDDEN, row(bid=90, points=0, penalties=(("revoke", "declarer"),)))
    assert pen.rows[0].ended_by == "revoke" and pen.rows[0].scores == (-7, 7, -7, 7)
    # a takeback is a warning only
    tb = table_of(HIDDEN, row(bid=90, points=0, penalties=(("takeback", "declarer"),)))
    assert tb.rows[0].ended_by is None and tb.rows[0].winner == "declarer"


@pytest.mark.parametrize("variant", [HIDDEN, BLIND, FIXED, FORTY, THREE])
@pytest.mark.parametrize("points", [0, 45, 75])
def test_kou_di_rows_match_the_engine_given_the_buried_cards(variant: Any, points: int) -> None:
    """The sheet gives the engine an empty kitty on 抠底: with the real buried cards the engine
    answers the same winner, units and scores, and the total the row prints."""
    if variant is FORTY:
        deal = forty_row(points=points, kou_di=True, kitty_points=25)
    elif variant is THREE or variant is FIXED:
        deal = three_row(points=points, kou_di=True, kitty_points=25)
    else:
        deal = row(points=points, kou_di=True, kitty_points=25)
    got = table_of(variant, deal).rows[0]
    want = deal_outcome(
        variant,
        bid=deal.bid if variant.bidding else None,
        points=points,
        kitty=[parse_card(c) for c in BURIED_25],
        last_won_by="attackers",
        declarer=deal.declarer,
        friend=deal.friend,
    )
    assert points_of(parse_card(c) for c in BURIED_25) == 25
    assert (got.winner, got.units, got.scores, got.total) == (
        want.winner,
        want.units,
        tuple(want.scores or ()),
        want.total,
    )


def test_a_row_past_the_match_length_and_a_correction() -> None:
    tab = table_of(HIDDEN, row(), row(), n=1)
    assert not tab.counts and tab.errors[0].index == 1
    assert "the table plays 1 deals; this is deal 2" in tab.errors[0].message
    table = Table(1, players=("a", "b", "c", "d"), deals=(row(),))
    assert check_hundred_entry(HIDDEN, MatchSpec(deals=2), table, row(bid=62)) == {
        "bid": "62 is not a bid: 60 … 100 in steps of 5"
    }
    assert check_hundred_entry(HIDDEN, MatchSpec(deals=2), table, row(), index=0) == {}


# --- the tournament file and events ------------------------------------------------------------


def R(**kw: Any) -> dict[str, Any]:
    """A row as the file writes it (hidden friend)."""
    d: dict[str, Any] = {
        "declarer": 0,
        "bid": 70,
        "trump": "S",
        "friend_card": "AH",
        "friend": 2,
        "points": 30,
    }
    d.update(kw)
    return d


# an individual table's two deals: seat 0 +5 −1 = 4, seat 1 −6, seat 2 +6, seat 3 −4
TWO_DEALS = [
    R(declarer=0, bid=80, friend=2, points=15),  # the declarer's side wins 5 units
    R(declarer=1, bid=60, friend=0, points=45),  # the attackers (2, 3) win 1 unit
]
SEAT_TOTALS = (4, -6, 6, -4)
SEAT_WINS = (1, 0, 1, 0)


def individual_doc(names: str = "ABCDEFGHI") -> dict[str, Any]:
    return {
        "format": "shengji-tournament/1",
        "club": "Club",
        "name": "百分 night",
        "variant": "hundred-4p",
        "options": {"friend": "hidden"},
        "pairing": "reseat",
        "rounds": 3,
        "match": {"deals": 2},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [{"name": n, "players": [n]} for n in names],
        "played": [
            {
                "round": 1,
                "tables": [
                    {
                        "table": 1,
                        "players": ["A", "B", "C", "D"],
                        "deals": copy.deepcopy(TWO_DEALS),
                    },
                    {
                        "table": 2,
                        "players": ["E", "F", "G", "H"],
                        "deals": copy.deepcopy(TWO_DEALS),
                    },
                    {"table": 3, "bye": "I"},
                ],
            }
        ],
    }


def with_deals(rnd: Round) -> dict[str, Any]:
    tables: list[dict[str, Any]] = []
    for tab in rnd.tables:
        if tab.bye is not None:
            tables.append({"table": tab.table, "bye": tab.bye})
        else:
            assert tab.players is not None
            tables.append(
                {
                    "table": tab.table,
                    "players": list(tab.players),
                    "deals": copy.deepcopy(TWO_DEALS),
                }
            )
    return {"round": rnd.round, "tables": tables}


def test_an_individual_event_of_three_rounds_is_reseated_and_scored() -> None:
    doc = individual_doc()
    t = tfile.load(doc)
    assert not t.fixed_sides
    for _ in range(2):
        nxt = pair_next_round(t)
        seated = [tab.players for tab in nxt.tables if tab.players]
        assert [len(p) for p in seated] == [4, 4]  # tables of 4, re-seated
        doc["played"].append(with_deals(nxt))
        t = tfile.load(doc)
    with pytest.raises(PairingError):
        pair_next_round(t)  # all three rounds are seated
    # the expected 积分: each player's seat totals over the rounds played
    score: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    byes: list[str] = []
    for rnd in t.played:
        for tab in rnd.tables:
            if tab.bye is not None:
                byes.append(tab.bye)
            for seat, name in enumerate(tab.players or ()):
                score[name] += SEAT_TOTALS[seat]
                wins[name] += SEAT_WINS[seat]
    assert len(set(byes)) == 3  # the bye rotates: three different players sat out
    rows = individual_standings(t)
    assert {r.entrant: r.score for r in rows} == {n: score[n] for n in "ABCDEFGHI"}
    assert {r.entrant: r.dealer_wins for r in rows} == {n: wins[n] for n in "ABCDEFGHI"}
    assert sum(r.score for r in rows) == 0  # zero-sum per deal
    keys = [(-r.score, -r.dealer_wins, r.entrant) for r in rows]
    assert keys == sorted(keys) and [r.rank for r in rows] == list(range(1, 10))
    assert standings_json(t)[0] == rows[0].as_json()
    # round 2 seats by the standing after round 1: the two seat-2 players (+6) at table 1
    r2 = t.played[1].tables[0].players
    assert r2 is not None and {"C", "G"} <= set(r2)
    # the entrant's history gives the same score
    assert sum(h.score for h in entrant_history(t, "A")) == score["A"]


def test_three_player_tables_are_reseated_in_threes() -> None:
    doc = individual_doc("ABCDEFG")
    doc["variant"] = "hundred-3p"
    del doc["options"]
    doc["played"] = [
        {
            "round": 1,
            "tables": [
                {
                    "table": 1,
                    "players": ["A", "B", "C"],
                    "deals": [R(declarer=1, bid=65, friend_card=None, friend=None, points=40)] * 2,
                },
                {
                    "table": 2,
                    "players": ["D", "E", "F"],
                    "deals": [R(declarer=1, bid=65, friend_card=None, friend=None, points=40)] * 2,
                },
                {"table": 3, "bye": "G"},
            ],
        }
    ]
    # (bid 65: 2 units; the attackers' 40 is more than 35: they win) B −8, A and C +4
    t = tfile.load(doc)
    scores = {r.entrant: r.score for r in individual_standings(t)}
    assert scores == {"A": 4, "B": -8, "C": 4, "D": 4, "E": -8, "F": 4, "G": 0}
    nxt = pair_next_round(t)
    assert [len(tab.players) for tab in nxt.tables if tab.players] == [3, 3]
    assert [tab.bye for tab in nxt.tables if tab.bye] != ["G"]  # G has had its bye
    assert reseat_round(list("ABCDEF"), size=3).tables == [["A", "B", "C"], ["D", "E", "F"]]


def P(kind: str) -> list[dict[str, Any]]:
    """A pair match of two deals (fixed partners): side 0's net units +3, 0 (a draw) or −8."""
    f: dict[str, Any] = {"friend_card": None, "friend": None}
    if kind == "side0":  # side 0 +4 (bid 75, 20 points), side 1 +1 (bid 60, 40 points): +3
        return [
            {**R(declarer=0, bid=75, points=20), **f},
            {**R(declarer=1, bid=60, points=40), **f},
        ]
    if kind == "draw":  # +1 each
        return [
            {**R(declarer=0, bid=60, points=30), **f},
            {**R(declarer=1, bid=60, points=35), **f},
        ]
    # side 1 +6 (bid 85, 10 points), then side 0 declares at 65 and loses 2 (40 > 35): −8
    return [{**R(declarer=1, bid=85, points=10), **f}, {**R(declarer=0, bid=65, points=40), **f}]


def clean(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.items() if v is not None} for d in deals]


def pair_doc() -> dict[str, Any]:
    def tab(n: int, a: str, b: str, kind: str) -> dict[str, Any]:
        return {"table": n, "sides": [a, b], "deals": clean(P(kind))}

    return {
        "format": "shengji-tournament/1",
        "club": "Club",
        "name": "固定朋友 cup",
        "variant": "hundred-4p",
        "options": {"friend": "fixed"},
        "pairing": "round-robin",
        "rounds": 3,
        "match": {"deals": 2},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [{"name": n, "players": [n + "1", n + "2"]} for n in "ABCD"],
        "played": [
            {"round": 1, "tables": [tab(1, "A", "B", "side0"), tab(2, "C", "D", "draw")]},
            {"round": 2, "tables": [tab(1, "A", "C", "side1"), tab(2, "B", "D", "side0")]},
            {"round": 3, "tables": [tab(1, "A", "D", "side0"), tab(2, "B", "C", "draw")]},
        ],
    }


def test_a_pair_event_counts_units_per_match_with_fen_cha_as_tie_break() -> None:
    t = tfile.load(pair_doc())
    assert t.fixed_sides
    got = [
        (r["entrant"], r["match_points"], r["level_diff"], r["opponents_points"], r["played"])
        for r in standings_json(t)
    ]
    assert got == [
        ("C", 4, 8, 8, 3),  # 4 match points, 分差 +8 before A's −2
        ("A", 4, -2, 8, 3),
        ("B", 3, 0, 9, 3),
        ("D", 1, -6, 11, 3),
    ]
    assert [h.outcome for h in entrant_history(t, "A")] == ["win", "loss", "win"]
    # the partner written as friend changes nothing
    doc = pair_doc()
    doc["played"][0]["tables"][0]["deals"][0]["friend"] = 2
    assert standings_json(tfile.load(doc)) == standings_json(t)


def test_a_forty_pair_event_and_an_unfinished_match() -> None:
    doc = pair_doc()
    doc["variant"] = "forty-4p"
    del doc["options"]
    rows = [
        {"declarer": 0, "turned": "9H", "trump": "H", "points": 35},  # declarers hold: side 0 +1
        {"declarer": 2, "turned": "QC", "trump": "C", "points": 40},  # attackers: side 1 +1
        {
            "declarer": 1,
            "turned": "3D",
            "trump": "D",
            "points": 0,
            "kou_di": True,
            "kitty": 25,
        },  # 抠底: side 0 wins
    ]
    doc["match"] = {"deals": 3}
    doc["rounds"] = 1
    doc["played"] = [
        {
            "round": 1,
            "tables": [
                {"table": 1, "sides": ["A", "B"], "deals": rows},
                {"table": 2, "sides": ["C", "D"], "deals": rows[:2]},
            ],
        }
    ]
    t = tfile.load(doc)
    rows_out = {r.entrant: (r.match_points, r.level_diff, r.in_progress) for r in pair_standings(t)}
    assert rows_out == {"A": (2, 1, 0), "B": (0, -1, 0), "C": (0, 0, 1), "D": (0, 0, 1)}
    pair = pair_next_round(replace(t, rounds=2))
    assert all(tab.sides for tab in pair.tables)


def test_the_tournament_file_round_trips() -> None:
    for doc in (individual_doc(), pair_doc()):
        doc["played"][0]["tables"][0]["deals"].append(
            R(
                points=0,
                kou_di=True,
                kitty=25,
                penalties=[{"kind": "takeback", "side": "attackers"}],
                warnings=[{"seat": 1, "reason": "slow play"}],
            )
            if doc["pairing"] == "reseat"
            else {
                "declarer": 3,
                "bid": 100,
                "trump": "D",
                "points": 5,
                "kou_di": True,
            }
        )
        doc["match"] = {"deals": 3}
        t = tfile.load(doc)
        out = tfile.dump(t)
        assert out == doc  # keys in order, defaults omitted: the file as written
        again = tfile.load(out)
        assert again == t and tfile.dump(again) == out
        assert standings_json(again) == standings_json(t)


def test_the_file_refuses_with_json_paths() -> None:
    doc = individual_doc()
    doc["played"][0]["tables"][0]["deals"][1]["bid"] = 62
    doc["played"][0]["tables"][1]["deals"][0]["friend"] = 1
    doc["played"][0]["tables"][1]["deals"][0]["declarer"] = 1
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(doc)
    assert [str(x) for x in e.value.errors] == [
        "played[0].tables[0].deals[1].bid: 62 is not a bid: 60 … 100 in steps of 5",
        "played[0].tables[1].deals[0].friend: is the declarer: write null when the declarer "
        "played alone",
    ]
    bad = individual_doc()
    bad["pairing"] = "swiss"
    bad["match"] = {"to_a": True}
    bad["options"] = {"friend": "sometimes"}
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(bad)
    assert [str(x) for x in e.value.errors] == [
        "options.friend: option friend takes one of 'fixed', 'shown', 'hidden', 'blind', "
        "not 'sometimes'",
        "match.to_a: 打百分 has no levels: use deals or minutes",
    ]
    missing = individual_doc()
    del missing["played"][0]["tables"][1]["deals"][0]["points"]
    missing["played"][0]["tables"][1]["deals"][1]["kou_di"] = 1
    missing["played"][0]["tables"][0]["deals"][1]["kitty"] = 15
    missing["played"][0]["tables"][0]["deals"][1]["points"] = 90
    missing["played"][0]["tables"][0]["deals"][0]["buried"] = ["2S"]  # not a key: 抠底 is yes/no
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(missing)
    assert [str(x) for x in e.value.errors] == [
        "played[0].tables[0].deals[0].buried: unknown field (known: declarer, bid, turned, trump, "
        "friend_card, friend, points, kou_di, kitty, penalties, warnings)",
        "played[0].tables[0].deals[1].kitty: points 90 + the buried cards' 15 = 105 is more than "
        "the 100 in the deck (the buried cards were not won in tricks)",
        "played[0].tables[1].deals[0].points: is missing",
        "played[0].tables[1].deals[1].kou_di: 1 is not true or false (did an attacker win the "
        "last trick?)",
    ]
    ind = individual_doc()
    ind["pairing"] = "swiss"
    ind["played"][0]["tables"][0]["players"].append("I")
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(ind)
    assert [str(x) for x in e.value.errors] == [
        "pairing: 'swiss': an individual 打百分 event re-seats its players: use reseat",
        "played[0].tables[0].players: must name 4 entrants, not 5",
        "played[0].tables[2].bye: 'I' is already at played[0].tables[0] in this round",
    ]
    pairs = pair_doc()
    pairs["pairing"] = "reseat"
    pairs["played"][0]["tables"][0]["deals"][0]["friend_card"] = "AS"
    with pytest.raises(tfile.TournamentFileError) as e:
        tfile.load(pairs)
    assert [str(x) for x in e.value.errors] == [
        "pairing: 'reseat': a pair event is paired round-robin or swiss",
        "played[0].tables[0].deals[0].friend_card: is not used: fixed has no friend card",
    ]
    online = individual_doc()
    online["played"][0]["tables"][0]["mode"] = "online"  # the app plays 打百分 online
    assert tfile.load(online).played[0].tables[0].mode == "online"


def test_seasons_take_hundred_nights_of_one_variant() -> None:
    t = tfile.load(pair_doc())
    lines = {(x.player, x.number, x.level_diff) for x in night_lines(t)}
    assert ("C1", 4, 8) in lines and ("C2", 4, 8) in lines
    ind = tfile.load(individual_doc())
    assert {x.player: x.number for x in night_lines(ind)}["C"] == 6
    assert season_variant("hundred-4p", {"friend": "fixed"}) == "hundred-4p/fixed"
    assert season_variant("hundred-4p", {}) == "hundred-4p/hidden"
    assert season_variant("forty-4p", {}) == "forty-4p"
    assert variant_refusal("Winter", None, ind) is None
    assert variant_refusal("Winter", "hundred-4p/hidden", ind) is None
    msg = variant_refusal("Winter", "hundred-4p/fixed", ind)
    assert msg is not None and "hundred-4p/fixed" in msg and "hundred-4p/hidden" in msg


def test_the_hooks_know_every_hundred_variant() -> None:
    from app.competition import standings
    from engine.hundred_rules import FAMILY_IDS

    assert standings.HUNDRED_IDS == tfile.HUNDRED_VARIANTS == FAMILY_IDS
