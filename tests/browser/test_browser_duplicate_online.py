"""A duplicate team match played online in a real Chromium: the director creates a two-team
event of 2 boards, plays its round online (4 online tables: 2 tables × 2 boards), lets bots play
every seat from the tables' pages, and reads the match's IMPs and VPs on the event page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from app.competition.duplicate import vp

pytestmark = pytest.mark.browser


def test_a_team_match_of_two_boards_played_online_by_bots(page: Page, live_server: str) -> None:
    page.goto(live_server + "/account/register", wait_until="domcontentloaded")
    page.get_by_label("Login name").fill("dora")
    page.get_by_label("Your name").fill("Dora")
    page.get_by_label("Password", exact=True).fill("a good password")
    page.get_by_label("Password again").fill("a good password")
    page.get_by_role("button", name="Create my account").click()
    page.get_by_role("link", name="Create a club").click()
    page.get_by_label("Club name").fill("Duplicate Club")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("link", name="Duplicate events: every table plays the same boards").click()
    page.get_by_label("Name", exact=True).fill("线上复式 Online teams")
    page.get_by_label("Format").select_option("teams")
    page.get_by_label("Entrants, one a line").fill("红队\n蓝队")
    page.get_by_label("Boards per round").fill("2")
    # the boards of tests/duplicate/test_duplicate_online.py: each is called and played out
    # (a board nobody calls is refused, and a refused board stops without a result online)
    page.get_by_label("Seed of the boards (optional)").fill("77")
    page.get_by_role("button", name="Create the event").click()
    event_url = page.url
    page.get_by_role("button", name="Play round 1 online").click()
    expect(page.get_by_text("Round 1 is played online at 4 tables")).to_be_visible()
    links = page.locator(".duplicate-online a")
    expect(links).to_have_count(4)
    tables = [links.nth(i).get_attribute("href") for i in range(4)]
    for href in tables:
        assert href
        page.goto(live_server + href, wait_until="domcontentloaded")
        for k in range(1, 5):  # every seat a bot; the last one plays the board out
            page.get_by_role("button", name="Let a bot play").first.click()
            expect(page.locator(".badge:not(#director-live *)", has_text="bot")).to_have_count(k)
    page.goto(event_url, wait_until="domcontentloaded")
    expect(page.get_by_text("2 of 2 tables")).to_have_count(2)  # both boards complete
    match = page.locator("li", has_text="红队 – 蓝队")
    text = match.inner_text()
    got = re.search(r"IMPs (\d+):(\d+), VPs ([\d.]+):([\d.]+) \(2 boards\)", text)
    assert got, text
    imps = int(got.group(1)), int(got.group(2))
    vps = float(got.group(3)), float(got.group(4))
    assert vps == vp(2, imps[0] - imps[1])  # the IMPs of 2 boards on the VP scale
    row = page.locator("table.duplicate-standings tbody tr").first
    expect(row).to_contain_text(f"{max(vps):.2f}")
