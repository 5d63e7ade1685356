"""Director controls worded for the situation: the swap form starts from two different entrants,
the match length's number field is worded after the chosen kind, and the sheet offers to end a
match only when a director must (time is up; play stops before anyone passes A)."""

from __future__ import annotations

import re

from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world


def _selected(html: str, name: str) -> str:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {name}"
    chosen = re.findall(
        r'<option selected value="([^"]*)"|<option value="([^"]*)" selected', select.group(1)
    )
    assert len(chosen) == 1, chosen
    return "".join(chosen[0])


def test_swap_form_starts_from_two_entrants_at_different_tables(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 8, 2)
    rnd = seat(client, w.club, t)
    html = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    first, second = _selected(html, "first"), _selected(html, "second")
    assert first != second
    table_of = {s.entrant_id: tab.number for tab in rnd.tables for s in tab.seats}
    assert table_of[int(first)] != table_of[int(second)]
    assert re.search(r"<option[^>]*>P\d\da &amp; P\d\db \(table 1\)</option>", html)


def _match_label(html: str) -> str | None:
    m = re.search(
        r'<div id="match-value">(.*?)</div>\s*</div>|<div id="match-value">(.*?)</div>', html, re.S
    )
    assert m, "no match value block"
    label = re.search(r'<label for="match_value">(.*?)</label>', m.group(0))
    return label.group(1) if label else None


def test_match_value_label_follows_the_match_length(client):
    w = world()
    login(client, w.director)
    base = f"/clubs/{w.club.slug}/tournaments/new"
    assert _match_label(client.get(base).get_data(as_text=True)) == "Number of deals"
    r = client.get(f"{base}?match_kind=minutes&match_value=90")
    assert _match_label(r.get_data(as_text=True)) == "Time limit (minutes)"
    assert 'value="90"' in r.get_data(as_text=True)
    r = client.get(f"{base}?match_kind=to_a")
    html = r.get_data(as_text=True)
    assert _match_label(html) is None and "passes A" in html
    assert _match_label(client.get(f"{base}?match_kind=bogus").get_data(as_text=True)) == (
        "Number of deals"
    )
    # a refused form keeps the wording of the kind chosen
    r = client.post(base, data={"name": "X", "match_kind": "minutes", "match_value": ""})
    assert _match_label(r.get_data(as_text=True)) == "Time limit (minutes)"
    client.post("/lang", data={"lang": "zh"})
    zh = _match_label(client.get(f"{base}?match_kind=minutes").get_data(as_text=True))
    assert zh and "分钟" in zh


def _finish_button(html: str) -> str | None:
    m = re.search(r'action="[^"]*/finish"[^>]*>.*?<button[^>]*>(.*?)</button>', html, re.S)
    return m.group(1) if m else None


def _sheet(client, w, **kw):
    t = create(client, w.club, **kw)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    return sheet_url(w.club, t, rnd, tab)


def test_finish_button_only_when_a_director_must_end_the_match(client):
    w = world()
    login(client, w.director)
    deals = _sheet(client, w, name="Deals", match_kind="deals", match_value=2)
    assert _finish_button(client.get(deals).get_data(as_text=True)) is None

    minutes = _sheet(client, w, name="Timed", match_kind="minutes", match_value=60)
    assert _finish_button(client.get(minutes).get_data(as_text=True)) == (
        "Time is up: match finished"
    )
    assert client.post(f"{minutes}/finish", data={"finished": "1"}).status_code == 303
    assert _finish_button(client.get(minutes).get_data(as_text=True)) == "Open the match again"

    to_a = _sheet(client, w, name="ToA", match_kind="to_a")
    button = _finish_button(client.get(to_a).get_data(as_text=True))
    assert button == "End the match here"
    assert "Nobody has passed A yet" in client.get(to_a).get_data(as_text=True)
    # once a side passes A the match ends by itself: no button
    levels = ["2", "5", "8", "J", "A"]
    for lv in levels:
        r = client.post(to_a, data=fixed_deal(0, 0, level=lv))
        assert r.status_code == 303, r.get_data(as_text=True)[:500]
    html = client.get(to_a).get_data(as_text=True)
    assert _finish_button(html) is None
