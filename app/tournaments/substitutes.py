"""Substitutes: the director's page to record one for a seat of an entrant from a round on, and
the button that removes one (its rounds are credited to the seat's player again)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..extensions import db
from ..models import Club, Entrant, Member
from ..permissions import club_route
from ..services import ServiceError, StaleError, versions
from ..services import clubs as club_svc
from ..services.tournaments import setup
from ..services.tournaments import substitutes as subs
from ..web import show_service_error
from . import bp
from .actions import attempt
from .forms import ConfirmForm, SubstituteForm
from .lookup import actor, entrant, tournament


def _number(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) < 6 else None


def _entrants_url(club: Club, tid: int) -> str:
    return url_for("tournaments.show", slug=club.slug, tid=tid) + "#entrants"


@bp.route(
    "/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/substitute", methods=["GET", "POST"]
)
@club_route("director")
def substitute(club: Club, me: Member, tid: int, eid: int) -> ResponseReturnValue:
    """Record a substitute: from a round on, another player takes one seat of the entrant."""
    t = tournament(club, tid)
    e = entrant(t, eid)
    form = SubstituteForm() if request.method == "POST" else SubstituteForm(formdata=None)
    form.seat.choices = [(str(p.seat), p.name) for p in e.players]
    if request.method == "GET":
        form.seen.data = setup.entrant_version(e)
    elif form.validate_on_submit():
        try:
            sub = subs.record_substitute(
                club,
                t,
                e,
                _number(form.seat.data),
                _number(form.from_round.data),
                form.name.data,
                actor(me),
                seen=versions.seen_of({"seen": form.seen.data or ""}) or None,
                reason=form.reason.data,
            )
        except StaleError as error:
            db.session.rollback()
            flash(error.message, "error")
            flash(_("You had typed: %(what)s", what=form.name.data or "—"), "info")
            return redirect(
                url_for("tournaments.substitute", slug=club.slug, tid=t.id, eid=e.id), 303
            )
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            flash(
                _(
                    "From round %(n)d, %(player)s plays for %(name)s.",
                    n=sub.from_round,
                    player=sub.name,
                    name=e.name,
                ),
                "success",
            )
            return redirect(_entrants_url(club, t.id), 303)
    return render_template(
        "tournaments/substitute.html",
        club=club,
        me=me,
        t=t,
        e=e,
        form=form,
        lines=subs.substitute_lines(e),
        members=club_svc.member_names(club),
    ), (200 if request.method == "GET" else 422)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/entrants/<int:eid>/substitutes/<int:sid>/remove")
@club_route("director")
def remove_substitute(club: Club, me: Member, tid: int, eid: int, sid: int) -> ResponseReturnValue:
    """Undo a substitution (with the version of the entrant the page showed)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    t = tournament(club, tid)
    e = entrant(t, eid)
    seen = versions.seen_of(request.form) or None
    if not any(s.id == sid for s in e.substitutions) and not _stale(e, seen):
        abort(404)  # no such substitute of this entrant (an older page is told what changed)
    ok, sub = attempt(
        lambda: subs.remove_substitute(
            t,
            e,
            sid,
            actor(me),
            seen=seen,
            reason=request.form.get("reason"),
        )
    )
    if ok and sub is not None:
        flash(_("Substitute %(player)s removed.", player=sub.name), "success")
    return redirect(_entrants_url(club, t.id), 303)


def _stale(e: Entrant, seen: str | None) -> bool:
    """Whether the page that posted was shown before the entrant last changed."""
    try:
        setup.check_entrant_seen(e, seen)
    except StaleError:
        return True
    return False
