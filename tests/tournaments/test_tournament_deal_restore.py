"""Removing the last deal of a score sheet is reversible (issue 22): the removal's audit entry
keeps the whole deal, the director's sheet offers to restore it, and a restore puts it back as
it was, in the trail; it is refused with a sentence, nothing changed, once another deal was
entered at that place (a restore never overwrites a deal), and a table's code cannot do it."""

from __future__ import annotations

from sqlalchemy import select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.extensions import db
from app.models import AuditEntry, Deal
from tests.forms import form_fields

EN = {"Accept-Language": "en"}


def _setup(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=3)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    return w, t, tab, sheet_url(w.club, t, rnd, tab)


def _deals(tab) -> list[tuple[int, int | None, int, str | None]]:  # type: ignore[no-untyped-def]
    db.session.expire_all()
    rows = db.session.scalars(select(Deal).where(Deal.table_id == tab.id).order_by(Deal.index))
    return [(d.index, d.declarer, d.points, d.level) for d in rows]


def _remove(client, url):  # type: ignore[no-untyped-def]
    fields = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/undo")
    assert client.post(f"{url}/undo", data=fields).status_code == 303


def _restore_form(client, url) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return form_fields(client.get(url, headers=EN).get_data(as_text=True), action=f"{url}/restore")


def _actions() -> list[str]:
    return list(db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))


def test_a_removed_deal_is_restored_as_it_was_and_audited(client) -> None:  # type: ignore[no-untyped-def]
    _w, _t, tab, url = _setup(client)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303
    assert client.post(url, data=fixed_deal(0, 50, level="5", kitty=10)).status_code == 303
    before = _deals(tab)
    page = client.get(url, headers=EN).get_data(as_text=True)
    assert "Restore the removed deal" not in page  # nothing removed yet
    _remove(client, url)
    assert _deals(tab) == before[:1]
    page = client.get(url, headers=EN).get_data(as_text=True)
    assert "Restore the removed deal 2" in page and "Removed by Dora Director" in page
    r = client.post(f"{url}/restore", data=_restore_form(client, url), headers=EN)
    assert r.status_code == 303
    assert _deals(tab) == before
    assert _actions()[-2:] == ["delete_deal", "restore_deal"]
    entry = db.session.scalar(select(AuditEntry).order_by(AuditEntry.id.desc()))
    assert entry is not None and entry.after["points"] == 50 and entry.after["level"] == "5"
    page = client.get(url, headers=EN).get_data(as_text=True)
    assert "Restore the removed deal" not in page  # done once
    trail = client.get(url.split("/rounds/")[0] + "/audit", headers=EN).get_data(as_text=True)
    assert "deal restored" in trail and "deal removed" in trail
    # two removals are undone newest first, each back in its place
    _remove(client, url)
    _remove(client, url)
    assert _deals(tab) == []
    for n in (1, 2):
        form = _restore_form(client, url)
        assert f"Restore the removed deal {n}" in client.get(url, headers=EN).get_data(as_text=True)
        assert client.post(f"{url}/restore", data=form).status_code == 303
    assert _deals(tab) == before


def test_a_restore_never_overwrites_a_deal_entered_since(client) -> None:  # type: ignore[no-untyped-def]
    _w, _t, tab, url = _setup(client)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303
    assert client.post(url, data=fixed_deal(0, 50, level="5")).status_code == 303
    _remove(client, url)
    old_form = _restore_form(client, url)  # a page still open on the removal
    assert client.post(url, data=fixed_deal(0, 45, level="5")).status_code == 303  # deal 2 again
    entered = _deals(tab)
    assert "Restore the removed deal" not in client.get(url, headers=EN).get_data(as_text=True)
    r = client.post(f"{url}/restore", data=old_form, headers=EN, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "Deal 2 cannot be restored: another deal 2 was entered at this table since." in html
    assert _deals(tab) == entered
    assert "restore_deal" not in _actions()
    # the removal of the new deal 2 is the one offered now, and restores that one
    _remove(client, url)
    assert client.post(f"{url}/restore", data=_restore_form(client, url)).status_code == 303
    assert _deals(tab) == entered


def test_the_sheet_in_chinese_and_a_table_code_has_no_restore(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, tab, url = _setup(client)
    assert client.post(url, data=fixed_deal(0, 0)).status_code == 303
    _remove(client, url)
    zh = client.get(url, headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "恢复被删除的第 1 副牌" in zh
    db.session.expire_all()
    code = db.session.get(type(tab), tab.id).code
    player = app.test_client()
    page = player.get(f"/table/{code}", headers=EN)
    assert page.status_code == 200 and "Record deal" in page.get_data(as_text=True)
    assert "/restore" not in page.get_data(as_text=True)
    # the restore is a director's
    login(player, w.player)
    assert player.post(f"{url}/restore", data={"entry": "1"}).status_code == 403
