"""Choosing 红五 on the set-up form selects re-seating, and a fixed-sides game Swiss again (the
options partial swaps the pairing field too); without JavaScript the re-shown form does it."""

from __future__ import annotations

import re

from tournament_helpers import login, setup_form, world


def _selected(html: str) -> str:
    select = re.search(r'<select[^>]*name="pairing".*?</select>', html, re.S)
    assert select, html[:2000]
    m = re.search(r'<option selected value="([^"]+)"|<option value="([^"]+)" selected', select[0])
    assert m, select[0]
    return next(g for g in m.groups() if g)


def test_the_game_chosen_selects_its_pairing(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new/options"
    page = client.get(url, query_string={"variant": "red-five-5p", "pairing": "swiss"})
    html = page.get_data(as_text=True)
    assert 'id="pairing-field" hx-swap-oob="true"' in html and _selected(html) == "reseat"
    html = client.get(url, query_string={"variant": "tractor-4p", "pairing": "reseat"}).get_data(
        as_text=True
    )
    assert _selected(html) == "swiss"
    html = client.get(
        url, query_string={"variant": "one-twenty-6p", "pairing": "round-robin"}
    ).get_data(as_text=True)
    assert _selected(html) == "round-robin"
    form = client.get(f"/clubs/{w.club.slug}/tournaments/new").get_data(as_text=True)
    # the pairing shown goes with the request (and the preset: 打百分 swaps in its own)
    assert 'hx-include="#pairing, #preset"' in form


def test_without_javascript_the_reshown_form_selects_re_seating(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    data = setup_form(variant="red-five-5p", pairing="swiss", options_variant="tractor-4p")
    r = client.post(f"/clubs/{w.club.slug}/tournaments/new", data=data)
    html = r.get_data(as_text=True)
    assert "Check the rule options of this game" in html and _selected(html) == "reseat"
