"""Acting for another seat or table. A seat's link moves for that seat only: another human
seat's link cannot make its move (not its turn, or the cards are not in its hand, whatever
``seat`` field it adds), a bot's seat link takes no move, a version seen at another table is
stale here, and a guessed link is a 404 — each refusal leaving every row as it was. (A table's
code is the same capability for a paper sheet: ``test_security_codes.py``; a seat bound to a
member opens for that member only: the ``bound`` rule of ``test_security_access.py``.)"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from app.services.online import tokens
from engine.cards import card_str
from engine.deal import PLAY
from tests.online.online_helpers import page_token
from tests.security.db_snapshot import unchanged
from tests.security.online_play import deal_now, human_table, legal_form, links, play_until


def test_a_seat_link_cannot_move_for_another_seat(app: Flask, client: FlaskClient) -> None:
    ow = human_table(client, bots=(2, 3))
    pages = play_until(app, ow, lambda d: d.phase == PLAY and d.to_act in (0, 1))
    deal = deal_now(ow)
    mover = deal.to_act
    assert mover is not None
    other = 1 - mover
    seat_links = links(ow)
    guest = app.test_client()
    right = legal_form(ow, mover, pages[mover])
    assert right is not None
    v = page_token(pages[other])
    with unchanged():
        # the mover's own move, sent from the other seat's link (with a seat field naming it)
        for extra in ({}, {"seat": str(mover)}, {"seat_id": str(mover)}):
            r = guest.post(seat_links[other], data={**right, **extra})
            assert r.status_code == 422, r.status_code
        # the other seat's own cards, out of turn
        own = [card_str(deal.hands[other][0])]
        r = guest.post(seat_links[other], data={"v": v, "kind": "play", "cards": own})
        assert r.status_code == 422
        assert "turn" in r.get_data(as_text=True).lower()
    # the mover itself may
    assert guest.post(seat_links[mover], data=right).status_code == 303


def test_a_bot_seat_and_a_guessed_link_take_no_move(app: Flask, client: FlaskClient) -> None:
    ow = human_table(client, bots=(1, 2, 3))
    bot_token = next(s.token for s in ow.seats() if s.seat == 1)
    guest = app.test_client()
    html = guest.get(links(ow)[0]).get_data(as_text=True)
    v = page_token(html)
    with unchanged():
        r = guest.post(f"/play/{bot_token}", data={"v": v, "kind": "pass"})
        assert r.status_code == 422
        assert "A bot plays this seat now." in r.get_data(as_text=True)
        for token in ("not-a-seat", bot_token[:-1], bot_token + "x", ""):
            r = guest.post(f"/play/{token}", data={"v": v, "kind": "pass"})
            assert r.status_code in (404, 405), (token, r.status_code)


def test_a_version_from_another_table_is_stale_here(app: Flask, client: FlaskClient) -> None:
    from tests.online.online_helpers import online_world

    ow = online_world(client, "tractor-4p", tables=2)
    ow.bots(1, 2, 3)
    me = links(ow)[0]
    guest = app.test_client()
    v = page_token(guest.get(me).get_data(as_text=True))
    number, version = (int(x) for x in tokens.deal_part(v).split("."))
    with unchanged():
        for seen in (f"{number}.{version + 1}", f"{number + 1}.{version}", "0.0", "x", ""):
            r = guest.post(me, data={"v": seen, "kind": "continue"})
            assert r.status_code == 409, (seen, r.status_code)
