"""Phone-sized pictures for the group chat: a night's standings and a match's result."""

from __future__ import annotations

import io

from PIL import Image

from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    login,
    play_round_out,
    seat,
    world,
)


def test_standings_and_match_pictures(app, client):
    w = world()
    login(client, w.player)
    client.post("/account/logout")
    login(client, w.director)
    t = create(client, w.club, rounds=2)
    add_entrants(client, w.club, t, 4, 2)
    play_round_out(t, seat(client, w.club, t), w.director, seed=1)
    play_round_out(t, seat(client, w.club, t), w.director, seed=2)
    client.post("/account/logout")
    login(client, w.player)  # any member may take the pictures
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    for url in (base + "/standings.png", base + "/rounds/1/tables/1/result.png"):
        r = client.get(url)
        assert r.status_code == 200 and r.mimetype == "image/png", url
        img = Image.open(io.BytesIO(r.data))
        assert img.width == 1080 and img.height > 500, url
        assert "attachment" in r.headers["Content-Disposition"]
    assert client.get(base + "/rounds/1/tables/9/result.png").status_code == 404
    client.post("/account/logout")
    login(client, w.outsider)
    assert client.get(base + "/standings.png").status_code == 404
