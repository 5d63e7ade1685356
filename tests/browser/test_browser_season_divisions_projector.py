"""A season of three divisions on the projector (1920×1080), in Chinese and in English: one
division at a time (static/projector.js turns the page every 15 seconds), each seen whole
without scrolling, with its own players only and its place in the turn ("2/3"); after the last
division the first comes back. The page's timers run on Playwright's clock, so the test does not
wait 45 seconds. Screenshots of every division go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browser_helpers import log_in, serving, sqlite_app

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts"
PROJECTOR = {"width": 1920, "height": 1080}
LANGS = {"en": "en-US", "zh": "zh-CN"}
EVERY_MS = 15_000

# each division's night: its pairs (the 甲级 night has more players than fit a phone's screen)
# each division's night: its pairs; 甲级 has 20 players, more than fit the screen at the
# projector's largest letters (the page then sets them smaller: static/style.css)
DIVISIONS = {
    "甲级": [
        ("王伟", "李娜"),
        ("张敏", "刘洋"),
        ("陈静", "杨帆"),
        ("赵磊", "黄丽"),
        ("周杰", "吴芳"),
        ("徐强", "孙悦"),
        ("胡斌", "朱琳"),
        ("何平", "罗兰"),
        ("郑浩", "梁燕"),
        ("谢飞", "宋佳"),
    ],
    "乙级": [
        ("Emma Li", "Tom Chen"),
        ("Ann Wu", "Ben Ho"),
        ("Cara Xu", "Dan Lam"),
        ("Eve Ma", "Finn Ng"),
    ],
    "丙级": [("马超", "Sam Lee"), ("高远", "Kim Tan"), ("林洁", "Joe Yip"), ("郭涛", "Amy Fok")],
}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A season with the divisions 甲级, 乙级, 丙级 (in that order), a played night in each."""
    from app.extensions import db
    from app.services.seasons import manage
    from tests.seasons.test_seasons_pages import _season
    from tests.tournaments.tournament_helpers import create, login, play_round_out, seat, world

    application = sqlite_app(tmp_path_factory.mktemp("divisions") / "divisions.db")
    with application.app_context():
        w = world()
        client = application.test_client()
        login(client, w.owner)
        nights = []
        for k, (division, pairs) in enumerate(DIVISIONS.items()):
            t = create(client, w.club, name=f"{division} 第一夜", rounds=1, pairing="round-robin")
            for a, b in pairs:
                r = client.post(
                    f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants",
                    data={"player_0": a, "player_1": b},
                )
                assert r.status_code == 303
            play_round_out(t, seat(client, w.club, t), w.owner, seed=k)
            nights.append(t)
        s = _season(client, w, name="冬季联赛 Winter League")
        for night, name in zip(nights, DIVISIONS, strict=True):
            manage.set_night(night, s, manage.add_division(s, name))
        db.session.commit()
        slug, sid, username = w.club.slug, s.id, w.owner.username
    with serving(application) as base:
        yield {"url": f"{base}/clubs/{slug}/seasons/{sid}", "base": base, "owner": username}


def _watch(page: Page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def _players(pairs: list[tuple[str, str]]) -> set[str]:
    return {p for pair in pairs for p in pair}


@pytest.mark.parametrize("lang", LANGS)
def test_every_division_is_seen_whole_on_the_projector(
    browser: Browser, league: dict[str, Any], lang: str
) -> None:
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=PROJECTOR, locale=LANGS[lang])
    page = context.new_page()
    problems = _watch(page)
    log_in(page, league["base"], league["owner"])
    page.clock.install()
    page.goto(league["url"] + "?view=projector", wait_until="domcontentloaded")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator(".division-pages.paged")).to_have_count(1)  # the script turns pages
    sections = page.locator(".division-page")
    expect(sections).to_have_count(3)
    player = {"en": "Player", "zh": "牌手"}[lang]
    names = list(DIVISIONS)
    rows_of = [_players(DIVISIONS[n]) for n in names]
    for turn in range(len(names) + 1):  # every division, then the first again
        k = turn % len(names)
        shown = page.locator(".division-page:visible")
        expect(shown).to_have_count(1)
        heading = shown.locator("h2")
        expect(heading).to_contain_text(names[k])
        expect(heading).to_contain_text(f"{k + 1}/3")
        rows = shown.locator("table.season-table tbody tr")
        expect(rows).to_have_count(len(_players(DIVISIONS[names[k]])))
        expect(shown.locator("table.season-table thead th").nth(1)).to_have_text(player)
        # its own players only: none of another division's
        text = shown.inner_text()
        assert all(p in text for p in _players(DIVISIONS[names[k]]))
        for other in names:
            if other != names[k]:
                assert not any(p in text for p in _players(DIVISIONS[other])), (names[k], other)
        # seen whole at 1920×1080: the heading and the last row inside the screen, unscrolled
        assert page.evaluate("window.scrollY") == 0
        top, last = heading.bounding_box(), rows.last.bounding_box()
        assert top is not None and last is not None
        assert top["y"] >= 0 and last["y"] + last["height"] <= PROJECTOR["height"], (k, last)
        cell = rows.first.locator("td").nth(1)
        size = float(cell.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
        # readable from the back of the room: a short division keeps the big type of a short
        # season (as large as test_browser_season_table's), the long one smaller but whole
        assert size >= (30 if len(rows_of[k]) <= 12 else 18), (names[k], size)
        if turn < len(names):
            page.screenshot(path=str(SHOTS / f"browser_season_divisions_{lang}_{k + 1}.png"))
        page.clock.run_for(EVERY_MS)
    context.close()
    assert problems == []
