"""An invitation link grants at most its own role. An open link (shared in a group chat, say)
lets a newcomer claim an account-less member of the club, but never one whose role is higher
than the link's: a player link cannot become the unclaimed director. A personal link for that
member can."""

from __future__ import annotations

from typing import Any

from flask import Flask

from app.extensions import db
from app.models import Member
from app.services.clubs import create_invite
from tests.security.db_snapshot import unchanged
from tests.security.security_world import logged_in


def _setup(make_user: Any, make_club: Any, make_member: Any) -> dict[str, Any]:
    owner = make_user("own")
    club = make_club(owner=owner, name="Invite Club")
    w = {
        "owner": owner,
        "club": club,
        "director": make_member(club, "Dana Director", role="director"),
        "boss": make_member(club, "Otto Owner", role="owner"),
        "player": make_member(club, "Paul Player", role="player"),
        "newcomer": make_user("newbie"),
    }
    db.session.commit()
    return w


def _token(club: Any, owner: Any, role: str = "player", member: Member | None = None) -> str:
    _invite, token = create_invite(club, owner, role, member)
    db.session.commit()
    return token


def _member(member_id: int) -> Member:
    db.session.expire_all()
    found = db.session.get(Member, member_id)
    assert found is not None
    return found


def test_player_link_cannot_claim_a_director_or_owner(
    app: Flask, make_user: Any, make_club: Any, make_member: Any
) -> None:
    w = _setup(make_user, make_club, make_member)
    token = _token(w["club"], w["owner"], "player")
    client = logged_in(app, w["newcomer"])
    page = client.get(f"/invite/{token}").get_data(as_text=True)
    assert "Paul Player" in page
    assert "Dana Director" not in page and "Otto Owner" not in page
    with unchanged():
        for target in ("director", "boss"):
            r = client.post(
                f"/invite/{token}", data={"claim_member_id": w[target].id, "display_name": "x"}
            )
            assert r.status_code == 422, (target, r.status_code)
            assert _member(w[target].id).user_id is None
    # claiming a player with a player link is what open links are for
    r = client.post(f"/invite/{token}", data={"claim_member_id": w["player"].id})
    assert r.status_code == 302
    assert _member(w["player"].id).user_id == w["newcomer"].id


def test_director_link_claims_up_to_director(
    app: Flask, make_user: Any, make_club: Any, make_member: Any
) -> None:
    w = _setup(make_user, make_club, make_member)
    token = _token(w["club"], w["owner"], "director")
    client = logged_in(app, w["newcomer"])
    with unchanged():
        r = client.post(f"/invite/{token}", data={"claim_member_id": w["boss"].id})
        assert r.status_code == 422 and _member(w["boss"].id).user_id is None
    r = client.post(f"/invite/{token}", data={"claim_member_id": w["director"].id})
    assert r.status_code == 302 and _member(w["director"].id).user_id == w["newcomer"].id


def test_a_personal_link_claims_its_member(
    app: Flask, make_user: Any, make_club: Any, make_member: Any
) -> None:
    w = _setup(make_user, make_club, make_member)
    token = _token(w["club"], w["owner"], member=w["director"])
    client = logged_in(app, w["newcomer"])
    r = client.post(f"/invite/{token}", data={"claim_member_id": 0})
    assert r.status_code == 302
    claimed = _member(w["director"].id)
    assert claimed.user_id == w["newcomer"].id and claimed.role == "director"
