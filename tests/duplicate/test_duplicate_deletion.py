"""Deleting a duplicate event, reversibly: it disappears from every page with its online
tournament (tables, seat links), is listed on the club's page for 30 days with who deleted it, and
a restore brings both back whole; it is refused while one of its online tables is being played;
after 30 days the purge removes the event and its online tournament for good."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from app.extensions import db
from app.models import (
    AuditEntry,
    DuplicateEvent,
    DuplicateResult,
    OnlineSeat,
    Table,
    Tournament,
    utcnow,
)
from tests.duplicate.test_duplicate_online import _links, _play_by_bots
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.tournaments.tournament_helpers import login, world

EN = {"Accept-Language": "en"}


def _online_event(client, w):  # type: ignore[no-untyped-def]
    did = _event_id(
        _create(
            client, w, name="Online teams", kind="teams", entrants="红队\n蓝队", boards_per_round=1
        )
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    assert client.post(base + "/rounds/1/online").status_code == 303
    return did, base


def _host(did: int) -> Tournament:
    link = _links(did)[0]
    tab = db.session.get(Table, link.table_id)
    assert tab is not None
    return db.session.get(Tournament, tab.round.tournament_id)  # type: ignore[return-value]


def test_an_event_in_play_online_is_not_deleted(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did, base = _online_event(client, w)
    r = client.post(base + "/delete", headers=EN, follow_redirects=True)
    assert "Table 1 is still being played online" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(DuplicateEvent, did).deleted_at is None  # type: ignore[union-attr]
    # its online tournament is never deleted alone
    host = _host(did)
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/{host.id}/delete", headers=EN, follow_redirects=True
    )
    assert "they go with the event, not alone" in r.get_data(as_text=True)


def test_a_deleted_event_is_hidden_with_its_online_tables_and_restored_whole(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did, base = _online_event(client, w)
    for link in _links(did):
        _play_by_bots(link)
    results = db.session.query(DuplicateResult).filter_by(event_id=did).count()
    assert results == 2
    host = _host(did)
    seat = db.session.scalars(
        select(OnlineSeat).where(OnlineSeat.table_id == _links(did)[0].table_id)
    ).first()
    assert seat is not None
    pages = (
        base,
        base + "/projector",
        base + "/standings.csv",
        base + "/audit",
        base + "/boards/1",
    )
    for url in pages:
        assert client.get(url).status_code == 200, url
    # a player may not delete it
    login(client, w.player)
    assert client.post(base + "/delete").status_code == 403
    login(client, w.director)
    r = client.post(base + "/delete", data={"reason": "a test"}, headers=EN)
    assert r.status_code == 303 and r.headers["Location"].endswith("#deleted")
    page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    assert "Online teams deleted. You can restore it from the club&#39;s page for 30 days." in page
    listed = page[page.index('id="deleted"') :]
    assert "Online teams" in listed and ">duplicate event<" in listed and "Dora Director" in listed
    assert host.name not in listed  # its online tournament goes with it, not listed alone
    for url in pages:
        assert client.get(url).status_code == 404, url
    assert client.get(f"/clubs/{w.club.slug}/tournaments/{host.id}").status_code == 404
    assert client.get(f"/play/{seat.token}").status_code == 404
    assert "Online teams" not in client.get(f"/clubs/{w.club.slug}/duplicate").get_data(
        as_text=True
    )
    # the name stays taken, with a sentence saying why
    r = _create(client, w, name="Online teams", kind="teams", entrants="A\nB")
    assert r.status_code == 422
    assert "was deleted: restore it from the club" in r.get_data(as_text=True)
    # the online tournament cannot be restored alone
    r = client.post(
        f"/clubs/{w.club.slug}/deleted/tournaments/{host.id}/restore",
        headers=EN,
        follow_redirects=True,
    )
    assert "they go with the event, not alone" in r.get_data(as_text=True)

    r = client.post(f"/clubs/{w.club.slug}/deleted/duplicate/{did}/restore")
    assert r.status_code == 303 and r.headers["Location"].endswith(base)
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert client.get(f"/clubs/{w.club.slug}/tournaments/{host.id}").status_code == 200
    assert db.session.query(DuplicateResult).filter_by(event_id=did).count() == results
    assert 'id="deleted"' not in client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    trail = client.get(base + "/audit", headers=EN).get_data(as_text=True)
    assert "event restored" in trail and "event deleted" in trail and "a test" in trail
    actions = list(
        db.session.scalars(
            select(AuditEntry.action)
            .where(AuditEntry.duplicate_event_id == did)
            .order_by(AuditEntry.id)
        )
    )
    assert actions[-2:] == ["delete_event", "restore_event"]


def test_after_thirty_days_an_event_is_purged_with_its_online_tournament(
    app, client, runner
) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did, base = _online_event(client, w)
    for link in _links(did):
        _play_by_bots(link)
    host = _host(did)
    host_id = host.id
    kept = _event_id(_create(client, w, name="Kept Pairs"))
    assert client.post(base + "/delete").status_code == 303
    kept_base = f"/clubs/{w.club.slug}/duplicate/{kept}"
    assert client.post(kept_base + "/delete").status_code == 303
    db.session.expire_all()
    ev = db.session.get(DuplicateEvent, did)
    assert ev is not None
    ev.deleted_at = utcnow() - timedelta(days=31)
    db.session.commit()
    r = client.post(
        f"/clubs/{w.club.slug}/deleted/duplicate/{did}/restore", headers=EN, follow_redirects=True
    )
    assert "can no longer be restored" in r.get_data(as_text=True)
    result = runner.invoke(args=["tournament", "purge-deleted"])
    assert result.exit_code == 0, result.output
    assert "removed: Online teams" in result.output and "Kept Pairs" not in result.output
    db.session.expire_all()
    assert db.session.get(DuplicateEvent, did) is None
    assert db.session.get(Tournament, host_id) is None  # its online tournament with it
    assert db.session.get(DuplicateEvent, kept) is not None
