"""A duplicate event's audit trail and projector: a correction of one table's line of a board's
traveller re-derives every comparison of that board (the other tables' matchpoints, a team
match's IMPs and VPs, the standings), and the trail shows it — which table, from what to what,
by whom — in the reader's language; a Swiss round's pairing is in the trail; the projector shows
the players' standings only (no board before every table has played it, whoever opens it) and
its live partial answers 204 while nothing changed."""

from __future__ import annotations

import re
from html import unescape

from app.competition.duplicate import vp
from app.extensions import db
from app.models import AuditEntry, DuplicateEvent
from app.services.duplicate import events as svc
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.forms import submit
from tests.tournaments.tournament_helpers import audit_rows as _audit_rows
from tests.tournaments.tournament_helpers import login, world


def _pct(page: str) -> dict[str, float]:
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td>([\d.]+)%</td>", page)
    return {unescape(name): float(p) for _, name, p in rows}


def _post_board(client, base: str, ev: DuplicateEvent, board: int, vals) -> None:  # type: ignore[no-untyped-def]
    data = {}
    for row, (dec, tot) in zip(svc.board_sheet(ev, board), vals, strict=True):
        data[f"{row.key}_declarer"], data[f"{row.key}_total"] = dec, tot
    r = submit(client, f"{base}/boards/{board}", data)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]


def test_a_pairs_correction_rederives_the_field_and_is_in_the_trail(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w, name="Autumn Pairs"))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    ev = db.session.get(DuplicateEvent, did)
    sheet = svc.board_sheet(ev, 1)  # board 1 at three tables
    # values for side A: +40, +15, 0 -> side A pairs 100 %, 50 %, 0 %
    _post_board(client, base, ev, 1, [("0", "40"), ("1", "95"), ("0", "80")])
    login(client, w.player)  # board 1 is complete: the players see its comparison
    before = _pct(client.get(base).get_data(as_text=True))
    a = [row.names[0] for row in sheet]
    b = [row.names[1] for row in sheet]
    assert [before[x] for x in a] == [100.0, 50.0, 0.0]
    assert [before[x] for x in b] == [0.0, 50.0, 100.0]

    # the third table's line corrected to +40: it ties the first; the second table's result is
    # unchanged, yet its pairs now beat nobody (side A) and everybody (side B)
    login(client, w.director)
    _post_board(client, base, ev, 1, [("0", "40"), ("1", "95"), ("0", "40")])
    login(client, w.player)
    page = client.get(base).get_data(as_text=True)
    after = _pct(page)
    assert [after[x] for x in a] == [75.0, 0.0, 75.0]
    assert [after[x] for x in b] == [25.0, 100.0, 25.0]
    # the projector (a player's view) shows the same re-derived standings
    assert _pct(client.get(base + "/projector").get_data(as_text=True)) == after
    # the trail is the directors'
    assert client.get(base + "/audit").status_code == 403

    login(client, w.director)
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    third = sheet[2]
    where = f"board 1, round {third.round}, table {third.table}"
    # newest first: the correction, then the three lines typed in, then the event created
    assert [r[2] for r in rows] == [
        f"board result corrected · {where}",
        *(
            f"board result typed in · board 1, round {s.round}, table {s.table}"
            for s in sorted(sheet, key=lambda s: (s.round, s.table), reverse=True)
        ),
        "duplicate event created · Autumn Pairs",
    ]
    corrected = rows[0]
    assert corrected[1] == "Dora Director"
    assert corrected[3:] == [
        f"Declarer: {third.names[0]}; Attackers' points: 80",
        f"Declarer: {third.names[0]}; Attackers' points: 40",
    ]
    assert "Format: Pairs or trios across the field (matchpoints)" in rows[-1][4]
    assert "Seed: 77" in rows[-1][4]
    # a line the director empties is removed, in the trail too
    _post_board(client, base, ev, 1, [("0", "40"), ("1", "95"), ("", "")])
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[0][2] == f"board result removed · {where}" and rows[0][4] == ""
    # in the reader's language
    client.post("/lang", data={"lang": "zh"})
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[1][2] == f"更正牌副成绩 · 第 1 副牌，第 {third.round} 轮，第 {third.table} 桌"
    assert rows[1][3] == f"庄家: {third.names[0]}; 闲家得分: 80"
    # the trail is the event's own: no tournament's page lists it
    assert db.session.query(AuditEntry).filter(AuditEntry.tournament_id.is_not(None)).count() == 0


def test_a_team_correction_rederives_imps_vps_and_standings(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(
        _create(client, w, name="Teams", kind="teams", entrants="红队\n蓝队", boards_per_round=2)
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    ev = db.session.get(DuplicateEvent, did)
    # board 1: 红队 +40 at table 1, +10 at table 2 (蓝队 · 2 declares 90): 50 -> 4 IMPs
    _post_board(client, base, ev, 1, [("0", "40"), ("0", "90")])
    _post_board(client, base, ev, 2, [("1", "60"), ("1", "60")])
    login(client, w.player)
    page = client.get(base).get_data(as_text=True)
    win, lose = (f"{x:.2f}" for x in vp(2, 4))
    assert "IMPs 4:0" in page
    assert f"<td>1</td><td>红队</td><td>{win}</td><td>4</td><td>0</td>" in page
    assert f"<td>2</td><td>蓝队</td><td>{lose}</td><td>0</td><td>4</td>" in page

    # table 2's line of board 1 corrected (蓝队 · 2 held the attackers to 40): 红队 -40 there,
    # the board is a push, the match a draw
    login(client, w.director)
    _post_board(client, base, ev, 1, [("0", "40"), ("0", "40")])
    login(client, w.player)
    page = client.get(base).get_data(as_text=True)
    even = f"{vp(2, 0)[0]:.2f}"
    assert "IMPs 0:0" in page and "IMPs 4:0" not in page
    assert f"<td>1</td><td>红队</td><td>{even}</td><td>0</td><td>0</td>" in page
    assert f"<td>1</td><td>蓝队</td><td>{even}</td><td>0</td><td>0</td>" in page
    projector = client.get(base + "/projector").get_data(as_text=True)
    assert "IMPs 0:0" in projector and f"<td>红队</td><td>{even}</td>" in projector

    login(client, w.director)
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[0][1:] == [
        "Dora Director",
        "board result corrected · board 1, round 1, table 2",
        "Declarer: 蓝队 · 2; Attackers' points: 90",
        "Declarer: 蓝队 · 2; Attackers' points: 40",
    ]
    assert sum(r[2].startswith("board result corrected") for r in rows) == 1  # table 1: same
    assert "Team matches: Round robin" in rows[-1][4]


def test_a_swiss_pairing_is_in_the_trail(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(
        _create(
            client,
            w,
            name="Swiss",
            kind="teams",
            pairing="swiss",
            rounds=2,
            entrants="Alpha\nBravo\nCharlie",
            boards_per_round=1,
        )
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    ev = db.session.get(DuplicateEvent, did)
    (first,) = ev.paired_rounds
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    names = ev.entrants
    a, b = first.pairs[0]
    assert rows[0][1:3] == ["Dora Director", "round paired · round 1"]
    assert rows[0][4] == f"Matches: {names[a]} – {names[b]}; Sitting out: {names[first.bye]}"
    assert rows[1][2] == "duplicate event created · Swiss"
    _post_board(client, base, ev, 1, [("0", "40"), ("0", "60")])
    assert client.post(base + "/pair").status_code == 303
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[0][2] == "round paired · round 2" and "Sitting out: " in rows[0][4]


def test_the_projector_shows_only_what_players_see(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w, name="Projected"))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    ev = db.session.get(DuplicateEvent, did)
    sheet = svc.board_sheet(ev, 1)
    data = {f"{sheet[0].key}_declarer": "0", f"{sheet[0].key}_total": "40"}
    assert submit(client, base + "/boards/1", data).status_code == 303
    # the director's event page counts the incomplete board; the projector, opened by the same
    # director, does not (nor does its partial), and has no director's control
    assert "1 of 3 tables" in (director := client.get(base).get_data(as_text=True))
    assert "50.00%" in director  # a lone result, compared with nobody yet
    r = client.get(base + "/projector")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'class="projector"' in page
    assert "No board has been scored yet." in page and "50.00%" not in page
    assert "0 of 3 boards complete" in page
    for control in ("/boards/1", "hand-records", "travellers", "/audit", "online", "<form"):
        assert control not in page.split("<main")[1], control
    version = db.session.get(DuplicateEvent, did).version
    live = f"{base}/standings/live?v={version}"
    assert f'hx-get="{live}"' in page
    r = client.get(live)
    assert r.status_code == 204 and r.get_data() == b""
    # the board completed: the partial polled with the old version has it
    data = {}
    for row, (dec, tot) in zip(sheet, [("0", "40"), ("1", "95"), ("0", "80")], strict=True):
        data[f"{row.key}_declarer"], data[f"{row.key}_total"] = dec, tot
    assert submit(client, base + "/boards/1", data).status_code == 303
    login(client, w.player)
    r = client.get(live)
    part = r.get_data(as_text=True)
    assert r.status_code == 200 and "1 of 3 boards complete" in part
    assert _pct(part)[sheet[0].names[0]] == 100.0 and "<html" not in part
    now = db.session.get(DuplicateEvent, did).version
    assert f'hx-get="{base}/standings/live?v={now}"' in part
    assert client.get(f"{base}/standings/live?v={now}").status_code == 204
    # another club's members see nothing of it
    client.post("/account/logout")
    login(client, w.outsider)
    assert client.get(base + "/projector").status_code in (403, 404)
    assert client.get(live).status_code in (403, 404)


def test_a_red_five_correction_rederives_the_seats_and_names_them(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    names = "\n".join(f"选手{i}" for i in range(10))
    did = _event_id(
        _create(client, w, name="Red", variant="red-five-5p", kind="individuals", entrants=names)
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    ev = db.session.get(DuplicateEvent, did)
    one, two = svc.board_sheet(ev, 1)
    lines = [["2", "-1", "-1", "1", "-1"], ["-2", "1", "1", "-1", "1"]]

    def post() -> None:
        data = {
            f"{row.key}_s{i}": v
            for row, vals in zip((one, two), lines, strict=True)
            for i, v in enumerate(vals)
        }
        assert submit(client, f"{base}/boards/1", data).status_code == 303

    post()
    assert (_pct(client.get(base).get_data(as_text=True))[two.names[0]]) == 0.0
    lines[1] = ["2", "-1", "-1", "1", "-1"]  # table 2's seat 0 won too: the seats tie
    post()
    pct = _pct(client.get(base).get_data(as_text=True))
    assert pct[one.names[0]] == pct[two.names[0]] == 50.0
    rows = _audit_rows(client.get(base + "/audit").get_data(as_text=True))
    assert rows[0][2] == f"board result corrected · board 1, round {two.round}, table {two.table}"
    n = two.names
    assert rows[0][3:] == [
        f"积分 changes: {n[0]} -2, {n[1]} +1, {n[2]} +1, {n[3]} -1, {n[4]} +1",
        f"积分 changes: {n[0]} +2, {n[1]} -1, {n[2]} -1, {n[3]} +1, {n[4]} -1",
    ]
