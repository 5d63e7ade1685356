"""No lost updates, form by form, in two browsers at once: two directors (or an owner on two
devices, or two newcomers on one invitation), one reading English and one Chinese, open the same
form; the first saves; the second, from the page it opened before, is refused with a sentence in
its language that says what changed and that nothing was saved, and the stored data stay the
first one's; opened again, the second saves. A tournament score sheet (a deal at one table), an
entrant's correction, a season's division, a member's role, a round's seating (swap), a round
sent online and an invitation's name claimed. (The season's settings and the duplicate traveller
have theirs in test_browser_stale_settings.py and test_browser_night_of_mistakes.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from sqlalchemy import select

from app.demo import DEMO_PASSWORD, load_demo
from app.extensions import db
from app.models import Club, Deal, Division, Entrant, Member, Table, TableSeat, User
from app.passwords import hash_password
from app.services import clubs as club_svc
from app.services.seasons import manage
from app.services.tournaments import rounds, setup
from app.services.tournaments.audit import Actor
from tests.browser.browser_helpers import NEWCOMER_PASSWORD, log_in, serving, sqlite_app

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 390, "height": 844}
SHOTS = Path("build/screenshots")
PAIRS = (["王伟", "张敏"], ["刘洋", "Tom Baker"], ["陈静", "杨帆"], ["赵磊", "Sofia Rossi"])


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The demo club with three seated tournaments of four pairs (one for the score sheet and
    the entrants, one for the seating, one to send online), a season with a division, an open
    invitation link and two newcomers' accounts."""
    application = sqlite_app(tmp_path_factory.mktemp("stale-forms") / "stale.db")
    with application.app_context(), application.test_request_context():
        load_demo(if_empty=True)
        the_club = db.session.scalars(select(Club)).one()
        owner = db.session.scalars(select(User).where(User.username == "demo")).one()
        who = Actor(label=owner.display_name, user=owner, owner=True, director=True)
        tids = {}
        for key, name in (
            ("sheet", "周五夜赛 Friday"),
            ("swap", "换位 Swap"),
            ("online", "线上 Online"),
        ):
            t = setup.create_tournament(
                the_club,
                owner,
                name,
                "tractor-4p",
                {},
                "swiss",
                3,
                {"deals": 4},
                {"win": 2, "draw": 1, "loss": 0},
            )
            for players in PAIRS:
                setup.add_entrant(the_club, t, None, list(players), who)
            rounds.seat_next_round(t, who)
            tids[key] = t.id
        season = manage.create_season(the_club, "冬季联赛 Winter")
        division = manage.add_division(season, "甲级", ["王伟", "张敏"])
        _invite, token = club_svc.create_invite(the_club, owner, "player")
        for username, name in (("ann", "Ann 安"), ("bo", "Bo 波")):
            db.session.add(
                User(
                    username=username,
                    display_name=name,
                    password_hash=hash_password(NEWCOMER_PASSWORD),
                )
            )
        db.session.commit()
        data = {
            "slug": the_club.slug,
            "tids": tids,
            "sid": season.id,
            "division": division.id,
            "token": token,
        }
    with serving(application) as base:
        yield {"base": base, "app": application, **data}


def _browser(browser: Browser, base: str, who: str, locale: str, password: str) -> Page:
    """A phone of its own (its own cookies), in ``locale``, logged in as ``who``."""
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, base, who, password)
    return page


def _two(
    browser: Browser,
    club: dict[str, Any],
    first: str,
    second: str,
    url: str,
    password: str = DEMO_PASSWORD,
) -> tuple[Page, Page]:
    """``first`` (reading English) and ``second`` (reading Chinese, each from the browser's
    language) both open ``url``, the second before the first saves anything."""
    pages = (
        _browser(browser, club["base"], first, "en-GB", password),
        _browser(browser, club["base"], second, "zh-CN", password),
    )
    for page in pages:
        page.goto(url)
    return pages


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def _fits(page: Page) -> bool:
    """Nothing on the page makes it scroll sideways."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def _refused(page: Page, sentence: str, shot: str, where: str = ".flash.error") -> None:
    """The page says ``sentence`` (all of it), in view on the phone, and fits its width."""
    refusal = page.locator(where)
    expect(refusal).to_have_text(sentence)
    expect(refusal).to_be_in_viewport()  # not left above or below the screen
    assert _fits(page)
    _shot(page, shot)


def _table(club: dict[str, Any], key: str, number: int) -> Table:
    t_id = club["tids"][key]
    return db.session.scalars(
        select(Table).where(Table.round.has(tournament_id=t_id), Table.number == number)
    ).one()


def test_a_deal_entered_on_a_sheet_opened_before_another_deal_is_refused(
    browser: Browser, club: dict[str, Any]
) -> None:
    url = f"{club['base']}/clubs/{club['slug']}/tournaments/{club['tids']['sheet']}"
    url += "/rounds/1/tables/1"
    first, second = _two(browser, club, "demo", "lihua", url)
    first.get_by_label("Attackers' points").fill("85")
    first.get_by_role("button", name="Record deal").click()
    expect(first.get_by_text("Deal 1 recorded.")).to_be_visible()

    second.get_by_label("闲家得分").fill("40")
    second.get_by_role("button", name="记录本局").click()
    _refused(
        second,
        "你打开之后，记分表已有改动：新增了 1 局（现有 1 局）。没有保存任何内容：请核对后重新录入。",
        "stale-sheet-refused.png",
        ".form-error",
    )
    with club["app"].app_context():
        tab = _table(club, "sheet", 1)
        assert list(db.session.scalars(select(Deal.points).filter_by(table_id=tab.id))) == [85]

    second.goto(url)  # looked at again: deal 1 is there, deal 2 saves
    expect(second.locator("td.c-pts", has_text="85")).to_have_count(1)
    second.get_by_label("闲家得分").fill("40")
    second.get_by_role("button", name="记录本局").click()
    expect(second.get_by_text("第 2 局已记录。")).to_be_visible()
    with club["app"].app_context():
        tab = _table(club, "sheet", 1)
        got = db.session.scalars(select(Deal.points).filter_by(table_id=tab.id).order_by(Deal.id))
        assert list(got) == [85, 40]


def test_an_entrant_corrected_from_an_older_page_is_refused(
    browser: Browser, club: dict[str, Any]
) -> None:
    with club["app"].app_context():
        eid = db.session.scalars(
            select(Entrant.id).filter_by(tournament_id=club["tids"]["sheet"], name="王伟 & 张敏")
        ).one()
    url = f"{club['base']}/clubs/{club['slug']}/tournaments/{club['tids']['sheet']}"
    url += f"/entrants/{eid}/edit"
    first, second = _two(browser, club, "demo", "lihua", url)
    first.get_by_label("Player 2").fill("黄蕾")
    first.get_by_role("button", name="Save the correction").click()
    expect(first.locator(".flash.success")).to_contain_text("王伟 & 黄蕾 corrected.")

    second.get_by_label("选手 1").fill("王小明")
    second.get_by_role("button", name="保存更正").click()
    _refused(
        second,
        "自您打开此页以来，王伟 & 黄蕾 已被他人更改（名字、牌手）：请重新查看。未保存任何内容。",
        "stale-entrant-refused.png",
    )
    expect(second.locator(".flash.info")).to_contain_text("王小明")  # what it had typed
    with club["app"].app_context():
        e = db.session.get(Entrant, eid)
        assert e is not None and [p.name for p in e.players] == ["王伟", "黄蕾"]

    # the page it was sent back to is the entrant as it is now: the correction saves
    expect(second.get_by_label("选手 2")).to_have_value("黄蕾")
    second.get_by_label("选手 1").fill("王小明")
    second.get_by_role("button", name="保存更正").click()
    expect(second.locator(".flash.success")).to_contain_text("王小明 & 黄蕾 已更正。")
    with club["app"].app_context():
        e = db.session.get(Entrant, eid)
        assert e is not None and [p.name for p in e.players] == ["王小明", "黄蕾"]


def test_a_division_edited_from_an_older_page_is_refused(
    browser: Browser, club: dict[str, Any]
) -> None:
    url = f"{club['base']}/clubs/{club['slug']}/seasons/{club['sid']}"
    first, second = _two(browser, club, "demo", "demo", url)  # the owner, on a laptop and a phone
    first.get_by_text("Rename or change players").click()
    first.locator("li.division").get_by_label("Division name").fill("甲级 A")
    first.get_by_role("button", name="Save the division").click()
    expect(first.locator(".flash.success")).to_contain_text("Division 甲级 A saved.")

    second.get_by_text("改名或更换选手").click()
    second.locator("li.division").get_by_label("选手，每行一个名字").fill("王伟\n张敏\n刘洋")
    second.get_by_role("button", name="保存级别").click()
    _refused(
        second,
        "自您打开此页面后，级别 甲级 A 已被他人修改（名字）：请重新查看。未保存任何内容。",
        "stale-division-refused.png",
    )
    with club["app"].app_context():
        div = db.session.get(Division, club["division"])
        assert div is not None and (div.name, div.players) == ("甲级 A", ["王伟", "张敏"])

    second.goto(url)
    second.get_by_text("改名或更换选手").click()
    expect(second.locator("li.division").get_by_label("级别名称（甲级、乙级 …）")).to_have_value(
        "甲级 A"
    )
    second.locator("li.division").get_by_label("选手，每行一个名字").fill("王伟\n张敏\n刘洋")
    second.get_by_role("button", name="保存级别").click()
    expect(second.locator(".flash.success")).to_contain_text("级别 甲级 A 已保存。")
    with club["app"].app_context():
        div = db.session.get(Division, club["division"])
        assert div is not None and div.name == "甲级 A"
        assert sorted(div.players or []) == sorted(["王伟", "张敏", "刘洋"])


def _role(club: dict[str, Any], name: str) -> str:
    with club["app"].app_context():
        return db.session.scalars(select(Member.role).filter_by(display_name=name)).one()


def test_a_role_changed_from_an_older_page_is_refused(
    browser: Browser, club: dict[str, Any]
) -> None:
    url = f"{club['base']}/clubs/{club['slug']}/members"
    first, second = _two(browser, club, "demo", "demo", url)
    row = first.locator("tr", has_text="Emma Chen")
    row.get_by_label("Role of Emma Chen").select_option(label="Director")
    row.get_by_role("button", name="Save").click()
    expect(first.locator(".flash.success")).to_contain_text("Emma Chen is now: Director.")

    row = second.locator("tr", has_text="Emma Chen")
    row.get_by_label("Emma Chen 的角色").select_option(label="负责人")
    row.get_by_role("button", name="保存").click()
    _refused(
        second,
        "自您打开此页以来，Emma Chen 已被他人更改（角色）：请重新查看。未保存任何内容。",
        "stale-role-refused.png",
    )
    assert _role(club, "Emma Chen") == "director"

    # the page it came back to shows her role now: the change saves from it
    row = second.locator("tr", has_text="Emma Chen")
    expect(row.get_by_label("Emma Chen 的角色")).to_have_value("director")
    row.get_by_label("Emma Chen 的角色").select_option(label="负责人")
    row.get_by_role("button", name="保存").click()
    expect(second.locator(".flash.success")).to_contain_text("Emma Chen 现在是：负责人。")
    assert _role(club, "Emma Chen") == "owner"


def _seating(club: dict[str, Any]) -> list[tuple[int, int, int]]:
    with club["app"].app_context():
        rows = db.session.execute(
            select(Table.number, TableSeat.position, TableSeat.entrant_id)
            .join(TableSeat, TableSeat.table_id == Table.id)
            .where(Table.round.has(tournament_id=club["tids"]["swap"]))
            .order_by(Table.number, TableSeat.position)
        ).all()
        return [(a, b, c) for a, b, c in rows]


def _entrant_ids(club: dict[str, Any], key: str) -> dict[str, str]:
    with club["app"].app_context():
        rows = db.session.execute(
            select(Entrant.name, Entrant.id).filter_by(tournament_id=club["tids"][key])
        ).all()
        return {name: str(eid) for name, eid in rows}


def test_a_swap_from_an_older_round_page_is_refused(browser: Browser, club: dict[str, Any]) -> None:
    url = f"{club['base']}/clubs/{club['slug']}/tournaments/{club['tids']['swap']}/rounds/1"
    first, second = _two(browser, club, "demo", "lihua", url)
    before = _seating(club)
    ids = _entrant_ids(club, "swap")
    first.get_by_label("Entrant", exact=True).select_option(ids["王伟 & 张敏"])
    first.get_by_label("swaps places with").select_option(ids["陈静 & 杨帆"])
    first.get_by_role("button", name="Swap", exact=True).click()
    expect(first.locator(".flash.success")).to_contain_text("Entrants swapped.")
    after_first = _seating(club)
    assert after_first != before

    second.get_by_label("参赛者", exact=True).select_option(ids["刘洋 & Tom Baker"])
    second.get_by_label("与之交换位置").select_option(ids["赵磊 & Sofia Rossi"])
    second.get_by_role("button", name="交换", exact=True).click()
    _refused(
        second,
        "自您打开此页以来，第 1 轮的座位已被他人更改（第 1 桌）：请重新查看。未保存任何内容。",
        "stale-swap-refused.png",
    )
    assert _seating(club) == after_first

    # the page it came back to is the round as it is now: the swap saves
    second.get_by_label("参赛者", exact=True).select_option(ids["刘洋 & Tom Baker"])
    second.get_by_label("与之交换位置").select_option(ids["赵磊 & Sofia Rossi"])
    second.get_by_role("button", name="交换", exact=True).click()
    expect(second.locator(".flash.success")).to_contain_text("已交换参赛者。")
    after_second = _seating(club)
    assert after_second != after_first
    assert sorted(after_second) != sorted(before)


def _modes(club: dict[str, Any]) -> list[str]:
    with club["app"].app_context():
        return list(
            db.session.scalars(
                select(Table.mode)
                .where(Table.round.has(tournament_id=club["tids"]["online"]))
                .order_by(Table.number)
            )
        )


def test_a_round_sent_online_from_an_older_page_is_refused(
    browser: Browser, club: dict[str, Any]
) -> None:
    url = f"{club['base']}/clubs/{club['slug']}/tournaments/{club['tids']['online']}/rounds/1"
    first, second = _two(browser, club, "demo", "lihua", url)
    form = first.locator("#play-online")
    form.get_by_role("checkbox").nth(1).uncheck()  # only table 1
    form.get_by_role("button", name="Play this round online").click()
    expect(first.locator(".flash.success")).to_contain_text("1 table is played online.")
    assert _modes(club) == ["online", "paper"]

    form = second.locator("#play-online")
    expect(form.get_by_role("checkbox")).to_have_count(2)  # both, as it was opened
    form.get_by_role("button", name="本轮改为线上进行").click()
    _refused(
        second,
        "打开本页后第 1 轮已有变动（有牌桌改为线上、录入了成绩或座位有调整）：请重新查看。"
        "没有任何牌桌改为线上。",
        "stale-online-refused.png",
    )
    assert _modes(club) == ["online", "paper"]

    form = second.locator("#play-online")
    expect(form.get_by_role("checkbox")).to_have_count(1)  # table 2, the one left
    form.get_by_role("button", name="本轮改为线上进行").click()
    expect(second.locator(".flash.success")).to_contain_text("1 张牌桌改为线上进行")
    assert _modes(club) == ["online", "online"]


def test_a_name_claimed_from_an_older_invitation_page_is_refused(
    browser: Browser, club: dict[str, Any]
) -> None:
    url = f"{club['base']}/invite/{club['token']}"
    first, second = _two(browser, club, "ann", "bo", url, NEWCOMER_PASSWORD)
    first.get_by_label("黄蕾").check()
    first.get_by_role("button", name="Join the club").click()
    first.wait_for_url(lambda u: "/invite/" not in u)

    second.get_by_label("黄蕾").check()
    second.get_by_role("button", name="加入俱乐部").click()
    _refused(
        second,
        "自您打开此页以来，黄蕾 已被他人认领：请重新选择。未保存任何内容。",
        "stale-claim-refused.png",
        "main .field p.error",
    )
    with club["app"].app_context():
        member = db.session.scalars(select(Member).filter_by(display_name="黄蕾")).one()
        assert member.user is not None and member.user.username == "ann"
        assert db.session.scalars(select(Member).where(Member.user.has(username="bo"))).all() == []

    # looked at again, 黄蕾 is no longer offered: joining as a new member saves
    second.goto(url)
    expect(second.get_by_label("黄蕾")).to_have_count(0)
    second.get_by_label("我是新成员").check()
    second.get_by_role("button", name="加入俱乐部").click()
    second.wait_for_url(lambda u: "/invite/" not in u)
    with club["app"].app_context():
        bo = db.session.scalars(select(Member).where(Member.user.has(username="bo"))).one()
        assert bo.display_name == "Bo 波"
