"""No lost updates on a score sheet: a correction or a removal from a page shown before the
sheet changed (another director, the table's own phone) is refused and nothing changes."""

from __future__ import annotations

from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.extensions import db
from app.models import Deal, Table
from tests.forms import form_fields


def _setup(app, client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=4)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    other = app.test_client()
    login(other, w.owner)  # a second director, on another phone
    return w, t, tab, sheet_url(w.club, t, rnd, tab), other


def _points(tab_id: int) -> list[int]:
    db.session.expire_all()
    tab = db.session.get(Table, tab_id)
    assert tab is not None
    return [d.points for d in tab.deals]


def test_a_correction_from_an_older_page_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, tab, url, other = _setup(app, client)
    assert client.post(url, data=fixed_deal(0, 40)).status_code == 303
    # both directors open deal 1's correction
    edit = f"{url}/deals/1"
    mine = form_fields(client.get(edit).get_data(as_text=True), action=edit)
    theirs = form_fields(other.get(edit).get_data(as_text=True), action=edit)
    assert mine["seen_version"] and mine["seen_version"] == theirs["seen_version"]
    assert other.post(edit, data={**theirs, "points": "55"}).status_code == 303
    r = client.post(edit, data={**mine, "points": "20"})
    assert r.status_code == 422
    assert (
        "The sheet changed since you opened it: a deal was corrected, or the match was ended or "
        "forfeited (now 1 deal). Nothing was saved: check it and enter again."
    ) in r.get_data(as_text=True)
    assert _points(tab.id) == [55]
    # from the page as it is now, the correction saves
    fresh = form_fields(client.get(edit).get_data(as_text=True), action=edit)
    assert fresh["points"] == "55"
    assert client.post(edit, data={**fresh, "points": "20"}).status_code == 303
    assert _points(tab.id) == [20]


def test_a_new_deal_from_a_sheet_shown_before_a_correction_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, tab, url, other = _setup(app, client)
    assert client.post(url, data=fixed_deal(0, 40)).status_code == 303
    mine = form_fields(client.get(url).get_data(as_text=True), action=url)
    edit = f"{url}/deals/1"
    theirs = form_fields(other.get(edit).get_data(as_text=True), action=edit)
    assert other.post(edit, data={**theirs, "points": "85"}).status_code == 303
    # my next deal was worked out from deal 1 as it stood: refused, typed values kept
    r = client.post(url, data={**mine, **{k: str(v) for k, v in fixed_deal(1, 30).items()}})
    page = r.get_data(as_text=True)
    assert (
        r.status_code == 422
        and "The sheet changed since you opened it: a deal was corrected" in page
    )
    assert 'value="30"' in page
    assert _points(tab.id) == [85]


def test_remove_the_last_deal_removes_only_the_one_shown(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, tab, url, other = _setup(app, client)
    assert client.post(url, data=fixed_deal(0, 40)).status_code == 303
    undo = f"{url}/undo"
    mine = form_fields(client.get(url).get_data(as_text=True), action=undo)
    assert mine["seen"] == "1"
    # the table's phone records deal 2 meanwhile
    assert other.post(url, data=fixed_deal(0, 60)).status_code == 303
    r = client.post(undo, data=mine, follow_redirects=True)
    assert "The sheet changed since you opened it: 1 deal was added (now 2 deals)." in r.get_data(
        as_text=True
    )
    assert _points(tab.id) == [40, 60]
    fresh = form_fields(client.get(url).get_data(as_text=True), action=undo)
    assert client.post(undo, data=fresh).status_code == 303
    assert _points(tab.id) == [40]
    assert db.session.query(Deal).count() == 1
