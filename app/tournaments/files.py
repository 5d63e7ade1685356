"""Files of a tournament: importing a tournament file, exporting it, the CSV files, and the PDFs
(standings, a round's pack, sheets, table cards, pairings; laid out by ``app.printing``)."""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Response, abort, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import printing as pr
from ..competition import model as cm
from ..competition.tfile import FileError, TournamentFileError
from ..competition.tfile import load as load_file
from ..extensions import db
from ..models import Club, Member, Tournament
from ..permissions import club_route
from ..services import ServiceError
from ..services.online.refusals import refusal_text
from ..services.tournaments import csv_export as csv_files
from ..services.tournaments import files as tfiles
from ..services.tournaments import images as images
from ..services.tournaments import printouts as printouts
from . import bp
from .forms import ImportForm
from .lookup import current, round_, table, tournament
from .setup import index_page

MAX_UPLOAD = 5 * 1024 * 1024


def _file_error_text(error: FileError) -> str:
    """A file error as the page shows it: an engine refusal (a bad option) in the reader's
    language, the file's own checks as written."""
    if error.refusal is None:
        return str(error)
    text = refusal_text(error.refusal)
    return f"{error.path}: {text}" if error.path else text


def _read_upload(club_name: str) -> tuple[cm.Tournament | None, list[str]]:
    """The uploaded tournament file, read and checked, for this club; or the reasons why not."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return None, [_("Please choose a tournament file (.json).")]
    raw = upload.read(MAX_UPLOAD + 1)
    if len(raw) > MAX_UPLOAD:
        return None, [_("The file is too large.")]
    try:
        doc = json.loads(raw.decode("utf-8-sig"))  # a byte order mark is not part of the text
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        # ValueError: also a number of more than 4300 digits; RecursionError: deep nesting
        why = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        return None, [_("This is not a JSON file: %(why)s", why=why)]
    try:
        comp = load_file(doc)
    except TournamentFileError as error:
        return None, [_file_error_text(e) for e in error.errors]
    if comp.club != club_name:
        return None, [
            _("The file is for the club %(other)s, not %(club)s.", other=comp.club, club=club_name)
        ]
    return comp, []


@bp.post("/clubs/<slug>/tournaments/import")
@club_route("director")
def import_file(club: Club, me: Member) -> ResponseReturnValue:
    form = ImportForm()
    if not form.validate_on_submit():
        abort(400)
    club_name = club.name
    # Nothing is written yet: end the access check's transaction, so that no write lock is held
    # while the file is read, checked and every match derived (seconds for a large file, while
    # other tables enter scores); the import then writes in one short transaction.
    db.session.commit()
    comp, errors = _read_upload(club_name)
    if comp is not None:
        plan = tfiles.plan_import(comp)  # every row, in memory
        try:
            t = tfiles.import_tournament(plan, current(), club)
        except ServiceError as error:
            db.session.rollback()
            errors.append(error.message)
        else:
            db.session.commit()
            flash(_("Tournament imported."), "success")
            return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id), 303)
    return index_page(club, me, form, tuple(errors)), 422


# --- downloads ------------------------------------------------------------------------------------


def _download(data: bytes | str, filename: str, mimetype: str, inline: bool = False) -> Response:
    body = data.encode("utf-8") if isinstance(data, str) else data
    resp = Response(body, mimetype=mimetype)
    disposition = "inline" if inline else "attachment"
    resp.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


def _csv(text: str, filename: str) -> Response:
    """A CSV file with a byte order mark, so spreadsheets read it as UTF-8."""
    return _download("\ufeff" + text, filename, "text/csv")


def _file_name(t: Tournament) -> str:
    return f"tournament-{t.id}"


@bp.get("/clubs/<slug>/tournaments/<int:tid>/export.json")
@club_route("director")
def export_json(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    return _download(tfiles.export_json(t), f"{_file_name(t)}.json", "application/json")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/standings.csv")
@club_route("director")
def standings_csv(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    return _csv(csv_files.standings_csv(t), f"{_file_name(t)}-standings.csv")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/deals.csv")
@club_route("director")
def deals_csv(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    return _csv(csv_files.deals_csv(t), f"{_file_name(t)}-deals.csv")


PAPER_SIZES = ("A4", "Letter")


def _page_size() -> str:
    """``?size=`` A4 (the default) or Letter, in any letter case; anything else is refused."""
    asked = request.args.get("size", "").strip()
    if not asked:
        return "A4"
    for size in PAPER_SIZES:
        if asked.lower() == size.lower():
            return size
    message = _("Paper size %(size)s is not available: choose A4 or Letter.", size=asked[:20])
    abort(Response(message, status=400, mimetype="text/plain"))


def _filled() -> bool:
    return request.args.get("filled") == "1"


def _pdf(make: Callable[[], bytes], filename: str) -> Response:
    try:
        data = make()
    except pr.PrintError as error:
        abort(Response(str(error), status=422, mimetype="text/plain"))
    return _download(data, filename, "application/pdf", inline=True)


@bp.get("/clubs/<slug>/tournaments/<int:tid>/standings.pdf")
@club_route("director")
def standings_pdf(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    doc = printouts.standings_doc(t, club.name)
    return _pdf(lambda: pr.standings(doc, _page_size()), f"{_file_name(t)}-standings.pdf")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/<kind>.pdf")
@club_route("director")
def round_pdf(club: Club, me: Member, tid: int, n: int, kind: str) -> ResponseReturnValue:
    t = tournament(club, tid)
    pack = printouts.round_pack(t, round_(t, n), club.name)
    size = _page_size()
    filled = _filled()
    makers: dict[str, Callable[[], bytes]] = {
        "pack": lambda: pr.print_pack(pack, size, filled=filled),
        "sheets": lambda: pr.print_pack(
            pack, size, filled=filled, with_pairings=False, with_cards=False
        ),
        "cards": lambda: pr.table_cards(list(pack.sheets), size),
        "pairings": lambda: pr.pairings(pack, size),
    }
    if kind not in makers:
        abort(404)
    return _pdf(makers[kind], f"{_file_name(t)}-round{n}-{kind}.pdf")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/sheet.pdf")
@club_route("director")
def sheet_pdf(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    tab = table(round_(t, n), tno, bye=False)
    sheet = printouts.score_sheet(t, tab, club.name)
    return _pdf(
        lambda: pr.score_sheet(sheet, filled=_filled(), page_size=_page_size()),
        f"{_file_name(t)}-round{n}-table{tno}.pdf",
    )


# --- pictures for the group chat ------------------------------------------------------------------


@bp.get("/clubs/<slug>/tournaments/<int:tid>/standings.png")
@club_route("player")
def standings_png(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    data = images.standings_image(t, club)
    return _download(data, f"{_file_name(t)}-standings.png", "image/png")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/result.png")
@club_route("player")
def table_png(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    tab = table(round_(t, n), tno, bye=False)
    data = images.match_image(t, tab, club)
    if data is None:
        abort(404)
    return _download(data, f"{_file_name(t)}-r{n}-t{tno}.png", "image/png")
