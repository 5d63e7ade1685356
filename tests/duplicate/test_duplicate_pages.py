"""Duplicate events in the app: a director creates a pairs event and types travellers in board
by board (bad input refused, nothing half-saved), the standings by matchpoints; a team event's
standings by VPs; no peeking for players; the printed hand records and travellers."""

from __future__ import annotations

import io
import re

import pypdf

from app.competition.duplicate import vp
from app.extensions import db
from app.models import DuplicateEvent, DuplicateResult
from app.services.duplicate import events as svc
from tests.forms import submit
from tests.tournaments.tournament_helpers import login, world

PAIRS = ["李伟 / 张敏", "Anna / Ben", "陈静 / 王芳", "Carl / Dana", "赵磊 / 孙丽", "Eve / Finn"]


def _create(client, w, **extra):  # type: ignore[no-untyped-def]
    data = {
        "name": "秋季复式 Autumn Pairs",
        "variant": "tractor-4p",
        "kind": "pairs",
        "entrants": "\n".join(PAIRS),
        "boards_per_round": 1,
        "seed": 77,
    }
    data.update(extra)
    r = client.post(f"/clubs/{w.club.slug}/duplicate", data=data)
    return r


def _event_id(r) -> int:  # type: ignore[no-untyped-def]
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    return int(re.search(r"/duplicate/(\d+)", r.headers["Location"]).group(1))  # type: ignore[union-attr]


def _text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF-")
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def test_director_runs_a_pairs_event_board_by_board(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    page = client.get(base).get_data(as_text=True)
    # 6 pairs: 3 tables, 3 rounds of one board; every board played by 3 tables
    assert "秋季复式 Autumn Pairs" in page and "3 boards" in page and "3 rounds" in page
    assert page.count("0 of 3 tables") == 3
    form = client.get(base + "/boards/1").get_data(as_text=True)
    # declarer and total for each of the 3 tables, and each line as it was shown
    assert len(re.findall(r'name="r\d+t\d+_', form)) == 9
    assert form.count('_shown" value=""') == 3
    # one bad line: nothing saved at all
    bad = {"r1t1_declarer": "0", "r1t1_total": "40", "r2t3_declarer": "1", "r2t3_total": "37"}
    r = submit(client, base + "/boards/1", bad)
    assert r.status_code == 422
    assert "the attackers&#39; points must be a multiple of 5" in r.get_data(as_text=True)
    assert 'value="37"' in r.get_data(as_text=True)  # what was typed stays in the form
    assert db.session.query(DuplicateResult).count() == 0
    r = client.post(base + "/boards/1", data={"r1t1_declarer": "0"})
    assert r.status_code == 422 and "or leave both empty" in r.get_data(as_text=True)
    assert db.session.query(DuplicateResult).count() == 0
    # board 1 at its three tables (round 1 table 1, round 2 table 3, round 3 table 2)
    sheet = svc.board_sheet(db.session.get(DuplicateEvent, did), 1)
    keys = [row.key for row in sheet]
    good = {}
    for k, (dec, tot) in zip(keys, [("0", "40"), ("1", "95"), ("0", "80")], strict=True):
        good[f"{k}_declarer"], good[f"{k}_total"] = dec, tot
    r = submit(client, base + "/boards/1", good)
    assert r.status_code == 303
    ev = db.session.get(DuplicateEvent, did)
    assert len(ev.results) == 3 and ev.version == 2
    page = client.get(base).get_data(as_text=True)
    assert "3 of 3 tables" in page and "complete" in page
    # values for side 0: +40, +15, 0 -> side A pairs 100 %, 50 %, 0 %; side B the reverse
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td>([\d.]+)%</td>", page)
    pct = {name: float(p) for _, name, p in rows}
    first = next(s for s in sheet if s.round == 1)
    assert pct[first.names[0]] == 100.0 and pct[first.names[1]] == 0.0
    assert len(rows) == 6
    # clearing a line removes that result
    cleared = dict(good)
    cleared[f"{keys[0]}_declarer"] = cleared[f"{keys[0]}_total"] = ""
    assert submit(client, base + "/boards/1", cleared).status_code == 303
    db.session.expire_all()
    assert len(db.session.get(DuplicateEvent, did).results) == 2
    assert client.get(base + "/boards/4").status_code == 404


def test_no_peeking_for_players(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    ev = db.session.get(DuplicateEvent, did)
    sheet = svc.board_sheet(ev, 2)
    data = {f"{sheet[0].key}_declarer": "1", f"{sheet[0].key}_total": "120"}
    assert submit(client, f"/clubs/{w.club.slug}/duplicate/{did}/boards/2", data).status_code == 303
    director_view = client.get(f"/clubs/{w.club.slug}/duplicate/{did}").get_data(as_text=True)
    assert "1 of 3 tables" in director_view and "50.00%" in director_view
    client.post("/account/logout")
    login(client, w.player)
    page = client.get(f"/clubs/{w.club.slug}/duplicate/{did}").get_data(as_text=True)
    assert "nobody sees a board's comparison before playing it" in page
    assert "No board has been scored yet." in page and "50.00%" not in page
    # players type nothing and print nothing
    assert (
        client.post(f"/clubs/{w.club.slug}/duplicate/{did}/boards/2", data=data).status_code == 403
    )
    assert client.get(f"/clubs/{w.club.slug}/duplicate/{did}/hand-records.pdf").status_code == 403


def test_bad_events_are_refused_on_their_field(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    r = _create(client, w, entrants="A\nB\nC")
    assert r.status_code == 422 and "Type between 4 and 60 entrants" in r.get_data(as_text=True)
    r = _create(client, w, variant="red-five-5p", kind="pairs")
    assert r.status_code == 422 and "Red five is played by individuals" in r.get_data(as_text=True)
    r = _create(client, w, entrants="A\nA\nB\nC")
    assert r.status_code == 422 and "must be different" in r.get_data(as_text=True)
    assert db.session.query(DuplicateEvent).count() == 0
    assert _create(client, w).status_code == 303
    r = _create(client, w)
    assert r.status_code == 422 and "already has a duplicate event of that name" in r.get_data(
        as_text=True
    )
    client.post("/account/logout")
    login(client, w.player)
    assert _create(client, w, name="Other").status_code == 403
    assert db.session.query(DuplicateEvent).count() == 1


def test_teams_standings_by_vps(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(
        _create(client, w, name="Teams", kind="teams", entrants="红队\n蓝队", boards_per_round=2)
    )
    ev = db.session.get(DuplicateEvent, did)
    for board, vals in ((1, [("0", "40"), ("0", "90")]), (2, [("1", "60"), ("1", "60")])):
        sheet = svc.board_sheet(ev, board)
        assert [row.names for row in sheet] == [("红队 · 1", "蓝队 · 1"), ("蓝队 · 2", "红队 · 2")]
        data = {}
        for row, (dec, tot) in zip(sheet, vals, strict=True):
            data[f"{row.key}_declarer"], data[f"{row.key}_total"] = dec, tot
        assert (
            client.post(
                f"/clubs/{w.club.slug}/duplicate/{did}/boards/{board}", data=data
            ).status_code
            == 303
        )
    page = client.get(f"/clubs/{w.club.slug}/duplicate/{did}").get_data(as_text=True)
    # board 1: table 1 value +40, table 2 -10: d = 50 -> 红队 +4 IMPs; board 2: 0
    assert "IMPs 4:0" in page
    win = f"{vp(2, 4)[0]:.2f}"
    assert f"<td>1</td><td>红队</td><td>{win}</td><td>4</td><td>0</td>" in page


def test_red_five_traveller_adds_up_to_zero(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    names = "\n".join(f"选手{i}" for i in range(10))
    did = _event_id(
        _create(client, w, name="Red", variant="red-five-5p", kind="individuals", entrants=names)
    )
    ev = db.session.get(DuplicateEvent, did)
    sheet = svc.board_sheet(ev, 1)
    assert len(sheet) == 2 and all(len(row.names) == 5 for row in sheet)
    data = {f"{sheet[0].key}_s{i}": v for i, v in enumerate(["2", "-1", "-1", "1", "0"])}
    r = submit(client, f"/clubs/{w.club.slug}/duplicate/{did}/boards/1", data)
    assert r.status_code == 422 and "must add up to 0" in r.get_data(as_text=True)
    data[f"{sheet[0].key}_s4"] = "−1"
    for i, v in enumerate(["-2", "1", "1", "-1", "1"]):
        data[f"{sheet[1].key}_s{i}"] = v
    assert submit(client, f"/clubs/{w.club.slug}/duplicate/{did}/boards/1", data).status_code == 303
    page = client.get(f"/clubs/{w.club.slug}/duplicate/{did}").get_data(as_text=True)
    pct = dict(re.findall(r"<td>(选手\d)</td><td>([\d.]+)%</td>", page))
    assert pct[sheet[0].names[0]] == "100.00" and pct[sheet[1].names[0]] == "0.00"


def test_hand_records_and_travellers(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    r = client.get(base + "/hand-records.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = _text(r.data)
    assert "第 3 副  Board 3" in text and "Par" not in text and "摸牌顺序" not in text
    assert "摸牌顺序" in _text(client.get(base + "/hand-records.pdf?draws=1").data)
    ev = db.session.get(DuplicateEvent, did)
    sheet = svc.board_sheet(ev, 1)
    client.post(
        base + "/boards/1", data={f"{sheet[0].key}_declarer": "0", f"{sheet[0].key}_total": "40"}
    )
    after = _text(client.get(base + "/hand-records.pdf?results=1").data)
    assert "电脑标准 Par" in after and sheet[0].names[0] in after and "+40" in after
    tr = _text(client.get(base + "/travellers.pdf").data)
    assert "记分条 Traveller" in tr and tr.count("第 1 副  Board 1") == 1
    assert "李伟 / 张敏" in tr
    r = client.get(base + "/scorecards.pdf", follow_redirects=True)  # a pairs event
    assert "Team match scorecards are for team events." in r.get_data(as_text=True)


def test_fewer_rounds_share_the_board_sets(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    eight = "\n".join(f"Pair {i}" for i in range(8))  # 4 tables
    r = _create(client, w, name="Short", entrants=eight, rounds=3)
    assert r.status_code == 422
    assert "the pairs play a number of rounds that divides 4" in r.get_data(as_text=True)
    did = _event_id(_create(client, w, name="Short", entrants=eight, rounds=2, boards_per_round=2))
    page = client.get(f"/clubs/{w.club.slug}/duplicate/{did}").get_data(as_text=True)
    # 2 sets of 2 boards, each set at 2 tables at once: every board at all 4 tables
    assert "4 boards" in page and "2 rounds" in page and page.count("0 of 4 tables") == 4


def test_published_after_every_board_is_played(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w, entrants="\n".join(PAIRS[:4])))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    ev = db.session.get(DuplicateEvent, did)
    sheets = {b: svc.board_sheet(ev, b) for b in (1, 2)}
    client.post("/account/logout")
    login(client, w.player)
    assert client.get(base + "/published.pdf").status_code == 404  # the cards are secret
    assert "published.pdf" not in client.get(base).get_data(as_text=True)
    client.post("/account/logout")
    login(client, w.director)
    for b, rows in sheets.items():
        data = {}
        for row in rows:  # table 1 always holds the attackers to 40, table 2 to 95
            data[f"{row.key}_declarer"] = "0"
            data[f"{row.key}_total"] = "40" if row.table == 1 else "95"
        assert submit(client, f"{base}/boards/{b}", data).status_code == 303
    client.post("/account/logout")
    login(client, w.player)
    page = client.get(base).get_data(as_text=True)
    assert "published.pdf" in page and "100.00%" in page
    text = _text(client.get(base + "/published.pdf").data)
    assert text.count("电脑标准 Par") == 2 and "+40" in text and "-15" in text
    assert "MP 2:0 · 100.00%" in text and "MP 0:2 · 0.00%" in text


def test_another_clubs_event_is_not_found(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    client.post("/account/logout")
    login(client, w.outsider)
    assert client.get(f"/clubs/{w.club.slug}/duplicate/{did}").status_code == 404
    assert client.get(f"/clubs/{w.other_club.slug}/duplicate/{did}").status_code == 404
