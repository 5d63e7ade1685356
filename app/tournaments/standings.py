"""Public standings (no login): the standings page, its live partial (204 when the version is
unchanged, so polling costs almost nothing), and each entrant's history."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from ..charts import builders, svg
from ..extensions import db
from ..models import Club, Tournament
from ..permissions import can_view
from ..services.tournaments import standings as views
from . import bp
from .forms import SUIT_LABELS
from .lookup import entrant, public_tournament


def member_links(t: Tournament) -> dict[str, Any]:
    """The club's slug for a signed-in member of the tournament's club, so the public pages link
    back to the tournament page; anyone else gets no link (the club's pages are private: a link
    would only lead to a login or a 404). The pages themselves stay public."""
    if not current_user.is_authenticated:
        return {"member_club_slug": None}
    club = db.session.get(Club, t.club_id)
    ok = club is not None and can_view(current_user, club)
    return {"member_club_slug": club.slug if ok and club is not None else None}


@bp.get("/standings/<int:tid>")
def standings(tid: int) -> ResponseReturnValue:
    t = public_tournament(tid)
    page = views.standings_page(t)
    chart = None
    labels, ranks, final = views.ranks_over_rounds(page["loaded"])
    if len(labels) >= 2:
        chart = svg.render(builders.ranks_chart(_("Places round by round"), labels, ranks, final))
    return render_template(
        "tournaments/standings.html",
        projector=request.args.get("projector") == "1",
        chart=chart,
        **member_links(t),
        **page,
    )


@bp.get("/standings/<int:tid>/live")
def standings_live(tid: int) -> ResponseReturnValue:
    """The standings partial, or 204 (no body, no render) when the version is unchanged."""
    version = db.session.scalar(select(Tournament.version).where(Tournament.id == tid))
    if version is None:
        abort(404)
    if request.args.get("v") == str(version):
        return Response(status=204)
    t = public_tournament(tid)
    return render_template("tournaments/_standings.html", **views.standings_page(t))


@bp.get("/standings/<int:tid>/entrants/<int:eid>")
def history(tid: int, eid: int) -> ResponseReturnValue:
    t = public_tournament(tid)
    e = entrant(t, eid)
    return render_template(
        "tournaments/history.html",
        e=e,
        suit_labels=SUIT_LABELS,
        **member_links(t),
        **views.history_page(t, e.name),
    )
