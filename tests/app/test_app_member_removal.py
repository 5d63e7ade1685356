"""Removing a member from a club, reversibly (issue 22): the member leaves every list, its
account is no member of the club meanwhile, its name stays its own; the club's page lists it
with who removed it and when; a restore within 30 days brings it back whole (its results, its
rating, its player page); ``flask tournament purge-deleted`` removes it for good after."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from app.extensions import db
from app.models import EntrantPlayer, Member, utcnow
from tests.forms import form_fields
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    login,
    member,
    play_round_out,
    seat,
    world,
)

EN = {"Accept-Language": "en"}


def _night(client):  # type: ignore[no-untyped-def]
    """Pete Player (a member with an account) plays a round of a night, played out."""
    w = world()
    login(client, w.owner)
    t = create(client, w.club, name="Friday Night", rounds=3, pairing="round-robin")
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    r = client.post(f"{base}/entrants", data={"player_0": "Pete Player", "player_1": "Gus Guest"})
    assert r.status_code == 303
    add_entrants(client, w.club, t, 3, 2)
    play_round_out(t, seat(client, w.club, t), w.owner, seed=3)
    return w, t


def _remove(client, club, m: Member):  # type: ignore[no-untyped-def]
    page = client.get(f"/clubs/{club.slug}/members").get_data(as_text=True)
    fields = form_fields(page, action=f"/members/{m.id}/remove")
    return client.post(
        f"/clubs/{club.slug}/members/{m.id}/remove", data=fields, headers=EN, follow_redirects=True
    )


def test_a_removed_member_is_gone_everywhere_and_restored_whole(app, client) -> None:  # type: ignore[no-untyped-def]
    from app.services.ratings.club import rated

    w, _t = _night(client)
    pete = member(w.club, "Pete Player")
    assert pete is not None
    pid = pete.id
    linked = db.session.scalars(select(EntrantPlayer.id).where(EntrantPlayer.member_id == pid))
    linked_ids = sorted(linked)
    assert linked_ids, "the night's player is linked to the member"
    before = rated(w.club)["Pete Player"]
    assert before.matches == 1
    player_page = client.get(f"/clubs/{w.club.slug}/members/{pid}/player")
    assert player_page.status_code == 200

    page = _remove(client, w.club, pete).get_data(as_text=True)
    assert "Pete Player removed from the club. You can restore them" in page
    members_page = client.get(f"/clubs/{w.club.slug}/members").get_data(as_text=True)
    assert "Pete Player" not in members_page
    assert client.get(f"/clubs/{w.club.slug}/members/{pid}/player").status_code == 404
    club_page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    listed = club_page[club_page.index('id="deleted"') :]
    assert "Pete Player" in listed and "Olga Owner" in listed
    assert f"/deleted/members/{pid}/restore" in listed
    until = (utcnow() + timedelta(days=30)).strftime("%Y-%m-%d")
    assert until in listed
    # the results keep their link; the ratings no longer count Pete as a member
    db.session.expire_all()
    assert (
        sorted(db.session.scalars(select(EntrantPlayer.id).where(EntrantPlayer.member_id == pid)))
        == linked_ids
    )

    # Pete's account is no member of the club meanwhile
    pete_client = app.test_client()
    login(pete_client, w.player)
    assert pete_client.get(f"/clubs/{w.club.slug}").status_code in (403, 404)
    assert w.club.name not in pete_client.get("/", headers=EN).get_data(as_text=True)

    # the name stays Pete's: a new member of that name is refused, saying why
    r = client.post(
        f"/clubs/{w.club.slug}/members",
        data={"display_name": "Pete  Player", "role": "player"},
        headers=EN,
        follow_redirects=True,
    )
    assert "A member removed from the club has this name: restore them" in r.get_data(as_text=True)
    assert db.session.scalar(select(Member.id).where(Member.display_name == "Pete  Player")) is None

    # a director sees the removal but only the owner restores it
    director = app.test_client()
    login(director, w.director)
    dpage = director.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    assert "the owner can restore it" in dpage[dpage.index('id="deleted"') :]
    assert director.post(f"/clubs/{w.club.slug}/deleted/members/{pid}/restore").status_code == 403

    r = client.post(
        f"/clubs/{w.club.slug}/deleted/members/{pid}/restore", headers=EN, follow_redirects=True
    )
    assert "Pete Player is a member of the club again" in r.get_data(as_text=True)
    assert "Pete Player" in client.get(f"/clubs/{w.club.slug}/members").get_data(as_text=True)
    assert pete_client.get(f"/clubs/{w.club.slug}").status_code == 200
    assert client.get(f"/clubs/{w.club.slug}/members/{pid}/player").status_code == 200
    db.session.expire_all()
    back = db.session.get(Member, pid)
    assert back is not None and back.deleted_at is None and back.user_id == w.player.id
    assert back.role == "player"
    after = rated(w.club)["Pete Player"]
    assert (after.matches, after.mu, after.sigma) == (before.matches, before.mu, before.sigma)
    club_page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    assert f"/deleted/members/{pid}/restore" not in club_page
    # a second restore (an older page) is a 404, nothing changes
    assert client.post(f"/clubs/{w.club.slug}/deleted/members/{pid}/restore").status_code == 404


def test_a_removed_account_cannot_rejoin_by_a_link(app, client) -> None:  # type: ignore[no-untyped-def]
    from app.services import clubs

    w = world()
    login(client, w.owner)
    pete = member(w.club, "Pete Player")
    _remove(client, w.club, pete)
    invite, _token = clubs.create_invite(w.club, w.owner)
    db.session.commit()
    with app.test_request_context(headers=EN):
        try:
            clubs.accept_invite(invite, w.player)
        except clubs.ServiceError as e:
            assert "You were removed from this club" in e.message
        else:
            raise AssertionError("a removed member's account joined again")


def test_after_thirty_days_a_removed_member_is_purged_keeping_the_results(  # type: ignore[no-untyped-def]
    app, client, runner
) -> None:
    w, _t = _night(client)
    pete = member(w.club, "Pete Player")
    assert pete is not None
    pid = pete.id
    _remove(client, w.club, pete)
    db.session.expire_all()
    gone = db.session.get(Member, pid)
    assert gone is not None
    gone.deleted_at = utcnow() - timedelta(days=31)
    db.session.commit()
    r = client.post(
        f"/clubs/{w.club.slug}/deleted/members/{pid}/restore", headers=EN, follow_redirects=True
    )
    assert "can no longer be restored" in r.get_data(as_text=True)
    club_page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    assert "Pete Player" not in club_page
    result = runner.invoke(args=["tournament", "purge-deleted"])
    assert result.exit_code == 0, result.output
    assert "removed: Pete Player" in result.output
    db.session.expire_all()
    assert db.session.get(Member, pid) is None
    names = db.session.scalars(select(EntrantPlayer.name).where(EntrantPlayer.member_id.is_(None)))
    assert "Pete Player" in set(names)  # the night keeps the name as it was written
    # the name is free again
    r = client.post(
        f"/clubs/{w.club.slug}/members", data={"display_name": "Pete Player", "role": "player"}
    )
    assert member(w.club, "Pete Player") is not None
