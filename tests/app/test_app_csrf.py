"""CSRF is enforced on every form and on htmx requests (token in a header)."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from app.extensions import db
from app.models import Club, Member
from tests.conftest import DEFAULT_PASSWORD


def _token(page: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page
    )
    assert match, page
    return match.group(1)


def test_login_without_token_is_refused(csrf_client, make_user):
    user = make_user("zed")
    response = csrf_client.post(
        "/account/login", data={"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 400
    assert "Form expired" in response.get_data(as_text=True)
    token = _token(csrf_client.get("/account/login").get_data(as_text=True))
    ok = csrf_client.post(
        "/account/login",
        data={"username": user.username, "password": DEFAULT_PASSWORD, "csrf_token": token},
    )
    assert ok.status_code == 302


def test_every_post_route_needs_the_token(csrf_client, make_user, make_club, make_member):
    owner = make_user("own")
    club = make_club(owner=owner, name="Csrf Club")
    target = make_member(club, "Target")
    page = csrf_client.get("/account/login").get_data(as_text=True)
    csrf_client.post(
        "/account/login",
        data={"username": "own", "password": DEFAULT_PASSWORD, "csrf_token": _token(page)},
    )
    s = club.slug
    for url, data in [
        ("/clubs/new", {"name": "Another"}),
        (f"/clubs/{s}/members", {"display_name": "X"}),
        (f"/clubs/{s}/members/{target.id}/role", {"role": "director"}),
        (f"/clubs/{s}/members/{target.id}/remove", {}),
        (f"/clubs/{s}/invites", {"role": "player", "member_id": "0"}),
        ("/account/password", {"current_password": DEFAULT_PASSWORD}),
        ("/account/logout", {}),
        ("/lang", {"lang": "zh"}),
        ("/account/register", {"username": "newbie"}),
    ]:
        assert csrf_client.post(url, data=data).status_code == 400, url
    assert db.session.scalar(select(func.count(Club.id))) == 1
    assert db.session.scalar(select(func.count(Member.id))) == 2


def test_htmx_request_with_header_token(csrf_client, make_user, make_club):
    owner = make_user("hx")
    club = make_club(owner=owner, name="Hx Club")
    page = csrf_client.get("/account/login").get_data(as_text=True)
    csrf_client.post(
        "/account/login",
        data={"username": "hx", "password": DEFAULT_PASSWORD, "csrf_token": _token(page)},
    )
    members_page = csrf_client.get(f"/clubs/{club.slug}/members").get_data(as_text=True)
    header = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', members_page)
    assert header, "the layout must carry the token for htmx"
    url = f"/clubs/{club.slug}/members"
    data = {"display_name": "Via Htmx", "role": "player"}
    refused = csrf_client.post(url, data=data, headers={"HX-Request": "true"})
    assert refused.status_code == 400
    ok = csrf_client.post(
        url, data=data, headers={"HX-Request": "true", "X-CSRFToken": header.group(1)}
    )
    assert ok.status_code == 200 and "Via Htmx" in ok.get_data(as_text=True)
