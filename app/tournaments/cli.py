"""``flask tournament import | export | standings | sheets | csv | run-bots | purge-deleted``
(shared/formats/TOURNAMENT.md).

Exit 0 on success, 1 on any error; errors go to standard error; ``export`` and
``standings --json`` write only the JSON document to standard output (UTF-8, non-ASCII as is).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click
from flask import current_app

from .. import printing as pr
from ..competition.climbing import ClimbingTable
from ..competition.hundred import HundredTable
from ..competition.matches import FixedMatch
from ..competition.standings import SheetTable
from ..competition.tfile import TournamentFileError, load
from ..db import write_transaction
from ..extensions import db
from ..models import Club, Round, Tournament
from ..services import ServiceError
from ..services.online import autoplay
from ..services.tournaments import csv_export as csv_files
from ..services.tournaments import deletion
from ..services.tournaments import files as tfiles
from ..services.tournaments import printouts as printouts
from ..services.tournaments.rows import load as load_tournament
from ..services.tournaments.rows import seat_names
from ..services.tournaments.setup import find_by_name
from . import bp


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(1)


def _echo(text: str) -> None:
    """UTF-8 on standard output whatever the terminal's locale."""
    sys.stdout.flush()
    out: Any = getattr(sys.stdout, "buffer", None)
    if out is None:  # pragma: no cover - a text-only stream
        sys.stdout.write(text)
    else:
        out.write(text.encode("utf-8"))
        out.flush()


def _find(name: str) -> Tournament:
    t = find_by_name(name)
    if t is None:
        _fail(f"error: no tournament named {name!r}")
    if t.deleted_at is not None:
        _fail(
            f"error: the tournament {name!r} is deleted (restore it from its club's page until "
            f"{deletion.restorable_until(t):%Y-%m-%d})"
        )
    return t


@bp.cli.command("purge-deleted")
def purge_command() -> None:
    """Remove for good what was deleted more than 30 days ago: tournaments, duplicate events,
    seasons, divisions and members removed from a club (run it daily)."""
    with write_transaction():
        names = deletion.purge()
        db.session.commit()
    for name in names:
        click.echo(f"removed: {name}")
    click.echo(f"{len(names)} deleted thing(s) removed for good")


@bp.cli.command("import")
@click.argument("path", type=click.Path(allow_dash=True))  # unreadable paths: exit 1 below
def import_command(path: str) -> None:
    """Import a tournament file (creates the club if new). All or nothing."""
    try:
        # utf-8-sig: a byte order mark (Windows editors, spreadsheet tools) is not part of the text
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
        raw = raw.removeprefix("\ufeff")
    except OSError as error:
        _fail(f"error: cannot read {path}: {error.strerror or error}")
    except UnicodeDecodeError:
        _fail(f"error: {path} is not UTF-8 text")
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as error:
        _fail(f"error: {path} is not JSON: {error.msg} at line {error.lineno} column {error.colno}")
    except RecursionError:
        _fail(f"error: {path} is not JSON this program reads: nested too deeply")
    except ValueError as error:  # e.g. a number of more than 4300 digits
        _fail(f"error: {path} is not JSON this program reads: {error}")
    try:
        comp = load(doc)
    except TournamentFileError as error:
        for e in error.errors:
            click.echo(str(e), err=True)
        _fail(f"error: {len(error.errors)} error(s) in {path}; nothing was imported")
    plan = tfiles.plan_import(comp)  # every row, in memory, before the write lock is taken
    with current_app.test_request_context(), write_transaction():  # gettext needs a request
        try:
            t = tfiles.import_tournament(plan)
        except ServiceError as error:
            db.session.rollback()
            _fail(f"error: {error.message}")
        db.session.commit()
        click.echo(
            f"Imported {t.name!r} ({len(comp.entrants)} entrants, {len(comp.played)} rounds) "
            f"into club {comp.club!r}.",
            err=True,
        )


@bp.cli.command("export")
@click.argument("name")
def export_command(name: str) -> None:
    """Write a tournament as a tournament file (JSON) to standard output."""
    _echo(tfiles.export_json(_find(name)))


@bp.cli.command("standings")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="The standings as JSON (TOURNAMENT.md).")
def standings_command(name: str, as_json: bool) -> None:
    """Print a tournament's standings, best first."""
    t = _find(name)
    loaded = load_tournament(t)
    rows = [r.as_json() for r in loaded.standings]
    if as_json:
        _echo(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return
    for row in rows:
        rest = "  ".join(f"{k}={v}" for k, v in row.items() if k not in ("rank", "entrant"))
        click.echo(f"{row['rank']:>3}. {row['entrant']}  {rest}")


@bp.cli.command("sheets")
@click.argument("name")
@click.option("--round", "round_no", type=int, required=True, help="Round number.")
@click.option("-o", "--output", type=click.Path(), required=True)  # unwritable: exit 1 below
@click.option("--filled", is_flag=True, help="Print the recorded deals in the rows.")
@click.option("--page-size", type=click.Choice(["A4", "Letter"]), default="A4")
def sheets_command(name: str, round_no: int, output: str, filled: bool, page_size: str) -> None:
    """Write a round's print pack (pairings, table cards, score sheets) as one PDF."""
    t = _find(name)
    rnd = db.session.scalar(
        db.select(Round).where(Round.tournament_id == t.id, Round.number == round_no)
    )
    if rnd is None:
        _fail(f"error: {t.name!r} has no round {round_no}")
    club = db.session.get(Club, t.club_id)
    pack = printouts.round_pack(t, rnd, club.name if club else "")
    try:
        data = pr.print_pack(pack, page_size=page_size, filled=filled)
    except pr.PrintError as error:
        _fail(f"error: {error}")
    try:
        Path(output).write_bytes(data)
    except OSError as error:
        _fail(f"error: cannot write {output}: {error.strerror or error}")
    click.echo(f"Wrote {output} ({len(pack.sheets)} tables).", err=True)


@bp.cli.command("csv")
@click.argument("name")
@click.option("--what", type=click.Choice(["standings", "deals"]), default="standings")
def csv_command(name: str, what: str) -> None:
    """Write the standings or every deal as CSV (formula injection neutralized)."""
    t = _find(name)
    _echo(csv_files.standings_csv(t) if what == "standings" else csv_files.deals_csv(t))


def _run_lines(t: Tournament, run: autoplay.Run) -> list[str]:
    """What the bots recorded, table by table: each new deal (declarer, total, levels or 积分)
    and the match result."""
    lines = [f"{t.name}, round {run.round.number}:"]
    for one in run.tables:
        tab, derived = one.table, one.derived
        sides, seats = seat_names(tab)
        who = " vs ".join(sides) if sides else ", ".join(seats)
        lines.append(f"Table {tab.number} ({who}):")
        if derived is None:
            continue
        if isinstance(derived, FixedMatch):
            for row in derived.rows[one.first :]:
                a, b = row.levels_after
                lines.append(
                    f"  deal {row.number}: declarer {'AB'[row.declarer]} "
                    f"({sides[row.declarer]}), total {row.total}, levels A {a} : B {b}"
                )
        elif isinstance(derived, ClimbingTable):
            for cr in derived.rows[one.first :]:
                scores = " ".join(f"{s:+d}" for s in cr.scores)
                places = " ".join(str(p) for p in cr.places)
                lines.append(f"  deal {cr.number}: places {places}, scores {scores}")
        else:
            assert not isinstance(derived, HundredTable)  # 打百分 is not played by the bots online
            for red in derived.rows[one.first :]:
                scores = " ".join(f"{s:+d}" for s in red.scores)
                lines.append(
                    f"  deal {red.number}: declarer {seats[red.dealer]} (seat {red.dealer + 1}), "
                    f"total {red.total}, scores {scores}"
                )
        if one.first == len(derived.rows):
            lines.append("  no new deal: the match was already complete")
        lines.append("  result: " + _result_words(derived, sides, seats))
    return lines


def _result_words(derived: SheetTable, sides: list[str], seats: list[str]) -> str:
    if isinstance(derived, FixedMatch):
        if derived.forfeit is not None:
            return f"forfeit by {'AB'[derived.forfeit]} ({sides[derived.forfeit]})"
        a, b = derived.levels
        outcome = derived.outcome(0)
        winner = "draw" if outcome == "draw" else f"{sides[0 if outcome == 'win' else 1]} wins"
        passed = "" if derived.passed_side is None else f", {'AB'[derived.passed_side]} passed A"
        return f"A {a} : B {b}{passed}, {winner}"
    return ", ".join(
        f"{name} {total:+d}" for name, total in zip(seats, derived.totals, strict=True)
    )


@bp.cli.command("run-bots")
@click.argument("name")
@click.option(
    "--bots",
    "kind",
    type=click.Choice(list(autoplay.BOT_KINDS)),
    default="heuristic",
    help="Which engine bot plays every seat.",
)
def run_bots_command(name: str, kind: str) -> None:
    """Play every unfinished online table of the current round with bots at every seat."""
    with current_app.test_request_context(), write_transaction():  # gettext needs a request
        t = _find(name)
        try:
            run = autoplay.run_bots(t, kind, db.session.commit)
        except ServiceError as error:
            db.session.rollback()
            _fail(f"error: {error.message}")
        _echo("\n".join(_run_lines(t, run)) + "\n")
