"""Online tables in a real Chromium: a person plays whole deals against bots by tapping cards on
a phone (升级, 红五 with a friend call, 120分) and sees each deal's summary with the kitty face up;
the director's set-up through the pages; the Chinese page shows a refused play in its error area;
screenshots of the table and the summary at 390×844 and 1920×1080 in zh and en go to /tmp/shots/.

The app is served from the test's own database (the ``app`` fixture), so a test reads the deal
from it to decide which cards to tap (a bot's choice for the human seat)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from app.extensions import db
from app.models import Table, Tournament
from app.services.online.cards import card_face
from engine.bots import HeuristicBot
from engine.cards import cards_str
from engine.deal import Record
from tests.browser.browser_helpers import register_with_a_club, serving
from tests.online.online_helpers import OnlineWorld, online_world, replay_row

pytestmark = pytest.mark.browser
PUSH = pytest.mark.every_database(
    "pushed by an in-process announcement on SQLite, by LISTEN/NOTIFY on PostgreSQL"
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots")


@pytest.fixture
def served(app: Flask) -> Iterator[str]:
    """The test's app (its database, the test's own monkeypatches) served on a free port."""
    app.config["SERVER_NAME"] = None
    with serving(app, dispose=False) as base:
        yield base


def _shot(page: Page, name: str) -> None:
    """The whole page, and on a phone also the first screen as its player sees it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if (page.viewport_size or {}).get("width", 0) < 600:
        page.screenshot(path=str(SHOTS / f"{name}-screen.png"))


def _player(browser: Browser, locale: str = "en-GB", viewport: Any = PHONE) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.bring_to_front()  # a background tab's timers (the 2 s poll) are throttled
    return page


def _submit(page: Page, button: str) -> None:
    """Click a move's button and wait until htmx has swapped in the answer: a new #seat with a
    later state, or the same state with a refusal (a push of the state already shown, arriving
    meanwhile, must not pass for the answer)."""
    before = page.evaluate(
        "(() => { const s = document.querySelector('#seat');"
        " s.dataset.old = '1'; return s.dataset.token; })()"
    )
    target = page.locator(button).first
    # the form's own address: a move posts to the seat's page, "Continue" to its ready_url
    path = urlparse(target.evaluate("b => b.closest('form').action")).path
    with page.expect_response(
        lambda r: r.request.method == "POST" and urlparse(r.url).path == path
    ):
        target.click()
    page.wait_for_function(
        "before => { const s = document.querySelector('#seat'); return s && !s.dataset.old"
        " && (s.dataset.token !== before || !!s.querySelector('[role=alert]')); }",
        arg=before,
    )


def _tap(page: Page, codes: list[str]) -> None:
    """Tap each card of the hand (a second copy of a card is the next unselected one)."""
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
    """Wait until seat 0 must act or its deal is over; 'turn' or 'summary'."""
    page.wait_for_function(
        "() => document.querySelector('#summary')"
        " || document.querySelector('#seat').dataset.myTurn === '1'"
    )
    return "summary" if page.locator("#summary").count() else "turn"


def _deal(ow: OnlineWorld) -> Any:
    """The current deal as the server has it now (a fresh read: the test's session holds no
    snapshot of the file database)."""
    db.session.rollback()
    return replay_row(ow.deals()[-1])


def _choose(ow: OnlineWorld, page: Page, seat: int = 0) -> str:
    """Prepare seat 0's move as a bot would choose it (cards tapped, a friend card picked);
    returns the kind of move, whose button is then pressed."""
    seat_el = page.locator("#seat")
    for kind in ("continue", "pass"):
        if seat_el.locator(f'button[data-move="{kind}"]').count():
            return kind
    if seat_el.locator('button[data-move="friend"]').count():
        page.locator("#seat select[name=card]").select_option("AS")
        return "friend"
    deal = _deal(ow)
    kind, _s, cards = HeuristicBot(5).act(deal, seat)
    assert kind in ("bury", "play"), kind
    _tap(page, cards_str(cards))
    return kind


def _move(ow: OnlineWorld, page: Page, seat: int = 0) -> str:
    """Make seat 0's move by tapping what a bot would choose; returns the kind of move."""
    kind = _choose(ow, page, seat)
    _submit(page, f'#seat button[data-move="{kind}"]')
    expect(page.locator("#seat [role=alert]")).to_have_count(0)
    return kind


def _play_to_summary(ow: OnlineWorld, page: Page, shots: str | None = None) -> list[str]:
    made: list[str] = []
    for _ in range(200):
        if _wait_for_me(page) == "summary":
            return made
        if shots and made.count("play") == 3:
            _shot(page, shots)
        if shots and page.locator('#seat button[data-move="bury"]').count():
            _shot(page, f"{shots}-bury")
            # the same moment on a phone: the largest hand of all (red five: 31 + 7 cards)
            phone = _player(page.context.browser, viewport=PHONE)  # type: ignore[arg-type]
            phone.goto(page.url, wait_until="domcontentloaded")
            _no_sideways_scroll(phone)
            _shot(phone, f"{shots}-bury-phone")
            phone.context.close()
        made.append(_move(ow, page))
    raise AssertionError("the deal never ended")


def _check_summary(ow: OnlineWorld, page: Page) -> None:
    deal = _deal(ow)
    assert deal.outcome == "played" and deal.result is not None
    kitty = page.locator("#kitty .pc")  # the deal is over: the kitty face up for every seat
    expect(kitty).to_have_count(len(deal.buried))
    texts = sorted(kitty.all_inner_texts())
    assert texts == sorted(card_face(c)["label"] for c in deal.buried)
    if not deal.kitty_revealed:  # the declarers won the last trick: it does not count
        expect(page.locator("#multiplier")).to_contain_text(re.compile("does not count|不计分"))
    expect(page.locator("#last-trick li")).to_have_count(deal.n)
    expect(page.locator("#result")).not_to_be_empty()
    if deal.kitty_bonus:
        expect(page.locator("#multiplier")).to_contain_text(f"×{deal.kitty_bonus[1]}")


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def _director_sets_up(page: Page, live_server: str) -> str:
    register_with_a_club(page, live_server, "olive", "Olive", "Online Club")
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


def _play_once(page: Page) -> bool:
    """One move of seat 1 found by trying the page's playable cards, adjacent ones first (pairs
    and tractors sit together); True when it was a play of cards."""
    seat = page.locator("#seat")
    for move in ("continue", "pass"):
        if seat.locator(f'button[data-move="{move}"]').count():
            _submit(page, f'#seat button[data-move="{move}"]')
            return False
    enabled = seat.locator("#hand label.card:not(.off)")
    if seat.locator('button[data-move="bury"]').count():
        expect(seat.locator("[data-selected-count]")).to_have_text("0/8")
        for i in range(8):
            enabled.nth(i).click()
        expect(seat.locator("[data-selected-count]")).to_have_text("8/8")  # kitty size
        _submit(page, '#seat button[data-move="bury"]')
        expect(seat.locator('button[data-move="bury"]')).to_have_count(0)
        return False
    assert seat.locator('button[data-move="play"]').count(), seat.inner_text()
    k = int(page.locator("#table").get_attribute("data-lead-size") or "1")
    n = enabled.count()
    assert n >= k
    for start in range(n - k + 1):
        for i in range(start, start + k):
            enabled.nth(i).click()
        # following: the count says how many the lead asks for; leading: only how many
        following = page.locator("#table").get_attribute("data-lead-size") is not None
        expect(seat.locator("[data-selected-count]")).to_have_text(
            f"{k}/{k}" if following else f"{k}"
        )
        _submit(page, '#seat button[data-move="play"]')
        if not page.locator("#seat [role=alert]").count():
            return True
        enabled = page.locator("#seat #hand label.card:not(.off)")
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
    # four tricks of seat 1: the table shows the trick or the previous one; the hand shrank
    assert player.locator("#table .play").count() + player.locator("#previous").count() > 0
    hand = player.locator("#seat .hand .card").count()
    assert 0 < hand <= 21
    # card faces: suit symbols, red suits red, jokers as 大王/小王
    faces = player.evaluate(
        "[...document.querySelectorAll('#seat .hand .card')]"
        ".map(c => [(c.querySelector('.sr') ? c.querySelector('.sr').textContent : c.title)"
        ".trim(), c.classList.contains('red')])"
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


def test_a_whole_tractor_deal_by_tapping_cards(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = online_world(client, "tractor-4p", deals=2)
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    page = _player(browser)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{served}/play/{token}", wait_until="domcontentloaded")
    expect(page.locator("#table .plate")).to_have_count(4)
    expect(page.locator("#head-levels")).to_contain_text("2")  # levels from the first card
    made = _play_to_summary(ow, page, shots="tractor-table-phone-en")
    assert made.count("play") == len(_deal(ow).tricks)  # seat 0 played in every trick itself
    _shot(page, "tractor-summary-phone-en")
    _check_summary(ow, page)
    _no_sideways_scroll(page)
    # the turn alert: the title said so while it was this seat's turn; now it does not
    assert not page.title().startswith("●")
    # Continue: the only human is ready, so deal 2 starts and the table is drawn again
    _submit(page, '#seat button[data-move="ready"]')
    expect(page.locator("#table")).to_be_visible()
    db.session.rollback()
    assert [d.number for d in ow.deals()] == [1, 2]
    assert not problems, problems


COUNT_BEEPS = """
window.__beeps = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__beeps += 1; return super.createOscillator(); }
};
"""


def test_the_tab_title_and_the_sound_toggle(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    page = _player(browser)
    page.add_init_script(COUNT_BEEPS)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    _wait_for_me(page)
    assert page.title().startswith("● Your turn · ")
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_be_checked()  # on by default: this turn was announced on arrival
    page.wait_for_function("() => window.__beeps === 2")
    toggle.uncheck()  # switched off: kept in localStorage, no beep on the next turns
    assert page.evaluate("localStorage.getItem('shengji.online.sound')") == "0"
    _move(ow, page)
    _wait_for_me(page)
    page.wait_for_timeout(500)  # htmx has settled the new turn: still no beep
    assert page.evaluate("window.__beeps") == 2
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("#sound-toggle")).not_to_be_checked()  # kept off
    page.locator("#sound-toggle").check()  # the tap plays a sample beep
    assert page.evaluate("localStorage.getItem('shengji.online.sound')") == "1"
    _wait_for_me(page)
    page.wait_for_function("() => window.__beeps >= 2")
    beeps = page.evaluate("window.__beeps")
    for _ in range(3):  # each new turn beeps once (two tones), made with WebAudio
        _move(ow, page)
        _wait_for_me(page)
        if page.locator("#summary").count():
            break
        page.wait_for_function("n => window.__beeps === n", arg=beeps + 2)  # after htmx settles
        assert page.title().startswith("● Your turn · ")
        beeps += 2
    assert not [u for u in fetched if re.search(r"\.(mp3|wav|ogg|m4a)$", u)]


def test_a_red_five_deal_with_a_friend_call(
    app: Flask, client: Any, served: str, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bots never show a 2: seat 0, the previous dealer, stays dealer (压庄), buries and calls
    monkeypatch.setattr(HeuristicBot, "on_draw", lambda self, deal, seat: None)
    ow = online_world(client, "red-five-5p", deals=1)
    ow.bots(1, 2, 3, 4)
    page = _player(browser, viewport=DESKTOP)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    expect(page.locator("#table .plate")).to_have_count(5)
    made = _play_to_summary(ow, page, shots="redfive-table-desktop-en")
    assert "bury" in made and "friend" in made
    deal = _deal(ow)
    assert deal.dealer == 0 and cards_str([deal.friend_card or 0]) == ["AS"]
    _check_summary(ow, page)
    expect(page.locator("#match-result")).to_contain_text("(积分)")
    _shot(page, "redfive-summary-desktop-en")


def test_a_one_twenty_deal_in_chinese(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = online_world(client, "one-twenty-6p", deals=1)
    ow.bots(1, 2, 3, 4, 5)
    page = _player(browser, locale="zh-CN")
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    expect(page.locator("#table .plate")).to_have_count(6)
    made = _play_to_summary(ow, page, shots="onetwenty-table-phone-zh")
    assert made.count("play") == len(_deal(ow).tricks)
    _check_summary(ow, page)
    expect(page.locator("#summary")).to_contain_text("底牌")
    expect(page.locator("#match-result")).to_contain_text("级差")
    _shot(page, "onetwenty-summary-phone-zh")
    _no_sideways_scroll(page)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_wrong_size_play_is_refused_on_the_chinese_page(
    app: Flask, client: Any, served: str, browser: Browser, size: str
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    page = _player(browser, locale="zh-CN", viewport=DESKTOP if size == "desktop" else PHONE)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    for _ in range(60):  # on to a trick that seat 0 follows
        _wait_for_me(page)
        if (
            page.locator('#seat button[data-move="play"]').count()
            and page.locator("#table[data-lead-size]").count()
        ):
            break
        _move(ow, page)
    else:
        raise AssertionError("seat 0 never followed a lead")
    _shot(page, f"tractor-table-{size}-zh")
    lead = int(page.locator("#table").get_attribute("data-lead-size") or "0")
    enabled = page.locator("#hand label.card:not(.off)")
    codes = [enabled.nth(i).locator("input").get_attribute("value") or "" for i in range(lead + 1)]
    if enabled.count() <= lead:  # fewer playable cards than the lead: play one too few
        codes = codes[: lead - 1] or codes
    before = page.locator("#seat").get_attribute("data-token")
    _tap(page, codes)
    _submit(page, '#seat button[data-move="play"]')
    alert = page.locator("#errors [role=alert]")
    expect(alert).to_be_visible()
    expect(alert).to_be_in_viewport()  # by the play button, seen without scrolling
    # next to the button that was pressed: the alert and the button share the play bar
    expect(page.locator(".play-bar #errors")).to_have_count(1)
    assert alert.inner_text().strip()
    assert page.locator("#seat").get_attribute("data-token") == before  # nothing was played
    assert re.search(r"[\u4e00-\u9fff]", alert.inner_text())  # the refusal speaks Chinese
    expect(page.locator("#status")).to_contain_text("轮到你")
    _shot(page, f"tractor-refused-{size}-zh")


def test_screens_of_the_table_and_summary(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    """The summary in both languages on a phone and a wide screen (the shots in /tmp/shots are
    for a person to look at; the test checks nothing scrolls sideways), then the countdown: once
    the pause is over the page posts "next" by itself and deal 2 is on the table."""
    ow = online_world(client, "tractor-4p", deals=2)
    ow.bots(1, 2, 3)
    token = ow.seats()[0].token
    page = _player(browser)
    page.goto(f"{served}/play/{token}", wait_until="domcontentloaded")
    _play_to_summary(ow, page)
    for locale, tag in (("en-GB", "en"), ("zh-CN", "zh")):
        for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
            viewer = _player(browser, locale=locale, viewport=viewport)
            viewer.goto(f"{served}/play/{token}", wait_until="domcontentloaded")
            expect(viewer.locator("#summary")).to_be_visible()
            _shot(viewer, f"summary-{size}-{tag}")
            _no_sideways_scroll(viewer)
            viewer.context.close()
    # the countdown: with the pause over, the page itself posts "next" and deal 2 is drawn
    db.session.rollback()
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None
    t.online_pause = 1
    db.session.commit()
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#summary")).to_have_count(0)
    db.session.rollback()
    assert [d.number for d in ow.deals()] == [1, 2]
    assert db.session.get(Table, ow.tab.id) is not None


def _failing_throw(deal: Any, seat: int) -> list[int] | None:
    """Cards of one side suit seat ``seat`` could lead as a throw that fails, or None."""
    ctx = deal.ctx
    for suit in "SHDC":
        cards = [c for c in deal.hands[seat] if ctx.eff_suit(c) == suit]
        if len(set(cards)) >= 2 and not deal.throw_outcome(seat, cards)[0]:
            return cards
    return None


def test_a_failed_throw_is_announced_on_the_phone_and_at_the_other_seats(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    app.config["ONLINE_SEED_BASE"] = 7100  # the same deals on every run
    ow = online_world(client, "tractor-4p", deals=6)
    ow.bots(1, 2, 3)
    page = _player(browser, locale="zh-CN")
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    other = _player(browser)  # seat 2's link, played by a bot: the table as that seat sees it
    other.goto(f"{served}/play/{ow.seats()[2].token}", wait_until="domcontentloaded")
    thrown: list[int] | None = None
    for _ in range(400):
        if _wait_for_me(page) == "summary":
            _submit(page, '#seat button[data-move="ready"]')
            continue
        deal = _deal(ow)
        leading = deal.phase == "play" and deal.trick is not None and not deal.trick.plays
        thrown = _failing_throw(deal, 0) if leading else None
        if thrown:
            break
        _move(ow, page)
    else:
        raise AssertionError("seat 0 never led with a throw that fails")
    _tap(page, cards_str(thrown))
    _submit(page, '#seat button[data-move="play"]')
    note = page.locator("#failed-throw")
    expect(note).to_be_visible()
    _shot(page, "tractor-failed-throw-phone-zh")
    expect(note).to_be_in_viewport()  # on a 390 px phone, without scrolling
    expect(note).to_contain_text("甩牌失败")
    expect(note).to_contain_text("攻方")  # what it costs: 10 points to or off the attackers
    _shot(page, "tractor-failed-throw-phone-zh")
    deal = _deal(ow)
    rec = [r for r in deal.log if r.kind == "play" and r.seat == 0][-1]
    assert rec.played is not None and sorted(rec.cards) == sorted(thrown)
    # the other seat's page learns of it on its next poll, in English
    seen = other.locator("#failed-throw, #previous .throw-note").first
    expect(seen).to_contain_text("the throw fails and must play", timeout=10_000)
    for c in rec.played:
        expect(seen).to_contain_text(card_face(c)["label"])


def test_a_move_pressed_offline_is_kept_and_sent_once_when_the_connection_returns(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    page = _player(browser)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    for _ in range(60):  # on to a trick seat 0 plays
        _wait_for_me(page)
        if page.locator('#seat button[data-move="play"]').count():
            break
        _move(ow, page)
    else:
        raise AssertionError("seat 0 never played")
    deal = _deal(ow)
    kind, _s, cards = HeuristicBot(5).act(deal, 0)
    entries = len(ow.deals()[-1].actions)
    _tap(page, cards_str(cards))
    page.context.set_offline(True)
    page.locator('#seat button[data-move="play"]').click()
    pending = page.locator(".outbox-pending")
    expect(pending).to_contain_text("You are offline")
    expect(pending).to_be_in_viewport()  # by the button pressed, on a 390 px phone
    expect(page.locator("#connection")).to_be_visible()  # the page says it is reconnecting
    _shot(page, "tractor-offline-move-phone-en")
    db.session.rollback()
    assert len(ow.deals()[-1].actions) == entries  # nothing reached the table
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator(".outbox-pending")).to_have_count(0)
    expect(page.locator("#connection")).to_be_hidden()
    page.wait_for_function(
        "() => !Object.keys(localStorage).some(k => k.startsWith('shengji-outbox:'))"
    )
    db.session.rollback()
    mine = [a for a in ow.deals()[-1].actions[entries:] if a.actor == "seat 0"]
    assert len(mine) == 1 and mine[0].record["kind"] == "play"  # sent once, played once
    played = Record.from_json(mine[0].record)
    assert sorted(played.cards) == sorted(cards)  # the cards tapped before the connection dropped


NEAREST_PLATE = """() => [...document.querySelectorAll('#table .play')].map(p => {
  const r = p.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
  let best = null, gap = Infinity;
  for (const q of document.querySelectorAll('#table .plate')) {
    const s = q.getBoundingClientRect();
    const d = Math.hypot(Math.max(s.left - x, 0, x - s.right), Math.max(s.top - y, 0, y - s.bottom));
    if (d < gap) { gap = d; best = q.dataset.seat; }
  }
  return [p.dataset.seat, best];
})"""


@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p", "one-twenty-6p"])
def test_each_played_card_sits_by_its_player(
    app: Flask, client: Any, served: str, browser: Browser, variant: str
) -> None:
    """Mid-trick, with every other seat's play on the felt: the plate nearest each play is its
    player's, on a phone and on a wide screen."""
    n = {"tractor-4p": 4, "red-five-5p": 5, "one-twenty-6p": 6}[variant]
    ow = online_world(client, variant, deals=1)
    ow.bots(*range(1, n))
    page = _player(browser, viewport=DESKTOP)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    for _ in range(120):
        assert _wait_for_me(page) == "turn", "the deal ended before seat 0 played last in a trick"
        if page.locator("#table .play").count() == n - 1:
            break
        _move(ow, page)
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        pairs = page.evaluate(NEAREST_PLATE)
        assert len(pairs) == n - 1
        assert all(play == plate for play, plate in pairs), (viewport, pairs)
    _shot(page, f"{variant}-plays-by-players-phone")


@PUSH
def test_a_move_is_pushed_to_another_seats_page_without_polling(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    page = _player(browser)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    for _ in range(60):
        _wait_for_me(page)
        if page.locator('#seat button[data-move="play"]').count():
            break
        _move(ow, page)
    other = _player(browser, viewport=DESKTOP)
    polls: list[str] = []
    other.on("request", lambda r: polls.append(r.url) if "/poll" in r.url else None)
    opened: list[bool] = []
    other.expose_function("streamOpened", lambda: opened.append(True))
    other.add_init_script("document.addEventListener('htmx:sseOpen', () => window.streamOpened())")
    other.goto(f"{served}/play/{ow.seats()[2].token}", wait_until="domcontentloaded")
    other.wait_for_function("() => document.querySelector('[sse-connect]')")
    for _ in range(100):  # the stream opens
        if opened:
            break
        other.wait_for_timeout(50)
    assert opened, "the seat's stream never opened"
    before = other.locator("#seat").get_attribute("data-token")
    other.wait_for_timeout(2500)  # longer than a poll's interval
    assert polls == []  # the stream is open: the page does not poll
    started = time.monotonic()
    _move(ow, page)
    other.wait_for_function(
        "old => document.querySelector('#seat').dataset.token !== old", arg=before, timeout=5000
    )
    took = time.monotonic() - started
    assert took < 2.0, took  # the tap, the bots' answers and the push
    assert polls == []  # it came by the stream: no poll was sent
    expect(other.locator("#connection")).to_be_hidden()


@PUSH
def test_a_push_of_the_state_already_shown_keeps_the_picked_cards(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    """A move's answer and the stream's push bring the same state, in either order: the second
    copy is not swapped in (it would clear the cards being picked, and a button pressed on
    the replaced copy would lose its answer); a later state is; an older one is not."""
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    page = _player(browser, viewport=DESKTOP)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    page.wait_for_function("() => document.querySelector('[sse-connect]')")
    for _ in range(60):
        _wait_for_me(page)
        if page.locator('#seat button[data-move="play"]').count():
            break
        _move(ow, page)
    code = page.locator("#hand label.card:not(.off) input").first.get_attribute("value") or ""
    _tap(page, [code])
    # what the stream's event handler does with a pushed copy of the seat whose token is
    # ``token``: True when the page keeps what it shows
    kept = """token => {
        const seat = document.querySelector('#seat');
        const html = seat.outerHTML.replace(/data-token="[^"]*"/, `data-token="${token}"`);
        const e = new CustomEvent('htmx:sseBeforeMessage',
                                  {bubbles: true, cancelable: true, detail: {data: html}});
        seat.closest('[sse-connect]').dispatchEvent(e);
        return e.defaultPrevented;
    }"""
    shown = page.locator("#seat").get_attribute("data-token") or ""
    deal, version = (int(x) for x in shown.split(".")[:2])
    rest = shown.split(".", 2)[2] if shown.count(".") > 1 else ""
    later = f"{deal}.{version + 1}" + (f".{rest}" if rest else "")
    older = f"{deal}.{version - 1}" + (f".{rest}" if rest else "")
    assert page.evaluate(kept, shown) is True
    assert page.evaluate(kept, older) is True
    assert page.evaluate(kept, later) is False
    assert page.evaluate(kept, f"{deal + 1}.0") is False
    assert page.evaluate(kept, shown + "p") is False  # the director paused: shown
    # nothing was swapped: the picked card is still picked
    expect(page.locator(f'#hand input[value="{code}"]:checked')).to_have_count(1)


# Wraps EventSource so a test can silence a stream that stays open: the page still believes it
# is connected (no error, no close), as with a connection that died unnoticed.
_MUTE_STREAMS = """
(() => {
  const Real = window.EventSource;
  window.__muted = false;
  window.EventSource = function (url, opts) {
    const es = new Real(url, opts);
    const add = es.addEventListener.bind(es);
    es.addEventListener = (type, fn, o) =>
      add(type, (e) => { if (type === 'open' || type === 'error' || !window.__muted) fn(e); }, o);
    return es;
  };
  window.EventSource.prototype = Real.prototype;
})();
"""


@PUSH
def test_a_move_made_with_the_stream_open_is_drawn_by_the_stream_and_never_lost(
    app: Flask, client: Any, served: str, browser: Browser
) -> None:
    """With its stream open the page sends its move with ``X-Live-Stream: open`` and the server
    answers it empty (204, naming the state made): the stream draws the new state. If the
    stream goes silent without closing, the page asks for the state itself after 2 s."""
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(1, 2, 3)
    page = _player(browser, viewport=DESKTOP)
    page.add_init_script(_MUTE_STREAMS)
    page.goto(f"{served}/play/{ow.seats()[0].token}", wait_until="domcontentloaded")
    page.wait_for_function("() => document.querySelector('[sse-connect][data-streaming]')")
    answers: list[tuple[int, str, str]] = []

    def record(r: Any) -> None:
        if r.request.method == "POST":
            answers.append((r.status, r.request.headers.get("x-live-stream", ""), r.text()))

    page.on("response", record)
    for _ in range(60):  # moves until one is answered by the stream
        _wait_for_me(page)
        _move(ow, page)
        if answers and answers[-1][0] == 204:
            break
    status, header, body = answers[-1]
    assert (status, header, body) == (204, "open", "")
    # the stream goes silent: the next move's state still arrives, asked for after 2 s
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if r.url.find("/poll?") > 0 else None)
    page.evaluate("() => { window.__muted = true; }")
    assert _wait_for_me(page) == "turn"  # the first move of 25 tricks: far from the end
    before = page.locator("#seat").get_attribute("data-token")
    kind = _choose(ow, page)
    page.locator(f'#seat button[data-move="{kind}"]').first.click()
    page.wait_for_function(
        "before => document.querySelector('#seat').dataset.token !== before", arg=before
    )
    assert answers[-1][0] == 204 and polls, (answers[-1][:2], polls)
    expect(page.locator("#seat [role=alert]")).to_have_count(0)
