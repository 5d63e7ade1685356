"""Phone-sized pictures of a night's standings and of one match's result (levels, 级差 and the
level chart), for the club's group chat: the same pen and charts as the printed paper."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from engine.hundred_rules import is_family as is_hundred
from engine.variants import CLIMBING

from ...charts import builders, drawing
from ...competition.matches import FixedMatch
from ...competition.standings import FixedStanding
from ...models import Club, Table, Tournament
from ...printing.images import ImageRow, MatchImage, StandingsImage, match_png, standings_png
from ..players.pages import level_words
from .rows import comp_table, derive_row_table, load, seat_names
from .standings import ranks_over_rounds

FOOTER = "Shengji Club"


def standings_image(t: Tournament, club: Club) -> bytes:
    loaded = load(t)
    rows = []
    for r in loaded.standings:
        if isinstance(r, FixedStanding):
            rows.append(ImageRow(str(r.rank), r.entrant, str(r.match_points), f"{r.level_diff:+d}"))
        else:
            rows.append(ImageRow(str(r.rank), r.entrant, str(r.score), str(r.dealer_wins)))
    if loaded.tournament.fixed_sides and is_hundred(t.variant):  # 打百分's pairs: 分差
        head = (_("#"), _("Entrant"), _("Match points"), _("分差"))
    elif loaded.tournament.fixed_sides:
        head = (_("#"), _("Entrant"), _("Match points"), _("级差"))
    elif t.variant == CLIMBING:  # 争上游: points by place, then deals won (上游)
        head = (_("#"), _("Player"), _("Points by place"), _("Deals won (上游)"))
    elif is_hundred(t.variant):  # 打百分's individuals: 积分, then deals won as declarer's side
        head = (_("#"), _("Player"), _("积分"), _("Declarer side wins"))
    else:
        head = (_("#"), _("Player"), _("积分"), _("Dealer side wins"))
    labels, by_name, final = ranks_over_rounds(loaded)
    chart = (
        drawing.render(builders.ranks_chart(_("Places round by round"), labels, by_name, final))
        if len(labels) >= 2
        else None
    )
    img = StandingsImage(
        t.name,
        f"{club.name}" + (f" · {t.date.isoformat()}" if t.date else ""),
        head,
        tuple(rows),
        chart,
        FOOTER,
    )
    return standings_png(img)


def match_image(t: Tournament, tab: Table, club: Club) -> bytes | None:
    """None for a table that is not a fixed-side match with deals."""
    derived = derive_row_table(t, tab)
    if not isinstance(derived, FixedMatch) or not derived.rows:
        return None
    sides, _names = seat_names(tab)
    diff = derived.level_diff(0)
    if derived.forfeit is not None or derived.counts:
        if diff > 0:
            result = _("%(side)s wins, level diff. %(d)+d", side=sides[0], d=diff)
        elif diff < 0:
            result = _("%(side)s wins, level diff. %(d)+d", side=sides[1], d=-diff)
        else:
            result = _("A draw at equal levels")
    else:
        result = ngettext(
            "In progress after %(num)d deal", "In progress after %(num)d deals", len(derived.rows)
        )
    chart = drawing.render(
        builders.level_chart(derived, comp_table(tab).deals, sides, level_words())
    )
    img = MatchImage(
        t.name,
        _("Round %(r)d · Table %(n)d", r=tab.round.number, n=tab.number) + f" · {club.name}",
        (sides[0], sides[1]),
        (derived.levels[0], derived.levels[1]),
        result,
        chart,
        FOOTER,
    )
    return match_png(img)
