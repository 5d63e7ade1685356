"""The standings page draws the places round by round once two rounds are played, and the
projector page carries a QR code of the standings page's address."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from app.qr import svg as qr_svg
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    login,
    play_round_out,
    seat,
    world,
)


def test_chart_after_two_rounds_and_qr_on_the_projector(app, client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, rounds=2)
    add_entrants(client, w.club, t, 4, 2)
    play_round_out(t, seat(client, w.club, t), w.director, seed=1)
    page = client.get(f"/standings/{t.id}").get_data(as_text=True)
    assert 'class="chart"' not in page  # one round: nothing to draw yet
    play_round_out(t, seat(client, w.club, t), w.director, seed=2)
    page = client.get(f"/standings/{t.id}").get_data(as_text=True)
    svg = page[page.index('<svg xmlns="http://www.w3.org/2000/svg"') :]
    svg = svg[: svg.index("</svg>") + 6]
    series = [e for e in ET.fromstring(svg).iter() if e.get("class") == "series"]
    assert len(series) == 4 and all(e.get("data-points") == "2" for e in series)
    proj = client.get(f"/standings/{t.id}?projector=1").get_data(as_text=True)
    path = re.search(
        r'<svg class="qr follow-qr".*?class="qr-dark" fill="#000" d="([^"]+)"', proj, re.S
    )
    assert path is not None
    assert path.group(1) == qr_svg(f"http://localhost/standings/{t.id}").path
    assert path.group(1) != qr_svg(f"http://localhost/standings/{t.id + 1}").path
