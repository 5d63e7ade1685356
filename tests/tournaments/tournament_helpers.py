"""Helpers for the tournament tests: a club with an owner, a director, a player and an outsider,
and tournaments created through the app's own routes and services."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Club, Member, Round, Table, Tournament, User
from tests.conftest import _login, _make_club, _make_member, _make_user


@dataclass
class World:
    club: Club
    owner: User
    director: User
    player: User
    outsider: User  # a director of another club
    other_club: Club


def world() -> World:
    owner = _make_user("owner", "Olga Owner")
    director = _make_user("director", "Dora Director")
    player = _make_user("player", "Pete Player")
    outsider = _make_user("outsider", "Otto Outsider")
    club = _make_club(owner=owner, name="Test Club")
    _make_member(club, "Dora Director", role="director", user=director)
    _make_member(club, "Pete Player", role="player", user=player)
    other = _make_club(owner=outsider, name="Other Club")
    return World(club, owner, director, player, outsider, other)


def login(client: FlaskClient, user: User) -> None:
    _login(client, user)


# each variant's options as the set-up form shows them (its defaults)
SETUP_OPTIONS: dict[str, dict[str, str]] = {
    "tractor-4p": {
        "opt_decks": "2",
        "opt_triple_tractors": "true",
        "opt_kitty_multiplier": "by_shape",
        "opt_throw_penalty": "ten_per_attempt",
        "opt_no_call_trump": "kitty",
        "opt_redeal_below": "15",
        "opt_must_play_levels": "A",
    },
    "red-five-5p": {
        "opt_triple_tractors": "true",
        "opt_kitty_multiplier": "by_shape",
        "opt_score_table": "units60",
    },
    "one-twenty-6p": {
        "opt_triple_tractors": "true",
        "opt_kitty_multiplier": "double",
        "opt_refuse_below": "20",
        "opt_must_play_levels": "A",
    },
    "climbing": {
        "opt_players": "4",
        "opt_decks": "1",
        "opt_tribute": "true",
        "opt_place_points": "",
    },
    # 打百分: the club night's options (a bool option is sent only when true)
    "hundred-4p": {"opt_friend": "hidden", "opt_stakes": "bid"},
    "forty-4p": {},
    "hundred-3p": {"opt_stakes": "bid"},
}


def setup_form(**fields: Any) -> dict[str, Any]:
    """The set-up form as a director posts it untouched: a Swiss of 3 rounds, matches of 2
    deals, 2/1/0 points and the variant's default options; ``fields`` change or add to it."""
    data: dict[str, Any] = {
        "name": "Spring Cup",
        "variant": "tractor-4p",
        "pairing": "swiss",
        "rounds": 3,
        "match_kind": "deals",
        "match_value": 2,
        "win": 2,
        "draw": 1,
        "loss": 0,
        "forfeit_level_diff": 3,
    }
    data.update(fields)
    data.setdefault("options_variant", data["variant"])
    for k, v in SETUP_OPTIONS[data["variant"]].items():
        data.setdefault(k, v)
    return data


def create(client: FlaskClient, club: Club, **fields: Any) -> Tournament:
    data = setup_form(**fields)
    r = client.post(f"/clubs/{club.slug}/tournaments/new", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    tid = int(re.search(r"/tournaments/(\d+)", r.headers["Location"]).group(1))  # type: ignore[union-attr]
    t = db.session.get(Tournament, tid)
    assert t is not None
    return t


def add_entrants(client: FlaskClient, club: Club, t: Tournament, n: int, size: int) -> list[str]:
    names = []
    for i in range(n):
        players = {f"player_{j}": f"P{i:02d}{'abc'[j]}" for j in range(size)}
        r = client.post(f"/clubs/{club.slug}/tournaments/{t.id}/entrants", data=players)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        names.append(" & ".join(players.values()))
    return names


def seat(client: FlaskClient, club: Club, t: Tournament) -> Round:
    r = client.post(f"/clubs/{club.slug}/tournaments/{t.id}/rounds")
    assert r.status_code == 303
    db.session.expire_all()
    rnd = db.session.scalar(
        select(Round).where(Round.tournament_id == t.id).order_by(Round.number.desc())
    )
    assert rnd is not None, "round not seated"
    return rnd


def sheet_url(club: Club, t: Tournament, rnd: Round, tab: Table) -> str:
    return f"/clubs/{club.slug}/tournaments/{t.id}/rounds/{rnd.number}/tables/{tab.number}"


def fixed_deal(declarer: int, points: int, **extra: Any) -> dict[str, Any]:
    d = {"declarer": declarer, "trump": "S", "points": points, "kitty": 0, "multiplier": 0}
    d.update(extra)
    return d


def member(club: Club, name: str) -> Member | None:
    return db.session.scalar(
        select(Member).where(Member.club_id == club.id, Member.display_name == name)
    )


def actor(user: User, role: str = "director"):  # type: ignore[no-untyped-def]
    from app.services.tournaments.audit import Actor

    return Actor(label=user.display_name, user=user, owner=role == "owner", director=True)


def play_round_out(t: Tournament, rnd: Round, user: User, seed: int = 0) -> None:
    """Enter complete matches at every table of a round (through the service) and close it."""
    import random

    from flask import current_app

    from app.competition.model import Deal as CDeal
    from app.services.tournaments.rounds import close_round
    from app.services.tournaments.sheets import record_deal, sheet

    rng = random.Random(seed + rnd.number)
    a = actor(user)
    with current_app.test_request_context():
        for tab in rnd.tables:
            if tab.kind == "bye":
                continue
            n = t.match.get("deals", 2)
            for _ in range(n):
                derived = sheet(t, tab)
                if derived.counts:
                    break
                if tab.kind == "sides":
                    dec = derived.next_declarer if derived.rows else 0  # type: ignore[union-attr]
                    d = CDeal(points=5 * rng.randrange(0, 40), kitty=0, trump="S", declarer=dec)
                else:
                    d = CDeal(
                        points=5 * rng.randrange(0, 40),
                        kitty=0,
                        trump="S",
                        dealer=0,
                        friend=rng.choice([None, 1, 2]),
                    )
                record_deal(t, tab, d, a)
        close_round(t, rnd, a)
        db.session.commit()


def audit_rows(html: str) -> list[list[str]]:
    """An audit page's rows as their cells' text: when, who, what, from, to."""
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S)
    assert body, "no audit table"
    out = []
    for tr in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        out.append([unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
    return out
