"""Clubs: creating, members by name, roles, removal, invitations; bad input never half-saves."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.models import Club, Invite, Member, utcnow
from tests.forms import form_fields


def _count(model) -> int:
    return db.session.scalar(select(func.count(model.id))) or 0


@pytest.fixture
def owner_client(app, make_user, make_club, login):
    owner = make_user("olga", "Olga")
    club = make_club(owner=owner, name="Tuesday Club")
    client = app.test_client()
    login(client, owner)
    return client, club, owner


def test_create_club_makes_creator_owner(app, client, make_user, login):
    user = make_user("paul", "Paul")
    login(client, user)
    response = client.post("/clubs/new", data={"name": "  Paul's   升级 Club "})
    assert response.status_code == 302
    club = db.session.scalar(select(Club))
    assert club is not None and club.name == "Paul's 升级 Club"
    assert club.slug == "paul-s-club"
    member = db.session.scalar(select(Member))
    assert member is not None and member.role == "owner" and member.user_id == user.id
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Paul&#39;s 升级 Club" in page
    assert "Paul&#39;s 升级 Club" in client.get("/").get_data(as_text=True)


def test_chinese_only_club_name_gets_a_usable_slug(client, make_user, login):
    login(client, make_user("qin"))
    client.post("/clubs/new", data={"name": "红五俱乐部"})
    client.post("/clubs/new", data={"name": "升级俱乐部"})
    slugs = sorted(db.session.scalars(select(Club.slug)))
    assert slugs == ["club", "club-2"]
    assert client.get("/clubs/club-2").status_code == 200


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Please fill this in."),
        ("x" * 81, "At most 80 characters, please."),
        ("Zero\u200bWidth", "invisible control characters"),
    ],
)
def test_create_club_bad_input(client, make_user, login, name, message):
    login(client, make_user("rita"))
    response = client.post("/clubs/new", data={"name": name})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert _count(Club) == 0 and _count(Member) == 0


def test_create_club_duplicate_name_case_insensitive(owner_client):
    client, _club, _owner = owner_client
    response = client.post("/clubs/new", data={"name": "TUESDAY club"})
    assert response.status_code == 422
    assert "A club with this name already exists." in response.get_data(as_text=True)
    assert _count(Club) == 1 and _count(Member) == 1


def test_add_member_by_name_and_errors_on_field(owner_client):
    client, club, _owner = owner_client
    url = f"/clubs/{club.slug}/members"
    assert client.post(url, data={"display_name": "王伟", "role": "player"}).status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert "王伟" in page and "no account" in page
    for data, message in [
        ({"display_name": "王伟", "role": "player"}, "already has this name"),
        ({"display_name": "", "role": "player"}, "Please fill this in."),
        ({"display_name": "Owner Wannabe", "role": "owner"}, "Not a valid choice"),
    ]:
        response = client.post(url, data=data)
        assert response.status_code == 422
        body = response.get_data(as_text=True)
        assert message in body
        assert re.search(r'class="field has-error"', body)
    assert _count(Member) == 2


def test_add_member_with_htmx_returns_partial(owner_client):
    client, club, _owner = owner_client
    url = f"/clubs/{club.slug}/members"
    response = client.post(
        url, data={"display_name": "张敏", "role": "director"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="members">')
    assert "<html" not in body and "张敏" in body
    bad = client.post(url, data={"display_name": "张敏"}, headers={"HX-Request": "true"})
    assert bad.status_code == 200  # htmx swaps only 2xx: the error is shown on the field
    assert "already has this name" in bad.get_data(as_text=True)


def test_change_role_and_last_owner_protection(owner_client, make_member, make_user):
    client, club, owner = owner_client
    me = db.session.scalar(select(Member).where(Member.user_id == owner.id))
    assert me is not None
    base = f"/clubs/{club.slug}/members"
    bob = make_member(club, "Bob")
    client.post(f"{base}/{bob.id}/role", data={"role": "director"})
    db.session.refresh(bob)
    assert bob.role == "director"
    # A member without account cannot own the club.
    response = client.post(f"{base}/{bob.id}/role", data={"role": "owner"}, follow_redirects=True)
    assert "Only a member with an account can be an owner." in response.get_data(as_text=True)
    # The only owner cannot step down or be removed.
    response = client.post(f"{base}/{me.id}/role", data={"role": "player"}, follow_redirects=True)
    assert "A club needs at least one owner." in response.get_data(as_text=True)
    response = client.post(f"{base}/{me.id}/remove", follow_redirects=True)
    assert "A club needs at least one owner." in response.get_data(as_text=True)
    db.session.refresh(me)
    assert me.role == "owner"
    # Unknown role value.
    response = client.post(f"{base}/{bob.id}/role", data={"role": "king"}, follow_redirects=True)
    assert "Unknown role." in response.get_data(as_text=True)
    db.session.refresh(bob)
    assert bob.role == "director"
    # With a second owner, the first may step down.
    carl = make_user("carl")
    second = make_member(club, "Carl", role="player", user=carl)
    client.post(f"{base}/{second.id}/role", data={"role": "owner"})
    client.post(f"{base}/{me.id}/role", data={"role": "director"})
    db.session.refresh(me)
    assert me.role == "director"


def test_remove_member(owner_client, make_member):
    client, club, _owner = owner_client
    gone_id = make_member(club, "Gone Soon").id
    page = client.get(f"/clubs/{club.slug}/members").get_data(as_text=True)
    fields = form_fields(page, action=f"/members/{gone_id}/remove")
    response = client.post(f"/clubs/{club.slug}/members/{gone_id}/remove", data=fields)
    assert response.status_code == 303
    gone = db.session.get(Member, gone_id)
    assert gone is not None and gone.deleted_at is not None  # restorable: test_app_member_removal
    assert client.post(f"/clubs/{club.slug}/members/{gone_id}/remove").status_code == 404
    # a second removal from the page (an older page, another owner) is told so, not a bare 404
    again = client.post(
        f"/clubs/{club.slug}/members/{gone_id}/remove", data=fields, follow_redirects=True
    )
    assert "This member was removed from the club since you opened this page" in again.get_data(
        as_text=True
    )


def _make_link(client, club, **data) -> str:
    response = client.post(f"/clubs/{club.slug}/invites", data={"role": "player", **data})
    assert response.status_code == 200
    match = re.search(r'value="(http://localhost/invite/[^"]+)"', response.get_data(as_text=True))
    assert match, response.get_data(as_text=True)
    return match.group(1).removeprefix("http://localhost")


def test_invite_join_as_new_member(app, owner_client, make_user, login):
    client, club, _owner = owner_client
    link = _make_link(client, club, role="director")
    assert db.session.scalar(select(Invite.token_hash)) not in link  # only the hash is stored
    newcomer = app.test_client()
    page = newcomer.get(link)
    assert page.status_code == 200 and "Tuesday Club" in page.get_data(as_text=True)
    login(newcomer, make_user("nina", "Nina"))
    response = newcomer.post(link, data={"claim_member_id": "0", "display_name": "Nina L."})
    assert response.status_code == 302
    member = db.session.scalar(select(Member).where(Member.display_name == "Nina L."))
    assert member is not None and member.role == "director" and member.user_id is not None
    # A general link can be used again by someone else, but not twice by the same person.
    again = newcomer.get(link, follow_redirects=True)
    assert "already a member" in again.get_data(as_text=True)


def test_invite_claims_member_record(app, owner_client, make_member, make_user, login):
    client, club, _owner = owner_client
    wang = make_member(club, "王伟", role="director")
    link = _make_link(client, club, member_id=str(wang.id))
    claimer = app.test_client()
    user = make_user("wangwei", "Wang Wei")
    login(claimer, user)
    page = claimer.get(link).get_data(as_text=True)
    assert "王伟" in page
    assert claimer.post(link, data={}).status_code == 302
    db.session.refresh(wang)
    assert wang.user_id == user.id and wang.role == "director"
    # Single use: the link is dead now.
    late = app.test_client()
    login(late, make_user("late"))
    dead = late.get(link)
    assert dead.status_code == 404
    assert "not valid" in dead.get_data(as_text=True)


def test_general_invite_can_claim_unclaimed_name_only(
    app, owner_client, make_member, make_user, login
):
    client, club, _owner = owner_client
    free = make_member(club, "Free Name")
    taken_user = make_user("taken")
    taken = make_member(club, "Taken Name", user=taken_user)
    link = _make_link(client, club)
    joiner = app.test_client()
    user = make_user("joiner")
    login(joiner, user)
    page = joiner.get(link).get_data(as_text=True)
    assert "Free Name" in page and "Taken Name" not in page
    bad = joiner.post(link, data={"claim_member_id": str(taken.id)})
    assert bad.status_code == 422
    db.session.refresh(taken)
    assert taken.user_id == taken_user.id
    ok = joiner.post(link, data={"claim_member_id": str(free.id)})
    assert ok.status_code == 302
    db.session.refresh(free)
    assert free.user_id == user.id


def test_invite_new_member_name_clash_and_blank(app, owner_client, make_member, make_user, login):
    client, club, _owner = owner_client
    make_member(club, "Dup")
    link = _make_link(client, club)
    joiner = app.test_client()
    login(joiner, make_user("dupe"))
    before = _count(Member)
    response = joiner.post(link, data={"claim_member_id": "0", "display_name": "dup"})
    assert response.status_code == 422
    assert "already has this name" in response.get_data(as_text=True)
    assert _count(Member) == before


def test_invite_expired_revoked_or_unknown(app, owner_client, make_user, login):
    client, club, _owner = owner_client
    link = _make_link(client, club)
    invite = db.session.scalar(select(Invite))
    assert invite is not None
    visitor = app.test_client()
    login(visitor, make_user("vic"))
    invite.expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    assert visitor.get(link).status_code == 404
    invite.expires_at = utcnow() + timedelta(days=1)
    db.session.commit()
    assert visitor.get(link).status_code == 200
    client.post(f"/clubs/{club.slug}/invites/{invite.id}/revoke")
    assert visitor.get(link).status_code == 404
    assert visitor.post(link, data={"claim_member_id": "0"}).status_code == 404
    assert visitor.get("/invite/made-up-token").status_code == 404
    assert visitor.get("/invite/" + "x" * 500).status_code == 404


def test_invite_page_for_anonymous_offers_login_with_next(app, owner_client):
    client, club, _owner = owner_client
    link = _make_link(client, club)
    page = app.test_client().get(link).get_data(as_text=True)
    assert "Log in or create an account" in page
    assert "next=" in page


def test_members_page_visible_to_players_without_controls(
    app, owner_client, make_user, make_member, login
):
    _client, club, _owner = owner_client
    user = make_user("plain")
    make_member(club, "Plain", user=user)
    client = app.test_client()
    login(client, user)
    page = client.get(f"/clubs/{club.slug}/members").get_data(as_text=True)
    assert "Olga" in page and "Plain" in page
    assert "Add a member by name" not in page and "/remove" not in page
