"""A club night full of mistakes, put right on a 390 px phone in Chinese: a pair typed wrongly
is corrected (with a reason in the trail), a late pair enters, a substitute takes a player's
seat from round 2 (a round out of range refused first), two directors type one traveller
at once (the second is told what changed and nothing of the first is lost), and a tournament
deleted by mistake is restored from the club's page with everything it had; a night imported
into the wrong division is moved to the right one on the season page, and the standings follow."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from sqlalchemy import select

from app.demo import DEMO_PASSWORD, load_demo
from app.extensions import db
from app.models import Club, DuplicateEvent, DuplicateResult, Tournament, User
from app.services.duplicate import events as dup
from app.services.tournaments import rounds, setup
from app.services.tournaments.audit import Actor
from tests.browser.browser_helpers import log_in, serving, sqlite_app

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    application = sqlite_app(tmp_path_factory.mktemp("mistakes") / "night.db")
    with application.app_context(), application.test_request_context():
        load_demo(if_empty=True)
        club = db.session.scalars(select(Club)).one()
        owner = db.session.scalars(select(User).where(User.username == "demo")).one()
        who = Actor(label=owner.display_name, user=owner, owner=True, director=True)
        t = setup.create_tournament(
            club,
            owner,
            "周五夜赛 Friday",
            "tractor-4p",
            {},
            "swiss",
            3,
            {"deals": 2},
            {"win": 2, "draw": 1, "loss": 0},
        )
        for players in (
            ["王伟", "张敏"],
            ["刘洋", "Tom Baker"],
            ["陈静", "杨帆"],
            ["李华", "Emma Chen"],
        ):
            setup.add_entrant(club, t, None, players, who)
        setup.add_entrant(club, t, None, ["王卫", "刘丽"], who)  # 王卫: a typo for 王伟's …
        rounds.seat_next_round(t, who)
        ev = dup.create_event(
            club, owner, "复式练习 Practice", "tractor-4p", "pairs", "A\nB\nC\nD\nE\nF", 1, seed=5
        )
        db.session.commit()
        data = {"slug": club.slug, "tid": t.id, "did": ev.id}
    with serving(application) as base:
        yield {"base": base, "app": application, **data}


def _phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def test_a_night_full_of_mistakes_is_put_right_on_a_phone(browser: Browser, night) -> None:  # type: ignore[no-untyped-def]
    base, slug, tid = night["base"], night["slug"], night["tid"]
    director = _phone(browser)
    log_in(director, base, "lihua", DEMO_PASSWORD)
    show = f"{base}/clubs/{slug}/tournaments/{tid}"
    director.goto(show)
    # the typo: 王卫 & 刘丽 is really 杨光 & 刘丽 (a guest)
    row = director.locator("#entrants tr", has_text="王卫")
    row.get_by_role("link", name="更正").click()
    expect(director.get_by_role("heading", name="更正 王卫 & 刘丽")).to_be_visible()
    director.get_by_label("选手 1").fill("杨光")
    director.get_by_label("原因（可不填）").fill("名字写错了")
    director.get_by_role("button", name="保存更正").click()
    expect(director.locator(".flash.success")).to_contain_text("杨光 & 刘丽 已更正。")
    expect(director.locator("#entrants")).to_contain_text("杨光 · 刘丽")
    director.screenshot(path=str(_shot("mistakes-1-corrected.png")))
    # a late pair: a Swiss takes it from the next round
    director.locator("#entrants input[name=player_0]").fill("孙丽")
    director.locator("#entrants input[name=player_1]").fill("赵磊")
    director.get_by_role("button", name="添加参赛者").click()
    expect(director.locator("#entrants")).to_contain_text("孙丽 · 赵磊")
    # a substitute: from round 2 周杰 (a guest) plays 杨帆's seat; the pair's results stand
    row = director.locator("#entrants tr", has_text="陈静")
    row.get_by_role("link", name="替补").click()
    expect(director.get_by_role("heading", name="陈静 & 杨帆 的替补")).to_be_visible()
    director.get_by_label("替下").select_option(label="杨帆")
    director.get_by_label("从第几轮起").fill("5")
    director.get_by_label("替补", exact=True).fill("周杰")
    director.get_by_label("原因（可不填）").fill("杨帆中场离开")
    director.get_by_role("button", name="登记替补").click()
    expect(director.locator("p.error")).to_contain_text("请选择第 1 到第 3 轮。")
    assert _page_fits(director)
    director.get_by_label("从第几轮起").fill("2")
    director.get_by_role("button", name="登记替补").click()
    expect(director.locator(".flash.success")).to_contain_text(
        "从第 2 轮起，周杰 替 陈静 & 杨帆 上场。"
    )
    expect(director.locator("#entrants")).to_contain_text("第 2 轮起：周杰 替 杨帆")
    expect(director.locator("#entrants")).to_contain_text("陈静 ✓ · 杨帆 ✓")
    assert _page_fits(director)
    director.screenshot(path=str(_shot("mistakes-1b-substitute.png")), full_page=True)
    # the trail says what was corrected and why
    director.goto(show + "/audit")
    expect(director.locator("table.audit")).to_contain_text("原因：名字写错了")
    expect(director.locator("table.audit")).to_contain_text("登记替补")
    expect(director.locator("table.audit")).to_contain_text("原因：杨帆中场离开")
    assert _page_fits(director)

    # two directors on one traveller
    board = f"{base}/clubs/{slug}/duplicate/{night['did']}/boards/1"
    owner = _phone(browser)
    log_in(owner, base, "demo", DEMO_PASSWORD)
    director.goto(board)
    owner.goto(board)
    totals = director.locator("input[name$=_total]")
    director.locator("select[name$=_declarer]").first.select_option("0")
    totals.first.fill("40")
    director.get_by_role("button", name="保存这副牌").click()
    expect(director.locator(".flash.success")).to_contain_text("第 1 副已保存")
    owner.locator("select[name$=_declarer]").nth(1).select_option("1")
    owner.locator("input[name$=_total]").nth(1).fill("65")
    owner.get_by_role("button", name="保存这副牌").click()
    flash = owner.locator(".flash.error")
    expect(flash).to_contain_text("你打开之后，这一副牌已有改动：新增了 1 个结果。")
    expect(owner.locator("input[name$=_total]").first).to_have_value("40")
    # line 1 changed meanwhile, but the owner had typed nothing there: no note
    expect(owner.locator(".typed-before")).to_have_count(0)
    assert _page_fits(owner)
    owner.screenshot(path=str(_shot("mistakes-2-traveller-refused.png")))
    # what the owner had typed on the line nobody changed is still in the form: save again
    expect(owner.locator("input[name$=_total]").nth(1)).to_have_value("65")
    owner.get_by_role("button", name="保存这副牌").click()
    expect(owner.locator(".flash.success")).to_contain_text("2 个成绩")
    with night["app"].app_context():
        ev = db.session.get(DuplicateEvent, night["did"])
        assert ev is not None
        got = sorted(
            (r.declarer, r.total)
            for r in db.session.scalars(select(DuplicateResult).where(DuplicateResult.board == 1))
        )
        assert got == [(0, 40), (1, 65)]

    # a tournament deleted by mistake, restored from the club's page
    director.goto(show)
    director.locator("#delete summary").click()
    director.get_by_label("原因（可不填）").fill("点错了")
    director.get_by_role("button", name="删除比赛").click()
    expect(director.locator(".flash.success")).to_contain_text("周五夜赛 Friday 已删除")
    deleted = director.locator("#deleted")
    expect(deleted).to_contain_text("周五夜赛 Friday")
    expect(deleted).to_contain_text("李华")
    assert _page_fits(director)
    director.screenshot(path=str(_shot("mistakes-3-deleted.png")), full_page=True)
    assert director.goto(show).status == 404  # type: ignore[union-attr]
    director.goto(f"{base}/clubs/{slug}")
    director.locator("#deleted").get_by_role("button", name="恢复").click()
    expect(director.locator(".flash.success")).to_contain_text("已恢复")
    expect(director.locator("#entrants")).to_contain_text("杨光 · 刘丽")
    with night["app"].app_context():
        t = db.session.get(Tournament, tid)
        assert t is not None and t.deleted_at is None and len(t.entrants) == 6


def test_a_night_in_the_wrong_division_is_moved_on_the_season_page(browser: Browser, night) -> None:  # type: ignore[no-untyped-def]
    from app.competition.tfile import load
    from app.models import Season
    from app.services.seasons import manage
    from app.services.tournaments.files import import_tournament
    from tests.seasons.test_seasons_cli import N1

    base, slug = night["base"], night["slug"]
    with night["app"].app_context(), night["app"].test_request_context():
        club = db.session.scalars(select(Club)).one()
        season = manage.create_season(club, "冬季联赛")
        manage.add_division(season, "甲级")
        db.session.commit()
        # the file says 乙级 (created after 甲级) where the night belongs in 甲级
        doc = {**N1, "club": club.name, "name": "第一晚", "season": "冬季联赛", "division": "乙级"}
        import_tournament(load(doc), club=club)
        db.session.commit()
        sid = db.session.scalars(select(Season.id).where(Season.name == "冬季联赛")).one()
    director = _phone(browser)
    log_in(director, base, "lihua", DEMO_PASSWORD)
    director.goto(f"{base}/clubs/{slug}/seasons/{sid}")
    sections = director.locator("section.division-page")
    expect(sections).to_have_count(2)
    expect(sections.nth(0)).not_to_contain_text("Li Wei")
    expect(sections.nth(1)).to_contain_text("Li Wei")
    night_row = director.locator("ul.nights li", has_text="第一晚")
    night_row.get_by_label("第一晚").select_option(label="甲级")
    night_row.get_by_role("button", name="移动").click()
    expect(director.locator(".flash.success")).to_contain_text("第一晚")
    expect(sections.nth(0)).to_contain_text("Li Wei")
    expect(sections.nth(0)).to_contain_text("甲级")
    expect(sections.nth(1)).not_to_contain_text("Li Wei")
    assert _page_fits(director)
    director.screenshot(path=str(_shot("mistakes-4-division-moved.png")), full_page=True)


def _page_fits(page: Page) -> bool:
    """Nothing on the page makes it scroll sideways."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def _shot(name: str) -> Any:
    from pathlib import Path

    folder = Path("build/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
