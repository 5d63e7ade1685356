"""Hostile values in every field of every form (the forms of the access table's POST routes): a
refusal or a message, never a server error. The owner of club A sends them, so every check
behind the permission check is reached."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.security.security_world import SecurityWorld, build_world, logged_in
from tests.security.test_security_access import EXPECT, _url

HOSTILE = (
    "9" * 40,
    "-1",
    "1e400",
    "NaN",
    "",
    "\x00",
    "<script>alert(1)</script>",
    "x" * 5000,
    "０",
)


# Forms whose fields the access table leaves empty (it only needs the route to be reached).
FIELDS: dict[str, dict[str, str]] = {
    "auth.login": {"username": "a_owner", "password": "wrong password", "next": "/"},
    "auth.register_view": {
        "username": "newbie",
        "display_name": "New",
        "password": "long enough 1",
        "confirm": "long enough 1",
        "next": "/",
    },
    "auth.password": {"current_password": "nope", "new_password": "x", "confirm": "x"},
    "tournaments.table_code": {"code": "ABCDEFGHJK"},
    "clubs.accept_invite": {"claim_member_id": "0", "display_name": "Someone"},
    "tournaments.finish_table": {"finished": "1"},
}


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def test_hostile_form_values_never_crash(app: Flask, world: SecurityWorld) -> None:
    clients = {
        "owner": logged_in(app, world.users["a_owner"]),
        "anonymous": app.test_client(),
    }
    sent = 0
    params = world.a.params()  # read once: removing a member deletes an object named here
    for endpoint, expect in EXPECT.items():
        # the uploads take a file, not form values (hostile files: test_security_import.py,
        # tests/duplicate/test_duplicate_files.py)
        uploads = ("tournaments.import_file", "duplicate.import_file")
        if "POST" not in expect.methods or endpoint in ("auth.logout", *uploads):
            continue
        client = clients["anonymous" if expect.access in ("public", "code") else "owner"]
        url = _url(app, endpoint, params)
        fields = {**FIELDS.get(endpoint, {}), **expect.data(world.a)}
        for name in list(fields) + ["extra"]:
            for value in HOSTILE:
                data: dict[str, Any] = dict(fields)
                data[name] = value
                r = client.post(url, data=data)
                assert r.status_code < 500, (endpoint, name, value[:20], r.status_code)
                sent += 1
    assert sent > 300
