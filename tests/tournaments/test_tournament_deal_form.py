"""Every validation error of the score sheet form: the message on its field, nothing saved."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.extensions import db
from app.models import AuditEntry, Deal, Tournament


def _count(tab_id: int) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab_id)) or 0


def _field_error(html: str, field: str) -> str:
    """The error text shown inside the field's wrapper."""
    m = re.search(
        rf'<div class="field has-error">\s*<label for="{field}">.*?</div>', html, re.S
    ) or re.search(rf'<div class="field has-error">[^<]*<label for="{field}".*?</div>', html, re.S)
    assert m, f"no error on {field}"
    errors = re.findall(r'<p class="error">(.*?)</p>', m.group(0))
    assert errors, f"no message on {field}"
    return " ".join(errors)


def _table(client, variant: str, size: int, entrants: int, **kw):
    w = world()
    login(client, w.director)
    t = create(client, w.club, variant=variant, **kw)
    add_entrants(client, w.club, t, entrants, size)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    return w, t, rnd, tab, sheet_url(w.club, t, rnd, tab)


TRACTOR_CASES = [
    ({"points": 87}, "points", "steps of 5"),
    ({"points": 205}, "points", "Between 0 and 200"),
    ({"points": -5}, "points", "Between 0 and 200"),
    ({"points": ""}, "points", "attackers' points"),
    ({"points": "abc"}, "points", ""),
    ({"kitty": 12}, "kitty", "steps of 5"),
    ({"kitty": 95}, "kitty", "at most"),
    ({"points": 180, "kitty": 30}, "kitty", "more than the 200"),
    ({"multiplier": 3}, "multiplier", ""),
    ({"ft_declarer": -1}, "ft_declarer", "0 to 20"),
    ({"ft_attackers": 99}, "ft_attackers", "0 to 20"),
    ({"level": "7"}, "level", "at level 2"),
    ({"level": "Z"}, "level", ""),
    ({"declarer": 5}, "declarer", ""),
    ({"trump": "X"}, "trump", ""),
]


@pytest.mark.parametrize(("change", "field", "words"), TRACTOR_CASES)
def test_tractor_field_errors(client, change, field, words):
    w, t, rnd, tab, url = _table(client, "tractor-4p", 2, 4)
    before = db.session.get(Tournament, t.id).version  # type: ignore[union-attr]
    data = fixed_deal(0, 60)
    data.update(change)
    r = client.post(url, data=data)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert words in _field_error(html, field)
    assert _count(tab.id) == 0
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).version == before  # type: ignore[union-attr]
    assert db.session.scalar(select(AuditEntry).where(AuditEntry.action == "deal")) is None


def test_htmx_post_swaps_the_sheet_with_the_error(client):
    w, t, rnd, tab, url = _table(client, "tractor-4p", 2, 4)
    r = client.post(url, data=fixed_deal(0, 87), headers={"HX-Request": "true"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert html.lstrip().startswith('<section id="sheet"')
    assert "steps of 5" in _field_error(html, "points")
    r = client.post(url, data=fixed_deal(0, 85), headers={"HX-Request": "true"})
    assert r.status_code == 200 and "Deal 1 recorded" in r.get_data(as_text=True)
    assert _count(tab.id) == 1


def test_four_decks_have_no_kitty(client):
    w, t, rnd, tab, url = _table(client, "tractor-4p", 2, 4, opt_decks="4")
    r = client.post(url, data=fixed_deal(0, 100, kitty=10))
    assert r.status_code == 422
    assert "no kitty" in _field_error(r.get_data(as_text=True), "kitty")
    assert _count(tab.id) == 0


def test_no_deal_after_the_match_is_complete(client):
    w, t, rnd, tab, url = _table(client, "tractor-4p", 2, 4)
    assert client.post(url, data=fixed_deal(0, 60)).status_code == 303
    assert client.post(url, data=fixed_deal(0, 60)).status_code == 303
    r = client.post(url, data=fixed_deal(0, 60))
    assert r.status_code == 422
    assert "complete" in r.get_data(as_text=True)
    assert _count(tab.id) == 2


def red_deal(**kw):
    d = {"dealer": 0, "friend": 2, "trump": "H", "points": 60, "kitty": 0, "multiplier": 0}
    d.update(kw)
    return d


RED_CASES = [
    ({"friend": 0}, "friend", "not the dealer"),
    ({"friend": "", "friend_grabbed": "y"}, "friend_grabbed", "alone"),
    ({"dealer": 7}, "dealer", ""),
    ({"trump": "NT"}, "trump", ""),
    ({"points": 305}, "points", "Between 0 and 300"),
    ({"kitty": 75}, "kitty", "at most"),
    ({"multiplier": 5}, "multiplier", ""),
]


@pytest.mark.parametrize(("change", "field", "words"), RED_CASES)
def test_red_five_field_errors(client, change, field, words):
    w, t, rnd, tab, url = _table(client, "red-five-5p", 1, 5, pairing="reseat", match_value=4)
    data = red_deal()
    data.update(change)
    r = client.post(url, data=data)
    assert r.status_code == 422
    assert words in _field_error(r.get_data(as_text=True), field)
    assert _count(tab.id) == 0


def test_red_five_deal_scores(client):
    w, t, rnd, tab, url = _table(client, "red-five-5p", 1, 5, pairing="reseat", match_value=4)
    r = client.post(url, data=red_deal(points=0, ft_seat_3=1))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    html = client.get(url).get_data(as_text=True)
    # 0 points: dealer side wins 3 units: dealer +6, friend +3, others -3; seat 3 threw: -4, +1 others
    row = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)  # type: ignore[union-attr]
    cells = re.findall(r'<td class="num c-seat"[^>]*>(-?\d+)</td>', row)
    assert cells[-5:] == ["7", "-2", "4", "-7", "-2"]


def test_one_twenty_misplays(client):
    w, t, rnd, tab, url = _table(client, "one-twenty-6p", 3, 4, match_value=3)
    r = client.post(url, data=fixed_deal(0, 20, misplays_1=2))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    html = client.get(url).get_data(as_text=True)
    # declarers keep with < 60: +2 → 4, and two misplays of side 1 give side 0 two more → 6
    assert "level <strong>6</strong>" in html
    r = client.post(url, data=fixed_deal(0, 20, misplays_0=30))
    assert r.status_code == 422
    assert "0 to 20" in _field_error(r.get_data(as_text=True), "misplays_0")
