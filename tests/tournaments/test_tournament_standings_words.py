"""The public standings and an entrant's history name the tie-break columns in the reader's
language: English readers (a projector at an international club) get words, with the Chinese
term beside them; the Chinese page uses the terms 场分, 级差, 对手分."""

from __future__ import annotations

import re
from html import unescape

from tournament_helpers import create, login, seat, world


def _headers(html: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", html, re.S)
    assert head, "no standings table"
    return [
        unescape(re.sub(r"<[^>]+>", "", th)).strip()
        for th in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), re.S)
    ]


def test_standings_columns_in_words(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    for a, b in (("Li", "Zhang"), ("Wang", "Zhao"), ("Chen", "Liu"), ("Sun", "Zhou")):
        client.post(f"{base}/entrants", data={"player_0": a, "player_1": b})
    seat(client, w.club, t)
    entrant = t.entrants[0]

    en = _headers(client.get(f"/standings/{t.id}").get_data(as_text=True))
    assert en[3:] == ["Match points (场分)", "Level diff. (级差)", "Opponents' points (对手分)"]
    history = client.get(f"/standings/{t.id}/entrants/{entrant.id}").get_data(as_text=True)
    assert "0 match points, level diff. (级差) +0, opponents' points (对手分) 0" in unescape(
        history
    )

    client.post("/lang", data={"lang": "zh"})
    zh = _headers(client.get(f"/standings/{t.id}").get_data(as_text=True))
    assert zh[3:] == ["场分", "级差", "对手分"]
    history = client.get(f"/standings/{t.id}/entrants/{entrant.id}").get_data(as_text=True)
    assert "场分 0，级差 +0，对手分 0" in history
