"""A table's code is a capability for that one table's score sheet: it opens and changes only that
sheet, not another table, round, tournament or club page; once the round is closed it corrects
nothing; a wrong code is a 404 that does not tell whether such a table exists; guessing codes is
throttled per address (in the database, like the login limiter)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Deal, LoginAttempt, Round, Table, utcnow
from app.services.tournaments import rounds as rounds
from tests.security.security_world import SecurityWorld, build_world, logged_in, snapshot
from tests.tournaments.tournament_helpers import fixed_deal, play_round_out, seat


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def _deals(tab_id: int) -> list[int]:
    db.session.expire_all()
    return [
        d.points
        for d in db.session.scalars(
            select(Deal).where(Deal.table_id == tab_id).order_by(Deal.index)
        )
    ]


def _codes() -> set[str]:
    return {c for c in db.session.scalars(select(Table.code)) if c}


def test_the_code_opens_its_own_sheet_only(app: Flask, world: SecurityWorld) -> None:
    a, b = world.a, world.b
    code = a.table.code
    assert code and a.other_table.code and b.table.code
    client = app.test_client()
    page = client.get(f"/table/{code}").get_data(as_text=True)
    # nothing on the page leads elsewhere: no club URL, no other table's code
    assert f"/clubs/{a.club.slug}" not in page
    for other in _codes() - {code}:
        assert other not in page
    # smuggled ids in the form are ignored: the deal lands on this table only
    smuggled = fixed_deal(
        1, 40, table=a.other_table.number, tno=a.other_table.number, table_id=b.table.id, round=2
    )
    r = client.post(f"/table/{code}", data=smuggled)
    assert r.status_code == 303
    assert _deals(a.table.id) == [60, 40]
    assert _deals(a.other_table.id) == [] and _deals(b.table.id) == [60]
    # the code is no key to anything else
    before = snapshot()
    base = f"/clubs/{a.club.slug}/tournaments/{a.tournament.id}"
    director_sheet = f"{base}/rounds/1/tables/{a.table.number}"
    for url in (
        base,
        f"{base}/rounds/1",
        director_sheet,
        f"{director_sheet}/sheet.pdf",
        f"{base}/export.json",
        f"/clubs/{a.club.slug}",
        f"/clubs/{b.club.slug}",
    ):
        r = client.get(url)
        assert r.status_code == 302 and "/account/login" in r.headers["Location"], url
    for url, data in (
        (director_sheet, fixed_deal(0, 80)),
        (f"{director_sheet}/undo", {}),
        (f"{base}/rounds/1/close", {}),
    ):
        assert client.post(url, data=data).status_code == 302, url
    assert snapshot() == before
    # edits by code stay within this table's deals
    assert client.get(f"/table/{code}/deals/2").status_code == 200
    assert client.get(f"/table/{code}/deals/3").status_code == 404
    assert client.post(f"/table/{code}/deals/3", data=fixed_deal(0, 5)).status_code == 404
    assert client.get(f"/table/{code}/deals/0").status_code == 404


def test_a_player_of_the_club_does_not_see_the_codes(app: Flask, world: SecurityWorld) -> None:
    a = world.a
    url = f"/clubs/{a.club.slug}/tournaments/{a.tournament.id}/rounds/1"
    player_page = logged_in(app, world.users["a_player"]).get(url).get_data(as_text=True)
    director_page = logged_in(app, world.users["a_director"]).get(url).get_data(as_text=True)
    assert a.table.code and a.table.code in director_page
    for code in _codes():
        assert code not in player_page


def test_closed_round_and_other_rounds(app: Flask, world: SecurityWorld) -> None:
    a = world.a
    old_code = a.table.code
    assert old_code
    play_round_out(a.tournament, a.round, world.users["a_director"])
    client = app.test_client()
    before = _deals(a.table.id)
    r = client.post(f"/table/{old_code}", data=fixed_deal(1, 40))
    assert r.status_code == 422
    r = client.post(f"/table/{old_code}/deals/1", data=fixed_deal(0, 100))
    assert r.status_code == 422 and "closed" in r.get_data(as_text=True)
    assert _deals(a.table.id) == before
    # round 2 gets new codes; round 1's code still shows (only) its own finished sheet
    director = logged_in(app, world.users["a_director"])
    rnd2 = seat(director, a.club, a.tournament)
    new_codes = {t.code for t in rnd2.tables if t.code}
    assert new_codes and old_code not in new_codes
    page = client.get(f"/table/{old_code}").get_data(as_text=True)
    for code in new_codes:
        assert code not in page
    round2 = [t for t in rnd2.tables if t.kind == "sides"]
    assert all(_deals(t.id) == [] for t in round2)


def _untimed(html: str) -> str:
    html = re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token" value="TOKEN"', html)
    return re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": "TOKEN"', html)


def test_wrong_codes_reveal_nothing(app: Flask, world: SecurityWorld) -> None:
    client = app.test_client()
    code = world.a.table.code
    assert code
    near = code[:-1] + ("A" if code[-1] != "A" else "B")
    guesses = (near, "ABCDEFGHJK", "no-such-thing", "0" * 10, code.lower(), code + "A")
    answers = {guess: client.get(f"/table/{guess}") for guess in guesses}
    assert all(r.status_code == 404 for r in answers.values())
    # the same page whatever was guessed (but for the CSRF tokens, signed with the time: two
    # answers a second apart carry different ones)
    bodies = {_untimed(r.get_data(as_text=True).replace(g, "GUESS")) for g, r in answers.items()}
    assert len(bodies) == 1
    form = [client.post("/table", data={"code": guess}) for guess in (near, "x", "")]
    assert all(r.status_code == 422 for r in form)
    # the CSRF token in the page's htmx headers is signed with the time: it may differ by a second
    messages = {
        re.sub(r'"X-CSRFToken": "[^"]*"', "TOKEN", r.get_data(as_text=True)).split('value="')[0]
        for r in form
    }
    assert len(messages) == 1
    # a bye has no code at all
    byes = db.session.scalars(select(Table).where(Table.kind == "bye")).all()
    assert all(t.code is None for t in byes)


def _guess(client: FlaskClient, i: int, how: str, addr: str = "10.0.0.1"):
    guess = f"ZZZZZZ{i:04d}".replace("0", "Q").replace("1", "R")
    env = {"REMOTE_ADDR": addr}
    if how == "url":
        return client.get(f"/table/{guess}", environ_base=env)
    if how == "edit":
        return client.post(f"/table/{guess}/deals/1", data=fixed_deal(0, 5), environ_base=env)
    return client.post("/table", data={"code": guess}, environ_base=env)


@pytest.mark.parametrize("how", ["url", "form", "edit"])
def test_code_guessing_is_throttled_per_address(app: Flask, world: SecurityWorld, how: str):
    limit = app.config["TABLE_CODE_MAX_FAILURES_PER_IP"]
    client = app.test_client()
    code = world.a.table.code
    for i in range(limit):
        r = _guess(client, i, how)
        assert r.status_code in (404, 422), (i, r.status_code)
    # now even the right code is refused from this address, with a message
    blocked = client.get(f"/table/{code}", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert blocked.status_code == 429
    assert "wait" in blocked.get_data(as_text=True)
    r = client.post("/table", data={"code": code}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert r.status_code == 429
    r = client.post(
        f"/table/{code}", data=fixed_deal(1, 40), environ_base={"REMOTE_ADDR": "10.0.0.1"}
    )
    assert r.status_code == 429 and _deals(world.a.table.id) == [60]
    # spoofed proxy headers change nothing; another address is not affected
    r = client.get(
        f"/table/{code}",
        environ_base={"REMOTE_ADDR": "10.0.0.1"},
        headers={"X-Forwarded-For": "10.7.7.7"},
    )
    assert r.status_code == 429
    assert client.get(f"/table/{code}", environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 200
    # and the login limiter of that address is untouched by code guesses
    r = client.post(
        "/account/login",
        data={"username": "a_owner", "password": "correct horse battery"},
        environ_base={"REMOTE_ADDR": "10.0.0.1"},
    )
    assert r.status_code == 302


def test_code_throttle_expires(app: Flask, world: SecurityWorld) -> None:
    limit = app.config["TABLE_CODE_MAX_FAILURES_PER_IP"]
    client = app.test_client()
    for i in range(limit):
        _guess(client, i, "url")
    code = world.a.table.code
    env = {"REMOTE_ADDR": "10.0.0.1"}
    assert client.get(f"/table/{code}", environ_base=env).status_code == 429
    old = utcnow() - timedelta(seconds=app.config["LOGIN_WINDOW_SECONDS"] + 5)
    for attempt in db.session.scalars(select(LoginAttempt)):
        attempt.created_at = old
    db.session.commit()
    assert client.get(f"/table/{code}", environ_base=env).status_code == 200


def test_a_right_code_does_not_reset_the_count(app: Flask, world: SecurityWorld) -> None:
    limit = app.config["TABLE_CODE_MAX_FAILURES_PER_IP"]
    client = app.test_client()
    code = world.a.table.code
    env = {"REMOTE_ADDR": "10.0.0.1"}
    for i in range(limit):
        assert client.get(f"/table/{code}", environ_base=env).status_code == 200
        _guess(client, i, "url")
    assert client.get(f"/table/{code}", environ_base=env).status_code == 429


def test_codes_are_long_and_random() -> None:
    assert rounds.CODE_LENGTH >= 10 and len(set(rounds.CODE_ALPHABET)) >= 30


def test_codes_of_a_round_paired_again_stop_working(app: Flask, world: SecurityWorld) -> None:
    a = world.a
    old = {t.code for t in a.round.tables if t.code}
    director = logged_in(app, world.users["a_director"])
    base = f"/clubs/{a.club.slug}/tournaments/{a.tournament.id}/rounds/1"
    r = director.post(f"{base}/tables/{a.table.number}/undo")
    assert r.status_code == 303 and _deals(a.table.id) == []
    assert director.post(f"{base}/repair").status_code == 303
    db.session.expire_all()
    assert old and not (old & _codes())
    client = app.test_client()
    for code in old:
        assert client.get(f"/table/{code}").status_code == 404
        assert client.post(f"/table/{code}", data=fixed_deal(0, 40)).status_code == 404
    rnd = db.session.scalar(
        select(Round).where(Round.tournament_id == a.tournament.id, Round.number == 1)
    )
    assert rnd is not None
    tables = db.session.scalars(select(Table).where(Table.round_id == rnd.id)).all()
    assert tables and all(_deals(t.id) == [] for t in tables)
