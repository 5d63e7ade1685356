"""A director on a phone (390 px) records a revoke (出错牌) by the attackers: the deal ends
without its points, the declarers go up one level, and the row shows the penalty's badge."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from app.competition import model as cm
from app.extensions import db
from app.models import Table, Tournament
from app.services.tournaments.sheets import record_deal
from tests.browser.browser_helpers import log_in, serving, sqlite_app
from tests.tournaments.tournament_helpers import actor, add_entrants, create, login, seat, world

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sheet_server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    application = sqlite_app(tmp_path / "penalty.db")
    with application.app_context():
        w = world()
        client = application.test_client()
        login(client, w.director)
        t = create(client, w.club, rounds=1, match_value=8)
        add_entrants(client, w.club, t, 2, 2)
        rnd = seat(client, w.club, t)
        # deal 1: side A declares a shutout, 2 → 5
        with application.test_request_context():
            tab = db.session.get(Table, rnd.tables[0].id)
            tour = db.session.get(Tournament, t.id)
            assert tab is not None and tour is not None
            record_deal(
                tour, tab, cm.Deal(points=0, kitty=0, trump="S", declarer=0), actor(w.director)
            )
            db.session.commit()
        path = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/1/tables/1"
        username = w.director.username
    with serving(application) as base:
        yield {"base": base, "path": path, "user": username}


def test_a_director_records_a_revoke_on_a_phone(page: Page, sheet_server: dict[str, Any]) -> None:
    s = sheet_server
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, s["base"], s["user"])
    page.goto(s["base"] + s["path"], wait_until="domcontentloaded")
    level_a = page.locator(".levels .side-0 .level strong")
    expect(level_a).to_have_text("5")

    # deal 2: side A declares at 5; an attacker revokes. No points are written: the deal ends.
    page.get_by_text("Penalties (罚则) and warnings (警告)").click()
    page.locator("select[name=pen_kind_0]").select_option("revoke")
    page.locator("select[name=pen_who_0]").select_option("attackers")
    page.get_by_label("Attackers' points").fill("")
    page.get_by_role("button", name="Record deal").click()

    expect(page.get_by_text("Deal 2 recorded.")).to_be_visible()
    expect(level_a).to_have_text("6")  # the declarers gain 1
    expect(page.locator(".levels .side-1 .level strong")).to_have_text("2")
    badge = page.locator(".sheet-rows .badge.penalty").first
    expect(badge).to_have_text("Revoke (出错牌) · the attackers (闲家)")
    expect(badge).to_be_visible()
    expect(page.get_by_text("ended by the penalty: Revoke (出错牌)")).to_be_visible()
    # nothing scrolls sideways on the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    badge.scroll_into_view_if_needed()
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "test-artifacts" / "browser_penalty_revoke_phone.png"))
