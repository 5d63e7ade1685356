"""The first round's seating is drawn at random with its seed recorded (shown on the page, the
same seed gives the same draw), not by the order names were typed; the draw's order holds for
every later round of a round robin."""

from __future__ import annotations

import dataclasses

from app.competition import pairing, tfile
from app.extensions import db
from app.models import Tournament
from app.services.tournaments.rows import load_uncached
from tests.tournaments.tournament_helpers import add_entrants, create, login, world


def _names(rnd):
    return [tab.sides for tab in rnd.tables if tab.sides]


def test_the_draw_is_recorded_shown_and_repeatable(app, client):
    app.config["DRAW_SEED"] = 424242
    w = world()
    login(client, w.director)
    t = create(client, w.club, pairing="round-robin", rounds=5)
    add_entrants(client, w.club, t, 6, 2)
    r = client.post(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds", data={"draw": "random"})
    assert r.status_code == 303
    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    assert t.draw_seed == 424242
    page = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    assert "draw no. 424242" in page
    comp = load_uncached(t).tournament
    seated = [tab.sides for tab in comp.played[0].tables if tab.sides]
    entered = [e.name for e in comp.entrants]
    # not the typed order: the typed order would pair 1-6, 2-5, 3-4 by Berger numbers
    plain = pairing.pair_next_round(dataclasses.replace(comp, played=(), draw_seed=None))
    assert seated != _names(plain)
    # the same seed on the same entrants gives exactly the same draw, every round
    again = pairing.pair_next_round(dataclasses.replace(comp, played=()))
    assert _names(again) == seated
    assert sorted(x for p in seated for x in p) == sorted(entered)


def test_without_the_draw_the_order_entered_is_kept(app, client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, pairing="round-robin", rounds=5)
    add_entrants(client, w.club, t, 4, 2)
    assert client.post(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds").status_code == 303
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).draw_seed is None


def test_different_seeds_give_different_draws_and_round_robin_stays_complete():
    doc = {
        "format": "shengji-tournament/1",
        "club": "C",
        "name": "N",
        "variant": "tractor-4p",
        "pairing": "round-robin",
        "rounds": 5,
        "match": {"deals": 1},
        "entrants": [{"name": f"E{i}", "players": [f"a{i}", f"b{i}"]} for i in range(6)],
    }
    base = tfile.load(doc)
    draws = {
        tuple(e.name for e in dataclasses.replace(base, draw_seed=s).drawn_entrants)
        for s in range(20)
    }
    assert len(draws) > 10
    t = dataclasses.replace(base, draw_seed=7)
    met = set()
    for _ in range(5):
        rnd = pairing.pair_next_round(t)
        met |= {frozenset(tab.sides) for tab in rnd.tables if tab.sides}
        t = dataclasses.replace(t, played=(*t.played, rnd))
    assert len(met) == 15  # every pair met once over the five rounds
