"""GET on state-changing routes: a link, an ``<img>`` or a prefetch from another site cannot
change data. A route that changes something accepts only POST (GET, and PUT/DELETE/PATCH, are
405 without a row changed), and the GET side of a page that also takes POST only reads: every GET
of every route, by the owner and by an anonymous visitor, leaves every row as it was.

The routes come from the access test's table of decisions (``EXPECT``)."""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.exceptions import MethodNotAllowed, NotFound

from tests.security.db_snapshot import unchanged
from tests.security.security_world import SecurityWorld, build_world, logged_in
from tests.security.test_security_access import ACCESS_OTHER, CLUB_ACCESS, EXPECT, _requests, _url


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def _read_page(app: Flask, url: str, method: str) -> str | None:
    """The endpoint another rule serves at ``url`` for ``method``, if any."""
    adapter = app.url_map.bind("localhost")
    try:
        endpoint, _args = adapter.match(url.split("?")[0], method=method)
    except (MethodNotAllowed, NotFound):
        return None
    return str(endpoint)


def test_post_only_routes_refuse_other_methods_and_no_get_changes_anything(
    app: Flask, world: SecurityWorld
) -> None:
    owner = logged_in(app, world.users["a_owner"])
    params = world.a.params()
    post_only = [e for e, x in EXPECT.items() if x.methods == frozenset({"POST"})]
    assert len(post_only) >= 20
    with unchanged():
        for endpoint in post_only:
            url = _url(app, endpoint, params)
            for method in ("GET", "PUT", "DELETE", "PATCH"):
                r = owner.open(url, method=method)
                other = _read_page(app, url, method)
                if other is not None:  # the same address is a page to read (the member list)
                    assert other != endpoint and EXPECT[other].methods == {"GET"}, other
                    continue
                assert r.status_code == 405, (endpoint, method, r.status_code)
                assert "POST" in r.headers["Allow"], endpoint
    # GET is never an action, for the owner (who may do everything) or anyone
    anonymous = app.test_client()
    with unchanged():
        for client in (owner, anonymous):
            for _endpoint, method, url, _data in _requests(
                app, world.a, CLUB_ACCESS + ACCESS_OTHER
            ):
                if method == "GET":
                    client.get(url)
