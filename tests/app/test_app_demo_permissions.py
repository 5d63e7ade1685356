"""Demo data loading (and its hook for other features) and the permission helpers."""

from __future__ import annotations

import pytest
from flask_login import AnonymousUserMixin
from sqlalchemy import func, select
from werkzeug.exceptions import Forbidden, NotFound

from app.demo import DEMO_PASSWORD, DEMO_STEPS, DemoData, database_is_empty, demo_step, load_demo
from app.extensions import db
from app.models import Club, Member, User
from app.permissions import (
    can_direct,
    can_manage,
    can_view,
    get_in_club_or_404,
    has_club_role,
    membership,
)
from app.services import ServiceError


def test_demo_loads_club_with_and_without_accounts_and_runs_steps(app, client, login):
    seen: list[DemoData] = []

    @demo_step
    def record(data: DemoData) -> None:
        seen.append(data)

    try:
        assert database_is_empty()
        data = load_demo()
    finally:
        DEMO_STEPS.remove(record)
    assert data is not None and seen == [data]
    members = list(db.session.scalars(select(Member)))
    assert len(members) == len(data.members) + 1
    assert any(m.user_id is None for m in members) and any(m.role == "director" for m in members)
    assert load_demo(if_empty=True) is None
    with pytest.raises(ServiceError):
        load_demo(if_empty=False)
    owner = db.session.scalar(select(User).where(User.username == "demo"))
    assert owner is not None
    login(client, owner, DEMO_PASSWORD)
    page = client.get(f"/clubs/{data.club.slug}/members").get_data(as_text=True)
    assert "王伟" in page and "Add a member by name" in page


def test_demo_step_that_fails_leaves_nothing(app):
    @demo_step
    def broken(data: DemoData) -> None:
        raise RuntimeError("boom")

    try:
        with pytest.raises(RuntimeError):
            load_demo()
    finally:
        DEMO_STEPS.remove(broken)
    db.session.rollback()
    assert db.session.scalar(select(func.count(Club.id))) == 0
    assert db.session.scalar(select(func.count(User.id))) == 0


def test_role_helpers(app, make_user, make_club, make_member):
    owner, director, player, stranger = (make_user(n) for n in ("o", "d", "p", "s"))
    club = make_club(owner=owner, name="Perm Club")
    make_member(club, "D", role="director", user=director)
    make_member(club, "P", role="player", user=player)
    anonymous = AnonymousUserMixin()
    table = {
        owner: (True, True, True),
        director: (True, True, False),
        player: (True, False, False),
        stranger: (False, False, False),
        anonymous: (False, False, False),
    }
    for user, (view, direct, manage) in table.items():
        assert (can_view(user, club), can_direct(user, club), can_manage(user, club)) == (
            view,
            direct,
            manage,
        )
    assert membership(stranger, club) is None
    assert has_club_role(director, club, "director")


def test_get_in_club_or_404(app, make_user, make_club, make_member):
    a = make_club(owner=make_user("a"), name="A")
    b = make_club(owner=make_user("b"), name="B")
    in_b = make_member(b, "In B")
    assert get_in_club_or_404(Member, b, in_b.id) is in_b
    with pytest.raises(NotFound):
        get_in_club_or_404(Member, a, in_b.id)
    with pytest.raises(NotFound):
        get_in_club_or_404(Member, a, 10**9)


def test_require_club_role_aborts(app, make_user, make_club, make_member):
    from flask_login import login_user

    from app.permissions import require_club_role

    owner, player = make_user("ow"), make_user("pl")
    club = make_club(owner=owner, name="Req")
    make_member(club, "Pl", user=player)
    with app.test_request_context("/"):
        login_user(player)
        assert require_club_role(club, "player").display_name == "Pl"
        with pytest.raises(Forbidden):
            require_club_role(club, "director")
    with app.test_request_context("/"):
        login_user(make_user("nobody"))
        with pytest.raises(NotFound):
            require_club_role(club)
