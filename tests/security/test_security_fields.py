"""Extra form fields: a request that adds fields the form does not have (``role``, ``club_id``,
``owner_id``, ``is_admin``, ``source``, ``index`` …) or sends a value outside a field's
choices gets nothing more than the form grants. A refused value changes no row; an accepted
request changes exactly the rows it is for, with the values the form allows (each test
compares every table before and after)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import select

from app.extensions import db
from app.models import Club, Deal, Member, Tournament, User
from app.services.clubs import create_invite
from tests.conftest import DEFAULT_PASSWORD
from tests.security.db_snapshot import changes, snapshot, unchanged
from tests.security.security_world import logged_in
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    fixed_deal,
    seat,
    sheet_url,
    world,
)

SNEAKY: dict[str, Any] = {
    "role": "owner",
    "is_admin": "1",
    "admin": "true",
    "id": "1",
    "user_id": "1",
    "owner_id": "1",
    "club_id": "2",
    "club": "other-club",
    "slug": "other-club",
}


def _tables(diff: dict[str, Any]) -> set[str]:
    return set(diff) - {"audit_entries"}


def test_registration_takes_no_role_nor_club(app: Flask) -> None:
    w = world()
    before = snapshot()
    r = app.test_client().post(
        "/account/register",
        data={
            "username": "mallory",
            "display_name": "Mallory",
            "password": DEFAULT_PASSWORD,
            "confirm": DEFAULT_PASSWORD,
            **SNEAKY,
        },
    )
    assert r.status_code == 302
    diff = changes(before)
    assert _tables(diff) == {"users"}, diff  # no membership, no club
    (_removed, added) = diff["users"]
    assert len(added) == 1 and not _removed
    user = db.session.scalar(select(User).where(User.username == "mallory"))
    assert user is not None and user.id not in (w.owner.id, w.director.id)


def test_a_new_club_is_owned_by_its_creator_under_a_new_address(app: Flask) -> None:
    w = world()
    creator = logged_in(app, w.player)
    before = snapshot()
    r = creator.post("/clubs/new", data={"name": "Mallory Club", **SNEAKY})
    assert r.status_code in (302, 303)
    diff = changes(before)
    assert _tables(diff) == {"clubs", "members"}, diff
    assert not diff["clubs"][0] and not diff["members"][0]  # nothing of another club changed
    club = db.session.scalar(select(Club).where(Club.name == "Mallory Club"))
    assert club is not None and club.slug not in (w.club.slug, w.other_club.slug)
    members = db.session.scalars(select(Member).where(Member.club_id == club.id)).all()
    assert [(m.user_id, m.role) for m in members] == [(w.player.id, "owner")]


def test_roles_outside_the_forms_choices_are_refused(app: Flask) -> None:
    w = world()
    owner = logged_in(app, w.owner)
    members = f"/clubs/{w.club.slug}/members"
    with unchanged():
        for role in ("owner", "admin", "superuser", ""):
            r = owner.post(members, data={"display_name": "Mallory", "role": role})
            assert r.status_code == 422, (role, r.status_code)
            assert "Not a valid choice" in r.get_data(as_text=True)
        r = owner.post(f"/clubs/{w.club.slug}/invites", data={"role": "owner", "member_id": "0"})
        assert r.status_code == 422


def test_an_invitation_grants_its_own_role_whatever_the_form_says(app: Flask) -> None:
    w = world()
    newcomer = db.session.get(User, w.outsider.id)
    assert newcomer is not None
    _invite, token = create_invite(w.club, w.owner, "player")
    db.session.commit()
    client = logged_in(app, w.outsider)
    before = snapshot()
    r = client.post(
        f"/invite/{token}",
        data={"claim_member_id": "0", "display_name": "Otto", "role": "owner", **SNEAKY},
    )
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    diff = changes(before)
    assert _tables(diff) <= {"members", "invites"}, diff
    me = db.session.scalar(
        select(Member).where(Member.club_id == w.club.id, Member.user_id == w.outsider.id)
    )
    assert me is not None and me.role == "player"


def test_a_tournament_is_made_in_the_club_of_its_address(app: Flask) -> None:
    w = world()
    director = logged_in(app, w.director)
    before = snapshot()
    sneaky = {**SNEAKY, "club_id": w.other_club.id, "club_slug": w.other_club.slug}
    sneaky.pop("club")  # ``create``'s own argument; the slug says the same
    t = create(director, w.club, name="Sneaky Cup", **sneaky)
    assert t.club_id == w.club.id
    diff = changes(before)
    assert "clubs" not in diff and "members" not in diff
    others = db.session.scalars(select(Tournament).where(Tournament.club_id == w.other_club.id))
    assert list(others) == []


def test_a_deal_is_recorded_at_its_own_table_as_typed(app: Flask) -> None:
    w = world()
    director = logged_in(app, w.director)
    t = create(director, w.club)
    add_entrants(director, w.club, t, 4, 2)
    rnd = seat(director, w.club, t)
    first, second = sorted((x for x in rnd.tables if x.kind == "sides"), key=lambda x: x.number)
    extra = {"source": "online", "index": "7", "table_id": second.id, "tournament_id": "99"}
    before = snapshot()
    r = director.post(
        sheet_url(w.club, t, rnd, first), data={**fixed_deal(0, 60), "seen": 0, **extra}
    )
    assert r.status_code == 303
    diff = changes(before)
    # the deal, its audit line, the round started and the tournament's version: nothing else
    assert set(diff) <= {"deals", "audit_entries", "tournaments", "rounds"}, diff
    (_gone, added) = diff["deals"]
    assert len(added) == 1 and not _gone
    deal = db.session.scalar(select(Deal))
    assert deal is not None
    assert (deal.table_id, deal.index, deal.source) == (first.id, 0, "paper")
