"""An owner builds a season of two nights (the nights' results entered through the services
beforehand) and reads the season table on a phone (390×844) and on a projector (1920×1080), in
Chinese and in English; then makes it public and a visitor opens the public link's projector
view without logging in. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browser_helpers import log_in, serving, sqlite_app

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts"
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
SMALL_PROJECTOR = {"width": 1280, "height": 720}
LANGS = {"en": "en-US", "zh": "zh-CN"}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def league_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A club whose owner has two played nights (4 pairs, one round each) not yet in a season."""
    from tests.tournaments.tournament_helpers import (
        add_entrants,
        create,
        login,
        play_round_out,
        seat,
        world,
    )

    application = sqlite_app(tmp_path_factory.mktemp("league") / "league.db")
    with application.app_context():
        w = world()
        client = application.test_client()
        login(client, w.owner)
        for k, name in enumerate(("周五夜 Friday Night", "周六夜 Saturday Night")):
            t = create(client, w.club, name=name, rounds=1, pairing="round-robin")
            client.post(
                f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants",
                data={"player_0": "李伟", "player_1": "Pete Player"},
            )
            add_entrants(client, w.club, t, 3, 2)
            play_round_out(t, seat(client, w.club, t), w.owner, seed=k)
        slug, username = w.club.slug, w.owner.username
    with serving(application) as base:
        yield {"base": base, "slug": slug, "owner": username}


def _watch(page: Page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def _boxes_meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _assert_qr_in_the_clear(page: Page) -> None:
    """The QR code in the corner covers neither the table nor the chart, scrolled to the end."""
    page.locator("figure.chart-box").scroll_into_view_if_needed()
    qr = page.locator(".follow svg.follow-qr").bounding_box()
    assert qr is not None
    for what in ("table.season-table", "figure.chart-box"):
        box = page.locator(what).bounding_box()
        assert box is not None, what
        assert not _boxes_meet(qr, box), (what, qr, box)


def test_owner_builds_a_season_and_reads_it_on_a_phone_and_a_projector(
    browser: Browser, league_site: dict[str, Any]
) -> None:
    base, slug = league_site["base"], league_site["slug"]
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    problems = _watch(page)
    log_in(page, base, league_site["owner"])
    page.goto(f"{base}/clubs/{slug}", wait_until="domcontentloaded")
    page.get_by_role("link", name="The club's seasons and league tables").click()
    page.get_by_label("Season name").fill("冬季联赛 Winter League")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_text("Season created")).to_be_visible()
    for name, day in (
        ("周五夜 Friday Night", "2026-12-04"),
        ("周六夜 Saturday Night", "2026-12-05"),
    ):
        page.get_by_label("Tournament night").select_option(label=name)
        page.get_by_label("Date").fill(day)
        page.get_by_role("button", name="Add the night").click()
        expect(page.get_by_text(f"{name} now counts in this season.")).to_be_visible()
    season_url = page.url.split("#")[0]
    table = page.locator("table.season-table tbody tr")
    expect(table).to_have_count(8)  # four pairs, the same eight players both nights
    expect(table.first.locator("td").nth(2)).to_have_text("2")  # nights played
    expect(page.locator("figure.chart-box svg")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / "browser_season_phone_en.png"), full_page=True)

    # the owner makes it public: the page shows the link
    page.get_by_label("Who may see the standings").select_option("public")
    page.locator("#visibility").get_by_role("button", name="Save").click()
    expect(page.get_by_text("The standings are public now")).to_be_visible()
    link = page.locator(".public-link a").inner_text()
    assert "/league/" in link
    context.close()

    for lang, locale in LANGS.items():
        context = browser.new_context(viewport=PHONE, locale=locale)
        page = context.new_page()
        problems += _watch(page)
        log_in(page, base, league_site["owner"])
        page.goto(season_url, wait_until="domcontentloaded")
        heading = {"en": "Nights", "zh": "比赛"}[lang]
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        expect(page.locator("table.season-table tbody tr")).to_have_count(8)
        header = page.locator("table.season-table thead th").nth(1)
        expect(header).to_have_text({"en": "Player", "zh": "牌手"}[lang])
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(SHOTS / f"browser_season_phone_{lang}.png"), full_page=True)

        page.set_viewport_size(PROJECTOR)
        page.goto(season_url + "?view=projector", wait_until="domcontentloaded")
        expect(page.locator(".topbar")).to_be_hidden()
        expect(page.locator("table.season-table tbody tr")).to_have_count(8)
        expect(page.locator(".follow .follow-url")).to_have_text(link)
        expect(page.locator(".follow svg.follow-qr")).to_be_visible()
        cell = page.locator("table.season-table tbody td").nth(1)
        size = float(cell.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
        assert size >= 30, size
        page.screenshot(path=str(SHOTS / f"browser_season_projector_{lang}.png"))
        _assert_qr_in_the_clear(page)
        page.set_viewport_size(SMALL_PROJECTOR)
        page.screenshot(path=str(SHOTS / f"browser_season_projector_720_{lang}.png"))
        _assert_qr_in_the_clear(page)
        context.close()

    # anyone with the link, not logged in, on the projector
    context = browser.new_context(viewport=PROJECTOR, locale="zh-CN")
    page = context.new_page()
    problems += _watch(page)
    page.goto(link + "?projector=1", wait_until="domcontentloaded")
    expect(page.locator("h1")).to_have_text("冬季联赛 Winter League")
    expect(page.locator("table.season-table tbody tr")).to_have_count(8)
    expect(page.locator(".follow .follow-url")).to_have_text(link)
    page.screenshot(path=str(SHOTS / "browser_season_public_projector_zh.png"))
    _assert_qr_in_the_clear(page)
    page.goto(season_url, wait_until="domcontentloaded")  # the club's own page: log in first
    assert "/account/login" in page.url
    context.close()
    assert problems == []
