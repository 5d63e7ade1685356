"""The season pages of a club: the list (and creating one), a season's standings under its rule
(switchable, always re-derived), its nights, divisions and ratings, and a projector view with a
QR code; who sees the standings (the club only, or anyone with the public link ``/league/<season_link>``,
which has its own page and projector view)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from sqlalchemy import select

from ..charts import builders, svg
from ..competition.seasons import SeasonRuleError
from ..extensions import db
from ..forms_common import choices
from ..models import Club, Division, Member, Season, Tournament
from ..permissions import club_route, get_in_club_or_404
from ..services import ServiceError, trash, versions
from ..services import visibility as vis
from ..services.duplicate.hosts import not_host
from ..services.ratings.club import club_ratings
from ..services.seasons import deletion, manage
from ..services.seasons.standings import by_division, chart_lines, nights_of, rule_of, standings
from ..services.tournaments.audit import audit_trail, worded
from ..tournaments.actions import attempt
from ..tournaments.forms import ConfirmForm, VisibilityForm
from ..tournaments.lookup import actor
from ..web import show_service_error
from . import bp
from .forms import (
    RULE_LABELS,
    DivisionEditForm,
    DivisionForm,
    MovementForm,
    NightDivisionForm,
    NightForm,
    RuleForm,
    SeasonForm,
)

BASE = "/clubs/<slug>/seasons"


def _season(club: Club, sid: int) -> Season:
    return get_in_club_or_404(Season, club, sid)


def _index(club: Club, me: Member, form: SeasonForm, status: int = 200) -> ResponseReturnValue:
    seasons = manage.seasons_of(club)
    return render_template(
        "seasons/index.html", club=club, me=me, seasons=seasons, form=form
    ), status


@bp.get(BASE)
@club_route("player")
def index(club: Club, me: Member) -> ResponseReturnValue:
    return _index(club, me, SeasonForm(formdata=None))


@bp.post(BASE)
@club_route("owner")
def create(club: Club, me: Member) -> ResponseReturnValue:
    form = SeasonForm()
    if form.validate_on_submit():
        try:
            season = manage.create_season(
                club,
                form.name.data or "",
                form.starts_on.data,
                form.ends_on.data,
                form.rule_text(),
                form.min_nights.data or 1,
                form.places_list(),
            )
        except ServiceError as e:
            db.session.rollback()
            show_service_error(form, e)
        else:
            db.session.commit()
            flash(_("Season created: now put its nights in it."), "success")
            return redirect(url_for("seasons.season", slug=club.slug, sid=season.id), 303)
    return _index(club, me, form, 422)


def _tables(season: Season, rule_text: str | None) -> dict[str, Any]:
    """What the club's season page and its public link both show: the standings under the rule
    asked for (or the season's own, with a sentence why), per division, and the chart."""
    error = None
    try:
        rule = rule_of(season, rule_text)
    except SeasonRuleError as e:
        error = " ".join(
            (manage.rule_error(e).message, _("The season's own rule is shown instead."))
        )
        rule = rule_of(season)
    rows = standings(season, rule)
    nights = nights_of(season)
    chart = None
    if len(nights) >= 2:
        labels, totals, final = chart_lines(season, rule)
        chart = svg.render(
            builders.totals_chart(_("The season night by night"), labels, totals, final)
        )
    divisions = season.divisions
    return {
        "season": season,
        "rule": rule,
        "rule_error": error,
        "rows": rows,
        "nights": nights,
        "divisions": divisions,
        "by_division": by_division(season, rule),
        "rule_labels": RULE_LABELS,
        "chart": chart,
    }


def follow_url(season: Season, club: Club) -> str:
    """The season's address a viewer can open (its QR code on the projector): the public link
    while the season is public, else the club's page (members log in)."""
    if vis.is_public(season):
        return url_for("seasons.public_season", season_link=season.public_token, _external=True)
    return url_for("seasons.season", slug=club.slug, sid=season.id, _external=True)


def _page(club: Club, me: Member, season: Season, **forms: Any) -> dict[str, Any]:
    tables = _tables(season, request.args.get("rule") or None)
    rows, nights, divisions = tables["rows"], tables["nights"], tables["divisions"]
    players = {r.player for r in rows}
    ratings = [r for r in club_ratings(club) if r.player in players]
    in_season = {t.id for t in nights}
    candidates = [
        t
        for t in db.session.scalars(
            select(Tournament).where(
                Tournament.club_id == club.id,
                manage.outside_seasons(),  # a deleted season's nights are free meanwhile
                not_host(Tournament.id),  # a duplicate event's online tables: no night
                Tournament.deleted_at.is_(None),
            )
        )
        if t.id not in in_season
    ]
    rule_form = forms.get("rule_form") or RuleForm(
        formdata=None,
        rule=season.rule.split(":")[0],
        best=int(season.rule.split(":")[1]) if season.rule.startswith("best:") else 5,
        min_nights=season.min_nights,
        places=", ".join(str(p) for p in season.places) if season.places else None,
    )
    night_form = forms.get("night_form") or NightForm(formdata=None)
    night_form.tournament.choices = choices([(t.id, t.name) for t in candidates])
    night_form.division.choices = choices([(0, "—")] + [(d.id, d.name) for d in divisions])
    movement_form = forms.get("movement_form") or MovementForm(formdata=None)
    movement_form.next_season.choices = choices(
        [(s.id, s.name) for s in manage.seasons_of(club) if s.id != season.id]
    )
    return {
        **tables,
        "club": club,
        "me": me,
        "ratings": ratings,
        "candidates": candidates,
        "rule_form": rule_form,
        "night_form": night_form,
        "division_form": forms.get("division_form") or DivisionForm(formdata=None),
        "division_forms": {d.id: _edit_form(d) for d in divisions},
        "division_version": manage.division_version,
        "settings_version": manage.settings_version(season),
        "movement_form": movement_form,
        "projector": request.args.get("view") == "projector",
        "follow_url": follow_url(season, club),
        "public": vis.is_public(season),
        "share": vis.share_of(season, follow_url(season, club)),
    }


def _edit_form(div: Division) -> DivisionEditForm:
    form = DivisionEditForm(formdata=None, prefix=f"d{div.id}")
    form.name.data = div.name
    form.carry_factor.data = div.carry_factor
    form.players.data = "\n".join(div.players or [])
    form.seen.data = manage.division_version(div)
    return form


@bp.get(BASE + "/<int:sid>")
@club_route("player")
def season(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    return render_template("seasons/season.html", **_page(club, me, s))


def _back(club: Club, s: Season, anchor: str = "") -> ResponseReturnValue:
    return redirect(url_for("seasons.season", slug=club.slug, sid=s.id) + anchor, 303)


def _submit(
    club: Club,
    me: Member,
    s: Season,
    slot: str,
    form: FlaskForm,
    action: Callable[[], str],
    onward: Callable[[], str] | None = None,
) -> ResponseReturnValue:
    """A form of the season page: when it is valid, ``action`` runs the service and says what it
    did; that is committed, flashed, and back to the season page (or to ``onward()``). A refusal
    is rolled back and shown on its field; an invalid or refused form shows the season page again
    (422) with the form, its ``slot`` in the page."""
    if form.validate_on_submit():
        try:
            said = action()
        except ServiceError as e:
            db.session.rollback()
            show_service_error(form, e)
        else:
            db.session.commit()
            flash(said, "success")
            return redirect(onward(), 303) if onward is not None else _back(club, s)
    return render_template("seasons/season.html", **_page(club, me, s, **{slot: form})), 422


@bp.post(BASE + "/<int:sid>/rule")
@club_route("owner")
def set_rule(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    form = RuleForm()

    def count() -> str:
        manage.set_rule(
            s,
            form.rule_text(),
            form.min_nights.data or 1,
            form.places_list(),
            seen=versions.seen_of(request.form),
        )
        return _("The season is now counted this way; the table below is re-derived.")

    return _submit(club, me, s, "rule_form", form, count)


@bp.post(BASE + "/<int:sid>/nights")
@club_route("director")
def add_night(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    form = NightForm()
    form.tournament.choices = choices(
        [
            (t.id, t.name)
            for t in db.session.scalars(
                select(Tournament).where(
                    Tournament.club_id == club.id,
                    not_host(Tournament.id),
                    Tournament.deleted_at.is_(None),
                )
            )
        ]
    )
    form.division.choices = choices([(0, "—")] + [(d.id, d.name) for d in s.divisions])

    def put_in() -> str:
        t = get_in_club_or_404(Tournament, club, form.tournament.data)
        division = db.session.get(Division, form.division.data) if form.division.data else None
        held = manage.season_of(t)
        if held is not None and held.id != s.id:
            raise ServiceError(
                _("That night already counts in another season: take it out there first."),
                "tournament",
            )
        if form.date.data:
            t.date = form.date.data
        if form.venue.data:
            t.venue = form.venue.data.strip()
        manage.set_night(t, s, division)
        return _("%(name)s now counts in this season.", name=t.name)

    return _submit(club, me, s, "night_form", form, put_in)


@bp.post(BASE + "/<int:sid>/nights/<int:tid>/remove")
@club_route("director")
def remove_night(club: Club, me: Member, sid: int, tid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    t = get_in_club_or_404(Tournament, club, tid)
    if not ConfirmForm().validate_on_submit() or t.season_id != s.id:
        abort(404)
    manage.set_night(t, None)
    db.session.commit()
    flash(_("%(name)s no longer counts in this season.", name=t.name), "success")
    return _back(club, s)


@bp.post(BASE + "/<int:sid>/divisions")
@club_route("owner")
def add_division(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    form = DivisionForm()

    def add() -> str:
        manage.add_division(
            s,
            form.name.data or "",
            (form.players.data or "").splitlines(),
            form.carry_factor.data,
            members_only=True,
        )
        return _("Division added.")

    return _submit(club, me, s, "division_form", form, add)


def _division(s: Season, division_id: int) -> Division:
    div = next((d for d in s.divisions if d.id == division_id), None)
    if div is None:
        abort(404)
    return div


def _seen() -> str | None:
    return versions.seen_of(request.form) or None


@bp.post(BASE + "/<int:sid>/divisions/<int:division_id>")
@club_route("owner")
def edit_division(club: Club, me: Member, sid: int, division_id: int) -> ResponseReturnValue:
    """Rename a division, change its players or its carry-over factor."""
    s = _season(club, sid)
    div = _division(s, division_id)
    form = DivisionEditForm(prefix=f"d{div.id}")
    # a refusal is flashed at the top of the page: back there, where a phone shows it, not
    # down at the list of divisions
    if not form.validate_on_submit():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return _back(club, s)
    try:
        manage.edit_division(
            s,
            div,
            form.name.data or "",
            (form.players.data or "").splitlines(),
            form.carry_factor.data,
            actor(me),
            seen=versions.seen_of({"seen": form.seen.data or ""}) or None,
            reason=form.reason.data,
        )
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
        return _back(club, s)
    db.session.commit()
    flash(_("Division %(name)s saved.", name=div.name), "success")
    return _back(club, s, "#divisions")


@bp.post(BASE + "/<int:sid>/divisions/<int:division_id>/move")
@club_route("owner")
def move_division(club: Club, me: Member, sid: int, division_id: int) -> ResponseReturnValue:
    """One place up or down the season's order of divisions (the top one first)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    s = _season(club, sid)
    div = _division(s, division_id)
    step = -1 if request.form.get("step") == "up" else 1
    try:
        manage.move_division(s, div, step, seen=_seen())
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
        return _back(club, s)  # the refusal at the top, where it is seen
    db.session.commit()
    return _back(club, s, "#divisions")


@bp.post(BASE + "/<int:sid>/divisions/<int:division_id>/delete")
@club_route("owner")
def delete_division(club: Club, me: Member, sid: int, division_id: int) -> ResponseReturnValue:
    """Take a division out of the season: its nights count in no division and its players are
    free meanwhile; restorable from the club's page for 30 days."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    s = _season(club, sid)
    div = _division(s, division_id)
    name = div.name
    ok, _done = attempt(
        lambda: deletion.delete_division(
            s, div, actor(me), reason=request.form.get("reason"), seen=_seen()
        )
    )
    if ok:
        flash(
            _(
                "Division %(name)s deleted: its nights count in no division and its players are "
                "free. You can restore it from the club's page for %(n)d days.",
                name=name,
                n=trash.KEEP_DAYS,
            ),
            "success",
        )
    return _back(club, s, "#divisions")


@bp.post("/clubs/<slug>/deleted/divisions/<int:division_id>/restore")
@club_route("owner")
def restore_division(club: Club, me: Member, division_id: int) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    found = deletion.deleted_division(club, division_id)
    if found is None:
        abort(404)
    s, div = found
    name = div.name
    ok, _done = attempt(lambda: deletion.restore_division(s, div, actor(me)))
    if not ok:
        return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)
    flash(_("Division %(name)s restored, in its place, with its players.", name=name), "success")
    return _back(club, s, "#divisions")


@bp.get(BASE + "/<int:sid>/audit")
@club_route("director")
def audit(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    """The season's audit trail: its divisions deleted and restored (with the reasons)."""
    s = _season(club, sid)
    entries = worded(audit_trail(s), lambda _place: None)
    return render_template("seasons/audit.html", club=club, me=me, season=s, entries=entries)


@bp.post(BASE + "/<int:sid>/delete")
@club_route("owner")
def delete_season(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    """Delete a season: hidden everywhere, its nights in no season meanwhile; restorable from
    the club's page for 30 days."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    s = _season(club, sid)
    name = s.name
    ok, _done = attempt(
        lambda: deletion.delete_season(s, actor(me), reason=request.form.get("reason"))
    )
    if not ok:
        return _back(club, s)
    flash(
        _(
            "%(name)s deleted: its nights count in no season meanwhile. You can restore it "
            "from the club's page for %(n)d days.",
            name=name,
            n=trash.KEEP_DAYS,
        ),
        "success",
    )
    return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)


@bp.post("/clubs/<slug>/deleted/seasons/<int:sid>/restore")
@club_route("owner")
def restore_season(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    s = deletion.deleted_season(club, sid)
    if s is None:
        abort(404)
    name = s.name
    ok, _done = attempt(lambda: deletion.restore_season(s, actor(me)))
    if not ok:
        return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)
    flash(_("%(name)s restored, with its nights and divisions.", name=name), "success")
    return _back(club, s)


@bp.post(BASE + "/<int:sid>/nights/<int:tid>/division")
@club_route("director")
def night_division(club: Club, me: Member, sid: int, tid: int) -> ResponseReturnValue:
    """Move a night put in the wrong division."""
    s = _season(club, sid)
    t = get_in_club_or_404(Tournament, club, tid)
    form = NightDivisionForm()
    form.division.choices = choices([(0, "—")] + [(d.id, d.name) for d in s.divisions])
    if not form.validate_on_submit() or t.deleted_at is not None:
        abort(404)
    division = _division(s, form.division.data) if form.division.data else None
    try:
        manage.set_night_division(s, t, division)
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
    else:
        db.session.commit()
        flash(
            _("%(night)s now counts in %(division)s.", night=t.name, division=division.name)
            if division
            else _("%(night)s now counts in no division.", night=t.name),
            "success",
        )
    return _back(club, s, "#nights")


@bp.post(BASE + "/<int:sid>/movement")
@club_route("owner")
def movement(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    form = MovementForm()
    form.next_season.choices = choices([(x.id, x.name) for x in manage.seasons_of(club)])

    def apply() -> str:
        nxt = _season(club, form.next_season.data)
        manage.apply_movement(s, form.k.data or 0, nxt)
        return _(
            "Promotion and relegation applied: %(name)s starts with these divisions.",
            name=nxt.name,
        )

    return _submit(
        club,
        me,
        s,
        "movement_form",
        form,
        apply,
        lambda: url_for("seasons.season", slug=club.slug, sid=form.next_season.data),
    )


# --- who sees the season's standings: the club only, or anyone with the public link -------------


@bp.get("/league/<season_link>")
def public_season(season_link: str) -> ResponseReturnValue:
    """A public season's standings (and, with ``?projector=1``, the projector view with the
    link's QR code), without logging in; a 404 for a club-only season or a renewed link."""
    s = vis.season_by_token(season_link)
    if s is None:
        abort(404)
    club = db.session.get(Club, s.club_id)
    assert club is not None
    url = url_for("seasons.public_season", season_link=season_link, _external=True)
    public_nights = {t.id: t.public_token for t in nights_of(s) if vis.is_public(t)}
    return render_template(
        "seasons/public.html",
        club_name=club.name,
        projector=request.args.get("projector") == "1",
        follow_url=url,
        public_nights=public_nights,
        **_tables(s, request.args.get("rule") or None),
    )


@bp.post(BASE + "/<int:sid>/visibility")
@club_route("owner")
def set_visibility(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    form = VisibilityForm()
    try:
        if not form.validate_on_submit():
            raise ServiceError(_("Choose who may see the standings."), "visibility")
        vis.set_visibility(s, form.visibility.data or "", versions.seen_of(request.form))
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
        return _back(club, s, "#visibility")
    db.session.commit()
    if vis.is_public(s):
        flash(_("The standings are public now: anyone with the link can open them."), "success")
    else:
        flash(_("The standings are for the club's members only now."), "success")
    return _back(club, s, "#visibility")


@bp.post(BASE + "/<int:sid>/public-link")
@club_route("owner")
def renew_link(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    s = _season(club, sid)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    vis.renew_token(s)
    db.session.commit()
    flash(_("A new public link is made: the old one no longer opens anything."), "success")
    return _back(club, s, "#visibility")
