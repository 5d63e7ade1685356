"""Every id on a page is unique: a label's ``for`` and ``aria-describedby`` point at one element,
and htmx targets (``#entrants``, ``#sheet``) are not ambiguous. Pages with many small forms
(withdraw buttons, member rows, a sheet's actions) once repeated ``id="csrf_token"``."""

from __future__ import annotations

import re
from collections import Counter

from app.demo import DEMO_PASSWORD, load_demo

ID_RE = re.compile(r'\sid="([^"]+)"')


def _token(page: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert match, page
    return match.group(1)


def test_demo_pages_have_unique_ids(csrf_client):
    load_demo()
    page = csrf_client.get("/account/login").get_data(as_text=True)
    r = csrf_client.post(
        "/account/login",
        data={"username": "demo", "password": DEMO_PASSWORD, "csrf_token": _token(page)},
    )
    assert r.status_code == 302
    club = "/clubs/demo-shengji-club"
    urls = [
        "/",
        club,
        f"{club}/members",
        f"{club}/invites",
        f"{club}/tournaments",
        f"{club}/tournaments/new",
        "/account/password",
        "/standings/1",
    ]
    for t in (1, 2, 3):
        urls += [
            f"{club}/tournaments/{t}",
            f"{club}/tournaments/{t}/rounds/1",
            f"{club}/tournaments/{t}/rounds/1/tables/1",
            f"{club}/tournaments/{t}/audit",
        ]
    for url in urls:
        r = csrf_client.get(url)
        assert r.status_code == 200, url
        html = r.get_data(as_text=True)
        assert 'name="csrf_token"' in html or url.startswith("/standings"), url
        repeated = {i: n for i, n in Counter(ID_RE.findall(html)).items() if n > 1}
        assert repeated == {}, (url, repeated)
