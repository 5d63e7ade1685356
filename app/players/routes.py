"""A member's player page inside the club (members only, like every club page)."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..charts import builders, svg
from ..competition.matches import FixedMatch
from ..models import Club, Member
from ..permissions import club_route, get_in_club_or_404
from ..services.players.pages import level_words, player_page
from . import bp


@bp.get("/clubs/<slug>/members/<int:member_id>/player")
@club_route("player")
def player(club: Club, me: Member, member_id: int) -> ResponseReturnValue:
    member = get_in_club_or_404(Member, club, member_id)
    page = player_page(club, member)
    words = level_words()
    charts = {}
    for night in page.nights:
        for m in night.matches:
            if isinstance(m.derived, FixedMatch) and m.derived.rows:
                sides = [night.entrant, m.opponent or "?"]
                if m.side == 1:
                    sides.reverse()
                charts[(night.tournament.id, m.round)] = svg.render(
                    builders.level_chart(m.derived, m.deals, sides, words)
                )
    rating_svg = None
    if page.rating is not None and len(page.rating.history) >= 2:
        rating_svg = svg.render(
            builders.rating_chart(_("Rating over time"), page.rating.history, member.display_name)
        )
    return render_template(
        "players/player.html",
        club=club,
        me=me,
        member=member,
        page=page,
        charts=charts,
        rating_svg=rating_svg,
    )
