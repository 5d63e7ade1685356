"""Who sees the standings: a tournament (and a season) is the club's only until a director (an
owner for a season) makes it public; then anyone with its unguessable link sees it without logging
in, a renewed link kills the old one, and the id addresses stay a plain 404 outside the club. The
projector's QR code points to the address a viewer can open."""

from __future__ import annotations

import re
from html import escape

import segno
from tournament_helpers import add_entrants, create, login, play_round_out, seat, world

from app.extensions import db
from app.models import Season, Tournament


def _follow_url(html: str) -> str:
    m = re.search(r'<strong class="follow-url">([^<]+)</strong>', html)
    assert m, html[-2000:]
    return m.group(1)


def _qr_path(html: str) -> str:
    m = re.search(
        r'class="qr follow-qr"[^>]*>.*?<path class="qr-dark" fill="#000" d="([^"]+)"', html
    )
    assert m
    return m.group(1)


def _qr_path_of(url: str) -> str:
    """The inline SVG path the page draws for ``url`` (the segno matrix, quiet zone 4)."""
    from app.qr import svg

    return svg(url).path


def _public(client, base: str) -> str:
    r = client.post(base + "/visibility", data={"visibility": "public"})
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    page = client.get(base).get_data(as_text=True)
    m = re.search(r'<p class="public-link"><a href="(http://localhost/[^"]+)"', page)
    assert m, page
    return m.group(1).removeprefix("http://localhost")


def test_a_private_tournament_is_a_404_outside_the_club_and_public_by_its_link(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    names = add_entrants(client, w.club, t, 4, 2)
    db.session.refresh(t)
    assert t.visibility == "club" and t.public_token is None  # new nights are the club's
    eid = t.entrants[0].id
    ids = [f"/standings/{t.id}", f"/standings/{t.id}/live", f"/standings/{t.id}/entrants/{eid}"]
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"

    login(client, w.player)  # a member sees them
    for url in ids:
        r = client.get(url)
        assert r.status_code == 200 and escape(names[0]) in r.get_data(as_text=True), url
    projector = client.get(f"/standings/{t.id}?projector=1").get_data(as_text=True)
    assert _follow_url(projector) == f"http://localhost/standings/{t.id}"
    assert "Club members only: log in to open it." in projector
    assert 'action="' + base + '/visibility"' not in client.get(base).get_data(as_text=True)
    assert client.post(base + "/visibility", data={"visibility": "public"}).status_code == 403

    for who in (w.outsider, None):  # another club's director, and nobody logged in
        client.post("/account/logout")
        if who is not None:
            login(client, who)
        for url in ids + [f"/standings/{t.id}?projector=1"]:
            r = client.get(url)
            assert r.status_code == 404, (who, url)
            assert escape(names[0]) not in r.get_data(as_text=True)

    login(client, w.director)
    r = client.post(base + "/visibility", data={"visibility": "everyone"})  # not a choice
    assert r.status_code == 303
    db.session.refresh(t)
    assert t.visibility == "club" and t.public_token is None
    link = _public(client, base)
    db.session.refresh(t)
    assert link == f"/p/{t.public_token}" and len(t.public_token) >= 22
    projector = client.get(f"/standings/{t.id}?projector=1").get_data(as_text=True)
    assert _follow_url(projector) == "http://localhost" + link  # the QR a viewer can open
    assert _qr_path(projector) == _qr_path_of("http://localhost" + link)

    client.post("/account/logout")
    page = client.get(link)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and all(escape(n) in html for n in names)
    assert f"/standings/{t.id}" not in html  # its links stay on the public link
    assert f'hx-get="{link}/live?v={t.version}"' in html
    assert client.get(f"{link}/live?v={t.version}").status_code == 204
    assert client.get(f"{link}/live?v=0").status_code == 200
    assert client.get(f"{link}/entrants/{eid}").status_code == 200
    assert client.get(f"/standings/{t.id}").status_code == 404  # the id page stays the club's
    assert client.get(link + "x").status_code == 404

    login(client, w.director)
    r = client.post(base + "/public-link")
    assert r.status_code == 303
    new = _public(client, base)
    assert new != link
    client.post("/account/logout")
    for url in (link, f"{link}/live", f"{link}/entrants/{eid}"):
        assert client.get(url).status_code == 404, url  # the old link is dead
    assert client.get(new).status_code == 200

    login(client, w.director)
    client.post(base + "/visibility", data={"visibility": "club"})
    client.post("/account/logout")
    assert client.get(new).status_code == 404  # club only again: no link opens it
    login(client, w.director)
    audit = client.get(base + "/audit").get_data(as_text=True)
    assert "who sees the standings" in audit and "new public link" in audit
    assert "public link" in audit and "club only" in audit


def test_the_visibility_form_speaks_chinese(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    client.post("/lang", data={"lang": "zh"})
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    page = client.get(base).get_data(as_text=True)
    assert "谁能看到排名" in page and "仅限本俱乐部" in page
    r = client.post(base + "/visibility", data={"visibility": "public"}, follow_redirects=True)
    assert "排名现已公开" in r.get_data(as_text=True)


def _season_with_a_night(client, w) -> tuple[Season, Tournament, str]:
    t = create(client, w.club, name="Night One", rounds=1, pairing="round-robin")
    names = add_entrants(client, w.club, t, 4, 2)
    play_round_out(t, seat(client, w.club, t), w.owner, seed=3)
    r = client.post(
        f"/clubs/{w.club.slug}/seasons",
        data={"name": "Winter League", "rule": "total", "best": 5, "min_nights": 1, "places": ""},
    )
    sid = int(re.search(r"/seasons/(\d+)", r.headers["Location"]).group(1))
    base = f"/clubs/{w.club.slug}/seasons/{sid}"
    r = client.post(
        base + "/nights", data={"tournament": t.id, "date": "2026-12-04", "division": 0}
    )
    assert r.status_code == 303
    s = db.session.get(Season, sid)
    assert s is not None
    return s, t, names[0]


def test_a_season_is_the_clubs_until_its_owner_makes_it_public(client):
    w = world()
    login(client, w.owner)
    s, t, entrant = _season_with_a_night(client, w)
    name = entrant.split(" & ")[0]  # the season counts players
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    projector = client.get(base + "?view=projector").get_data(as_text=True)
    assert _follow_url(projector) == "http://localhost" + base  # members log in to open it
    assert _qr_path(projector) == _qr_path_of("http://localhost" + base)

    login(client, w.director)  # the owner decides who sees the league
    assert client.post(base + "/visibility", data={"visibility": "public"}).status_code == 403
    login(client, w.owner)
    link = _public(client, base)
    assert link.startswith("/league/")
    projector = client.get(base + "?view=projector").get_data(as_text=True)
    assert _follow_url(projector) == "http://localhost" + link
    assert "Club members only" not in projector

    client.post("/account/logout")
    page = client.get(link)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and escape(name) in html and "Winter League" in html
    assert "Night One" in html and "/p/" not in html  # the night itself is still the club's
    public_projector = client.get(link + "?projector=1").get_data(as_text=True)
    assert _follow_url(public_projector) == "http://localhost" + link
    assert 'class="projector"' in public_projector and "segno" not in public_projector
    assert client.get(base).status_code == 302  # the club's page still asks to log in

    login(client, w.director)
    night = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    night_link = _public(client, night)
    client.post("/account/logout")
    assert f'href="{night_link}"' in client.get(link).get_data(as_text=True)

    login(client, w.owner)
    assert client.post(base + "/public-link").status_code == 303
    new = _public(client, base)
    client.post("/account/logout")
    assert new != link and client.get(link).status_code == 404
    assert client.get(new).status_code == 200
    login(client, w.outsider)
    assert client.get(base).status_code == 404
    assert segno  # the QR codes above are segno's, read back through app.qr


def test_the_public_live_poll_is_answered_before_flask_as_flask_would(app, client):
    """The projector's unchanged poll on the public link: 204 from the shortcut in front of Flask
    (app/poll_shortcut.py) with the headers of Flask's own answer; a new version, a club-only
    tournament and a dead link are Flask's to answer."""
    from tests.online.test_poll_shortcut import reaching_flask

    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    link = _public(client, base)
    db.session.refresh(t)
    viewer = app.test_client()
    assert viewer.get(link).status_code == 200  # a viewer's session (the page's CSRF token)
    with reaching_flask(app) as reached:
        fast = viewer.get(f"{link}/live?v={t.version}")
    assert fast.status_code == 204 and reached == []
    with reaching_flask(app) as reached:
        slow = viewer.get(f"{link}/live?v={t.version}&_=1")
        changed = viewer.get(f"{link}/live?v={t.version - 1}")
    assert slow.status_code == 204 and len(reached) == 2
    assert sorted(fast.headers.items()) == sorted(slow.headers.items())
    assert fast.headers["Cache-Control"] == "no-store"
    assert changed.status_code == 200 and "<table" in changed.get_data(as_text=True)

    logged_in = client.get(f"{link}/live?v={t.version}&_=1")  # the director, by Flask
    assert logged_in.headers["Cache-Control"] == "no-store"

    r = client.post(base + "/visibility", data={"visibility": "club"})
    assert r.status_code == 303
    with reaching_flask(app) as reached:
        gone = viewer.get(f"{link}/live?v={t.version}")
    assert gone.status_code == 404 and len(reached) == 1


def test_the_standings_partial_is_rendered_once_per_version_and_language(app, client):
    """Every viewer of a night asks for the same standings: the partial is rendered once per
    version, language and address (app/tournaments/standings.py), and afresh after a change."""
    from flask import template_rendered

    w = world()
    login(client, w.director)
    t = create(client, w.club)
    names = add_entrants(client, w.club, t, 4, 2)
    link = _public(client, f"/clubs/{w.club.slug}/tournaments/{t.id}")
    rendered: list[str] = []

    def count(_app, template, context, **_extra):
        if template.name == "tournaments/_standings.html":
            rendered.append(str(context.get("current_locale", "")))

    template_rendered.connect(count, app)
    try:
        viewers = [app.test_client() for _ in range(3)]
        pages = [v.get(link).get_data(as_text=True) for v in viewers]
        assert all(escape(names[0]) in p and "No round seated yet." in p for p in pages)
        assert len(rendered) == 1
        db.session.refresh(t)
        assert viewers[0].get(f"{link}/live?v={t.version - 1}").status_code == 200
        assert len(rendered) == 1  # the live poll sends the same partial

        zh = app.test_client()
        page = zh.get(link, headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
        assert "尚未编排任何一轮。" in page, page[:3000]  # "No round seated yet."
        assert len(rendered) == 2

        seat(client, w.club, t)  # a change: a new version
        page = viewers[1].get(link).get_data(as_text=True)
        assert "No round seated yet." not in page and "seated" in page
        assert len(rendered) == 3
    finally:
        template_rendered.disconnect(count, app)
