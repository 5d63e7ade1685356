"""Seats bound to people: the director binds a seat of an online table to a club member with an
account (by default the seat's own player), who then plays it from their home page without a
link; a guest's seat keeps its secret link, which can be replaced. Every link has a QR code, on
the director's page and on the printed table cards, and it encodes exactly that link."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import segno
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from pypdf.generic import ContentStream
from sqlalchemy import select

from app.extensions import db
from app.models import AuditEntry, OnlineAction, OnlineDeal, OnlineSeat, Table, User
from app.services.online.seats import seat_players
from engine.bots import HeuristicBot
from engine.cards import cards_str
from tests.conftest import _login, _make_member, _make_user
from tests.online.online_helpers import OnlineWorld, form, moves, page_token, replay_row
from tests.tournaments.tournament_helpers import World, create, login, member, seat, world


@dataclass
class Bound:
    w: World
    ow: OnlineWorld  # Pete Player's table, online
    others: list[Table]  # the round's other tables (paper unless switched)
    pete_seat: int  # the engine seat of Pete Player (a member with an account)

    def seat_row(self, n: int) -> OnlineSeat:
        return self.ow.seats()[n]

    def my_url(self, n: int | None = None) -> str:
        row = self.seat_row(self.pete_seat if n is None else n)
        return f"/clubs/{self.w.club.slug}/my-table/{row.id}"


def _bound(client: FlaskClient, tables: int = 1) -> Bound:
    """Entrant 1 is Pete Player (the club's player, with an account) and Gina Guest (a name
    only); the rest are guests. Pete's table is switched online."""
    w = world()
    login(client, w.director)
    t = create(client, w.club, variant="tractor-4p", match_kind="deals", match_value=1)
    pairs = [("Pete Player", "Gina Guest")] + [(f"G{i}a", f"G{i}b") for i in range(1, 2 * tables)]
    for a, b in pairs:
        r = client.post(
            f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants",
            data={"player_0": a, "player_1": b},
        )
        assert r.status_code == 303
    rnd = seat(client, w.club, t)
    tabs = [x for x in rnd.tables if x.kind != "bye"]
    mine = next(
        x for x in tabs if any(p.name == "Pete Player" for s in x.seats for p in s.entrant.players)
    )
    ow = OnlineWorld(w.club, t, rnd, mine, client)
    assert client.post(ow.table_url).status_code == 303
    db.session.expire_all()
    tab = db.session.get(Table, mine.id)
    assert tab is not None and tab.mode == "online"
    players = seat_players(tab)
    pete = next(i for i, p in enumerate(players) if p is not None and p.name == "Pete Player")
    return Bound(w, ow, [x for x in tabs if x.id != mine.id], pete)


def _audit(action: str) -> list[AuditEntry]:
    db.session.expire_all()
    return list(
        db.session.scalars(
            select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)
        )
    )


def _client_of(app: Flask, user: User) -> FlaskClient:
    c = app.test_client()
    login(c, user)
    return c


def _select_of(html: str, n: int) -> str:
    """The member select of seat ``n`` (1-based) on the director's page."""
    m = re.search(rf'<select id="member-{n}" name="member">(.*?)</select>', html, re.S)
    assert m, html[:3000]
    return m.group(1)


def _selected(select_html: str) -> str:
    m = re.search(r'<option value="(\d*)" selected>', select_html)
    assert m, select_html
    return m.group(1)


def _move(ow: OnlineWorld, html: str, seat_no: int) -> dict:
    """A legal move for ``seat_no`` from what its page offers."""
    v = page_token(html)
    offered = moves(html)
    if "continue" in offered:
        return form(v, "continue")
    if "pass" in offered:
        return form(v, "pass")
    deal = replay_row(ow.deals()[-1])
    kind, _seat, *rest = HeuristicBot(7).act(deal, seat_no)
    assert kind in offered, (kind, offered)
    return form(v, kind, cards_str(rest[0]))


def test_a_members_seat_is_bound_by_default_and_the_director_sees_it(
    app: Flask, client: FlaskClient
) -> None:
    b = _bound(client)
    pete = member(b.w.club, "Pete Player")
    assert pete is not None
    rows = b.ow.seats()
    assert rows[b.pete_seat].member_id == pete.id
    assert [r.member_id for i, r in enumerate(rows) if i != b.pete_seat] == [None] * 3
    entries = _audit("online_seat")
    assert [(e.before, e.after) for e in entries] == [({"member": None}, {"member": "Pete Player"})]
    assert entries[0].actor == "Dora Director"
    html = client.get(b.ow.table_url).get_data(as_text=True)
    sel = _select_of(html, b.pete_seat + 1)
    assert _selected(sel) == str(pete.id)
    # the choices: a guest's link, or the club's members with accounts (the owner, the
    # director, Pete), never a name without an account
    nameless = _make_member(b.w.club, "Nina Noaccount")
    html = client.get(b.ow.table_url).get_data(as_text=True)
    sel = _select_of(html, 1 if b.pete_seat != 0 else 2)
    assert _selected(sel) == ""
    assert "guest (link)" in sel
    assert re.findall(r'<option value="(\d+)"', sel) == [
        str(m.id)
        for m in sorted(
            (member(b.w.club, n) for n in ("Olga Owner", "Dora Director", "Pete Player")),
            key=lambda m: m.display_name,  # type: ignore[union-attr]
        )
        if m is not None
    ]
    assert f'value="{nameless.id}"' not in sel
    # the bound seat's address is the member's own, no secret; a guest seat shows its link
    assert f"http://localhost{b.my_url()}" in html
    assert f"/play/{rows[b.pete_seat].token}" not in html
    for i, r in enumerate(rows):
        if i != b.pete_seat:
            assert f"http://localhost/play/{r.token}" in html
    # the trail words the change in the reader's language
    trail = client.get(f"/clubs/{b.w.club.slug}/tournaments/{b.ow.t.id}/audit")
    text = trail.get_data(as_text=True)
    assert "seat bound" in text and "Pete Player" in text
    assert f"seat {b.pete_seat + 1}" in text


def test_the_bound_member_plays_from_home_without_a_link(app: Flask, client: FlaskClient) -> None:
    b = _bound(client)
    b.ow.bots(*(i for i in range(4) if i != b.pete_seat))
    rows = b.ow.seats()
    pete = _client_of(app, b.w.player)
    home = pete.get("/").get_data(as_text=True)
    assert "Your table is ready" in home
    assert f'href="{b.my_url()}"' in home
    assert "Spring Cup" in home and "Round 1 · Table" in home
    # the member's page is the seat's page, its moves and polls go to the member's address
    page = pete.get(b.my_url())
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Pete Player" in html and f"seat {b.pete_seat + 1}" in html
    assert "/play/" not in html
    assert f'hx-post="{b.my_url()}"' in html
    assert f'hx-get="{b.my_url()}/poll?v=' in html
    before = b.ow.deals()[-1].version
    r = pete.post(b.my_url(), data=_move(b.ow, html, b.pete_seat))
    assert r.status_code == 303 and r.headers["Location"].endswith(b.my_url())
    db.session.expire_all()
    assert b.ow.deals()[-1].version > before
    actors = set(
        db.session.scalars(
            select(OnlineAction.actor).join(OnlineDeal).where(OnlineDeal.table_id == b.ow.tab.id)
        )
    )
    assert f"seat {b.pete_seat}" in actors
    # an htmx move answers with the partial, still addressed to the member's route
    html = pete.get(b.my_url()).get_data(as_text=True)
    if moves(html):
        r = pete.post(
            b.my_url(), data=_move(b.ow, html, b.pete_seat), headers={"HX-Request": "true"}
        )
        assert r.status_code == 200
        part = r.get_data(as_text=True)
        assert 'id="seat"' in part and "<html" not in part and "/play/" not in part
    token = page_token(pete.get(b.my_url()).get_data(as_text=True))
    assert pete.get(f"{b.my_url()}/poll?v={token}").status_code == 204
    # the bound seat's secret link no longer opens it: only its member plays it
    assert app.test_client().get(f"/play/{rows[b.pete_seat].token}").status_code == 404
    # anyone else: a 404 (another member, the director, someone of another club), or the login
    for user in (b.w.owner, b.w.director, b.w.outsider):
        other = _client_of(app, user)
        assert other.get(b.my_url()).status_code == 404
        assert other.post(b.my_url(), data={"v": token, "kind": "continue"}).status_code == 404
        assert other.get(f"{b.my_url()}/poll?v=0").status_code == 404
        assert "Your table is ready" not in other.get("/").get_data(as_text=True)
    anonymous = app.test_client().get(b.my_url())
    assert anonymous.status_code in (302, 401)
    # Pete's route opens only his own seat: another seat of his table is a 404
    for i in range(4):
        if i != b.pete_seat:
            assert pete.get(b.my_url(i)).status_code == 404
    # the guests' links still work
    guest = app.test_client()
    for i, r in enumerate(rows):
        if i != b.pete_seat:
            assert guest.get(f"/play/{r.token}").status_code == 200


def test_binding_changes_are_checked_and_audited(app: Flask, client: FlaskClient) -> None:
    b = _bound(client)
    url = b.ow.table_url + "/seats"
    guest_seat = next(i for i in range(4) if i != b.pete_seat)
    nameless = _make_member(b.w.club, "Nina Noaccount")
    foreign = member(b.w.other_club, "Otto Outsider")
    assert foreign is not None and foreign.user_id is not None
    before = _audit("online_seat")
    for m, message in (
        (foreign, "This person is not a member of this club."),
        (nameless, "Nina Noaccount has no account yet"),
    ):
        r = client.post(url, data={"seat": guest_seat, "member": m.id}, follow_redirects=True)
        assert message in r.get_data(as_text=True)
        assert b.seat_row(guest_seat).member_id is None
    r = client.post(url, data={"seat": guest_seat, "member": "x1"}, follow_redirects=True)
    assert "Please choose a member from the list." in r.get_data(as_text=True)
    pete = member(b.w.club, "Pete Player")
    assert pete is not None
    r = client.post(url, data={"seat": guest_seat, "member": pete.id}, follow_redirects=True)
    assert "already plays seat" in r.get_data(as_text=True)
    r = client.post(url, data={"seat": 9, "member": ""}, follow_redirects=True)
    assert "There is no such seat at this table." in r.get_data(as_text=True)
    assert _audit("online_seat") == before  # nothing refused left a trace
    # a player cannot bind seats
    player = _client_of(app, b.w.player)
    assert player.post(url, data={"seat": guest_seat, "member": pete.id}).status_code == 403
    # the director binds a seat to another member, and makes Pete's seat a guest's
    dora = member(b.w.club, "Dora Director")
    assert dora is not None
    r = client.post(url, data={"seat": guest_seat, "member": dora.id}, follow_redirects=True)
    assert "is bound: its member plays it from their home page" in r.get_data(as_text=True)
    r = client.post(url, data={"seat": b.pete_seat, "member": ""}, follow_redirects=True)
    assert "is played by its guest, through its link" in r.get_data(as_text=True)
    rows = b.ow.seats()
    assert rows[guest_seat].member_id == dora.id and rows[b.pete_seat].member_id is None
    assert [(e.target, e.before, e.after) for e in _audit("online_seat")[len(before) :]] == [
        (
            f'{{"round":1,"table":{b.ow.tab.number},"seat":{guest_seat + 1}}}',
            {"member": None},
            {"member": "Dora Director"},
        ),
        (
            f'{{"round":1,"table":{b.ow.tab.number},"seat":{b.pete_seat + 1}}}',
            {"member": "Pete Player"},
            {"member": None},
        ),
    ]
    # saving the same choice again changes nothing and writes nothing
    client.post(url, data={"seat": guest_seat, "member": dora.id})
    assert len(_audit("online_seat")) == len(before) + 2
    # the director is reminded that Pete has an account, on his seat only
    page = client.get(b.ow.table_url).get_data(as_text=True)
    assert page.count("this seat's player, has an account") == 1
    pete_item = page.split(f'id="seat-{b.pete_seat + 1}"', 1)[1].split("</li>", 1)[0]
    assert "Pete Player, this seat's player, has an account" in pete_item
    # Pete's seat is a guest's again: its link opens it, his member route does not
    assert app.test_client().get(f"/play/{rows[b.pete_seat].token}").status_code == 200
    assert _client_of(app, b.w.player).get(b.my_url()).status_code == 404
    # Dora now sees her table at home
    home = _client_of(app, b.w.director).get("/").get_data(as_text=True)
    assert f'href="{b.my_url(guest_seat)}"' in home


def test_a_seat_link_shows_nothing_of_another_table(app: Flask, client: FlaskClient) -> None:
    b = _bound(client, tables=2)
    other = b.others[0]
    ow2 = OnlineWorld(b.w.club, b.ow.t, b.ow.rnd, other, client)
    assert client.post(ow2.table_url).status_code == 303
    mine, theirs = b.ow.seats(), ow2.seats()
    db.session.expire_all()
    tab2 = db.session.get(Table, other.id)
    assert tab2 is not None
    their_names = [p.name for s in tab2.seats for p in s.entrant.players]
    their_entrants = [s.entrant.name for s in tab2.seats]
    guest = app.test_client()
    for row in mine:
        if row.member_id is not None:
            continue
        html = guest.get(f"/play/{row.token}").get_data(as_text=True)
        assert f"Table {b.ow.tab.number}" in html
        assert f"Table {other.number}" not in html
        for name in their_names + their_entrants:
            assert name not in html, name
        for s in theirs:
            assert s.token not in html
            assert f"/my-table/{s.id}" not in html
    # the member's route refuses every seat of another table
    pete = _client_of(app, b.w.player)
    for s in theirs:
        assert pete.get(f"/clubs/{b.w.club.slug}/my-table/{s.id}").status_code == 404
    assert pete.get(f"/clubs/{b.w.club.slug}/my-table/999999").status_code == 404


def _svg_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules (row, column, quiet zone included) of the inline SVG's path: one
    closed rectangle ``M x y h n v 1 h -n z`` per run of dark modules in a row."""
    path = re.search(r'<path class="qr-dark"[^>]* d="([^"]+)"', svg)
    assert path, svg[:300]
    dark: set[tuple[int, int]] = set()
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", path.group(1))
    for x, y, n, back in runs:
        assert n == back and int(n) > 0
        dark |= {(int(y), int(x) + k) for k in range(int(n))}
    rest = re.sub(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", "", path.group(1))
    assert rest == "", rest  # every command was read
    return dark


def _modules(url: str, border: int) -> set[tuple[int, int]]:
    code = segno.make(url, error="m")
    return {
        (r + border, c + border)
        for r, row in enumerate(code.matrix)
        for c, v in enumerate(row)
        if v
    }


def test_the_qr_codes_on_the_director_page_are_the_seat_links(
    app: Flask, client: FlaskClient
) -> None:
    b = _bound(client)
    html = client.get(b.ow.table_url).get_data(as_text=True)
    items = re.findall(r'<li class="seat-link" id="seat-(\d)">(.*?)</li>', html, re.S)
    assert [int(n) for n, _ in items] == [1, 2, 3, 4]
    for n, item in items:
        row = b.seat_row(int(n) - 1)
        expected = (
            f"http://localhost/clubs/{b.w.club.slug}/my-table/{row.id}"
            if row.member_id is not None
            else f"http://localhost/play/{row.token}"
        )
        field = re.search(
            r'<input type="text" class="copy" id="link-(\d)" readonly value="([^"]+)"', item
        )
        assert field and field.group(2) == expected
        copy = re.search(r'<button type="button"[^>]* data-copy="link-(\d)"', item)
        assert copy and copy.group(1) == field.group(1) == n
        svgs = re.findall(r"<svg[^>]*>.*?</svg>", item, re.S)
        assert len(svgs) == 1
        size = int(re.search(r'viewBox="0 0 (\d+) \1"', svgs[0]).group(1))  # type: ignore[union-attr]
        code = segno.make(expected, error="m")
        assert size == code.symbol_size(border=4)[0]
        assert _svg_modules(svgs[0]) == _modules(expected, 4)
        # a different address gives a different code: the comparison can fail
        assert _svg_modules(svgs[0]) != _modules(expected + "x", 4)
    # no inline script (CSP): the copy buttons are static/app.js's
    assert all(
        tag.startswith('<script src="/assets/') for tag in re.findall(r"<script[^>]*>", html)
    )


def test_a_new_link_ends_the_old_one(app: Flask, client: FlaskClient) -> None:
    b = _bound(client)
    n = next(i for i in range(4) if i != b.pete_seat)
    old = b.seat_row(n).token
    guest = app.test_client()
    assert guest.get(f"/play/{old}").status_code == 200
    r = client.post(b.ow.table_url + "/rotate", data={"seat": n}, follow_redirects=True)
    text = r.get_data(as_text=True)
    assert f"Seat {n + 1} has a new link: the old one no longer works." in text
    new = b.seat_row(n).token
    assert new != old and len(new) >= 24
    # the old link's page says it was replaced (and nothing of the table): the page itself
    # answers 410, its poll and its moves (htmx) the sentence in place of the seat
    gone = guest.get(f"/play/{old}", headers={"Accept-Language": "en"})
    assert gone.status_code == 410
    assert "gave this seat a new link" in gone.get_data(as_text=True)
    hx = {"HX-Request": "true", "Accept-Language": "en"}
    polled = guest.get(f"/play/{old}/poll?v=0", headers=hx)
    assert polled.status_code == 200
    body = polled.get_data(as_text=True)
    assert "gave this seat a new link" in body and "hx-trigger" not in body
    assert 'id="hand"' not in body and "data-token" not in body
    zh = guest.get(f"/play/{old}", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "新链接" in zh
    assert guest.get("/play/" + "x" * 24).status_code == 404  # a link that never was
    assert guest.get(f"/play/{new}").status_code == 200
    assert f"http://localhost/play/{new}" in text and old not in text
    entries = _audit("online_link")
    assert len(entries) == 1 and entries[0].actor == "Dora Director"
    assert entries[0].target == f'{{"round":1,"table":{b.ow.tab.number},"seat":{n + 1}}}'
    assert old not in str(entries[0].before) + str(entries[0].after)  # no secret in the trail
    trail = client.get(f"/clubs/{b.w.club.slug}/tournaments/{b.ow.t.id}/audit")
    assert "seat link replaced" in trail.get_data(as_text=True)
    # other seats keep theirs; a player of the club cannot make new links
    assert all(
        guest.get(f"/play/{r.token}").status_code == 200
        for r in b.ow.seats()
        if r.member_id is None
    )
    player = _client_of(app, b.w.player)
    assert player.post(b.ow.table_url + "/rotate", data={"seat": n}).status_code == 403
    assert b.seat_row(n).token == new


def _pdf_codes(data: bytes) -> list[list[set[tuple[int, int]]]]:
    """Per page, the QR codes drawn as forms: each the set of its dark modules (row, column,
    quiet zone included), read back from the rectangles filled in black."""
    pages = []
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        codes = []
        xobjects = page["/Resources"].get("/XObject") or {}
        for name in sorted(xobjects):
            form_obj = xobjects[name].get_object()
            if form_obj.get("/Subtype") != "/Form":
                continue
            size = int(form_obj["/BBox"][3])
            fill = (0.0, 0.0, 0.0)
            dark: set[tuple[int, int]] = set()
            for operands, op in ContentStream(form_obj, reader).operations:
                if op == b"rg":
                    fill = tuple(float(v) for v in operands)  # type: ignore[assignment]
                elif op == b"re" and fill == (0.0, 0.0, 0.0):
                    x, y, w, h = (int(v) for v in operands)
                    assert h == 1
                    row = size - 1 - y
                    dark |= {(row, x + k) for k in range(w)}
            codes.append(dark)
        pages.append(codes)
    return pages


def test_the_table_cards_of_an_online_round_print_a_qr_code_per_seat(
    app: Flask, client: FlaskClient
) -> None:
    b = _bound(client, tables=2)
    url = f"/clubs/{b.w.club.slug}/tournaments/{b.ow.t.id}/rounds/1/cards.pdf"
    r = client.get(url)
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    pages = _pdf_codes(r.data)
    by_table = sorted([b.ow.tab.number, b.others[0].number])
    assert len(pages) == 2
    online_page = pages[by_table.index(b.ow.tab.number)]
    paper_page = pages[by_table.index(b.others[0].number)]
    # a paper table's card has one code: its score-entry page (the table's code)
    assert paper_page == [_modules(f"http://localhost/table/{b.others[0].code}", 4)]
    expected = []
    for row in b.ow.seats():
        link = (
            f"http://localhost/clubs/{b.w.club.slug}/my-table/{row.id}"
            if row.member_id is not None
            else f"http://localhost/play/{row.token}"
        )
        expected.append(_modules(link, 4))
    assert len(online_page) == 4
    assert sorted(map(sorted, online_page)) == sorted(map(sorted, expected))
    text = PdfReader(io.BytesIO(r.data)).pages[by_table.index(b.ow.tab.number)].extract_text()
    assert "扫码入座 scan to play" in text and "Pete Player" in text
    # the round's print pack has the same codes on the table's card; a new link reprints
    pack = _pdf_codes(
        client.get(f"/clubs/{b.w.club.slug}/tournaments/{b.ow.t.id}/rounds/1/pack.pdf").data
    )
    assert sum(len(p) for p in pack) == 4 + 1  # the seats' codes and the paper table's
    n = next(i for i in range(4) if i != b.pete_seat)
    client.post(b.ow.table_url + "/rotate", data={"seat": n})
    again = _pdf_codes(client.get(url).data)[by_table.index(b.ow.tab.number)]
    fresh = _modules(f"http://localhost/play/{b.seat_row(n).token}", 4)
    assert fresh in again and expected[n] not in again


def test_a_director_who_plays_a_seat_sees_no_other_seats_link(
    app: Flask, client: FlaskClient
) -> None:
    b = _bound(client)
    mine = next(i for i in range(4) if i != b.pete_seat)
    others = [i for i in range(4) if i != mine]
    b.ow.bots(*[i for i in others if i != b.pete_seat])
    page = client.get(b.ow.table_url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    for row in b.ow.seats():
        if row.member_id is None:  # before the director sits down: every guest link is shown
            assert row.token in page
    dora = member(b.w.club, "Dora Director")
    assert dora is not None
    client.post(b.ow.table_url + "/seats", data={"seat": mine, "member": dora.id})
    page = client.get(b.ow.table_url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f"You play seat {mine + 1} at this table" in page
    for row in b.ow.seats():
        assert row.token not in page, row.seat  # no link, no QR code of another seat's hand
    assert page.count("Link hidden while you play at this table.") == 3  # every other seat
    # another director sees them all
    other = _make_member(b.w.club, "Dan Deputy", role="director", user=_make_user("dan", "Dan"))
    assert other is not None
    deputy = app.test_client()
    _login(deputy, db.session.get(User, other.user_id))  # type: ignore[arg-type]
    seen = deputy.get(b.ow.table_url).get_data(as_text=True)
    assert all(r.token in seen for r in b.ow.seats() if r.member_id is None)
