"""争上游 on paper: a row's checks on their fields, points by place, take-backs, the tribute
against the deal before, a table's totals and deals won, standings, re-seating and the rated
games (a deal each, each seat a team of one)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from app.competition import tfile
from app.competition.climbing import derive_climbing
from app.competition.matches import check_deal, check_entry
from app.competition.model import (
    Deal,
    Entrant,
    MatchSpec,
    Round,
    Substitute,
    Table,
    Tournament,
    Tribute,
)
from app.competition.pairing import PairingError, pair_next_round
from app.competition.ratings import AWARD_DEAL_WIN, games_of, rate
from app.competition.standings import red_five_standings as standings
from engine.variants import make_variant

V4 = make_variant("climbing", {"players": 4})
SPEC = MatchSpec(deals=3)


def row(*places: int | None, tribute: Tribute | None = None, penalties=()) -> Deal:
    return Deal(points=0, kitty=0, places=tuple(places), tribute=tribute, penalties=penalties)


def test_a_good_row_has_no_errors() -> None:
    assert check_deal(V4, row(2, 1, 4, 3)) == {}


def test_two_seats_in_one_place_is_refused_on_the_second_seat() -> None:
    errors = check_deal(V4, row(1, 2, 2, 4))
    assert list(errors) == ["place_2"]
    assert errors["place_2"] == "seat 2 has place 2, as seat 1 has: each place once"


def test_a_missing_place_and_a_place_out_of_range() -> None:
    errors = check_deal(V4, row(1, None, 5, 3))
    assert errors["place_1"] == "seat 1 has no place"
    assert errors["place_2"] == "5 is not a place 1 … 4"
    assert "places" in check_deal(V4, row(1, 2, 3))


def test_a_tribute_card_that_is_not_a_card() -> None:
    errors = check_deal(V4, row(1, 2, 3, 4, tribute=Tribute(3, 0, "ZZ")))
    assert list(errors) == ["tribute_card"]


def test_trick_fields_and_other_penalties_are_refused() -> None:
    bad = Deal(points=0, kitty=0, dealer=1, places=(1, 2, 3, 4), penalties=(("revoke", 1),))
    errors = check_deal(V4, bad)
    assert set(errors) == {"dealer", "penalties"}
    red = make_variant("red-five-5p", {})
    assert "places" in check_deal(red, Deal(points=0, kitty=0, dealer=0, trump="S", places=(1,)))


def test_tribute_off_refuses_a_tribute() -> None:
    v = make_variant("climbing", {"players": 4, "tribute": False})
    assert list(check_deal(v, row(1, 2, 3, 4, tribute=Tribute(3, 0, "2S")))) == ["tribute_from"]


def test_points_by_place_and_a_takeback() -> None:
    table = Table(
        1, players=("A", "B", "C", "D"), deals=(row(2, 1, 4, 3, penalties=(("takeback", 1),)),)
    )
    tab = derive_climbing(V4, SPEC, table)
    assert tab.rows[0].scores == (2, 2, 0, 1)  # B first: 3 less one for the take-back
    assert tab.wins == (0, 1, 0, 0)


def test_place_points_option_is_the_engines() -> None:
    v = make_variant("climbing", {"players": 4, "place_points": [5, 2, 1, 0]})
    tab = derive_climbing(v, SPEC, Table(1, players=("A", "B", "C", "D"), deals=(row(4, 3, 2, 1),)))
    assert tab.totals == (0, 1, 2, 5)


def test_tribute_goes_from_the_last_to_the_first_of_the_deal_before() -> None:
    first = row(2, 1, 4, 3)  # seat 1 first, seat 2 last
    good = row(1, 2, 3, 4, tribute=Tribute(2, 1, "2h"))
    table = Table(1, players=("A", "B", "C", "D"), deals=(first, good))
    tab = derive_climbing(V4, SPEC, table)
    assert not tab.errors and tab.totals == (5, 5, 1, 1)
    errors = check_entry(V4, SPEC, table, row(1, 2, 3, 4, tribute=Tribute(0, 3, "2H")))
    assert set(errors) == {"tribute_from", "tribute_to"}
    assert errors["tribute_from"] == "seat 0 did not come last in the deal before (seat 3 did)"
    assert errors["tribute_to"] == "seat 3 did not come first in the deal before (seat 0 did)"
    assert check_entry(V4, SPEC, Table(1, players=("A", "B", "C", "D")), good) == {
        "tribute_from": "a first deal has no tribute"
    }
    # 抗贡: no tribute in a later deal is fine
    assert check_entry(V4, SPEC, table, row(1, 2, 3, 4)) == {}


def test_a_table_counts_after_its_deals_and_refuses_one_more() -> None:
    deals = (row(1, 2, 3, 4), row(2, 1, 3, 4), row(1, 3, 2, 4))
    table = Table(1, players=("A", "B", "C", "D"), deals=deals)
    tab = derive_climbing(V4, SPEC, table)
    assert tab.counts and tab.totals == (8, 6, 4, 0) and tab.wins == (2, 1, 0, 0)
    assert "" in check_entry(V4, SPEC, table, row(1, 2, 3, 4))


def _night(rounds: tuple[Round, ...], names: str = "ABCDEFGH") -> Tournament:
    return Tournament(
        club="C",
        name="争上游 night",
        variant="climbing",
        pairing="reseat",
        rounds=3,
        match=SPEC,
        options={"players": 4},
        entrants=tuple(Entrant(n, (n,)) for n in names),
        played=rounds,
    )


def test_standings_by_points_then_deals_won_then_name() -> None:
    # D and A tie on points (6); A won two deals, D one; B and C tie on everything: by name
    deals = (row(1, 3, 4, 2), row(4, 2, 3, 1), row(1, 4, 2, 3))
    t = _night((Round(1, (Table(1, players=("A", "B", "C", "D"), deals=deals),)),), "ABCD")
    got = [(r.entrant, r.score, r.dealer_wins) for r in standings(t)]
    assert got == [("A", 6, 2), ("D", 6, 1), ("B", 3, 0), ("C", 3, 0)]


def test_re_seating_puts_four_at_a_table_and_avoids_tablemates() -> None:
    first = pair_next_round(_night(()))
    assert [len(tab.players or ()) for tab in first.tables] == [4, 4]
    second = pair_next_round(_night((first,)))
    for tab in second.tables:
        for before in first.tables:
            assert len(set(tab.players or ()) & set(before.players or ())) <= 2


def test_places_of_the_wrong_kind_and_tributes_between_no_seats() -> None:
    errors = check_deal(V4, row(0, "1", True, 2))  # type: ignore[arg-type]
    assert set(errors) == {"place_0", "place_1", "place_2"}
    assert errors["place_0"] == "0 is not a place 1 … 4"
    errors = check_deal(V4, row(1, 2, 3, 4, tribute=Tribute(4, 4, "2S")))
    assert set(errors) == {"tribute_from", "tribute_to"}
    assert check_deal(V4, row(1, 2, 3, 4, tribute=Tribute(2, 2, "2S"))) == {
        "tribute_to": "the tribute goes from the last to the first: two seats"
    }
    for card in ("0S", "", "SS", "11H", "2X"):
        assert list(check_deal(V4, row(1, 2, 3, 4, tribute=Tribute(3, 0, card)))) == [
            "tribute_card"
        ]
    for card in ("2s", "10H", "HJ", "lj"):
        assert check_deal(V4, row(1, 2, 3, 4, tribute=Tribute(3, 0, card))) == {}


def test_trick_numbers_in_a_climbing_row_are_refused() -> None:
    bad = Deal(points=20, kitty=0, trump="S", places=(1, 2, 3, 4))
    assert set(check_deal(V4, bad)) == {"points", "trump"}


def test_a_wrong_tribute_stops_the_sheet_there() -> None:
    deals = (row(1, 2, 3, 4), row(1, 2, 3, 4, tribute=Tribute(0, 3, "2S")), row(1, 2, 3, 4))
    tab = derive_climbing(V4, SPEC, Table(1, players=("A", "B", "C", "D"), deals=deals))
    assert len(tab.rows) == 1 and not tab.counts
    assert {(e.index, e.field) for e in tab.errors} == {(1, "tribute_from"), (1, "tribute_to")}


# --- a 3-round event of 8 players at tables of 4 ----------------------------------------------

NAMES = ("Ann", "Bo", "Cai", "Dan", "Eve", "Fu", "Gao", "Hu")


def _deals_for(round_no: int, table_no: int) -> tuple[Deal, ...]:
    """Three rows: the places turn round the table, each later row paying the tribute."""
    out: list[Deal] = []
    before: tuple[int, ...] | None = None
    for d in range(3):
        shift = (round_no + table_no + d * (round_no + 1)) % 4
        places = tuple((seat + shift) % 4 + 1 for seat in range(4))
        tribute = None
        if before is not None and d != 2:  # deal 3: 抗贡, no tribute
            tribute = Tribute(before.index(4), before.index(1), "AS")
        out.append(row(*places, tribute=tribute))
        before = places
    return tuple(out)


def test_a_three_round_event_of_eight_players_at_tables_of_four() -> None:
    t = Tournament(
        club="C",
        name="争上游 night",
        variant="climbing",
        pairing="reseat",
        rounds=3,
        match=SPEC,
        options={"players": 4},
        entrants=tuple(Entrant(n, (n,)) for n in NAMES),
    )
    expect_points = dict.fromkeys(NAMES, 0)
    expect_wins = dict.fromkeys(NAMES, 0)
    for round_no in (1, 2, 3):
        seated = pair_next_round(t)
        assert seated.round == round_no and not seated.byes
        assert [len(tab.players or ()) for tab in seated.tables] == [4, 4]
        assert sorted(p for tab in seated.tables for p in tab.players or ()) == sorted(NAMES)
        tables = []
        for tab in seated.tables:
            deals = _deals_for(round_no, tab.table)
            for deal in deals:
                assert deal.places is not None
                for seat, name in enumerate(tab.players or ()):
                    expect_points[name] += 4 - deal.places[seat]  # 3, 2, 1, 0
                    expect_wins[name] += deal.places[seat] == 1
            tables.append(Table(tab.table, players=tab.players, deals=deals))
        t = replace(t, played=(*t.played, Round(round_no, tuple(tables))))
        assert all(derive_climbing(t.rules, SPEC, tab).counts for tab in tables)
    rows = standings(t)
    assert [(r.entrant, r.score, r.dealer_wins, r.deals) for r in rows] == sorted(
        ((n, expect_points[n], expect_wins[n], 9) for n in NAMES),
        key=lambda x: (-x[1], -x[2], x[0]),
    )
    assert sum(r.score for r in rows) == 3 * 2 * 3 * 6  # rounds × tables × deals × (3+2+1+0)
    assert [r.rank for r in rows] == list(range(1, 9))
    # the tournament file carries the event: the same standings, the same file again
    doc = tfile.dump(t)
    again = tfile.load(json.loads(json.dumps(doc, ensure_ascii=False)))
    assert again == t
    assert tfile.dump(again) == doc
    assert tfile.standings_json(again) == tfile.standings_json(t)
    assert tfile.standings_json(t)[0] == {
        "rank": 1,
        "entrant": rows[0].entrant,
        "deals": 9,
        "score": rows[0].score,
        "wins": rows[0].dealer_wins,
    }
    # a fourth round is refused: all are seated
    with pytest.raises(PairingError):
        pair_next_round(t)


def test_climbing_deals_are_rated_one_by_one_each_seat_a_team_of_one_ranked_by_points() -> None:
    # deal 2: B (seat 1) first with a take-back: 3 - 1 = 2 points, level with A's second place
    deals = (
        row(1, 2, 3, 4),
        row(2, 1, 4, 3, tribute=Tribute(3, 0, "2S"), penalties=(("takeback", 1),)),
    )
    t = _night((Round(1, (Table(1, players=("A", "B", "C", "D"), deals=deals),)),), "ABCD")
    games = games_of(t, "2026-12-01")
    assert [(g.when, g.teams, g.ranks, g.winner, g.kind) for g in games] == [
        ("2026-12-01#0001.0001.0001", (("A",), ("B",), ("C",), ("D",)), (0, 1, 2, 3), 0, "deal"),
        ("2026-12-01#0001.0001.0002", (("A",), ("B",), ("C",), ("D",)), (0, 0, 3, 2), 1, "deal"),
    ]
    r = rate(games)
    assert r["A"].display > r["B"].display > r["D"].display > r["C"].display
    assert (r["A"].games, r["A"].matches, r["A"].award) == (2, 0, AWARD_DEAL_WIN)
    assert r["B"].award == AWARD_DEAL_WIN  # the first out (上游) wins the deal, as standings count


def test_a_climbing_table_rates_its_rows_up_to_the_first_in_error() -> None:
    deals = (row(1, 2, 3, 4), row(1, 1, 3, 4), row(4, 3, 2, 1))  # row 2: two seats first
    t = _night((Round(1, (Table(1, players=("A", "B", "C", "D"), deals=deals),)),), "ABCD")
    assert [g.when[-4:] for g in games_of(t, "w")] == ["0001"]


def test_a_climbing_substitute_is_credited_with_the_deals_of_their_rounds() -> None:
    tab = Table(1, players=("A", "B", "C", "D"), deals=(row(1, 2, 3, 4),))
    t = replace(
        _night((Round(1, (tab,)), Round(2, (tab,))), "ABCD"),
        entrants=(Entrant("A", ("A",), substitutes=(Substitute(0, 2, "Sub"),)),)
        + tuple(Entrant(n, (n,)) for n in "BCD"),
    )
    games = games_of(t, "w")
    assert [(g.when, g.teams[0]) for g in games] == [
        ("w#0001.0001.0001", ("A",)),
        ("w#0002.0001.0001", ("Sub",)),
    ]
    assert games_of(t, "w", {"Sub": "Member Sub"})[1].teams[0] == ("Member Sub",)
