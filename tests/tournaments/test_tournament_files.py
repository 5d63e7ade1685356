"""Files: the CLI (import, export round trip, standings --json, sheets, csv), import errors by
JSON path, CSV formula injection, PDF downloads, live standings polling (204)."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from typing import Any

import pypdf
import pytest
from sqlalchemy import func, select
from tournament_helpers import create, fixed_deal, login, seat, sheet_url, world

from app.competition import tfile
from app.extensions import db
from app.models import Club, Tournament
from app.services.tournaments.csv_export import safe_cell
from tests.competition.tfile_examples import EXAMPLE, EXAMPLE_TEXT, ONE20, RED_FIVE


def _import(runner, tmp_path, doc: Any, name: str = "t.json"):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False), "utf-8")
    return runner.invoke(args=["tournament", "import", str(path)])


def test_cli_round_trip_of_the_documented_example(runner, tmp_path):
    r = _import(runner, tmp_path, EXAMPLE_TEXT)
    assert r.exit_code == 0, r.output
    out = runner.invoke(args=["tournament", "export", "Autumn Cup 2026"])
    assert out.exit_code == 0
    exported = json.loads(out.stdout)
    assert exported == json.loads(EXAMPLE_TEXT)
    assert list(exported) == list(json.loads(EXAMPLE_TEXT))  # documented key order
    # export → import under a new name → export again: identical, and identical standings
    again = copy.deepcopy(exported)
    again["name"] = "Autumn Cup 2026 (copy)"
    assert _import(runner, tmp_path, again, "again.json").exit_code == 0
    second = json.loads(runner.invoke(args=["tournament", "export", again["name"]]).stdout)
    assert second == again
    s1 = runner.invoke(args=["tournament", "standings", "Autumn Cup 2026", "--json"])
    s2 = runner.invoke(args=["tournament", "standings", again["name"], "--json"])
    assert s1.exit_code == 0 and json.loads(s1.stdout) == json.loads(s2.stdout)
    assert json.loads(s1.stdout) == tfile.standings_json(tfile.load(json.loads(EXAMPLE_TEXT)))
    assert [row["entrant"] for row in json.loads(s1.stdout)] == [
        "Wang & Zhao",
        "Chen & Liu",
        "Li & Zhang",
    ]
    # the club was created by exact name
    assert db.session.scalar(select(Club).where(Club.name == "Riverside Card Club")) is not None


def test_cli_utf8_output_and_errors(runner, tmp_path):
    doc = json.loads(EXAMPLE_TEXT)
    doc["name"] = "秋季杯"
    doc["club"] = "河畔俱乐部"
    assert _import(runner, tmp_path, doc).exit_code == 0
    out = runner.invoke(args=["tournament", "export", "秋季杯"])
    assert "秋季杯" in out.stdout_bytes.decode("utf-8")  # non-ASCII as is, not \\u escapes
    assert "\\u" not in out.stdout
    dup = _import(runner, tmp_path, doc)
    assert dup.exit_code == 1 and "already exists" in dup.stderr
    for args in (["export", "nope"], ["standings", "nope", "--json"]):
        r = runner.invoke(args=["tournament", *args])
        assert r.exit_code == 1 and r.stdout == "" and "no tournament" in r.stderr


def test_import_lists_every_error_and_creates_nothing(runner, tmp_path):
    doc = json.loads(EXAMPLE_TEXT)
    deals = doc["played"][0]["tables"][0]["deals"]
    deals[0]["points"] = 87
    deals[1]["kitty"] = 12
    doc["entrants"][1]["players"] = ["Only One"]
    r = _import(runner, tmp_path, doc)
    assert r.exit_code == 1
    assert "played[0].tables[0].deals[0].points: 87 is not a multiple of 5" in r.stderr
    assert "played[0].tables[0].deals[1].kitty" in r.stderr
    assert "entrants[1].players" in r.stderr
    assert r.stdout == ""
    assert db.session.scalar(select(func.count(Tournament.id))) == 0
    assert db.session.scalar(select(func.count(Club.id))) == 0
    bad = _import(runner, tmp_path, "{not json")
    assert bad.exit_code == 1 and "not JSON" in bad.stderr
    missing = runner.invoke(args=["tournament", "import", str(tmp_path / "missing.json")])
    assert missing.exit_code == 1 and missing.stderr.startswith("error: cannot read")
    folder = runner.invoke(args=["tournament", "import", str(tmp_path)])
    assert folder.exit_code == 1 and folder.stderr.startswith("error: cannot read"), folder.output


def test_import_accepts_a_byte_order_mark(runner, client, tmp_path):
    """Windows editors and spreadsheet tools save UTF-8 with a BOM: such a file imports as is."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE_TEXT.encode("utf-8"))
    r = runner.invoke(args=["tournament", "import", str(path)])
    assert r.exit_code == 0, r.output
    w = world()
    login(client, w.director)
    doc = json.loads(EXAMPLE_TEXT)
    doc["club"], doc["name"] = w.club.name, "Uploaded with a BOM"
    body = b"\xef\xbb\xbf" + json.dumps(doc, ensure_ascii=False).encode("utf-8")
    url = f"/clubs/{w.club.slug}/tournaments/import"
    r = client.post(url, data={"file": (io.BytesIO(body), "t.json")})
    assert r.status_code == 303, r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Tournament.id))) == 2


def test_import_upload_form(client, tmp_path):
    w = world()
    login(client, w.director)
    doc = json.loads(EXAMPLE_TEXT)
    doc["club"] = w.club.name
    url = f"/clubs/{w.club.slug}/tournaments/import"
    data = {"file": (io.BytesIO(json.dumps(doc).encode()), "t.json")}
    r = client.post(url, data=data, content_type="multipart/form-data")
    assert r.status_code == 303
    doc["name"] = "Other"
    doc["played"][0]["tables"][0]["deals"][0]["points"] = 87
    data = {"file": (io.BytesIO(json.dumps(doc).encode()), "t.json")}
    r = client.post(url, data=data, content_type="multipart/form-data")
    assert r.status_code == 422
    assert "deals[0].points: 87 is not a multiple of 5" in r.get_data(as_text=True)
    doc["played"][0]["tables"][0]["deals"][0]["points"] = 85
    doc["club"] = "Riverside Card Club"
    data = {"file": (io.BytesIO(json.dumps(doc).encode()), "t.json")}
    r = client.post(url, data=data, content_type="multipart/form-data")
    assert r.status_code == 422 and "is for the club" in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Tournament.id))) == 1


def _evil_tournament(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    for players in (("=1+2", "@SUM(A1)"), ("+cmd", "-2"), ("李伟", "张敏"), ("Tab\tStart", "ok")):
        data = {"player_0": players[0], "player_1": players[1]}
        client.post(f"{base}/entrants", data=data)
    client.post(
        f"{base}/entrants", data={"name": '=HYPERLINK("x")', "player_0": "a", "player_1": "b"}
    )
    rnd = seat(client, w.club, t)
    for tab in rnd.tables:
        if tab.kind == "sides":
            url = sheet_url(w.club, t, rnd, tab)
            assert client.post(url, data=fixed_deal(0, 85)).status_code == 303
    return w, t, base, rnd


def test_csv_neutralizes_formulas(client):
    w, t, base, rnd = _evil_tournament(client)
    for name in ("standings.csv", "deals.csv"):
        r = client.get(f"{base}/{name}")
        assert r.status_code == 200 and r.mimetype == "text/csv"
        text = r.get_data(as_text=True).lstrip("\ufeff")
        rows = list(csv.reader(io.StringIO(text)))
        cells = [c for row in rows for c in row]
        for c in cells:
            if re.fullmatch(r"-[0-9]+", c):
                continue  # a number the app computed (a negative 级差): kept a number
            assert not c.startswith(("=", "+", "-", "@", "\t", "\r")), c
        assert any(c.startswith("'=") for c in cells)
    standings = client.get(f"{base}/standings.csv").get_data(as_text=True)
    assert "'=HYPERLINK" in standings and "李伟" in standings


def test_csv_keeps_negative_numbers_numbers(client):
    """A spreadsheet sorts and sums the 级差 column: a loser's -N is a number, not the text '-N."""
    w, t, base, rnd = _evil_tournament(client)
    for tab in rnd.tables:
        if tab.kind == "sides":  # second deal: the declarers (side 1) win, the match is 4 : 2
            url = sheet_url(w.club, t, rnd, tab)
            assert client.post(url, data=fixed_deal(1, 40)).status_code == 303
    text = client.get(f"{base}/standings.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text)))
    diffs = [row["level_diff"] for row in rows]
    assert any(d.startswith("-") for d in diffs), diffs
    for d in diffs:
        assert re.fullmatch(r"-?[0-9]+", d), d
    assert safe_cell(-2) == "-2" and safe_cell("-2") == "'-2"  # typed text stays neutralized


@pytest.mark.parametrize(
    "path",
    [
        "standings.pdf",
        "standings.pdf?size=Letter",
        "rounds/1/pack.pdf",
        "rounds/1/sheets.pdf?filled=1",
        "rounds/1/cards.pdf",
        "rounds/1/pairings.pdf",
        "rounds/1/tables/1/sheet.pdf?filled=1",
    ],
)
def test_pdf_downloads_open_and_hold_names(client, path):
    w, t, base, rnd = _evil_tournament(client)
    r = client.get(f"{base}/{path}")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(r.data))
    text = "".join(p.extract_text() for p in reader.pages)
    assert len(reader.pages) >= 1
    first_table = rnd.tables[0]
    name = first_table.seats[0].entrant.players[0].name
    assert name in text or first_table.seats[0].entrant.name in text


def test_cli_sheets_writes_the_pack(client, runner, tmp_path):
    w, t, base, rnd = _evil_tournament(client)
    out = tmp_path / "pack.pdf"
    r = runner.invoke(args=["tournament", "sheets", t.name, "--round", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = "".join(p.extract_text() for p in pypdf.PdfReader(str(out)).pages)
    assert "李伟" in text
    r = runner.invoke(args=["tournament", "sheets", t.name, "--round", "7", "-o", str(out)])
    assert r.exit_code == 1 and "no round 7" in r.stderr
    for where in (tmp_path / "no-such-folder" / "pack.pdf", tmp_path):  # unwritable: exit 1
        r = runner.invoke(args=["tournament", "sheets", t.name, "--round", "1", "-o", str(where)])
        assert r.exit_code == 1 and r.stderr.startswith(f"error: cannot write {where}"), r.output
    r = runner.invoke(args=["tournament", "csv", t.name, "--what", "deals"])
    assert r.exit_code == 0 and "'=1+2" in r.stdout


def test_standings_polling_answers_204_when_unchanged(client):
    w, t, base, rnd = _evil_tournament(client)
    page = client.get(f"/standings/{t.id}").get_data(as_text=True)
    db.session.expire_all()
    version = db.session.get(Tournament, t.id).version  # type: ignore[union-attr]
    assert f'data-version="{version}"' in page and 'hx-trigger="every 3s"' in page
    r = client.get(f"/standings/{t.id}/live?v={version}")
    assert r.status_code == 204 and r.data == b""
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    assert client.post(url, data=fixed_deal(0, 85)).status_code == 303
    r = client.get(f"/standings/{t.id}/live?v={version}")
    assert r.status_code == 200
    assert f'data-version="{version + 1}"' in r.get_data(as_text=True)
    assert client.get(f"/standings/{t.id}/live?v={version + 1}").status_code == 204
    assert client.get("/standings/999/live?v=1").status_code == 404


def test_round_trip_through_the_database_for_every_variant(runner, tmp_path):
    for doc in (EXAMPLE, RED_FIVE, ONE20):
        path = tmp_path / "doc.json"
        path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
        r = runner.invoke(args=["tournament", "import", str(path)])
        assert r.exit_code == 0, r.output
        out = runner.invoke(args=["tournament", "export", doc["name"]])
        assert json.loads(out.stdout) == tfile.dump(tfile.load(doc))
        s = runner.invoke(args=["tournament", "standings", doc["name"], "--json"])
        assert json.loads(s.stdout) == tfile.standings_json(tfile.load(doc))
