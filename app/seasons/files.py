"""A season's downloads: standings as PDF (A4 / Letter), CSV and a phone-sized PNG."""

from __future__ import annotations

from flask import abort
from flask.typing import ResponseReturnValue

from ..competition.seasons import SeasonRuleError
from ..models import Club, Member, Season
from ..permissions import club_route, get_in_club_or_404
from ..services.seasons import files as season_files
from ..services.seasons.standings import rule_of
from ..tournaments.files import _csv, _download, _page_size, _pdf
from . import bp

BASE = "/clubs/<slug>/seasons/<int:sid>"


def _rule(season: Season, asked: str | None):  # type: ignore[no-untyped-def]
    try:
        return rule_of(season, asked)
    except SeasonRuleError:
        abort(400)


@bp.get(BASE + "/standings.csv")
@club_route("player")
def standings_csv(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    from flask import request

    s = get_in_club_or_404(Season, club, sid)
    rule = _rule(s, request.args.get("rule"))
    return _csv(season_files.standings_csv(s, rule), f"season-{s.id}-standings.csv")


@bp.get(BASE + "/standings.pdf")
@club_route("player")
def standings_pdf(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    from flask import request

    s = get_in_club_or_404(Season, club, sid)
    rule = _rule(s, request.args.get("rule"))
    size = _page_size()
    return _pdf(
        lambda: season_files.standings_pdf(s, club, size, rule), f"season-{s.id}-standings.pdf"
    )


@bp.get(BASE + "/standings.png")
@club_route("player")
def standings_png(club: Club, me: Member, sid: int) -> ResponseReturnValue:
    from flask import request

    s = get_in_club_or_404(Season, club, sid)
    rule = _rule(s, request.args.get("rule"))
    return _download(
        season_files.standings_image(s, club, rule), f"season-{s.id}-standings.png", "image/png"
    )
