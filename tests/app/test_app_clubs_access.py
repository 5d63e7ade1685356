"""Every club route checks the user's role in *that* club; guessed ids reveal nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.models import Club, Invite, Member, User
from app.services.clubs import create_invite


@dataclass
class World:
    club: Club
    other: Club
    users: dict[str, User]
    target: Member  # a member of ``club`` (no account)
    other_member: Member  # a member of ``other``
    invite: Invite
    other_invite: Invite


@pytest.fixture
def world(app, make_user, make_club, make_member) -> World:
    owner = make_user("owner")
    club = make_club(owner=owner, name="Club A")
    users = {"owner": owner}
    for role in ("director", "player"):
        users[role] = make_user(role)
        make_member(club, role.title(), role=role, user=users[role])
    # An owner and a director of *another* club, and a user in no club.
    users["other_owner"] = make_user("other_owner")
    other = make_club(owner=users["other_owner"], name="Club B")
    users["other_director"] = make_user("other_director")
    make_member(other, "B Director", role="director", user=users["other_director"])
    users["outsider"] = make_user("outsider")
    target = make_member(club, "Target")
    other_member = make_member(other, "B Player")
    invite, _token = create_invite(club, owner, "player")
    other_invite, _token = create_invite(other, users["other_owner"], "player")
    db.session.commit()
    return World(club, other, users, target, other_member, invite, other_invite)


def routes(w: World) -> list[tuple[str, str, dict, str]]:
    """(method, url, form data, minimum role)."""
    s = w.club.slug
    return [
        ("GET", f"/clubs/{s}", {}, "player"),
        ("GET", f"/clubs/{s}/members", {}, "player"),
        ("POST", f"/clubs/{s}/members", {"display_name": "New Person", "role": "player"}, "owner"),
        ("POST", f"/clubs/{s}/members/{w.target.id}/role", {"role": "director"}, "owner"),
        ("POST", f"/clubs/{s}/members/{w.target.id}/remove", {}, "owner"),
        ("GET", f"/clubs/{s}/invites", {}, "owner"),
        ("POST", f"/clubs/{s}/invites", {"role": "player", "member_id": "0"}, "owner"),
        ("POST", f"/clubs/{s}/invites/{w.invite.id}/revoke", {}, "owner"),
    ]


RANK = {"player": 0, "director": 1, "owner": 2}


def _call(client, method, url, data):
    return client.post(url, data=data) if method == "POST" else client.get(url)


def _snapshot():
    return (
        db.session.scalar(select(func.count(Member.id))),
        tuple(db.session.scalars(select(Member.role).order_by(Member.id))),
        tuple(db.session.scalars(select(Invite.revoked).order_by(Invite.id))),
        db.session.scalar(select(func.count(Invite.id))),
    )


def _strip_tokens(page: str, slug: str) -> str:
    page = re.sub(r'value="[^"]*"', 'value=""', page)
    page = re.sub(r'"X-CSRFToken": "[^"]*"', "", page)
    return page.replace(slug, "SLUG")


def test_anonymous_is_sent_to_login_for_every_route(world, client):
    for method, url, data, _role in routes(world):
        response = _call(client, method, url, data)
        assert response.status_code == 302, (method, url)
        assert "/account/login" in response.headers["Location"]
    # Also for a club that does not exist: no difference.
    response = client.get("/clubs/no-such-club")
    assert response.status_code == 302


@pytest.mark.parametrize("who", ["outsider", "other_owner", "other_director"])
def test_non_members_get_404_and_change_nothing(world, app, login, who):
    client = app.test_client()
    login(client, world.users[who])
    before = _snapshot()
    for method, url, data, _role in routes(world):
        response = _call(client, method, url, data)
        assert response.status_code == 404, (who, method, url)
    assert _snapshot() == before


@pytest.mark.parametrize("who", ["player", "director"])
def test_weaker_roles_get_403_for_owner_routes(world, app, login, who):
    client = app.test_client()
    login(client, world.users[who])
    before = _snapshot()
    for method, url, data, role in routes(world):
        response = _call(client, method, url, data)
        if RANK[who] >= RANK[role]:
            assert response.status_code == 200, (who, method, url)
        else:
            assert response.status_code == 403, (who, method, url)
    assert _snapshot() == before


def test_owner_can_use_every_route(world, app, login):
    client = app.test_client()
    login(client, world.users["owner"])
    for method, url, data, _role in routes(world):
        response = _call(client, method, url, data)
        assert response.status_code in (200, 302, 303), (method, url, response.status_code)


def test_guessed_ids_of_another_club_are_404(world, app, login):
    """Owner of club A addresses club B's member and invite through club A's URLs."""
    client = app.test_client()
    login(client, world.users["owner"])
    s = world.club.slug
    before = _snapshot()
    for url, data in [
        (f"/clubs/{s}/members/{world.other_member.id}/role", {"role": "owner"}),
        (f"/clubs/{s}/members/{world.other_member.id}/remove", {}),
        (f"/clubs/{s}/members/999999/remove", {}),
        (f"/clubs/{s}/invites/{world.other_invite.id}/revoke", {}),
    ]:
        assert client.post(url, data=data).status_code == 404, url
    # Not one of this club's members: refused as an invalid choice, nothing made.
    response = client.post(
        f"/clubs/{s}/invites", data={"role": "player", "member_id": str(world.other_member.id)}
    )
    assert response.status_code in (404, 422)
    assert "B Player" not in response.get_data(as_text=True)
    assert _snapshot() == before
    # And club B's pages under its own slug.
    assert client.get(f"/clubs/{world.other.slug}").status_code == 404
    assert client.get(f"/clubs/{world.other.slug}/members").status_code == 404


def test_private_club_page_is_indistinguishable_from_missing(world, app, login):
    client = app.test_client()
    login(client, world.users["outsider"])
    real = client.get(f"/clubs/{world.club.slug}")
    missing = client.get("/clubs/does-not-exist")
    assert real.status_code == missing.status_code == 404
    assert _strip_tokens(real.get_data(as_text=True), world.club.slug) == _strip_tokens(
        missing.get_data(as_text=True), "does-not-exist"
    )
    assert "Club A" not in real.get_data(as_text=True)
