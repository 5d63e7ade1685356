"""PDF downloads take a paper size (A4 by default, or Letter); any other size is refused with a
message naming the choices instead of silently printing A4."""

from __future__ import annotations

import io

import pypdf
import pytest
from tournament_helpers import create, login, seat, world


def _urls(base: str) -> list[str]:
    return [
        f"{base}/standings.pdf",
        f"{base}/rounds/1/pack.pdf",
        f"{base}/rounds/1/pairings.pdf",
        f"{base}/rounds/1/cards.pdf",
        f"{base}/rounds/1/sheets.pdf",
        f"{base}/rounds/1/tables/1/sheet.pdf",
    ]


def _setup(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    for a, b in (("Li", "Zhang"), ("Wang", "Zhao"), ("Chen", "Liu"), ("Sun", "Zhou")):
        client.post(f"{base}/entrants", data={"player_0": a, "player_1": b})
    seat(client, w.club, t)
    return base


@pytest.mark.parametrize("size, width", [("", 595), ("A4", 595), ("Letter", 612), ("letter", 612)])
def test_paper_sizes(client, size, width):
    base = _setup(client)
    for url in _urls(base):
        r = client.get(f"{url}?size={size}" if size else url)
        assert r.status_code == 200 and r.mimetype == "application/pdf", url

        page = pypdf.PdfReader(io.BytesIO(r.data)).pages[0]
        assert round(float(page.mediabox.width)) == width, url


def test_unknown_paper_size_is_refused_with_the_choices(client):
    base = _setup(client)
    for url in _urls(base):
        r = client.get(f"{url}?size=A3")
        assert r.status_code == 400, url
        assert "Paper size A3 is not available: choose A4 or Letter." in r.get_data(as_text=True)
    client.post("/lang", data={"lang": "zh"})
    r = client.get(f"{base}/standings.pdf?size=A3")
    assert r.status_code == 400 and "没有 A3 纸张尺寸：请选择 A4 或 Letter。" in r.get_data(
        as_text=True
    )
