"""Sample tables for the printing tests: Chinese names, markup typed into names, recorded deals.

A plain module (unique name, imported by the tests from their folder), not a conftest."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from app.printing import (
    ClimbingDeal,
    FixedDeal,
    HundredDeal,
    RedFiveDeal,
    RoundPack,
    ScoreSheet,
)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "pdf"

EVIL = '<font name="x">Bob</font>'
AMP = "<b>&amp;"


def tractor_sheet(table: int = 3, deals: int = 8, recorded: bool = True) -> ScoreSheet:
    rows = (
        (
            FixedDeal(
                0, "S", 85, 10, 4, (0, 0), level="2", total=125, winner=1, gain=1, levels=("2", "3")
            ),
            FixedDeal(
                1, None, 35, 0, 0, (1, 0), level="3", total=45, winner=1, gain=1, levels=("2", "4")
            ),
            FixedDeal(
                1, "H", 0, 20, 0, (0, 0), level="4", total=0, winner=1, gain=3, levels=("2", "7")
            ),
        )
        if recorded
        else ()
    )
    return ScoreSheet(
        tournament="秋季杯 Autumn Cup 2026",
        club="河畔棋牌俱乐部 Riverside Card Club",
        round=2,
        table=table,
        variant="tractor-4p",
        seats=("李伟", EVIL, "张敏", "Wang Fang"),
        sides=("李 & 张 Li & Zhang", AMP + " Wang"),
        options={"throw_penalty": "ten_per_attempt"},
        match={"deals": deals},
        deals=rows,
        date="2026-11-29",
        entry_code="K7Q2-9F",
    )


def red_five_sheet(table: int = 1) -> ScoreSheet:
    return ScoreSheet(
        tournament="红五公开赛",
        club="Riverside",
        round=1,
        table=table,
        variant="red-five-5p",
        seats=("陈杰", "刘洋", "赵磊", "Anna Schmidt", "周丽"),
        match={"deals": 6},
        deals=(
            RedFiveDeal(
                0,
                2,
                "H",
                70,
                15,
                2,
                (3,),
                called_card="AS",
                total=100,
                dealer_side_won=True,
                units=1,
                scores=(3, 0, 2, -5, 0),
            ),
            RedFiveDeal(
                2,
                None,
                "C",
                245,
                0,
                0,
                (),
                called_card="HJ",
                total=245,
                dealer_side_won=False,
                units=3,
                scores=(3, 3, -12, 3, 3),
            ),
        ),
    )


def one_twenty_sheet() -> ScoreSheet:
    return ScoreSheet(
        tournament="120分邀请赛",
        club="Riverside",
        round=4,
        table=12,
        variant="one-twenty-6p",
        seats=("甲一", "乙一", "甲二", "乙二", "甲三", "乙三"),
        sides=("东队 East", "西队 West"),
        match={"minutes": 90},
        deals=(
            FixedDeal(
                0,
                "D",
                125,
                5,
                2,
                misplays=(1,),
                level="2",
                total=135,
                winner=1,
                gain=0,
                levels=("3", "2"),
            ),
        ),
    )


def climbing_sheet(table: int = 2, players: int = 4) -> ScoreSheet:
    """A 争上游 table of ``players`` (4: three deals recorded, a tribute and a take-back)."""
    names = ("王芳", "Li Lei", EVIL, "欧阳娜娜", "Bob", "陈静")[:players]
    deals = (
        (
            ClimbingDeal((2, 1, 4, 3), None, (2, 3, 0, 1)),
            ClimbingDeal((1, 3, 2, 4), (2, 1, "HJ"), (3, 1, 2, 0)),
            ClimbingDeal((3, 2, 1, 4), None, (1, 1, 3, 0), penalties=(("takeback", 1),)),
        )
        if players == 4
        else ()
    )
    return ScoreSheet(
        tournament="争上游之夜 Climbing night",
        club="Riverside",
        round=1,
        table=table,
        variant="climbing",
        seats=names,
        options={"players": players},
        match={"deals": 10},
        deals=deals,
        date="2026-12-07",
        entry_code="C2M-4QX",
    )


def hundred_sheet(
    table: int = 1, variant: str = "hundred-4p", friend: str = "hidden"
) -> ScoreSheet:
    """A 打百分 table: hundred-4p with a friend (two deals recorded: a win on points and a
    revoke), its fixed pairs, 40分下台 (a turned card, 抠底) or 3人百分."""
    pairs = variant == "forty-4p" or friend == "fixed"
    names = ("王芳", "Li Lei", EVIL, "欧阳娜娜")[: 3 if variant == "hundred-3p" else 4]
    options: dict[str, object] = {}
    if variant == "hundred-4p":
        options = {"friend": friend}
    if variant == "forty-4p":
        deals: tuple[HundredDeal, ...] = (
            HundredDeal(
                0, "H", 45, turned="7H", winner="attackers", units=1, scores=(-1, 1, -1, 1)
            ),
            HundredDeal(
                1,
                "S",
                10,
                turned="QS",
                kou_di=True,
                kitty=15,
                winner="attackers",
                units=1,
                scores=(1, -1, 1, -1),
            ),
        )
    elif variant == "hundred-3p":
        deals = (HundredDeal(2, "D", 30, bid=75, winner="attackers", units=4, scores=(4, 4, -8)),)
    elif pairs:
        deals = (
            HundredDeal(0, "C", 20, bid=70, winner="declarer", units=3, scores=(3, -3, 3, -3)),
        )
    else:
        deals = (
            HundredDeal(
                0,
                "H",
                25,
                bid=80,
                friend_card="AS",
                friend=2,
                winner="attackers",
                units=5,
                scores=(-5, 5, -5, 5),
            ),
            HundredDeal(
                1,
                "S",
                None,
                bid=90,
                friend_card="HJ",
                friend=None,
                winner="attackers",
                units=7,
                scores=(7, -21, 7, 7),
                penalties=(("revoke", "declarer"),),
            ),
        )
    return ScoreSheet(
        tournament="打百分之夜 Hundred night",
        club="Riverside",
        round=1,
        table=table,
        variant=variant,
        seats=names,
        sides=("王芳 & " + EVIL, "Li Lei & 欧阳娜娜") if pairs else (),
        options=options,
        match={"deals": 8},
        deals=deals,
        date="2026-12-07",
        entry_code="H7K-2QX",
    )


def tractor_round(tables: int = 6, deals: int = 8) -> RoundPack:
    return RoundPack(
        tournament="秋季杯 Autumn Cup 2026",
        club="河畔棋牌俱乐部 Riverside Card Club",
        round=2,
        variant="tractor-4p",
        sheets=tuple(tractor_sheet(t, deals) for t in range(tables, 0, -1)),
        byes=("轮空队 Bye team",),
        date="2026-11-29",
    )


def render_png(pdf: bytes, name: str, page: int = 1) -> Path:
    """Render one page to test-artifacts/pdf/NAME.png (review artefact) and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    src = ARTIFACTS / f"{name}.pdf"
    src.write_bytes(pdf)
    out = ARTIFACTS / name
    if shutil.which("pdftoppm"):
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "80",
                "-f",
                str(page),
                "-l",
                str(page),
                "-singlefile",
                str(src),
                str(out),
            ],
            check=True,
        )
    else:  # pragma: no cover - machines without poppler
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(pdf)
        doc[page - 1].render(scale=80 / 72).to_pil().save(f"{out}.png")
    return Path(f"{out}.png")
