"""The table chat: preset phrases and short texts from the seats, shown to the table and on the
director's page of the table; the director switches it off (seats are told, nothing more is
written) and on again; never a card in it; the list polls on its own."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from app.extensions import db
from app.models import OnlineChat
from app.services.online.chat import names_a_card
from tests.online.online_helpers import OnlineWorld, online_world


def _world(app: Flask, client: FlaskClient) -> tuple[OnlineWorld, FlaskClient, FlaskClient]:
    ow = online_world(client, "tractor-4p")
    ow.bots(2, 3)
    return ow, app.test_client(), app.test_client()


def _count() -> int:
    db.session.expire_all()
    return int(db.session.scalar(select(func.count()).select_from(OnlineChat)) or 0)


def _chat_list(html: str) -> str:
    m = re.search(r'<ol class="chat-messages".*?</ol>', html, re.S)
    assert m, html[-3000:]
    return m.group(0)


def test_a_phrase_and_a_text_reach_the_table_and_the_director(
    app: Flask, client: FlaskClient
) -> None:
    ow, p0, p1 = _world(app, client)
    s0, s1 = (f"/play/{s.token}" for s in ow.seats()[:2])
    page = p0.get(s0).get_data(as_text=True)
    assert f'hx-get="{s0}/chat" hx-trigger="load"' in page  # the chat loads after the page
    assert "Table chat" in p0.get(s0 + "/chat").get_data(as_text=True)
    r = p0.post(s0 + "/chat", data={"phrase": "hurry"})
    assert r.status_code == 303
    r = p1.post(
        s1 + "/chat", data={"text": "  nice   play, partner "}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200
    for html in (
        p0.get(s0 + "/chat").get_data(as_text=True),
        ow.director.get(ow.table_url).get_data(as_text=True),
    ):
        shown = _chat_list(html)
        assert "P00a</b>: Please be a bit quicker (请快一点)" in shown
        assert "nice play, partner" in shown  # its spaces tidied
    # the list polls on its own: 204 while its latest message is the one shown
    last = db.session.scalar(select(func.max(OnlineChat.id)))
    assert p0.get(f"{s0}/chat?after={last}").status_code == 204
    assert p0.get(f"{s0}/chat?after={last - 1}").status_code == 200
    # in Chinese the phrase is its Chinese words
    p0.post("/lang", data={"lang": "zh"})
    assert "请快一点" in _chat_list(p0.get(s0 + "/chat").get_data(as_text=True))
    # an unknown link's poll is a 404
    assert p0.get("/play/nosuchlink/chat?after=0").status_code == 404


@pytest.mark.parametrize(
    "text",
    [
        "I had A♠ all along",
        "play 10H next",
        "黑桃A 在我这",
        "红桃K!",
        "大王呢",
        "♣7 was mine",
        "KS",
    ],
)
def test_a_text_naming_a_card_is_refused(app: Flask, client: FlaskClient, text: str) -> None:
    ow, p0, _p1 = _world(app, client)
    s0 = f"/play/{ow.seats()[0].token}"
    r = p0.post(s0 + "/chat", data={"text": text}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    assert "The chat never names a card" in r.get_data(as_text=True)
    assert _count() == 0


def test_ordinary_words_are_not_cards() -> None:
    for text in ("as you like", "well played", "2 more deals", "我们加油", "Ask me after"):
        assert not names_a_card(text), text


def test_a_long_text_and_an_empty_one_are_refused(app: Flask, client: FlaskClient) -> None:
    ow, p0, _p1 = _world(app, client)
    s0 = f"/play/{ow.seats()[0].token}"
    r = p0.post(s0 + "/chat", data={"text": "x" * 81}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    assert "A message has at most 80 characters; this one has 81." in r.get_data(as_text=True)
    r = p0.post(s0 + "/chat", data={"text": "  "}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    assert "Please write a message or choose a phrase." in r.get_data(as_text=True)
    assert _count() == 0


def test_the_director_switches_the_chat_off_and_on(app: Flask, client: FlaskClient) -> None:
    ow, p0, _p1 = _world(app, client)
    s0 = f"/play/{ow.seats()[0].token}"
    r = ow.director.post(ow.table_url + "/chat", data={"chat": "0"}, follow_redirects=True)
    assert "The table chat is off." in r.get_data(as_text=True)
    page = unescape(p0.get(s0 + "/chat").get_data(as_text=True))
    assert "The director has switched this table's chat off." in page
    assert 'name="phrase"' not in page
    r = p0.post(s0 + "/chat", data={"phrase": "good"}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    assert "switched this table's chat off" in unescape(r.get_data(as_text=True))
    assert _count() == 0
    r = ow.director.post(ow.table_url + "/chat", data={"chat": "1"}, follow_redirects=True)
    assert "The table chat is on." in r.get_data(as_text=True)
    assert p0.post(s0 + "/chat", data={"phrase": "good"}).status_code == 303
    assert _count() == 1
