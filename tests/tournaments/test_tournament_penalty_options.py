"""The RULES §7 options on the set-up form: stored when changed, a strike count refused with a
sentence on its field (nothing saved), and a form posted without the new fields keeping their
defaults."""

from __future__ import annotations

from sqlalchemy import func, select
from tournament_helpers import create, login, setup_form, world

from app.extensions import db
from app.models import Tournament

BASE = setup_form(name="Cup", match_value=4)


def test_penalty_options_are_stored_when_changed(client):
    w = world()
    login(client, w.director)
    t = create(
        client,
        w.club,
        opt_throw_penalty="ten_per_card",
        opt_revoke_effect="extra_level",
        opt_takeback_effect="level",
        opt_strikes_lose_match="3",
    )
    assert t.options == {
        "throw_penalty": "ten_per_card",
        "revoke_effect": "extra_level",
        "strikes_lose_match": 3,
    }


def test_a_bad_strike_count_is_refused_on_its_field(client):
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new"
    for bad in ("0", "three", "-2"):
        r = client.post(url, data={**BASE, "opt_strikes_lose_match": bad})
        assert r.status_code == 422
        assert "A whole number, 1 or more, or empty for none." in r.get_data(as_text=True)
    r = client.post(url, data={**BASE, "opt_revoke_effect": "forfeit"})
    assert r.status_code == 422 and "choose one of the listed values" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Tournament.id))) == 0


def test_a_form_without_the_new_fields_keeps_the_defaults(client):
    w = world()
    login(client, w.director)
    r = client.post(f"/clubs/{w.club.slug}/tournaments/new", data=BASE)
    assert r.status_code == 303
    t = db.session.scalar(select(Tournament))
    assert t is not None and t.options == {}
