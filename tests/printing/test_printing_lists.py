"""Table cards, pairings, standings and the round's print pack."""

from __future__ import annotations

import dataclasses
import importlib.util
import io
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from printing_samples import AMP, EVIL, red_five_sheet, render_png, tractor_round, tractor_sheet

from app.printing import (
    PrintError,
    RoundPack,
    Standings,
    pairings,
    print_pack,
    standings,
    table_cards,
)


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def test_table_cards_one_and_two_per_page() -> None:
    cards = [tractor_sheet(t).card() for t in (5, 2, 9)]
    one = pages(table_cards(cards))
    assert len(one) == 3
    # ordered by table number, the number printed large and the seats named
    assert [re.search(r"第 (\d+) 桌", p).group(1) for p in one] == ["2", "5", "9"]  # type: ignore[union-attr]
    for text in one:
        for name in ("李伟", "张敏", "Wang Fang", EVIL, AMP + " Wang", "第 2 轮", "Round 2"):
            assert name in text, name
    two = pages(table_cards(cards, per_page=2))
    assert len(two) == 2
    assert "第 2 桌" in two[0] and "第 5 桌" in two[0] and "第 9 桌" in two[1]
    red = pages(table_cards([red_five_sheet().card()], page_size="Letter"))
    assert len(red) == 1 and "Anna Schmidt" in red[0] and "甲方" not in red[0]
    with pytest.raises(PrintError, match="per_page"):
        table_cards(cards, per_page=3)
    with pytest.raises(PrintError, match="no table cards"):
        table_cards([])


def test_pairings_list_all_tables_and_byes() -> None:
    rnd = tractor_round(tables=40)
    texts = pages(pairings(rnd))
    assert len(texts) >= 2  # 40 two-line rows do not fit one page
    joined = "\n".join(texts)
    assert "第 2 轮对阵" in texts[0] and "第 2 轮对阵" in texts[-1]  # heads repeat
    lines = joined.splitlines()
    for t in range(1, 41):
        assert str(t) in lines
    assert joined.count("李 & 张 Li & Zhang") == 40
    assert joined.count(AMP + " Wang") == 40
    assert EVIL + " · Wang Fang" in joined
    assert "轮空 Bye: 轮空队 Bye team" in texts[-1]
    assert f"第 1 / {len(texts)} 页" in texts[0]


def test_red_five_pairings_by_seat() -> None:
    rnd = RoundPack(
        "红五公开赛", "Riverside", 1, "red-five-5p", (red_five_sheet(2), red_five_sheet(1))
    )
    text = pages(pairings(rnd, page_size="Letter"))[0]
    assert "座5" in text and "周丽" in text and "Anna Schmidt" in text
    assert text.index("陈杰") < text.index("周丽")


def fixed_rows() -> tuple[dict[str, object], ...]:
    return (
        {
            "rank": 1,
            "entrant": "李 & 张",
            "played": 3,
            "match_points": 6,
            "level_diff": 9,
            "opponents_points": 7,
        },
        {
            "rank": 2,
            "entrant": EVIL,
            "played": 3,
            "match_points": 4,
            "level_diff": -3,
            "opponents_points": 8,
            "note": "进行中 in progress",
        },
        {
            "rank": 3,
            "entrant": AMP,
            "played": 3,
            "match_points": 0,
            "level_diff": -6,
            "opponents_points": 10,
        },
    )


def test_fixed_standings_with_tie_break_columns() -> None:
    doc = Standings("秋季杯", "Riverside", "tractor-4p", fixed_rows(), after_round=3)
    texts = pages(standings(doc))
    assert len(texts) == 1
    text = texts[0]
    for expected in (
        "排名",
        "Standings",
        "名次",
        "场分",
        "级差",
        "对手分",
        "第 3 轮后 after round 3",
        "李 & 张",
        EVIL,
        AMP,
        "+9",
        "-3",
        "-6",
        "进行中 in progress",
    ):
        assert expected in text, expected
    assert text.index("李 & 张") < text.index(EVIL) < text.index(AMP)


def test_red_five_standings_and_columns() -> None:
    rows = tuple(
        {
            "rank": i + 1,
            "entrant": f"选手{i + 1}",
            "deals": 12,
            "score": 30 - 3 * i,
            "dealer_wins": 5 - i % 5,
        }
        for i in range(120)
    )
    doc = Standings("红五公开赛", "Riverside", "red-five-5p", rows)
    texts = pages(standings(doc, page_size="Letter"))
    assert len(texts) >= 3
    joined = "\n".join(texts)
    for i in range(120):
        assert f"选手{i + 1}" in joined
    assert "积分" in texts[-1] and "庄胜" in texts[-1]  # column heads repeat on each page
    assert "+30" in joined and "-327" in joined
    narrow = Standings("T", "C", "red-five-5p", rows[:2], columns=("rank", "entrant", "score"))
    assert "庄胜" not in pages(standings(narrow))[0]
    with pytest.raises(PrintError, match="unknown standings column"):
        standings(dataclasses.replace(doc, columns=("rank", "entrant", "match_points")))
    with pytest.raises(PrintError, match="has no 'dealer_wins'"):
        standings(
            dataclasses.replace(doc, rows=({"rank": 1, "entrant": "x", "deals": 1, "score": 1},))
        )
    with pytest.raises(PrintError, match="must be a number"):
        standings(Standings("T", "C", "tractor-4p", ({**fixed_rows()[0], "played": "3"},)))


def test_print_pack_orders_by_table() -> None:
    rnd = tractor_round(tables=6)  # sheets given in reverse table order
    texts = pages(print_pack(rnd))
    assert len(texts) == 1 + 6 * 2  # pairings, then card + sheet per table
    assert "第 2 轮对阵" in texts[0]
    for t in range(1, 7):
        card, sheet = texts[2 * t - 1], texts[2 * t]
        assert f"第 {t} 桌" in card and "桌号 Table" in card and "记分表" not in card
        assert "记分表" in sheet and f"第 {t} 桌 Table {t}" in sheet
    filled = pages(print_pack(rnd, filled=True, with_pairings=False, page_size="Letter"))
    assert len(filled) == 12
    assert "乙B 上台 +1" in filled[1] and "乙B 上台 +1" not in texts[2]
    sheets_only = pages(print_pack(rnd, with_pairings=False, with_cards=False))
    assert len(sheets_only) == 6 and all("记分表" in p for p in sheets_only)


def test_print_pack_rejects_mixed_rounds() -> None:
    rnd = tractor_round(tables=2)
    other = dataclasses.replace(tractor_sheet(9), round=3)
    with pytest.raises(PrintError, match="differ from the round"):
        print_pack(dataclasses.replace(rnd, sheets=(*rnd.sheets, other)))
    with pytest.raises(PrintError, match="appears twice"):
        print_pack(dataclasses.replace(rnd, sheets=(tractor_sheet(1), tractor_sheet(1))))
    with pytest.raises(PrintError, match="no tables"):
        print_pack(dataclasses.replace(rnd, sheets=()))


def test_printing_package_does_not_load_flask() -> None:
    folder = Path(__file__).resolve().parents[2] / "app" / "printing"
    path = folder / "__init__.py"
    assert importlib.util.find_spec("flask") is not None
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('printing_alone', {str(path)!r}, "
        f"submodule_search_locations=[{str(folder)!r}])\n"
        "mod = importlib.util.module_from_spec(spec)\n"
        "sys.modules['printing_alone'] = mod\n"
        "spec.loader.exec_module(mod)\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlalchemy', 'app')]\n"
        "assert not loaded, loaded\n"
        "assert mod.score_sheet\n"
    )
    root = folder.parents[1]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)


def test_review_pngs() -> None:
    rnd = tractor_round(tables=3)
    for name, pdf in (
        ("table_card", table_cards([tractor_sheet().card()])),
        ("table_cards_half_red_five", table_cards([red_five_sheet().card()] * 2, per_page=2)),
        ("pairings", pairings(rnd)),
        ("standings", standings(Standings("秋季杯", "Riverside", "tractor-4p", fixed_rows()))),
        ("pack_page2", print_pack(rnd)),
    ):
        png = render_png(pdf, name, page=2 if name == "pack_page2" else 1)
        data = png.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, name
