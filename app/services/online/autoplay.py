"""Bots at every seat: ``flask tournament run-bots`` plays the current round's unfinished online
tables to the end through ``advance`` — the code path that serves people — with
every seat treated as a bot of one kind for that run (``--bots heuristic|random|mc``; the seats'
own bot marks and strengths are not changed).

``advance`` stops starting deals after ``DEAL_BUDGET`` steps (one request of a bot-only table
must end); each call here is such a request, committed on its own, and the table is advanced
again until its match counts. A table that does not move on between two calls (paused, or
waiting for something bots cannot do) is an error, not a loop.

An online table with no game yet (a round imported from a tournament file with ``"mode":
"online"``) is started first: its seats made (guests' seats, no bot marks) and its first deal
dealt (``rounds.start_unstarted``), committed before the bots play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from flask_babel import gettext as _

from ...competition.standings import SheetTable
from ...extensions import db
from ...models import Round, Table, Tournament
from .. import ServiceError
from ..tournaments.audit import Actor
from ..tournaments.rows import rounds_of
from ..tournaments.sheets import sheet
from . import advance, botchoice, bridge, tokens
from .rounds import start_unstarted

BOT_KINDS = botchoice.BOT_KINDS  # heuristic, random, mc
MAX_CALLS = 500  # advance calls per table: far more than any match needs
CLI_ACTOR = Actor(label="flask tournament run-bots")


@dataclass
class TableRun:
    """What one table recorded in the run: its sheet before and after."""

    table: Table
    first: int  # the number of deals already on the sheet before the run
    derived: SheetTable | None = None
    calls: int = 0


@dataclass
class Run:
    round: Round
    tables: list[TableRun] = field(default_factory=list)


def current_round(t: Tournament) -> Round:
    rounds = rounds_of(t)
    if not rounds:
        raise ServiceError(_("No round is seated yet."))
    return rounds[-1]


def online_tables(rnd: Round) -> list[Table]:
    return [tab for tab in rnd.tables if tab.mode == "online" and tab.kind != "bye"]


def _unfinished(t: Tournament, tab: Table) -> bool:
    return tab.forfeit is None and not tab.finished and not sheet(t, tab).counts


def _advance_as_bots(t: Tournament, tab: Table) -> None:
    """One request's worth of play, every seat a bot."""
    live = bridge.load(tab)
    if live is None:
        raise ServiceError(_("Table %(n)d has no online deal to play.", n=tab.number))
    live.humans = frozenset()
    advance.advance(t, tab, live)


def run_bots(t: Tournament, kind: str, commit: Callable[[], None]) -> Run:
    """Play every unfinished online table of the current round until its match counts;
    ``commit`` ends each request's transaction."""
    if kind not in BOT_KINDS:
        raise ServiceError(_("Unknown kind of bot: %(kind)s.", kind=kind))
    if "minutes" in (t.match or {}):
        raise ServiceError(
            _("The matches have a time limit: bots would play on forever. Stop the tables.")
        )
    rnd = current_round(t)
    tables = online_tables(rnd)
    if not tables:
        raise ServiceError(_("Round %(n)d has no online table.", n=rnd.number))
    start_unstarted(t, tables, CLI_ACTOR)
    commit()
    run = Run(rnd)
    token = bridge.BOT_KIND.set(kind)
    try:
        for tab in tables:
            one = TableRun(tab, len(tab.deals))
            run.tables.append(one)
            while _unfinished(t, tab):
                before = (tokens.state_token(tab), len(tab.deals))
                _advance_as_bots(t, tab)
                commit()
                one.calls += 1
                db.session.refresh(tab)
                if (tokens.state_token(tab), len(tab.deals)) == before or one.calls > MAX_CALLS:
                    raise ServiceError(
                        _("Table %(n)d does not move on: look at its online page.", n=tab.number)
                    )
            one.derived = sheet(t, tab)
    finally:
        bridge.BOT_KIND.reset(token)
    return run
