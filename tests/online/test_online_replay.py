"""Replays: a finished online deal rebuilt from its log (setup, seed and entries) trick by trick —
the calls, the kitty buried, every trick by seat with its winner, every hand. The table's players
see them at once (their seat's link), the club's directors at once, its members once the round
is closed, nobody else (404)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import OnlineDeal, Round
from app.services.online import bridge
from engine.cards import card_str, cards_str
from tests.online.online_helpers import OnlineWorld, online_world, page_token, replay_row
from tests.online.test_online_spectate import _client_of
from tests.online.test_online_tables import _choose


def _replay_url(ow: OnlineWorld, number: int) -> str:
    """The club's address of the table's deal ``number`` (a replay is named by the deal's id)."""
    row = next(d for d in ow.deals() if d.number == number)
    return f"/clubs/{ow.club.slug}/replays/{row.id}"


def _codes(html: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', html)


def _section(html: str, marker: str) -> str:
    start = html.index(marker)
    return html[start : html.index("</div>", start)]


@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p"])
def test_replay_frames_match_the_recorded_tricks(
    app: Flask, client: FlaskClient, variant: str
) -> None:
    ow = online_world(client, variant, deals=1)
    players = {"tractor-4p": 4, "red-five-5p": 5}[variant]
    ow.bots(*range(players))
    rows = [d for d in ow.deals() if d.outcome is not None]
    played = [d for d in rows if d.outcome == "played"]
    assert played
    for row in rows:
        truth = replay_row(row)
        with app.test_request_context():
            r = bridge.replay(db.session.get(OnlineDeal, row.id))  # type: ignore[arg-type]
        assert len(r.tricks) == len(truth.tricks)
        for mine, theirs in zip(r.tricks, truth.tricks, strict=True):
            assert [(s, cards_str(c)) for s, c, _a in mine.plays] == [
                (s, cards_str(c)) for s, c in theirs.plays
            ]
            assert (mine.leader, mine.winner, mine.points) == (
                theirs.leader,
                theirs.winner,
                theirs.points,
            )
        # the hands before each trick are those after the one before, less its cards
        for i, trick in enumerate(r.tricks):
            for s, cards, _a in trick.plays:
                left = Counter(trick.hands[s])
                left.subtract(cards)
                assert min(left.values(), default=0) >= 0, (i, s)
                after = r.hands_at(i + 2)[s] if i + 1 < len(r.tricks) else truth.hands[s]
                assert Counter(after) == +left, (i, s)
        # dealt hands and the kitty are the whole pack; the burial is the one the log holds
        if row.outcome == "played":
            whole = Counter(c for h in r.dealt for c in h) + Counter(truth.kitty_cards)
            assert whole == Counter(truth.pack)
            assert r.burials and r.burials[-1][1] == truth.buried
            assert Counter(c for h in r.start for c in h) + Counter(truth.buried) == Counter(
                truth.pack
            )
        assert [(s, list(c)) for s, c, _k in truth.call_seq] == [(s, c) for s, c in r.calls]
    # the page shows the same, trick by trick, with every hand
    row = played[0]
    truth = replay_row(row)
    url = _replay_url(ow, row.number)
    html = ow.director.get(url).get_data(as_text=True)
    assert "Before the first trick" in html
    start_cards = Counter(_codes(html.split('<ul class="hands">')[-1]))
    assert start_cards == Counter(card_str(c) for h in replay_row(row).hands for c in h) + Counter(
        card_str(c) for t in truth.tricks for _s, p in t.plays for c in p
    )
    buried = _section(html, "Buried")
    assert Counter(_codes(buried.split("</dd>")[0])) == Counter(cards_str(truth.buried))
    for k, trick in enumerate(truth.tricks, start=1):
        page = ow.director.get(f"{url}?trick={k}").get_data(as_text=True)
        assert f"Trick {k} of {len(truth.tricks)}" in page
        shown = _section(page, 'id="replay-trick"')
        lines = re.findall(r"<li( class=\"won\")?>(.*?)</li>", shown, re.S)
        assert len(lines) == len(trick.plays)
        for (won, line), (seat, cards) in zip(lines, trick.plays, strict=True):
            assert Counter(_codes(line.split('class="hint"')[0])) == Counter(cards_str(cards))
            assert bool(won) == (seat == trick.winner)
    assert truth.result is not None
    assert f"The attackers' total is {truth.result.total}" in html


def test_replay_navigation_works_without_javascript_and_with_htmx(
    app: Flask, client: FlaskClient
) -> None:
    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(0, 1, 2, 3)
    row = next(d for d in ow.deals() if d.outcome == "played")
    n = len(replay_row(row).tricks)
    url = _replay_url(ow, row.number)
    first = ow.director.get(url).get_data(as_text=True)
    assert f'href="{url}?trick=1"' in first and 'rel="prev"' not in first
    middle = ow.director.get(f"{url}?trick=3").get_data(as_text=True)
    assert f'href="{url}?trick=2"' in middle and f'href="{url}?trick=4"' in middle
    last = ow.director.get(f"{url}?trick={n}").get_data(as_text=True)
    assert 'rel="next"' not in last and f"Trick {n} of {n}" in last
    # a number past the end (or not a number) stays inside the deal
    assert f"Trick {n} of {n}" in ow.director.get(f"{url}?trick=999").get_data(as_text=True)
    assert "Before the first trick" in ow.director.get(f"{url}?trick=x").get_data(as_text=True)
    # htmx asks for the frame alone; a history restore gets the whole page
    part = ow.director.get(f"{url}?trick=2", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="replay"' in part and "<html" not in part and "Trick 2 of" in part
    full = ow.director.get(
        f"{url}?trick=2", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    ).get_data(as_text=True)
    assert "<html" in full


def test_who_sees_a_replay(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p", deals=2, tables=2)
    ow.bots(1, 2, 3)
    seat_link = f"/play/{ow.seats()[0].token}"
    guest = app.test_client()
    # seat 0 plays deal 1 to its end; the next deal waits for it
    for _ in range(200):
        if any(d.outcome is not None for d in ow.deals()):
            break
        html = guest.get(seat_link).get_data(as_text=True)
        assert guest.post(seat_link, data=_choose(ow, html)).status_code == 303
    rows = ow.deals()
    number = next(d.number for d in rows if d.outcome is not None)
    assert rows[-1].number == number  # the next deal waits for seat 0's Continue
    # the table's players: at once, from their seat's link
    r = guest.get(f"{seat_link}/replays/{number}")
    assert r.status_code == 200 and "Replay of deal" in r.get_data(as_text=True)
    assert r.headers["Cache-Control"] == "no-store"
    index = guest.get(f"{seat_link}/replays").get_data(as_text=True)
    assert f"{seat_link}/replays/{number}" in index
    assert f"{seat_link}/replays" in guest.get(seat_link).get_data(as_text=True)
    # the director: at once, linked from the director's page and the table's score sheet
    assert ow.director.get(_replay_url(ow, number)).status_code == 200
    assert _replay_url(ow, number) in ow.director.get(ow.table_url).get_data(as_text=True)
    sheet = ow.director.get(ow.table_url.removesuffix("/online")).get_data(as_text=True)
    assert _replay_url(ow, number) in sheet
    # a club member: not while the round is open (and the spectator page links none)
    member = _client_of(app, "player")
    assert member.get(_replay_url(ow, number)).status_code == 404
    watch = ow.table_url.removesuffix("/online") + "/watch"
    assert "/replays/" not in member.get(watch).get_data(as_text=True)
    # nobody else, ever; a deal in play has no replay; nor a guessed link
    outsider = _client_of(app, "outsider")
    assert outsider.get(_replay_url(ow, number)).status_code == 404
    assert guest.get(_replay_url(ow, number)).status_code in (302, 401)
    # seat 0 presses Continue: the next deal starts, and a deal in play has no replay
    token = page_token(guest.get(seat_link).get_data(as_text=True))
    assert guest.post(f"{seat_link}/ready", data={"v": token}).status_code == 303
    live = ow.deals()[-1]
    assert live.number == number + 1 and live.outcome is None
    assert guest.get(f"{seat_link}/replays/{live.number}").status_code == 404
    assert ow.director.get(_replay_url(ow, live.number)).status_code == 404
    assert guest.get(f"{seat_link}/replays/99").status_code == 404
    assert guest.get(f"/play/not-a-seat/replays/{number}").status_code == 404
    assert ow.director.get(f"/clubs/{ow.club.slug}/replays/999999").status_code == 404
    # the round closed: the club's members see it, linked from the spectator page
    rnd = db.session.get(Round, ow.rnd.id)
    assert rnd is not None
    rnd.status = "closed"
    db.session.commit()
    assert member.get(_replay_url(ow, number)).status_code == 200
    assert _replay_url(ow, number) in member.get(watch).get_data(as_text=True)
    assert outsider.get(_replay_url(ow, number)).status_code == 404
