"""争上游 online in a real Chromium on a phone (issue 25): a person plays a whole 4-player deal
against three bots by tapping cards (only the cards of a play that beats the standing one can be
tapped; Pass when it passes), sees every seat's card count and who has gone out, the end of the
deal with the places, presses Continue, and the second deal opens with the tribute exchanged and
its cards shown to the two players only. Screenshots at 390×844 and 1920×1080 in zh and en go to
/tmp/shots/climb-*.

The app is served from the test's own database; the test reads the deal from it to decide what
seat 0 plays (the engine's heuristic bot's choice), as test_browser_online_table.py does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from app.extensions import db
from engine import climbing_deal as cd
from engine.cards import card_str, cards_str
from engine.climbing import crank
from engine.climbing_bots import ClimbingHeuristicBot
from tests.browser.browser_helpers import log_in, serving
from tests.online.online_helpers import OnlineWorld, climbing_world

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
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if (page.viewport_size or {}).get("width", 0) < 600:
        page.screenshot(path=str(SHOTS / f"{name}-screen.png"))


def _player(browser: Browser, locale: str = "en-GB", viewport: Any = PHONE) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.bring_to_front()
    return page


def _deal(ow: OnlineWorld, number: int | None = None) -> cd.ClimbingDeal:
    db.session.rollback()
    rows = ow.deals()
    row = rows[-1] if number is None else next(r for r in rows if r.number == number)
    log = [a.record for a in row.actions if a.record["kind"] not in ("ready", "continue")]
    return cd.replay(row.setup, log)


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


def _tap(page: Page, codes: list[str]) -> None:
    for code in codes:
        copies = page.locator(f'#hand label.card:has(input[value="{code}"])')
        for i in range(copies.count()):
            box = copies.nth(i).locator("input")
            if not box.is_checked():
                copies.nth(i).click()
                expect(box).to_be_checked()
                break
        else:
            raise AssertionError(f"no unselected {code} in the hand")


def _wait_for_me(page: Page) -> str:
    page.wait_for_function(
        "() => document.querySelector('#summary')"
        " || document.querySelector('#seat').dataset.myTurn === '1'"
    )
    return "summary" if page.locator("#summary").count() else "turn"


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def _greyed_as_the_engine_says(page: Page, deal: cd.ClimbingDeal) -> None:
    """The hand in climbing order; only the engine's playable cards can be tapped."""
    shown = page.locator("#hand input[name=cards]")
    assert [shown.nth(i).get_attribute("value") for i in range(shown.count())] == cards_str(
        deal.hand(0)
    )
    usable = page.locator("#hand label.card:not(.off) input")
    got = sorted(usable.nth(i).get_attribute("value") or "" for i in range(usable.count()))
    assert got == sorted(cards_str(deal.playable_cards(0)))


def _move(ow: OnlineWorld, page: Page) -> str:
    """Seat 0's move as the heuristic bot would make it, by tapping; the kind of move."""
    deal = _deal(ow)
    assert deal.to_act == 0
    action = ClimbingHeuristicBot(3).act(deal, 0)
    kind = action[0]
    if kind == "pass":
        _submit(page, '#seat button[data-move="pass"]')
    else:
        if kind == "play":
            _greyed_as_the_engine_says(page, deal)
            cards = cards_str(action[2])
        else:
            cards = [card_str(action[2])]
        _tap(page, cards)
        _submit(page, f'#seat button[data-move="{kind}"]')
    expect(page.locator("#seat [role=alert]")).to_have_count(0)
    return str(kind)


def _play_to_end(ow: OnlineWorld, page: Page, shots: str) -> list[str]:
    made: list[str] = []
    for _ in range(200):
        if _wait_for_me(page) == "summary":
            return made
        if made.count("play") == 2:
            _shot(page, shots)
        made.append(_move(ow, page))
    raise AssertionError("the deal never ended")


def test_a_whole_climbing_deal_by_tapping_then_the_tribute(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = climbing_world(client, deals=3)
    ow.bots(1, 2, 3)
    seats = ow.seats()
    page = _player(browser)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{served}/play/{seats[0].token}", wait_until="domcontentloaded")
    expect(page.locator("#climb-seats li")).to_have_count(4)
    deal = _deal(ow)
    for s in range(4):  # every seat's card count
        expect(page.locator(f'#climb-seats li[data-seat="{s}"]')).to_have_attribute(
            "data-cards", str(len(deal.hands[s]))
        )
    _no_sideways_scroll(page)
    made = _play_to_end(ow, page, "climb-table-phone-en")
    assert "play" in made
    first = _deal(ow, 1)
    assert first.result is not None
    # the end of the deal: the places in order, the next deal's tribute announced
    _shot(page, "climb-end-phone-en")
    rows = page.locator("#places tbody tr")
    expect(rows).to_have_count(4)
    order = [int(rows.nth(i).get_attribute("data-seat") or "-1") for i in range(4)]
    assert order == list(first.result.out_order)
    expect(page.locator("#next-tribute")).to_be_visible()
    _no_sideways_scroll(page)
    # Continue: the only human is ready, deal 2 starts with the tribute
    _submit(page, '#seat button[data-move="ready"]')
    expect(page.locator("#climb-seats")).to_be_visible()
    second = _deal(ow, 2)
    assert second.setup.loser == first.result.loser
    assert second.setup.winner == first.result.winner
    loser, winner = first.result.loser, first.result.winner
    expect(page.locator("#tribute")).to_be_visible()
    if not second.refused and 0 in (loser, winner):
        # seat 0 pays (or takes) the tribute itself, by tapping
        for _ in range(2):
            d = _deal(ow)
            if d.phase not in (cd.TRIBUTE, cd.RETURN) or d.to_act != 0:
                break
            if d.phase == cd.TRIBUTE:  # only the cards of the highest rank can be tapped
                usable = page.locator("#hand label.card:not(.off) input")
                rank = d.tribute_rank()
                tops = [c for c in d.hands[0] if crank(c) == rank]
                expect(usable).to_have_count(len(tops))
            _shot(page, "climb-tribute-phone-en")
            _move(ow, page)
    second = _deal(ow, 2)
    if not second.refused:
        assert second.tribute_card is not None and second.returned_card is not None
        given, back = card_str(second.tribute_card), card_str(second.returned_card)
        # the two players see both cards; a third seat sees neither
        third = next(s for s in range(4) if s not in (loser, winner))
        for s in (loser, winner, third):
            other = page if s == 0 else _player(browser)
            if s != 0:
                other.goto(f"{served}/play/{seats[s].token}", wait_until="domcontentloaded")
            else:
                other.reload(wait_until="domcontentloaded")
            note = other.locator("#tribute")
            expect(note).to_be_visible()
            if s in (loser, winner):
                expect(note.locator(f'[data-card="{given}"]')).to_have_count(1)
                expect(note.locator(f'[data-card="{back}"]')).to_have_count(1)
            else:
                expect(note.locator("[data-card]")).to_have_count(0)
            if s == 0:
                _shot(page, "climb-tribute-shown-phone-en")
            else:
                other.context.close()
    else:
        expect(page.locator("#tribute")).to_contain_text(re.compile("抗贡"))
    # the same seat in Chinese, on a phone and on a desktop
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        zh = _player(browser, "zh-CN", viewport)
        zh.goto(f"{served}/play/{seats[0].token}", wait_until="domcontentloaded")
        expect(zh.locator("#tribute")).to_contain_text("进贡")
        _no_sideways_scroll(zh)
        _shot(zh, f"climb-tribute-{size}-zh")
        zh.context.close()
    # the first deal's replay, move by move, for the seat's player
    page.goto(f"{served}/play/{seats[0].token}/replays/1", wait_until="domcontentloaded")
    moves = page.locator("#climb-moves li")
    expect(moves).to_have_count(sum(1 for r in first.log if r.kind in ("play", "pass")))
    expect(page.locator("#replay-places")).to_contain_text("1.")
    _no_sideways_scroll(page)
    _shot(page, "climb-replay-phone-en")
    assert not problems, problems


def test_climbing_pages_in_both_languages_and_sizes(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = climbing_world(client, deals=2)
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    for locale, lang in (("zh-CN", "zh"), ("en-GB", "en")):
        for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page = _player(browser, locale, viewport)
            page.goto(f"{served}/play/{token}", wait_until="domcontentloaded")
            expect(page.locator("#climb-seats")).to_be_visible()
            _no_sideways_scroll(page)
            if lang == "zh":
                expect(page.locator("#seat")).to_contain_text("你的手牌")
            _shot(page, f"climb-seat-{size}-{lang}")
            page.context.close()
    # a spectator (the director) sees the table and no hand
    page = _player(browser, "zh-CN", PHONE)
    log_in(page, served, "director")
    watch = ow.table_url.replace("/online", "/watch")
    page.goto(f"{served}{watch}", wait_until="domcontentloaded")
    expect(page.locator("#climb-seats tbody tr")).to_have_count(4)
    expect(page.locator("#hand")).to_have_count(0)
    _no_sideways_scroll(page)
    _shot(page, "climb-watch-phone-zh")
    page.context.close()
