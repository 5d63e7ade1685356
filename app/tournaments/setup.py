"""Set up pages: the club's tournaments, creating one (with the variant's rule options), the
tournament page with its entrants, withdrawals, and the audit trail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from engine.hundred_rules import is_family as is_hundred
from engine.variants import CLIMBING, RED_FIVE, default_options

from ..competition import model as cm
from ..competition import presets
from ..competition.hundred import individual
from ..extensions import db, htmx
from ..models import Club, Entrant, Member, Tournament
from ..permissions import club_route
from ..services import ServiceError, StaleError, trash, versions
from ..services import clubs as club_svc
from ..services import visibility as vis
from ..services.tournaments import audit as audits
from ..services.tournaments import deletion
from ..services.tournaments import rows as rows
from ..services.tournaments import setup as setup
from ..services.tournaments.audit import Actor
from ..services.tournaments.rows import rounds_of, side_size
from ..services.tournaments.substitutes import substitute_lines
from ..web import show_service_error
from . import bp
from .actions import attempt, confirmed
from .forms import (
    MATCH_LABELS,
    TIE_BREAK_LABELS,
    VARIANT_LABELS,
    ConfirmForm,
    EntrantEditForm,
    EntrantForm,
    ImportForm,
    TournamentForm,
)
from .lookup import actor, current, entrant, labels, tournament
from .options import option_fields, option_summary, parse_options
from .standings import standings_url


def match_text(match: dict[str, Any]) -> str:
    if "deals" in match:
        text = ngettext("%(num)d deal", "%(num)d deals", match["deals"])
    elif "minutes" in match:
        text = ngettext("%(num)d minute", "%(num)d minutes", match["minutes"])
    elif match.get("target", "A") != "A":
        text = _("play to %(level)s", level=match["target"])
    else:
        text = _("play to A")
    tie = match.get("tie_break", "draw")
    if tie != "draw" and tie in TIE_BREAK_LABELS:
        text = _("%(match)s; equal levels: %(tie)s", match=text, tie=TIE_BREAK_LABELS[tie])
    return text


def tournament_status(t: Tournament) -> tuple[str, str]:
    """Where a tournament stands, for lists: (``"new"``/``"running"``/``"finished"``, words)."""
    seated = len(t.rounds_played)
    if not seated:
        return "new", _("not started")
    closed = sum(1 for r in t.rounds_played if r.status == "closed")
    if closed >= t.rounds:
        return "finished", _("finished")
    return "running", _("round %(n)d of %(total)d", n=seated, total=t.rounds)


@bp.app_context_processor
def _inject() -> dict[str, Any]:
    return {
        "match_text": match_text,
        "variant_labels": VARIANT_LABELS,
        # the club page's section (templates/tournaments/_club_section.html) lists them itself
        "club_tournaments": setup.club_tournaments,
        "tournament_status": tournament_status,
        "preset_name": preset_name,
        # the club page's list of deleted things, for directors (templates/clubs/_deleted.html)
        "club_deleted": trash.deleted_of,
        "keep_days": deletion.KEEP_DAYS,
    }


def preset_name(t: Tournament) -> str | None:
    """The name of the rule preset the tournament started from, in the reader's language."""
    chosen = presets.preset(t.preset)
    return chosen.name(str(get_locale() or "en")) if chosen is not None else None


def index_page(club: Club, me: Member, form: ImportForm, errors: tuple[str, ...] = ()) -> str:
    """The club's tournaments, with the import form (and its errors, after a failed import)."""
    return render_template(
        "tournaments/index.html",
        club=club,
        me=me,
        tournaments=setup.club_tournaments(club),
        import_form=form,
        import_errors=errors,
        **labels(),
    )


@bp.get("/clubs/<slug>/tournaments")
@club_route("player")
def index(club: Club, me: Member) -> ResponseReturnValue:
    return index_page(club, me, ImportForm(formdata=None))


def _settings(form: TournamentForm) -> tuple[dict[str, Any], dict[str, Any]]:
    """The match length and match points typed in the form, as the tournament stores them."""
    kind = form.match_kind.data or "deals"
    match: dict[str, Any] = {"to_a": True} if kind == "to_a" else {kind: form.match_value.data}
    if kind == "to_a" and form.target.data != "A":
        match["target"] = form.target.data
    if form.tie_break.data != "draw":
        match["tie_break"] = form.tie_break.data
    points = rows.points_json(
        cm.PointsSpec(
            win=form.win.data,  # type: ignore[arg-type]
            draw=form.draw.data,  # type: ignore[arg-type]
            loss=form.loss.data,  # type: ignore[arg-type]
            bye=form.bye.data,
            forfeit_level_diff=form.forfeit_level_diff.data,  # type: ignore[arg-type]
        )
    )
    return match, points


@bp.route("/clubs/<slug>/tournaments/new", methods=["GET", "POST"])
@club_route("director")
def new(club: Club, me: Member) -> ResponseReturnValue:
    form = TournamentForm()
    variant = form.variant.data if form.variant.data in VARIANT_LABELS else "tractor-4p"
    option_defaults = default_options(variant)
    if request.method == "GET":
        variant = request.args.get("variant", variant)
        if variant not in VARIANT_LABELS:
            variant = "tractor-4p"
        chosen = presets.preset(request.args.get("preset"))
        if chosen is not None and chosen.variant is not None:
            variant = chosen.variant
        form.variant.data = variant
        if chosen is None and is_hundred(variant):
            chosen = presets.presets_for(variant)[0]  # 打百分's club night: its own preset
        option_defaults = default_options(variant)
        if chosen is not None:
            option_defaults = _apply_preset(form, chosen, option_defaults)
        form.pairing.data = fitting_pairing(variant, form.pairing.data or "", option_defaults)
        # the match length chosen (htmx swaps its number field in from this page)
        if request.args.get("match_kind") in MATCH_LABELS:
            form.match_kind.data = request.args["match_kind"]
        raw = request.args.get("match_value", "")
        if raw.isdigit() and len(raw) < 4:
            form.match_value.data = int(raw)
    option_errors: dict[str, str] = {}
    form_data = request.form if request.method == "POST" else None
    if request.method == "POST" and form.options_variant.data != variant:
        form_data = None  # the options shown were another game's: show this one's, save nothing
        if is_hundred(variant):  # 打百分's club night of this game, its preset and options
            option_defaults = _apply_preset(form, presets.presets_for(variant)[0], option_defaults)
        form.pairing.data = fitting_pairing(variant, form.pairing.data or "", option_defaults)
        form.validate()
        flash(_("Check the rule options of this game, then create the tournament."), "info")
    elif form.validate_on_submit():
        options, option_errors = parse_options(variant, request.form)
        if not option_errors:
            match, points = _settings(form)
            try:
                t = setup.create_tournament(
                    club,
                    current(),
                    form.name.data or "",
                    variant,
                    options,
                    form.pairing.data or "",
                    form.rounds.data or 0,
                    match,
                    points,
                    preset=form.preset.data or _first_preset(variant),
                )
            except ServiceError as error:
                db.session.rollback()
                show_service_error(form, error)
            else:
                t.move_seconds = form.move_seconds.data  # online tables' move clock
                db.session.commit()
                flash(_("Tournament created. Now add the entrants."), "success")
                return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id), 303)
    status = 200 if request.method == "GET" else 422
    return render_template(
        "tournaments/new.html",
        club=club,
        me=me,
        form=form,
        match_kind=form.follow_match_kind(),
        variant=variant,
        options=option_fields(variant, form_data, option_defaults),
        option_errors=option_errors,
        presets=presets.presets_for(variant),
        chosen_preset=presets.preset(form.preset.data) or presets.PRESETS[_first_preset(variant)],
        locale=str(get_locale() or "en"),
        **labels(),
    ), status


def _first_preset(variant: str) -> str:
    """The preset a form without one starts from: ``club``, or 打百分's club night of the game."""
    return presets.presets_for(variant)[0].id


def _apply_preset(
    form: TournamentForm, chosen: presets.Preset, defaults: dict[str, Any]
) -> dict[str, Any]:
    """Fill the set-up form from a rule preset (then every field stays editable); returns the
    rule options the option fields start from."""
    form.preset.data = chosen.id
    match = dict(chosen.match)
    kind = next((k for k in ("deals", "minutes", "to_a") if k in match), "deals")
    form.match_kind.data = kind
    if kind != "to_a":
        form.match_value.data = int(match[kind])
    form.target.data = str(match.get("target", "A"))
    form.tie_break.data = str(match.get("tie_break", "draw"))
    return {**defaults, **dict(chosen.options)}


@bp.get("/clubs/<slug>/tournaments/new/options")
@club_route("director")
def new_options(club: Club, me: Member) -> ResponseReturnValue:
    variant = request.args.get("variant", "")
    if variant not in VARIANT_LABELS:
        abort(404)
    pairing_form = TournamentForm(formdata=None)
    # the preset shown stays if it fits the game; else the game's first (打百分's club night)
    chosen = presets.preset(request.args.get("preset"))
    if chosen is None or not chosen.fits(variant):
        chosen = presets.presets_for(variant)[0]
    defaults = default_options(variant)
    if is_hundred(variant):  # its options as the club night's preset has them
        defaults = {**defaults, **dict(chosen.options)}
    pairing_form.pairing.data = fitting_pairing(
        variant, request.args.get("pairing", "swiss"), defaults
    )
    return render_template(
        "tournaments/_options.html",
        variant=variant,
        options=option_fields(variant, None, defaults),
        option_errors={},
        pairing_form=pairing_form,
        fitting_preset=chosen,
        locale=str(get_locale() or "en"),
    )


def fitting_pairing(variant: str, pairing: str, options: dict[str, Any] | None = None) -> str:
    """The pairing the form should show for ``variant``: red five, 争上游 and 打百分's individual
    events always re-seat; fixed sides (打百分's pairs too) keep a round robin or Swiss chosen,
    and take Swiss instead of re-seating."""
    if variant in (RED_FIVE, CLIMBING):
        return "reseat"
    if is_hundred(variant) and individual(variant, options or default_options(variant)):
        return "reseat"
    return pairing if pairing in ("round-robin", "swiss") else "swiss"


# --- the tournament page and its entrants ---------------------------------------------------------


def _show_context(club: Club, me: Member, t: Tournament, **extra: Any) -> dict[str, Any]:
    ctx = {
        "club": club,
        "me": me,
        "t": t,
        "loaded": rows.load(t),
        "rule_options": option_summary(t.variant, t.options or {}),
        "rounds": rounds_of(t),
        "entrant_form": EntrantForm(formdata=None),
        "side_size": side_size(t),
        "members": club_svc.member_names(club),
        "director": me.role in ("owner", "director"),
        "share": vis.share_of(t, standings_url(t, external=True)),
        "entrant_version": setup.entrant_version,
        "substitute_lines": substitute_lines,
        **labels(),
    }
    ctx.update(extra)
    return ctx


def _show_url(club: Club, t: Tournament) -> str:
    return url_for("tournaments.show", slug=club.slug, tid=t.id)


@bp.get("/clubs/<slug>/tournaments/<int:tid>")
@club_route("player")
def show(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    return render_template("tournaments/show.html", **_show_context(club, me, t))


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants")
@club_route("director")
def add_entrant(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    form = EntrantForm()
    if form.validate_on_submit():
        players = [form.player_0.data or "", form.player_1.data or "", form.player_2.data or ""]
        try:
            e = setup.add_entrant(club, t, form.name.data, players, actor(me))
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            message = _("%(name)s entered.", name=e.name)
            if htmx:
                db.session.expire_all()
                t = tournament(club, tid)
                return render_template(
                    "tournaments/_entrants.html", **_show_context(club, me, t, status=message)
                )
            flash(message, "success")
            return redirect(_show_url(club, t), 303)
    if htmx:
        return render_template(
            "tournaments/_entrants.html", **_show_context(club, me, t, entrant_form=form)
        )
    return render_template(
        "tournaments/show.html", **_show_context(club, me, t, entrant_form=form)
    ), 422


def _seen() -> str | None:
    """The version of what the posting page showed (``seen``), or None when it did not say."""
    return versions.seen_of(request.form) or None


@bp.route("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/edit", methods=["GET", "POST"])
@club_route("director")
def edit_entrant(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    """Correct an entrant's name or players (its results stand), with an optional reason."""
    t = tournament(club, tid)
    e = entrant(t, eid)
    form = EntrantEditForm()
    if request.method == "GET":
        form = EntrantEditForm(formdata=None)
        # a name that is only the players' names joined stays empty: it follows a correction
        joined = " & ".join(p.name for p in e.players)
        form.name.data = "" if e.name == joined else e.name
        for p in e.players:
            form[f"player_{p.seat}"].data = p.name
        form.seen.data = setup.entrant_version(e)
    elif form.validate_on_submit():
        players = [form.player_0.data or "", form.player_1.data or "", form.player_2.data or ""]
        try:
            changed = setup.edit_entrant(
                club,
                t,
                e,
                form.name.data,
                players,
                actor(me),
                seen=_seen(),
                reason=form.reason.data,
            )
        except StaleError as error:
            db.session.rollback()
            flash(error.message, "error")
            typed = " · ".join(
                x for x in (form.player_0.data, form.player_1.data, form.player_2.data) if x
            )
            flash(_("You had typed: %(what)s", what=typed or "—"), "info")
            return redirect(
                url_for("tournaments.edit_entrant", slug=club.slug, tid=t.id, eid=e.id), 303
            )
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            if changed:
                flash(_("%(name)s corrected.", name=e.name), "success")
            else:
                flash(_("Nothing was changed."), "info")
            return redirect(_show_url(club, t) + "#entrants", 303)
    return render_template(
        "tournaments/entrant_edit.html",
        club=club,
        me=me,
        t=t,
        e=e,
        form=form,
        side_size=side_size(t),
        members=club_svc.member_names(club),
    ), (200 if request.method == "GET" else 422)


def _entrant_action(
    club: Club,
    me: Member,
    tid: int,
    eid: int,
    service: Callable[[Tournament, Entrant, Actor], object],
    ok_message: Callable[[str], str],
) -> ResponseReturnValue:
    """A confirmed POST on one entrant that calls ``service(t, entrant, actor)``, refused when
    the page showed the entrant as it no longer is."""
    t = tournament(club, tid)
    e = entrant(t, eid)
    seen = _seen()

    def act() -> object:
        setup.check_entrant_seen(e, seen)
        return service(t, e, actor(me))

    return confirmed(act, _show_url(club, t), ok_message(e.name))


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/withdraw")
@club_route("director")
def withdraw(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    def message(name: str) -> str:
        return _("%(name)s withdrawn: not seated in later rounds.", name=name)

    return _entrant_action(club, me, tid, eid, setup.withdraw_entrant, message)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/reinstate")
@club_route("director")
def reinstate(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    def message(name: str) -> str:
        return _("%(name)s is back in the tournament.", name=name)

    return _entrant_action(club, me, tid, eid, setup.reinstate_entrant, message)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/remove")
@club_route("director")
def remove_entrant(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    """Remove an entrant: never seated, it is gone; seated, it is withdrawn (results kept)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    t = tournament(club, tid)
    e = entrant(t, eid)
    name = e.name
    ok, outcome = attempt(
        lambda: setup.remove_entrant(
            t, e, actor(me), seen=_seen(), reason=request.form.get("reason")
        )
    )
    if ok and outcome == "removed":
        flash(_("%(name)s removed: its players are free to enter again.", name=name), "success")
    elif ok:
        flash(
            _(
                "%(name)s has played at a table, so it was withdrawn instead: its results "
                "stand, and it is not seated in later rounds.",
                name=name,
            ),
            "success",
        )
    return redirect(_show_url(club, t) + "#entrants", 303)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/delete")
@club_route("director")
def delete(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    """Delete a tournament: hidden everywhere, restorable from the club's page for 30 days."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    t = tournament(club, tid)
    name = t.name
    ok, _done = attempt(
        lambda: deletion.delete_tournament(t, actor(me), reason=request.form.get("reason"))
    )
    if not ok:
        return redirect(_show_url(club, t), 303)
    flash(
        _(
            "%(name)s deleted. You can restore it from the club's page for %(n)d days.",
            name=name,
            n=deletion.KEEP_DAYS,
        ),
        "success",
    )
    return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)


@bp.post("/clubs/<slug>/deleted/tournaments/<int:tid>/restore")
@club_route("director")
def restore(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    t = deletion.deleted_tournament(club, tid)
    if t is None:
        abort(404)
    name = t.name
    ok, _done = attempt(lambda: deletion.restore_tournament(t, actor(me)))
    if not ok:
        return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)
    flash(_("%(name)s restored, with everything it had.", name=name), "success")
    return redirect(_show_url(club, t), 303)


@bp.get("/clubs/<slug>/tournaments/<int:tid>/audit")
@club_route("director")
def audit(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    return render_template(
        "tournaments/audit.html", club=club, me=me, t=t, entries=audits.audit_lines(t)
    )
