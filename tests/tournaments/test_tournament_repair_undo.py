"""Pairing a round again keeps what it replaces (issue 22): the round page offers to go back
to the previous seating while the round has no result; going back is audited and can itself be
undone; it is refused, nothing changed, when an entrant entered since would have no seat or a
result was entered."""

from __future__ import annotations

from flask import current_app
from sqlalchemy import select
from tournament_helpers import actor, add_entrants, create, login, seat, world

from app.extensions import db
from app.models import AuditEntry, Round, Tournament
from tests.forms import form_fields

EN = {"Accept-Language": "en"}


def _seating(t: Tournament, n: int = 1) -> dict[int, list[str]]:
    db.session.expire_all()
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == t.id, Round.number == n))
    assert rnd is not None
    return {tab.number: [s.entrant.name for s in tab.seats] for tab in rnd.tables}


def _codes(t: Tournament) -> set[str | None]:
    db.session.expire_all()
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == t.id, Round.number == 1))
    assert rnd is not None
    return {tab.code for tab in rnd.tables}


def _setup(client):  # type: ignore[no-untyped-def]
    """Round 1 of a Swiss, two entrants swapped by hand, then paired again (which undoes it)."""
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    a, b = (tab.seats[0].entrant_id for tab in rnd.tables if tab.kind == "sides")
    r = client.post(f"{base}/rounds/1/swap", data={"first": a, "second": b})
    assert r.status_code in (302, 303)
    swapped = _seating(t)
    page = client.get(f"{base}/rounds/1", headers=EN).get_data(as_text=True)
    assert "Back to the previous seating" not in page  # seated once: nothing to go back to
    fields = form_fields(page, action=f"{base}/rounds/1/repair")
    assert client.post(f"{base}/rounds/1/repair", data=fields).status_code == 303
    assert _seating(t) != swapped
    return w, t, base, swapped


def _go_back(client, base, **kw):  # type: ignore[no-untyped-def]
    page = client.get(f"{base}/rounds/1", headers=EN).get_data(as_text=True)
    fields = form_fields(page, action=f"{base}/rounds/1/go-back")
    return client.post(f"{base}/rounds/1/go-back", data=fields, headers=EN, **kw)


def test_pairing_again_can_be_undone_and_that_too(client) -> None:  # type: ignore[no-untyped-def]
    _w, t, base, swapped = _setup(client)
    repaired = _seating(t)
    codes = _codes(t)
    r = _go_back(client, base, follow_redirects=True)
    assert "seated as it was before it was paired again" in r.get_data(as_text=True)
    assert _seating(t) == swapped
    new_codes = _codes(t)  # two tables, no bye: each has a code, a new one
    assert None not in new_codes and len(new_codes) == 2 and new_codes.isdisjoint(codes)
    actions = list(db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))
    assert actions[-2:] == ["repair_round", "restore_seating"]
    trail = client.get(f"{base}/audit", headers=EN).get_data(as_text=True)
    assert "previous seating restored" in trail
    # going back is a seating change like the others: it can be undone the same way
    assert _go_back(client, base).status_code == 303
    assert _seating(t) == repaired
    # an older page's go-back (the seating changed since) is refused
    page = client.get(f"{base}/rounds/1", headers=EN).get_data(as_text=True)
    old = form_fields(page, action=f"{base}/rounds/1/go-back")
    assert _go_back(client, base).status_code == 303
    now = _seating(t)
    r = client.post(f"{base}/rounds/1/go-back", data=old, headers=EN, follow_redirects=True)
    assert "changed" in r.get_data(as_text=True)
    assert _seating(t) == now


def test_going_back_is_refused_when_it_would_lose_something(client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, _swapped = _setup(client)
    # a late entrant: the previous seating has no seat for them
    r = client.post(f"{base}/entrants", data={"player_0": "Late Larry", "player_1": "Late Lucy"})
    assert r.status_code == 303
    before = _seating(t)
    r = _go_back(client, base, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "Late Larry &amp; Late Lucy entered since and would have no seat" in html
    assert _seating(t) == before
    # a result at the round: no going back (and no button)
    db.session.expire_all()
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == t.id))
    assert rnd is not None
    tab = next(x for x in rnd.tables if x.kind == "sides")
    from app.competition.model import Deal as CDeal
    from app.services.tournaments.sheets import record_deal

    with current_app.test_request_context():
        record_deal(t, tab, CDeal(points=60, kitty=0, trump="S", declarer=0), actor(w.director))
        db.session.commit()
    page = client.get(f"{base}/rounds/1", headers=EN).get_data(as_text=True)
    assert "Back to the previous seating" not in page
    entry = db.session.scalar(
        select(AuditEntry.id).where(AuditEntry.action == "repair_round").order_by(AuditEntry.id)
    )
    r = client.post(
        f"{base}/rounds/1/go-back", data={"entry": entry}, headers=EN, follow_redirects=True
    )
    assert "A result is already entered" in r.get_data(as_text=True)
