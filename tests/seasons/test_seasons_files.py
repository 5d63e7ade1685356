"""A season's standings as PDF (with the chart), CSV and a phone-sized PNG for the group chat."""

from __future__ import annotations

import csv
import io

from pypdf import PdfReader

from tests.seasons.test_seasons_pages import _night, _season
from tests.tournaments.tournament_helpers import login, world


def _two_nights(client):
    w = world()
    login(client, w.owner)
    n1, n2 = _night(client, w, "Night One"), _night(client, w, "Night Two")
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    for t, day in ((n1, "2026-12-04"), (n2, "2026-12-11")):
        assert (
            client.post(
                base + "/nights", data={"tournament": t.id, "date": day, "division": 0}
            ).status_code
            == 303
        )
    return w, base


def test_pdf_csv_and_png(app, client, tmp_path):
    w, base = _two_nights(client)
    pdf = client.get(base + "/standings.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Season standings" in text and "Winter League" in text and "P00a" in text
    letter = client.get(base + "/standings.pdf?size=Letter")
    assert PdfReader(io.BytesIO(letter.data)).pages[0].mediabox.width == 612
    assert client.get(base + "/standings.pdf?size=A3").status_code == 400
    rows = list(
        csv.reader(
            io.StringIO(client.get(base + "/standings.csv").get_data(as_text=True).lstrip("\ufeff"))
        )
    )
    assert rows[0] == ["rank", "player", "nights", "score", "level_diff"]
    assert len(rows) == 1 + 8 and all(r[2] == "2" for r in rows[1:])
    png = client.get(base + "/standings.png")
    assert (
        png.status_code == 200 and png.mimetype == "image/png" and png.data.startswith(b"\x89PNG")
    )
    from PIL import Image

    img = Image.open(io.BytesIO(png.data))
    assert img.width == 1080 and img.height > img.width  # phone-sized, portrait
    (tmp_path / "season.png").write_bytes(png.data)
    assert client.get(base + "/standings.png?rule=median").status_code == 400
