"""The tournament page shows the rule options in force in plain words, in the user's language."""

from __future__ import annotations

import re
from html import unescape

from tournament_helpers import create, login, world


def _options(html: str) -> dict[str, str]:
    block = re.search(r'<details class="rule-options"[^>]*>(.*?)</details>', html, re.S)
    assert block, "no rule options on the page"
    pairs = re.findall(r"<dt>(.*?)</dt><dd[^>]*>(.*?)</dd>", block.group(1), re.S)
    return {unescape(dt): unescape(re.sub(r"<[^>]+>", "", dd)).strip() for dt, dd in pairs}


def test_rule_options_in_words(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, opt_decks="4", opt_kitty_multiplier="power", opt_redeal_below="")
    html = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    opts = _options(html)
    assert opts["Number of decks (4 decks: no kitty, hidden calls)"] == "4 decks not the default"
    assert opts["Consecutive triples form a tractor"] == "yes"
    assert opts["Kitty bonus (抠底) when the attackers win the last trick"].startswith(
        "2 to the power of that count"
    )
    assert opts["An attacker with fewer points than this may ask for a redeal"].startswith("none")
    assert opts["Levels (级) a gain may never skip"] == "A"
    assert "decks = 4" not in html and "kitty_multiplier =" not in html

    client.post("/lang", data={"lang": "zh"})
    zh = _options(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True))
    assert zh["牌的副数（4 副：无底牌，暗叫主）"] == "4 副牌 非默认"
    assert zh["连续的三张可组成拖拉机"] == "是"


def test_default_red_five_rules_in_words(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, variant="red-five-5p", pairing="reseat")
    opts = _options(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True))
    assert opts == {
        "Consecutive triples form a tractor": "yes",
        "Kitty bonus (抠底) when the attackers win the last trick": (
            "2 × the cards of the last trick's largest part"
        ),
        "Red five score table": "units of 60 points",
        "A take-back (悔牌: taking back a card after the next player played)": (
            "its side goes down 1 level (red five: 4 积分)"
        ),
    }
