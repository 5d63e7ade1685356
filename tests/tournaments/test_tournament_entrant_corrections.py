"""A director corrects entrants: renames one or changes its players (results stand), removes
one (gone before it has played, its players free again; withdrawn after), a withdrawn entrant's
players may enter again, names compared after NFKC and white space; a form shown before another
director's change is refused; a correction's reason is in the audit trail."""

from __future__ import annotations

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
from app.models import Entrant, EntrantPlayer, Tournament
from tests.forms import form_fields, submit


def _entrants(tid: int) -> list[tuple[str, list[str], int | None]]:
    db.session.expire_all()
    t = db.session.get(Tournament, tid)
    assert t is not None
    return [(e.name, [p.name for p in e.players], e.withdrawn_after) for e in t.entrants]


def _setup(client, **kw):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, **kw)
    add_entrants(client, w.club, t, 4, 2)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    return w, t, base


def _eid(tid: int, n: int) -> int:
    db.session.expire_all()
    t = db.session.get(Tournament, tid)
    assert t is not None
    return t.entrants[n].id


def test_a_typo_is_corrected_and_the_reason_is_in_the_trail(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client)
    eid = _eid(t.id, 0)
    edit = f"{base}/entrants/{eid}/edit"
    page = client.get(base).get_data(as_text=True)
    assert edit in page and ">Correct<" in page
    r = submit(
        client,
        edit,
        {"player_0": "Pete Player", "name": "", "reason": "typed from the wrong slip"},
    )
    assert r.status_code == 303
    assert _entrants(t.id)[0] == ("Pete Player & P00b", ["Pete Player", "P00b"], None)
    # the player typed as a club member's name links to them
    db.session.expire_all()
    linked = db.session.query(EntrantPlayer).filter_by(entrant_id=eid, seat=0).one()
    assert linked.member_id is not None
    rows = audit_rows(client.get(f"{base}/audit").get_data(as_text=True))
    assert rows[0][2].startswith("entrant corrected · Pete Player & P00b")
    assert "Reason: typed from the wrong slip" in rows[0][2]
    assert "P00a" in rows[0][3] and "Pete Player" in rows[0][4]


def test_a_correction_keeps_the_entrants_results(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    assert client.post(url, data=fixed_deal(0, 40)).status_code == 303
    first = tab.seats[0].entrant_id
    r = submit(client, f"{base}/entrants/{first}/edit", {"player_1": "Zoë Zhang", "name": ""})
    assert r.status_code == 303
    db.session.expire_all()
    e = db.session.get(Entrant, first)
    assert e is not None and e.name.endswith("& Zoë Zhang")
    sheet = client.get(url).get_data(as_text=True)
    assert "Zoë Zhang" in sheet and "40" in sheet


def test_names_are_compared_after_nfkc_and_white_space(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client)
    r = client.post(f"{base}/entrants", data={"player_0": "王伟", "player_1": "李娜"})
    assert r.status_code == 303
    # "王 伟" (a space), "ＬＩ　Ｎａ" in full width: the same people
    r = client.post(f"{base}/entrants", data={"player_0": "王 伟", "player_1": "陈静"})
    assert r.status_code == 422
    assert "王伟 already plays for 王伟 &amp; 李娜" in r.get_data(as_text=True)
    r = client.post(f"{base}/entrants", data={"player_0": "Ｐ００ａ", "player_1": "Q"})
    assert r.status_code == 422 and "P00a already plays for" in r.get_data(as_text=True)


def test_a_withdrawn_entrants_players_may_enter_again(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client, pairing="swiss")
    r = client.post(f"{base}/entrants", data={"player_0": "王伟", "player_1": "李娜"})
    assert r.status_code == 303
    seat(client, w.club, t)
    wl = _eid(t.id, 4)
    page = form_fields(client.get(base).get_data(as_text=True), action=f"/entrants/{wl}/withdraw")
    assert client.post(f"{base}/entrants/{wl}/withdraw", data=page).status_code == 303
    # 李娜 plays on with a substitute partner: a new entrant, seated from the next round
    r = client.post(f"{base}/entrants", data={"player_0": "李娜", "player_1": "赵磊"})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    assert ("李娜 & 赵磊", ["李娜", "赵磊"], None) in _entrants(t.id)
    # the withdrawn pair cannot come back while 李娜 plays for the other one
    r = client.post(f"{base}/entrants/{wl}/reinstate", follow_redirects=True)
    assert "李娜 now plays for 李娜 &amp; 赵磊" in r.get_data(as_text=True)
    assert _entrants(t.id)[4][2] == 1


def test_remove_before_playing_frees_the_players_and_after_withdraws(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client, pairing="swiss")
    r = client.post(f"{base}/entrants", data={"player_0": "王伟", "player_1": "李娜"})
    assert r.status_code == 303
    late = _eid(t.id, 4)
    fields = form_fields(client.get(base).get_data(as_text=True), action=f"/entrants/{late}/remove")
    r = client.post(f"{base}/entrants/{late}/remove", data=fields, follow_redirects=True)
    assert "王伟 &amp; 李娜 removed: its players are free to enter again." in r.get_data(
        as_text=True
    )
    assert len(_entrants(t.id)) == 4
    r = client.post(f"{base}/entrants", data={"player_0": "李娜", "player_1": "王伟"})
    assert r.status_code == 303
    # once seated, "remove" withdraws: the tables and their results stand
    seat(client, w.club, t)
    played = _eid(t.id, 0)
    fields = form_fields(
        client.get(base).get_data(as_text=True), action=f"/entrants/{played}/remove"
    )
    r = client.post(f"{base}/entrants/{played}/remove", data=fields, follow_redirects=True)
    assert "so it was withdrawn instead" in r.get_data(as_text=True)
    assert _entrants(t.id)[0][2] == 1 and len(_entrants(t.id)) == 5
    rows = audit_rows(client.get(f"{base}/audit").get_data(as_text=True))
    actions = [row[2].split(" · ")[0] for row in rows]
    assert "entrant removed" in actions and actions[0] == "entrant withdrawn"


def test_a_late_entrant_in_a_round_robin_is_refused_with_the_reason(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client, pairing="round-robin")
    seat(client, w.club, t)
    r = client.post(f"{base}/entrants", data={"player_0": "王伟", "player_1": "李娜"})
    assert r.status_code == 422
    assert "a late entrant cannot be fitted in" in r.get_data(as_text=True)
    assert len(_entrants(t.id)) == 4


def test_entrant_forms_from_an_older_page_are_refused(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base = _setup(client)
    other = app.test_client()
    login(other, w.owner)
    eid = _eid(t.id, 1)
    edit = f"{base}/entrants/{eid}/edit"
    mine = form_fields(client.get(edit).get_data(as_text=True), action=edit)
    old_list = client.get(base).get_data(as_text=True)
    theirs = form_fields(other.get(edit).get_data(as_text=True), action=edit)
    assert other.post(edit, data={**theirs, "player_0": "Anna"}).status_code == 303
    r = client.post(edit, data={**mine, "player_0": "Anne"}, follow_redirects=True)
    page = r.get_data(as_text=True)
    # it says what changed (the name follows the players) and that nothing was saved
    assert "was changed by someone else since you opened this page (name, players)" in page
    assert "Nothing was saved." in page
    assert "You had typed: Anne · P01b" in page
    assert 'value="Anna"' in page  # the form shows the entrant as it is now
    assert _entrants(t.id)[1][1] == ["Anna", "P01b"]
    # the withdraw and remove buttons of the older list are refused too
    for action in ("withdraw", "remove"):
        fields = form_fields(old_list, action=f"/entrants/{eid}/{action}")
        r = client.post(f"{base}/entrants/{eid}/{action}", data=fields, follow_redirects=True)
        assert "was changed by someone else" in r.get_data(as_text=True)
    assert _entrants(t.id)[1] == ("Anna & P01b", ["Anna", "P01b"], None)


def test_a_late_entrant_in_a_swiss_is_seated_from_the_next_round(app, client) -> None:  # type: ignore[no-untyped-def]
    from tournament_helpers import play_round_out

    w, t, base = _setup(client, pairing="swiss")
    first = seat(client, w.club, t)
    r = client.post(
        f"{base}/entrants", data={"player_0": "王伟", "player_1": "李娜"}, follow_redirects=True
    )
    assert "王伟 &amp; 李娜 entered." in r.get_data(as_text=True)
    late = _eid(t.id, 4)
    # round 1 stands as seated: the late pair is not at any of its tables
    assert "王伟 &amp; 李娜" not in client.get(f"{base}/rounds/1").get_data(as_text=True)
    assert all(s.entrant_id != late for tab in first.tables for s in tab.seats)
    t_row = db.session.get(Tournament, t.id)
    assert t_row is not None
    play_round_out(t_row, first, w.director)
    second = seat(client, w.club, t)
    assert second.number == 2
    assert any(s.entrant_id == late for tab in second.tables for s in tab.seats)
    assert "王伟 &amp; 李娜" in client.get(f"{base}/rounds/2").get_data(as_text=True)
