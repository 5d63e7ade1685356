"""No lost updates on a board's traveller: a save from a page made before the board changed is
refused with what changed and nothing is saved; a form writes only the lines it changes; an
online result and a typed result never overwrite each other; a line of a table that does not
play the board is refused."""

from __future__ import annotations

import re

from app.extensions import db
from app.models import AuditEntry, DuplicateEvent, DuplicateResult
from app.services.duplicate import events as svc
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.forms import form_fields, submit
from tests.tournaments.tournament_helpers import login, world


def _setup(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    keys = [row.key for row in svc.board_sheet(db.session.get(DuplicateEvent, did), 1)]
    return w, did, base, keys


def _results(did: int) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    db.session.expire_all()
    ev = db.session.get(DuplicateEvent, did)
    return {(r.round, r.table_no): (r.declarer, r.total) for r in ev.results if r.board == 1}


def test_a_save_from_a_page_opened_before_another_save_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, keys = _setup(client)
    url = base + "/boards/1"
    # two directors open the same board (the second page is kept aside, as in a second tab)
    mine = form_fields(client.get(url).get_data(as_text=True), action=url)
    theirs = dict(mine)
    theirs.update({f"{keys[0]}_declarer": "0", f"{keys[0]}_total": "40"})
    assert client.post(url, data=theirs).status_code == 303
    # my page still shows table 1 empty; I type table 2 and table 1 differently
    mine.update({f"{keys[1]}_declarer": "1", f"{keys[1]}_total": "95"})
    mine.update({f"{keys[0]}_declarer": "1", f"{keys[0]}_total": "60"})
    r = client.post(url, data=mine)
    page = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "This board changed since you opened it: 1 result was added." in page
    assert "nothing was saved" in page
    assert len(_results(did)) == 1 and next(iter(_results(did).values())) == (0, 40)
    # the page now shows the stored line, and beside it what I had typed there
    assert "changed meanwhile; you had typed: Side B · 60" in page
    fresh = form_fields(page, action=url)
    assert fresh[f"{keys[0]}_total"] == "40" and fresh[f"{keys[0]}_shown"] == "0:40"
    # my line for table 2, which nobody changed, is still typed: saving again keeps both
    assert fresh[f"{keys[1]}_total"] == "95" and fresh[f"{keys[1]}_declarer"] == "1"
    assert client.post(url, data=fresh).status_code == 303
    assert sorted(_results(did).values()) == [(0, 40), (1, 95)]


def test_an_empty_line_removes_only_what_the_form_showed(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, keys = _setup(client)
    url = base + "/boards/1"
    page = form_fields(client.get(url).get_data(as_text=True), action=url)
    # meanwhile an online table (or another director) writes table 1's line
    ev = db.session.get(DuplicateEvent, did)
    row = svc.board_sheet(ev, 1)[0]
    svc.save_table_result(ev, 1, row.round, row.table, declarer=1, total=35)
    db.session.commit()
    # my older page, with table 1 empty, saves table 2: refused, table 1 kept
    page.update({f"{keys[1]}_declarer": "0", f"{keys[1]}_total": "80"})
    r = client.post(url, data=page)
    assert r.status_code == 409 and "1 result was added" in r.get_data(as_text=True)
    assert list(_results(did).values()) == [(1, 35)]
    # a post without the shown lines (a script) adds a line and leaves the others alone
    data = {f"{keys[1]}_declarer": "0", f"{keys[1]}_total": "80"}
    assert client.post(url, data=data).status_code == 303
    assert sorted(_results(did).values()) == [(0, 80), (1, 35)]
    # ... but never overwrites or removes one
    r = client.post(url, data={f"{keys[0]}_declarer": "0", f"{keys[0]}_total": "5"})
    assert r.status_code == 409
    assert "Table 1 already has a result on this board" in r.get_data(as_text=True)
    assert sorted(_results(did).values()) == [(0, 80), (1, 35)]
    # from a fresh page, emptying a shown line removes it: one entry in the trail
    r = submit(client, url, {f"{keys[0]}_declarer": "", f"{keys[0]}_total": ""})
    assert r.status_code == 303
    assert sorted(_results(did).values()) == [(0, 80)]
    actions = [e.action for e in db.session.query(AuditEntry).order_by(AuditEntry.id)]
    assert actions[-1] == "duplicate_remove" and actions.count("duplicate_result") == 2


def test_a_save_that_changes_nothing_writes_nothing(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, keys = _setup(client)
    url = base + "/boards/1"
    assert (
        submit(client, url, {f"{keys[0]}_declarer": "0", f"{keys[0]}_total": "40"}).status_code
        == 303
    )
    version = db.session.get(DuplicateEvent, did).version
    entries = db.session.query(AuditEntry).count()
    assert submit(client, url, {}).status_code == 303
    db.session.expire_all()
    assert db.session.get(DuplicateEvent, did).version == version
    assert db.session.query(AuditEntry).count() == entries


def test_an_online_result_never_overwrites_a_typed_one(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, keys = _setup(client)
    url = base + "/boards/1"
    assert (
        submit(client, url, {f"{keys[0]}_declarer": "0", f"{keys[0]}_total": "40"}).status_code
        == 303
    )
    ev = db.session.get(DuplicateEvent, did)
    row = svc.board_sheet(ev, 1)[0]
    assert svc.save_table_result(ev, 1, row.round, row.table, declarer=1, total=70) is False
    db.session.commit()
    assert _results(did)[(row.round, row.table)] == (0, 40)
    last = db.session.query(AuditEntry).order_by(AuditEntry.id.desc()).first()
    assert last is not None and last.action == "duplicate_online_differs"
    assert last.before == {"declarer": 0, "total": 40} and last.after == {
        "declarer": 1,
        "total": 70,
    }
    trail = client.get(base + "/audit").get_data(as_text=True)
    assert "online result differs from the typed one (the typed one stands)" in trail
    # the same result again is no change at all
    ev = db.session.get(DuplicateEvent, did)
    assert svc.save_table_result(ev, 1, row.round, row.table, declarer=0, total=40) is True


def test_a_line_of_a_table_that_does_not_play_the_board_is_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, keys = _setup(client)
    url = base + "/boards/1"
    playing = set(keys)
    other = next(
        f"r{r}t{t}" for r in range(1, 4) for t in range(1, 4) if f"r{r}t{t}" not in playing
    )
    r = submit(
        client,
        url,
        {
            f"{keys[0]}_declarer": "0",
            f"{keys[0]}_total": "40",
            f"{other}_declarer": "1",
            f"{other}_total": "20",
        },
    )
    text = r.get_data(as_text=True)
    assert r.status_code == 422
    m = re.match(r"r(\d)t(\d)", other)
    assert m is not None
    assert f"Round {m[1]} table {m[2]} does not play board 1" in text
    assert db.session.query(DuplicateResult).count() == 0


def test_the_refusal_is_in_chinese_for_a_chinese_reader(app, client) -> None:  # type: ignore[no-untyped-def]
    w, did, base, keys = _setup(client)
    client.post("/lang", data={"lang": "zh", "next": "/"})
    url = base + "/boards/1"
    mine = form_fields(client.get(url).get_data(as_text=True), action=url)
    first = dict(mine) | {f"{keys[0]}_declarer": "0", f"{keys[0]}_total": "40"}
    first |= {f"{keys[1]}_declarer": "1", f"{keys[1]}_total": "20"}
    assert client.post(url, data=first).status_code == 303
    mine |= {f"{keys[2]}_declarer": "0", f"{keys[2]}_total": "10"}
    r = client.post(url, data=mine)
    text = r.get_data(as_text=True)
    assert r.status_code == 409
    assert "你打开之后，这一副牌已有改动：新增了 2 个结果。请重新查看：没有保存任何内容。" in text
