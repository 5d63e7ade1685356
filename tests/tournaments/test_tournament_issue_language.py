"""Deal errors found by app.competition reach the score sheet in the user's language, on their
field; the command line and import keep the English wording."""

from __future__ import annotations

import re

import pytest
from flask_babel import force_locale
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.competition.hundred import HUNDRED_MESSAGES
from app.competition.matches import MESSAGES, check_deal, deal_issues
from app.competition.model import Deal
from app.services.tournaments.issues import TEXTS, issue_text
from engine.variants import make_variant


def _field_error(html: str, field: str) -> str:
    m = re.search(rf'<div class="field has-error">\s*<label for="{field}".*?</div>', html, re.S)
    assert m, f"no error on {field}"
    return " ".join(re.findall(r'<p class="error">(.*?)</p>', m.group(0)))


def _zh_sheet(client, **kw):
    w = world()
    login(client, w.director)
    assert client.post("/lang", data={"lang": "zh"}).status_code in (302, 303)
    t = create(client, w.club, **kw)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    return sheet_url(w.club, t, rnd, tab)


def test_every_issue_code_has_a_translatable_text():
    # 打百分's too, but hundred_engine: it carries the engine's own words, for a refusal the
    # sheet's checks let through (none does: hundred.sheet_issues)
    assert set(TEXTS) == set(MESSAGES) | (set(HUNDRED_MESSAGES) - {"hundred_engine"})


def test_level_mismatch_in_chinese_on_the_level_field(client):
    url = _zh_sheet(client)
    r = client.post(url, data=fixed_deal(0, 60, level="7"))
    assert r.status_code == 422
    assert _field_error(r.get_data(as_text=True), "level") == (
        "记分表上写的是 7，但这一方现在打 2。"
    )


def test_later_deal_broken_by_a_correction_in_chinese(client):
    url = _zh_sheet(client, match_value=3)
    assert client.post(url, data=fixed_deal(0, 0, level="2")).status_code == 303
    assert client.post(url, data=fixed_deal(0, 0, level="5")).status_code == 303
    r = client.post(url + "/deals/1", data=fixed_deal(0, 60))
    assert r.status_code == 422, r.status_code
    html = r.get_data(as_text=True)
    assert "后面的第 2 局将不再成立：记分表上写的是 5，但这一方现在打 3。" in html
    assert "the sheet says" not in html


@pytest.mark.parametrize(
    ("change", "field"), [({"multiplier": 3}, "multiplier"), ({"trump": "X"}, "trump")]
)
def test_wtforms_messages_follow_the_interface_language(client, change, field):
    url = _zh_sheet(client)
    data = fixed_deal(0, 60)
    data.update(change)
    r = client.post(url, data=data)
    assert r.status_code == 422
    assert _field_error(r.get_data(as_text=True), field) == "不是有效的选择。"


def test_issue_text_renders_codes_with_params(app):
    v = make_variant("tractor-4p", {})
    with app.test_request_context(), force_locale("zh"):
        (issue,) = deal_issues(v, Deal(points=87, kitty=0, trump="S", declarer=0))
        assert (issue.field, issue.code, issue.args) == (
            "points",
            "not_multiple_of_5",
            {"value": 87},
        )
        assert "得分必须是5的倍数" in issue_text(issue)
        assert issue_text(issue).startswith("87 ")
        (kitty,) = deal_issues(v, Deal(points=150, kitty=60, trump="S", declarer=0))
        assert issue_text(kitty) == "得分 150 + 底分 60 = 210，超过了牌中的 200 分。"
    with app.test_request_context(), force_locale("en"):
        assert issue_text(issue) == "87 is not a multiple of 5: points come in steps of 5."
    # the command line and the import keep the English wording of TOURNAMENT.md
    assert check_deal(v, Deal(points=87, kitty=0, trump="S", declarer=0)) == {
        "points": "87 is not a multiple of 5"
    }
