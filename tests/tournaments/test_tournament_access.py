"""Access rules for every tournament route: anonymous, non-member, player, director of another
club, guessed ids; a table's code opens that one sheet and nothing else."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, world

from app.extensions import db
from app.models import Deal, Table


@pytest.fixture
def setup(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = rnd.tables[0]
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    sheet = f"{base}/rounds/1/tables/{tab.number}"
    r = client.post(sheet, data=fixed_deal(0, 60))
    assert r.status_code == 303
    client.post("/account/logout")
    eid = t.entrants[0].id
    return w, t, tab, base, sheet, eid


def _routes(w, base, sheet, eid):
    slug = w.club.slug
    # (method, url, least role)
    return [
        ("GET", f"/clubs/{slug}/tournaments", "player"),
        ("GET", f"/clubs/{slug}/tournaments/new", "director"),
        ("POST", f"/clubs/{slug}/tournaments/new", "director"),
        ("GET", f"/clubs/{slug}/tournaments/new/options?variant=red-five-5p", "director"),
        ("POST", f"/clubs/{slug}/tournaments/import", "director"),
        ("GET", base, "player"),
        ("POST", f"{base}/entrants", "director"),
        ("POST", f"{base}/entrants/{eid}/withdraw", "director"),
        ("POST", f"{base}/entrants/{eid}/reinstate", "director"),
        ("POST", f"{base}/rounds", "director"),
        ("GET", f"{base}/rounds/1", "player"),
        ("POST", f"{base}/rounds/1/repair", "director"),
        ("POST", f"{base}/rounds/1/go-back", "director"),
        ("POST", f"{base}/rounds/1/close", "director"),
        ("POST", f"{base}/rounds/1/reopen", "owner"),
        ("POST", f"{base}/rounds/1/swap", "director"),
        ("GET", sheet, "director"),
        ("POST", sheet, "director"),
        ("GET", f"{sheet}/deals/1", "director"),
        ("POST", f"{sheet}/deals/1", "director"),
        ("POST", f"{sheet}/undo", "director"),
        ("POST", f"{sheet}/restore", "director"),
        ("POST", f"{sheet}/finish", "director"),
        ("POST", f"{sheet}/forfeit", "director"),
        ("GET", f"{sheet}/sheet.pdf", "director"),
        ("GET", f"{base}/audit", "director"),
        ("GET", f"{base}/export.json", "director"),
        ("GET", f"{base}/standings.csv", "director"),
        ("GET", f"{base}/deals.csv", "director"),
        ("GET", f"{base}/standings.pdf", "director"),
        ("GET", f"{base}/rounds/1/pack.pdf", "director"),
        ("GET", f"{base}/rounds/1/cards.pdf", "director"),
    ]


def _deals(tab_id):
    db.session.expire_all()
    return [
        d.points
        for d in db.session.scalars(
            select(Deal).where(Deal.table_id == tab_id).order_by(Deal.index)
        )
    ]


def test_anonymous_is_sent_to_login_and_changes_nothing(client, setup):
    w, t, tab, base, sheet, eid = setup
    for method, url, _role in _routes(w, base, sheet, eid):
        r = client.open(url, method=method, data=fixed_deal(0, 80))
        assert r.status_code == 302 and "/account/login" in r.headers["Location"], (method, url)
    assert _deals(tab.id) == [60]


@pytest.mark.parametrize("who", ["outsider", "stranger"])
def test_non_members_get_404(client, setup, who, make_user):
    w, t, tab, base, sheet, eid = setup
    user = w.outsider if who == "outsider" else make_user("stranger")
    login(client, user)
    for method, url, _role in _routes(w, base, sheet, eid):
        r = client.open(url, method=method, data=fixed_deal(0, 80))
        assert r.status_code == 404, (method, url, r.status_code)
    assert _deals(tab.id) == [60]


def test_player_may_see_but_not_direct(client, setup):
    w, t, tab, base, sheet, eid = setup
    login(client, w.player)
    for method, url, role in _routes(w, base, sheet, eid):
        r = client.open(url, method=method, data=fixed_deal(0, 80))
        if role == "player":
            assert r.status_code == 200, (method, url)
        else:
            assert r.status_code == 403, (method, url, r.status_code)
    assert _deals(tab.id) == [60]


def test_director_reaches_every_director_route(client, setup):
    w, t, tab, base, sheet, eid = setup
    login(client, w.director)
    for method, url, role in _routes(w, base, sheet, eid):
        if method != "GET":
            continue
        r = client.get(url)
        expected = 403 if role == "owner" else 200
        assert r.status_code == expected, (url, r.status_code)


def test_guessed_ids_from_another_club(client, setup):
    w, t, tab, base, sheet, eid = setup
    login(client, w.outsider)  # the owner of Other Club
    other = w.other_club.slug
    for url in (
        f"/clubs/{other}/tournaments/{t.id}",
        f"/clubs/{other}/tournaments/{t.id}/rounds/1",
        f"/clubs/{other}/tournaments/{t.id}/rounds/1/tables/{tab.number}",
        f"/clubs/{other}/tournaments/{t.id}/export.json",
    ):
        assert client.get(url).status_code == 404, url
    login(client, w.director)
    for url in (
        f"{base}/rounds/9",
        f"{base}/rounds/1/tables/99",
        f"{sheet}/deals/7",
        f"/clubs/{w.club.slug}/tournaments/999",
        "/standings/999",
        f"/standings/{t.id}/entrants/99999",
        f"{base}/rounds/1/nothing.pdf",
    ):
        assert client.get(url).status_code == 404, url


def test_standings_are_the_clubs_until_made_public(client, setup):
    w, t, tab, base, sheet, eid = setup
    pages = (
        f"/standings/{t.id}",
        f"/standings/{t.id}?projector=1",
        f"/standings/{t.id}/entrants/{eid}",
    )
    for url in pages:  # club only (the default): nothing to see for anyone outside
        assert client.get(url).status_code == 404, url
    login(client, w.player)
    for url in pages:
        assert client.get(url).status_code == 200, url


def test_table_code_grants_that_sheet_only(client, setup):
    w, t, tab, base, sheet, eid = setup
    other = db.session.scalar(
        select(Table).where(
            Table.round_id == tab.round_id, Table.id != tab.id, Table.kind == "sides"
        )
    )
    assert tab.code and other is not None and other.code
    r = client.get(f"/table/{tab.code}")
    assert r.status_code == 200
    r = client.post(f"/table/{tab.code}", data=fixed_deal(1, 40))
    assert r.status_code == 303
    assert _deals(tab.id) == [60, 40]
    assert _deals(other.id) == []
    # the code is no key to the club, to the director's sheet, or to a guessed code
    for url in (base, sheet, f"{base}/audit", f"/clubs/{w.club.slug}/tournaments"):
        r = client.get(url)
        assert r.status_code == 302 and "/account/login" in r.headers["Location"], url
    guess = tab.code[:-1] + ("Y" if tab.code.endswith("X") else "X")  # one character off
    assert client.get(f"/table/{guess}").status_code == 404
    assert client.get("/table/AAAAAAAAAA").status_code == 404
    assert client.get(f"/table/{tab.code.lower()}").status_code == 404
    # typing the code on the form leads to the sheet
    r = client.post("/table", data={"code": tab.code.lower()})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/table/{tab.code}")
    r = client.post("/table", data={"code": "nope"})
    assert r.status_code == 422 and "No table has this code" in r.get_data(as_text=True)


def test_code_cannot_change_a_closed_round(client, setup, app):
    from tournament_helpers import actor

    from app.competition.model import Deal as CDeal
    from app.services.tournaments.rounds import close_round
    from app.services.tournaments.sheets import record_deal, set_forfeit

    w, t, tab, base, sheet, eid = setup
    rnd = tab.round
    with app.test_request_context():
        for row in rnd.tables:
            if row.kind == "sides" and row.id != tab.id:
                set_forfeit(t, row, 1, actor(w.director))
        record_deal(t, tab, CDeal(points=40, kitty=0, trump="H", declarer=1), actor(w.director))
        close_round(t, rnd, actor(w.director))
        db.session.commit()
    r = client.post(f"/table/{tab.code}", data=fixed_deal(1, 40))
    assert r.status_code == 422
    r = client.post(f"/table/{tab.code}/deals/1", data=fixed_deal(0, 100))
    assert r.status_code == 422
    assert "closed" in r.get_data(as_text=True)
    assert _deals(tab.id) == [60, 40]
