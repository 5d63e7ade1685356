"""A player on a phone (390×844) plays a few tricks at an online table against three bots: the
director switches the table online and marks three seats as bots, the player opens seat 1's link,
lets the deal go on or passes, buries when asked, and plays legal cards (htmx, no reloads)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def _director_sets_up(page: Page, live_server: str) -> str:
    page.goto(live_server + "/account/register", wait_until="domcontentloaded")
    page.get_by_label("Login name").fill("olive")
    page.get_by_label("Your name").fill("Olive")
    page.get_by_label("Password", exact=True).fill("a good password")
    page.get_by_label("Password again").fill("a good password")
    page.get_by_role("button", name="Create my account").click()
    page.get_by_role("link", name="Create a club").click()
    page.get_by_label("Club name").fill("Online Club")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Tournament name").fill("Online Cup 线上杯")
    page.get_by_label("Rounds").fill("1")
    page.locator("#match_value").fill("1")  # the number of deals (its label follows the kind)
    page.get_by_role("button", name="Create the tournament").click()
    for a, b in [("李伟", "张敏"), ("Wang", "Zhao")]:
        page.get_by_label("Player 1").fill(a)
        page.get_by_label("Player 2").fill(b)
        page.get_by_role("button", name="Add entrant").click()
        expect(page.locator("#entrants td", has_text=f"{a} & {b}")).to_be_visible()
    page.get_by_role("button", name="Seat round 1").click()
    page.get_by_role("link", name="Score sheet", exact=True).first.click()
    page.get_by_role("link", name="Online play").click()
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Play this table online").click()
    expect(page.get_by_text("The table is played online")).to_be_visible()
    for _ in range(3):  # seats 2, 3, 4 become bots (the first "Let a bot play" is seat 1's)
        page.get_by_role("button", name="Let a bot play").nth(1).click()
        expect(page.get_by_text("is played by a bot.")).to_be_visible()
    # the seat links (the live view below them marks the bots again)
    expect(page.locator(".badge:not(#director-live *)", has_text="bot")).to_have_count(3)
    link = page.locator("input.copy").first.input_value()
    assert re.search(r"/play/[A-Za-z0-9_-]{20,}$", link), link
    return link


def _submit(page: Page, button: str) -> None:
    """Click a move's button and wait until htmx has swapped in the answer (a new #seat)."""
    page.evaluate("document.querySelector('#seat').dataset.old = '1'")
    page.locator(button).click()
    page.wait_for_function(
        "() => { const s = document.querySelector('#seat'); return s && !s.dataset.old; }"
    )


def _play_once(page: Page) -> bool:
    """Make one move of seat 1; True when it was a play of cards."""
    seat = page.locator("#seat")
    for move in ("continue", "pass"):
        if seat.locator(f'button[data-move="{move}"]').count():
            _submit(page, f'#seat button[data-move="{move}"]')
            return False
    enabled = seat.locator(".hand label.card:not(.off)")
    if seat.locator('button[data-move="bury"]').count():
        for i in range(8):
            enabled.nth(i).click()
        _submit(page, '#seat button[data-move="bury"]')
        expect(seat.locator('button[data-move="bury"]')).to_have_count(0)
        return False
    play = seat.locator('button[data-move="play"]')
    assert play.count(), seat.inner_text()
    trick = seat.locator("#trick")
    k = 1
    if trick.count() and "Current trick" in trick.inner_text():
        k = trick.locator("li").first.locator(".pc").count()
    n = enabled.count()
    assert n >= k
    for start in range(n - k + 1):  # adjacent cards first: pairs and tractors sit together
        for i in range(start, start + k):
            enabled.nth(i).click()
        _submit(page, '#seat button[data-move="play"]')
        if not page.locator("#seat [role=alert]").count():
            return True
        enabled = page.locator("#seat .hand label.card:not(.off)")
    raise AssertionError("no legal play found")


def test_a_player_plays_tricks_against_bots_on_a_phone(page: Page, live_server: str) -> None:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.set_viewport_size({"width": 390, "height": 844})
    link = _director_sets_up(page, live_server)
    player = page.context.browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[union-attr]
    player.on(
        "console",
        # a refused combination (422, retried by _play_once) is logged by the browser itself
        lambda m: (
            problems.append(m.text) if m.type == "error" and "status of 422" not in m.text else None
        ),
    )
    player.bring_to_front()  # a background tab's timers (the 2 s poll) are throttled
    player.goto(link, wait_until="domcontentloaded")
    expect(player.locator("#seat")).to_be_visible()
    expect(player.get_by_text("Your turn.")).to_be_visible()
    plays = 0
    for _ in range(40):
        expect(player.get_by_text("Your turn.")).to_be_visible()
        if _play_once(player):
            plays += 1
            if plays == 4:
                break
    assert plays == 4
    # four tricks of seat 1: the table shows the trick, the trump, the points; the hand shrank
    expect(player.locator("#trick li")).not_to_have_count(0)
    hand = player.locator("#seat .hand .card").count()
    assert 0 < hand <= 21
    # card faces: suit symbols, red suits red, jokers as 大王/小王
    faces = player.evaluate(
        "[...document.querySelectorAll('#seat .hand .card')]"
        ".map(c => [c.innerText.trim(), c.classList.contains('red')])"
    )
    for text, red in faces:
        assert text[-1] in "♠♥♦♣" or text in ("大王", "小王"), text
        assert red == (text[-1] in "♥♦" or text == "大王"), (text, red)
    # nothing scrolls sideways on the phone
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    # a reload resumes the same state (the server holds it, not the page)
    token = player.locator("#seat").get_attribute("data-token")
    player.reload(wait_until="domcontentloaded")
    assert player.locator("#seat").get_attribute("data-token") == token
    assert not problems, problems
