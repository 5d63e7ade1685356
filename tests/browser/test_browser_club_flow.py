"""A newcomer registers, creates a club, adds members (htmx) and switches to Chinese."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


def test_register_create_club_add_members_switch_language(page: Page, live_server: str) -> None:
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_viewport_size({"width": 900, "height": 760})
    page.goto(live_server + "/", wait_until="domcontentloaded")
    page.get_by_role("link", name="Register").first.click()
    page.get_by_label("Login name").fill("mei")
    page.get_by_label("Your name").fill("Mei Lin 林梅")
    page.get_by_label("Password", exact=True).fill("a good password")
    page.get_by_label("Password again").fill("a good password")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_text("Your account is ready")).to_be_visible()

    page.get_by_role("link", name="Create a club").click()
    page.get_by_label("Club name").fill("Riverside 升级 Club")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name="Riverside 升级 Club")).to_be_visible()

    page.get_by_role("link", name="See all members").click()
    for name, role in [("王伟", "player"), ("张敏", "director"), ("Tom Baker", "player")]:
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Role", exact=True).select_option(role)
        page.get_by_role("button", name="Add member").click()
        # htmx swaps the list in place: the new row appears without a page load.
        expect(page.locator("#members td", has_text=name)).to_be_visible()
    page.get_by_label("Name", exact=True).fill("王伟")
    page.get_by_role("button", name="Add member").click()
    expect(page.get_by_text("A member of this club already has this name.")).to_be_visible()
    expect(page.locator("#members tbody tr")).to_have_count(4)

    # Removing asks first (static/app.js): dismiss keeps the member, accept removes.
    row = page.locator("#members tr", has_text="Tom Baker")
    page.once("dialog", lambda dialog: dialog.dismiss())
    row.get_by_role("button", name="Remove").click()
    expect(page.locator("#members tbody tr")).to_have_count(4)
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Remove").click()
    expect(page.get_by_text("Tom Baker removed from the club.")).to_be_visible()
    expect(page.locator("#members tbody tr")).to_have_count(3)

    page.get_by_role("button", name="中文").click()
    expect(page.get_by_role("heading", name="成员", exact=True)).to_be_visible()
    expect(page.get_by_text("按名字添加成员")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")

    shots = ROOT / "test-artifacts"
    shots.mkdir(exist_ok=True)
    page.screenshot(path=str(shots / "browser_members_zh.png"), full_page=True)
    if os.environ.get("SCREENSHOT_TO_DOCS"):
        page.screenshot(path=str(ROOT / "docs" / "screenshot.png"), full_page=True)

    # The choice is remembered on the next page, and switching back works.
    page.get_by_role("link", name="Riverside 升级 Club").first.click()
    expect(page.get_by_text("你的角色：负责人")).to_be_visible()
    page.get_by_role("button", name="English").click()
    expect(page.get_by_text("Your role: Owner")).to_be_visible()
    assert problems == [], problems  # no script errors, nothing blocked by the CSP
