"""Two owners on one season's settings form (two browser contexts): the first saves, the second,
from the page it opened before, is refused: its page says what changed and that nothing was
saved (in Chinese), the stored settings are the first owner's; opened again, it saves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from app.demo import DEMO_PASSWORD, load_demo
from app.extensions import db
from app.models import Club, Season
from app.services.seasons import manage
from tests.browser.browser_helpers import log_in, serving, sqlite_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    application = sqlite_app(tmp_path_factory.mktemp("stale") / "stale.db")
    with application.app_context(), application.test_request_context():
        load_demo(if_empty=True)
        club = db.session.scalars(select(Club)).one()
        season = manage.create_season(club, "Spring League 春季联赛")
        db.session.commit()
        data = {"slug": club.slug, "sid": season.id}
    with serving(application) as base:
        yield {"base": base, "app": application, **data}


def _owner(browser: Browser, base: str, locale: str) -> Page:
    page = browser.new_context(locale=locale).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, base, "demo", DEMO_PASSWORD)
    return page


def test_the_second_save_from_an_older_page_is_refused_and_says_why(
    browser: Browser, league
) -> None:  # type: ignore[no-untyped-def]
    base = league["base"]
    url = f"{base}/clubs/{league['slug']}/seasons/{league['sid']}"
    first = _owner(browser, base, "en-GB")
    second = _owner(browser, base, "zh-CN")
    first.goto(url)
    second.goto(url)  # both pages show the season counted by total
    first.get_by_label("How the season is counted").select_option("best")
    first.get_by_label("N (best N nights)").fill("3")
    first.get_by_role("button", name="Count the season this way").click()
    expect(first.locator(".flash.success")).to_be_visible()

    second.get_by_label("参加排名所需的最少场次（平均）").fill("4")
    second.locator("form[action$='/rule'] button[type=submit]").click()
    refusal = second.locator(".flash.error")
    expect(refusal).to_contain_text("赛季设置已被他人更改（计分方式）")
    expect(refusal).to_contain_text("未保存任何内容")
    with league["app"].app_context():
        s = db.session.get(Season, league["sid"])
        assert s is not None and (s.rule, s.min_nights) == ("best:3", 1)

    # looked at again, the second owner's change saves
    second.goto(url)
    second.get_by_label("参加排名所需的最少场次（平均）").fill("4")
    second.locator("form[action$='/rule'] button[type=submit]").click()
    expect(second.locator(".flash.success")).to_be_visible()
    with league["app"].app_context():
        s = db.session.get(Season, league["sid"])
        assert s is not None and (s.rule, s.min_nights) == ("best:3", 4)
