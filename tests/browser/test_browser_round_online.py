"""A director on a phone (390×844) sends a whole round online with one click from the round
page: both tables go online, each gets its seat links, and the page stays within the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_helpers import register_with_a_club

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


def test_director_sends_a_round_online_with_one_click_on_a_phone(
    page: Page, live_server: str
) -> None:
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_viewport_size({"width": 390, "height": 844})
    register_with_a_club(page, live_server, "rita", "Rita 丽塔", "Online Round Club")

    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Tournament name").fill("Online Night 线上夜")
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Number of deals").fill("1")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_text("Tournament created")).to_be_visible()
    for a, b in [("李伟", "张敏"), ("Wang", "Zhao"), ("Chen", "Liu"), ("Anna", "Ben")]:
        page.get_by_label("Player 1").fill(a)
        page.get_by_label("Player 2").fill(b)
        page.get_by_role("button", name="Add entrant").click()
        expect(page.locator("#entrants td", has_text=f"{a} & {b}")).to_be_visible()
    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_text("Round 1 seated.")).to_be_visible()

    form = page.locator("#play-online")
    expect(form.get_by_role("heading", name="Play this round online")).to_be_visible()
    boxes = form.get_by_role("checkbox")
    expect(boxes).to_have_count(2)
    for i in range(2):
        expect(boxes.nth(i)).to_be_checked()
    button = form.get_by_role("button", name="Play this round online")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    form.screenshot(path=str(ROOT / "test-artifacts" / "browser_round_online_form_phone.png"))
    button.click()

    expect(page.get_by_text("2 tables are played online.")).to_be_visible()
    expect(page.locator("#play-online")).to_have_count(0)  # nothing left to send
    online = page.get_by_role("link", name="online", exact=True)
    expect(online).to_have_count(2)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    page.screenshot(path=str(ROOT / "test-artifacts" / "browser_round_online_phone.png"))

    # each table has its four seat links
    online.nth(1).click()
    expect(page.locator(".seat-link")).to_have_count(4)
    expect(page.locator(".seat-link .badge", has_text="guest")).to_have_count(4)
    assert problems == []
