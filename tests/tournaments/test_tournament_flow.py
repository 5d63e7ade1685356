"""A director's evening through the app: set up, entrants, seating, score sheets, standings."""

from __future__ import annotations

from html import escape

from sqlalchemy import select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.extensions import db
from app.models import AuditEntry, Deal, Table


def test_tractor_round_end_to_end(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    names = add_entrants(client, w.club, t, 5, 2)
    rnd = seat(client, w.club, t)
    tables = [tab for tab in rnd.tables if tab.kind == "sides"]
    byes = [tab for tab in rnd.tables if tab.kind == "bye"]
    assert len(tables) == 2 and len(byes) == 1
    tab = tables[0]
    url = sheet_url(w.club, t, rnd, tab)
    page = client.get(url)
    assert page.status_code == 200
    assert escape(tab.seats[0].entrant.name) in page.get_data(as_text=True)
    r = client.post(url, data=fixed_deal(0, 85, kitty=10, multiplier=4))
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    # attackers 85 + 40 = 125: side 1 takes over with +1 level
    html = client.get(url).get_data(as_text=True)
    assert "125" in html
    r = client.post(url, data=fixed_deal(1, 35))
    assert r.status_code == 303
    db.session.expire_all()
    deals = db.session.scalars(
        select(Deal).where(Deal.table_id == tab.id).order_by(Deal.index)
    ).all()
    assert [d.points for d in deals] == [85, 35]
    assert db.session.scalar(select(AuditEntry).where(AuditEntry.action == "deal")) is not None
    standings = client.get(f"/standings/{t.id}").get_data(as_text=True)
    for n in names:
        assert n.replace("&", "&amp;") in standings
    assert "P00a" in client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    assert isinstance(tab, Table)
