"""Public standings (no login): the standings page, its live partial (204 when the version is
unchanged, so polling costs almost nothing), and each entrant's history."""

from __future__ import annotations

from flask import Response, abort, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from ..extensions import db
from ..models import Tournament
from ..services import tournament_standings as views
from . import bp
from .forms import SUIT_LABELS
from .lookup import entrant, public_tournament


@bp.get("/standings/<int:tid>")
def standings(tid: int) -> ResponseReturnValue:
    t = public_tournament(tid)
    return render_template(
        "tournaments/standings.html",
        projector=request.args.get("projector") == "1",
        **views.standings_page(t),
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
        "tournaments/history.html", e=e, suit_labels=SUIT_LABELS, **views.history_page(t, e.name)
    )
