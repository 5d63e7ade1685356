"""The standings pages (the standings, their live partial — 204 when the version is unchanged, so
polling costs almost nothing — the projector view and each entrant's history), at two kinds of
address:

* ``/standings/<id>…`` for the club's members, logged in; anyone else gets a plain 404, so
  counting ids reveals no names;
* ``/p/<link>…``, the tournament's public link, for anyone who has it, only while the
  tournament is public (``app.services.visibility``).

Directors switch between the two and renew the link on the tournament page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy import select

from ..charts import builders, svg
from ..extensions import db
from ..models import Club, Member, Tournament
from ..permissions import can_direct, club_route
from ..services import ServiceError, versions
from ..services import visibility as vis
from ..services.duplicate.hosts import is_host
from ..services.live import bus as live_bus
from ..services.live import streams as live_streams
from ..services.tournaments import standings as views
from ..services.tournaments.audit import audit
from ..web import no_store
from . import bp
from .forms import SUIT_LABELS, ConfirmForm, VisibilityForm
from .lookup import actor, entrant, tournament


@dataclass(frozen=True)
class Links:
    """Where the standings pages link to: the public link's pages (``token``) or the members'
    id pages."""

    tid: int
    token: str | None = None

    def page(self, **args: Any) -> str:
        if self.token:
            return url_for("tournaments.public_standings", link=self.token, **args)
        return url_for("tournaments.standings", tid=self.tid, **args)

    def stream(self) -> str:
        if self.token:
            return url_for("tournaments.public_stream", link=self.token)
        return url_for("tournaments.standings_stream", tid=self.tid)

    def live(self, version: int) -> str:
        if self.token:
            return url_for("tournaments.public_live", link=self.token, v=version)
        return url_for("tournaments.standings_live", tid=self.tid, v=version)

    def history(self, eid: int) -> str:
        if self.token:
            return url_for("tournaments.public_history", link=self.token, eid=eid)
        return url_for("tournaments.history", tid=self.tid, eid=eid)


def standings_url(t: Tournament, external: bool = False, **args: Any) -> str:
    """The standings address a viewer can open: the public link while the tournament is public,
    else the members' page (a QR code on the projector or a link on a score sheet uses this)."""
    if vis.is_public(t):
        return url_for(
            "tournaments.public_standings", link=t.public_token, _external=external, **args
        )
    return url_for("tournaments.standings", tid=t.id, _external=external, **args)


bp.add_app_template_global(standings_url, "standings_url")


def _member_club(t: Tournament) -> Club | None:
    """The tournament's club if the current user is one of its members."""
    club = db.session.get(Club, t.club_id)
    if club is None or not vis.member_sees(current_user, t):
        return None
    return club


def _member_tournament(tid: int) -> Tournament:
    """The tournament for one of its club's members; a 404 to everyone else. A duplicate
    event's host tournament for its club's directors only (its standings would show a board's
    results at other tables), asked in the tournament's own statement."""
    row = db.session.execute(
        select(Tournament, is_host(Tournament.id)).where(
            Tournament.id == tid, Tournament.deleted_at.is_(None)
        )
    )
    got = row.first()
    if got is None or not current_user.is_authenticated:
        abort(404)
    t, hidden = got
    club = _member_club(t)
    if club is None or (hidden and not can_direct(current_user, club)):
        abort(404)
    return t


def _public_tournament(token: str) -> Tournament:
    t = vis.tournament_by_token(token)
    if t is None:
        abort(404)
    return t


def _context(t: Tournament, links: Links) -> dict[str, Any]:
    """What every standings page shows beside its data: the links, and the club's slug for a
    signed-in member so the pages link back to the tournament page."""
    club = _member_club(t) if current_user.is_authenticated else None
    return {
        "links": links,
        "member_club_slug": club.slug if club is not None else None,
        "follow_url": standings_url(t, external=True),
        "public": vis.is_public(t),
    }


# the live partial as rendered, per database, tournament (its version and creation), language
# and address: every viewer of a projector night asks for the same one (a page of 200 entrants
# took ~10 ms to render); a running round clock is rendered afresh (it shows the time left)
_PARTIALS: dict[tuple[Any, ...], Markup] = {}


def _partial(t: Tournament, links: Links, page: dict[str, Any]) -> Markup:
    """The standings partial (templates/tournaments/_standings.html) of this version."""
    if page["clock"] is not None:
        return Markup(render_template("tournaments/_standings.html", links=links, **page))
    key = (
        str(db.engine.url),
        t.id,
        t.version,
        t.created_at,
        str(get_locale()),
        links,
        request.script_root,
    )
    hit = _PARTIALS.get(key)
    if hit is None:
        hit = Markup(render_template("tournaments/_standings.html", links=links, **page))
        if len(_PARTIALS) > 256:
            _PARTIALS.clear()
        _PARTIALS[key] = hit
    return hit


def _standings(t: Tournament, links: Links) -> ResponseReturnValue:
    page = views.standings_page(t)
    chart = None
    labels, ranks, final = views.ranks_over_rounds(page["loaded"])
    if len(labels) >= 2:
        chart = svg.render(builders.ranks_chart(_("Places round by round"), labels, ranks, final))
    return render_template(
        "tournaments/standings.html",
        projector=request.args.get("projector") == "1",
        chart=chart,
        standings_partial=_partial(t, links, page),
        **_context(t, links),
        **page,
    )


def _live(t: Tournament, links: Links) -> ResponseReturnValue:
    """The standings partial, or 204 (no body, no render) when the version is unchanged."""
    if request.args.get("v") == str(t.version):
        return Response(status=204)
    return _partial(t, links, views.standings_page(t))


def _history(t: Tournament, links: Links, eid: int) -> ResponseReturnValue:
    e = entrant(t, eid)
    return render_template(
        "tournaments/history.html",
        e=e,
        suit_labels=SUIT_LABELS,
        **_context(t, links),
        **views.history_page(t, e.name),
    )


@bp.get("/standings/<int:tid>")
def standings(tid: int) -> ResponseReturnValue:
    return _standings(_member_tournament(tid), Links(tid))


@bp.get("/standings/<int:tid>/live")
@no_store
def standings_live(tid: int) -> ResponseReturnValue:
    return _live(_member_tournament(tid), Links(tid))


def _stream(tid: int, links: Links, version: Callable[[], int | None]) -> ResponseReturnValue:
    """The standings' live stream (server-sent events): the partial on every new version, the
    moment the tournament's results change (app/services/live); 404 where streams are off."""
    if not current_app.config.get("LIVE_STREAMS"):
        abort(404)

    def state() -> str | None:
        got = version()
        return None if got is None else str(got)

    def render() -> str:
        t = db.session.get(Tournament, tid)
        return "" if t is None else str(_partial(t, links, views.standings_page(t)))

    events = live_streams.stream(
        [live_bus.standings_topic(tid)], state, render, request.args.get("v", ""), name="standings"
    )
    return Response(
        stream_with_context(events),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _version_of(tid: int) -> int | None:
    return db.session.scalar(
        select(Tournament.version).where(Tournament.id == tid, Tournament.deleted_at.is_(None))
    )


@bp.get("/standings/<int:tid>/stream")
def standings_stream(tid: int) -> ResponseReturnValue:
    t = _member_tournament(tid)
    return _stream(t.id, Links(t.id), lambda: _version_of(tid))


@bp.get("/p/<link>/stream")
def public_stream(link: str) -> ResponseReturnValue:
    t = _public_tournament(link)
    return _stream(t.id, Links(t.id, link), lambda: vis.public_version(link))


@bp.get("/standings/<int:tid>/entrants/<int:eid>")
def history(tid: int, eid: int) -> ResponseReturnValue:
    return _history(_member_tournament(tid), Links(tid), eid)


@bp.get("/p/<link>")
def public_standings(link: str) -> ResponseReturnValue:
    t = _public_tournament(link)
    return _standings(t, Links(t.id, link))


@bp.get("/p/<link>/live")
@no_store  # as its shortcut (app/poll_shortcut.py) answers
def public_live(link: str) -> ResponseReturnValue:
    t = _public_tournament(link)
    return _live(t, Links(t.id, link))


@bp.get("/p/<link>/entrants/<int:eid>")
def public_history(link: str, eid: int) -> ResponseReturnValue:
    t = _public_tournament(link)
    return _history(t, Links(t.id, link), eid)


# --- who sees the standings (directors) -----------------------------------------------------------


def _show(club: Club, t: Tournament) -> ResponseReturnValue:
    return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id) + "#visibility", 303)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/visibility")
@club_route("director")
def set_visibility(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    form = VisibilityForm()
    if not form.validate_on_submit():
        flash(_("Choose who may see the standings."), "error")
        return _show(club, t)
    before = t.visibility
    try:
        if form.visibility.data == vis.PUBLIC and db.session.scalar(select(is_host(t.id))):
            raise ServiceError(
                _(
                    "These are a duplicate event's online tables: their standings would show "
                    "a board's results before every table has played it. The event's page is "
                    "the one to share."
                ),
                "visibility",
            )
        vis.set_visibility(t, form.visibility.data or "", versions.seen_of(request.form))
    except ServiceError as e:
        db.session.rollback()
        flash(e.message, "error")
        return _show(club, t)
    audit(t, actor(me), "visibility", "", {"visibility": before}, {"visibility": t.visibility})
    db.session.commit()
    if vis.is_public(t):
        flash(_("The standings are public now: anyone with the link can open them."), "success")
    else:
        flash(_("The standings are for the club's members only now."), "success")
    return _show(club, t)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/public-link")
@club_route("director")
def renew_link(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    vis.renew_token(t)
    audit(t, actor(me), "public_link", "", None, None)
    db.session.commit()
    flash(_("A new public link is made: the old one no longer opens anything."), "success")
    return _show(club, t)
