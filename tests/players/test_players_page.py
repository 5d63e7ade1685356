"""A member's player page: the nights they played with partners and places, each match with its
level chart, the seasons with their place, the rating; found from the home page; private."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from app.extensions import db
from app.models import EntrantPlayer, Member
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    login,
    play_round_out,
    seat,
    world,
)


def test_the_player_page_shows_nights_matches_charts_and_rating(app, client):
    w = world()
    login(client, w.owner)
    t = create(client, w.club, name="Friday Night", rounds=1, pairing="round-robin")
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    play_round_out(t, rnd, w.owner, seed=3)
    # link the first player of the first entrant to Pete's member record
    pete = db.session.query(Member).filter_by(club_id=w.club.id, display_name="Pete Player").one()
    ep = db.session.query(EntrantPlayer).filter_by(name="P00a").one()
    ep.member_id = pete.id
    db.session.commit()
    r = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player")
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Friday Night" in page and "P00b" in page  # the night and the partner
    assert "Rating" in page and "place " in page
    svg = page[page.index("<svg") : page.index("</svg>") + 6]
    root = ET.fromstring(svg)
    assert len([e for e in root.iter() if e.get("class") == "series"]) == 2
    home = client.get("/").get_data(as_text=True)
    assert f"/clubs/{w.club.slug}/members/" in home and "My results and rating" in home
    # members list links to the pages; another club's director gets a 404
    assert f"/members/{pete.id}/player" in client.get(f"/clubs/{w.club.slug}/members").get_data(
        as_text=True
    )
    client.post("/account/logout")
    login(client, w.outsider)
    assert client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").status_code == 404
    assert client.get(f"/clubs/{w.other_club.slug}/members/{pete.id}/player").status_code == 404


def test_a_member_who_never_played_has_an_empty_page(app, client):
    w = world()
    login(client, w.player)
    me = db.session.query(Member).filter_by(club_id=w.club.id, display_name="Pete Player").one()
    r = client.get(f"/clubs/{w.club.slug}/members/{me.id}/player")
    assert r.status_code == 200 and "No night played yet." in r.get_data(as_text=True)
