"""``flask tournament run-bots "NAME"``: bots at every seat play the current round's online
tables to the end through the bridge, the sheets fill, the standings count the matches, and the
command prints what it recorded."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from app.extensions import db
from app.models import AuditEntry, OnlineDeal, OnlineSeat, Table
from app.services.online import advance
from app.services.tournaments.rows import seat_names
from app.services.tournaments.sheets import sheet
from tests.online.online_helpers import OnlineWorld, online_world, replay_row


def _all_online(ow: OnlineWorld) -> list[Table]:
    """Switch every other playing table of the round online too."""
    db.session.expire_all()
    tables = [tab for tab in ow.rnd.tables if tab.kind != "bye"]
    for tab in tables:
        if tab.mode != "online":
            url = ow.table_url.replace(f"/tables/{ow.tab.number}/", f"/tables/{tab.number}/")
            assert ow.director.post(url).status_code == 303
    db.session.expire_all()
    return [db.session.get(Table, tab.id) for tab in tables]  # type: ignore[misc]


def _standings(runner, name: str) -> list[dict]:
    result = runner.invoke(args=["tournament", "standings", name, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_run_bots_plays_a_tractor_round_to_the_end(app, client, runner) -> None:
    ow = online_world(client, "tractor-4p", deals=2, tables=2)
    tables = _all_online(ow)
    assert len(tables) == 2
    # a human seat paused in the draw does not stop the run: every seat is a bot for it
    assert all(not s.bot for s in ow.seats())
    assert [r["played"] for r in _standings(runner, ow.t.name)] == [0, 0, 0, 0]

    result = runner.invoke(args=["tournament", "run-bots", ow.t.name])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{ow.t.name}, round 1:"

    db.session.expire_all()
    expected: dict[str, int] = {}
    for tab in tables:
        tab = db.session.get(Table, tab.id)
        assert tab is not None
        derived = sheet(ow.t, tab)
        assert derived.counts and len(derived.rows) == 2
        assert all(d.source == "online" for d in tab.deals)
        # the seats keep their own marks: the run treated them as bots, it did not make them so
        seats = db.session.scalars(select(OnlineSeat).where(OnlineSeat.table_id == tab.id))
        assert not any(s.bot for s in seats)
        # what the sheet holds is what the engine played: the log replays to those rows
        played = db.session.scalars(
            select(OnlineDeal)
            .where(OnlineDeal.table_id == tab.id, OnlineDeal.outcome == "played")
            .order_by(OnlineDeal.number)
        ).all()
        assert [replay_row(d).attackers_points() for d in played] == [d.points for d in tab.deals]
        head = next(i for i, line in enumerate(lines) if line.startswith(f"Table {tab.number} ("))
        block = lines[head + 1 : head + 4]
        for row, line in zip(derived.rows, block[:2], strict=True):
            a, b = row.levels_after
            assert re.fullmatch(
                rf"  deal {row.number}: declarer {'AB'[row.declarer]} \(.+\), "
                rf"total {row.total}, levels A {a} : B {b}",
                line,
            ), line
        a, b = derived.levels
        assert block[2].startswith(f"  result: A {a} : B {b}")
        outcome = derived.outcome(0)
        assert block[2].endswith("draw" if outcome == "draw" else "wins")
        points = {"win": 2, "draw": 1, "loss": 0}
        for side, entrant in enumerate(seat_names(tab)[0]):
            expected[entrant] = points[derived.outcome(side)]

    # the standings count both matches: each entrant played one, with the points it won
    rows = _standings(runner, ow.t.name)
    assert [r["played"] for r in rows] == [1, 1, 1, 1]
    assert {r["entrant"]: r["match_points"] for r in rows} == expected

    # again: nothing left to play, the same sheets
    again = runner.invoke(args=["tournament", "run-bots", ow.t.name])
    assert again.exit_code == 0, again.output
    assert "no new deal: the match was already complete" in again.stdout
    db.session.expire_all()
    assert sum(len(db.session.get(Table, tab.id).deals) for tab in tables) == 4  # type: ignore[union-attr]


def test_run_bots_plays_a_red_five_round_with_random_bots(app, client, runner) -> None:
    ow = online_world(client, "red-five-5p", deals=2)
    result = runner.invoke(args=["tournament", "run-bots", ow.t.name, "--bots", "random"])
    assert result.exit_code == 0, result.output
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    derived = sheet(ow.t, tab)
    assert derived.counts and len(derived.rows) == 2
    lines = result.stdout.splitlines()
    head = lines.index(next(x for x in lines if x.startswith("Table 1 (")))
    for row, line in zip(derived.rows, lines[head + 1 : head + 3], strict=True):
        scores = " ".join(f"{s:+d}" for s in row.scores)
        assert re.fullmatch(
            rf"  deal {row.number}: declarer .+ \(seat {row.dealer + 1}\), "
            rf"total {row.total}, scores {re.escape(scores)}",
            line,
        ), line
    assert lines[head + 3].startswith("  result: ")
    rows = _standings(runner, ow.t.name)
    assert sorted(r["deals"] for r in rows) == [2, 2, 2, 2, 2]
    assert sorted(r["score"] for r in rows) == sorted(derived.totals)


def test_run_bots_goes_past_the_deal_budget(app, client, runner, monkeypatch) -> None:
    """A bot-only table stops starting deals after a budget per request: the command calls
    again until the match is complete."""
    monkeypatch.setattr(advance, "DEAL_BUDGET", 10)
    ow = online_world(client, "tractor-4p", deals=3)
    result = runner.invoke(args=["tournament", "run-bots", ow.t.name])
    assert result.exit_code == 0, result.output
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and len(tab.deals) == 3 and sheet(ow.t, tab).counts


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["No Such Cup"], "error: no tournament named 'No Such Cup'"),
        (["Spring Cup"], "error: Round 1 has no online table."),
    ],
)
def test_run_bots_refuses_with_a_sentence(app, client, runner, args, message) -> None:
    from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world

    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    seat(client, w.club, t)
    result = runner.invoke(args=["tournament", "run-bots", *args])
    assert result.exit_code == 1
    assert result.stderr.strip() == message
    assert result.stdout == ""
    assert db.session.scalar(select(AuditEntry).where(AuditEntry.action == "deal")) is None


def test_run_bots_refuses_matches_of_a_time_limit(app, client, runner) -> None:
    ow = online_world(client, "tractor-4p", deals=30, kind="minutes")
    result = runner.invoke(args=["tournament", "run-bots", ow.t.name])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: The matches have a time limit: bots would play on forever. Stop the tables."
    )
    db.session.expire_all()
    assert not db.session.get(Table, ow.tab.id).deals  # type: ignore[union-attr]
