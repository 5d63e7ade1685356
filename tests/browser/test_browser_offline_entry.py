"""Flaky venue Wi-Fi: a deal typed on the score sheet while the connection is down is kept in the
browser, shown as "not sent yet", and recorded exactly once when the connection returns — also
after the page was reloaded meanwhile."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import func, select

from app.extensions import db
from app.models import Deal
from tests.browser.browser_helpers import log_in, serving, sqlite_app
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

pytestmark = pytest.mark.browser


@pytest.fixture
def sheet_server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    application = sqlite_app(tmp_path / "offline.db")
    with application.app_context():
        w = world()
        client = application.test_client()
        login(client, w.director)
        t = create(client, w.club, rounds=1)
        add_entrants(client, w.club, t, 2, 2)
        rnd = seat(client, w.club, t)
        table_id = rnd.tables[0].id
        path = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/1/tables/1"
        username = w.director.username

    def deals() -> int:
        with application.app_context():
            return int(
                db.session.scalar(
                    select(func.count()).select_from(Deal).where(Deal.table_id == table_id)
                )
                or 0
            )

    with serving(application) as base:
        yield {"base": base, "path": path, "user": username, "deals": deals}


def test_a_deal_typed_offline_is_kept_and_sent_once_when_back(
    page: Page, sheet_server: dict[str, Any]
) -> None:
    s = sheet_server
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, s["base"], s["user"])
    page.goto(s["base"] + s["path"], wait_until="domcontentloaded")
    expect(page.get_by_text("No deal entered yet.")).to_be_visible()

    page.get_by_label("Attackers' points").fill("85")
    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    pending = page.locator(".outbox-pending")
    expect(pending).to_contain_text("Not sent yet")
    expect(page.get_by_label("Attackers' points")).to_have_value("85")  # nothing lost
    assert s["deals"]() == 0

    page.context.set_offline(False)
    expect(page.get_by_text("Deal 1 recorded.")).to_be_visible()
    expect(pending).to_have_count(0)
    assert s["deals"]() == 1
    # the outbox is empty: a reload sends nothing again
    page.reload(wait_until="domcontentloaded")
    page.wait_for_timeout(500)
    assert s["deals"]() == 1
    assert (
        page.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('shengji-outbox:')).length"
        )
        == 0
    )


def test_a_pending_deal_survives_a_reload_and_a_double_is_refused(
    page: Page, sheet_server: dict[str, Any]
) -> None:
    s = sheet_server
    log_in(page, s["base"], s["user"])
    page.goto(s["base"] + s["path"], wait_until="domcontentloaded")
    page.get_by_label("Attackers' points").fill("40")
    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    expect(page.locator(".outbox-pending")).to_be_visible()
    saved = page.evaluate(
        "JSON.stringify(Object.entries(localStorage)"
        ".filter(([k]) => k.startsWith('shengji-outbox:')))"
    )
    assert "points=40" in saved
    # the tab is closed while offline; later, online again, the sheet is opened anew (a phone
    # woke up): the entry kept in this browser goes out once, from the new page
    context = page.context
    page.close()
    context.set_offline(False)
    page = context.new_page()
    page.goto(s["base"] + s["path"], wait_until="domcontentloaded")
    expect(page.locator("td.c-pts", has_text="40")).to_have_count(1)
    page.wait_for_function(
        "() => Object.keys(localStorage).filter(k => k.startsWith('shengji-outbox:')).length === 0"
    )
    assert s["deals"]() == 1
    # the same entry sent a second time (its answer was lost) is refused by the sheet's version
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        list(json.loads(saved)[0]),
    )
    page.reload(wait_until="domcontentloaded")
    expect(page.get_by_text("The sheet changed since you opened it")).to_be_visible()
    assert s["deals"]() == 1
