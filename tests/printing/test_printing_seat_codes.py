"""Table cards of online tables: a QR code per seat, encoding that seat's link (the same module
matrix segno makes for the address), large enough to scan, labelled with the seat and who opens
it; bad links are refused with a message."""

from __future__ import annotations

import dataclasses
import io

import pypdf
import pytest
import segno
from printing_samples import one_twenty_sheet, red_five_sheet, render_png, tractor_sheet
from pypdf.generic import ContentStream

from app.printing import PrintError, RoundPack, ScoreSheet, SeatLink, print_pack, table_cards

Box = tuple[float, float, float]  # x, y of the lower-left corner, side


def _with_links(sheet: ScoreSheet) -> ScoreSheet:
    links = tuple(
        SeatLink(f"https://club.example.org/clubs/riverside/my-table/{40 + i}", "李伟")
        if i == 0
        else SeatLink(f"https://club.example.org/play/{'Zq9' * 8}{i}")
        for i in range(len(sheet.seats))
    )
    return dataclasses.replace(sheet, links=links)


def _matrix_of(url: str) -> set[tuple[int, int]]:
    code = segno.make(url, error="m")
    return {(r + 4, c + 4) for r, row in enumerate(code.matrix) for c, v in enumerate(row) if v}


def _codes(reader: pypdf.PdfReader, page_no: int) -> list[tuple[set[tuple[int, int]], Box]]:
    """The QR forms drawn on a page: their dark modules and where they are placed."""
    page = reader.pages[page_no]
    xobjects = page["/Resources"].get("/XObject") or {}
    modules = {}
    for name in xobjects:
        form = xobjects[name].get_object()
        size = int(form["/BBox"][3])
        fill: tuple[float, ...] = ()
        dark: set[tuple[int, int]] = set()
        for operands, op in ContentStream(form, reader).operations:
            if op == b"rg":
                fill = tuple(float(v) for v in operands)
            elif op == b"re" and fill == (0.0, 0.0, 0.0):
                x, y, w, h = (int(v) for v in operands)
                dark |= {(size - 1 - y, x + k) for k in range(w)}
        modules[name] = (dark, size)
    placed = []
    ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    stack = []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(list(ctm))
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            ctm = [
                a * ctm[0] + b * ctm[2],
                a * ctm[1] + b * ctm[3],
                c * ctm[0] + d * ctm[2],
                c * ctm[1] + d * ctm[3],
                e * ctm[0] + f * ctm[2] + ctm[4],
                e * ctm[1] + f * ctm[3] + ctm[5],
            ]
        elif op == b"Do" and operands[0] in modules:
            dark, size = modules[operands[0]]
            placed.append((dark, (ctm[4], ctm[5], ctm[0] * size)))
    return placed


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[2] and b[1] < a[1] + a[2]


@pytest.mark.parametrize("sheet", [tractor_sheet(), red_five_sheet(), one_twenty_sheet()])
@pytest.mark.parametrize("per_page", [1, 2])
def test_each_seat_has_its_code_on_the_card(sheet: ScoreSheet, per_page: int) -> None:
    online = _with_links(sheet)
    paper = dataclasses.replace(sheet, table=sheet.table + 1)
    reader = pypdf.PdfReader(io.BytesIO(table_cards([online, paper], per_page=per_page)))
    placed = _codes(reader, 0)
    if per_page == 1:
        assert _codes(reader, 1) == []  # the paper table's card has none
    assert len(placed) == len(sheet.seats)
    assert sorted(sorted(d) for d, _ in placed) == sorted(
        sorted(_matrix_of(link.url)) for link in online.links
    )
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    boxes = [box for _d, box in placed]
    for i, (x, y, side) in enumerate(boxes):
        modules = len(segno.make(online.links[0].url, error="m").matrix) + 8
        assert side / modules >= (2.0 if per_page == 1 else 1.4), side  # ~0.7 / 0.5 mm modules
        assert x > 0 and x + side < width and y > 0 and y + side < height
        assert not any(_overlap(boxes[i], other) for other in boxes[i + 1 :])
    text = reader.pages[0].extract_text()
    for n in range(1, len(sheet.seats) + 1):
        assert f"座{n} Seat {n}" in text
    assert "登录 log in: 李伟" in text and "扫码入座 scan to play" in text


def test_the_print_pack_carries_the_codes() -> None:
    sheets = (_with_links(tractor_sheet(1)), tractor_sheet(2))
    pack = RoundPack("秋季杯", "Riverside", 2, "tractor-4p", sheets)
    reader = pypdf.PdfReader(io.BytesIO(print_pack(pack)))
    counts = [len(_codes(reader, i)) for i in range(len(reader.pages))]
    assert sum(counts) == 4 and counts.count(4) == 1


@pytest.mark.parametrize(
    ("links", "message"),
    [
        ((SeatLink("https://x.example/play/a"),), "give a seat link for each of the 4 seats"),
        (tuple(SeatLink("javascript:alert(1)") for _ in range(4)), "must be a web address"),
        (("https://x.example/play/a",) * 4, "must be a SeatLink"),
    ],
)
def test_bad_links_are_refused(links: tuple, message: str) -> None:
    with pytest.raises(PrintError, match=message):
        table_cards([dataclasses.replace(tractor_sheet(), links=links)])


def test_review_pngs() -> None:
    for name, sheet in (
        ("card_online_tractor", tractor_sheet()),
        ("card_online_red_five", red_five_sheet()),
        ("card_online_one_twenty", one_twenty_sheet()),
    ):
        png = render_png(table_cards([_with_links(sheet)]), name)
        assert png.read_bytes().startswith(b"\x89PNG")
