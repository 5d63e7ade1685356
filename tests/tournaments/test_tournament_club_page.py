"""The club page lists the club's tournaments with where each stands and a standings link."""

from __future__ import annotations

import re

from tournament_helpers import add_entrants, create, login, seat, world

from app.extensions import db


def _items(html: str) -> dict[str, str]:
    section = re.search(r'<section class="club-tournaments">(.*?)</section>', html, re.S)
    assert section, "no tournaments section on the club page"
    out = {}
    for li in re.findall(r"<li>(.*?)</li>", section.group(1), re.S):
        name = re.search(r'<a href="[^"]*/tournaments/\d+">([^<]*)</a>', li).group(1)  # type: ignore[union-attr]
        out[name] = li
    return out


def test_club_page_lists_tournaments_with_status_and_standings(client):
    w = world()
    login(client, w.director)
    fresh = create(client, w.club, name="Fresh Cup")
    running = create(client, w.club, name="Running Cup", rounds=3)
    add_entrants(client, w.club, running, 4, 2)
    seat(client, w.club, running)
    done = create(client, w.club, name="Done Cup", rounds=1)
    add_entrants(client, w.club, done, 4, 2)
    rnd = seat(client, w.club, done)
    rnd.status = "closed"
    db.session.commit()

    items = _items(client.get(f"/clubs/{w.club.slug}").get_data(as_text=True))
    assert set(items) == {"Fresh Cup", "Running Cup", "Done Cup"}
    assert "not started" in items["Fresh Cup"]
    assert "round 1 of 3" in items["Running Cup"]
    assert "finished" in items["Done Cup"] and "round" not in items["Done Cup"]
    for t in (fresh, running, done):
        assert f'href="/standings/{t.id}"' in items[t.name]

    client.post("/lang", data={"lang": "zh"})
    zh = _items(client.get(f"/clubs/{w.club.slug}").get_data(as_text=True))
    assert "第 1 轮 / 共 3 轮" in zh["Running Cup"]
    assert "未开始" in zh["Fresh Cup"] and "已结束" in zh["Done Cup"]


def test_club_page_shows_no_other_clubs_tournament(client):
    w = world()
    login(client, w.outsider)
    create(client, w.other_club, name="Secret Cup")
    client.post("/logout")
    login(client, w.player)
    html = client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    assert "No tournament yet." in html
    assert "Secret Cup" not in html
