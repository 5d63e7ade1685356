"""Two clubs with every kind of object, built through the app's own routes, for the security
tests: club A (owner, director, player) and club B (owner, director), a user in no club.

Each club has a tournament with four pair entrants, round 1 seated, one deal at table 1, an
account-less member and an invitation; and a second tournament whose one table is played online
by bots to its end, its round closed (so its deals can be replayed by the club's members). ``snapshot()`` (``db_snapshot.py``) reads every row of every table (but the
login attempts and sessions) so a test can prove that a refused request changed nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from flask import Flask, current_app
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import (
    Club,
    Invite,
    Member,
    OnlineDeal,
    OnlineSeat,
    Round,
    Season,
    Table,
    Tournament,
    User,
)
from app.services.clubs import create_invite
from app.services.duplicate.events import board_sheet, create_event, pair_next_round, save_board
from app.services.seasons.manage import add_division, create_season, set_night
from app.services.visibility import set_visibility
from tests.conftest import _login, _make_club, _make_member, _make_user
from tests.security import world_copy
from tests.security.db_snapshot import snapshot  # noqa: F401  (the tests import it here)
from tests.tournaments.tournament_helpers import add_entrants, create, fixed_deal, seat


@dataclass
class ClubObjects:
    club: Club
    tournament: Tournament
    round: Round
    table: Table  # table 1 of round 1, a match with one deal recorded
    other_table: Table  # table 2 of round 1, no deal
    entrants: list[int]
    member: Member  # without an account
    invite: Invite
    invite_token: str
    seat_token: str  # seat 0's link at the online table of a second tournament
    season: Season  # a season with the tournament as its night
    bound_seat: int  # the id of seat 1 there, bound to the club's owner (their member route)
    online_deal: int  # the id of that table's first (finished) deal
    # the id of a duplicate event: a Swiss of 3 teams, both rounds paired and played (board 1
    # at tables 1 and 2 of round 1, board 2 of round 2)
    duplicate: int

    def params(self) -> dict[str, Any]:
        """URL arguments naming this club's objects (``kind`` for the PDFs, ``i`` a deal)."""
        return {
            "slug": self.club.slug,
            "tid": self.tournament.id,
            "n": self.round.number,
            "tno": self.table.number,
            "i": 1,
            "eid": self.entrants[0],
            "member_id": self.member.id,
            "invite_id": self.invite.id,
            "kind": "pack",
            "code": self.table.code,
            "token": self.invite_token,
            "seat_token": self.seat_token,
            "seat_id": self.bound_seat,
            "deal_id": self.online_deal,
            "number": 1,
            "filename": "style.css",
            "digest": _digest("style.css"),
            "sid": self.season.id,
            "division_id": self.season.divisions[0].id,
            "did": self.duplicate,
            "board": 1,
            "rnd": 1,
            "link": self.tournament.public_token,
            "season_link": self.season.public_token,
        }


@dataclass
class SecurityWorld:
    users: dict[str, User]  # a_owner a_director a_player b_owner b_director stranger
    a: ClubObjects
    b: ClubObjects


def _club_objects(
    client: FlaskClient, owner: User, director: User, name: str, tname: str
) -> ClubObjects:
    club = _make_club(owner=owner, name=name)
    _make_member(club, f"{name} Director", role="director", user=director)
    _login(client, director)
    t = create(client, club, name=tname)
    names = add_entrants(client, club, t, 4, 2)
    rnd = seat(client, club, t)
    tables = sorted((tab for tab in rnd.tables if tab.kind == "sides"), key=lambda x: x.number)
    url = f"/clubs/{club.slug}/tournaments/{t.id}/rounds/{rnd.number}/tables/{tables[0].number}"
    r = client.post(url, data=fixed_deal(0, 60))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    seat_token, bound_seat, online_deal = _online_seat(client, club, f"{tname} Online", owner)
    client.post("/account/logout")
    member = _make_member(club, f"{name} Guest")
    invite, token = create_invite(club, owner, "player")
    db.session.commit()
    db.session.expire_all()
    entrants = [e.id for e in t.entrants]
    assert len(entrants) == len(names) == 4
    with current_app.test_request_context():
        season = create_season(club, f"{name} League")
        set_night(t, season)
        add_division(season, "甲级")  # two divisions: one can move down, one up
        add_division(season, "乙级")
        ev = create_event(
            club, owner, f"{tname} Teams", "tractor-4p", "teams", "T1\nT2\nT3", 1, 5, 2, "swiss"
        )
        for board in (1, 2):  # every board played: the published hand records exist
            if board == 2:
                pair_next_round(ev, owner, "Owner")
            form = {}
            for row in board_sheet(ev, board):
                form[f"{row.key}_declarer"], form[f"{row.key}_total"] = "0", "40"
            save_board(ev, board, form)
        duplicate = ev.id
        # both public, so their links (/p/<link>, /league/<season_link>) open; the id pages
        # stay the club's
        set_visibility(t, "public")
        set_visibility(season, "public")
    db.session.commit()
    return ClubObjects(
        club,
        t,
        rnd,
        tables[0],
        tables[1],
        entrants,
        member,
        invite,
        token,
        seat_token,
        season,
        bound_seat,
        online_deal,
        duplicate,
    )


def _digest(filename: str) -> str:
    import hashlib
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "static" / filename
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _online_seat(client: FlaskClient, club: Club, tname: str, owner: User) -> tuple[str, int, int]:
    """A second tournament whose one table is played online: seat 1 bound to the club's owner
    (their member route), then bots play the match to its end (seat 0 handed back to its
    player) and the round is closed. Seat 0's link, seat 1's id and the first deal's id."""
    t = create(client, club, name=tname)
    add_entrants(client, club, t, 2, 2)
    rnd = seat(client, club, t)
    tab = rnd.tables[0]
    url = f"/clubs/{club.slug}/tournaments/{t.id}/rounds/1/tables/{tab.number}/online"
    r = client.post(url)
    assert r.status_code == 303
    owner_member = db.session.scalar(
        select(Member.id).where(Member.club_id == club.id, Member.user_id == owner.id)
    )
    assert (
        client.post(url + "/seats", data={"seat": "1", "member": owner_member}).status_code == 303
    )
    for s, bot in ((0, "1"), (1, "1"), (2, "1"), (3, "1"), (0, "0")):
        assert client.post(url + "/bots", data={"seat": str(s), "bot": bot}).status_code == 303
    assert client.post(f"/clubs/{club.slug}/tournaments/{t.id}/rounds/1/close").status_code == 303
    token = db.session.scalar(
        select(OnlineSeat.token).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 0)
    )
    assert token
    deal = db.session.scalar(
        select(OnlineDeal.id).where(OnlineDeal.table_id == tab.id, OnlineDeal.number == 1)
    )
    assert deal
    bound = db.session.scalar(
        select(OnlineSeat).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 1)
    )
    assert bound is not None and bound.member_id is not None
    return token, bound.id, deal


def build_world(app: Flask) -> SecurityWorld:
    """The two clubs in ``app``'s database. Built through the routes once per test process and
    database kind (some 1.5 s: two tournaments, a match played online by bots, a duplicate
    event); every later test gets the same rows copied in whole (``world_copy``) and the same
    objects read back by id, so each test still starts from its own untouched world."""
    kind = db.engine.dialect.name
    saved = _SAVED.get(kind)
    if saved is not None:
        world_copy.restore(saved[0])
        return _reload(saved[1])
    world = _build(app)
    _SAVED[kind] = (world_copy.save(), _ids(world))
    return world


# database kind -> (the world's rows as saved, the ids and tokens of its objects)
_SAVED: dict[str, tuple[Any, dict[str, Any]]] = {}
_MODELS: dict[str, type[Any]] = {
    "club": Club,
    "tournament": Tournament,
    "round": Round,
    "table": Table,
    "other_table": Table,
    "member": Member,
    "invite": Invite,
    "season": Season,
}


def _ids(world: SecurityWorld) -> dict[str, Any]:
    def objects(c: ClubObjects) -> dict[str, Any]:
        out = {f.name: getattr(c, f.name) for f in fields(c)}
        return {k: v.id if k in _MODELS else v for k, v in out.items()}

    users = {name: u.id for name, u in world.users.items()}
    return {"users": users, "a": objects(world.a), "b": objects(world.b)}


def _reload(ids: dict[str, Any]) -> SecurityWorld:
    def get(model: type[Any], ident: int) -> Any:
        got = db.session.get(model, ident)
        assert got is not None, (model, ident)
        return got

    def objects(d: dict[str, Any]) -> ClubObjects:
        return ClubObjects(**{k: get(_MODELS[k], v) if k in _MODELS else v for k, v in d.items()})

    users = {name: get(User, ident) for name, ident in ids["users"].items()}
    return SecurityWorld(users, objects(ids["a"]), objects(ids["b"]))


def _build(app: Flask) -> SecurityWorld:
    users = {
        name: _make_user(name, display)
        for name, display in [
            ("a_owner", "Ann Owner"),
            ("a_director", "Abe Director"),
            ("a_player", "Amy Player"),
            ("b_owner", "Bob Owner"),
            ("b_director", "Bea Director"),
            ("stranger", "Sam Stranger"),
        ]
    }
    client = app.test_client()
    a = _club_objects(client, users["a_owner"], users["a_director"], "Club A", "Alpha Cup")
    _make_member(a.club, "Amy Player", role="player", user=users["a_player"])
    b = _club_objects(client, users["b_owner"], users["b_director"], "Club B", "Beta Cup")
    return SecurityWorld(users, a, b)


def logged_in(app: Flask, user: User | None) -> FlaskClient:
    client = app.test_client()
    if user is not None:
        _login(client, user)
    return client
