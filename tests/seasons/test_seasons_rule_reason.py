"""A season rule that cannot be used says why (the places rule with no points per place yet)."""

from __future__ import annotations

from tests.seasons.test_seasons_pages import _night, _season
from tests.tournaments.tournament_helpers import login, world


def test_places_without_points_per_place_says_why(app, client):
    w = world()
    login(client, w.owner)
    t = _night(client, w, "Night One")
    s = _season(client, w, places="")
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    r = client.post(
        base + "/nights", data={"tournament": t.id, "date": "2026-12-04", "division": 0}
    )
    assert r.status_code == 303
    html = client.get(base + "?rule=places").get_data(as_text=True)
    assert "the season has no league points per place" in html
    assert "The season&#39;s own rule is shown instead." in html
    zh = client.get(base + "?rule=places", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "还没有各名次的积分" in zh
