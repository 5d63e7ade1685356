"""Every route of ``app.url_map``, every method, against every kind of visitor.

``EXPECT`` is the one table of decisions: each endpoint's access rule and the form data a POST
sends. A new route without a line here fails ``test_every_route_has_a_decision``.

Access rules:
* ``public``  – anyone (home, login, a public link's standings …);
* ``member``  – a club's page addressed by a global id, not by the club's slug (the standings at
  ``/standings/<id>``): members of the club see it; to anyone else, logged in or not, it is a
  404 (no login redirect: the address names no club);
* ``login``   – any signed-in user (a new club, the password form);
* ``code`` / ``invite`` / ``seat`` / ``link`` – a capability in the URL (table code, invitation
  token, an online table's seat link, a public tournament's or season's link);
* ``player`` / ``director`` / ``owner`` – the least role in the club named by ``<slug>``;
* ``bound``   – a club route for the one member an online seat is bound to (the owner, in this
  world): anyone else of the club gets the same 404 as an outsider.

For club routes: anonymous → login redirect (401 + HX-Redirect for htmx); a user in no club and
club B's owner and director → 404 that does not name club A; a weaker role of club A → 403; ids
of club B's objects under club A's slug (and the reverse) or ids that do not exist → 404. No
refused request changes a single row. The positive control at the end proves the URLs name real
objects: club A's owner gets neither 403 nor 404 anywhere.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask, url_for

from tests.security.security_world import (
    ClubObjects,
    SecurityWorld,
    build_world,
    logged_in,
    snapshot,
)
from tests.tournaments.tournament_helpers import fixed_deal, setup_form

GET = frozenset({"GET"})
POST = frozenset({"POST"})
BOTH = frozenset({"GET", "POST"})
RANK = {"player": 0, "director": 1, "owner": 2}
CLUB_ROLES = tuple(RANK)
BOUND = "bound"
CLUB_ACCESS = (*CLUB_ROLES, BOUND)  # routes under /clubs/<slug>/
ACCESS_OTHER = ("public", "login", "code", "invite", "seat", "link", "member")


def _tournament_form(_o: ClubObjects) -> dict[str, Any]:
    return setup_form(name="Gamma Cup")


def _upload(_o: ClubObjects) -> dict[str, Any]:
    return {"file": (io.BytesIO(b'{"format": "shengji-tournament"}'), "t.json")}


def _duplicate_upload(_o: ClubObjects) -> dict[str, Any]:
    return {"file": (io.BytesIO(b'{"format": "shengji-tournament/1", "duplicate": {}}'), "d.json")}


def _swap(o: ClubObjects) -> dict[str, Any]:
    return {"first": o.entrants[0], "second": o.entrants[2]}


@dataclass(frozen=True)
class Expect:
    access: str
    methods: frozenset[str]
    data: Callable[[ClubObjects], dict[str, Any]] = field(default=lambda _o: {})
    query: dict[str, str] = field(default_factory=dict)


EXPECT: dict[str, Expect] = {
    # public pages and the account forms
    "static": Expect("public", GET),
    "assets": Expect("public", GET),
    "main.home": Expect("public", GET),
    "main.set_language": Expect("public", POST, lambda _o: {"lang": "zh"}),
    "auth.login": Expect("public", BOTH),
    "auth.register_view": Expect("public", BOTH),
    "auth.logout": Expect("public", POST),
    "tournaments.standings": Expect("member", GET),
    "tournaments.standings_live": Expect("member", GET),
    "tournaments.standings_stream": Expect("member", GET),
    "tournaments.history": Expect("member", GET),
    "tournaments.public_standings": Expect("link", GET),
    "tournaments.public_live": Expect("link", GET),
    "tournaments.public_stream": Expect("link", GET),
    "tournaments.public_history": Expect("link", GET),
    "seasons.public_season": Expect("link", GET),
    "tournaments.table_code": Expect("public", BOTH),
    # capabilities in the URL
    "tournaments.code_sheet": Expect("code", BOTH, lambda _o: fixed_deal(1, 40)),
    "tournaments.code_edit": Expect("code", BOTH, lambda _o: fixed_deal(1, 40)),
    "clubs.accept_invite": Expect("invite", BOTH),
    "online.seat": Expect("seat", BOTH, lambda _o: {"v": "0.0", "kind": "pass"}),
    "online.poll": Expect("seat", GET),
    "online.seat_stream": Expect("seat", GET),
    "online.state": Expect("seat", GET),
    "online.seat_replays": Expect("seat", GET),
    "online.seat_replay": Expect("seat", GET),
    "online.ready": Expect("seat", POST, lambda _o: {"v": "0.0"}),
    "online.next_deal": Expect("seat", POST),
    "online.move_clock": Expect("seat", POST),
    "online.seat_takeback": Expect("seat", POST),
    "online.seat_chat": Expect("seat", BOTH, lambda _o: {"phrase": "good"}),
    "online.my_ready": Expect(BOUND, POST, lambda _o: {"v": "0.0"}),
    "online.my_next_deal": Expect(BOUND, POST),
    "online.my_move_clock": Expect(BOUND, POST),
    "online.my_takeback": Expect(BOUND, POST),
    "online.my_chat": Expect(BOUND, BOTH, lambda _o: {"phrase": "good"}),
    # any signed-in user
    "auth.password": Expect("login", BOTH),
    "clubs.new_club": Expect("login", BOTH, lambda _o: {"name": "Evil Club"}),
    # club pages (ordered so that the positive control's changes do not hide a later route)
    "clubs.club": Expect("player", GET),
    "clubs.members": Expect("player", GET),
    "clubs.add_member": Expect(
        "owner", POST, lambda _o: {"display_name": "Mallory", "role": "owner"}
    ),
    "clubs.change_role": Expect("owner", POST, lambda _o: {"role": "owner"}),
    "clubs.invites": Expect("owner", BOTH, lambda _o: {"role": "owner", "member_id": "0"}),
    "tournaments.index": Expect("player", GET),
    "tournaments.new": Expect("director", BOTH, _tournament_form),
    "tournaments.new_options": Expect("director", GET, query={"variant": "red-five-5p"}),
    "tournaments.import_file": Expect("director", POST, _upload),
    "tournaments.show": Expect("player", GET),
    "tournaments.round_page": Expect("player", GET),
    "tournaments.audit": Expect("director", GET),
    "tournaments.export_json": Expect("director", GET),
    "tournaments.standings_csv": Expect("director", GET),
    "tournaments.deals_csv": Expect("director", GET),
    "tournaments.standings_pdf": Expect("director", GET),
    "tournaments.round_pdf": Expect("director", GET),
    "tournaments.sheet_pdf": Expect("director", GET),
    "tournaments.table_sheet": Expect("director", BOTH, lambda _o: fixed_deal(1, 80)),
    "tournaments.edit_deal": Expect("director", BOTH, lambda _o: fixed_deal(1, 100)),
    "tournaments.add_entrant": Expect(
        "director", POST, lambda _o: {"player_0": "Mal", "player_1": "Lory"}
    ),
    "tournaments.withdraw": Expect("director", POST),
    "tournaments.reinstate": Expect("director", POST),
    "tournaments.edit_entrant": Expect(
        "director", BOTH, lambda _o: {"player_0": "Mal", "player_1": "Icious"}
    ),
    "tournaments.substitute": Expect(
        "director", BOTH, lambda _o: {"seat": "0", "from_round": "1", "name": "Sub Stitute"}
    ),
    "tournaments.remove_substitute": Expect("director", POST),
    "tournaments.swap": Expect("director", POST, _swap),
    "tournaments.play_online": Expect("director", POST, lambda _o: {"tables": "1"}),
    "tournaments.forfeit_table": Expect("director", POST, lambda _o: {"side": "1"}),
    "tournaments.finish_table": Expect("director", POST, lambda _o: {"finished": "1"}),
    "tournaments.undo_deal": Expect("director", POST),
    "tournaments.restore_deal": Expect("director", POST),
    "tournaments.table_penalty": Expect(
        "director", POST, lambda _o: {"deal": "1", "kind": "warning", "seat": "0", "reason": "x"}
    ),
    "tournaments.repair": Expect("director", POST),
    "tournaments.go_back": Expect("director", POST),
    "tournaments.close": Expect("director", POST),
    "tournaments.round_clock": Expect("director", POST),
    "tournaments.reopen": Expect("owner", POST),
    "tournaments.seat_round": Expect("director", POST),
    "online.table_page": Expect("director", BOTH),
    "online.bots": Expect("director", POST, lambda _o: {"seat": "0", "bot": "1"}),
    "online.finish": Expect("director", POST),
    "online.paper": Expect("director", POST),
    "clubs.bulk_members": Expect(
        "owner", BOTH, lambda _o: {"members": "Mallory\nTrent", "action": "add"}
    ),
    "players.player": Expect("player", GET),
    "seasons.index": Expect("player", GET),
    "seasons.standings_csv": Expect("player", GET),
    "seasons.standings_pdf": Expect("player", GET),
    "seasons.standings_png": Expect("player", GET),
    "tournaments.standings_png": Expect("player", GET),
    "tournaments.table_png": Expect("player", GET),
    "seasons.season": Expect("player", GET),
    "seasons.audit": Expect("director", GET),
    "seasons.create": Expect(
        "owner", POST, lambda _o: {"name": "Evil League", "rule": "total", "best": 5}
    ),
    "seasons.set_rule": Expect("owner", POST, lambda _o: {"rule": "average", "min_nights": 9}),
    "seasons.add_night": Expect("director", POST, lambda o: {"tournament": o.tournament.id}),
    "seasons.remove_night": Expect("director", POST),
    "seasons.add_division": Expect("owner", POST, lambda _o: {"name": "甲级", "players": "X"}),
    "seasons.edit_division": Expect("owner", POST, lambda _o: {"name": "乙级", "players": ""}),
    "seasons.move_division": Expect("owner", POST, lambda _o: {"step": "down"}),
    "seasons.night_division": Expect("director", POST, lambda _o: {"division": "0"}),
    "seasons.movement": Expect("owner", POST, lambda o: {"k": 1, "next_season": o.season.id}),
    "seasons.set_visibility": Expect("owner", POST, lambda _o: {"visibility": "club"}),
    "seasons.renew_link": Expect("owner", POST),
    "tournaments.set_visibility": Expect("director", POST, lambda _o: {"visibility": "club"}),
    "tournaments.renew_link": Expect("director", POST),
    "online.bind": Expect("director", POST, lambda _o: {"seat": "0", "member": ""}),
    "online.rotate": Expect("director", POST, lambda _o: {"seat": "0"}),
    "online.my_seat": Expect(BOUND, BOTH, lambda _o: {"v": "0.0", "kind": "pass"}),
    "online.my_poll": Expect(BOUND, GET),
    "online.my_stream": Expect(BOUND, GET),
    "online.my_state": Expect(BOUND, GET),
    "online.my_replays": Expect(BOUND, GET),
    "online.my_replay": Expect(BOUND, GET),
    "online.pause": Expect("director", POST, lambda _o: {"paused": "1"}),
    "online.table_chat": Expect("director", BOTH, lambda _o: {"phrase": "good"}),
    "online.director_poll": Expect("director", GET),
    "online.director_stream": Expect("director", GET),
    "online.watch": Expect("player", GET),
    "online.watch_poll": Expect("player", GET),
    "online.watch_stream": Expect("player", GET),
    # a closed round's deals (the world closes the online table's round); before the close a
    # club's members get 404 (tests/online/test_online_replay.py)
    "online.table_replay": Expect("player", GET),
    "duplicate.index": Expect("player", GET),
    "duplicate.create": Expect(
        "director",
        POST,
        lambda _o: {
            "name": "Evil Pairs",
            "variant": "tractor-4p",
            "kind": "pairs",
            "entrants": "A\nB\nC\nD",
            "boards_per_round": 1,
        },
    ),
    "duplicate.event": Expect("player", GET),
    # board 1 at both its tables (an emptied line would remove a result)
    "duplicate.board": Expect(
        "director",
        BOTH,
        lambda _o: {
            "r1t1_declarer": "0",
            "r1t1_total": "45",
            "r1t2_declarer": "1",
            "r1t2_total": "40",
        },
    ),
    "duplicate.hand_records": Expect("director", GET),
    "duplicate.travellers": Expect("director", GET),
    "duplicate.scorecards": Expect("director", GET),
    "duplicate.published": Expect("player", GET),
    # the world's event has every result typed: the round stays on paper (a sentence, 303)
    "duplicate.play_online": Expect("director", POST),
    # the world's event is a Swiss with every round paired: a sentence, 303
    "duplicate.pair_round": Expect("director", POST),
    # the players' standings on a wall, and its live partial (204 while unchanged)
    "duplicate.projector": Expect("player", GET),
    "duplicate.standings_live": Expect("player", GET),
    "duplicate.audit": Expect("director", GET),
    # the event file (every result: the director's) and the CSV files (a player's: the
    # complete boards only, tests/duplicate/test_duplicate_files.py)
    "duplicate.export_file": Expect("director", GET),
    "duplicate.import_file": Expect("director", POST, _duplicate_upload),
    "duplicate.standings_csv": Expect("player", GET),
    "duplicate.boards_csv": Expect("player", GET),
    # the entrant is seated: "remove" withdraws it; then the tournament is deleted (hidden from
    # every route before this one) and restored
    "tournaments.remove_entrant": Expect("director", POST),
    "tournaments.delete": Expect("director", POST),
    "tournaments.restore": Expect("director", POST),
    # each deleted (hidden from every route before this one) and restored: the duplicate event,
    # the division, the season
    "duplicate.delete": Expect("director", POST, lambda _o: {"reason": "test"}),
    "duplicate.restore": Expect("director", POST),
    "seasons.delete_division": Expect("owner", POST),
    "seasons.restore_division": Expect("owner", POST),
    "seasons.delete_season": Expect("owner", POST),
    "seasons.restore_season": Expect("owner", POST),
    "clubs.revoke_invite": Expect("owner", POST),
    # removed (hidden from every route before this one) and restored
    "clubs.remove_member": Expect("owner", POST),
    "clubs.restore_member": Expect("owner", POST),
    # last: it ends the visitor's own sessions, so nothing may come after it
    "auth.logout_everywhere": Expect("login", POST),
}

# URL arguments that name an object by a global id (a guess from another club is possible) or
# by a number inside its parent (only a missing number can be guessed).
GLOBAL_IDS = (
    "tid",
    "eid",
    "member_id",
    "invite_id",
    "sid",
    "seat_id",
    "deal_id",
    "did",
    "division_id",
)
LOCAL_NUMBERS = ("n", "tno", "i", "board")


def _rules(app: Flask) -> dict[str, Any]:
    return {rule.endpoint: rule for rule in app.url_map.iter_rules()}


def _url(app: Flask, endpoint: str, params: dict[str, Any]) -> str:
    rule = _rules(app)[endpoint]
    args = {k: params[k] for k in rule.arguments}
    args.update(EXPECT[endpoint].query)
    with app.test_request_context():
        return url_for(endpoint, **args)


def _requests(
    app: Flask, o: ClubObjects, access: tuple[str, ...], params: dict[str, Any] | None = None
):
    """(endpoint, method, url, data) for every route whose access is in ``access``."""
    params = params or o.params()  # read once: a request may delete an object named here
    for endpoint, expect in EXPECT.items():
        if expect.access not in access:
            continue
        url = _url(app, endpoint, params)
        for method in sorted(expect.methods):
            data = (lambda e=expect: e.data(o)) if method == "POST" else None
            yield endpoint, method, url, data


def _open(client: Any, method: str, url: str, data: Any, **kw: Any) -> Any:
    """``data`` is a function making the form (an upload's file can be read only once)."""
    return client.open(url, method=method, data=data() if data else None, **kw)


@pytest.fixture
def world(app: Flask) -> SecurityWorld:
    return build_world(app)


def test_every_route_has_a_decision(app: Flask) -> None:
    rules = _rules(app)
    missing = sorted(set(rules) - set(EXPECT))
    assert not missing, f"routes without an access decision in EXPECT: {missing}"
    stale = sorted(set(EXPECT) - set(rules))
    assert not stale, f"EXPECT lists routes that no longer exist: {stale}"
    for endpoint, rule in rules.items():
        methods = set(rule.methods or ()) - {"HEAD", "OPTIONS"}
        assert methods == set(EXPECT[endpoint].methods), endpoint
        assert EXPECT[endpoint].access in (*CLUB_ACCESS, *ACCESS_OTHER)
        if "slug" in rule.arguments:
            assert EXPECT[endpoint].access in CLUB_ACCESS, f"{endpoint} is a club page"


def test_anonymous_is_sent_to_login_and_changes_nothing(app: Flask, world: SecurityWorld) -> None:
    before = snapshot()
    client = app.test_client()
    for endpoint, method, url, data in _requests(app, world.a, ("login", *CLUB_ACCESS)):
        r = _open(client, method, url, data)
        assert r.status_code == 302, (endpoint, method, r.status_code)
        assert r.headers["Location"].startswith("/account/login"), (endpoint, method)
        hx = _open(client, method, url, data, headers={"HX-Request": "true"})
        assert hx.status_code == 401, (endpoint, method, hx.status_code)
        assert hx.headers["HX-Redirect"].startswith("/account/login"), endpoint
        assert b"Club A" not in r.data + hx.data
    # the same for a club that does not exist: no difference to be seen
    missing = dict(world.a.params(), slug="no-such-club")
    for endpoint, method, url, data in _requests(app, world.a, CLUB_ACCESS, missing):
        r = _open(client, method, url, data)
        assert r.status_code == 302, (endpoint, method, "missing club")
    assert snapshot() == before


def test_anonymous_reaches_the_public_pages(app: Flask, world: SecurityWorld) -> None:
    client = app.test_client()
    for endpoint, method, url, _data in _requests(
        app, world.a, ("public", "code", "invite", "seat", "link")
    ):
        if method != "GET":
            continue
        r = client.get(url)
        assert r.status_code == 200, (endpoint, url, r.status_code)


@pytest.mark.parametrize("who", ["stranger", "b_owner", "b_director"])
def test_non_members_get_404_and_change_nothing(app: Flask, world: SecurityWorld, who: str) -> None:
    client = logged_in(app, world.users[who])
    before = snapshot()
    for endpoint, method, url, data in _requests(app, world.a, CLUB_ACCESS):
        r = _open(client, method, url, data)
        assert r.status_code == 404, (who, endpoint, method, r.status_code)
        assert b"Club A" not in r.data and b"Alpha Cup" not in r.data, (who, endpoint)
        hx = _open(client, method, url, data, headers={"HX-Request": "true"})
        assert hx.status_code == 404, (who, endpoint, method, "htmx")
    assert snapshot() == before


def test_member_pages_by_id_are_404_outside_the_club(app: Flask, world: SecurityWorld) -> None:
    """The standings by id: a plain 404 to anyone outside club A, logged in or not (counting
    ids reveals no names); club A's members see them. One world for every visitor."""
    for who in ("anonymous", "stranger", "b_owner", "b_director", "a_player"):
        client = app.test_client() if who == "anonymous" else logged_in(app, world.users[who])
        seen = 0
        for endpoint, _method, url, _data in _requests(app, world.a, ("member",)):
            r = client.get(url)
            if who == "a_player":
                assert r.status_code == 200, (who, endpoint, r.status_code)
            else:
                assert r.status_code == 404, (who, endpoint, r.status_code)
                assert b"Alpha Cup" not in r.data, (who, endpoint)
            seen += 1
        assert seen == 4  # the page, its live poll, its live stream, an entrant


@pytest.mark.parametrize("who", ["a_player", "a_director"])
def test_weaker_roles_get_403_and_change_nothing(
    app: Flask, world: SecurityWorld, who: str
) -> None:
    role = who.removeprefix("a_")
    client = logged_in(app, world.users[who])
    before = snapshot()
    seen_403 = 0
    for endpoint, method, url, data in _requests(app, world.a, CLUB_ROLES):
        needed = EXPECT[endpoint].access
        if RANK[role] >= RANK[needed]:
            if method == "GET":  # allowed pages open (allowed POSTs: positive control)
                r = client.get(url)
                assert r.status_code == 200, (who, endpoint, r.status_code)
            continue
        r = _open(client, method, url, data)
        assert r.status_code == 403, (who, endpoint, method, r.status_code)
        hx = _open(client, method, url, data, headers={"HX-Request": "true"})
        assert hx.status_code == 403, (who, endpoint, method, "htmx")
        seen_403 += 1
    assert seen_403 > 0
    # a seat bound to the owner: to any other member of the club it does not exist
    seen_404 = 0
    for endpoint, method, url, data in _requests(app, world.a, (BOUND,)):
        r = _open(client, method, url, data)
        assert r.status_code == 404, (who, endpoint, method, r.status_code)
        assert b"Alpha Cup" not in r.data, (who, endpoint)
        seen_404 += 1
    assert seen_404 >= 3
    assert snapshot() == before


def _guesses(world: SecurityWorld, mine: ClubObjects, theirs: ClubObjects):
    """Params naming ``mine``'s club with one id replaced by ``theirs``' or a missing one."""
    base = mine.params()
    for name in GLOBAL_IDS:
        yield name, dict(base, **{name: theirs.params()[name]})
        yield name, dict(base, **{name: 999_999})
    for name in LOCAL_NUMBERS:
        yield name, dict(base, **{name: 99})


@pytest.mark.parametrize("direction", ["b_ids_under_a", "a_ids_under_b"])
def test_guessed_ids_are_404_and_change_nothing(
    app: Flask, world: SecurityWorld, direction: str
) -> None:
    if direction == "b_ids_under_a":
        mine, theirs, who = world.a, world.b, "a_owner"
    else:
        mine, theirs, who = world.b, world.a, "b_owner"
    client = logged_in(app, world.users[who])  # an owner: every right in its own club
    before = snapshot()
    rules = _rules(app)
    checked = 0
    bodies: dict[str, set[str]] = {}
    for endpoint, expect in EXPECT.items():
        if expect.access not in CLUB_ACCESS:
            continue
        for name, params in _guesses(world, mine, theirs):
            if name not in rules[endpoint].arguments:
                continue
            url = _url(app, endpoint, params)
            for method in sorted(expect.methods):
                data = (lambda e=expect: e.data(mine)) if method == "POST" else None
                r = _open(client, method, url, data)
                assert r.status_code == 404, (endpoint, method, name, url, r.status_code)
                checked += 1
                if method == "GET":  # the other club's object looks exactly like a missing one
                    # CSRF tokens (form fields and the htmx header) carry a timestamp
                    page = re.sub(r'value="[^"]*"', "", r.get_data(as_text=True))
                    page = re.sub(r'"X-CSRFToken": "[^"]*"', "", page)
                    bodies.setdefault(endpoint, set()).add(page.replace(url, "URL"))
    assert checked > 50
    assert all(len(pages) == 1 for pages in bodies.values()), [
        e for e, pages in bodies.items() if len(pages) > 1
    ]
    assert snapshot() == before


def test_guessed_ids_on_public_pages(app: Flask, world: SecurityWorld) -> None:
    client = app.test_client()
    a, b = world.a, world.b
    for url in (
        f"/standings/{a.tournament.id}/entrants/{b.entrants[0]}",
        f"/standings/{b.tournament.id}/entrants/{a.entrants[0]}",
        "/standings/999999",
        "/standings/999999/live",
        f"/standings/{a.tournament.id}/entrants/999999",
        "/table/ABCDEFGHJK",
        "/table/ABCDEFGHJK/deals/1",
        f"/table/{a.table.code}/deals/99",
        "/invite/not-a-token",
        "/p/not-a-public-link",
        "/p/not-a-public-link/live",
        f"/p/{a.tournament.public_token}/entrants/{b.entrants[0]}",
        f"/p/{a.tournament.public_token}/entrants/999999",
        "/league/not-a-public-link",
        f"/league/{a.tournament.public_token}",  # a tournament's link names no season
        "/play/not-a-seat-link",
        "/play/not-a-seat-link/poll",
        "/play/not-a-seat-link/state.json",
        "/play/not-a-seat-link/replays",
        "/play/not-a-seat-link/replays/1",
        f"/play/{a.seat_token}/replays/99",
    ):
        assert client.get(url).status_code == 404, url


def test_owner_reaches_every_club_route(app: Flask, world: SecurityWorld) -> None:
    """Positive control: the URLs above name real objects (the 404s were not typos)."""
    client = logged_in(app, world.users["a_owner"])
    for endpoint, method, url, data in _requests(app, world.a, ("login", *CLUB_ACCESS)):
        r = _open(client, method, url, data)
        assert r.status_code not in (400, 401, 403, 404, 500), (endpoint, method, r.status_code)
        if method == "GET":
            assert r.status_code == 200, (endpoint, r.status_code)


def test_role_changes_take_effect_at_once(app: Flask, world: SecurityWorld) -> None:
    from app.extensions import db
    from app.models import Member

    director = logged_in(app, world.users["a_director"])
    audit = _url(app, "tournaments.audit", world.a.params())
    assert director.get(audit).status_code == 200
    member = db.session.query(Member).filter_by(user_id=world.users["a_director"].id).one()
    member.role = "player"
    db.session.commit()
    assert director.get(audit).status_code == 403
    db.session.delete(member)
    db.session.commit()
    assert director.get(audit).status_code == 404
    assert director.get(f"/clubs/{world.a.club.slug}").status_code == 404
