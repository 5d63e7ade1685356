"""Tournament pages. Club pages go through ``club_route`` (login, membership, role); the public
standings need no login; a table's code opens that one table's score sheet and nothing else."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from engine.errors import EngineError
from engine.variants import RED_FIVE, default_options, make_variant, option_names, option_spec

from .. import printing as pr
from ..competition.matches import FixedMatch
from ..competition.tfile import TournamentFileError
from ..competition.tfile import load as load_file
from ..extensions import db, htmx
from ..forms_common import choices
from ..models import Club, Entrant, Member, Round, Table, Tournament, User
from ..permissions import club_route, membership
from ..services import ServiceError
from ..services import tournament_files as files
from ..services import tournaments as svc
from ..web import show_service_error
from . import bp
from .forms import (
    MATCH_LABELS,
    NO_TRUMP,
    PAIRING_LABELS,
    SUIT_LABELS,
    VARIANT_LABELS,
    ConfirmForm,
    DealForm,
    EntrantForm,
    ImportForm,
    SwapForm,
    TournamentForm,
    option_fields,
)

MAX_UPLOAD = 5 * 1024 * 1024


def _user() -> User | None:
    if not current_user.is_authenticated:
        return None
    return current_user._get_current_object()  # type: ignore[attr-defined,no-any-return]


def _actor(me: Member) -> svc.Actor:
    return svc.Actor(
        label=me.display_name,
        user=_user(),
        owner=me.role == "owner",
        director=me.role in ("owner", "director"),
    )


def _tournament(club: Club, tid: int) -> Tournament:
    t = svc.in_club(club, tid)
    if t is None:
        abort(404)
    return t


def _round(t: Tournament, n: int) -> Round:
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == t.id, Round.number == n))
    if rnd is None:
        abort(404)
    return rnd


def _table(rnd: Round, tno: int) -> Table:
    tab = db.session.scalar(select(Table).where(Table.round_id == rnd.id, Table.number == tno))
    if tab is None:
        abort(404)
    return tab


def _labels() -> dict[str, Any]:
    return {
        "variant_labels": VARIANT_LABELS,
        "pairing_labels": PAIRING_LABELS,
        "match_labels": MATCH_LABELS,
    }


def match_text(match: dict[str, Any]) -> str:
    if "deals" in match:
        return _("%(n)d deals", n=match["deals"])
    if "minutes" in match:
        return _("%(n)d minutes", n=match["minutes"])
    return _("play to A")


@bp.app_context_processor
def _inject() -> dict[str, Any]:
    return {"match_text": match_text, "variant_labels": VARIANT_LABELS}


# --- list and set up ----------------------------------------------------------------------------


@bp.get("/clubs/<slug>/tournaments")
@club_route("player")
def index(club: Club, me: Member) -> ResponseReturnValue:
    return render_template(
        "tournaments/index.html",
        club=club,
        me=me,
        tournaments=svc.club_tournaments(club),
        import_form=ImportForm(formdata=None),
        **_labels(),
    )


def _parse_options(variant: str, form: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """The options typed in the set up form that differ from the defaults, and errors."""
    defaults = default_options(variant)
    given: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name in option_names(variant):
        spec = option_spec(name)
        raw = (form.get(f"opt_{name}") or "").strip()
        value: Any
        if spec.kind == "bool":
            value = raw == "true"
        elif spec.kind == "choice":
            assert spec.choices is not None
            match = [c for c in spec.choices if str(c) == raw]
            if not match:
                errors[name] = _("Please choose one of the listed values.")
                continue
            value = match[0]
        elif spec.kind == "points_or_null":
            if raw == "":
                value = None
            elif raw.isdigit() and int(raw) % 5 == 0:
                value = int(raw)
            else:
                errors[name] = _("A number of points in steps of 5, or empty for none.")
                continue
        else:  # levels
            value = [x.strip().upper() for x in raw.replace("，", ",").split(",") if x.strip()]
        try:
            checked = make_variant(variant, {name: value}).options[name]
        except EngineError:
            errors[name] = _("Levels such as 5, 10, K, A separated by commas.")
            continue
        if checked != defaults.get(name):
            given[name] = checked
    return given, errors


@bp.route("/clubs/<slug>/tournaments/new", methods=["GET", "POST"])
@club_route("director")
def new(club: Club, me: Member) -> ResponseReturnValue:
    form = TournamentForm()
    variant = form.variant.data if form.variant.data in VARIANT_LABELS else "tractor-4p"
    if request.method == "GET":
        variant = request.args.get("variant", variant)
        if variant not in VARIANT_LABELS:
            variant = "tractor-4p"
        form.variant.data = variant
        if variant == RED_FIVE:
            form.pairing.data = "reseat"
    option_errors: dict[str, str] = {}
    form_data = request.form if request.method == "POST" else None
    if request.method == "POST" and form.options_variant.data != variant:
        form_data = None  # the options shown were another game's: show this one's, save nothing
        form.validate()
        flash(_("Check the rule options of this game, then create the tournament."), "info")
    elif form.validate_on_submit():
        options, option_errors = _parse_options(variant, request.form)
        if not option_errors:
            kind = form.match_kind.data or "deals"
            match: dict[str, Any] = (
                {"to_a": True} if kind == "to_a" else {kind: form.match_value.data}
            )
            points: dict[str, Any] = {
                "win": form.win.data,
                "draw": form.draw.data,
                "loss": form.loss.data,
            }
            if form.bye.data is not None:
                points["bye"] = form.bye.data
            if form.forfeit_level_diff.data != 3:
                points["forfeit_level_diff"] = form.forfeit_level_diff.data
            try:
                t = svc.create_tournament(
                    club,
                    _user(),
                    form.name.data or "",
                    variant,
                    options,
                    form.pairing.data or "",
                    form.rounds.data or 0,
                    match,
                    points,
                )
            except ServiceError as error:
                db.session.rollback()
                show_service_error(form, error)
            else:
                db.session.commit()
                flash(_("Tournament created. Now add the entrants."), "success")
                return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id), 303)
    status = 200 if request.method == "GET" else 422
    return render_template(
        "tournaments/new.html",
        club=club,
        me=me,
        form=form,
        variant=variant,
        options=option_fields(variant, form_data, default_options(variant)),
        option_errors=option_errors,
        **_labels(),
    ), status


@bp.get("/clubs/<slug>/tournaments/new/options")
@club_route("director")
def new_options(club: Club, me: Member) -> ResponseReturnValue:
    variant = request.args.get("variant", "")
    if variant not in VARIANT_LABELS:
        abort(404)
    return render_template(
        "tournaments/_options.html",
        variant=variant,
        options=option_fields(variant, None, default_options(variant)),
        option_errors={},
    )


@bp.post("/clubs/<slug>/tournaments/import")
@club_route("director")
def import_file(club: Club, me: Member) -> ResponseReturnValue:
    form = ImportForm()
    errors: list[str] = []
    upload = request.files.get("file")
    if not form.validate_on_submit():
        abort(400)
    if upload is None or not upload.filename:
        errors.append(_("Please choose a tournament file (.json)."))
    else:
        raw = upload.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            errors.append(_("The file is too large."))
        else:
            try:
                doc = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                errors.append(_("This is not a JSON file: %(why)s", why=str(error)))
            else:
                try:
                    comp = load_file(doc)
                except TournamentFileError as error:
                    errors += [str(e) for e in error.errors]
                else:
                    if comp.club != club.name:
                        errors.append(
                            _(
                                "The file is for the club %(other)s, not %(club)s.",
                                other=comp.club,
                                club=club.name,
                            )
                        )
                    else:
                        try:
                            t = svc.import_tournament(comp, _user(), club)
                        except ServiceError as error:
                            db.session.rollback()
                            errors.append(error.message)
                        else:
                            db.session.commit()
                            flash(_("Tournament imported."), "success")
                            return redirect(
                                url_for("tournaments.show", slug=club.slug, tid=t.id), 303
                            )
    return render_template(
        "tournaments/index.html",
        club=club,
        me=me,
        tournaments=svc.club_tournaments(club),
        import_form=form,
        import_errors=errors,
        **_labels(),
    ), 422


# --- the tournament page ------------------------------------------------------------------------


def _show_context(club: Club, me: Member, t: Tournament, **extra: Any) -> dict[str, Any]:
    loaded = svc.load(t)
    ctx = {
        "club": club,
        "me": me,
        "t": t,
        "loaded": loaded,
        "rounds": svc.rounds_of(t),
        "entrant_form": EntrantForm(formdata=None),
        "confirm_form": ConfirmForm(formdata=None),
        "side_size": svc.side_size(t),
        "members": [m.display_name for m in club.members],
        "director": me.role in ("owner", "director"),
        **_labels(),
    }
    ctx.update(extra)
    return ctx


@bp.get("/clubs/<slug>/tournaments/<int:tid>")
@club_route("player")
def show(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    return render_template("tournaments/show.html", **_show_context(club, me, t))


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants")
@club_route("director")
def add_entrant(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    form = EntrantForm()
    if form.validate_on_submit():
        players = [form.player_0.data or "", form.player_1.data or "", form.player_2.data or ""]
        try:
            e = svc.add_entrant(club, t, form.name.data, players, _actor(me))
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            message = _("%(name)s entered.", name=e.name)
            if htmx:
                db.session.expire_all()
                t = _tournament(club, tid)
                return render_template(
                    "tournaments/_entrants.html", **_show_context(club, me, t, status=message)
                )
            flash(message, "success")
            return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id), 303)
    if htmx:
        return render_template(
            "tournaments/_entrants.html", **_show_context(club, me, t, entrant_form=form)
        )
    return render_template(
        "tournaments/show.html", **_show_context(club, me, t, entrant_form=form)
    ), 422


def _entrant(t: Tournament, eid: int) -> Entrant:
    e = db.session.scalar(select(Entrant).where(Entrant.id == eid, Entrant.tournament_id == t.id))
    if e is None:
        abort(404)
    return e


def _post_action(club: Club, action: Any, target: str, ok_message: str) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        action()
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
    else:
        db.session.commit()
        flash(ok_message, "success")
    return redirect(target, 303)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/withdraw")
@club_route("director")
def withdraw(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    e = _entrant(t, eid)
    return _post_action(
        club,
        lambda: svc.withdraw_entrant(t, e, _actor(me)),
        url_for("tournaments.show", slug=club.slug, tid=t.id),
        _("%(name)s withdrawn: not seated in later rounds.", name=e.name),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/reinstate")
@club_route("director")
def reinstate(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    e = _entrant(t, eid)
    return _post_action(
        club,
        lambda: svc.reinstate_entrant(t, e, _actor(me)),
        url_for("tournaments.show", slug=club.slug, tid=t.id),
        _("%(name)s is back in the tournament.", name=e.name),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds")
@club_route("director")
def seat_round(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        rnd = svc.seat_next_round(t, _actor(me))
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
        return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id), 303)
    db.session.commit()
    flash(_("Round %(n)d seated.", n=rnd.number), "success")
    return redirect(url_for("tournaments.round_page", slug=club.slug, tid=t.id, n=rnd.number), 303)


# --- rounds -------------------------------------------------------------------------------------


def _round_context(club: Club, me: Member, t: Tournament, rnd: Round) -> dict[str, Any]:
    rows = []
    variant = svc.variant_of(t)
    spec = svc.match_spec(t.match)
    entrants: list[tuple[int, str]] = []
    for tab in rnd.tables:
        names = [s.entrant for s in tab.seats]
        entrants += [(e.id, e.name) for e in names]
        state = None
        if tab.kind != "bye":
            derived = svc.derive(variant, spec, svc.comp_table(t, tab))
            state = derived
        rows.append({"table": tab, "entrants": names, "derived": state})
    swap = SwapForm(formdata=None)
    swap.first.choices = choices(entrants)
    swap.second.choices = choices(entrants)
    return {
        "club": club,
        "me": me,
        "t": t,
        "rnd": rnd,
        "rows": rows,
        "director": me.role in ("owner", "director"),
        "owner": me.role == "owner",
        "has_results": svc.round_has_results(rnd),
        "is_last": rnd.number == len(svc.rounds_of(t)),
        "confirm_form": ConfirmForm(formdata=None),
        "swap_form": swap,
    }


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>")
@club_route("player")
def round_page(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    return render_template("tournaments/round.html", **_round_context(club, me, t, rnd))


def _round_url(club: Club, t: Tournament, n: int) -> str:
    return url_for("tournaments.round_page", slug=club.slug, tid=t.id, n=n)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/repair")
@club_route("director")
def repair(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    return _post_action(
        club,
        lambda: svc.repair_round(t, rnd, _actor(me)),
        _round_url(club, t, n),
        _("Round %(n)d paired again.", n=n),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/close")
@club_route("director")
def close(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    return _post_action(
        club,
        lambda: svc.close_round(t, rnd, _actor(me)),
        _round_url(club, t, n),
        _("Round %(n)d closed.", n=n),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/reopen")
@club_route("owner")
def reopen(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    return _post_action(
        club,
        lambda: svc.reopen_round(t, rnd, _actor(me)),
        _round_url(club, t, n),
        _("Round %(n)d is open again.", n=n),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/swap")
@club_route("director")
def swap(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    form = SwapForm()
    ids = [(s.entrant_id, s.entrant.name) for tab in rnd.tables for s in tab.seats]
    form.first.choices = choices(ids)
    form.second.choices = choices(ids)
    if not form.validate_on_submit():
        flash(_("Choose two entrants of this round."), "error")
        return redirect(_round_url(club, t, n), 303)
    try:
        svc.swap_entrants(t, rnd, form.first.data or 0, form.second.data or 0, _actor(me))
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
    else:
        db.session.commit()
        flash(_("Entrants swapped."), "success")
    return redirect(_round_url(club, t, n), 303)


# --- score sheets -------------------------------------------------------------------------------


def _sheet_names(t: Tournament, tab: Table) -> tuple[list[str], list[str]]:
    entrants = svc.table_entrants(tab)
    if tab.kind == "sides":
        seats: list[str] = []
        for pa, pb in zip(entrants[0].players, entrants[1].players, strict=False):
            seats += [pa.name, pb.name]
        return [e.name for e in entrants], seats
    return [], [e.name for e in entrants]


def _deal_form(t: Tournament, tab: Table, formdata: bool) -> DealForm:
    form = DealForm() if formdata else DealForm(formdata=None)
    sides, seats = _sheet_names(t, tab)
    form.setup(svc.variant_of(t), sides, seats)
    return form


def _defaults_for_next(form: DealForm, derived: Any, t: Tournament) -> None:
    if isinstance(derived, FixedMatch):
        form.declarer.data = derived.next_declarer if derived.next_declarer is not None else 0
    else:
        form.dealer.data = derived.rows[-1].next_dealer if derived.rows else 0
        form.friend.data = None
    form.trump.data = "S"
    form.multiplier.data = 0
    form.level.data = ""


def _sheet_context(
    t: Tournament,
    tab: Table,
    actor: svc.Actor,
    urls: dict[str, str],
    form: DealForm | None = None,
    edit_index: int | None = None,
    form_error: str | None = None,
    status: str | None = None,
) -> dict[str, Any]:
    derived = svc.sheet(t, tab)
    if form is None:
        form = _deal_form(t, tab, formdata=False)
        if edit_index is not None:
            form.fill_from(svc.deal_from_row(tab.deals[edit_index], t.variant))
        else:
            _defaults_for_next(form, derived, t)
    form.seen.data = str(len(tab.deals))
    sides, seats = _sheet_names(t, tab)
    complete = derived.counts
    return {
        "t": t,
        "tab": tab,
        "rnd": tab.round,
        "derived": derived,
        "fixed": isinstance(derived, FixedMatch),
        "deals": [svc.deal_from_row(d, t.variant) for d in tab.deals],
        "form": form,
        "edit_index": edit_index,
        "form_error": form_error,
        "status": status,
        "urls": urls,
        "side_names": sides,
        "seat_names": seats,
        "may_edit": svc.may_edit(tab.round, actor) and tab.forfeit is None,
        "complete": complete,
        "suit_labels": SUIT_LABELS,
        "no_trump": NO_TRUMP,
        "confirm_form": ConfirmForm(formdata=None),
        "relevant": set(form.relevant()),
        "variant_id": t.variant,
        "timed": "deals" not in t.match,
    }


def _sheet_response(
    t: Tournament,
    tab: Table,
    actor: svc.Actor,
    urls: dict[str, str],
    page: str,
    page_ctx: dict[str, Any],
    edit_index: int | None = None,
) -> ResponseReturnValue:
    """GET shows the sheet; POST records (or corrects) a deal."""
    if edit_index is not None and not 0 <= edit_index < len(tab.deals):
        abort(404)
    if request.method == "GET":
        ctx = _sheet_context(t, tab, actor, urls, edit_index=edit_index)
        return render_template(page, **page_ctx, **ctx)
    form = _deal_form(t, tab, formdata=True)
    form_error = None
    ok = False
    if form.validate_relevant():
        try:
            svc.record_deal(
                t, tab, form.to_deal(), actor, index=edit_index, expected_count=form.seen_count()
            )
        except svc.DealErrors as error:
            db.session.rollback()
            for name, message in error.fields.items():
                if name and name in form and name in form.relevant():
                    form[name].errors = [*form[name].errors, message]  # type: ignore[list-item]
                elif name == "failed_throws":
                    target = "ft_declarer" if t.variant == "tractor-4p" else "ft_seat_0"
                    form[target].errors = [*form[target].errors, message]  # type: ignore[list-item]
                elif name == "misplays":
                    form["misplays_0"].errors = [*form["misplays_0"].errors, message]  # type: ignore[list-item]
                else:
                    form_error = message
        else:
            db.session.commit()
            ok = True
    if ok:
        n = (edit_index + 1) if edit_index is not None else len(tab.deals)
        message = (
            _("Deal %(n)d corrected.", n=n)
            if edit_index is not None
            else _("Deal %(n)d recorded.", n=n)
        )
        if htmx and edit_index is None:
            db.session.refresh(tab)
            ctx = _sheet_context(t, tab, actor, urls, status=message)
            return render_template("tournaments/_sheet.html", **ctx)
        flash(message, "success")
        return redirect(urls["sheet"], 303)
    db.session.refresh(tab)
    ctx = _sheet_context(
        t, tab, actor, urls, form=form, edit_index=edit_index, form_error=form_error
    )
    if htmx and edit_index is None:
        return render_template("tournaments/_sheet.html", **ctx)
    return render_template(page, **page_ctx, **ctx), 422


def _director_urls(club: Club, t: Tournament, rnd: Round, tab: Table) -> dict[str, str]:
    kw: dict[str, Any] = {"slug": club.slug, "tid": t.id, "n": rnd.number, "tno": tab.number}
    return {
        "sheet": url_for("tournaments.table_sheet", **kw),
        "edit": url_for("tournaments.edit_deal", **kw, i=0)[:-1],
        "undo": url_for("tournaments.undo_deal", **kw),
        "finish": url_for("tournaments.finish_table", **kw),
        "forfeit": url_for("tournaments.forfeit_table", **kw),
        "pdf": url_for("tournaments.sheet_pdf", **kw),
        "round": url_for("tournaments.round_page", slug=club.slug, tid=t.id, n=rnd.number),
    }


@bp.route(
    "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>", methods=["GET", "POST"]
)
@club_route("director")
def table_sheet(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    tab = _table(rnd, tno)
    if tab.kind == "bye":
        abort(404)
    urls = _director_urls(club, t, rnd, tab)
    page_ctx = {"club": club, "me": me, "director": True, "owner": me.role == "owner"}
    return _sheet_response(t, tab, _actor(me), urls, "tournaments/sheet.html", page_ctx)


@bp.route(
    "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/deals/<int:i>",
    methods=["GET", "POST"],
)
@club_route("director")
def edit_deal(club: Club, me: Member, tid: int, n: int, tno: int, i: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    tab = _table(rnd, tno)
    if tab.kind == "bye":
        abort(404)
    urls = _director_urls(club, t, rnd, tab)
    page_ctx = {"club": club, "me": me, "director": True, "owner": me.role == "owner"}
    return _sheet_response(
        t, tab, _actor(me), urls, "tournaments/sheet.html", page_ctx, edit_index=i - 1
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/undo")
@club_route("director")
def undo_deal(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    tab = _table(_round(t, n), tno)
    return _table_action(
        lambda: svc.delete_last_deal(t, tab, _actor(me)),
        _director_urls(club, t, tab.round, tab)["sheet"],
        _("The last deal was removed."),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/finish")
@club_route("director")
def finish_table(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    tab = _table(_round(t, n), tno)
    finished = request.form.get("finished", "1") == "1"
    return _table_action(
        lambda: svc.set_finished(t, tab, finished, _actor(me)),
        _director_urls(club, t, tab.round, tab)["sheet"],
        _("Table marked finished.") if finished else _("Table open again."),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/forfeit")
@club_route("director")
def forfeit_table(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    tab = _table(_round(t, n), tno)
    raw = request.form.get("side", "")
    side = int(raw) if raw in ("0", "1") else None
    return _table_action(
        lambda: svc.set_forfeit(t, tab, side, _actor(me)),
        _director_urls(club, t, tab.round, tab)["sheet"],
        _("Forfeit recorded.") if side is not None else _("Forfeit removed."),
    )


def _table_action(action: Any, target: str, ok_message: str) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        action()
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
    else:
        db.session.commit()
        flash(ok_message, "success")
    return redirect(target, 303)


# --- a table's code: that one sheet and nothing else --------------------------------------------


@bp.route("/table", methods=["GET", "POST"])
def table_code() -> ResponseReturnValue:
    error = None
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            abort(400)
        tab = svc.table_by_code(request.form.get("code", ""))
        if tab is not None:
            return redirect(url_for("tournaments.code_sheet", code=tab.code), 303)
        error = _("No table has this code. Check the code on the score sheet.")
    return render_template(
        "tournaments/code.html", error=error, confirm_form=ConfirmForm(formdata=None)
    ), (422 if error else 200)


def _code_table(code: str) -> tuple[Tournament, Table]:
    tab = svc.table_by_code(code)
    if tab is None or tab.code != code:
        abort(404)
    t = db.session.get(Tournament, tab.round.tournament_id)
    assert t is not None
    return t, tab


def _code_actor(tab: Table) -> svc.Actor:
    user = _user()
    who = user.display_name if user else _("guest")
    return svc.Actor(
        label=_("%(who)s with the code of table %(n)d", who=who, n=tab.number), user=user
    )


def _code_urls(tab: Table) -> dict[str, str]:
    code = tab.code or ""
    return {
        "sheet": url_for("tournaments.code_sheet", code=code),
        "edit": url_for("tournaments.code_edit", code=code, i=0)[:-1],
    }


@bp.route("/table/<code>", methods=["GET", "POST"])
def code_sheet(code: str) -> ResponseReturnValue:
    t, tab = _code_table(code)
    return _sheet_response(
        t, tab, _code_actor(tab), _code_urls(tab), "tournaments/sheet.html", {"by_code": True}
    )


@bp.route("/table/<code>/deals/<int:i>", methods=["GET", "POST"])
def code_edit(code: str, i: int) -> ResponseReturnValue:
    t, tab = _code_table(code)
    return _sheet_response(
        t,
        tab,
        _code_actor(tab),
        _code_urls(tab),
        "tournaments/sheet.html",
        {"by_code": True},
        edit_index=i - 1,
    )


# --- public standings ---------------------------------------------------------------------------


def _public(tid: int) -> Tournament:
    t = db.session.get(Tournament, tid)
    if t is None:
        abort(404)
    return t


def _standings_ctx(t: Tournament) -> dict[str, Any]:
    loaded = svc.load(t)
    club = db.session.get(Club, t.club_id)
    rounds = sorted(loaded.round_status.items())
    return {
        "t": t,
        "club_name": club.name if club else "",
        "loaded": loaded,
        "rows": loaded.standings,
        "fixed": loaded.tournament.fixed_sides,
        "rounds_status": rounds,
    }


@bp.get("/standings/<int:tid>")
def standings(tid: int) -> ResponseReturnValue:
    t = _public(tid)
    return render_template(
        "tournaments/standings.html",
        projector=request.args.get("projector") == "1",
        **_standings_ctx(t),
    )


@bp.get("/standings/<int:tid>/live")
def standings_live(tid: int) -> ResponseReturnValue:
    """The standings partial, or 204 (no body, no render) when the version is unchanged."""
    version = db.session.scalar(select(Tournament.version).where(Tournament.id == tid))
    if version is None:
        abort(404)
    if request.args.get("v") == str(version):
        return Response(status=204)
    t = _public(tid)
    return render_template("tournaments/_standings.html", **_standings_ctx(t))


@bp.get("/standings/<int:tid>/entrants/<int:eid>")
def history(tid: int, eid: int) -> ResponseReturnValue:
    t = _public(tid)
    e = _entrant(t, eid)
    loaded = svc.load(t)
    comp = loaded.tournament
    variant = comp.rules
    matches = []
    for rnd in comp.played:
        for tab in rnd.tables:
            if e.name not in tab.entrants:
                continue
            if tab.bye is not None:
                matches.append({"round": rnd.round, "bye": True, "table": tab})
                continue
            derived = svc.derive(variant, comp.match, tab)
            item: dict[str, Any] = {
                "round": rnd.round,
                "bye": False,
                "table": tab,
                "derived": derived,
                "deals": tab.deals,
            }
            if isinstance(derived, FixedMatch):
                assert tab.sides is not None
                side = tab.sides.index(e.name)
                item["side"] = side
                item["opponent"] = tab.sides[1 - side]
                if derived.counts:
                    item["outcome"] = derived.outcome(side)
                    item["level_diff"] = derived.level_diff(side, comp.points.forfeit_level_diff)
            else:
                assert tab.players is not None
                seat = tab.players.index(e.name)
                item["seat"] = seat
                item["score"] = derived.totals[seat]
            matches.append(item)
    row = next((r for r in loaded.standings if r.entrant == e.name), None)
    club = db.session.get(Club, t.club_id)
    return render_template(
        "tournaments/history.html",
        t=t,
        e=e,
        row=row,
        matches=matches,
        fixed=comp.fixed_sides,
        club_name=club.name if club else "",
        suit_labels=SUIT_LABELS,
    )


# --- audit, files, PDFs -------------------------------------------------------------------------


@bp.get("/clubs/<slug>/tournaments/<int:tid>/audit")
@club_route("director")
def audit(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    return render_template(
        "tournaments/audit.html", club=club, me=me, t=t, entries=svc.audit_trail(t)
    )


def _download(data: bytes | str, filename: str, mimetype: str) -> Response:
    body = data.encode("utf-8") if isinstance(data, str) else data
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp


def _slug_name(t: Tournament) -> str:
    return f"tournament-{t.id}"


@bp.get("/clubs/<slug>/tournaments/<int:tid>/export.json")
@club_route("director")
def export_json(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    return _download(files.export_json(t), f"{_slug_name(t)}.json", "application/json")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/standings.csv")
@club_route("director")
def standings_csv(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    return _download(
        "\ufeff" + files.standings_csv(t), f"{_slug_name(t)}-standings.csv", "text/csv"
    )


@bp.get("/clubs/<slug>/tournaments/<int:tid>/deals.csv")
@club_route("director")
def deals_csv(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    return _download("\ufeff" + files.deals_csv(t), f"{_slug_name(t)}-deals.csv", "text/csv")


def _page_size() -> str:
    return "Letter" if request.args.get("size") == "Letter" else "A4"


def _pdf(make: Any, filename: str) -> Response:
    try:
        data = make()
    except pr.PrintError as error:
        abort(Response(str(error), status=422, mimetype="text/plain"))
    resp = _download(data, filename, "application/pdf")
    resp.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return resp


@bp.get("/clubs/<slug>/tournaments/<int:tid>/standings.pdf")
@club_route("director")
def standings_pdf(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    doc = files.standings_doc(t, club.name)
    return _pdf(lambda: pr.standings(doc, _page_size()), f"{_slug_name(t)}-standings.pdf")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/<kind>.pdf")
@club_route("director")
def round_pdf(club: Club, me: Member, tid: int, n: int, kind: str) -> ResponseReturnValue:
    t = _tournament(club, tid)
    rnd = _round(t, n)
    pack = files.round_pack(t, rnd, club.name)
    size = _page_size()
    filled = request.args.get("filled") == "1"
    makers = {
        "pack": lambda: pr.print_pack(pack, size, filled=filled),
        "sheets": lambda: pr.print_pack(
            pack, size, filled=filled, with_pairings=False, with_cards=False
        ),
        "cards": lambda: pr.table_cards(list(pack.sheets), size),
        "pairings": lambda: pr.pairings(pack, size),
    }
    if kind not in makers:
        abort(404)
    return _pdf(makers[kind], f"{_slug_name(t)}-round{n}-{kind}.pdf")


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/sheet.pdf")
@club_route("director")
def sheet_pdf(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t = _tournament(club, tid)
    tab = _table(_round(t, n), tno)
    if tab.kind == "bye":
        abort(404)
    sheet = files.score_sheet(t, tab, club.name)
    filled = request.args.get("filled") == "1"
    return _pdf(
        lambda: pr.score_sheet(sheet, filled=filled, page_size=_page_size()),
        f"{_slug_name(t)}-round{n}-table{tno}.pdf",
    )


__all__ = ["bp", "membership"]
