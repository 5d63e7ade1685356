"""Faults on a real gunicorn (2 workers, the documented configuration), on each database.

* **Killed mid-game.** Threads enter paper deals at four score sheets (the sheet form with its
  ``seen`` count, as a director's phone sends it) and play seat 0 of two online tables (the
  guest's ``/play`` link; the engine in the test chooses a legal move from the deal's log, the
  server's bots answer at seats 1-3) while the server is SIGKILLed (master and workers at once)
  and started again. Every acknowledged action (a 303) is in the database afterwards, in order;
  a deal whose answer was lost with the server is either wholly there or wholly absent; every
  game goes on after the restart; and the standings page equals the standings of a fresh
  database into which the tournament file was imported with exactly the recorded deals.
* **The database away under load.** PostgreSQL: the server is stopped (``pg_ctl stop -m
  fast``, every connection cut) while threads keep sending; every answer is then the clean 503
  page (``Retry-After``, no traceback) or a success from before the stop, and once the server is
  started again the same workers answer 200/303 without a restart. SQLite is a file and has no
  server to stop (moving or unlinking the file does not affect open connections on Linux, so that
  would test nothing): what happens in practice is another process holding the database's write
  lock beyond the busy timeout (a migration, a maintenance job). The test holds ``BEGIN
  EXCLUSIVE`` from its own connection with the busy timeout lowered to 0.3 s (passed to the app
  factory, so each refused request is quick); writes then answer 503 while reads (WAL) go on,
  and writes succeed again once the lock is released.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.extensions import db
from app.models import Deal, OnlineAction, OnlineDeal, OnlineSeat, Round, Table, Tournament
from app.services.online import tokens
from app.services.visibility import set_visibility
from engine.bots import RandomBot, perform
from engine.cards import card_str
from engine.deal import DRAW
from tests.app.served import Browser, Reply, Served
from tests.conftest import DEFAULT_PASSWORD, app_config
from tests.online.online_helpers import page_token, replay_row
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

# Load runs until every driver has this many acknowledged actions (before the kill, and again
# after the restart) and at least MIN_RUN_S: a busy machine serves slower, not less.
ACTIONS = 3
MIN_RUN_S = 1.0
RUN_LIMIT_S = 60.0


def _run_until(logs: list[Log], count: Callable[[Log], int]) -> None:
    start = time.monotonic()
    time.sleep(MIN_RUN_S)
    while any(count(log) < ACTIONS and not log.unexpected for log in logs):
        assert time.monotonic() - start < RUN_LIMIT_S, [count(log) for log in logs]
        time.sleep(0.05)


# --- the world --------------------------------------------------------------------------------


@dataclass
class Night:
    slug: str
    director: str
    paper: int  # the paper tournament's id
    sheets: list[str]  # the sheet URL of each paper table
    tables: list[int]  # their ids
    seat_links: list[str]  # seat 0's /play link of each online table
    online_tables: list[int]


def _night(app: Flask, paper_deals: int) -> Night:
    client = app.test_client()
    w = world()
    login(client, w.director)
    paper = create(client, w.club, name="Paper Cup", match_value=paper_deals)
    add_entrants(client, w.club, paper, 8, 2)
    rnd = seat(client, w.club, paper)
    tables = sorted((x for x in rnd.tables if x.kind == "sides"), key=lambda x: x.number)
    base = f"/clubs/{w.club.slug}/tournaments/{paper.id}/rounds/{rnd.number}/tables/"
    online = create(client, w.club, name="Online Cup", match_value=50)
    add_entrants(client, w.club, online, 4, 2)
    ornd = seat(client, w.club, online)
    links, online_ids = [], []
    for tab in sorted(ornd.tables, key=lambda x: x.number):
        url = f"/clubs/{w.club.slug}/tournaments/{online.id}/rounds/1/tables/{tab.number}/online"
        assert client.post(url).status_code == 303
        for s in (1, 2, 3):
            assert client.post(url + "/bots", data={"seat": s, "bot": "1"}).status_code == 303
        token = db.session.scalar(
            select(OnlineSeat.token).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 0)
        )
        links.append(f"/play/{token}")
        online_ids.append(tab.id)
    night = Night(
        w.club.slug,
        w.director.username,
        paper.id,
        [base + str(t.number) for t in tables],
        [t.id for t in tables],
        links,
        online_ids,
    )
    db.session.remove()
    db.engine.dispose()  # the served app is the only user of the database from now on
    return night


# --- the players ------------------------------------------------------------------------------


@dataclass
class Log:
    """What one driver saw: acknowledged actions, answers it did not expect."""

    acked: list[Any] = field(default_factory=list)
    after_restart: int = 0
    unexpected: list[str] = field(default_factory=list)
    lost_answers: int = 0


def _seen(html: str) -> int:
    m = re.search(r'name="seen" type="hidden" value="(\d+)"', html) or re.search(
        r'name="seen" value="(\d+)"', html
    )
    assert m, html[:3000]
    return int(m.group(1))


def _declarer(html: str) -> int:
    select_html = re.search(r'<select[^>]*name="declarer".*?</select>', html, re.S)
    assert select_html, html[:3000]
    m = re.search(r'<option selected value="(\d)"|<option value="(\d)" selected', select_html[0])
    return int(next(g for g in m.groups() if g)) if m else 0


def _deals_of(session: Session, table_id: int) -> list[dict[str, Any]]:
    """A table's deals in the database, as the driver typed them."""
    rows = session.scalars(select(Deal).where(Deal.table_id == table_id).order_by(Deal.index))
    return [
        {
            "declarer": d.declarer,
            "trump": d.trump,
            "points": d.points,
            "kitty": d.kitty,
            "multiplier": d.multiplier or 0,
        }
        for d in rows
    ]


def _driver(body: Callable[[], None], log: Log) -> Callable[[], None]:
    """Run a driver; its own failure is an unexpected answer, never a silent end."""

    def run() -> None:
        try:
            body()
        except Exception:
            log.unexpected.append(traceback.format_exc())

    return run


def _get(browser: Browser, path: str) -> Reply | None:
    """A driver's GET; None while the server is down (it restarts), after a short pause."""
    try:
        return browser.get(path)
    except OSError:
        time.sleep(0.05)
        return None


def _paper_driver(
    browser: Browser,
    url: str,
    table_id: int,
    engine_url: str,
    log: Log,
    stop: threading.Event,
    restarted: threading.Event,
) -> None:
    """Enter deals at one sheet until its match is complete, then correct its last deal, again
    and again (a correction is a score entry too). ``log.acked`` is the sheet as acknowledged."""
    rng = random.Random(url)
    engine = create_engine(engine_url)
    pending: list[dict[str, Any]] | None = None  # the sheet if the unanswered request was saved
    try:
        while not stop.is_set():
            page = _get(browser, url)
            if page is None:
                continue
            if page.status != 200:
                log.unexpected.append(f"GET sheet {page.status}")
                return
            if pending is not None:  # the answer was lost with the server: all or nothing
                with Session(engine) as session:
                    now = _deals_of(session, table_id)
                if now not in (log.acked, pending):
                    log.unexpected.append(f"half a deal? {now} is neither before nor after")
                    return
                log.acked[:] = now
                pending = None
            # the deal form's hidden field (the undo button's carries no id)
            open_for_entry = 'id="seen"' in page.body
            if open_for_entry:
                form_url, index = url, len(log.acked)
                form_page = page
                if _seen(page.body) != len(log.acked):
                    log.unexpected.append(f"sheet shows {_seen(page.body)}, acked {log.acked}")
                    return
            else:  # the match is complete: correct the last deal
                index = len(log.acked) - 1
                form_url = f"{url}/deals/{index + 1}"
                try:
                    form_page = browser.get(form_url)
                except OSError:
                    continue
                if form_page.status != 200:
                    log.unexpected.append(f"GET correction {form_page.status}")
                    return
            deal = {
                "declarer": _declarer(form_page.body),
                "trump": rng.choice("SHDC"),
                "points": 5 * rng.randrange(0, 41),
                "kitty": 0,
                "multiplier": 0,
            }
            after = [*log.acked[:index], deal, *log.acked[index + 1 :]]
            try:
                r = browser.post(form_url, {**deal, "seen": _seen(form_page.body)})
            except OSError:
                log.lost_answers += 1
                pending = after
                continue
            if r.status != 303:
                log.unexpected.append(f"POST {form_url} {r.status}")
                return
            log.acked[:] = after
            log.after_restart += restarted.is_set()
    finally:
        engine.dispose()


def _move(deal: Any, seed: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The form of seat 0's next move and the log entry it must leave, or None."""
    if deal.outcome is not None:
        return None
    if deal.phase == DRAW:  # the draw waits for seat 0, who may call: let it go on
        return {"kind": "continue"}, {"kind": "continue", "seat": 0}
    if deal.to_act != 0:
        return None
    action = RandomBot(seed).act(deal, 0)
    entry = perform(deal, action).to_json()
    form: dict[str, Any] = {"kind": action[0]}
    if action[0] in ("call", "bury", "play"):
        form["cards"] = [card_str(c) for c in action[2]]
    elif action[0] == "friend":
        form["card"] = card_str(action[2]) if action[2] is not None else ""
    return form, entry


def _online_driver(
    browser: Browser,
    link: str,
    table_id: int,
    engine_url: str,
    log: Log,
    stop: threading.Event,
    restarted: threading.Event,
) -> None:
    engine = create_engine(engine_url)
    seed = 0
    try:
        while not stop.is_set():
            page = _get(browser, link)
            if page is None:
                continue
            if page.status != 200:
                log.unexpected.append(f"GET seat {page.status}")
                time.sleep(0.05)
                continue
            v = page_token(page.body)
            number, version = (int(x) for x in tokens.deal_part(v).split("."))
            with Session(engine) as s:
                row = s.scalar(
                    select(OnlineDeal).where(
                        OnlineDeal.table_id == table_id, OnlineDeal.number == number
                    )
                )
                if row is None or row.version != version:
                    continue  # the page and the database are a step apart: look again
                if row.outcome is not None:
                    move: tuple[dict[str, Any], dict[str, Any]] | None = (
                        {"kind": "ready"},
                        {"kind": "ready", "seat": 0},
                    )
                else:
                    move = _move(replay_row(row), seed)
            if move is None:
                log.unexpected.append(f"seat 0 has nothing to do at {v}")
                return
            form, entry = move
            seed += 1
            path = link + "/ready" if form["kind"] == "ready" else link
            try:
                r = browser.post(path, {**form, "v": v})
            except OSError:
                log.lost_answers += 1
                continue
            if r.status == 303:
                log.acked.append((number, version, entry))
                log.after_restart += restarted.is_set()
            else:
                log.unexpected.append(f"POST {form['kind']} {r.status}: {r.body[-300:]}")
    finally:
        engine.dispose()


# --- what the database holds ------------------------------------------------------------------


def _logged(table_id: int, number: int, seq: int) -> OnlineAction | None:
    return db.session.scalar(
        select(OnlineAction)
        .join(OnlineDeal, OnlineDeal.id == OnlineAction.deal_id)
        .where(
            OnlineDeal.table_id == table_id,
            OnlineDeal.number == number,
            OnlineAction.seq == seq,
        )
    )


def _standings_table(html: str) -> list[list[str]]:
    """The rows of the standings table as the reader sees them (cell texts)."""
    table = re.search(r'<table class="[^"]*standings[^"]*".*?</table>', html, re.S)
    assert table, html[:3000]
    rows = re.findall(r"<tr.*?</tr>", table[0], re.S)
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]
        for cells in (re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S) for row in rows)
    ]


def _replayed_standings(
    tmp_path: Any, exported: dict[str, Any], recorded: dict[int, list[dict[str, Any]]]
) -> list[list[str]]:
    """The tournament file with exactly the recorded deals, imported into a fresh database:
    its standings page."""
    from app import create_app

    doc = json.loads(json.dumps(exported))
    for rnd in doc["played"]:
        for tab in rnd["tables"]:
            if "sides" in tab:
                tab["deals"] = [
                    {k: v for k, v in d.items() if k != "multiplier" or v}
                    for d in recorded[tab["table"]]
                ]
    fresh = create_app(app_config(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'replay.db'}"))
    path = tmp_path / "replayed.json"
    path.write_text(json.dumps(doc))
    with fresh.app_context():
        db.create_all()
        result = fresh.test_cli_runner().invoke(args=["tournament", "import", str(path)])
        assert result.exit_code == 0, result.output
        t = db.session.scalars(select(Tournament).where(Tournament.name == doc["name"])).one()
        with fresh.test_request_context():
            set_visibility(t, "public")  # the replay's standings, read through a public link
        db.session.commit()
        html = fresh.test_client().get(f"/p/{t.public_token}").get_data(as_text=True)
        db.session.remove()
        db.engine.dispose()
    return _standings_table(html)


# --- the tests --------------------------------------------------------------------------------


def _drive(
    served: Served, night: Night, url: str, stop: threading.Event, restarted: threading.Event
) -> tuple[list[threading.Thread], list[Log], list[Log]]:
    director = Browser(served.base)
    director.login(night.director, DEFAULT_PASSWORD)
    paper_logs = [Log() for _ in night.sheets]
    online_logs = [Log() for _ in night.seat_links]
    threads = []
    for sheet_url, tid, log in zip(night.sheets, night.tables, paper_logs, strict=True):
        phone = Browser(served.base)  # one phone per table, each with the director's session
        for cookie in director.jar:
            phone.jar.set_cookie(copy.copy(cookie))
        run = functools.partial(_paper_driver, phone, sheet_url, tid, url, log, stop, restarted)
        threads.append(threading.Thread(target=_driver(run, log)))
    for link, tid, log in zip(night.seat_links, night.online_tables, online_logs, strict=True):
        run = functools.partial(
            _online_driver, Browser(served.base), link, tid, url, log, stop, restarted
        )
        threads.append(threading.Thread(target=_driver(run, log)))
    for th in threads:
        th.start()
    return threads, paper_logs, online_logs


def test_a_killed_server_loses_no_acknowledged_action(app: Flask, tmp_path: Any) -> None:
    started = time.monotonic(), time.process_time()
    night = _night(app, paper_deals=4)  # matches complete: the standings have results
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    served = Served(url)
    served.start()
    stop, restarted = threading.Event(), threading.Event()
    try:
        threads, paper_logs, online_logs = _drive(served, night, url, stop, restarted)
        logs = paper_logs + online_logs
        _run_until(logs, lambda log: len(log.acked))
        served.kill()  # mid-request: master and workers die at once
        before = [len(log.acked) for log in paper_logs + online_logs]
        served.start()
        restarted.set()
        _run_until(logs, lambda log: log.after_restart)
        stop.set()
        for th in threads:
            th.join(timeout=30)
        assert not [u for log in logs for u in log.unexpected], [log.unexpected for log in logs]
        assert all(n > 0 for n in before), before  # every driver acted before the kill
        assert all(log.after_restart > 0 for log in logs), "a game did not go on after the kill"

        db.session.expire_all()
        for table_id, log in zip(night.tables, paper_logs, strict=True):
            assert _deals_of(db.session, table_id) == log.acked
            assert len(log.acked) >= 4  # the match is complete: it counts in the standings
        for table_id, log in zip(night.online_tables, online_logs, strict=True):
            for number, version, entry in log.acked:
                action = _logged(table_id, number, version + 1)
                assert action is not None, (number, version, entry)
                assert action.record == entry and action.actor == "seat 0"

        director = Browser(served.base)
        director.login(night.director, DEFAULT_PASSWORD)
        exported = director.get(f"/clubs/{night.slug}/tournaments/{night.paper}/export.json")
        assert exported.status == 200
        served_page = director.get(f"/standings/{night.paper}")
        assert served_page.status == 200
        numbers = {
            int(u.rsplit("/", 1)[1]): log.acked
            for u, log in zip(night.sheets, paper_logs, strict=True)
        }
        replayed = _replayed_standings(tmp_path, json.loads(exported.body), numbers)
        assert _standings_table(served_page.body) == replayed
        assert len(replayed) == 9  # the header and the eight entrants
    finally:
        stop.set()
        served.stop()
    wall, cpu = time.monotonic() - started[0], time.process_time() - started[1]
    print(f"killed server: {wall:.1f} s wall, {cpu:.1f} s CPU (test process)")


# --- the database away ------------------------------------------------------------------------


def _sqlite_path(url: str) -> str:
    return url.removeprefix("sqlite:///")


def _away_and_back(
    request: pytest.FixtureRequest, db_backend: str, url: str
) -> tuple[Callable[[], None], Callable[[], None], bool]:
    """How to take this database away and bring it back; whether reads still work meanwhile."""
    if db_backend == "postgresql":
        pg = request.getfixturevalue("postgresql")

        def back() -> None:
            pg.server.resume()
            pg.reconnect()

        return pg.server.halt, back, False
    holder: list[sqlite3.Connection] = []

    def away() -> None:
        conn = sqlite3.connect(_sqlite_path(url), isolation_level=None, timeout=10)
        conn.execute("BEGIN EXCLUSIVE")  # the write lock, held (a migration, a maintenance job)
        holder.append(conn)

    def release() -> None:
        conn = holder.pop()
        conn.execute("ROLLBACK")
        conn.close()

    return away, release, True


def test_the_database_away_answers_503_and_the_app_recovers(
    app: Flask, db_backend: str, request: pytest.FixtureRequest
) -> None:
    started = time.monotonic(), time.process_time()
    night = _night(app, paper_deals=400)
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    factory = "app:create_app({'SQLITE_BUSY_TIMEOUT_MS': 300})"
    served = Served(url, factory=factory if db_backend == "sqlite" else "app:create_app()")
    served.start()
    away, back, reads_go_on = _away_and_back(request, db_backend, url)
    director = Browser(served.base)  # one session on both threads: two tabs of one phone
    director.login(night.director, DEFAULT_PASSWORD)
    # the session's CSRF token is made by the first page after the login: make it before two
    # pages race to make two (the later cookie would void the other page's token)
    assert director.get(night.sheets[0]).status == 200
    # (phase, thread, method, status, body) of each answer sent and received in one phase
    answers: list[tuple[str, int, str, int, str]] = []
    stop = threading.Event()
    phase = ["up"]

    def note(me: int, when: str, method: str, status: int, body: str) -> None:
        if phase[0] == when:
            answers.append((when, me, method, status, body))

    def load(me: int, sheet_url: str) -> None:
        rng = random.Random(sheet_url)
        while not stop.is_set():
            when = phase[0]
            try:
                page = director.get(sheet_url)
                note(me, when, "GET", page.status, page.body)
                if page.status != 200:
                    time.sleep(0.05)
                    continue
                deal = {"declarer": _declarer(page.body), "trump": "S", "kitty": 0}
                deal["points"] = 5 * rng.randrange(16, 24)  # 80-115: no side goes up a level
                when = phase[0]
                r = director.post(sheet_url, {**deal, "seen": _seen(page.body)})
                note(me, when, "POST", r.status, r.body)
            except OSError as e:
                note(me, when, "?", 0, repr(e))

    def statuses(when: str, method: str = "") -> set[int]:
        return {st for p, _me, m, st, _b in answers if p == when and method in ("", m)}

    def wait_for(when: str, method: str, status: int) -> None:
        deadline = time.monotonic() + 60
        while not all(any(a[:4] == (when, me, method, status) for a in answers) for me in (0, 1)):
            assert time.monotonic() < deadline, (when, statuses(when))
            time.sleep(0.05)

    threads = [threading.Thread(target=load, args=x) for x in enumerate(night.sheets[:2])]
    try:
        for th in threads:
            th.start()
        wait_for("up", "POST", 303)
        phase[0] = "going"
        away()
        phase[0] = "away"
        if reads_go_on:  # SQLite: the page opens, the deal sent from it waits, then 503
            wait_for("away", "GET", 200)
            wait_for("away", "POST", 503)
        else:  # PostgreSQL down: the page itself answers 503
            wait_for("away", "GET", 503)
        phase[0] = "coming back"
        back()
        phase[0] = "back"
        wait_for("back", "POST", 303)
        stop.set()
        for th in threads:
            th.join(timeout=30)
    finally:
        stop.set()
        if phase[0] in ("going", "away"):
            back()
        served.stop()

    assert statuses("up") == {200, 303}
    refused = [body for p, _me, _m, st, body in answers if p == "away" and st == 503]
    for body in refused:
        assert "cannot reach its database" in body and "Traceback" not in body
    if reads_go_on:  # SQLite in WAL mode: pages still open, writes wait for the lock, then 503
        assert statuses("away", "GET") == {200} and statuses("away", "POST") == {503}
    else:
        assert statuses("away") == {503}
    assert statuses("back") == {200, 303}
    # nothing half-saved: each sheet's deals are numbered 1…n without a gap
    db.session.expire_all()
    for table_id in night.tables[:2]:
        tab = db.session.get(Table, table_id)
        assert tab is not None
        assert [d.index for d in sorted(tab.deals, key=lambda d: d.index)] == list(
            range(len(tab.deals))
        )
    assert db.session.scalar(select(Round.id).limit(1)) is not None
    wall, cpu = time.monotonic() - started[0], time.process_time() - started[1]
    print(f"database away: {wall:.1f} s wall, {cpu:.1f} s CPU (test process)")
