"""Deleting a season or a division, reversibly: a deleted season disappears from every page (the
club's list, its pages and exports, the public link, the projector, the players' pages) while its
nights stay, in no season, and come back into it with a restore; a deleted division frees its
players and its nights count in no division, and a restore puts it back in its place with its
players, unless a player or its name has been taken since. Both are the owner's, listed on the
club's page with who deleted them and when, in the season's audit trail, purged after 30 days."""

from __future__ import annotations

import copy
import io
import json
import re
from datetime import timedelta

from sqlalchemy import func, select

from app.extensions import db
from app.models import AuditEntry, Division, Season, Tournament, utcnow
from tests.competition.tfile_examples import EXAMPLE
from tests.conftest import _make_member
from tests.seasons.test_seasons_pages import _divisions, _night, _season
from tests.tournaments.tournament_helpers import login, world

EN = {"Accept-Language": "en"}


def _trail(s: Season) -> list[tuple[str, str, str | None]]:
    rows = db.session.scalars(
        select(AuditEntry).where(AuditEntry.season_id == s.id).order_by(AuditEntry.id)
    )
    return [(e.action, e.target, e.reason) for e in rows]


def _seen(page: str, div: Division) -> str:
    m = re.search(rf'name="d{div.id}-seen"[^>]*value="([^"]+)"', page) or re.search(
        rf'value="([^"]+)"[^>]*name="d{div.id}-seen"', page
    )
    assert m, "the division's forms carry its version"
    return m.group(1)


def test_a_deleted_season_is_hidden_everywhere_and_restored_with_its_nights(app, client):
    w = world()
    login(client, w.owner)
    member = _make_member(w.club, "P00a")
    s = _season(client, w)
    t = _night(client, w, "Night One")
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    assert (
        client.post(base + "/nights", data={"tournament": t.id, "division": 0}).status_code == 303
    )
    assert client.post(base + "/visibility", data={"visibility": "public"}).status_code == 303
    db.session.refresh(s)
    link = f"/league/{s.public_token}"
    player_url = f"/clubs/{w.club.slug}/members/{member.id}/player"
    night_url = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    pages = (
        base,
        base + "?view=projector",
        link,
        link + "?projector=1",
        base + "/standings.csv",
        base + "/standings.pdf",
        base + "/standings.png",
    )
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert "Winter League" in client.get(player_url).get_data(as_text=True)
    assert "Winter League" in client.get(night_url + "/export.json").get_data(as_text=True)

    # a director may not delete it: season management is the owner's
    login(client, w.director)
    assert client.post(base + "/delete").status_code == 403
    login(client, w.owner)
    r = client.post(base + "/delete", data={"reason": "made twice"}, headers=EN)
    assert r.status_code == 303 and r.headers["Location"].endswith("#deleted")
    page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    assert "Winter League deleted: its nights count in no season meanwhile." in page
    deleted = page[page.index('id="deleted"') :]
    assert "Winter League" in deleted and ">season<" in deleted and "Olga Owner" in deleted
    until = (utcnow() + timedelta(days=30)).strftime("%Y-%m-%d")
    assert until in deleted and ">Restore<" in deleted

    # gone from every page; the night stays, in no season
    for url in pages:
        assert client.get(url).status_code == 404, url
    assert "Winter League" not in client.get(f"/clubs/{w.club.slug}/seasons").get_data(as_text=True)
    assert "Winter League" not in client.get(player_url).get_data(as_text=True)
    assert client.get(night_url).status_code == 200
    assert "Winter League" not in client.get(night_url + "/export.json").get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).season_id == s.id  # the link is kept for a restore
    other = _season(client, w, name="Spring League")
    other_page = client.get(f"/clubs/{w.club.slug}/seasons/{other.id}").get_data(as_text=True)
    assert f'value="{t.id}"' in other_page  # free to count in another season meanwhile
    # its name is still taken, with a sentence saying why
    r = client.post(
        f"/clubs/{w.club.slug}/seasons",
        data={"name": "Winter League", "rule": "total", "best": 5, "min_nights": 1},
        headers=EN,
    )
    assert r.status_code == 422
    assert "The season Winter League was deleted: restore it" in r.get_data(as_text=True)
    # a director sees it listed but cannot restore it
    login(client, w.director)
    page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    assert "the owner can restore it" in page
    assert client.post(f"/clubs/{w.club.slug}/deleted/seasons/{s.id}/restore").status_code == 403

    login(client, w.owner)
    r = client.post(f"/clubs/{w.club.slug}/deleted/seasons/{s.id}/restore")
    assert r.status_code == 303 and r.headers["Location"].endswith(base)
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert "Night One" in client.get(base).get_data(as_text=True)
    assert "Winter League" in client.get(player_url).get_data(as_text=True)
    assert 'id="deleted"' not in client.get(f"/clubs/{w.club.slug}").get_data(as_text=True)
    assert _trail(s) == [
        ("delete_season", "Winter League", "made twice"),
        ("restore_season", "Winter League", None),
    ]
    # a restore of what is not deleted: not found
    assert client.post(f"/clubs/{w.club.slug}/deleted/seasons/{s.id}/restore").status_code == 404


def test_a_deleted_division_frees_its_players_and_comes_back_in_its_place(app, client):
    w = world()
    login(client, w.owner)
    for name in ("A1", "B1", "B2", "C1"):
        _make_member(w.club, name)
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    for name, players in (("甲级", "A1"), ("乙级", "B1\nB2"), ("丙级", "C1")):
        r = client.post(base + "/divisions", data={"name": name, "players": players})
        assert r.status_code == 303
    a, b, c = _divisions(s)
    t = _night(client, w, "Night B")
    assert client.post(base + "/nights", data={"tournament": t.id, "division": b.id}).status_code
    page = client.get(base).get_data(as_text=True)
    seen = _seen(page, b)

    # a director may not; an out-of-date page is refused, nothing changes
    login(client, w.director)
    assert client.post(base + f"/divisions/{b.id}/delete", data={"seen": seen}).status_code == 403
    login(client, w.owner)
    client.post(
        base + f"/divisions/{b.id}",
        data={
            f"d{b.id}-name": "乙级",
            f"d{b.id}-players": "B1\nB2",
            f"d{b.id}-carry_factor": "0.9",
            f"d{b.id}-seen": seen,
        },
    )
    r = client.post(
        base + f"/divisions/{b.id}/delete", data={"seen": seen}, headers=EN, follow_redirects=True
    )
    assert "changed by someone else" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Division, b.id).deleted_at is None
    seen = _seen(client.get(base).get_data(as_text=True), b)
    r = client.post(
        base + f"/divisions/{b.id}/delete",
        data={"seen": seen, "reason": "merged"},
        headers=EN,
        follow_redirects=True,
    )
    text = r.get_data(as_text=True)
    assert "Division 乙级 deleted: its nights count in no division" in text
    db.session.expire_all()
    assert [d.name for d in _divisions(s) if d.deleted_at is None] == ["甲级", "丙级"]
    page = client.get(base, headers=EN).get_data(as_text=True)
    assert "B1 · B2" not in page and "no division" in page  # the night counts in no division
    # its direct forms are a 404 now
    assert client.post(base + f"/divisions/{b.id}/move", data={"step": "up"}).status_code == 404
    assert client.post(base + f"/divisions/{b.id}", data={}).status_code == 404
    assert client.post(base + f"/divisions/{b.id}/delete").status_code == 404
    club_page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    listed = club_page[club_page.index('id="deleted"') :]
    assert "乙级" in listed and ">division<" in listed and "of the season Winter League" in listed

    # its players are free: B1 joins a new division; the restore is refused, nothing changes
    r = client.post(base + "/divisions", data={"name": "丁级", "players": "B1"})
    assert r.status_code == 303
    restore = f"/clubs/{w.club.slug}/deleted/divisions/{b.id}/restore"
    r = client.post(restore, headers=EN, follow_redirects=True)
    assert (
        "乙级 cannot be restored: B1 has joined the division 丁级 of this season since."
        in r.get_data(as_text=True)
    )
    db.session.expire_all()
    assert db.session.get(Division, b.id).deleted_at is not None
    # … and while another division has its name
    d = next(x for x in _divisions(s) if x.name == "丁级")
    seen_d = _seen(client.get(base).get_data(as_text=True), d)
    r = client.post(
        base + f"/divisions/{d.id}",
        data={f"d{d.id}-name": "乙级", f"d{d.id}-players": "", f"d{d.id}-seen": seen_d},
    )
    assert r.status_code == 303
    r = client.post(restore, headers=EN, follow_redirects=True)
    assert "The season has another division named 乙级 now" in r.get_data(as_text=True)
    seen_d = _seen(client.get(base).get_data(as_text=True), d)
    client.post(
        base + f"/divisions/{d.id}",
        data={f"d{d.id}-name": "丁级", f"d{d.id}-players": "", f"d{d.id}-seen": seen_d},
    )
    r = client.post(restore, headers=EN)
    assert r.status_code == 303 and r.headers["Location"].endswith(base + "#divisions")
    db.session.expire_all()
    live = [x for x in _divisions(s) if x.deleted_at is None]
    # back in its place, with its players; the night counts in it again
    assert [x.name for x in live] == ["甲级", "乙级", "丙级", "丁级"]
    assert live[1].players == ["B1", "B2"]
    page = client.get(base, headers=EN).get_data(as_text=True)
    assert "B1 · B2" in page
    assert db.session.get(Tournament, t.id).division_id == b.id
    trail = client.get(base + "/audit", headers=EN).get_data(as_text=True)
    assert (
        "division deleted" in trail and "Reason: merged" in trail and "division restored" in trail
    )
    login(client, w.player)
    assert client.get(base + "/audit").status_code == 403
    login(client, w.owner)
    # the corrections (乙级's carry-over factor, the renames of 丁级) are in the trail too,
    # each named by the division's new name
    assert [(a_, n) for a_, n, _r in _trail(s)] == [
        ("edit_division", "乙级"),
        ("delete_division", "乙级"),
        ("edit_division", "乙级"),
        ("edit_division", "丁级"),
        ("restore_division", "乙级"),
    ]
    assert _trail(s)[1][2] == "merged"
    assert a.id and c.id


def test_after_thirty_days_a_season_or_division_is_purged_for_good(app, client, runner):
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    kept = _season(client, w, name="Spring League")
    t = _night(client, w, "Night One")
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    client.post(base + "/nights", data={"tournament": t.id, "division": 0})
    kept_base = f"/clubs/{w.club.slug}/seasons/{kept.id}"
    client.post(kept_base + "/divisions", data={"name": "甲级"})
    client.post(kept_base + "/divisions", data={"name": "乙级"})
    old_div, new_div = _divisions(kept)
    assert client.post(base + "/delete").status_code == 303
    assert client.post(kept_base + f"/divisions/{old_div.id}/delete").status_code == 303
    assert client.post(kept_base + f"/divisions/{new_div.id}/delete").status_code == 303
    db.session.expire_all()
    for obj in (db.session.get(Season, s.id), db.session.get(Division, old_div.id)):
        obj.deleted_at = utcnow() - timedelta(days=31)
    db.session.commit()
    club_page = client.get(f"/clubs/{w.club.slug}", headers=EN).get_data(as_text=True)
    listed = club_page[club_page.index('id="deleted"') :]
    assert "Winter League" not in listed and "甲级" not in listed and "乙级" in listed
    r = client.post(
        f"/clubs/{w.club.slug}/deleted/seasons/{s.id}/restore", headers=EN, follow_redirects=True
    )
    assert "can no longer be restored" in r.get_data(as_text=True)
    result = runner.invoke(args=["tournament", "purge-deleted"])
    assert result.exit_code == 0, result.output
    assert "removed: Winter League" in result.output and "removed: 甲级" in result.output
    assert "乙级" not in result.output
    db.session.expire_all()
    assert db.session.get(Season, s.id) is None
    assert db.session.get(Division, old_div.id) is None
    assert db.session.get(Division, new_div.id) is not None  # 0 days old: kept
    night = db.session.get(Tournament, t.id)
    assert night is not None and night.season_id is None  # the night stays, in no season
    # a new division after a purge takes a free place
    r = client.post(kept_base + "/divisions", data={"name": "丙级"})
    assert r.status_code == 303


def test_a_night_imported_into_a_deleted_season_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    assert client.post(f"/clubs/{w.club.slug}/seasons/{s.id}/delete").status_code == 303
    night = copy.deepcopy(EXAMPLE)
    night.update(club=w.club.name, name="Night 1", season="Winter League")
    body = json.dumps(night, ensure_ascii=False).encode()
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/import",
        data={"file": (io.BytesIO(body), "t.json")},
        headers=EN,
    )
    assert r.status_code == 422
    assert "The season Winter League was deleted: restore it" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Tournament.id))) == 0
    assert db.session.scalar(select(func.count(Season.id))) == 1
