"""Corrections of earlier deals re-derive everything after them and leave an audit entry."""

from __future__ import annotations

import re

from sqlalchemy import select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.extensions import db
from app.models import AuditEntry, Deal, Round
from app.services.tournaments.audit import parse_place


def _setup(client, **kw):
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=3, **kw)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    return w, t, rnd, tab, sheet_url(w.club, t, rnd, tab)


def _levels(html: str) -> list[str]:
    return re.findall(r"level <strong>([0-9JQKA]+)</strong>", html)


def test_correction_rederives_later_deals_and_is_audited(client):
    w, t, rnd, tab, url = _setup(client)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303  # side 0 +3 → 5
    assert client.post(url, data=fixed_deal(0, 50, level="5")).status_code == 303  # +1 → 6
    assert _levels(client.get(url).get_data(as_text=True)) == ["6", "2"]
    # deal 1 was really 35 points: +2 → 4; deal 2 then played at 4, +1 → 5 — but deal 2 says
    # level 5 on the sheet, so the correction must be refused as it breaks deal 2
    r = client.post(f"{url}/deals/1", data=fixed_deal(0, 35))
    assert r.status_code == 422
    assert "deal 2" in r.get_data(as_text=True)
    assert _levels(client.get(url).get_data(as_text=True)) == ["6", "2"]
    # correct deal 2's written level away first, then deal 1
    assert client.post(f"{url}/deals/2", data=fixed_deal(0, 50)).status_code == 303
    assert client.post(f"{url}/deals/1", data=fixed_deal(0, 35)).status_code == 303
    assert _levels(client.get(url).get_data(as_text=True)) == ["5", "2"]
    db.session.expire_all()
    entries = db.session.scalars(
        select(AuditEntry).where(AuditEntry.action == "correct_deal").order_by(AuditEntry.id)
    ).all()
    assert len(entries) == 2
    last = entries[-1]
    assert last.before["points"] == 0 and last.after["points"] == 35
    assert last.actor == "Dora Director" and last.user_id == w.director.id
    assert parse_place(last.target) == {"round": rnd.number, "table": tab.number, "deal": 1}
    audit_page = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/audit").get_data(as_text=True)
    assert "deal corrected" in audit_page and "Dora Director" in audit_page


def test_closed_round_only_owner_corrects(client):
    w, t, rnd, tab, url = _setup(client)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    for x in rnd.tables:
        if x.kind != "sides":
            continue
        u = sheet_url(w.club, t, rnd, x)
        for _ in range(3):
            assert client.post(u, data=fixed_deal(0, 100)).status_code == 303
    r = client.post(f"{base}/rounds/1/close", follow_redirects=True)
    assert "Round 1 closed" in r.get_data(as_text=True)
    r = client.post(f"{url}/deals/1", data=fixed_deal(0, 40))
    assert r.status_code == 422 and "closed" in r.get_data(as_text=True)
    db.session.expire_all()
    assert [
        d.points
        for d in db.session.scalars(
            select(Deal).where(Deal.table_id == tab.id).order_by(Deal.index)
        )
    ] == [
        100,
        100,
        100,
    ]
    login(client, w.owner)
    r = client.post(f"{url}/deals/1", data=fixed_deal(0, 40))
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.scalars(
        select(Deal.points).where(Deal.table_id == tab.id).order_by(Deal.index)
    ).all() == [
        40,
        100,
        100,
    ]
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "correct_deal"))
    assert entry is not None and entry.actor == "Olga Owner"


def test_close_refuses_unfinished_tables_and_undo_removes_last(client):
    w, t, rnd, tab, url = _setup(client)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    assert client.post(url, data=fixed_deal(0, 60)).status_code == 303
    r = client.post(f"{base}/rounds/1/close", follow_redirects=True)
    assert "Tables not finished yet" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Round, rnd.id).status == "started"  # type: ignore[union-attr]
    client.post(f"{url}/undo")
    db.session.expire_all()
    assert db.session.scalars(select(Deal).where(Deal.table_id == tab.id)).all() == []
    assert db.session.scalar(select(AuditEntry).where(AuditEntry.action == "delete_deal"))


def test_forfeit_counts_at_once(client):
    w, t, rnd, tab, url = _setup(client)
    r = client.post(f"{url}/forfeit", data={"side": "1"})
    assert r.status_code == 303
    page = client.get(f"/standings/{t.id}").get_data(as_text=True)
    winner = tab.seats[0].entrant.name.replace("&", "&amp;")
    assert re.search(
        rf"{re.escape(winner)}</a>\s*</td>\s*<td class=\"num\">1</td><td class=\"num\"><strong>2</strong></td><td class=\"num\">\+3",
        page,
    )
    assert client.post(url, data=fixed_deal(0, 60)).status_code == 422


def test_a_double_submission_records_one_deal(client):
    w, t, rnd, tab, url = _setup(client)
    html = client.get(url).get_data(as_text=True)
    assert 'name="seen" type="hidden" value="0"' in html
    data = fixed_deal(0, 60, seen="0")
    assert client.post(url, data=data).status_code == 303
    r = client.post(url, data=data)  # the same form sent again
    assert r.status_code == 422 and "1 deal was added (now 1 deal)" in r.get_data(as_text=True)
    db.session.expire_all()
    assert len(db.session.scalars(select(Deal).where(Deal.table_id == tab.id)).all()) == 1
