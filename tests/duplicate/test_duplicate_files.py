"""A duplicate event's files: the event file (the tournament file's optional ``duplicate`` part)
exported and imported into another club with identical standings (pairs, a Swiss of teams, red
five), bad files refused in the reader's language with nothing saved, the tournament importer
refusing an event file with a sentence; the CSV files with no peeking for players and formulas
neutralised; ``flask duplicate import | export | csv``."""

from __future__ import annotations

import csv
import io
import json
import re

from sqlalchemy import func, select

from app.competition import tfile
from app.extensions import db
from app.models import Club, DuplicateEvent, DuplicateResult, DuplicateRound
from app.services.duplicate import events as svc
from tests.duplicate.test_duplicate_audit import _audit_rows
from tests.duplicate.test_duplicate_pages import PAIRS, _create, _event_id
from tests.duplicate.test_duplicate_swiss import _enter, _swiss
from tests.forms import submit
from tests.tournaments.tournament_helpers import login, world


def _fill(client, base: str, did: int, board: int, values: list[tuple[str, str]]) -> None:  # type: ignore[no-untyped-def]
    db.session.expire_all()
    sheet = svc.board_sheet(db.session.get(DuplicateEvent, did), board)
    data = {}
    for row, (dec, tot) in zip(sheet, values, strict=False):
        data[f"{row.key}_declarer"], data[f"{row.key}_total"] = dec, tot
    assert submit(client, f"{base}/boards/{board}", data).status_code == 303


def _standings(page: str) -> str:
    """The event page's standings and team matches, as the reader sees them."""
    part = page.split("<h2>Standings</h2>", 1)[1].split("<h2>Boards</h2>", 1)[0]
    part = re.sub(r"<form.*?</form>", "", part, flags=re.S)  # its URLs name the event
    part = re.sub(r'<p class="actions">.*?</p>', "", part, flags=re.S)  # so do its links
    part = re.sub(r' data-version="\d+"', "", part)  # the event's own count of changes
    assert "<table" in part
    return re.sub(r"\s+", " ", part)


def _upload(client, slug: str, doc: object, **headers: str):  # type: ignore[no-untyped-def]
    raw = doc if isinstance(doc, bytes) else json.dumps(doc, ensure_ascii=False).encode()
    return client.post(
        f"/clubs/{slug}/duplicate/import",
        data={"file": (io.BytesIO(raw), "event.json"), "import-name": ""},
        headers=headers,
    )


def _count() -> tuple[int, int, int]:
    return (
        db.session.scalar(select(func.count(DuplicateEvent.id))) or 0,
        db.session.scalar(select(func.count(DuplicateResult.id))) or 0,
        db.session.scalar(select(func.count(DuplicateRound.id))) or 0,
    )


def _round_trip(client, w, did: int) -> tuple[dict, int]:  # type: ignore[no-untyped-def]
    """Export from the club, import into the other club (its owner), check the pages."""
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    before = client.get(base).get_data(as_text=True)
    r = client.get(base + "/event.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert "attachment" in r.headers["Content-Disposition"]
    doc = json.loads(r.get_data(as_text=True))
    client.post("/account/logout")
    login(client, w.outsider)
    r = _upload(client, w.other_club.slug, doc)
    assert r.status_code == 303, re.findall(r'<p class="error">(.*?)</p>', r.get_data(as_text=True))
    new = _event_id(r)
    other = f"/clubs/{w.other_club.slug}/duplicate/{new}"
    after = client.get(other).get_data(as_text=True)
    assert _standings(after) == _standings(before)
    again = json.loads(client.get(other + "/event.json").get_data(as_text=True))
    assert again["club"] == "Other Club" and again == {**doc, "club": "Other Club"}
    # the new event's trail begins with the import: by whom, with how many results
    trail = _audit_rows(client.get(other + "/audit").get_data(as_text=True))
    assert len(trail) == 1, trail
    assert trail[0][2].startswith("duplicate event imported from a file · "), trail
    assert f"Results: {len(doc['duplicate']['results'])}" in trail[0][4], trail
    client.post("/account/logout")
    login(client, w.director)
    return doc, new


def test_pairs_event_round_trip_into_another_club(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 1, [("0", "40"), ("1", "95"), ("0", "80")])
    _fill(client, base, did, 2, [("1", "120"), ("0", "35")])  # one table still to play
    page = client.get(base).get_data(as_text=True)
    assert "Event file (JSON" in page and "Board by board results (CSV)" in page
    zh = client.get(base, headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "赛事文件（JSON" in zh and "逐副结果（CSV）" in zh and "排名（CSV）" in zh
    index = client.get(f"/clubs/{w.club.slug}/duplicate", headers={"Accept-Language": "zh-CN"})
    assert "导入复式赛事" in index.get_data(as_text=True)
    doc, new = _round_trip(client, w, did)
    assert doc["format"] == "shengji-tournament/1" and doc["club"] == "Test Club"
    assert "played" not in doc and "entrants" not in doc  # the tournament part: the envelope
    ev = doc["duplicate"]
    assert ev["kind"] == "pairs" and ev["seed"] == 77 and ev["entrants"] == PAIRS
    event = db.session.get(DuplicateEvent, did)
    boards = svc.boards_of(event)
    assert [b["seed"] for b in ev["boards"]] == [b.seed for b in boards]
    assert [b["first_drawer"] for b in ev["boards"]] == [b.deal().first_drawer for b in boards]
    assert {b["level"] for b in ev["boards"]} == {"2"}
    assert len(ev["results"]) == 5
    first = ev["results"][0]
    assert first["board"] == 1 and first["round"] == 1 and first["table"] == 1
    assert first["declarer"] == 0 and first["total"] == 40 and len(first["sides"]) == 2
    # the imported event plays on: its results are rows of its own
    moved = db.session.get(DuplicateEvent, new)
    assert moved.club_id == w.other_club.id and len(moved.results) == 5
    assert moved.results[0].event_id == new


def test_swiss_teams_round_trip_keeps_the_stored_pairings(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_swiss(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    win, lose = ("0", "0"), ("0", "40")
    assert _enter(client, base, did, 1, {1: win, 2: lose, 3: win, 4: lose}).status_code == 303
    assert client.post(base + "/pair").status_code == 303
    assert _enter(client, base, did, 2, {1: lose, 2: win}).status_code == 303
    doc, new = _round_trip(client, w, did)
    paired = doc["duplicate"]["paired"]
    assert [p["round"] for p in paired] == [1, 2]
    assert paired[0]["matches"] == [["红队", "黄队"], ["蓝队", "绿队"]]
    assert paired[0]["bye"] == "白队" and paired[0]["paired_by"] == "Dora Director"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", paired[1]["paired_at"])
    src = db.session.get(DuplicateEvent, did)
    dst = db.session.get(DuplicateEvent, new)
    assert [(x.round, x.pairs, x.bye, x.vps) for x in dst.paired_rounds] == [
        (x.round, x.pairs, x.bye, x.vps) for x in src.paired_rounds
    ]
    login(client, w.outsider)
    page = client.get(f"/clubs/{w.other_club.slug}/duplicate/{new}").get_data(as_text=True)
    assert "Paired by Dora Director" in page and "Pair round 3" in page


def test_red_five_round_trip(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    players = "\n".join(["甲", "乙", "丙", "丁", "戊"])
    did = _event_id(
        _create(client, w, name="红五", variant="red-five-5p", kind="individuals", entrants=players)
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    db.session.expire_all()
    row = svc.board_sheet(db.session.get(DuplicateEvent, did), 1)[0]
    data = {f"{row.key}_s{i}": str(x) for i, x in enumerate([4, 2, -2, -2, -2])}
    assert submit(client, f"{base}/boards/1", data).status_code == 303
    doc, _new = _round_trip(client, w, did)
    (res,) = doc["duplicate"]["results"]
    assert res["scores"] == [4, 2, -2, -2, -2] and len(res["players"]) == 5
    assert "declarer" not in res


def test_bad_files_are_refused_in_the_readers_language_and_save_nothing(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 1, [("0", "40"), ("1", "95"), ("0", "80")])
    good = json.loads(client.get(base + "/event.json").get_data(as_text=True))
    before = _count()

    def refused(doc: object, *words: str, lang: str = "en") -> None:
        r = _upload(client, w.club.slug, doc, **{"Accept-Language": lang})
        assert r.status_code == 422
        text = r.get_data(as_text=True)
        for x in words:
            assert x in text, (x, text[text.find("error") - 200 :][:2000])
        assert _count() == before

    # the same name in the same club
    refused(good, "already has a duplicate event of that name")
    taken = json.loads(json.dumps(good))
    good["name"] = "Moved"
    bad = json.loads(json.dumps(good))
    bad["duplicate"]["results"][2]["total"] = 37
    bad["duplicate"]["results"][0]["declarer"] = 2
    refused(
        bad,
        "duplicate.results[2].total: The attackers&#39; points must be a multiple of 5 from 0 "
        "to 800, not 37.",
        "duplicate.results[0].declarer: The declaring side is 0 or 1, not 2.",
    )
    refused(bad, "攻方分数必须是 5 的倍数", lang="zh-CN")
    bad = json.loads(json.dumps(good))
    bad["duplicate"]["boards"][1]["seed"] += 1
    refused(bad, "duplicate.boards[1].seed: The event deals", "not the cards")
    bad = json.loads(json.dumps(good))
    bad["duplicate"]["results"][1]["table"] = 9
    refused(bad, "No table plays board 1 at table 9 in round 2.")
    bad = json.loads(json.dumps(good))
    bad["duplicate"]["results"][1]["sides"] = bad["duplicate"]["results"][1]["sides"][::-1]
    refused(bad, "duplicate.results[1].sides: The movement seats")
    bad = json.loads(json.dumps(good))
    bad["duplicate"]["entrants"] = ["A", "A", "B", "C", "D", "E"]
    bad["duplicate"]["kind"] = "teamz"
    refused(bad, "A is listed twice", "duplicate.kind: &#39;teamz&#39; is not one of the formats")
    refused(b"{not json", "This is not a JSON file")
    refused(b"[" * 100_000 + b"]" * 100_000, "This is not a JSON file")  # nested too deeply
    refused(b'{"format": ' + b"9" * 5000 + b"}", "This is not a JSON file")
    refused(b"\xff\xfe{}", "The file is not UTF-8 text.")
    refused(bad, "不是", lang="zh-CN")
    tournament = {"format": "shengji-tournament/1", "club": "Test Club", "name": "Cup"}
    refused(tournament, "This file holds no duplicate event")
    # the name taken: the director names the event anew on the form
    r = client.post(
        f"/clubs/{w.club.slug}/duplicate/import",
        data={"file": (io.BytesIO(json.dumps(taken).encode()), "e.json"), "import-name": ""},
    )
    assert r.status_code == 422 and "already has a duplicate event" in r.get_data(as_text=True)
    assert _count() == before
    r = client.post(
        f"/clubs/{w.club.slug}/duplicate/import",
        data={"file": (io.BytesIO(json.dumps(taken).encode()), "e.json"), "import-name": "Copy"},
    )
    assert r.status_code == 303
    copy = db.session.get(DuplicateEvent, _event_id(r))
    assert copy.name == "Copy" and copy.club_id == w.club.id and len(copy.results) == 3
    assert _count() == (before[0] + 1, before[1] + 3, before[2])
    before = _count()
    # a player imports nothing
    client.post("/account/logout")
    login(client, w.player)
    assert _upload(client, w.club.slug, good).status_code == 403
    assert _count() == before


def test_the_tournament_importer_refuses_an_event_file_with_a_sentence(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    doc = json.loads(
        client.get(f"/clubs/{w.club.slug}/duplicate/{did}/event.json").get_data(as_text=True)
    )
    try:
        tfile.load(doc)
    except tfile.TournamentFileError as error:
        assert [e.path for e in error.errors] == ["duplicate"]
        assert "holds a duplicate event" in str(error)
    else:  # pragma: no cover
        raise AssertionError("a duplicate event file is not a tournament")
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/import",
        data={"file": (io.BytesIO(json.dumps(doc).encode()), "event.json")},
    )
    assert r.status_code == 422 and "holds a duplicate event" in r.get_data(as_text=True)


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def test_csv_files_no_peeking_and_formulas_neutralised(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    names = ["=HYPERLINK(1)", *PAIRS[1:]]
    did = _event_id(_create(client, w, entrants="\n".join(names)))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 1, [("0", "40"), ("1", "95"), ("0", "80")])
    _fill(client, base, did, 2, [("1", "120")])  # board 2: one of its three tables
    director = _rows(client.get(base + "/boards.csv").get_data(as_text=True))
    assert director[0][:8] == [
        "board",
        "round",
        "table",
        "side0",
        "side1",
        "declarer",
        "total",
        "value0",
    ]
    assert [r[0] for r in director[1:]] == ["1", "1", "1", "2"]
    # board 1: values +40, +15, 0 for side 0 -> matchpoints 4, 2, 0 of 4
    assert [(r[7], r[8], r[10]) for r in director[1:4]] == [
        ("40", "4", "100.0"),
        ("15", "2", "50.0"),
        ("0", "0", "0.0"),
    ]
    assert any(c == "'=HYPERLINK(1)" for r in director for c in r)
    assert not any(c.startswith("=") for r in director for c in r)
    standings = _rows(client.get(base + "/standings.csv").get_data(as_text=True))
    assert standings[0] == ["rank", "entrant", "percent", "matchpoints", "top", "boards"]
    assert len(standings) == 7
    client.post("/account/logout")
    login(client, w.player)
    page = client.get(base).get_data(as_text=True)
    assert "Board by board results (CSV)" in page and "Event file" not in page
    player = _rows(client.get(base + "/boards.csv").get_data(as_text=True))
    assert [r[0] for r in player[1:]] == ["1", "1", "1"]  # board 2 is not complete: hidden
    assert player == director[:4]
    mine = _rows(client.get(base + "/standings.csv").get_data(as_text=True))
    # board 2's lone result counts for the director only: a player's standings are board 1's
    shown = svc.standings_page(db.session.get(DuplicateEvent, did), False)["field_rows"]
    assert [(r[1].lstrip("'"), float(r[2])) for r in mine[1:]] == [
        (x["name"], x["pct"]) for x in shown
    ]
    assert mine != standings
    assert client.get(base + "/event.json").status_code == 403


def test_team_csv_has_the_imps_of_both_tables(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(
        _create(client, w, name="Teams", kind="teams", entrants="红队\n蓝队", boards_per_round=2)
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 1, [("0", "40"), ("0", "90")])  # +40 and -10: d = 50, 4 IMPs
    _fill(client, base, did, 2, [("1", "60")])
    rows = _rows(client.get(base + "/boards.csv").get_data(as_text=True))
    assert rows[0][-3:] == ["value0", "imps_side0", "imps_side1"]
    assert [(r[0], r[2], r[8], r[9], r[10]) for r in rows[1:]] == [
        ("1", "1", "40", "4", "-4"),
        ("1", "2", "-10", "-4", "4"),
        ("2", "1", "-20", "", ""),
    ]
    standings = _rows(client.get(base + "/standings.csv").get_data(as_text=True))
    assert standings[0][:3] == ["rank", "team", "vp"] and standings[1][1] == "红队"


def test_cli_export_import_and_csv(app, client, runner, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    _fill(client, f"/clubs/{w.club.slug}/duplicate/{did}", did, 1, [("0", "40"), ("1", "95")])
    out = runner.invoke(args=["duplicate", "export", "Test Club", "秋季复式 Autumn Pairs"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert len(doc["duplicate"]["results"]) == 2
    path = tmp_path / "event.json"
    path.write_text(out.stdout, encoding="utf-8")
    r = runner.invoke(args=["duplicate", "import", str(path), "--club", "New Club"])
    assert r.exit_code == 0, r.output
    club = db.session.scalar(select(Club).where(Club.name == "New Club"))
    assert club is not None
    moved = db.session.scalar(select(DuplicateEvent).where(DuplicateEvent.club_id == club.id))
    assert moved is not None and len(moved.results) == 2
    r = runner.invoke(args=["duplicate", "import", str(path), "--club", "New Club"])
    assert r.exit_code == 1 and "already has a duplicate event" in r.output
    doc["duplicate"]["seed"] = -1
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = runner.invoke(args=["duplicate", "import", str(path), "--club", "Third Club"])
    assert r.exit_code == 1 and "duplicate.seed: must be a whole number from 0" in r.output
    assert db.session.scalar(select(Club).where(Club.name == "Third Club")) is None
    r = runner.invoke(
        args=["duplicate", "csv", "Test Club", "秋季复式 Autumn Pairs", "--what", "boards"]
    )
    assert r.exit_code == 0 and r.stdout.startswith("board,round,table,side0")
    r = runner.invoke(args=["duplicate", "export", "Test Club", "Nope"])
    assert r.exit_code == 1
