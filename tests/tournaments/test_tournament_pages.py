"""Every tournament page renders in both languages; the per-entrant history lists every match
and deal; the club page links the tournaments."""

from __future__ import annotations

from html import escape

import pytest
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p", "one-twenty-6p"])
def test_pages_render(client, lang, variant):
    w = world()
    login(client, w.owner)
    client.post("/lang", data={"lang": lang, "next": "/"})
    size = {"tractor-4p": 2, "red-five-5p": 1, "one-twenty-6p": 3}[variant]
    extra = {"pairing": "reseat"} if variant == "red-five-5p" else {}
    t = create(client, w.club, variant=variant, match_value=2, **extra)
    names = add_entrants(client, w.club, t, 6 if variant == "red-five-5p" else 3, size)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    url = sheet_url(w.club, t, rnd, tab)
    if variant == "red-five-5p":
        deal = {
            "dealer": 1,
            "friend": 3,
            "trump": "H",
            "points": 125,
            "kitty": 10,
            "multiplier": 4,
            "ft_seat_2": 1,
            "friend_grabbed": "y",
        }
    elif variant == "one-twenty-6p":
        deal = fixed_deal(1, 130, misplays_0=1, level="2")
    else:
        deal = fixed_deal(1, 65, kitty=10, multiplier=2, ft_attackers=1, trump="NT")
    r = client.post(url, data=deal)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    eid = t.entrants[0].id
    pages = [
        f"/clubs/{w.club.slug}",
        f"/clubs/{w.club.slug}/tournaments",
        f"/clubs/{w.club.slug}/tournaments/new",
        base,
        f"{base}/rounds/1",
        url,
        f"{url}/deals/1",
        f"{base}/audit",
        f"/standings/{t.id}",
        f"/standings/{t.id}?projector=1",
        f"/standings/{t.id}/live",
        f"/standings/{t.id}/entrants/{eid}",
        f"/table/{tab.code}",
        "/table",
    ]
    for page in pages:
        r = client.get(page)
        assert r.status_code == 200, (page, r.status_code)
    if lang == "zh":
        assert "记分表" in client.get(f"{base}/rounds/1").get_data(as_text=True)
        assert "主" in client.get(url).get_data(as_text=True)
    seated = [s.entrant for s in tab.seats]
    hist = client.get(f"/standings/{t.id}/entrants/{seated[0].id}").get_data(as_text=True)
    assert escape(seated[0].name) in hist
    assert "125" in hist or "65" in hist or "130" in hist
    assert names


def test_club_page_links_tournaments(client):
    w = world()
    login(client, w.player)
    html = client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    assert f"/clubs/{w.club.slug}/tournaments" in html
    assert "New tournament" not in html
    login(client, w.director)
    assert "New tournament" in client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
