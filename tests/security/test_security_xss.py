"""Names are data, never markup: a club, a user, members, a tournament, entrants and guests named
with script and attribute-breaking payloads appear escaped on every page and every htmx partial;
no template marks user data safe; every HTML answer carries the Content-Security-Policy and the
other headers; CSV downloads neutralise spreadsheet formulas; PDFs print markup as typed."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Club, Member, OnlineDeal, OnlineSeat, Season, Table, Tournament, User
from tests.conftest import DEFAULT_PASSWORD
from tests.security.test_security_access import EXPECT, _url
from tests.tournaments.tournament_helpers import create, fixed_deal, seat

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "<script>alert(1)</script>"
ATTR = '"><img src=x onerror=alert(1)>'
SINGLE = "'><svg onload=alert(1)>"
JSON_VIEWS = ("online.state", "online.my_state")  # a seat's page as JSON (seat_json.py)
RAW_MARKERS = ("<script>alert", "<img src=x", "<svg onload")
ESCAPED = ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;")


def _evil_world(app: Flask) -> tuple[FlaskClient, dict[str, Any]]:
    client = app.test_client()
    r = client.post(
        "/account/register",
        data={
            "username": "mallory",
            "display_name": f"Mal {SCRIPT}",
            "password": DEFAULT_PASSWORD,
            "confirm": DEFAULT_PASSWORD,
        },
    )
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    r = client.post("/clubs/new", data={"name": f"Club {ATTR}"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    club = db.session.scalar(select(Club))
    assert club is not None
    for name, role in ((f"Dir {ATTR}", "director"), (f"Mem {SCRIPT}", "player")):
        r = client.post(f"/clubs/{club.slug}/members", data={"display_name": name, "role": role})
        assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    t = create(client, club, name=f"Cup {SCRIPT}{ATTR}")
    players = [
        (f"Mem {SCRIPT}", f"Guest {ATTR}"),
        (f"G2 {SINGLE}", f"G3 {SCRIPT}"),
        ("Plain One", "Plain Two"),
        (f"G4 {ATTR}", "Plain Three"),
    ]
    for i, (p0, p1) in enumerate(players):
        data = {"player_0": p0, "player_1": p1}
        if i == 3:
            data["name"] = f"Team {SCRIPT}"
        r = client.post(f"/clubs/{club.slug}/tournaments/{t.id}/entrants", data=data)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    rnd = seat(client, club, t)
    tab = min((x for x in rnd.tables if x.kind == "sides"), key=lambda x: x.number)
    sheet = f"/clubs/{club.slug}/tournaments/{t.id}/rounds/{rnd.number}/tables/{tab.number}"
    assert client.post(sheet, data=fixed_deal(0, 60)).status_code == 303
    online = max((x for x in rnd.tables if x.kind == "sides"), key=lambda x: x.number)
    assert online.number != tab.number
    r = client.post(sheet.rsplit("/", 1)[0] + f"/{online.number}/online")
    assert r.status_code == 303
    r = client.post(
        f"/clubs/{club.slug}/seasons", data={"name": f"League {SCRIPT}", "rule": "total"}
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    season_id = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    r = client.post(
        f"/clubs/{club.slug}/seasons/{season_id}/nights",
        data={"tournament": t.id, "venue": f"Hall {ATTR}", "division": 0},
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    r = client.post(
        f"/clubs/{club.slug}/duplicate",
        data={
            "name": f"Dup {SCRIPT}",
            "variant": "tractor-4p",
            "kind": "teams",
            "pairing": "swiss",
            "rounds": 2,
            "entrants": f"T {SCRIPT}\nT {ATTR}\nT {SINGLE}",
            "boards_per_round": 1,
        },
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    duplicate_id = int(r.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    for board in (1, 2):  # a Swiss of 3 teams, both rounds paired and every board played
        if board == 2:
            r = client.post(f"/clubs/{club.slug}/duplicate/{duplicate_id}/pair")
            assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        data = {}
        for k in (f"r{board}t1", f"r{board}t2"):
            data[f"{k}_declarer"], data[f"{k}_total"] = "0", "40"
        r = client.post(f"/clubs/{club.slug}/duplicate/{duplicate_id}/boards/{board}", data=data)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    # seat 1 of the online table is bound to the owner (whose name is markup too)
    db.session.expire_all()
    owner = db.session.scalar(select(Member).where(Member.display_name == f"Mal {SCRIPT}"))
    assert owner is not None
    online_url = sheet.rsplit("/", 1)[0] + f"/{online.number}/online"
    r = client.post(online_url + "/seats", data={"seat": "1", "member": owner.id})
    assert r.status_code == 303
    replayed, replayed_seat, replayed_bound = _replayed_deal(client, club)
    # both public: their links' pages show the same names to anyone
    r = client.post(
        f"/clubs/{club.slug}/tournaments/{t.id}/visibility", data={"visibility": "public"}
    )
    assert r.status_code == 303
    r = client.post(
        f"/clubs/{club.slug}/seasons/{season_id}/visibility", data={"visibility": "public"}
    )
    assert r.status_code == 303
    db.session.expire_all()
    user = db.session.scalar(select(User).where(User.username == "mallory"))
    member = db.session.scalar(select(Member).where(Member.display_name == f"Mem {SCRIPT}"))
    t2 = db.session.get(Tournament, t.id)
    tab2 = db.session.get(Table, tab.id)
    assert user and member and t2 and tab2
    params = {
        "slug": club.slug,
        "tid": t.id,
        "n": rnd.number,
        "tno": tab.number,
        "i": 1,
        "eid": t2.entrants[0].id,
        "member_id": member.id,
        "invite_id": 0,
        "kind": "pack",
        "code": tab2.code,
        "token": "x",
        "seat_token": replayed_seat,  # seat 0 of the table whose deals are replayed
        "seat_id": replayed_bound,  # seat 1 there, bound to the owner
        "filename": "style.css",
        "sid": season_id,
        "did": duplicate_id,
        "board": 1,
        "rnd": 1,
        "link": t2.public_token,
        "season_link": db.session.get(Season, season_id).public_token,
        "deal_id": replayed,
        "number": 1,
    }
    return client, params


def _replayed_deal(client: FlaskClient, club: Club) -> tuple[int, str, int]:
    """A second tournament (its standings apart) whose online table bots play to the end, its
    players named with payloads: the id of its first deal and seat 0's link, for the replay
    pages."""
    t = create(client, club, name=f"Online {SCRIPT}", match_value=1)
    for p0, p1 in ((f"Bot {SCRIPT}", f"Bot {ATTR}"), (f"Bot {SINGLE}", "Bot Plain")):
        data = {"player_0": p0, "player_1": p1}
        r = client.post(f"/clubs/{club.slug}/tournaments/{t.id}/entrants", data=data)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    rnd = seat(client, club, t)
    url = f"/clubs/{club.slug}/tournaments/{t.id}/rounds/1/tables/{rnd.tables[0].number}/online"
    assert client.post(url).status_code == 303
    owner = db.session.scalar(select(Member).where(Member.display_name == f"Mal {SCRIPT}"))
    assert owner is not None
    assert client.post(url + "/seats", data={"seat": "1", "member": owner.id}).status_code == 303
    for s in range(4):
        assert client.post(url + "/bots", data={"seat": str(s), "bot": "1"}).status_code == 303
    deal = db.session.scalar(
        select(OnlineDeal.id).where(OnlineDeal.table_id == rnd.tables[0].id, OnlineDeal.number == 1)
    )
    token = db.session.scalar(
        select(OnlineSeat.token).where(
            OnlineSeat.table_id == rnd.tables[0].id, OnlineSeat.seat == 0
        )
    )
    bound = db.session.scalar(
        select(OnlineSeat.id).where(OnlineSeat.table_id == rnd.tables[0].id, OnlineSeat.seat == 1)
    )
    assert deal is not None and token is not None and bound is not None
    return deal, token, bound


def _assert_escaped(body: str, where: str) -> None:
    for marker in RAW_MARKERS:
        assert marker not in body, (where, marker)


def _assert_headers(r: Any, where: str) -> None:
    h = r.headers
    csp = h.get("Content-Security-Policy", "")
    script_src = re.search(r"script-src ([^;]*)", csp)
    assert script_src, (where, csp)
    assert "'unsafe-inline'" not in script_src.group(1) and "'unsafe-eval'" not in csp, where
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp, (where, csp)
    assert h.get("X-Content-Type-Options") == "nosniff", where
    assert h.get("X-Frame-Options") == "DENY", where
    assert h.get("Referrer-Policy") == "same-origin", where


@pytest.fixture
def evil(app: Flask) -> tuple[FlaskClient, dict[str, Any]]:
    return _evil_world(app)


def test_every_page_escapes_names(app: Flask, evil: tuple[FlaskClient, dict[str, Any]]) -> None:
    client, params = evil
    anonymous = app.test_client()
    seen_escaped = {e: 0 for e in ESCAPED}
    html_pages = json_views = 0
    for endpoint, expect in EXPECT.items():
        if (
            "GET" not in expect.methods
            or expect.access == "invite"
            or endpoint
            in (
                "static",
                "assets",
            )
        ):
            continue
        url = _url(app, endpoint, params)
        for who, c in (("owner", client), ("anonymous", anonymous)):
            r = c.get(url)
            if who == "owner" and endpoint not in ("auth.login",):
                assert r.status_code == 200, (endpoint, r.status_code)
            if r.status_code != 200:
                continue
            if r.mimetype == "text/html":
                html_pages += 1
                body = r.get_data(as_text=True)
                _assert_escaped(body, f"{endpoint} as {who}")
                _assert_headers(r, endpoint)
                for e in seen_escaped:
                    seen_escaped[e] += body.count(e)
                # no inline script at all (the CSP forbids it; the page must not need it)
                for tag in re.findall(r"<script[^>]*>", body):
                    assert "src=" in tag, (endpoint, tag)
            elif r.mimetype == "text/event-stream":  # a live page's partials, pushed
                body = r.get_data(as_text=True)
                _assert_escaped(body, f"{endpoint} as {who}")
                assert r.headers.get("Cache-Control") == "no-store", endpoint
                for tag in re.findall(r"<script[^>]*>", body):
                    assert "src=" in tag, (endpoint, tag)
            elif endpoint in JSON_VIEWS:  # a program's view of a page: escaped, never a download
                assert r.mimetype == "application/json", endpoint
                assert r.headers.get("X-Content-Type-Options") == "nosniff", endpoint
                body = r.get_data(as_text=True)
                _assert_escaped(body, f"{endpoint} as {who}")
                assert "\\u003cscript\\u003ealert(1)" in body, endpoint  # the name is there
                json_views += 1
            else:
                assert r.mimetype in (
                    "application/json",
                    "text/csv",
                    "application/pdf",
                    "image/png",
                ), endpoint
                assert "attachment" in r.headers.get("Content-Disposition", "") or (
                    r.mimetype == "application/pdf"
                ), endpoint
    assert html_pages >= 20
    assert json_views >= 1
    assert all(seen_escaped.values()), seen_escaped


def test_partials_and_reflected_input_are_escaped(
    app: Flask, evil: tuple[FlaskClient, dict[str, Any]]
) -> None:
    client, p = evil
    base = f"/clubs/{p['slug']}/tournaments/{p['tid']}"
    hx = {"HX-Request": "true"}
    answers = {
        "members partial": client.post(
            f"/clubs/{p['slug']}/members",
            data={"display_name": f"New {SINGLE}", "role": "player"},
            headers=hx,
        ),
        "members partial, error": client.post(
            f"/clubs/{p['slug']}/members",
            data={"display_name": f"New {SINGLE}", "role": "player"},
            headers=hx,
        ),
        "entrants partial": client.post(
            f"{base}/entrants", data={"player_0": f"H1 {ATTR}", "player_1": "H2"}, headers=hx
        ),
        "entrants partial, error": client.post(
            f"{base}/entrants", data={"player_0": f"Mem {SCRIPT}", "player_1": "Z"}, headers=hx
        ),
        "standings partial": client.get(f"/standings/{p['tid']}/live", headers=hx),
        # the page around the partial kept for the next viewer (app/tournaments/standings.py)
        "standings page": client.get(f"/standings/{p['tid']}"),
        "standings page again": client.get(f"/standings/{p['tid']}?projector=1"),
        "sheet partial": client.post(
            f"{base}/rounds/{p['n']}/tables/{p['tno']}",
            data=fixed_deal(1, 40, level=SCRIPT),
            headers=hx,
        ),
        "code sheet": app.test_client().post(
            f"/table/{p['code']}", data=fixed_deal(1, 45, level=ATTR)
        ),
        "code form": app.test_client().post("/table", data={"code": SCRIPT}),
        "options partial": client.get(f"/clubs/{p['slug']}/tournaments/new/options?variant={ATTR}"),
        "new tournament, error": client.post(
            f"/clubs/{p['slug']}/tournaments/new", data={"name": ATTR, "variant": SCRIPT}
        ),
        "register, error": app.test_client().post(
            "/account/register", data={"username": SCRIPT, "display_name": ATTR}
        ),
        "login, error": app.test_client().post(
            "/account/login", data={"username": ATTR, "password": "x", "next": ATTR}
        ),
        "login next": app.test_client().get(f"/account/login?next=/{ATTR}"),
        "404": client.get(f"/clubs/{SCRIPT}"),
    }
    for where, r in answers.items():
        assert r.status_code < 500, where
        _assert_escaped(r.get_data(as_text=True), where)
    assert "&lt;svg onload=alert(1)&gt;" in answers["members partial"].get_data(as_text=True)


def test_no_template_marks_data_safe() -> None:
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for pattern in ("|safe", "| safe", "Markup(", "autoescape false", "{% autoescape"):
            if pattern in text:
                offenders.append(f"{path.relative_to(ROOT)}: {pattern}")
    # Only these may make Markup: the module that builds SVG markup itself, every text in it
    # through markupsafe.escape (its own tests prove hostile names come out escaped); the
    # templates' gettext, which marks our own catalogue's translations as Jinja's i18n does
    # (variables still escaped); and the standings, which keep a partial that Jinja rendered
    # with autoescaping for the next viewer (the standings pages' hostile names are above).
    svg_builders = {"app/charts/svg.py", "app/web.py", "app/tournaments/standings.py"}
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(ROOT))
        if re.search(r"\bMarkup\(|render_template_string\(", text) and rel not in svg_builders:
            offenders.append(rel)
    assert not offenders, offenders


def test_csv_cells_never_start_a_formula(app: Flask, evil: tuple[FlaskClient, dict[str, Any]]):
    client, p = evil
    base = f"/clubs/{p['slug']}/tournaments/{p['tid']}"
    for payload in ("=1+1", "+SUM(A1)", "-2+3", "@SUM(A1)", "\t=1", '=HYPERLINK("x")'):
        r = client.post(
            f"{base}/entrants", data={"player_0": payload + " a", "player_1": payload + " b"}
        )
        assert r.status_code == 303, (payload, r.get_data(as_text=True)[:500])
    for name in ("standings.csv", "deals.csv"):
        r = client.get(f"{base}/{name}")
        assert r.status_code == 200 and r.mimetype == "text/csv"
        assert "attachment" in r.headers["Content-Disposition"]
        rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
        cells = [c for row in rows for c in row]
        for c in cells:
            assert not c.startswith(("=", "+", "-", "@", "\t", "\r")), (name, c)
    standings = client.get(f"{base}/standings.csv").get_data(as_text=True)
    assert "'=1+1 a" in standings and "'@SUM(A1) a" in standings


def test_headers_on_errors_and_downloads(app: Flask, evil: tuple[FlaskClient, dict[str, Any]]):
    client, p = evil
    for url in ("/no/such/page", f"/clubs/{p['slug']}/tournaments/{p['tid']}/export.json"):
        r = client.get(url)
        _assert_headers(r, url)
    r = client.get("/static/style.css")
    assert r.headers.get("X-Content-Type-Options") == "nosniff"


def test_pdfs_print_markup_as_typed(app: Flask, evil: tuple[FlaskClient, dict[str, Any]]) -> None:
    """reportlab's paragraphs read a small markup language (``<b>``, ``<font>``, ``<img>``): a
    name must be printed as the letters typed, never obeyed (nor crash the PDF)."""
    import pypdf

    client, p = evil
    base = f"/clubs/{p['slug']}/tournaments/{p['tid']}"
    for url in (
        f"{base}/standings.pdf",
        f"{base}/rounds/{p['n']}/tables/{p['tno']}/sheet.pdf",
        f"{base}/rounds/{p['n']}/pack.pdf",
    ):
        r = client.get(url)
        assert r.status_code == 200 and r.mimetype == "application/pdf", (url, r.status_code)
        reader = pypdf.PdfReader(io.BytesIO(r.data))
        text = "\n".join(page.extract_text() for page in reader.pages)
        text = re.sub(r"\s+", " ", text)
        assert "alert(1)" in text, url  # the payloads are there, as text
        assert "<script>alert(1)</script>" in text or "<img src=x" in text, (url, text[:500])
