"""An import holds no write lock while it reads, checks and derives the file: a director at
another tournament can enter a score meanwhile (a large file takes seconds to check; on SQLite
a score entry used to wait for the whole import, and fail after the busy timeout). The import
then writes everything in one short transaction of bulk inserts, and all of it arrives."""

from __future__ import annotations

import io
import json
import threading
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.competition import tfile
from app.extensions import db
from app.models import Deal, Entrant, Table, Tournament
from app.tournaments import files as file_routes
from tests.conftest import DEFAULT_PASSWORD


def _file(club: str) -> dict[str, Any]:
    names = [f"Pair {i}" for i in range(8)]
    tables = [
        {
            "table": k + 1,
            "sides": [names[2 * k], names[2 * k + 1]],
            "deals": [
                {"declarer": 0, "trump": "S", "points": 60, "kitty": 0, "multiplier": 0},
                {"declarer": 1, "trump": "H", "points": 85, "kitty": 10, "multiplier": 2},
            ],
        }
        for k in range(4)
    ]
    return {
        "format": "shengji-tournament/1",
        "club": club,
        "name": "Imported Cup",
        "variant": "tractor-4p",
        "pairing": "swiss",
        "rounds": 3,
        "match": {"deals": 2},
        "entrants": [{"name": n, "players": [f"{n} a", f"{n} b"]} for n in names],
        "played": [{"round": 1, "tables": tables}],
    }


def test_score_entry_elsewhere_goes_on_while_an_import_is_checked(
    app: Flask, client, monkeypatch
) -> None:
    w = world()
    login(client, w.director)
    other = create(client, w.club, name="Tonight's Cup")
    add_entrants(client, w.club, other, 4, 2)
    rnd = seat(client, w.club, other)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    sheet = sheet_url(w.club, other, rnd, tab)
    # the other table's browser: a plain client, used from a thread of its own, as a second
    # server worker would be (each request its own app context, session and connection)
    table_director = FlaskClient(app, app.response_class, use_cookies=True)
    seen: dict[str, Any] = {}

    def in_a_thread(job: Any) -> None:
        def run() -> None:
            try:
                job()
            except Exception as error:  # noqa: BLE001 - reported by the assertion below
                seen["error"] = repr(error)

        worker = threading.Thread(target=run)
        worker.start()
        worker.join(timeout=60)

    login_form = {"username": w.director.username, "password": DEFAULT_PASSWORD}
    in_a_thread(lambda: table_director.post("/account/login", data=login_form))
    real_load = tfile.load

    def enter_a_score() -> None:
        start = time.perf_counter()
        seen["status"] = table_director.post(sheet, data=fixed_deal(0, 60)).status_code
        seen["seconds"] = time.perf_counter() - start

    def load_while_a_table_enters_a_score(doc: object) -> Any:
        """While the import reads the file: another table records a deal."""
        in_a_thread(enter_a_score)
        return real_load(doc)

    monkeypatch.setattr(file_routes, "load_file", load_while_a_table_enters_a_score)
    body = json.dumps(_file(w.club.name)).encode()
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/import",
        data={"file": (io.BytesIO(body), "t.json")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 303, r.get_data(as_text=True)[-2000:]
    assert seen.get("status") == 303 and seen["seconds"] < 5, seen
    db.session.expire_all()
    # the other table's deal is in, and so is the whole import
    assert db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab.id)) == 1
    t = db.session.scalar(select(Tournament).where(Tournament.name == "Imported Cup"))
    assert t is not None
    assert (
        db.session.scalar(select(func.count(Entrant.id)).where(Entrant.tournament_id == t.id)) == 8
    )
    codes = [tab.code for r in t.rounds_played for tab in r.tables]
    assert len(codes) == 4 and all(codes) and len(set(codes)) == 4
    deals = [d for r in t.rounds_played for tab in r.tables for d in tab.deals]
    assert len(deals) == 8 and {d.points for d in deals} == {60, 85}
    assert db.session.scalar(select(func.count(Table.id))) == 4 + len(rnd.tables)
