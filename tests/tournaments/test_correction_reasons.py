"""A correction asks for an optional reason, shown in the audit trail: a deal corrected on a
score sheet, a traveller line of a duplicate event corrected or removed, a division renamed.
The field is on the page (in Chinese too), the reason is in the trail, a correction without
one has none, and a reason longer than 200 characters saves nothing."""

from __future__ import annotations

from sqlalchemy import select
from tournament_helpers import (
    add_entrants,
    audit_rows,
    create,
    fixed_deal,
    login,
    seat,
    sheet_url,
    world,
)

from app.extensions import db
from app.models import AuditEntry, DuplicateEvent, DuplicateResult, Season
from app.services.duplicate import events as svc
from tests.conftest import _make_member
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.forms import form_fields, submit
from tests.seasons.test_seasons_pages import _divisions, _season


def _entries(action: str) -> list[AuditEntry]:
    db.session.expire_all()
    return list(
        db.session.scalars(
            select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)
        )
    )


# --- a deal corrected on a score sheet ----------------------------------------------------------


def _sheet(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    assert client.post(url, data=fixed_deal(0, 40)).status_code == 303
    return w, t, url


def test_a_deal_corrected_with_a_reason_shows_it_in_the_trail(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, url = _sheet(client)
    # a new deal's form asks for no reason; a correction's does
    assert "reason" not in form_fields(client.get(url).get_data(as_text=True), action=url)
    edit = f"{url}/deals/1"
    page = client.get(edit).get_data(as_text=True)
    assert "reason" in form_fields(page, action=edit) and "Reason (optional)" in page
    r = submit(client, edit, {"points": "45", "reason": "  the slip said 45,\n not 40 "})
    assert r.status_code == 303
    [entry] = _entries("correct_deal")
    assert entry.reason == "the slip said 45, not 40"
    assert entry.before["points"] == 40 and entry.after["points"] == 45
    rows = audit_rows(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/audit").get_data(True))
    assert rows[0][2].startswith("deal corrected")
    assert "Reason: the slip said 45, not 40" in rows[0][2]
    # a correction without a reason has none
    assert submit(client, edit, {"points": "50"}).status_code == 303
    assert [e.reason for e in _entries("correct_deal")] == ["the slip said 45, not 40", None]
    # in Chinese: the field and the trail
    client.post("/lang", data={"lang": "zh"})
    assert "原因（可不填）" in client.get(edit).get_data(as_text=True)
    trail = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/audit").get_data(as_text=True)
    assert "原因：the slip said 45, not 40" in trail


def test_a_deal_correction_with_a_too_long_reason_saves_nothing(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, url = _sheet(client)
    r = submit(client, f"{url}/deals/1", {"points": "45", "reason": "x" * 201})
    assert r.status_code == 422
    assert "At most 200 characters, please." in r.get_data(as_text=True)
    assert _entries("correct_deal") == []
    db.session.expire_all()
    [recorded] = db.session.scalars(select(AuditEntry.after).where(AuditEntry.action == "deal"))
    assert recorded["points"] == 40


# --- a traveller line of a duplicate event ----------------------------------------------------


def _traveller(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    keys = [row.key for row in svc.board_sheet(db.session.get(DuplicateEvent, did), 1)]
    url = base + "/boards/1"
    typed = {f"{keys[0]}_declarer": "0", f"{keys[0]}_total": "40"}
    typed |= {f"{keys[1]}_declarer": "1", f"{keys[1]}_total": "85"}
    assert submit(client, url, typed | {"reason": "not a correction"}).status_code == 303
    return w, did, base, url, keys


def test_a_traveller_correction_and_removal_carry_the_reason(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, url, keys = _traveller(client)
    # lines typed in for the first time are no correction: no reason in their entries
    assert [e.reason for e in _entries("duplicate_result")] == [None, None]
    page = client.get(url).get_data(as_text=True)
    assert "Reason for a correction (optional)" in page
    change = {f"{keys[0]}_total": "45", f"{keys[1]}_declarer": "", f"{keys[1]}_total": ""}
    r = submit(client, url, change | {"reason": "table 2 played board 2"})
    assert r.status_code == 303
    [fixed] = _entries("duplicate_correct")
    [removed] = _entries("duplicate_remove")
    assert fixed.reason == removed.reason == "table 2 played board 2"
    assert fixed.after == {"declarer": 0, "total": 45}
    rows = audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert sum("Reason: table 2 played board 2" in row[2] for row in rows) == 2
    client.post("/lang", data={"lang": "zh"})
    assert "更正原因（可不填）" in client.get(url).get_data(as_text=True)
    assert "原因：table 2 played board 2" in client.get(base + "/audit").get_data(as_text=True)


def test_a_traveller_with_a_too_long_reason_saves_nothing(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, url, keys = _traveller(client)
    r = submit(client, url, {f"{keys[0]}_total": "45", "reason": "y" * 201})
    assert r.status_code == 422
    assert "At most 200 characters, please." in r.get_data(as_text=True)
    db.session.expire_all()
    totals = db.session.scalars(
        select(DuplicateResult.total).where(DuplicateResult.event_id == did)
    ).all()
    assert sorted(totals) == [40, 85]
    assert _entries("duplicate_correct") == []


# --- a division renamed -------------------------------------------------------------------------


def _division_page(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    for name in ("王伟", "李娜"):
        _make_member(w.club, name)
    assert client.post(base + "/divisions", data={"name": "甲级", "players": "王伟\n李娜"})
    [d] = _divisions(s)
    return w, s, base, d


def test_a_division_renamed_with_a_reason_is_in_the_seasons_trail(app, client) -> None:  # type: ignore[no-untyped-def]
    w, s, base, d = _division_page(client)
    page = client.get(base).get_data(as_text=True)
    assert f'name="d{d.id}-reason"' in page
    r = submit(
        client,
        base,
        {f"d{d.id}-name": "A 组", f"d{d.id}-reason": "the club calls it A 组"},
        action=base + f"/divisions/{d.id}",
    )
    assert r.status_code == 303
    [entry] = _entries("edit_division")
    assert entry.season_id == s.id and entry.reason == "the club calls it A 组"
    assert entry.before == {"name": "甲级"} and entry.after == {"name": "A 组"}
    rows = audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[0][2].startswith("division corrected · A 组")
    assert "Reason: the club calls it A 组" in rows[0][2]
    assert "甲级" in rows[0][3] and "A 组" in rows[0][4]
    # players changed without a reason: its entry has none; a save that changes nothing none
    edit = base + f"/divisions/{d.id}"
    assert submit(client, base, {f"d{d.id}-players": "王伟"}, action=edit).status_code == 303
    assert submit(client, base, {}, action=edit).status_code == 303
    entries = _entries("edit_division")
    assert len(entries) == 2 and entries[1].reason is None
    assert entries[1].before == {"players": ["王伟", "李娜"]}
    client.post("/lang", data={"lang": "zh"})
    assert "原因（可不填）" in client.get(base).get_data(as_text=True)
    trail = client.get(base + "/audit").get_data(as_text=True)
    assert "级别已更正" in trail and "原因：the club calls it A 组" in trail


def test_a_division_with_a_too_long_reason_is_not_renamed(app, client) -> None:  # type: ignore[no-untyped-def]
    w, s, base, d = _division_page(client)
    r = submit(
        client,
        base,
        {f"d{d.id}-name": "A 组", f"d{d.id}-reason": "z" * 201},
        action=base + f"/divisions/{d.id}",
    )
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Season, s.id).divisions[0].name == "甲级"
    assert _entries("edit_division") == []
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "At most 200 characters, please." in page
