"""Time rules and rule presets in the pure competition package: each tie-break in match results
and standings, the last-deal limit, a match to level 10, the tournament file's new fields (read,
written, refused with a sentence), the presets, and the printed rules line."""

from __future__ import annotations

import io
from dataclasses import replace

import pypdf
import pytest

from app.competition.matches import derive_fixed, derive_red_five, fixed_final
from app.competition.model import Deal, Entrant, MatchSpec, Round, Table, Tournament
from app.competition.presets import PRESETS, presets_for
from app.competition.standings import fixed_standings
from app.competition.tfile import TournamentFileError, dump, load
from app.printing import ScoreSheet, score_sheet
from engine.variants import make_variant

TRACTOR = make_variant("tractor-4p")


def d(declarer: int, points: int) -> Deal:
    return Deal(points=points, kitty=0, trump="S", declarer=declarer)


# side 0 holds (3:2), side 1 takes over with no gain, side 1 holds (3:3): side 1 on stage
LEVEL = (d(0, 65), d(0, 85), d(1, 65))


def _tournament(match: MatchSpec, deals: tuple[Deal, ...], **table: object) -> Tournament:
    tab = Table(1, sides=("A", "B"), deals=deals, **table)  # type: ignore[arg-type]
    return Tournament(
        club="C",
        name="T",
        variant="tractor-4p",
        pairing="swiss",
        rounds=1,
        match=match,
        entrants=(Entrant("A", ("a1", "a2")), Entrant("B", ("b1", "b2"))),
        played=(Round(1, (tab,)),),
    )


def _points(t: Tournament) -> dict[str, tuple[int, int]]:
    return {r.entrant: (r.match_points, r.level_diff) for r in fixed_standings(t)}


def test_equal_levels_are_a_draw_by_default():
    m = derive_fixed(TRACTOR, MatchSpec(deals=3), Table(1, deals=LEVEL))
    assert m.counts and m.levels == ("3", "3") and m.tie_winner is None
    assert m.outcome(0) == m.outcome(1) == "draw"
    assert _points(_tournament(MatchSpec(deals=3), LEVEL)) == {"A": (1, 0), "B": (1, 0)}


def test_on_stage_wins_equal_levels_in_results_and_standings():
    spec = MatchSpec(deals=3, tie_break="on_stage")
    m = derive_fixed(TRACTOR, spec, Table(1, deals=LEVEL))
    assert m.counts and m.tie_winner == 1
    assert (m.outcome(0), m.outcome(1)) == ("loss", "win")
    assert _points(_tournament(spec, LEVEL)) == {"A": (0, 0), "B": (2, 0)}
    # unequal levels are not touched by the tie-break
    won = (d(0, 65), d(0, 65), d(0, 65))
    assert _points(_tournament(spec, won)) == {"A": (2, 3), "B": (0, -3)}


def test_extra_deal_on_equal_levels_in_a_match_by_deals():
    spec = MatchSpec(deals=3, tie_break="extra_deal")
    m = derive_fixed(TRACTOR, spec, Table(1, deals=LEVEL))
    assert not m.counts and m.extra_due  # 3:3: one more deal to play
    assert fixed_final(TRACTOR, spec, Table(1, deals=LEVEL)) is None
    extra = (*LEVEL, d(1, 85))  # side 0 takes the extra deal over: no gain, it wins the match
    m = derive_fixed(TRACTOR, spec, Table(1, deals=extra))
    assert m.counts and m.extra_deal and m.levels == ("3", "3") and m.tie_winner == 0
    assert _points(_tournament(spec, extra)) == {"A": (2, 0), "B": (0, 0)}
    # only one extra deal, and none when the levels differ
    m = derive_fixed(TRACTOR, spec, Table(1, deals=(*extra, d(0, 65))))
    assert [e.code for e in m.errors] == ["match_complete"]
    m = derive_fixed(TRACTOR, spec, Table(1, deals=(d(0, 65), d(0, 65), d(0, 65), d(0, 65))))
    assert [e.code for e in m.errors] == ["match_complete"]


def test_last_deal_limit_of_a_match_by_time():
    spec = MatchSpec(minutes=90)
    open_table = Table(1, deals=LEVEL[:2])
    assert not derive_fixed(TRACTOR, spec, open_table).counts
    called = replace(open_table, last_deal=3)
    assert not derive_fixed(TRACTOR, spec, called).counts  # the deal in progress is to come
    done = replace(called, deals=LEVEL)
    assert derive_fixed(TRACTOR, spec, done).counts
    too_many = replace(called, deals=(*LEVEL, d(1, 65)))
    m = derive_fixed(TRACTOR, spec, too_many)
    assert [(e.index, e.code) for e in m.errors] == [(3, "after_last_deal")]
    # the tie-break's extra deal may still follow the last deal on equal levels
    extra = MatchSpec(minutes=90, tie_break="extra_deal")
    assert derive_fixed(TRACTOR, extra, done).extra_due
    m = derive_fixed(TRACTOR, extra, replace(done, deals=(*LEVEL, d(1, 85))))
    assert m.counts and m.tie_winner == 0
    # red five obeys the same limit
    rf = make_variant("red-five-5p")
    deal = Deal(points=40, kitty=0, trump="S", dealer=0, friend=1)
    tab = Table(1, players=("a", "b", "c", "d", "e"), deals=(deal, deal), last_deal=1)
    assert [e.code for e in derive_red_five(rf, spec, tab).errors] == ["after_last_deal"]
    assert derive_red_five(rf, spec, replace(tab, deals=(deal,))).counts


def test_first_past_ten():
    spec = MatchSpec(to_a=True, target="10")
    variant = make_variant("tractor-4p", dict(PRESETS["first-past-10"].options))
    # side 0 holds with 0 points (+3 a deal): 2 → 5 → 8 → 10 (a must-play level stops it)
    climb = (d(0, 0), d(0, 0), d(0, 0))
    m = derive_fixed(variant, spec, Table(1, deals=climb))
    assert m.levels == ("10", "2") and not m.counts
    m = derive_fixed(variant, spec, Table(1, deals=(*climb, d(0, 0))))
    assert m.passed_side == 0 and m.counts and m.values == (11, 2)
    later = derive_fixed(variant, spec, Table(1, deals=(*climb, d(0, 0), d(0, 0))))
    assert [e.code for e in later.errors] == ["passed_a"]


def test_the_file_carries_the_new_options_both_ways():
    t = _tournament(MatchSpec(minutes=90, tie_break="on_stage"), LEVEL, last_deal=3)
    doc = dump(t)
    assert doc["match"] == {"minutes": 90, "tie_break": "on_stage"}
    assert doc["played"][0]["tables"][0]["last_deal"] == 3
    back = load(doc)
    assert back.match == t.match and back.played[0].tables[0].last_deal == 3
    to10 = replace(t, match=MatchSpec(to_a=True, target="10"), played=())
    assert dump(to10)["match"] == {"to_a": True, "target": "10"}
    assert load(dump(to10)).match == MatchSpec(to_a=True, target="10")
    # an old file (no tie-break, no target, no last deal) reads as before
    old = dump(replace(t, match=MatchSpec(deals=3)))
    del old["played"][0]["tables"][0]["last_deal"]
    assert load(old).match == MatchSpec(deals=3) and "tie_break" not in old["match"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"match": {"minutes": 90, "tie_break": "coin"}}, "match.tie_break: must be one of"),
        ({"match": {"to_a": True, "target": "1"}}, "match.target: must be a level"),
        ({"match": {"deals": 3, "target": "10"}}, "match.target: belongs to a match to a level"),
        ({"table": {"last_deal": 0}}, "last_deal: must be a number of deals 1 or more"),
        ({"table": {"last_deal": "3"}}, "last_deal: must be a number of deals 1 or more"),
        ({"match": {"deals": 3}, "table": {"last_deal": 3}}, "belongs to a match by time"),
    ],
)
def test_bad_new_fields_in_a_file_are_refused_with_a_sentence(change, words):
    doc = dump(_tournament(MatchSpec(minutes=90), LEVEL))
    if "match" in change:
        doc["match"] = change["match"]
    if "table" in change:
        doc["played"][0]["tables"][0].update(change["table"])
    with pytest.raises(TournamentFileError) as err:
        load(doc)
    assert words in str(err.value), str(err.value)


def test_red_five_refuses_a_tie_break_in_a_file():
    doc = {
        "format": "shengji-tournament/1",
        "club": "C",
        "name": "T",
        "variant": "red-five-5p",
        "pairing": "reseat",
        "rounds": 1,
        "match": {"deals": 5, "tie_break": "on_stage"},
        "entrants": [{"name": n, "players": [n]} for n in "abcde"],
    }
    with pytest.raises(TournamentFileError) as err:
        load(doc)
    assert "red five has no tie-break" in str(err.value)


def test_presets_are_valid_data_for_their_games():
    for p in PRESETS.values():
        for variant in ("tractor-4p", "red-five-5p", "one-twenty-6p"):
            if p.fits(variant):
                make_variant(variant, dict(p.options))  # raises on a bad option
        assert p.name("zh") != p.name("en") and p.words("zh") and p.words("en")
    assert [p.id for p in presets_for("tractor-4p")] == [
        "club",
        "competition-tractor",
        "first-past-10",
    ]
    comp = PRESETS["competition-tractor"]
    assert comp.options == {
        "throw_penalty": "ten_per_card",
        "revoke_effect": "ends_deal",
        "strikes_lose_match": 3,
    }
    assert comp.match == {"minutes": 90, "tie_break": "on_stage"}
    assert {p.id for p in presets_for("red-five-5p")} == {"club", "competition-red-five"}
    assert {p.id for p in presets_for("one-twenty-6p")} == {"club", "competition-one-twenty"}


def _pdf_text(sheet: ScoreSheet) -> str:
    reader = pypdf.PdfReader(io.BytesIO(score_sheet(sheet)))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_printed_rules_line_names_the_preset_and_the_tie_break():
    sheet = ScoreSheet(
        tournament="T",
        club="C",
        round=1,
        table=1,
        variant="tractor-4p",
        seats=("a1", "b1", "a2", "b2"),
        sides=("A", "B"),
        match={"minutes": 90, "tie_break": "on_stage"},
        preset=PRESETS["competition-tractor"].printed,
    )
    text = _pdf_text(sheet)
    assert "Rule preset: 升级比赛 Competition 升级" in text.replace("\n", " ")
    assert "90 分钟 minutes" in text and "the side on stage wins" in text.replace("\n", " ")
    plain = _pdf_text(replace(sheet, preset="", match={"deals": 8}))
    assert "Rule preset" not in plain
