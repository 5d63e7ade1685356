"""打百分 on paper (HUNDRED.md §8): its score sheet (the declarer's seat, the bid or 40分下台's
turned card, trump, the friend card and the friend, the attackers' points, 抠底, the buried
cards' points, penalties, the result and each seat's or side's units), its table cards, the
round's pairings and the standings of its individual and pair events."""

from __future__ import annotations

import dataclasses
import io

import pypdf
import pytest
from printing_samples import EVIL, hundred_sheet, render_png

from app.printing import (
    ClimbingDeal,
    HundredDeal,
    PrintError,
    RoundPack,
    Standings,
    pairings,
    print_pack,
    score_sheet,
    standings,
    table_cards,
)


def text_of(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF-")
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def test_a_friend_sheet_prints_the_row_the_result_and_each_seats_units() -> None:
    text = text_of(score_sheet(hundred_sheet(), filled=True))
    for expected in (
        "记分表",
        "打百分 Hundred, 4 players",
        "叫分",
        "叫牌",
        "朋友",
        "闲家得分",
        "抠底",
        "A hidden friend, known when the card is played",
        "Units = (bid − 55) / 5",
        "revoke, miscount end the deal",
        "Take-back: a warning only",
        "Players rank by 积分, then deals won as declarer's side",
        "积分合计 Score total",
        "座4 签名 Seat 4",
        "欧阳娜娜",
        EVIL,
        "H7K-2QX",
    ):
        assert expected in text, expected
    assert "起始级" not in text and "甲方" not in text
    # deal 1: seat 1 declared 80 with seat 3 (the ace of spades), 25 points: the attackers 5
    assert "\n1\n80\n♥\nA♠\n3\n25\n" in text and "\n闲 5\n-5\n+5\n-5\n+5\n" in text
    # deal 2: a revoke by the declarer's side ended it (no points), the declarer alone
    assert "\n—\n" in text and "出错庄" in text and "独 alone" in text
    # the totals: −5 + 7, 5 − 21, …
    assert "\n+2\n-16\n+2\n+12\n积分合计 Score total" in text


def test_a_blank_sheet_has_a_row_per_deal_and_nothing_recorded() -> None:
    text = text_of(score_sheet(hundred_sheet(), filled=False))
    lines = text.splitlines()
    assert "8" in lines and "9" not in lines
    assert "A♠" not in text and "出错庄" not in text and "座 / 独" in text


def test_fixed_pairs_print_sides_and_units_without_levels() -> None:
    text = text_of(score_sheet(hundred_sheet(friend="fixed"), filled=True))
    assert "Fixed partners opposite" in text and "甲方 A" in text and "甲A 分" in text
    assert "起始级" not in text and "叫牌" not in text
    assert "分数合计 Units total" in text and "Captain, side A" in text
    assert "\n+3\n-3\n分数合计 Units total" in text


def test_forty_prints_the_turned_card_and_kou_di() -> None:
    text = text_of(score_sheet(hundred_sheet(variant="forty-4p"), filled=True))
    assert "40分下台 Forty, 4 players in pairs" in text and "翻牌" in text and "叫分" not in text
    assert "7♥" in text and "是 yes" in text and "attackers win at 40" in text
    assert "\n0\n0\n分数合计 Units total" in text  # one deal each way


def test_three_player_hundred_has_three_seats() -> None:
    text = text_of(score_sheet(hundred_sheet(variant="hundred-3p"), filled=True))
    assert "3人百分" in text and "座3 签名 Seat 3" in text and "座4" not in text
    assert "\n闲 4\n+4\n+4\n-8\n" in text


def test_table_cards_pairings_and_the_pack() -> None:
    cards = text_of(table_cards([hundred_sheet(), hundred_sheet(2, "hundred-3p")], per_page=2))
    for expected in ("第 1 桌", "第 2 桌", "座4 Seat 4", "欧阳娜娜"):
        assert expected in cards, expected
    rnd = RoundPack(
        "打百分之夜 Hundred night",
        "Riverside",
        1,
        "hundred-4p",
        (hundred_sheet(1), hundred_sheet(2)),
        byes=("Eve",),
    )
    listing = text_of(pairings(rnd))
    assert "座4" in listing and "座5" not in listing and "Eve" in listing
    pack = text_of(print_pack(rnd, filled=True))
    assert pack.count("积分合计 Score total") == 2 and "A♠" in pack
    pairs = RoundPack(
        "40分下台", "Riverside", 1, "forty-4p", (hundred_sheet(1, "forty-4p"),), byes=()
    )
    assert "Li Lei & 欧阳娜娜" in text_of(pairings(pairs))


def test_standings_of_both_kinds_of_event() -> None:
    ind = Standings(
        "打百分之夜",
        "Riverside",
        "hundred-4p",
        ({"rank": 1, "entrant": "王芳", "deals": 8, "score": 12, "declarer_wins": 3},),
    )
    text = text_of(standings(ind))
    assert "积分" in text and "庄家方胜" in text and "+12" in text and "级差" not in text
    pairs = Standings(
        "40分下台",
        "Riverside",
        "forty-4p",
        (
            {
                "rank": 1,
                "entrant": "A & B",
                "played": 2,
                "match_points": 4,
                "unit_diff": -3,
                "opponents_points": 2,
            },
        ),
    )
    text = text_of(standings(pairs))
    assert "分差" in text and "-3" in text and "级差" not in text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sides": ("a", "b")}, "individuals: no sides"),
        ({"options": {"friend": "fixed"}}, "two pairs: give the sides"),
        ({"options": {"friend": "x"}}, "friend"),
        ({"seats": ("a", "b", "c")}, "needs 4 seat names"),
        ({"deals": (HundredDeal(4, "S", 20, bid=60),)}, "declarer must be at most 3"),
        ({"deals": (HundredDeal(0, "X", 20, bid=60),)}, "trump"),
        ({"deals": (HundredDeal(0, "S", 105, bid=60),)}, "points must be at most 100"),
        ({"deals": (HundredDeal(0, "S", 20, bid=55),)}, "bid must be at least 60"),
        ({"deals": (HundredDeal(0, "S", 20, bid=60, scores=(1, 2)),)}, "scores must be 4"),
        ({"deals": (HundredDeal(0, "S", 20, penalties=(("revoke", 2),)),)}, "打百分 penalty"),
        ({"deals": (ClimbingDeal((1, 2, 3, 4)),)}, "takes HundredDeal rows"),
    ],
)
def test_bad_input_is_named(change: dict[str, object], message: str) -> None:
    sheet = dataclasses.replace(hundred_sheet(), **change)  # type: ignore[arg-type]
    with pytest.raises(PrintError, match=message):
        score_sheet(sheet, filled=True)


def test_review_pngs() -> None:
    for name, pdf in (
        ("sheet_hundred_filled", score_sheet(hundred_sheet(), filled=True)),
        ("sheet_hundred_pairs", score_sheet(hundred_sheet(friend="fixed"), filled=True)),
        ("sheet_forty_blank", score_sheet(hundred_sheet(variant="forty-4p"))),
        ("cards_hundred", table_cards([hundred_sheet(), hundred_sheet(2, "hundred-3p")])),
    ):
        data = render_png(pdf, name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, name
