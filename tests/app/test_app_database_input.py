"""Input a database refuses never becomes a server error, on SQLite and on PostgreSQL: an id in
a URL beyond what an id column holds is a plain "not found", and a NUL character (which no
PostgreSQL text column can hold; SQLite would store it) is refused with a sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from app.extensions import db
from app.models import Club, User
from app.web import MAX_URL_INT as MAX_ID
from app.web import BoundedIntConverter as IdConverter
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

TOO_BIG = (MAX_ID + 1, 2**63, 10**20)  # just past int4, past int8, the issue's example


def _id_routes(app: Flask) -> list[tuple[str, str]]:
    """(method, rule) of every route with an ``<int:…>`` part."""
    out = []
    for rule in app.url_map.iter_rules():
        if any(isinstance(c, IdConverter) for c in rule._converters.values()):
            method = "GET" if "GET" in (rule.methods or ()) else "POST"
            out.append((method, rule.rule))
    return sorted(out)


@pytest.fixture
def real_values(app: Flask, client: Any) -> dict[str, str]:
    """A real club, tournament, round and table, so that only the id under test is missing."""
    w = world()
    login(client, w.owner)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    r = client.post(
        f"/clubs/{w.club.slug}/duplicate",
        data={
            "name": "Pairs",
            "variant": "tractor-4p",
            "kind": "pairs",
            "entrants": "A\nB\nC\nD",
            "boards_per_round": 1,
        },
    )
    assert r.status_code == 303
    did = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    return {
        "slug": w.club.slug,
        "tid": str(t.id),
        "n": str(rnd.number),
        "tno": str(tab.number),
        "eid": str(t.entrants[0].id),
        "member_id": str(w.club.members[0].id),
        "invite_id": "1",
        "i": "1",
        "kind": "pack",
        "code": str(tab.code),
        "number": "1",
        "sid": "1",
        "division_id": "1",
        "did": str(did),
        "board": "1",
        "rnd": "1",
        "seat_id": "1",
        "deal_id": "1",
        "seat_token": "no-such-seat",
        "link": "no-such-public-link",
        "season_link": "no-such-public-link",
        "digest": "0" * 16,
        "filename": "style.css",
    }


def _fill(rule: str, values: dict[str, str], big_name: str, big: int) -> str:
    def part(m: re.Match[str]) -> str:
        name = m.group(2)
        return str(big) if name == big_name else values[name]

    return re.sub(r"<(?:(\w+):)?(\w+)>", part, rule)


def test_ids_beyond_an_id_column_are_not_found(app: Flask, client: Any, real_values) -> None:
    routes = _id_routes(app)
    assert len(routes) > 25  # every id route of the app, not a few samples
    tried = 0
    for method, rule in routes:
        for name in re.findall(r"<int:(\w+)>", rule):
            for big in TOO_BIG:
                url = _fill(rule, real_values, name, big)
                r = client.open(url, method=method)
                assert r.status_code == 404, (url, r.status_code)
                assert "Not found" in r.get_data(as_text=True)
                tried += 1
    assert tried > 100


def test_the_largest_id_reaches_the_view_and_is_not_found(client: Any, real_values) -> None:
    for url in (
        f"/standings/{MAX_ID}",
        f"/standings/{real_values['tid']}/entrants/{MAX_ID}",
        f"/clubs/{real_values['slug']}/tournaments/{MAX_ID}",
        f"/clubs/{real_values['slug']}/tournaments/{real_values['tid']}/rounds/{MAX_ID}",
    ):
        r = client.get(url)
        assert r.status_code == 404, url
    # the page at an id that exists still works, by the same converter
    assert client.get(f"/standings/{real_values['tid']}").status_code == 200


def test_the_issues_example_standings_url(client: Any) -> None:
    assert client.get("/standings/99999999999999999999").status_code == 404
    assert client.get("/standings/99999999999999999999/live").status_code == 404


EN = "contained something that cannot be used"
ZH = "包含无法使用的内容"


def test_a_nul_character_in_a_form_is_refused_and_nothing_is_saved(app: Flask, client) -> None:
    data = {
        "username": "nul\x00name",
        "display_name": "Nul",
        "password": "long enough pw",
        "confirm": "long enough pw",
    }
    r = client.post("/account/register", data=data)
    assert r.status_code == 400
    assert EN in r.get_data(as_text=True) and "Nothing was saved" in r.get_data(as_text=True)
    r = client.post("/account/register", data=data, headers={"Accept-Language": "zh-CN"})
    assert r.status_code == 400 and ZH in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(User.id))) == 0
    # the same form without the NUL works
    r = client.post("/account/register", data=dict(data, username="nulname"))
    assert r.status_code == 302
    assert db.session.scalar(select(User.username)) == "nulname"


def test_a_nul_character_in_a_club_form_saves_nothing(app: Flask, client, make_user, login) -> None:
    user = make_user("owner")
    login(client, user)
    r = client.post("/clubs/new", data={"name": "Bad\x00Club"})
    assert r.status_code == 400 and EN in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Club.id))) == 0


@pytest.mark.parametrize(
    "url", ["/clubs/%00", "/standings/1?x=%00", "/account/login?next=/%00", "/?%00=1"]
)
def test_a_nul_character_in_the_address_is_refused(client, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 400
    assert EN in r.get_data(as_text=True)
