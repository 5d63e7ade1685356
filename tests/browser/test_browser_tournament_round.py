"""A director on a phone (390×844) sets up a tournament, seats round 1 and enters every deal of
the round on the score sheets (htmx), including a validation error and a correction."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_helpers import register_with_a_club

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


def test_director_enters_a_whole_round_on_a_phone(page: Page, live_server: str) -> None:
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_viewport_size({"width": 390, "height": 844})
    register_with_a_club(page, live_server, "dora", "Dora 多拉", "Phone Club")

    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Tournament name").fill("Phone Cup 手机杯")
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Number of deals").fill("2")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_text("Tournament created")).to_be_visible()

    for a, b in [("李伟", "张敏"), ("Wang", "Zhao"), ("Chen", "Liu"), ("Anna", "Ben")]:
        page.get_by_label("Player 1").fill(a)
        page.get_by_label("Player 2").fill(b)
        page.get_by_role("button", name="Add entrant").click()
        expect(page.locator("#entrants td", has_text=f"{a} & {b}")).to_be_visible()

    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_text("Round 1 seated.")).to_be_visible()
    sheets = page.get_by_role("link", name="Score sheet", exact=True)
    expect(sheets).to_have_count(2)
    round_url = page.url

    for table in (1, 2):
        page.goto(round_url, wait_until="domcontentloaded")
        page.get_by_role("link", name="Score sheet", exact=True).nth(table - 1).click()
        expect(page.get_by_role("heading", name=f"Round 1 · Table {table}")).to_be_visible()
        # a wrong number: the message appears on the field, nothing recorded
        page.get_by_label("Attackers' points").fill("87")
        page.get_by_role("button", name="Record deal").click()
        expect(page.locator(".field.has-error", has_text="steps of 5")).to_be_visible()
        expect(page.get_by_text("No deal entered yet.")).to_be_visible()
        page.get_by_label("Attackers' points").fill("85")
        page.get_by_label("Kitty points (底分)").fill("10")
        page.get_by_label("Kitty multiplier (抠底)").select_option("4")
        page.get_by_role("button", name="Record deal").click()
        expect(page.get_by_text("Deal 1 recorded.")).to_be_visible()
        # the next declarer is offered: the attackers (side B) took over
        expect(page.get_by_label("Declarer side (庄家)")).to_have_value("1")
        page.get_by_label("Attackers' points").fill("0")
        page.get_by_role("button", name="Record deal").click()
        expect(page.get_by_text("This match is complete.")).to_be_visible()
        expect(page.locator(".levels .side-1 .level strong")).to_have_text("6")

    # a correction of table 2's first deal re-derives the levels after it
    page.get_by_role("link", name="Correct").first.click()
    page.get_by_label("Attackers' points").fill("165")
    page.get_by_label("Kitty multiplier (抠底)").select_option("0")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Deal 1 corrected.")).to_be_visible()
    # 165 points: side B up 2 levels to 4, then keeps with 0 points: +3 → 7
    expect(page.locator(".levels .side-1 .level strong")).to_have_text("7")
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "test-artifacts" / "browser_tournament_sheet_phone.png"))

    page.goto(round_url, wait_until="domcontentloaded")
    # closing asks first (data-confirm): dismissing changes nothing, accepting closes
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Close round").click()
    expect(page.get_by_role("button", name="Close round")).to_be_visible()
    assert asked and "Close round 1?" in asked[0]
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close round").click()
    expect(page.get_by_text("Round 1 closed.")).to_be_visible()
    page.get_by_role("link", name="Standings").first.click()
    expect(page.locator("table.standings tbody tr")).to_have_count(4)
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / "browser_tournament_standings_phone.png"), full_page=True)
    # no horizontal scrolling of the page itself on a phone
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert problems == []
