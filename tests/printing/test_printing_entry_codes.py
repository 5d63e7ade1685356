"""A paper table's card carries one QR code, of that table's score-entry page (``/table/<code>``):
the module matrix segno makes for the address, large enough to scan, labelled in both languages;
the round's cards printed by the app encode each table's own page; bad addresses are refused."""

from __future__ import annotations

import dataclasses
import io

import pypdf
import pytest
import segno
from printing_samples import one_twenty_sheet, red_five_sheet, render_png, tractor_sheet
from test_printing_seat_codes import _codes, _matrix_of

from app.printing import PrintError, ScoreSheet, table_cards

URL = "https://club.example.org/table/K7QW2M9XPA"


@pytest.mark.parametrize("sheet", [tractor_sheet(), red_five_sheet(), one_twenty_sheet()])
@pytest.mark.parametrize("per_page", [1, 2])
def test_a_paper_card_has_the_code_of_its_entry_page(sheet: ScoreSheet, per_page: int) -> None:
    card = dataclasses.replace(sheet, entry_url=URL)
    data = table_cards([card, dataclasses.replace(card, table=card.table + 1)], per_page=per_page)
    reader = pypdf.PdfReader(io.BytesIO(data))
    placed = _codes(reader, 0)
    assert len(placed) == (1 if per_page == 1 else 2)
    assert all(dark == _matrix_of(URL) for dark, _box in placed)
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    modules = len(segno.make(URL, error="m").matrix) + 8
    for _dark, (x, y, side) in placed:
        assert side / modules >= (2.0 if per_page == 1 else 1.4), side
        assert x > 0 and x + side < width and y > 0 and y + side < height
    text = reader.pages[0].extract_text()
    assert "扫码记分 Scan to enter this table's scores" in text and URL in text
    if per_page == 1 and sheet.variant == "tractor-4p":
        render_png(data, "table-card-entry-code")


def test_no_address_no_code_and_a_bad_one_is_refused() -> None:
    reader = pypdf.PdfReader(io.BytesIO(table_cards([tractor_sheet()])))
    assert _codes(reader, 0) == []
    with pytest.raises(PrintError, match="score-entry page must be a web address"):
        table_cards([dataclasses.replace(tractor_sheet(), entry_url="javascript:alert(1)")])


def test_the_round_cards_the_app_prints_point_to_each_tables_page(client) -> None:
    from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    r = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}/cards.pdf")
    assert r.status_code == 200
    reader = pypdf.PdfReader(io.BytesIO(r.data))
    tables = sorted((tab for tab in rnd.tables if tab.kind != "bye"), key=lambda x: x.number)
    assert len(reader.pages) == len(tables) == 2
    for page, tab in enumerate(tables):
        url = f"http://localhost/table/{tab.code}"
        assert [dark for dark, _box in _codes(reader, page)] == [_matrix_of(url)]
        assert client.get(url.removeprefix("http://localhost")).status_code == 200
