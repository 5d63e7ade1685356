"""The live view of an online table: spectators (the club's members) and the director see the
public table only — never a card of a hand, never the kitty before it is revealed — updated by
the same cheap polling as a seat's page; the director pauses and resumes the table, seats a bot
for a player who dropped out, and is told when a human seat keeps the table waiting."""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from app.extensions import db
from app.models import OnlineAction, OnlineDeal, Table, User
from app.services.online import bridge, tokens
from engine.cards import card_str
from engine.deal import Deal
from engine.views import spectator_view
from tests.conftest import _login
from tests.online.online_helpers import (
    OnlineWorld,
    moves,
    online_world,
    page_token,
    replay_row,
)
from tests.online.test_online_tables import _choose


def _user(name: str) -> User:
    user = db.session.scalar(select(User).where(User.username == name))
    assert user is not None
    return user


def _client_of(app: Flask, username: str) -> FlaskClient:
    c = app.test_client()
    _login(c, _user(username))
    return c


def _watch_url(ow: OnlineWorld) -> str:
    return ow.table_url.removesuffix("/online") + "/watch"


def _entries(ow: OnlineWorld) -> int:
    db.session.expire_all()
    return db.session.scalar(
        select(func.count(OnlineAction.id)).join(OnlineDeal).where(OnlineDeal.table_id == ow.tab.id)
    )


def _public(deal: Deal) -> Counter[str]:
    """Every card a spectator may see, as often as it may be seen: the cards played, the calls
    shown, the kitty cards turned up, and the kitty once revealed (the engine's spectator view,
    which the test trusts for what is public, not for what is hidden)."""
    view = spectator_view(deal)
    seen: Counter[str] = Counter()
    for trick in view["tricks"] + ([view["trick"]] if view["trick"] else []):
        for p in trick["plays"]:
            seen.update(p["cards"])
    for c in view["calls"]:
        seen.update(c["cards"])
    seen.update(view["kitty"]["turned"] or [])
    seen.update(view["kitty"]["cards"] or [])
    if view["friend_card"]:
        seen[view["friend_card"]] += 1  # the friend card is named aloud
    return seen


def _assert_no_hidden_card(deal: Deal, html: str) -> int:
    """No card of any hand (and no buried card before it is revealed) appears in the page beyond
    the public ones; returns how many card codes the page shows."""
    shown = Counter(re.findall(r'data-card="([^"]+)"', html))
    public = _public(deal)
    assert not shown - public, (shown - public, deal.phase)
    held = Counter(card_str(c) for h in deal.hands for c in h)
    if not deal.kitty_revealed:
        held.update(card_str(c) for c in deal.buried)
    held.update(card_str(c) for c in deal.undealt())  # the pack being dealt, the kitty untaken
    only_hidden = set(held) - set(public)
    from app.services.online.cards import face_of

    for code in only_hidden:
        assert code not in re.findall(r'(?:value|data-card)="([^"]+)"', html), code
        assert f">{face_of(code)['label']}<" not in html, (code, deal.phase)
    assert "hand" not in re.findall(r'class="([^"]*)"', html)  # no hand drawn at all
    return sum(shown.values())


@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p", "one-twenty-6p"])
def test_the_spectator_page_and_poll_never_show_a_hand_nor_the_kitty(
    app: Flask, client: FlaskClient, variant: str
) -> None:
    ow = online_world(client, variant)
    players = {"tractor-4p": 4, "red-five-5p": 5, "one-twenty-6p": 6}[variant]
    ow.bots(*range(1, players))
    member = _client_of(app, "player")
    me = ow.seats()[0]
    player = app.test_client()
    url = f"/play/{me.token}"
    phases: set[str] = set()
    shown_cards = 0
    for _ in range(40):
        deal = replay_row(ow.deals()[-1])
        phases.add(deal.phase)
        page = member.get(_watch_url(ow))
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert 'id="watch"' in html
        shown_cards = max(shown_cards, _assert_no_hidden_card(deal, html))
        poll = member.get(_watch_url(ow) + "/poll?v=0")
        assert poll.status_code == 200
        _assert_no_hidden_card(deal, poll.get_data(as_text=True))
        director = ow.director.get(ow.table_url).get_data(as_text=True)
        live = director.split('id="director-live"', 1)[1]
        _assert_no_hidden_card(deal, live)
        seat_html = player.get(url).get_data(as_text=True)
        # the seat's JSON view shows seat 0's own hand and the public table, nothing more
        from tests.online.test_online_state_json import assert_only_own_cards

        assert_only_own_cards(deal, player.get(url + "/state.json").get_json(), 0)
        if "The match is over." in seat_html:
            break
        assert player.post(url, data=_choose(ow, seat_html)).status_code == 303
    # the walk went through the burial and well into the play, and the page showed the tricks
    assert {"bury", "play"} <= phases or "done" in phases, phases
    assert shown_cards >= 4
    # whose turn it is and the hand sizes are public
    html = member.get(_watch_url(ow)).get_data(as_text=True)
    deal = replay_row(ow.deals()[-1])
    if deal.to_act is not None:
        assert "waiting for" in html
    for size in {len(h) for h in deal.hands}:
        assert f'<td class="num">{size}</td>' in html


def test_polls_answer_204_while_nothing_changed(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    member = _client_of(app, "player")
    html = member.get(_watch_url(ow)).get_data(as_text=True)
    token = page_token(html)
    assert member.get(_watch_url(ow) + f"/poll?v={token}").status_code == 204
    live = ow.director.get(ow.table_url).get_data(as_text=True).split('id="director-live"', 1)[1]
    live_token = page_token(live)
    assert ow.director.get(ow.table_url + f"/live?v={live_token}").status_code == 204
    # seat 0 moves: both polls answer with the fresh partial, and a new token
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    assert (
        player.post(url, data=_choose(ow, player.get(url).get_data(as_text=True))).status_code
        == 303
    )
    r = member.get(_watch_url(ow) + f"/poll?v={token}")
    assert r.status_code == 200
    part = r.get_data(as_text=True)
    assert "<html" not in part
    assert 'id="watch"' in part and page_token(part) != token
    r = ow.director.get(ow.table_url + f"/live?v={live_token}")
    assert r.status_code == 200 and 'id="director-live"' in r.get_data(as_text=True)
    assert "<html" not in r.get_data(as_text=True)
    # a bot seated (or handed back) is news for the live view too
    token = page_token(member.get(_watch_url(ow)).get_data(as_text=True))
    db.session.expire_all()
    deal = replay_row(ow.deals()[-1])
    if deal.to_act != 0:  # seat 0 waits: handing seat 1 back to its player changes no log entry
        ow.director.post(ow.table_url + "/bots", data={"seat": "1", "bot": "0"})
        assert member.get(_watch_url(ow) + f"/poll?v={token}").status_code == 200


def test_live_pages_and_their_polls_are_never_cached(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    member = _client_of(app, "player")
    guest = app.test_client()  # a seat's link needs no login
    url = f"/play/{ow.seats()[0].token}"
    seat_page = guest.get(url)
    watch_page = member.get(_watch_url(ow))
    answers = {
        "seat page": seat_page,
        "seat poll (news)": guest.get(url + "/poll?v=0"),
        "seat poll (204)": guest.get(
            url + f"/poll?v={page_token(seat_page.get_data(as_text=True))}"
        ),
        "seat state.json": guest.get(url + "/state.json"),
        "spectator page": watch_page,
        "spectator poll (news)": member.get(_watch_url(ow) + "/poll?v=0"),
        "spectator poll (204)": member.get(
            _watch_url(ow) + f"/poll?v={page_token(watch_page.get_data(as_text=True))}"
        ),
    }
    assert answers["seat poll (204)"].status_code == 204
    assert answers["spectator poll (204)"].status_code == 204
    for name, r in answers.items():
        assert r.status_code in (200, 204), name
        assert r.headers.get("Cache-Control") == "no-store", (name, r.headers.get("Cache-Control"))


def test_who_may_watch(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p", tables=2)
    url = _watch_url(ow)
    assert app.test_client().get(url).status_code in (302, 401)  # log in first
    assert _client_of(app, "outsider").get(url).status_code == 404
    assert _client_of(app, "outsider").get(url + "/poll?v=0").status_code == 404
    assert _client_of(app, "player").get(url).status_code == 200
    assert ow.director.get(url).status_code == 200
    assert _client_of(app, "owner").get(url).status_code == 200
    # a paper table has nothing to watch live; the round page links the online table's only
    paper = next(x for x in ow.rnd.tables if x.number != ow.tab.number and x.kind != "bye")
    r = ow.director.get(url.replace(f"/tables/{ow.tab.number}/", f"/tables/{paper.number}/"))
    assert r.status_code == 200 and "played on paper" in r.get_data(as_text=True)
    assert "hx-get" not in r.get_data(as_text=True).split('id="watch"', 1)[1].split(">", 1)[0]

    round_url = ow.table_url.split("/tables/")[0]
    for who in ("player", "director"):
        page = _client_of(app, who).get(round_url).get_data(as_text=True)
        assert page.count("/watch") == 1 and url in page, who
    # the director's live view is the director's only
    assert _client_of(app, "player").get(ow.table_url + "/live?v=0").status_code == 403


def _to_seat_zero(ow: OnlineWorld, player: FlaskClient, url: str) -> str:
    for _ in range(60):
        html = player.get(url).get_data(as_text=True)
        if moves(html) & {"play", "bury"}:
            return html
        assert player.post(url, data=_choose(ow, html)).status_code == 303
    raise AssertionError("seat 0 never had to play")


def test_pause_stops_moves_and_bots_and_resume_lets_them_go_on(
    app: Flask, client: FlaskClient
) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = _to_seat_zero(ow, player, url)
    move = _choose(ow, html)
    before = _entries(ow)
    r = ow.director.post(ow.table_url + "/pause", data={"paused": "1"}, follow_redirects=True)
    assert "The table is paused" in r.get_data(as_text=True)
    assert "Resume play" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Table, ow.tab.id).paused  # type: ignore[union-attr]
    # the seat's page says so, offers no move, and its poll sees the change
    assert player.get(url + f"/poll?v={move['v']}").status_code == 200
    paused_html = player.get(url).get_data(as_text=True)
    assert "The director paused the table" in paused_html
    assert "Your turn." not in paused_html and 'data-my-turn="0"' in paused_html
    assert not moves(paused_html)
    # a move is refused with that sentence (even one made on the page seen before the pause)
    for v in (move["v"], page_token(paused_html)):
        r = player.post(url, data=dict(move, v=v))
        assert r.status_code == 422
        assert "The director paused the table" in r.get_data(as_text=True)
    assert _entries(ow) == before
    assert "The director paused the table." in _client_of(app, "player").get(
        _watch_url(ow)
    ).get_data(as_text=True)
    # resumed: the seat moves again (on the page it sees now)
    r = ow.director.post(ow.table_url + "/pause", data={"paused": "0"}, follow_redirects=True)
    assert "The table plays on." in r.get_data(as_text=True)
    db.session.expire_all()
    assert not db.session.get(Table, ow.tab.id).paused  # type: ignore[union-attr]
    html = player.get(url).get_data(as_text=True)
    assert "The director paused the table" not in html
    assert player.post(url, data=_choose(ow, html)).status_code == 303
    assert _entries(ow) > before
    # paused again, a bot seated for seat 0 does not act; resumed, the bots play on at once
    html = _to_seat_zero(ow, player, url)
    ow.director.post(ow.table_url + "/pause", data={"paused": "1"})
    before = _entries(ow)
    ow.bots(0)
    assert _entries(ow) == before
    ow.director.post(ow.table_url + "/pause", data={"paused": "0"})
    assert _entries(ow) > before
    assert ow.deals()[-1].outcome == "played"  # four bots: the match played out


def test_a_player_cannot_pause_and_a_closed_round_is_not_paused(
    app: Flask, client: FlaskClient
) -> None:
    from app.models import Round

    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    assert (
        _client_of(app, "player").post(ow.table_url + "/pause", data={"paused": "1"}).status_code
        == 403
    )
    rnd = db.session.get(Round, ow.rnd.id)
    assert rnd is not None
    rnd.status = "closed"
    db.session.commit()
    r = ow.director.post(ow.table_url + "/pause", data={"paused": "1"}, follow_redirects=True)
    assert "The round is closed" in r.get_data(as_text=True)
    db.session.expire_all()
    assert not db.session.get(Table, ow.tab.id).paused  # type: ignore[union-attr]


def test_the_director_is_told_when_a_human_seat_has_not_moved_for_a_minute(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    with app.test_request_context():
        live = bridge.load(tab)
        assert live is not None and live.waiting_for() == 0  # seat 0, a human, is awaited
        last = tokens.last_moved_at(tab)
    assert last is not None
    last_entry = db.session.scalar(
        select(func.max(OnlineAction.created_at)).where(OnlineAction.deal_id == ow.deals()[-1].id)
    )
    assert last == last_entry

    def at(seconds: int) -> None:
        monkeypatch.setattr(tokens, "now", lambda: last + timedelta(seconds=seconds))

    notice = "has not moved for"
    at(59)
    page = ow.director.get(ow.table_url).get_data(as_text=True)
    assert notice not in page
    token = page_token(page.split('id="director-live"', 1)[1])
    assert ow.director.get(ow.table_url + f"/live?v={token}").status_code == 204
    at(61)
    r = ow.director.get(ow.table_url + f"/live?v={token}")  # the poll brings the notice
    assert r.status_code == 200
    assert "P00a (seat 1) has not moved for 1 minute." in r.get_data(as_text=True)
    token = page_token(r.get_data(as_text=True))
    assert ow.director.get(ow.table_url + f"/live?v={token}").status_code == 204
    at(125)  # a minute more: the poll brings the new count
    r = ow.director.get(ow.table_url + f"/live?v={token}")
    assert r.status_code == 200 and "has not moved for 2 minutes." in r.get_data(as_text=True)
    at(185)
    assert "has not moved for 3 minutes." in ow.director.get(ow.table_url).get_data(as_text=True)
    # paused, or played by a bot, the seat keeps nobody waiting
    ow.director.post(ow.table_url + "/pause", data={"paused": "1"})
    assert notice not in ow.director.get(ow.table_url).get_data(as_text=True)
    ow.director.post(ow.table_url + "/pause", data={"paused": "0"})
    assert notice in ow.director.get(ow.table_url).get_data(as_text=True)
    ow.bots(0)
    assert notice not in ow.director.get(ow.table_url).get_data(as_text=True)


def test_a_seat_handed_to_a_bot_and_back(app: Flask, client: FlaskClient) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    page = ow.director.get(ow.table_url).get_data(as_text=True)
    live = page.split('id="director-live"', 1)[1]
    assert 'data-control="bot-0"' in live and 'data-control="player-1"' in live
    before = _entries(ow)
    ow.director.post(ow.table_url + "/bots", data={"seat": "0", "bot": "1"})
    assert _entries(ow) > before  # the bot took seat 0's turn at once
    live = ow.director.get(ow.table_url).get_data(as_text=True).split('id="director-live"', 1)[1]
    assert 'data-control="player-0"' in live
    ow.director.post(ow.table_url + "/bots", data={"seat": "0", "bot": "0"})
    assert not ow.seats()[0].bot
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = player.get(url).get_data(as_text=True)
    assert "A bot plays this seat now." not in html
    if ow.deals()[-1].outcome is None:
        html = _to_seat_zero(ow, player, url)
        assert player.post(url, data=_choose(ow, html)).status_code == 303


@pytest.mark.parametrize(
    ("variant", "asks", "limit"),
    [
        ("tractor-4p", "Ask for a redeal — fewer than 300 points", "redeal_below"),
        ("one-twenty-6p", "Refuse the deal — fewer than 300 points", "refuse_below"),
    ],
)
def test_the_redeal_window_buttons_say_what_they_do(
    app: Flask, client: FlaskClient, variant: str, asks: str, limit: str
) -> None:
    # every hand is weak enough: seat 0 may ask whenever it is an attacker
    ow = online_world(client, variant, deals=6, options={limit: 300})
    ow.bots(*range(1, 6 if variant == "one-twenty-6p" else 4))
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    for _ in range(400):
        html = player.get(url, headers={"Accept-Language": "en"}).get_data(as_text=True)
        if "redeal" in moves(html):
            break
        if "pass" in moves(html) and "Play on" in html:  # the window, with too many points
            assert ">Pass<" not in html
        assert player.post(url, data=_choose(ow, html)).status_code == 303
    else:
        raise AssertionError("seat 0 never had the redeal window")
    assert asks in html
    assert re.search(r'data-move="pass">Play on<', html)
    assert ">Pass<" not in html


def test_a_bot_handed_a_seat_or_a_seat_handed_back_shows_at_once(
    app: Flask, client: FlaskClient
) -> None:
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    player = app.test_client()
    url = f"/play/{ow.seats()[0].token}"
    html = _to_seat_zero(ow, player, url)
    token = page_token(html)
    move = _choose(ow, html)
    assert player.get(f"{url}/poll?v={token}").status_code == 204

    def plate(page: str, seat: int) -> str:
        got = re.search(rf'<div class="plate[^"]*" data-seat="{seat}">(.*?)</div>', page, re.S)
        assert got is not None
        return got.group(1)

    # seat 2 (not the one to act) is handed back to its player: nothing moves in the deal,
    # yet every page of the table sees it on its next poll
    assert "bot" in plate(html, 2)
    ow.director.post(ow.table_url + "/bots", data={"seat": "2", "bot": "0"})
    changed = player.get(f"{url}/poll?v={token}")
    assert changed.status_code == 200
    fresh = changed.get_data(as_text=True)
    assert page_token(fresh) != token and "bot" not in plate(fresh, 2)
    # and handed to a bot again: the token changes again
    ow.director.post(ow.table_url + "/bots", data={"seat": "2", "bot": "1"})
    again = player.get(f"{url}/poll?v={page_token(fresh)}")
    assert again.status_code == 200 and "bot" in plate(again.get_data(as_text=True), 2)
    # a move chosen on the page seen before both is still the move on the same deal
    assert player.post(url, data=move).status_code == 303
