"""Layout on a tournament night, with the demo club: no page scrolls sideways on a 390×844 phone
(director, player, anonymous, table code; Chinese and English), the score sheet offers numeric
keyboards and breadcrumbs back to the round, and the projector standings fit one 1920×1080
screen in big type."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect
from sqlalchemy import select

import app.tournaments.demo  # noqa: F401  (registers the demo tournaments)
from app.demo import DEMO_PASSWORD, load_demo
from app.extensions import db
from app.models import Club, Table, Tournament
from tests.browser.browser_helpers import log_in, serving, sqlite_app

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The app with `flask demo` data, served on a free port; the URLs worth visiting."""
    application = sqlite_app(tmp_path_factory.mktemp("demo") / "demo.db")
    with application.app_context():
        with application.test_request_context():
            load_demo(if_empty=True)
        club = db.session.scalars(select(Club)).one()
        tids = {t.variant: t.id for t in db.session.scalars(select(Tournament))}
        links = {t.variant: t.public_token for t in db.session.scalars(select(Tournament))}
        code = db.session.scalars(select(Table.code).where(Table.code.is_not(None))).first()
        slug = club.slug
    club_pages = [f"/clubs/{slug}", f"/clubs/{slug}/members", f"/clubs/{slug}/tournaments"]
    t_pages = []
    for tid in tids.values():
        t = f"/clubs/{slug}/tournaments/{tid}"
        t_pages += [t, f"{t}/rounds/1"]
    sheets = [f"/clubs/{slug}/tournaments/{tid}/rounds/1/tables/1" for tid in tids.values()]
    public = [f"/p/{link}" for link in links.values()] + ["/table", f"/table/{code}"]
    with serving(application) as base:
        yield {
            "base": base,
            "tids": tids,
            "links": links,
            "director": ["/", *club_pages, f"/clubs/{slug}/tournaments/new", *t_pages, *sheets]
            + [f"/clubs/{slug}/tournaments/{tids['tractor-4p']}/audit"],
            "player": ["/", *club_pages, *t_pages],
            "anonymous": ["/", *public],
            "sheet": sheets[0],
        }


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
@pytest.mark.parametrize("who", ["director", "player", "anonymous"])
def test_no_page_scrolls_sideways_on_a_phone(
    browser: Browser, demo_site: dict[str, Any], who: str, locale: str
) -> None:
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    if who != "anonymous":
        log_in(page, demo_site["base"], {"director": "lihua", "player": "emma"}[who], DEMO_PASSWORD)
    too_wide = {}
    for path in demo_site[who]:
        response = page.goto(demo_site["base"] + path, wait_until="domcontentloaded")
        assert response is not None and response.status == 200, (path, response)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide[path] = width
    context.close()
    assert too_wide == {}


def test_phone_score_sheet_keyboards_and_breadcrumbs(
    browser: Browser, demo_site: dict[str, Any]
) -> None:
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    page = context.new_page()
    log_in(page, demo_site["base"], "lihua", DEMO_PASSWORD)
    page.goto(demo_site["base"] + demo_site["sheet"].replace("tables/1", "tables/2"))
    for name in ("points", "kitty", "ft_declarer", "ft_attackers"):
        expect(page.locator(f"input[name={name}]")).to_have_attribute("inputmode", "numeric")
    crumbs = page.locator("nav.crumbs")
    expect(crumbs.get_by_role("link", name="第 1 轮")).to_be_visible()
    expect(crumbs.get_by_role("link", name="Demo 升级 Swiss")).to_be_visible()
    expect(crumbs.locator("[aria-current=page]")).to_have_text("第 2 桌")
    # each recorded deal is a card whose cells name their column
    first = page.locator("table.sheet-rows tbody tr").first
    expect(first.locator("td[data-label='得分']")).to_be_visible()
    box = first.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    context.close()


def test_projector_standings_fit_one_screen_in_big_type(
    browser: Browser, demo_site: dict[str, Any]
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="zh-CN")
    page = context.new_page()
    link = demo_site["links"]["red-five-5p"]  # ten players, on the public link
    page.goto(f"{demo_site['base']}/p/{link}?projector=1")
    expect(page.locator("table.standings tbody tr")).to_have_count(10)
    expect(page.locator(".topbar")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    cell = page.locator("table.standings tbody td").nth(1)
    size = float(cell.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
    assert size >= 30, size
    # the polling element is there (htmx refresh) and phones get the address
    expect(page.locator("#standings-live[hx-trigger]")).to_have_count(1)
    expect(page.locator(".follow")).to_contain_text(f"/p/{link}")
    context.close()
