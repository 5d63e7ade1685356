"""No lost updates on the settings forms: a save from a page shown before someone else's change
(another owner, the same owner's second device) is refused with a sentence saying what changed,
and nothing changes; a save from a fresh page goes through. Season settings, who sees the
standings, members (role, removal, bulk add) and a round's seating (swap, pair again)."""

from __future__ import annotations

import re

from app.extensions import db
from app.models import Member, Season, Table, TableSeat, Tournament
from tests.forms import form_fields
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world


def _two(app, client, who="owner"):  # type: ignore[no-untyped-def]
    w = world()
    login(client, getattr(w, who))
    other = app.test_client()
    login(other, getattr(w, who))  # a second device (or a second owner)
    return w, other


def _page_form(client, url: str, action: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return form_fields(client.get(url).get_data(as_text=True), action=action)


def _season(client, w) -> Season:  # type: ignore[no-untyped-def]
    data = {"name": "Winter League", "rule": "total", "best": 5, "min_nights": 1, "places": ""}
    r = client.post(f"/clubs/{w.club.slug}/seasons", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    sid = int(re.search(r"/seasons/(\d+)", r.headers["Location"]).group(1))  # type: ignore[union-attr]
    season = db.session.get(Season, sid)
    assert season is not None
    return season


def test_season_settings_from_an_older_page_are_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, other = _two(app, client)
    s = _season(client, w)
    url = f"/clubs/{w.club.slug}/seasons/{s.id}"
    mine = _page_form(client, url, "/rule")
    theirs = _page_form(other, url, "/rule")
    assert mine["seen"] and mine["seen"] == theirs["seen"]
    r = other.post(f"{url}/rule", data={**theirs, "rule": "best", "best": "3"})
    assert r.status_code == 303
    r = client.post(f"{url}/rule", data={**mine, "rule": "average", "min_nights": "2"})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "changed by someone else since you opened this page (how it is counted)" in html
    assert "Nothing was saved." in html
    db.session.expire_all()
    s2 = db.session.get(Season, s.id)
    assert s2 is not None and (s2.rule, s2.min_nights) == ("best:3", 1)
    # a fresh page saves
    fresh = _page_form(client, url, "/rule")
    r = client.post(f"{url}/rule", data={**fresh, "rule": "average", "min_nights": "2"})
    assert r.status_code == 303
    db.session.expire_all()
    s3 = db.session.get(Season, s.id)
    assert s3 is not None and (s3.rule, s3.min_nights) == ("average", 2)


def test_season_settings_refusal_in_chinese(app, client) -> None:  # type: ignore[no-untyped-def]
    w, other = _two(app, client)
    s = _season(client, w)
    url = f"/clubs/{w.club.slug}/seasons/{s.id}"
    client.post("/lang", data={"lang": "zh"})
    mine = _page_form(client, url, "/rule")
    other.post(f"{url}/rule", data={**_page_form(other, url, "/rule"), "places": "10, 8"})
    r = client.post(f"{url}/rule", data={**mine, "min_nights": "3"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "未保存" in html and "每个名次的联赛积分" in html


def test_visibility_from_an_older_page_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, other = _two(app, client, "director")
    t = create(client, w.club)
    url = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    mine = _page_form(client, url, "/visibility")
    theirs = _page_form(other, url, "/visibility")
    assert (
        other.post(f"{url}/visibility", data={**theirs, "visibility": "public"}).status_code == 303
    )
    r = client.post(f"{url}/visibility", data={**mine, "visibility": "club"}, follow_redirects=True)
    assert "Who sees the standings was changed by someone else" in r.get_data(as_text=True)
    assert "(now: Public: anyone with the link)" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).visibility == "public"  # type: ignore[union-attr]
    fresh = _page_form(client, url, "/visibility")
    client.post(f"{url}/visibility", data={**fresh, "visibility": "club"})
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).visibility == "club"  # type: ignore[union-attr]


def test_a_role_change_from_an_older_page_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, other = _two(app, client)
    pete = db.session.scalar(db.select(Member).filter_by(display_name="Pete Player"))
    assert pete is not None
    pete_id = pete.id
    url = f"/clubs/{w.club.slug}/members"
    action = f"/members/{pete.id}/role"
    mine = _page_form(client, url, action)
    theirs = _page_form(other, url, action)
    assert (
        other.post(url + f"/{pete.id}/role", data={**theirs, "role": "director"}).status_code == 303
    )
    r = client.post(
        url + f"/{pete.id}/role", data={**mine, "role": "player"}, follow_redirects=True
    )
    html = r.get_data(as_text=True)
    assert "Pete Player was changed by someone else since you opened this page (role)" in html
    db.session.expire_all()
    assert db.session.get(Member, pete.id).role == "director"  # type: ignore[union-attr]
    # a removal from the older page is refused too
    gone = _page_form(client, url, f"/members/{pete.id}/remove")
    other.post(url + f"/{pete.id}/role", data={**_page_form(other, url, action), "role": "player"})
    r = client.post(url + f"/{pete.id}/remove", data=gone, follow_redirects=True)
    assert "changed by someone else" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Member, pete.id).deleted_at is None  # type: ignore[union-attr]
    # from a fresh page both go through
    fresh = _page_form(client, url, action)
    assert (
        client.post(url + f"/{pete.id}/role", data={**fresh, "role": "director"}).status_code == 303
    )
    db.session.expire_all()
    assert db.session.get(Member, pete.id).role == "director"  # type: ignore[union-attr]
    fresh = _page_form(client, url, f"/members/{pete.id}/remove")
    assert client.post(url + f"/{pete.id}/remove", data=fresh).status_code == 303
    db.session.expire_all()
    assert db.session.get(Member, pete_id).deleted_at is not None  # type: ignore[union-attr]


def test_a_bulk_add_from_an_older_preview_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, other = _two(app, client)
    url = f"/clubs/{w.club.slug}/members/bulk"
    r = client.post(
        url,
        data={
            **_page_form(client, url, "/members/bulk"),
            "members": "Ann\nBen",
            "action": "preview",
        },
    )
    preview = form_fields(r.get_data(as_text=True), action="/members/bulk")
    assert preview["seen"]
    before = db.session.scalar(db.select(db.func.count(Member.id)).filter_by(club_id=w.club.id))
    # meanwhile another owner adds two members
    r = other.post(
        url,
        data={**_page_form(other, url, "/members/bulk"), "members": "Cy\nDi", "action": "preview"},
    )
    theirs = form_fields(r.get_data(as_text=True), action="/members/bulk")
    assert other.post(url, data={**theirs, "action": "add"}).status_code == 303
    r = client.post(url, data={**preview, "action": "add"})
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "The club&#39;s members changed since you opened this page (2 members added)" in html
    count = db.session.scalar(db.select(db.func.count(Member.id)).filter_by(club_id=w.club.id))
    assert count == before + 2  # only theirs
    # the preview shown with the refusal is fresh: adding from it works
    again = form_fields(html, action="/members/bulk")
    assert client.post(url, data={**again, "action": "add"}).status_code == 303
    count = db.session.scalar(db.select(db.func.count(Member.id)).filter_by(club_id=w.club.id))
    assert count == before + 4


def _seating(rnd_id: int) -> list[tuple[int, int, int]]:
    db.session.expire_all()
    rows = db.session.execute(
        db.select(Table.number, TableSeat.position, TableSeat.entrant_id)
        .join(TableSeat, TableSeat.table_id == Table.id)
        .where(Table.round_id == rnd_id)
        .order_by(Table.number, TableSeat.position)
    ).all()
    return [tuple(r) for r in rows]  # type: ignore[misc]


def test_a_swap_from_an_older_page_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, other = _two(app, client, "director")
    t = create(client, w.club)
    add_entrants(client, w.club, t, 6, 2)
    rnd = seat(client, w.club, t)
    url = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}"
    mine = _page_form(client, url, "/swap")
    theirs = _page_form(other, url, "/swap")
    assert mine["seen"] and mine["first"] != mine["second"]
    assert other.post(f"{url}/swap", data=theirs).status_code == 303
    after_theirs = _seating(rnd.id)
    r = client.post(f"{url}/swap", data=mine, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "The seating of round 1 was changed by someone else since you opened this page" in html
    assert "(tables 1, 2)" in html
    assert _seating(rnd.id) == after_theirs
    # pairing again from the older page is refused as well
    r = client.post(
        f"{url}/repair",
        data=_page_form(other, url, "/repair") | {"seen": mine["seen"]},
        follow_redirects=True,
    )
    assert "was changed by someone else" in r.get_data(as_text=True)
    assert _seating(rnd.id) == after_theirs
    # from a fresh page the swap goes through (back as it was)
    fresh = _page_form(client, url, "/swap")
    assert client.post(f"{url}/swap", data=fresh).status_code == 303
    assert _seating(rnd.id) != after_theirs


def test_a_name_claimed_meanwhile_is_said_so(app, client) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import _make_member, _make_user

    w, _other = _two(app, client)
    free = _make_member(w.club, "Free Name")
    r = client.post(f"/clubs/{w.club.slug}/invites", data={"role": "player"})
    link = re.search(r'value="http://localhost(/invite/[^"]+)"', r.get_data(as_text=True))
    assert link is not None
    first, second = app.test_client(), app.test_client()
    login(first, _make_user("first"))
    login(second, _make_user("second"))
    form1 = form_fields(first.get(link.group(1)).get_data(as_text=True), action=link.group(1))
    form2 = form_fields(second.get(link.group(1)).get_data(as_text=True), action=link.group(1))
    chosen = {"claim_member_id": str(free.id)}
    assert first.post(link.group(1), data={**form1, **chosen}).status_code == 302
    r = second.post(link.group(1), data={**form2, **chosen})
    assert r.status_code == 422
    assert "Free Name was claimed by someone else since you opened this page" in r.get_data(
        as_text=True
    )
    db.session.expire_all()
    member = db.session.get(Member, free.id)
    assert member is not None and member.user.username == "first"  # type: ignore[union-attr]
