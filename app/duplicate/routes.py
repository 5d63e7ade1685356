"""The duplicate pages of a club."""

from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from ..extensions import db
from ..models import ROLE_RANK, Club, DuplicateEvent, Member
from ..permissions import club_route, get_in_club_or_404
from ..services import ServiceError, trash
from ..services.duplicate import audit as trail
from ..services.duplicate import deletion
from ..services.duplicate import events as svc
from ..services.duplicate import files as files_svc
from ..services.duplicate import online as online_svc
from ..services.duplicate import tables as online_tables_svc
from ..services.text import clean_name
from ..tournaments.actions import attempt
from ..tournaments.forms import ConfirmForm
from ..tournaments.lookup import actor
from ..tournaments.options import option_summary
from ..web import show_service_error
from . import bp
from .forms import (
    KIND_LABELS,
    PAIRING_LABELS,
    VARIANT_LABELS,
    DuplicateEventForm,
    DuplicateImportForm,
)

BASE = "/clubs/<slug>/duplicate"


def _event(club: Club, did: int) -> DuplicateEvent:
    return get_in_club_or_404(DuplicateEvent, club, did)


def _index(
    club: Club,
    me: Member,
    form: DuplicateEventForm,
    status: int = 200,
    import_errors: tuple[str, ...] = (),
    import_form: DuplicateImportForm | None = None,
) -> ResponseReturnValue:
    return render_template(
        "duplicate/index.html",
        club=club,
        me=me,
        events=svc.events_of(club),
        form=form,
        import_form=import_form or DuplicateImportForm(formdata=None, prefix="import"),
        import_errors=import_errors,
        director=ROLE_RANK[me.role] >= ROLE_RANK["director"],
        kind_labels=KIND_LABELS,
        pairing_labels=PAIRING_LABELS,
        variant_labels=VARIANT_LABELS,
    ), status


@bp.get(BASE)
@club_route("player")
def index(club: Club, me: Member) -> ResponseReturnValue:
    return _index(club, me, DuplicateEventForm(formdata=None))


@bp.post(BASE)
@club_route("director")
def create(club: Club, me: Member) -> ResponseReturnValue:
    form = DuplicateEventForm()
    if form.validate_on_submit():
        try:
            ev = svc.create_event(
                club,
                me.user,
                form.name.data or "",
                form.variant.data or "",
                form.kind.data or "",
                form.entrants.data or "",
                form.boards_per_round.data or 0,
                form.seed.data,
                form.rounds.data,
                form.pairing.data or "round-robin",
                actor(me).label,
                options={"decks": int(form.decks.data)}
                if form.variant.data == "tractor-4p"
                else {},
                vp_scale=float(form.vp_factor.data) if form.vp_factor.data is not None else None,
            )
        except ServiceError as e:
            db.session.rollback()
            show_service_error(form, e)
        else:
            db.session.commit()
            flash(_("Duplicate event created: print the hand records and travellers."), "success")
            return redirect(url_for("duplicate.event", slug=club.slug, did=ev.id), 303)
    return _index(club, me, form, 422)


@bp.get(BASE + "/<int:did>")
@club_route("player")
def event(club: Club, me: Member, did: int) -> ResponseReturnValue:
    ev = _event(club, did)
    director = ROLE_RANK[me.role] >= ROLE_RANK["director"]
    return render_template(
        "duplicate/event.html",
        club=club,
        me=me,
        ev=ev,
        director=director,
        kind_labels=KIND_LABELS,
        pairing_labels=PAIRING_LABELS,
        variant_labels=VARIANT_LABELS,
        rules=_rules(ev),
        online_tables=online_svc.online_tables(ev) if director else [],
        no_result=online_tables_svc.ended_without_result(ev) if director else set(),
        **svc.standings_page(ev, director),
    )


def _rules(ev: DuplicateEvent) -> list[tuple[str, str]]:
    """The options the boards are dealt and scored with, in words: (label, value): the decks
    of 升级, any other option not at its default, a team event's VP scale factor."""
    out = [
        (x["label"], x["value"])
        for x in option_summary(ev.variant, ev.options or {})
        if x["changed"] or x["option"] == "decks"
    ]
    if ev.kind == "teams":
        out.append((_("VP scale factor"), f"{svc.vp_factor(ev):g}"))
    return out


def _board_page(
    club: Club,
    me: Member,
    ev: DuplicateEvent,
    board: int,
    values: dict[str, str] | None,
    status: int,
    stale: dict[tuple[int, int], str] | None = None,
) -> ResponseReturnValue:
    """The traveller form. ``values``: what was typed (shown again after a refusal, with the
    lines as they were shown then, so the next save is still checked against them);
    ``stale``: a save was refused because these lines changed: they show what is stored now,
    with what had been typed there beside them; the other lines keep what was typed."""
    m = svc.movement_of(ev)
    if not 1 <= board <= m.boards:
        abort(404)
    rows = svc.board_sheet(ev, board, m)
    typed: dict[str, str] = {}
    if stale is not None and values is not None:
        # the lines that changed meanwhile show what is stored now (and beside it what was
        # typed there); every other line keeps what was typed
        values = dict(values)
        for r in rows:
            if (r.round, r.table) in stale:
                if svc.typed_over(ev, r, values):
                    typed[r.key] = svc.typed_words(ev, r, values)
                values.update(svc.line_fields(ev, r))
    return render_template(
        "duplicate/board.html",
        club=club,
        me=me,
        ev=ev,
        board=board,
        boards=m.boards,
        rows=rows,
        no_result={(r, t) for b, r, t in online_tables_svc.ended_without_result(ev) if b == board},
        values=values,
        typed=typed,
        red_five=ev.variant == "red-five-5p",
    ), status


@bp.route(BASE + "/<int:did>/boards/<int:board>", methods=["GET", "POST"])
@club_route("director")
def board(club: Club, me: Member, did: int, board: int) -> ResponseReturnValue:
    """A board's traveller: every table's result on it, typed in at once (all or nothing)."""
    ev = _event(club, did)
    if request.method == "GET":
        return _board_page(club, me, ev, board, None, 200)
    if not 1 <= board <= svc.movement_of(ev).boards:
        abort(404)
    try:
        n = svc.save_board(ev, board, request.form, actor(me), request.form.get("reason"))
    except svc.StaleBoard as e:
        db.session.rollback()
        flash(e.message, "error")
        return _board_page(club, me, ev, board, request.form.to_dict(), 409, stale=e.changed)
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
        return _board_page(club, me, ev, board, request.form.to_dict(), 422)
    db.session.commit()
    flash(
        ngettext(
            "Board %(b)d saved: %(num)d result.", "Board %(b)d saved: %(num)d results.", n, b=board
        ),
        "success",
    )
    return redirect(url_for("duplicate.event", slug=club.slug, did=ev.id), 303)


def _pdf(data: bytes, name: str) -> Response:
    r = Response(data, mimetype="application/pdf")
    r.headers["Content-Disposition"] = f'inline; filename="{name}"'
    return r


@bp.get(BASE + "/<int:did>/hand-records.pdf")
@club_route("director")
def hand_records(club: Club, me: Member, did: int) -> ResponseReturnValue:
    ev = _event(club, did)
    results = request.args.get("results") == "1"
    draws = request.args.get("draws") == "1"
    return _pdf(svc.hand_records_pdf(ev, results, draws), f"hand-records-{ev.id}.pdf")


@bp.get(BASE + "/<int:did>/published.pdf")
@club_route("player")
def published(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """After the session: the hand records with every table's result and the bots' par, for the
    club. Before every board is complete it does not exist (the cards are still secret)."""
    ev = _event(club, did)
    m = svc.movement_of(ev)
    if len(svc.complete_boards(ev, m)) != m.boards:
        abort(404)
    return _pdf(svc.hand_records_pdf(ev, True), f"hand-records-{ev.id}.pdf")


@bp.get(BASE + "/<int:did>/travellers.pdf")
@club_route("director")
def travellers(club: Club, me: Member, did: int) -> ResponseReturnValue:
    ev = _event(club, did)
    return _pdf(svc.travellers_pdf(ev), f"travellers-{ev.id}.pdf")


@bp.get(BASE + "/<int:did>/scorecards.pdf")
@club_route("director")
def scorecards(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """A team event's match scorecards, filled with the results so far."""
    ev = _event(club, did)
    if ev.kind != "teams":
        flash(_("Team match scorecards are for team events."), "error")
        return redirect(url_for("duplicate.event", slug=club.slug, did=did), 303)
    return _pdf(svc.scorecards_pdf(ev), f"scorecards-{ev.id}.pdf")


@bp.post(BASE + "/<int:did>/rounds/<int:rnd>/online")
@club_route("director")
def play_online(club: Club, me: Member, did: int, rnd: int) -> ResponseReturnValue:
    """Play a round online: a table per (table, board), each dealing its board's own draw; its
    result fills the board's traveller line when it is played out."""
    ev = _event(club, did)
    if not 1 <= rnd <= svc.movement_of(ev).rounds:
        abort(404)
    try:
        n = online_svc.play_round_online(ev, rnd, me.user, actor(me))
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
    else:
        db.session.commit()
        flash(
            ngettext(
                "Round %(r)d is played online at %(num)d table: give each seat its link.",
                "Round %(r)d is played online at %(num)d tables: give each seat its link.",
                n,
                r=rnd,
            ),
            "success",
        )
    return redirect(url_for("duplicate.event", slug=club.slug, did=did), 303)


@bp.post(BASE + "/<int:did>/pair")
@club_route("director")
def pair_round(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """A Swiss of teams: pair the next round from the VPs so far, once every board of every
    match paired so far has its result (a paired round is never paired again)."""
    ev = _event(club, did)
    try:
        row = svc.pair_next_round(ev, me.user, actor(me).label)
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
    else:
        db.session.commit()
        flash(_("Round %(n)d is paired.", n=row.round), "success")
    return redirect(url_for("duplicate.event", slug=club.slug, did=did), 303)


# --- the projector and the audit trail ------------------------------------------------------------


@bp.get(BASE + "/<int:did>/projector")
@club_route("player")
def projector(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """The standings on a wall: big type, no director's controls, kept up to date by polling
    ``standings_live``. Only what players may see, whoever opens it (a director's laptop on the
    projector shows no board before every table has played it)."""
    ev = _event(club, did)
    return render_template(
        "duplicate/projector.html",
        club=club,
        ev=ev,
        live=True,
        kind_labels=KIND_LABELS,
        variant_labels=VARIANT_LABELS,
        follow_url=url_for("duplicate.event", slug=club.slug, did=ev.id, _external=True),
        **svc.standings_page(ev, director=False),
    )


@bp.get(BASE + "/<int:did>/standings/live")
@club_route("player")
def standings_live(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """The projector's standings partial, or 204 (no body) while the event's version is the
    one the page shows."""
    ev = _event(club, did)
    if request.args.get("v") == str(ev.version):
        return Response(status=204)
    return render_template(
        "duplicate/_standings.html",
        club=club,
        ev=ev,
        live=True,
        **svc.standings_page(ev, director=False),
    )


@bp.post(BASE + "/<int:did>/delete")
@club_route("director")
def delete(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """Delete an event (with its online tables): hidden everywhere, restorable from the club's
    page for 30 days."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    ev = _event(club, did)
    name = ev.name
    ok, _done = attempt(
        lambda: deletion.delete_event(ev, actor(me), reason=request.form.get("reason"))
    )
    if not ok:
        return redirect(url_for("duplicate.event", slug=club.slug, did=ev.id), 303)
    flash(
        _(
            "%(name)s deleted. You can restore it from the club's page for %(n)d days.",
            name=name,
            n=trash.KEEP_DAYS,
        ),
        "success",
    )
    return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)


@bp.post("/clubs/<slug>/deleted/duplicate/<int:did>/restore")
@club_route("director")
def restore(club: Club, me: Member, did: int) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    ev = deletion.deleted_event(club, did)
    if ev is None:
        abort(404)
    name = ev.name
    ok, _done = attempt(lambda: deletion.restore_event(ev, actor(me)))
    if not ok:
        return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)
    flash(_("%(name)s restored, with everything it had.", name=name), "success")
    return redirect(url_for("duplicate.event", slug=club.slug, did=ev.id), 303)


@bp.get(BASE + "/<int:did>/audit")
@club_route("director")
def audit(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """The event's changes: created, each traveller line typed or corrected, rounds paired and
    sent online, online boards ended without a result."""
    ev = _event(club, did)
    return render_template("duplicate/audit.html", club=club, me=me, ev=ev, entries=trail.lines(ev))


# --- files: the event file (export, import) and the CSV files -------------------------------------


def _download(text: str, filename: str, mimetype: str) -> Response:
    r = Response(text.encode("utf-8"), mimetype=mimetype)
    r.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    r.headers["X-Content-Type-Options"] = "nosniff"
    return r


@bp.get(BASE + "/<int:did>/event.json")
@club_route("director")
def export_file(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """The event as a tournament file with its duplicate part: boards, pairings, results."""
    ev = _event(club, did)
    return _download(files_svc.export_json(ev), f"duplicate-{ev.id}.json", "application/json")


@bp.post(BASE + "/import")
@club_route("director")
def import_file(club: Club, me: Member) -> ResponseReturnValue:
    """An event file from another club or installation, as a new event of this club (all or
    nothing)."""
    form = DuplicateImportForm(prefix="import")
    if not form.validate_on_submit():
        if form.csrf_token.errors:
            abort(400)
        return _index(club, me, DuplicateEventForm(formdata=None), 422, import_form=form)
    upload = request.files.get("file")
    try:
        name = clean_name(form.name.data, "name", 120) if form.name.data else None
        if upload is None or not upload.filename:
            raise files_svc.FileRefused([_("Please choose a duplicate event file (.json).")])
        e = files_svc.read_file(upload.read(files_svc.MAX_UPLOAD + 1))
        ev = files_svc.import_event(club, me.user, e, name)
    except ServiceError as error:  # the name typed on the form
        db.session.rollback()
        form.name.errors = [error.message]
        return _index(club, me, DuplicateEventForm(formdata=None), 422, import_form=form)
    except files_svc.FileRefused as error:
        db.session.rollback()
        return _index(club, me, DuplicateEventForm(formdata=None), 422, tuple(error.reasons), form)
    db.session.commit()
    flash(_("Duplicate event imported."), "success")
    return redirect(url_for("duplicate.event", slug=club.slug, did=ev.id), 303)


def _director(me: Member) -> bool:
    return ROLE_RANK[me.role] >= ROLE_RANK["director"]


@bp.get(BASE + "/<int:did>/standings.csv")
@club_route("player")
def standings_csv(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """The standings as the event page shows them to this viewer (no peeking)."""
    ev = _event(club, did)
    text = files_svc.standings_csv(ev, _director(me))
    return _download("\ufeff" + text, f"duplicate-{ev.id}-standings.csv", "text/csv")


@bp.get(BASE + "/<int:did>/boards.csv")
@club_route("player")
def boards_csv(club: Club, me: Member, did: int) -> ResponseReturnValue:
    """Board by board, every table's result; a player gets the complete boards only."""
    ev = _event(club, did)
    text = files_svc.boards_csv(ev, _director(me))
    return _download("\ufeff" + text, f"duplicate-{ev.id}-boards.csv", "text/csv")
