"""打百分 online in a real Chromium on a phone (issue 24): a person plays a whole hundred-4p deal
with a hidden friend against three bots — bids with the buttons of the legal bids (then the
auction ends on 100), buries six cards by tapping, names trump, calls a friend card another seat
holds, plays every trick by tapping — and sees the friend unrevealed to the others until its
card falls, then the end of the deal with the bid, the threshold 100 − B and the result; and a
3人百分 deal where the declarer plays the dummy laid out opposite it. Screenshots at 390×844
(and 1920×1080) in en and zh go to /tmp/shots/hundred-online-*.

The app is served from the test's own database; the test reads the deal from it to decide what
seat 0 plays (the engine's heuristic bot's choice), as test_browser_online_climbing.py does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from app.extensions import db
from engine import hundred as hd
from engine.cards import card_str, cards_str
from engine.hundred_bots import HeuristicHundredBot
from tests.browser.browser_helpers import log_in, serving
from tests.online.online_helpers import OnlineWorld
from tests.online.test_online_hundred import HIDDEN, THREE, hundred_world

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots")


@pytest.fixture
def served(app: Flask) -> Iterator[str]:
    app.config["SERVER_NAME"] = None
    with serving(app, dispose=False) as base:
        yield base


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"hundred-online-{name}.png"), full_page=True)


def _player(browser: Browser, locale: str = "en-GB", viewport: Any = PHONE) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.bring_to_front()
    return page


def _deal(ow: OnlineWorld) -> hd.HundredDeal:
    db.session.rollback()
    row = ow.deals()[-1]
    log = [a.record for a in row.actions if a.record["kind"] not in ("ready", "continue")]
    return hd.replay(hd.HundredSetup.from_json(row.setup), log)


def _submit(page: Page, button: str) -> None:
    """Click a move's button and wait for the answer (a new state, or a refusal)."""
    before = page.evaluate(
        "(() => { const s = document.querySelector('#seat');"
        " s.dataset.old = '1'; return s.dataset.token; })()"
    )
    page.locator(button).first.click()
    page.wait_for_function(
        "before => { const s = document.querySelector('#seat'); return s && !s.dataset.old"
        " && (s.dataset.token !== before || !!s.querySelector('[role=alert]')); }",
        arg=before,
    )
    expect(page.locator("#seat [role=alert]")).to_have_count(0)


def _tap(page: Page, where: str, codes: list[str]) -> None:
    for code in codes:
        copies = page.locator(f'{where} label.card:has(input[value="{code}"])')
        box = copies.first.locator("input")
        copies.first.click()
        expect(box).to_be_checked()


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def _wait_for_me(page: Page) -> str:
    page.wait_for_function(
        "() => document.querySelector('#summary')"
        " || document.querySelector('#seat').dataset.myTurn === '1'"
    )
    return "summary" if page.locator("#summary").count() else "turn"


def _declare(ow: OnlineWorld, page: Page, shots: str) -> hd.HundredDeal:
    """Seat 0 bids 100 with its button (the legal bids only), buries by tapping, names ♥."""
    deal = _deal(ow)
    assert deal.phase == hd.AUCTION and deal.to_act == 0
    buttons = page.locator("#bid-buttons button[data-bid]")
    expect(buttons).to_have_count(len(deal.legal_bids(0)))
    got = [int(buttons.nth(i).get_attribute("data-bid") or 0) for i in range(buttons.count())]
    assert got == deal.legal_bids(0)
    expect(page.locator('#bid-buttons button[data-move="pass"]')).to_be_visible()
    _no_sideways_scroll(page)
    _shot(page, f"{shots}-auction")
    _submit(page, '#bid-buttons button[data-bid="100"]')
    deal = _deal(ow)
    assert deal.declarer == 0 and deal.phase == hd.BURY
    bury = cards_str(HeuristicHundredBot(1).bury(deal, 0))
    _tap(page, "#hand", bury)
    expect(page.locator("[data-selected-count]")).to_contain_text("6/6")
    _shot(page, f"{shots}-bury")
    _submit(page, '#seat button[data-move="bury"]')
    expect(page.locator("#trump-buttons button")).to_have_count(4)
    _shot(page, f"{shots}-trump")
    _submit(page, '#trump-buttons button[data-trump="H"]')
    return _deal(ow)


def _play_to_end(ow: OnlineWorld, page: Page, shots: str, check: Any = None) -> int:
    for moves_made in range(60):
        if _wait_for_me(page) == "summary":
            return moves_made
        deal = _deal(ow)
        assert deal.phase == hd.PLAY and deal.to_act == 0
        if check is not None:
            check(deal)
        play = cards_str(HeuristicHundredBot(3).act(deal, 0)[2])
        where = "#dummy-hand" if deal.turn_hand == hd.DUMMY else "#hand"
        usable = page.locator(f"{where} label.card:not(.off) input")
        got = sorted(usable.nth(i).get_attribute("value") or "" for i in range(usable.count()))
        assert got == sorted(cards_str(deal.playable_cards(0)))
        _tap(page, where, play)
        if len(deal.tricks) == 3:
            _shot(page, f"{shots}-play")
        _submit(page, '#seat button[data-move="play"]')
    raise AssertionError("the deal never ended")


def test_a_whole_hidden_friend_deal_by_tapping(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    seats = ow.seats()
    page = _player(browser)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{served}/play/{seats[0].token}", wait_until="domcontentloaded")
    expect(page.locator("#felt .place")).to_have_count(4)
    deal = _declare(ow, page, "4p")
    assert deal.phase == hd.FRIEND
    # the friend card: a card seat 2 holds, chosen from the cards seat 0 may call
    card = card_str(max(deal.hands[2]))
    page.locator("#friend-card").select_option(card)
    _shot(page, "4p-friend")
    _submit(page, '#friend-form button[data-move="friend"]')
    expect(page.locator("#friend")).to_contain_text("not yet revealed")
    # seat 1 (another player) does not know the friend; seat 2 does
    other = _player(browser)
    holder = _player(browser)
    other.goto(f"{served}/play/{seats[1].token}", wait_until="domcontentloaded")
    holder.goto(f"{served}/play/{seats[2].token}", wait_until="domcontentloaded")
    expect(other.locator("[data-friend]")).to_have_count(0)
    expect(other.locator("#friend")).to_contain_text("not yet revealed")
    expect(holder.locator("#secret-friend")).to_be_visible()
    _shot(holder, "4p-friend-holder")
    seen_hidden = []

    def check(d: hd.HundredDeal) -> None:
        if not d.friend_revealed:
            expect(page.locator("#felt [data-friend]")).to_have_count(0)
            seen_hidden.append(True)
        else:
            expect(page.locator('#felt [data-friend="2"]')).to_have_count(1)

    tricks = _play_to_end(ow, page, "4p", check)
    assert tricks >= 12 and seen_hidden
    end = _deal(ow)
    assert end.phase == hd.DONE and end.result is not None
    # the end: the bid, the threshold 100 − B and the result
    expect(page.locator("#end-bid")).to_have_text("100")
    expect(page.locator("#end-threshold")).to_contain_text("100 − 100 = 0")
    expect(page.locator("#summary")).to_have_attribute("data-winner", end.result.winner)
    expect(page.locator("#end-scores tbody tr")).to_have_count(4)
    _no_sideways_scroll(page)
    _shot(page, "4p-end")
    # the friend, revealed, on the other seat's page once the card has fallen
    other.reload(wait_until="domcontentloaded")
    expect(other.locator("#end-facts")).to_be_visible()
    for p in (other, holder):
        p.context.close()
    # the replay of the deal: 12 tricks, the auction, where the friend was revealed
    page.goto(f"{served}/play/{seats[0].token}/replays/1", wait_until="domcontentloaded")
    expect(page.locator("#hundred-tricks li")).to_have_count(12)
    expect(page.locator("#hundred-tricks li[data-revealed]")).to_have_count(1)
    _shot(page, "4p-replay")
    assert not problems, problems


def test_a_three_player_deal_with_the_dummy(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = hundred_world(client, THREE, entrants=3)
    ow.bots(1, 2)
    seats = ow.seats()
    page = _player(browser)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{served}/play/{seats[0].token}", wait_until="domcontentloaded")
    expect(page.locator("#felt .place")).to_have_count(4)
    deal = _declare(ow, page, "3p")
    assert deal.phase == hd.PLAY
    # the dummy face up opposite its declarer (seat 0 at the bottom: the dummy on top)
    dummy = page.locator("#felt .place.top.dummy")
    expect(dummy).to_have_count(1)
    for c in cards_str(deal.hands[hd.DUMMY]):
        expect(dummy.locator(f'[data-card="{c}"]')).to_have_count(1)
    _no_sideways_scroll(page)
    _shot(page, "3p-dummy")
    played_dummy = []

    def check(d: hd.HundredDeal) -> None:
        if d.turn_hand == hd.DUMMY:
            expect(page.locator("#dummy-hand")).to_be_visible()
            if not played_dummy:
                _shot(page, "3p-dummy-turn")
            played_dummy.append(True)

    _play_to_end(ow, page, "3p", check)
    assert played_dummy
    end = _deal(ow)
    assert end.result is not None
    expect(page.locator("#end-scores tbody tr")).to_have_count(3)
    _shot(page, "3p-end")
    # a spectator sees the dummy's place and no hand
    watcher = _player(browser, "zh-CN")
    log_in(watcher, served, "director")
    watch = ow.table_url.replace("/online", "/watch")
    watcher.goto(f"{served}{watch}", wait_until="domcontentloaded")
    expect(watcher.locator("#hundred-places tbody tr")).to_have_count(4)
    expect(watcher.locator("#hand")).to_have_count(0)
    _no_sideways_scroll(watcher)
    _shot(watcher, "3p-watch-zh")
    watcher.context.close()
    assert not problems, problems


def test_hundred_pages_in_both_languages_and_sizes(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = hundred_world(client, HIDDEN)
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    for locale, lang in (("zh-CN", "zh"), ("en-GB", "en")):
        for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page = _player(browser, locale, viewport)
            page.goto(f"{served}/play/{token}", wait_until="domcontentloaded")
            expect(page.locator("#bid-buttons")).to_be_visible()
            _no_sideways_scroll(page)
            if lang == "zh":
                expect(page.locator("#seat")).to_contain_text("叫分")
            _shot(page, f"seat-{size}-{lang}")
            page.context.close()
