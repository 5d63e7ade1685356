"""A spectator watches an online table live: the director sets a table online with three bots, opens
the spectators' page (seat 1's player keeps the table waiting), then seats a bot for seat 1 from
the director's page: the bot-only table plays its match, and the open spectator page follows by
itself (htmx polling, no reload), never showing a hand."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_browser_online_table import _director_sets_up

pytestmark = pytest.mark.browser


def test_the_spectator_page_follows_a_bot_table_as_it_plays(page: Page, live_server: str) -> None:
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.set_viewport_size({"width": 1280, "height": 900})
    _director_sets_up(page, live_server)
    director_url = page.url
    page.get_by_role("link", name="Spectators' page").click()
    expect(page.locator("#watch")).to_be_visible()
    watch_url = page.url
    assert re.search(r"/tables/\d+/watch$", watch_url), watch_url
    spectator = page.context.new_page()  # the same club member, in a page of its own
    spectator.set_viewport_size({"width": 390, "height": 844})
    spectator.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    spectator.on("pageerror", lambda e: problems.append(str(e)))
    spectator.goto(watch_url, wait_until="domcontentloaded")
    # seat 1 is the one human seat; who sits there depends on the recorded first-round draw
    expect(spectator.locator("#watch-status")).to_contain_text(
        re.compile("waiting for (李伟|Wang)")
    )
    token = spectator.locator("#watch").get_attribute("data-token")
    spectator.evaluate("window.stillHere = true")  # gone if the page were reloaded
    assert spectator.locator(".hand, input[name=cards]").count() == 0
    # the director seats a bot for seat 1: four bots play the whole match at once
    page.goto(director_url, wait_until="domcontentloaded")
    page.locator('[data-control="bot-0"]').click()
    expect(page.get_by_text("Seat 1 is played by a bot.")).to_be_visible()
    spectator.bring_to_front()  # a background tab's timers (the 2 s poll) are throttled
    expect(spectator.locator("#watch-status")).to_contain_text("The match is over.")
    assert spectator.locator("#watch").get_attribute("data-token") != token
    assert spectator.evaluate("window.stillHere === true")  # swapped in place, not reloaded
    # the last trick is on the table, with its winner; the finished deal can be replayed
    expect(spectator.locator("#watch-last li")).to_have_count(4)
    expect(spectator.locator("#watch-last li.won")).to_have_count(1)
    expect(spectator.locator("ul.replays a").first).to_be_visible()
    assert spectator.locator(".hand, input[name=cards]").count() == 0
    width = spectator.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    # the replay, trick by trick with htmx (the address follows), then without a script's help
    spectator.locator("ul.replays a").first.click()
    expect(spectator.get_by_text("Before the first trick")).to_be_visible()
    spectator.get_by_role("link", name="Next trick →").click()
    expect(spectator.locator("#replay .where")).to_contain_text("Trick 1 of")
    assert spectator.url.endswith("?trick=1")
    expect(spectator.locator("#replay-trick li")).to_have_count(4)
    spectator.get_by_role("link", name="Next trick →").click()
    expect(spectator.locator("#replay .where")).to_contain_text("Trick 2 of")
    spectator.get_by_role("link", name="← Previous trick").click()
    expect(spectator.locator("#replay .where")).to_contain_text("Trick 1 of")
    assert not problems, problems
