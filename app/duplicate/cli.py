"""``flask duplicate import | export | csv``: a duplicate event's file (the tournament file with
its ``duplicate`` part, docs/TOURNAMENT_EXTENSIONS.md) and CSV files, as ``flask tournament``
does for tournaments. Exit 0 on success, 1 on any error (to standard error); ``export`` and
``csv`` write only the document to standard output (UTF-8)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click
from flask import current_app
from sqlalchemy import select

from ..db import write_transaction
from ..extensions import db
from ..models import Club, DuplicateEvent
from ..services import ServiceError
from ..services.duplicate import files as files_svc
from ..tournaments.cli import _echo
from . import bp


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(1)


def _find(club_name: str, name: str) -> DuplicateEvent:
    ev = db.session.scalar(
        select(DuplicateEvent)
        .join(Club, Club.id == DuplicateEvent.club_id)
        .where(Club.name == club_name, DuplicateEvent.name == name)
    )
    if ev is None:
        _fail(f"error: the club {club_name!r} has no duplicate event named {name!r}")
    return ev


@bp.cli.command("import")
@click.argument("path", type=click.Path(allow_dash=True))
@click.option("--club", "club_name", help="Import into this club (default: the file's club).")
def import_command(path: str, club_name: str | None) -> None:
    """Import a duplicate event file (creates the club if new). All or nothing."""
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        _fail(f"error: cannot read {path}: {error.strerror or error}")
    with current_app.test_request_context(), write_transaction():  # gettext needs a request
        try:
            e = files_svc.read_file(raw)
            name = club_name or e.club
            club = db.session.scalar(select(Club).where(Club.name == name))
            if club is None:
                from ..services.clubs import unique_slug
                from ..services.text import clean_name

                clean = clean_name(name, "club", 80)
                club = Club(name=clean, slug=unique_slug(clean))
                db.session.add(club)
                db.session.flush()
            ev = files_svc.import_event(club, None, e, by="flask duplicate import")
        except files_svc.FileRefused as error:
            db.session.rollback()
            for reason in error.reasons:
                click.echo(reason, err=True)
            _fail(f"error: {len(error.reasons)} error(s) in {path}; nothing was imported")
        except ServiceError as error:
            db.session.rollback()
            _fail(f"error: {error.message}")
        db.session.commit()
        click.echo(
            f"Imported {ev.name!r} ({len(ev.entrants)} entrants, {len(ev.results)} results) "
            f"into club {club.name!r}.",
            err=True,
        )


@bp.cli.command("export")
@click.argument("club")
@click.argument("name")
def export_command(club: str, name: str) -> None:
    """Write a duplicate event as its file (JSON) to standard output."""
    _echo(files_svc.export_json(_find(club, name)))


@bp.cli.command("csv")
@click.argument("club")
@click.argument("name")
@click.option("--what", type=click.Choice(["standings", "boards"]), default="standings")
def csv_command(club: str, name: str, what: str) -> None:
    """Write the standings or every board's results as CSV (a director's view, formula
    injection neutralized)."""
    ev = _find(club, name)
    make = files_svc.standings_csv if what == "standings" else files_svc.boards_csv
    with current_app.test_request_context():
        _echo(make(ev, True))
