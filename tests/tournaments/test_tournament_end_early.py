"""A match of a number of deals ended early by the director, with a reason: it counts on the
deals played (the levels as they stand, no extra deal), the sheet says why, the audit trail
records it, and it can be opened again while the round is open. An online table is refused."""

from __future__ import annotations

import json

from sqlalchemy import select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.competition import tfile
from app.extensions import db
from app.models import Round, Table
from app.services.tournaments import export_json, import_tournament, load
from tests.forms import form_fields


def _setup(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=4)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    return w, t, rnd, tab, sheet_url(w.club, t, rnd, tab)


def _standing_played(t) -> int:  # type: ignore[no-untyped-def]
    db.session.expire_all()
    return sum(s.played for s in load(t).standings)


def test_a_match_by_deals_ended_early_counts_on_the_deals_played(client) -> None:  # type: ignore[no-untyped-def]
    w, t, rnd, tab, url = _setup(client)
    # declarer side 0 wins with 0 points: +3 levels (2 -> 5)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303
    assert _standing_played(t) == 0  # 1 deal of 4: in progress
    fields = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/finish")
    assert fields["early"] == "1" and fields["seen_version"]
    # a reason is needed
    r = client.post(f"{url}/finish", data={**fields, "reason": "  "}, follow_redirects=True)
    assert "Please write why the match ends early." in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Table, tab.id).finished is False  # type: ignore[union-attr]
    r = client.post(
        f"{url}/finish", data={**fields, "reason": "time ran out"}, follow_redirects=True
    )
    html = r.get_data(as_text=True)
    assert "The match was ended early: it counts on the deals played." in html
    assert "Ended early by the director after 1 deal of 4: time ran out." in html
    assert _standing_played(t) == 2  # both sides have a counted match
    top = load(t).standings[0]
    assert top.played == 1 and top.match_points == 2 and top.level_diff == 3
    # no new deal is added to it
    r = client.post(url, data=fixed_deal(1, 40), follow_redirects=True)
    assert "open it again to add a deal" in r.get_data(as_text=True)
    db.session.expire_all()
    assert len(db.session.get(Table, tab.id).deals) == 1  # type: ignore[union-attr]
    # the trail records it with the reason
    trail = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/audit").get_data(as_text=True)
    assert "match ended early" in trail and "Reason: time ran out" in trail
    # the file keeps it
    played = json.loads(export_json(t))["played"][0]["tables"]
    saved = next(x for x in played if x["table"] == tab.number)
    assert saved["finished"] is True and saved["end_reason"] == "time ran out"
    # and an import of that file is ended early too
    doc = json.loads(export_json(t))
    doc["name"] = "Copy"
    copy = import_tournament(tfile.load(doc), w.director, w.club)
    db.session.commit()
    copied = db.session.scalar(
        select(Table)
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == copy.id, Table.number == tab.number)
    )
    assert copied is not None
    assert copied.finished and copied.end_reason == "time ran out"
    # opened again: in progress, and deals can be added
    again = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/finish")
    assert again["finished"] == "0"
    assert client.post(f"{url}/finish", data=again).status_code == 303
    assert _standing_played(t) == 0
    db.session.expire_all()
    tab2 = db.session.get(Table, tab.id)
    assert tab2 is not None and tab2.end_reason is None and not tab2.finished
    assert client.post(url, data=fixed_deal(1, 40)).status_code == 303
    db.session.expire_all()
    assert len(db.session.get(Table, tab.id).deals) == 2  # type: ignore[union-attr]


def test_ending_early_from_an_older_page_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, rnd, tab, url = _setup(client)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303
    fields = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/finish")
    assert client.post(url, data=fixed_deal(1, 40)).status_code == 303  # another deal meanwhile
    r = client.post(
        f"{url}/finish", data={**fields, "reason": "a player left"}, follow_redirects=True
    )
    assert "The sheet changed since you opened it (now 2 deals). Nothing was saved" in r.get_data(
        as_text=True
    )
    db.session.expire_all()
    assert db.session.get(Table, tab.id).finished is False  # type: ignore[union-attr]


def test_ending_early_is_refused_when_it_does_not_apply(app, client) -> None:  # type: ignore[no-untyped-def]
    from tournament_helpers import actor

    from app.services.tournaments import end_early

    w, t, rnd, tab, url = _setup(client)
    who = actor(w.director)
    # no deal yet: a forfeit, not an early end
    assert "record a forfeit" in _refused(app, lambda: end_early(t, tab, "late", who))
    # an online table is not cut off
    tab = db.session.get(Table, tab.id)
    assert tab is not None
    tab.mode = "online"
    assert "played online" in _refused(app, lambda: end_early(t, tab, "late", who))
    db.session.rollback()
    # a match by time has no early end (it has its own button)
    minutes = create(client, w.club, name="Timed", match_kind="minutes", match_value=60)
    add_entrants(client, w.club, minutes, 4, 2)
    r2 = seat(client, w.club, minutes)
    tab2 = next(x for x in r2.tables if x.kind == "sides")
    u2 = sheet_url(w.club, minutes, r2, tab2)
    assert client.post(u2, data=fixed_deal(0, 0)).status_code == 303
    assert 'name="early"' not in client.get(u2).get_data(as_text=True)
    assert "number of deals" in _refused(app, lambda: end_early(minutes, tab2, "late", who))


def _refused(app, call) -> str:  # type: ignore[no-untyped-def]
    """The message of a refused service call (made as a request would), nothing kept."""
    from app.services import ServiceError

    with app.test_request_context():
        try:
            call()
        except ServiceError as e:
            db.session.rollback()
            return e.message
    raise AssertionError("not refused")


def test_the_sheet_says_it_in_chinese(client) -> None:  # type: ignore[no-untyped-def]
    w, t, rnd, tab, url = _setup(client)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303
    fields = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/finish")
    client.post("/lang", data={"lang": "zh"})
    client.post(f"{url}/finish", data={**fields, "reason": "时间到"})
    html = client.get(url).get_data(as_text=True)
    assert "时间到" in html and "提前结束" in html


def test_an_online_match_by_deals_is_not_cut_off(app, client) -> None:  # type: ignore[no-untyped-def]
    from tests.online.online_helpers import online_world

    w = online_world(client, "tractor-4p", deals=4)
    w.bots(0, 1, 2, 3)
    db.session.expire_all()
    tab = db.session.get(Table, w.tab.id)
    assert tab is not None and len(tab.deals) >= 1
    # the online table's 'time is up' is refused for a match by deals
    r = client.post(w.table_url + "/finish", follow_redirects=True)
    assert "its match is not ended early" in r.get_data(as_text=True)
    # and the score sheet offers no early end
    sheet = sheet_url(w.club, w.t, tab.round, tab)
    assert 'name="early"' not in client.get(sheet).get_data(as_text=True)
    db.session.expire_all()
    tab = db.session.get(Table, w.tab.id)
    assert tab is not None and tab.end_reason is None
