"""Duplicate hand records and travellers, read back from the PDF text."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from printing_samples import EVIL

from app.competition.boards import event_boards, paper_deal, par
from app.printing import (
    BoardResult,
    HandRecord,
    HandRecords,
    PrintError,
    TravellerRow,
    Travellers,
    hand_records,
    travellers,
)

SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def record(board, with_par: bool = False, results=()):  # type: ignore[no-untyped-def]
    pd = paper_deal(board)
    pr = par(board) if with_par else None
    return HandRecord(
        board.number,
        pd.hands,
        pd.kitty,
        pd.first_drawer,
        cut_card=pd.cut_card,
        draws=tuple(c for _, c in pd.draws),
        par=None if pr is None else pr.value0,
        par_scores=None if pr is None else pr.seat_scores,
        par_plays=0 if pr is None else pr.plays,
        results=tuple(results),
    )


def suit_line(hand: tuple[str, ...], suit: str) -> str:
    ranks = [c[:-1] for c in hand if c.endswith(suit) and c not in ("HJ", "LJ")]
    return " ".join(ranks) if ranks else "—"


@pytest.mark.parametrize("variant", ["tractor-4p", "one-twenty-6p", "red-five-5p"])
def test_a_page_per_board_with_each_seats_cards_by_suit(variant: str) -> None:
    boards = event_boards(variant, {}, 21, 3)
    doc = HandRecords("秋季复式 Autumn Duplicate", variant, tuple(record(b) for b in boards))
    text = pages(hand_records(doc))
    assert len(text) == 3
    for board, page in zip(boards, text, strict=True):
        pd = paper_deal(board)
        assert f"第 {board.number} 副  Board {board.number}" in page
        assert f"先摸 first to draw: 座{pd.first_drawer + 1}" in page
        lines = page.splitlines()
        for seat, hand in enumerate(pd.hands):
            at = lines.index(next(ln for ln in lines if ln.startswith(f"座{seat + 1} Seat")))
            assert lines[at + 1] == f"{len(hand)} 张 cards"
            for i, s in enumerate("SHDC"):
                assert lines[at + 2 + 2 * i] == SIGNS[s]
                assert lines[at + 3 + 2 * i] == suit_line(hand, s), (seat, s)
            jokers = [{"HJ": "大", "LJ": "小"}[c] for c in hand if c in ("HJ", "LJ")]
            assert lines[at + 11] == (" ".join(jokers) or "—")
        kitty = next(ln for ln in lines if ln.startswith("底牌 Kitty"))
        assert kitty.startswith(f"底牌 Kitty ({len(pd.kitty)}): ")
        assert "摸牌顺序" not in page and "Par" not in page and "桌 Table" not in page
        if variant == "one-twenty-6p":
            assert "翻牌 cut card" in page


def test_draw_order_for_clubs_that_want_it_and_half_pages() -> None:
    boards = event_boards("tractor-4p", {}, 4, 3)
    doc = HandRecords("E", "tractor-4p", tuple(record(b) for b in boards), show_draws=True)
    text = pages(hand_records(doc))
    pd = paper_deal(boards[0])
    assert "摸牌顺序 Draw order" in text[0]
    first = " ".join(c for _, c in pd.draws[:4])
    for card, sign in SIGNS.items():
        first = re.sub(rf"(\w+){card}\b", rf"\g<1>{sign}", first)
    first = first.replace("HJ", "大王 HJ").replace("LJ", "小王 LJ")
    assert f"1: {first}" in text[0]
    half = pages(hand_records(HandRecords("E", "tractor-4p", doc.records, per_page=2)))
    assert len(half) == 2
    assert "Board 1" in half[0] and "Board 2" in half[0] and "Board 3" in half[1]
    assert "第 2 / 2 页" in half[1]


def test_after_the_session_results_and_par() -> None:
    board = event_boards("tractor-4p", {}, 8, 1)[0]
    pr = par(board)
    res = [
        BoardResult(
            2, ("李伟 / 张敏", EVIL), declarer=1, total=95, value0=15, note="MP 4 · 100.00%"
        ),
        BoardResult(1, ("Anna / Ben", "陈静 / 王芳"), declarer=0, total=40, value0=40, note="MP 0"),
    ]
    text = pages(hand_records(HandRecords("E", "tractor-4p", (record(board, True, res),))))[0]
    assert f"电脑标准 Par ({pr.plays} 次 plays): 甲方 side A {pr.value0:+.1f}" in text
    lines = text.splitlines()
    one = lines.index("Anna / Ben")
    assert lines[one - 1 : one + 6] == [
        "1",
        "Anna / Ben",
        "陈静 / 王芳",
        "甲A",
        "40",
        "+40",
        "MP 0",
    ]
    two = lines.index("李伟 / 张敏")
    assert lines[two - 1 : two + 6] == [
        "2",
        "李伟 / 张敏",
        EVIL,
        "乙B",
        "95",
        "+15",
        "MP 4 · 100.00%",
    ]
    assert one < two  # by table


def test_red_five_par_per_seat_and_results_per_seat() -> None:
    board = event_boards("red-five-5p", {}, 8, 1)[0]
    pr = par(board)
    assert pr.seat_scores is not None
    res = [BoardResult(1, ("A1", "A2", "A3", "A4", "A5"), scores=(2, -1, 1, -1, -1))]
    text = pages(hand_records(HandRecords("E", "red-five-5p", (record(board, True, res),))))[0]
    want = "  ".join(f"座{i + 1} {s:+.1f}" for i, s in enumerate(pr.seat_scores))
    assert want in text
    lines = text.splitlines()
    at = lines.index("A1")
    assert lines[at : at + 10] == ["A1", "+2", "A2", "-1", "A3", "+1", "A4", "-1", "A5", "-1"]
    assert "甲A" not in text


def test_travellers_a_slip_per_board_a_row_per_table() -> None:
    rows = (TravellerRow(3, 2, ("李伟/张敏", EVIL)), TravellerRow(1, 1, ("Anna/Ben", "陈/王")))
    doc = Travellers("秋季复式", "tractor-4p", ((2, rows), (1, rows), (3, rows)))
    text = pages(travellers(doc))
    assert len(text) == 2  # two slips to a page
    assert text[0].index("第 1 副  Board 1") < text[0].index("第 2 副  Board 2")
    assert "第 3 副  Board 3" in text[1]
    assert "闲家得分 Attackers' points" in text[0] and "庄家方 Declarer 甲/乙" in text[0]
    assert "复式牌不许暴动/拒打" in text[0]  # a board's cards are fixed (docs/DUPLICATE_ONLINE.md)
    lines = text[1].splitlines()
    a = lines.index("Anna/Ben")
    assert lines[a - 2 : a + 2] == ["1", "1", "Anna/Ben", "陈/王"]
    assert lines.index(EVIL) > a  # round 2 after round 1
    red = pages(
        travellers(
            Travellers(
                "R", "red-five-5p", ((1, (TravellerRow(1, 1, ("P1", "P2", "P3", "P4", "P5")),)),)
            )
        )
    )[0]
    assert "座5 积分" in red and "第 1 桌: 座1 P1, 座2 P2, 座3 P3, 座4 P4, 座5 P5" in red


def test_bad_input_is_refused_with_a_sentence() -> None:
    board = event_boards("tractor-4p", {}, 8, 1)[0]
    rec = record(board)
    with pytest.raises(PrintError, match="no boards"):
        hand_records(HandRecords("E", "tractor-4p", ()))
    with pytest.raises(PrintError, match="given twice"):
        hand_records(HandRecords("E", "tractor-4p", (rec, rec)))
    with pytest.raises(PrintError, match="must give 4 hands"):
        hand_records(HandRecords("E", "tractor-4p", (HandRecord(1, rec.hands[:3], (), 0),)))
    with pytest.raises(PrintError, match="per_page"):
        hand_records(HandRecords("E", "tractor-4p", (rec,), per_page=3))
    with pytest.raises(PrintError, match="unknown variant"):
        hand_records(HandRecords("E", "bridge", (rec,)))
    with pytest.raises(PrintError, match="no tables"):
        travellers(Travellers("E", "tractor-4p", ((1, ()),)))
