"""While a move's request runs, the bots reply inside it (a strong bot searches for up to its
time box): the seat page then says "the bots are thinking" until the answer arrives. The text is
an htmx indicator of the move forms only, so a poll never shows it."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from tests.online.online_helpers import online_world


def _thinking_forms(html: str) -> tuple[int, int]:
    forms = re.findall(r"<form [^>]*hx-post=\"[^\"]*\"[^>]*>", html)
    return len(forms), sum('hx-indicator="#thinking"' in f for f in forms)


def test_a_seat_with_bots_at_the_table_says_the_bots_are_thinking(
    app: Flask, client: FlaskClient
) -> None:
    ow = online_world(client, "tractor-4p")
    seats = ow.seats()
    # the director lets bots play seats 2-4; seat 1 is a person's
    for s in (1, 2, 3):
        assert (
            client.post(ow.table_url + "/bots", data={"seat": str(s), "bot": "1"}).status_code
            == 303
        )
    player = app.test_client()
    html = player.get(f"/play/{seats[0].token}").get_data(as_text=True)
    assert 'id="thinking"' in html and "The bots are thinking…" in html
    forms, with_indicator = _thinking_forms(html)
    assert forms and with_indicator == forms  # every move form shows it while it waits
    # the seat's poll (the section's own hx-get) is no move: the indicator is the move forms'
    section = re.search(r"<section id=\"seat\"[^>]*>", html)
    assert section and "hx-indicator" not in section.group(0)
    zh = player.get(f"/play/{seats[0].token}", headers={"Accept-Language": "zh-CN"})
    assert "机器人正在思考" in zh.get_data(as_text=True)
    # hidden until htmx marks the request: the stylesheet says so (no inline style, CSP)
    css = Path(app.static_folder or "static", "online.css").read_text(encoding="utf-8")
    assert ".thinking.htmx-indicator { display: none; }" in css
    assert ".thinking.htmx-indicator.htmx-request { display: block;" in css


def test_a_table_of_people_only_has_no_thinking_line(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p")
    seats = ow.seats()
    for s in range(4):
        assert (
            client.post(ow.table_url + "/bots", data={"seat": str(s), "bot": "0"}).status_code
            == 303
        )
    html = app.test_client().get(f"/play/{seats[0].token}").get_data(as_text=True)
    assert 'id="thinking"' not in html
    assert _thinking_forms(html)[1] == 0
