"""An online table obeys the round clock: after the director's last-deal call the deal in
progress is played out and recorded, and no new deal starts."""

from __future__ import annotations

from flask import Flask

from app.extensions import db
from app.models import Table
from app.services.tournaments.rows import derive_row_table
from tests.online.online_helpers import online_world


def test_no_new_deal_starts_after_the_last_deal_call(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p", deals=30, kind="minutes")
    ow.bots(1, 2, 3)  # seat 0 is a person: deal 1 waits for it
    assert len(ow.deals()) == 1 and ow.deals()[0].outcome is None
    clock = f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/rounds/{ow.rnd.number}/clock"
    assert client.post(clock, data={"action": "start"}).status_code == 303
    assert client.post(clock, data={"action": "last_deal"}).status_code == 303
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and tab.last_deal == 1  # the deal in progress is finished
    ow.bots(0)  # bots at every seat now: without the call they would deal on and on
    deals = ow.deals()
    assert [d.outcome for d in deals if d.outcome != "redeal"] == ["played"]
    assert deals[-1].outcome is not None  # nothing in progress: no deal 2 was dealt
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and len(tab.deals) == 1
    assert derive_row_table(ow.t, tab).counts  # the match is complete at the call's limit
    page = client.get(ow.table_url).get_data(as_text=True)
    assert "The match is over." in page, page
