"""争上游 (climbing) on paper: its score sheet (each seat's place, the tribute from/to/card, the
points by place when filled, empty rows to fill by hand when blank) and its table cards, for
3 to 6 players."""

from __future__ import annotations

import dataclasses
import io

import pypdf
import pytest
from printing_samples import EVIL, climbing_sheet, render_png

from app.printing import (
    ClimbingDeal,
    PrintError,
    RedFiveDeal,
    RoundPack,
    pairings,
    print_pack,
    score_sheet,
    table_cards,
)


def text_of(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF-")
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def test_filled_sheet_prints_places_tribute_and_points() -> None:
    text = text_of(score_sheet(climbing_sheet(), filled=True))
    for expected in (
        "记分表",
        "争上游 Climbing, 3 to 6 players",
        "座1 名次",
        "座4 名次",
        "进贡 从座",
        "贡牌",
        "座4 得分",
        "大王 HJ",  # deal 2's tribute card
        "悔牌2",  # deal 3: seat 2 took back a play
        "得分合计 Points total",
        "4 人 4 players",
        "Points by place (first to last): 3 · 2 · 1 · 0",
        "Tribute: the last gives the first his highest card",
        "a take-back costs its player one point",
        "Players rank by points by place, then deals won (上游)",
        "座4 签名 Seat 4",
        "欧阳娜娜",
        EVIL,  # markup typed into a name is printed as typed
        "C2M-4QX",
    ):
        assert expected in text, expected
    assert "座5" not in text and "甲方" not in text and "起始级" not in text
    # deal 2: places 1 3 2 4, tribute from seat 3 to seat 2 (seats counted from 1), its points
    assert "\n1\n3\n2\n4\n3\n2\n大王 HJ\n3\n1\n2\n0\n" in text
    # the totals of the points by place: 2+3+1, 3+1+1, 0+2+3, 1+0+0
    assert "\n6\n5\n5\n1\n得分合计 Points total" in text


def test_blank_sheet_has_a_row_per_deal_and_nothing_recorded() -> None:
    text = text_of(score_sheet(climbing_sheet(), filled=False))
    lines = text.splitlines()
    for n in range(1, 11):
        assert str(n) in lines
    assert "11" not in lines
    assert "大王 HJ" not in text and "悔牌2" not in text
    assert "Points by place" in text and "得分合计 Points total" in text


@pytest.mark.parametrize("players", [3, 5, 6])
def test_each_table_size_has_its_seats(players: int) -> None:
    text = text_of(score_sheet(climbing_sheet(players=players)))
    assert f"座{players} 名次" in text and f"座{players} 签名 Seat {players}" in text
    assert f"座{players + 1}" not in text
    expected = " · ".join(str(p) for p in range(players - 1, -1, -1))
    assert f"Points by place (first to last): {expected}" in text


def test_tribute_off_has_no_tribute_columns() -> None:
    sheet = dataclasses.replace(climbing_sheet(), options={"tribute": False}, deals=())
    text = text_of(score_sheet(sheet))
    assert "不进贡 No tribute" in text
    assert "贡牌" not in text and "进贡 从座" not in text


def test_table_cards_and_pairings_of_a_climbing_round() -> None:
    cards = text_of(table_cards([climbing_sheet(), climbing_sheet(3, players=6)], per_page=2))
    for expected in ("第 2 桌", "第 3 桌", "座6 Seat 6", "陈静", "欧阳娜娜"):
        assert expected in cards, expected
    rnd = RoundPack(
        "争上游之夜 Climbing night",
        "Riverside",
        1,
        "climbing",
        (climbing_sheet(1), climbing_sheet(2)),
        byes=("Eve",),
    )
    listing = text_of(pairings(rnd))
    assert "座4" in listing and "座5" not in listing and "Eve" in listing
    pack = text_of(print_pack(rnd, filled=True))
    assert pack.count("得分合计 Points total") == 2 and "大王 HJ" in pack


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"options": {"players": 5}}, "needs 5 seat names"),
        ({"options": {"players": 7}}, "players"),
        ({"sides": ("a", "b")}, "no fixed sides"),
        ({"deals": (ClimbingDeal((1, 1, 3, 4)),)}, "places must be 1 … 4"),
        ({"deals": (ClimbingDeal((1, 2, 3, 4), (4, 0, "2S")),)}, "tribute from seat"),
        ({"deals": (ClimbingDeal((1, 2, 3, 4), scores=(3, 2, 1)),)}, "scores must be 4"),
        ({"deals": (ClimbingDeal((1, 2, 3, 4), penalties=(("revoke", 1),)),)}, "takeback"),
        ({"deals": (RedFiveDeal(0, 1, "S", 10),)}, "takes ClimbingDeal rows"),
    ],
)
def test_bad_input_is_named(change: dict[str, object], message: str) -> None:
    sheet = dataclasses.replace(climbing_sheet(), **change)  # type: ignore[arg-type]
    with pytest.raises(PrintError, match=message):
        score_sheet(sheet, filled=True)


def test_review_pngs() -> None:
    for name, pdf in (
        ("sheet_climbing_filled", score_sheet(climbing_sheet(), filled=True)),
        ("sheet_climbing_blank_6", score_sheet(climbing_sheet(players=6))),
        (
            "cards_climbing",
            table_cards([climbing_sheet(), climbing_sheet(3, players=6)], per_page=2),
        ),
    ):
        data = render_png(pdf, name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, name
