"""A deleted tournament disappears from every page (the club's list, its own pages, table codes,
public links, seasons) and is listed on the club's page for 30 days with who deleted it, to be
restored with everything it had; older ones are purged by a command; one with an online table
still being played is not deleted."""

from __future__ import annotations

from datetime import timedelta

from test_tournament_visibility import _public, _season_with_a_night
from tournament_helpers import add_entrants, audit_rows, create, login, seat, setup_form, world

from app.extensions import db
from app.models import Deal, Tournament, utcnow
from tests.online.online_helpers import online_world


def _delete(client, base: str, reason: str = ""):  # type: ignore[no-untyped-def]
    return client.post(base + "/delete", data={"reason": reason}, follow_redirects=True)


def test_a_deleted_tournament_is_hidden_and_restored_whole(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.owner)  # an owner makes the season
    season, t, entrant = _season_with_a_night(client, w)
    login(client, w.director)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    link = _public(client, base)
    tab = t.rounds_played[0].tables[0]
    code = tab.code
    deals = db.session.query(Deal).count()
    season_url = f"/clubs/{w.club.slug}/seasons/{season.id}"
    assert "Night One" in client.get(season_url).get_data(as_text=True)
    r = _delete(client, base, reason="a test night")
    page = r.get_data(as_text=True)
    assert "Night One deleted. You can restore it from the club&#39;s page for 30 days." in page
    assert 'id="deleted"' in page and "Dora Director" in page and ">Restore<" in page
    # gone from every page
    for url in (base, f"/standings/{t.id}", link, f"/table/{code}", base + "/audit"):
        assert client.get(url).status_code == 404, url
    assert "Night One" not in client.get(f"/clubs/{w.club.slug}/tournaments").get_data(as_text=True)
    assert "Night One" not in client.get(season_url).get_data(as_text=True)
    # a player sees no deleted list
    login(client, w.player)
    assert 'id="deleted"' not in client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    login(client, w.director)
    r = client.post(f"/clubs/{w.club.slug}/deleted/tournaments/{t.id}/restore")
    assert r.status_code == 303 and r.headers["Location"].endswith(base)
    assert client.get(base).status_code == 200
    assert client.get(link).status_code == 200
    assert "Night One" in client.get(season_url).get_data(as_text=True)
    assert db.session.query(Deal).count() == deals
    rows = audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[0][2].startswith("tournament restored")
    assert rows[1][2].startswith("tournament deleted") and "Reason: a test night" in rows[1][2]
    assert 'id="deleted"' not in client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    assert entrant


def test_a_tournament_with_an_online_table_in_play_is_not_deleted(app, client) -> None:  # type: ignore[no-untyped-def]
    ow = online_world(client)
    base = f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}"
    r = _delete(client, base)
    assert "is still being played online" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, ow.t.id).deleted_at is None  # type: ignore[union-attr]


def test_after_thirty_days_restore_is_refused_and_purge_removes_it(app, client, runner) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, name="Old Night")
    add_entrants(client, w.club, t, 4, 2)
    seat(client, w.club, t)
    keep = create(client, w.club, name="Kept Night")
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    assert _delete(client, base).status_code == 200
    assert _delete(client, f"/clubs/{w.club.slug}/tournaments/{keep.id}").status_code == 200
    # the name stays taken while the tournament can be restored
    r = client.post(f"/clubs/{w.club.slug}/tournaments/new", data=setup_form(name="Old Night"))
    assert "A deleted tournament has this name" in r.get_data(as_text=True)
    db.session.expire_all()
    old = db.session.get(Tournament, t.id)
    assert old is not None
    old.deleted_at = utcnow() - timedelta(days=31)
    db.session.commit()
    # past 30 days: off the club's list, and no longer restorable
    club_page = client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    assert "Old Night" not in club_page and "Kept Night" in club_page
    r = client.post(f"/clubs/{w.club.slug}/deleted/tournaments/{t.id}/restore")
    r = client.get(r.headers["Location"])
    assert "can no longer be restored" in r.get_data(as_text=True)
    result = runner.invoke(args=["tournament", "purge-deleted"])
    assert result.exit_code == 0, result.output
    assert "removed: Old Night" in result.output and "1 deleted thing(s) removed" in result.output
    db.session.expire_all()
    assert db.session.get(Tournament, t.id) is None
    assert db.session.get(Tournament, keep.id) is not None  # 0 days old: kept
    result = runner.invoke(args=["tournament", "export", "Kept Night"])
    assert result.exit_code == 1 and "is deleted" in result.output


def test_delete_needs_a_director(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, name="Guarded")
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    assert 'action="' + base + '/delete"' in client.get(base).get_data(as_text=True)
    login(client, w.player)
    assert 'action="' + base + '/delete"' not in client.get(base).get_data(as_text=True)
    assert client.post(base + "/delete").status_code == 403
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).deleted_at is None  # type: ignore[union-attr]
