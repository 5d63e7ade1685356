"""The table chat on two 390 px phones in Chinese: one player taps a preset phrase and sends a
short text, the other sees both arrive by themselves (the chat's own poll, no reload); a text
naming a card is refused with a sentence, the text typed kept out of the chat; nothing wider
than the phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_browser_online_table import _player, served  # noqa: F401
from tests.online.online_helpers import online_world

pytestmark = pytest.mark.browser


def test_two_phones_chat_at_a_table_in_chinese(
    client: Any,
    served: str,  # noqa: F811
    browser: Browser,
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(2, 3)
    s0, s1 = (s.token for s in ow.seats()[:2])
    me = _player(browser, "zh-CN")
    other = _player(browser, "zh-CN")
    problems: list[str] = []
    for p in (me, other):
        p.on("pageerror", lambda e: problems.append(str(e)))
    other.goto(f"{served}/play/{s1}", wait_until="domcontentloaded")
    other.evaluate("window.stillHere = true")
    me.goto(f"{served}/play/{s0}", wait_until="domcontentloaded")
    expect(me.locator("#chat h2")).to_have_text("牌桌聊天")
    me.locator('#chat button[name="phrase"][value="good"]').click()
    expect(me.locator("#chat-messages")).to_contain_text("好牌！")
    me.locator('#chat input[name="text"]').fill("黑桃A 在我这")
    me.locator("#chat .chat-text button").click()
    expect(me.locator("#chat [role=alert]")).to_contain_text("聊天里不能提到任何一张牌")
    me.locator('#chat input[name="text"]').fill("加油")
    me.locator("#chat .chat-text button").click()
    expect(me.locator("#chat-messages")).to_contain_text("加油")
    other.bring_to_front()  # a background tab's timers (the poll) are throttled
    expect(other.locator("#chat-messages")).to_contain_text("好牌！")
    expect(other.locator("#chat-messages")).to_contain_text("加油")
    assert "黑桃A" not in other.locator("#chat-messages").inner_text()
    assert other.evaluate("window.stillHere === true")  # arrived in place, not reloaded
    for p in (me, other):
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
    assert not problems, problems
