"""The standings and entrant history link back to the tournament page for the club's members;
outside the club the id pages do not exist, and the public link's pages carry no such link."""

from __future__ import annotations

import re

from tournament_helpers import add_entrants, create, login, world

from app.extensions import db
from app.models import Tournament
from app.services.visibility import set_visibility


def _back_links(html: str) -> list[str]:
    return re.findall(r'<a class="back-to-tournament" href="([^"]+)"', html)


def test_members_get_a_link_back_others_do_not(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    db.session.refresh(t)
    tournament_page = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    pages = [f"/standings/{t.id}", f"/standings/{t.id}/entrants/{t.entrants[0].id}"]

    for who in (w.director, w.player):
        client.post("/account/logout")
        login(client, who)
        for url in pages:
            r = client.get(url)
            assert r.status_code == 200
            assert _back_links(r.get_data(as_text=True)) == [tournament_page], (who, url)
        assert client.get(tournament_page).status_code == 200

    client.post("/account/logout")
    login(client, w.outsider)  # a director of another club
    for url in pages:
        assert client.get(url).status_code == 404, url

    client.post("/account/logout")
    for url in pages:  # anonymous: a plain not-found
        assert client.get(url).status_code == 404, url

    set_visibility(t, "public")
    db.session.commit()
    public = [f"/p/{t.public_token}", f"/p/{t.public_token}/entrants/{t.entrants[0].id}"]
    for url in public:  # anonymous on the public link: the page, no link into the club
        r = client.get(url)
        assert r.status_code == 200
        html = r.get_data(as_text=True)
        assert _back_links(html) == [] and f"/clubs/{w.club.slug}" not in html
        assert t.name in html and f"/standings/{t.id}" not in html


def test_projector_view_has_no_back_link(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    html = client.get(f"/standings/{t.id}?projector=1").get_data(as_text=True)
    assert _back_links(html) == []
    assert db.session.get(Tournament, t.id) is not None
