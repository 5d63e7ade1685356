"""Reading another seat's cards through any response. While a deal is played, nothing a seat's
link answers names a card of another hand or the kitty buried by someone else: the seat's page,
its poll partial, the pages of a refused move (409 stale, 422 illegal), its list of replays; a
replay of the deal still being played is a 404 for the seat and for the club's members, so
hands are shown only once a deal is over. (The spectators' and the director's live views:
``tests/online/test_online_spectate.py``; a seat's page turn by turn:
``tests/online/test_online_tables.py``.)"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from engine.deal import PLAY
from tests.online.online_helpers import page_token
from tests.security.db_snapshot import unchanged
from tests.security.online_play import (
    assert_no_hidden_card,
    deal_now,
    human_table,
    links,
    play_until,
)
from tests.security.security_world import logged_in
from tests.tournaments.tournament_helpers import member


def _responses(app: Flask, link: str, html: str) -> dict[str, str]:
    guest = app.test_client()
    v = page_token(html)
    out = {
        "page": guest.get(link).get_data(as_text=True),
        "poll": guest.get(f"{link}/poll?v=0.0").get_data(as_text=True),
        "replays": guest.get(f"{link}/replays").get_data(as_text=True),
    }
    stale = guest.post(link, data={"v": "1.0", "kind": "pass"})
    assert stale.status_code == 409
    out["409"] = stale.get_data(as_text=True)
    illegal = guest.post(link, data={"v": v, "kind": "play", "cards": ["XX"]})
    assert illegal.status_code in (409, 422)
    out[str(illegal.status_code)] = illegal.get_data(as_text=True)
    htmx = guest.post(link, data={"v": "1.0", "kind": "pass"}, headers={"HX-Request": "true"})
    out["409 partial"] = htmx.get_data(as_text=True)
    return out


def test_no_response_of_a_seat_names_a_hidden_card(app: Flask, client: FlaskClient) -> None:
    ow = human_table(client, bots=(2, 3))
    checked = 0
    for phase_done in (
        lambda d: d.phase == PLAY,  # the kitty buried, the first trick to lead
        lambda d: d.phase == PLAY and len(d.tricks) >= 3,
    ):
        pages = play_until(app, ow, phase_done)
        deal = deal_now(ow)
        with unchanged():
            for seat, link in links(ow).items():
                for name, html in _responses(app, link, pages[seat]).items():
                    checked += assert_no_hidden_card(deal, seat, html, f"seat {seat} {name}")
    assert checked > 100  # most of the deck was there to hide


def test_the_deal_being_played_has_no_replay(app: Flask, client: FlaskClient) -> None:
    ow = human_table(client, bots=(2, 3))
    play_until(app, ow, lambda d: d.phase == PLAY)
    row = ow.deals()[-1]
    guest = app.test_client()
    link = links(ow)[0]
    assert guest.get(f"{link}/replays/{row.number}").status_code == 404
    assert f"/replays/{row.number}" not in guest.get(f"{link}/replays").get_data(as_text=True)
    from app.extensions import db
    from app.models import User

    pete = member(ow.club, "Pete Player")
    assert pete is not None
    player = logged_in(app, db.session.get(User, pete.user_id))
    assert player.get(f"/clubs/{ow.club.slug}/replays/{row.id}").status_code == 404
    assert ow.director.get(f"/clubs/{ow.club.slug}/replays/{row.id}").status_code == 404
