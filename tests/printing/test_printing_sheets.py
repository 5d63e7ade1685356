"""Score sheets (记分表): pre-filled headers, rows per match length, filled rows, escaping."""

from __future__ import annotations

import dataclasses
import io

import pypdf
import pytest
from printing_samples import AMP, EVIL, one_twenty_sheet, red_five_sheet, render_png, tractor_sheet

from app.printing import FixedDeal, PrintError, RedFiveDeal, ScoreSheet, score_sheet


def read(pdf: bytes) -> pypdf.PdfReader:
    assert pdf.startswith(b"%PDF-")
    return pypdf.PdfReader(io.BytesIO(pdf))


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in read(pdf).pages)


def test_blank_tractor_sheet_is_prefilled_and_escapes_markup() -> None:
    pdf = score_sheet(tractor_sheet(table=17), filled=False)
    reader = read(pdf)
    assert len(reader.pages) == 1
    text = text_of(pdf)
    for expected in (
        "记分表",
        "Score sheet",
        "秋季杯 Autumn Cup 2026",
        "河畔棋牌俱乐部 Riverside Card Club",
        "17",
        "第 17 桌",
        "升级（拖拉机） Tractor, 4 players",
        "8 局 deals",
        "李伟",
        "张敏",
        "Wang Fang",
        "李 & 张 Li & Zhang",
        EVIL,  # markup typed into a name is printed as typed
        AMP + " Wang",
        "起始级 Start level",
        "10 points per failure",  # the throw penalty option in plain words
        "Redeal if an attacker holds < 15 points",
        "K7Q2-9F",
        "甲方队长签名 Captain, side A",
        "裁判签名 Table director",
    ):
        assert expected in text, expected
    # blank: nothing recorded appears
    assert "125" not in text and "上台" not in text
    # one numbered row per deal of the match
    lines = text.splitlines()
    for n in range(1, 9):
        assert str(n) in lines
    assert "9" not in lines


def test_filled_tractor_sheet_prints_recorded_deals() -> None:
    text = text_of(score_sheet(tractor_sheet(), filled=True))
    for expected in ("85", "10 × 4", "125", "乙B 上台 +1", "无主 NT", "1  /  0", "乙B +3", "♠"):
        assert expected in text, expected
    lines = text.splitlines()
    # final levels from the last recorded deal: 甲A 2, 乙B 7
    assert "7" in lines


def test_sheet_rows_follow_match_length() -> None:
    assert len(read(score_sheet(tractor_sheet(deals=8))).pages) == 1
    long = read(score_sheet(tractor_sheet(deals=40)))
    assert len(long.pages) == 2
    text = "\n".join(p.extract_text() for p in long.pages)
    assert "40" in text.splitlines() and "41" not in text.splitlines()
    assert "记分表（续）" in long.pages[1].extract_text()
    assert "第 2 / 2 页" in long.pages[1].extract_text()
    # signatures only on the last page
    assert "签名" not in long.pages[0].extract_text()
    assert "签名" in long.pages[1].extract_text()
    # to A: a full first page and a continuation page
    to_a = read(score_sheet(dataclasses.replace(tractor_sheet(), match={"to_a": True})))
    assert len(to_a.pages) == 2
    assert "25" in to_a.pages[1].extract_text().splitlines()


def test_minutes_sheet_fills_whole_pages() -> None:
    def rows_of(reader: pypdf.PdfReader) -> int:
        text = reader.pages[-1].extract_text().splitlines()
        return max(int(x) for x in text if x.isdigit() and int(x) < 400)

    # 90 minutes: at least 18 rows, on one page with rows a little shorter
    short = read(score_sheet(one_twenty_sheet(), filled=True))
    assert len(short.pages) == 1
    assert rows_of(short) >= 18
    # 4 hours: at least 48 rows over filled pages
    long = read(score_sheet(dataclasses.replace(one_twenty_sheet(), match={"minutes": 240})))
    assert len(long.pages) == 2
    assert rows_of(long) >= 48
    cont = long.pages[1].extract_text().splitlines()
    assert "记分表（续）" in cont[0] and "签名" in long.pages[1].extract_text()


def test_final_levels_only_when_the_match_is_over() -> None:
    unfinished = text_of(score_sheet(one_twenty_sheet(), filled=True))
    assert "第 1 局后" in unfinished and "终局 Final" not in unfinished
    done = dataclasses.replace(one_twenty_sheet(), finished=True)
    assert "终局 Final" in text_of(score_sheet(done, filled=True))
    three = dataclasses.replace(tractor_sheet(), match={"deals": 3})
    assert "终局 Final" in text_of(score_sheet(three, filled=True))
    assert "第 3 局后" in text_of(score_sheet(tractor_sheet(), filled=True))


def test_one_twenty_sheet_has_misplays_and_three_a_side() -> None:
    pdf = score_sheet(one_twenty_sheet(), filled=True)
    text = text_of(pdf)
    for expected in (
        "吃苍蝇",
        "Misplays",
        "120分 One-twenty, 6 players",
        "90 分钟 minutes",
        "座 1 · 3 · 5",
        "甲一",
        "乙三",
        "东队 East",
        "135",
        "乙B 上台",
        "5 × 2",
        "always × 2",
    ):
        assert expected in text, expected
    assert "甩牌失败" not in text


def test_red_five_sheet_columns_and_scores() -> None:
    pdf = score_sheet(red_five_sheet(), filled=True)
    reader = read(pdf)
    assert len(reader.pages) == 1
    text = text_of(pdf)
    for expected in (
        "红五 Red five, 5 players",
        "庄家",
        "叫牌",
        "伴",
        "级数",
        "积分合计 Score total",
        "A♠",
        "大王 HJ",
        "独 alone",
        "15 × 2",
        "245",
        "闲 3",
        "-12",
        "Anna Schmidt",
        "座5 签名",
        "积分表：每 60 分一个单位 Score table: units of 60 points",
    ):
        assert expected in text, expected
    assert "甲方" not in text  # no fixed sides in red five
    # the total row sums each seat's changes: +6 +3 -10 -2 +3
    assert "+6\n+3\n-10\n-2\n+3\n积分合计 Score total" in text


def test_an_option_without_printed_words_is_still_printed() -> None:
    """A rule option added to the engine later is never left off the sheet's rules line."""
    from app.printing.words import _option_words

    words = _option_words("tractor-4p", {"decks": 2, "new_rule": "strict"})
    assert words == ["2 副牌 2 decks", "new_rule: strict"]


def test_four_decks_has_no_kitty_column() -> None:
    sheet = dataclasses.replace(tractor_sheet(), options={"decks": 4})
    text = text_of(score_sheet(sheet))
    assert "底分×倍" not in text
    assert "4 副牌 4 decks" in text and "spades are trump" in text  # 4-deck no_call_trump default
    assert "Kitty multiplier" not in text


def test_page_sizes() -> None:
    a4 = read(score_sheet(tractor_sheet(), page_size="A4")).pages[0].mediabox
    letter = read(score_sheet(tractor_sheet(), page_size="letter")).pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)
    with pytest.raises(PrintError, match="A4"):
        score_sheet(tractor_sheet(), page_size="A5")


def test_cjk_font_is_embedded() -> None:
    page = read(score_sheet(tractor_sheet())).pages[0]
    fonts = [f.get_object() for f in page["/Resources"]["/Font"].values()]
    assert fonts and all("WenQuanYi" in str(f["/BaseFont"]) for f in fonts)
    for f in fonts:
        assert "/FontFile2" in f["/FontDescriptor"].get_object()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"variant": "bridge"}, "unknown variant"),
        ({"seats": ("a", "b", "c")}, "needs 4 seat names"),
        ({"sides": ("only one",)}, "two sides"),
        ({"options": {"throw_penalty": "twenty"}}, "throw_penalty"),
        ({"match": {"deals": 0}}, "at least 1|≥ 1"),
        ({"match": {"hours": 2}}, "match must be one of"),
        ({"table": 0}, "table must be at least 1"),
        ({"start_levels": ("2", "1")}, "level 2 … A"),
        ({"deals": (FixedDeal(2, "S", 10),)}, "declarer side must be at most 1"),
        ({"deals": (FixedDeal(0, "X", 10),)}, "trump must be one of"),
        ({"deals": (RedFiveDeal(0, 1, "S", 10),)}, "takes FixedDeal rows"),
        ({"seats": ("a", 7, "c", "d")}, "seat 2 must be text"),
    ],
)
def test_bad_input_is_named(change: dict[str, object], message: str) -> None:
    sheet = dataclasses.replace(tractor_sheet(), **change)  # type: ignore[arg-type]
    with pytest.raises(PrintError, match=message):
        score_sheet(sheet, filled=True)


def test_red_five_rejects_sides_and_bad_seats() -> None:
    with pytest.raises(PrintError, match="no fixed sides"):
        score_sheet(dataclasses.replace(red_five_sheet(), sides=("a", "b")))
    bad = RedFiveDeal(5, None, "S", 0)
    with pytest.raises(PrintError, match="dealer must be at most 4"):
        score_sheet(dataclasses.replace(red_five_sheet(), deals=(bad,)), filled=True)
    with pytest.raises(PrintError, match="red five"):
        score_sheet(
            dataclasses.replace(red_five_sheet(), deals=(FixedDeal(0, "S", 0),)), filled=True
        )


def test_control_characters_and_long_names_still_print() -> None:
    long = "欧阳" * 30
    sheet = ScoreSheet(
        tournament="T\nwith newline",
        club="C",
        round=1,
        table=1,
        variant="tractor-4p",
        seats=(long, "b", "c", "d"),
        sides=("x" * 200, "y"),
    )
    text = text_of(score_sheet(sheet))
    assert "T with newline" in text
    assert "欧阳欧阳" in text  # wrapped or cut, never lost entirely


def test_review_pngs() -> None:
    for name, pdf in (
        ("sheet_tractor_filled", score_sheet(tractor_sheet(), filled=True)),
        ("sheet_tractor_blank_letter", score_sheet(tractor_sheet(), page_size="Letter")),
        ("sheet_red_five_filled", score_sheet(red_five_sheet(), filled=True)),
        ("sheet_one_twenty_filled", score_sheet(one_twenty_sheet(), filled=True)),
        (
            "sheet_one_twenty_p2",
            score_sheet(dataclasses.replace(one_twenty_sheet(), match={"minutes": 240})),
        ),
    ):
        png = render_png(pdf, name, page=2 if name.endswith("p2") else 1)
        data = png.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, name
