"""A tournament's move clock: seconds per move, set on the set-up form. When the waited human
seat's time runs out by the server's clock, the next request touching the seat (its page's
countdown reaching 0, or the late move itself) has a bot make that one move: marked in the log
and in the replay, and the player told on the seat's page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import OnlineAction, OnlineSeat, Table, Tournament, utcnow
from app.services.online import tokens
from tests.online.online_helpers import OnlineWorld, form, moves, online_world, page_token
from tests.tournaments.tournament_helpers import create, login, world


def test_the_set_up_form_sets_the_seconds_per_move(client: FlaskClient) -> None:
    w = world()
    login(client, w.director)
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/new", data={"name": "Clocked", "move_seconds": "5"}
    )
    assert r.status_code == 200 or r.status_code == 422
    assert "Between 10 and 600, please." in r.get_data(as_text=True)
    t = create(client, w.club, name="Clocked", move_seconds="45")
    assert t.move_seconds == 45
    t2 = create(client, w.club, name="No clock")
    assert t2.move_seconds is None


def _clocked(client: FlaskClient) -> tuple[OnlineWorld, OnlineSeat]:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    t.move_seconds = 45
    db.session.commit()
    return ow, ow.seats()[0]


def _late(monkeypatch: pytest.MonkeyPatch, seconds: int) -> None:
    """The server's clock, ``seconds`` after now."""
    monkeypatch.setattr(tokens, "now", lambda: utcnow() + timedelta(seconds=seconds))


def _timeouts() -> list[OnlineAction]:
    db.session.expire_all()
    return [
        a
        for a in db.session.scalars(select(OnlineAction).order_by(OnlineAction.id))
        if a.record.get("timeout")
    ]


def test_the_clock_counts_down_and_an_early_request_changes_nothing(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ow, me = _clocked(client)
    url = f"/play/{me.token}"
    page = client.get(url).get_data(as_text=True)
    assert re.search(r'data-move-clock="4[45]"', page), page[:3000]
    assert "Seconds left for your move:" in page
    before = ow.deals()[-1].version
    _late(monkeypatch, 30)
    r = client.post(url + "/clock", headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert ow.deals()[-1].version == before and _timeouts() == []
    assert "Your time ran out" not in r.get_data(as_text=True)


def test_a_seat_out_of_time_gets_a_bot_move_marked_in_log_and_replay(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ow, me = _clocked(client)
    url = f"/play/{me.token}"
    _late(monkeypatch, 46)
    r = client.post(url + "/clock", headers={"HX-Request": "true"})
    assert r.status_code == 200
    first = _timeouts()
    assert len(first) == 1 and first[0].record["seat"] == 0
    assert first[0].actor == "clock, seat 0"
    assert "Your time ran out: a bot made your move for you." in r.get_data(as_text=True)
    # the seat lets every move run out: the deal is played to its end by the clock
    for _ in range(200):
        if ow.deals()[-1].outcome is not None:
            break
        client.post(url + "/clock")
    deal = ow.deals()[-1]
    assert deal.outcome == "played"
    plays = [a for a in _timeouts() if a.record["kind"] == "play"]
    assert plays, "the clock played cards for the seat"
    r = client.get(f"{url}/replays/{deal.number}?trick=1")
    assert r.status_code == 200
    assert "time ran out: played by a bot" in r.get_data(as_text=True)


def test_a_late_move_is_not_played_the_bot_moves_and_the_player_is_told(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ow, me = _clocked(client)
    url = f"/play/{me.token}"
    page = client.get(url).get_data(as_text=True)
    offered = moves(page)
    kind = "continue" if "continue" in offered else sorted(offered)[0]
    _late(monkeypatch, 60)
    r = client.post(url, data=form(page_token(page), kind), headers={"HX-Request": "true"})
    assert r.status_code == 409
    assert "Your time ran out: a bot made this move for you." in r.get_data(as_text=True)
    got = _timeouts()
    assert len(got) == 1 and got[0].record["seat"] == 0
    assert not [
        a for a in db.session.scalars(select(OnlineAction).where(OnlineAction.actor == "seat 0"))
    ], "the late move itself was not played"


def test_a_paused_table_has_no_clock_running(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ow, me = _clocked(client)
    r = ow.director.post(ow.table_url + "/pause", data={"paused": "1"})
    assert r.status_code == 303
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and tab.paused
    page = client.get(f"/play/{me.token}").get_data(as_text=True)
    assert "data-move-clock" not in page
    _late(monkeypatch, 600)
    client.post(f"/play/{me.token}/clock")
    assert _timeouts() == []
