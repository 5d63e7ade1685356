"""A board's traveller fits the screen (issue 22): at 1280×800 and at 390 px a director sees every
field of every line without scrolling sideways, for the widest travellers (红五 individuals: five
seats with long names; 120分 teams of trios); on a phone each line is a card whose cells are
labelled with their column's name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.browser_helpers import register_with_a_club

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("TRAVELLER_SHOTS")  # a folder: save the screenshots there to look at
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _event(page: Page, name: str, variant: str, kind: str, entrants: list[str]) -> str:
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Game").select_option(variant)
    page.get_by_label("Format").select_option(kind)
    page.get_by_label("Entrants, one a line").fill("\n".join(entrants))
    page.get_by_label("Boards per round").fill("2")
    page.get_by_label("Seed of the boards (optional)").fill("5")
    page.get_by_role("button", name="Create the event").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return page.url


def _fits(page: Page, width: int) -> None:
    """Nothing wider than the window: not the page, not the traveller's table."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator("table.duplicate-traveller").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    wrap = page.locator("table.duplicate-traveller").locator("xpath=..")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the table scrolls sideways"
    fields = "table.duplicate-traveller input:not([type=hidden]), table.duplicate-traveller select"
    assert page.locator(fields).count() >= 2
    for field in page.locator(fields).all():
        b = field.bounding_box()
        assert b is not None and b["x"] + b["width"] <= width + 0.5, b


def test_the_traveller_fits_a_desktop_and_a_phone(page: Page, live_server: str) -> None:
    page.set_viewport_size(DESKTOP)
    register_with_a_club(page, live_server, "tess", "Tess", "Traveller Club")
    duplicate = page.url.rstrip("/") + "/duplicate"
    page.goto(duplicate, wait_until="domcontentloaded")
    players = [f"选手{i} Alexandra Montgomery-{i}" for i in range(10)]
    red = _event(page, "红五 individuals", "red-five-5p", "individuals", players)
    page.goto(duplicate, wait_until="domcontentloaded")
    trios = [f"{c}队 The Very Long Team Name of {c}" for c in "甲乙丙丁"]
    teams = _event(page, "120分 teams", "one-twenty-6p", "teams", trios)
    for name, url in (("red-five", red), ("teams", teams)):
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.goto(url + "/boards/1", wait_until="domcontentloaded")
            expect(page.locator("table.duplicate-traveller")).to_be_visible()
            if SHOTS:
                page.screenshot(path=str(Path(SHOTS) / f"traveller-{name}-{size['width']}.png"))
            _fits(page, size["width"])
            if size is PHONE:  # each line is a card, its cells under their column's name
                cell = page.locator("table.duplicate-traveller tbody td").nth(2)
                label = cell.evaluate("e => getComputedStyle(e, '::before').content")
                assert ("Seat 1" if name == "red-five" else "Side A") in label
