"""A director on a phone (390 px) types a 打百分 deal with a hidden friend: the declarer, the bid,
trump, the friend card and its holder, the attackers' points; a friend who is the declarer is
refused on its field, then the deal is recorded and the row shows the result and each seat's
units, with nothing scrolling sideways."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_helpers import log_in, serving, sqlite_app
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("HUNDRED_SHOTS", str(ROOT / "test-artifacts")))


@pytest.fixture
def sheet_server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    application = sqlite_app(tmp_path / "hundred.db")
    with application.app_context():
        w = world()
        client = application.test_client()
        login(client, w.director)
        t = create(
            client,
            w.club,
            variant="hundred-4p",
            pairing="reseat",
            rounds=1,
            match_value=8,
            preset="club-hundred",
        )
        add_entrants(client, w.club, t, 4, 1)
        seat(client, w.club, t)
        path = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/1/tables/1"
        username = w.director.username
    with serving(application) as base:
        yield {"base": base, "path": path, "user": username}


def test_a_director_types_a_hidden_friend_deal_on_a_phone(
    page: Page, sheet_server: dict[str, Any]
) -> None:
    s = sheet_server
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, s["base"], s["user"])
    page.goto(s["base"] + s["path"], wait_until="domcontentloaded")
    page.locator("select[name=declarer]").select_option("0")
    page.locator("select[name=bid]").select_option("80")
    page.locator("select[name=trump]").select_option("H")
    page.locator("input[name=friend_card]").fill("AS")
    page.locator("select[name=friend]").select_option("0")  # the declarer: refused
    page.get_by_label("Attackers' points").fill("25")
    page.get_by_role("button", name="Record deal").click()
    error = page.locator(".field.has-error", has=page.locator("select[name=friend]"))
    expect(error).to_contain_text("The friend is not the declarer")
    SHOTS.mkdir(parents=True, exist_ok=True)
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "hundred-sheet-refusal-phone.png"))
    page.locator("select[name=friend]").select_option("2")
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_text("Deal 1 recorded.")).to_be_visible()
    expect(page.get_by_text("attackers win, 5 units")).to_be_visible()
    totals = page.locator(".seats-now .total")
    expect(totals).to_have_text(["-5", "5", "-5", "5"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "hundred-sheet-phone.png"), full_page=True)
