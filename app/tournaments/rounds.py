"""Round pages: seating the next round, the round's tables, pairing again, swapping entrants,
closing and reopening."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from ..forms_common import choices
from ..models import Club, Member, Round, Tournament
from ..permissions import club_route
from ..services import versions
from ..services.online import guards
from ..services.online import rounds as online_rounds
from ..services.tournaments import clock as clocks
from ..services.tournaments import rounds as rounds
from ..services.tournaments.audit import Actor
from ..services.tournaments.rows import rounds_of
from ..services.tournaments.sheets import sheet
from . import bp
from .actions import attempt, confirmed
from .forms import ConfirmForm, SwapForm
from .lookup import actor, round_, tournament


def round_url(club: Club, t: Tournament, n: int) -> str:
    return url_for("tournaments.round_page", slug=club.slug, tid=t.id, n=n)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds")
@club_route("director")
def seat_round(club: Club, me: Member, tid: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    draw = request.form.get("draw") == "random"
    ok, rnd = attempt(lambda: rounds.seat_next_round(t, actor(me), draw=draw))
    if not ok or rnd is None:
        return redirect(url_for("tournaments.show", slug=club.slug, tid=t.id), 303)
    flash(_("Round %(n)d seated.", n=rnd.number), "success")
    return redirect(round_url(club, t, rnd.number), 303)


def _seated(rnd: Round) -> list[tuple[int, str]]:
    """Every entrant seated in the round (id, name and table), table by table: the swap form's
    choices."""
    return [
        (s.entrant_id, _("%(name)s (table %(n)d)", name=s.entrant.name, n=tab.number))
        for tab in rnd.tables
        for s in tab.seats
    ]


def _swap_defaults(rnd: Round) -> tuple[int | None, int | None]:
    """Two different entrants to start the swap form from: the first seated one, and the first
    one at another table (a swap is usually between tables), else the next one."""
    seated = [(tab.number, s.entrant_id) for tab in rnd.tables for s in tab.seats]
    if len(seated) < 2:
        return (seated[0][1] if seated else None), None
    first_table, first = seated[0]
    other = next((e for n, e in seated if n != first_table), seated[1][1])
    return first, other


def _round_context(club: Club, me: Member, t: Tournament, rnd: Round) -> dict[str, Any]:
    tables = []
    for tab in rnd.tables:
        derived = sheet(t, tab) if tab.kind != "bye" else None
        tables.append(
            {"table": tab, "entrants": [s.entrant for s in tab.seats], "derived": derived}
        )
    from ..services.tournaments import reseat  # (rounds.py's imports are left as they are)

    first, second = _swap_defaults(rnd)
    swap_form = SwapForm(formdata=None, first=first, second=second)
    swap_form.first.choices = choices(_seated(rnd))
    swap_form.second.choices = choices(_seated(rnd))
    return {
        "club": club,
        "me": me,
        "t": t,
        "rnd": rnd,
        "rows": tables,
        "director": me.role in ("owner", "director"),
        "owner": me.role == "owner",
        "has_results": rounds.round_has_results(rnd),
        "may_repair": not rounds.paper_results(rnd),
        "repair_warnings": [guards.repair_warning(g) for g in rounds.online_games(rnd)],
        "is_last": rnd.number == len(rounds_of(t)),
        "swap_form": swap_form,
        "seating_version": rounds.seating_version(rnd),
        "clock": clocks.state(t, rnd),
        "clock_round": rnd.number,
        "online_choices": online_rounds.choices(rnd),
        "online_refusal": online_rounds.refusal(t, rnd),
        "online_seen": online_rounds.round_version(rnd),
        # the seating "Pair again" replaced, to go back to (issue 22: nothing is lost)
        "previous_seating": reseat.may_go_back(t, rnd),
    }


@bp.get("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>")
@club_route("player")
def round_page(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    rnd = round_(t, n)
    return render_template("tournaments/round.html", **_round_context(club, me, t, rnd))


def _round_action(
    club: Club,
    me: Member,
    tid: int,
    n: int,
    service: Callable[[Tournament, Round, Actor], object],
    ok_message: str,
) -> ResponseReturnValue:
    """A confirmed POST on round ``n`` that calls ``service(t, rnd, actor)``."""
    t = tournament(club, tid)
    rnd = round_(t, n)
    return confirmed(lambda: service(t, rnd, actor(me)), round_url(club, t, n), ok_message)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/repair")
@club_route("director")
def repair(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    message = _("Round %(n)d paired again.", n=n)
    sure = request.form.get("confirm") == "1"  # discard the round's online games

    seen = versions.seen_of(request.form)

    def service(t: Tournament, rnd: Round, who: Actor) -> Round:
        return rounds.repair_round(t, rnd, who, confirm=sure, seen=seen)

    return _round_action(club, me, tid, n, service, message)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/go-back")
@club_route("director")
def go_back(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    """Seat the round as it was before it was paired again."""
    from ..services.tournaments import reseat

    entry = request.form.get("entry", "")
    entry_id = int(entry) if entry.isdigit() and len(entry) < 12 else 0
    seen = versions.seen_of(request.form)
    message = _("Round %(n)d is seated as it was before it was paired again.", n=n)

    def service(t: Tournament, rnd: Round, who: Actor) -> Round:
        return reseat.go_back(t, rnd, who, entry_id, seen=seen)

    return _round_action(club, me, tid, n, service, message)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/close")
@club_route("director")
def close(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    return _round_action(club, me, tid, n, rounds.close_round, _("Round %(n)d closed.", n=n))


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/reopen")
@club_route("owner")
def reopen(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    message = _("Round %(n)d is open again.", n=n)
    return _round_action(club, me, tid, n, rounds.reopen_round, message)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/online")
@club_route("director")
def play_online(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    """Send the chosen tables of the round online in one go (seats bound, bots carried)."""
    t = tournament(club, tid)
    rnd = round_(t, n)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    numbers = [int(x) for x in request.form.getlist("tables") if x.isdigit()]
    seen = request.form.get("seen") or None

    def service() -> online_rounds.Sent:
        return online_rounds.send_round_online(t, rnd, club, numbers, seen, actor(me))

    ok, sent = attempt(service)
    if ok and sent is not None:
        flash(
            " ".join(
                [
                    ngettext(
                        "%(num)d table is played online.",
                        "%(num)d tables are played online.",
                        len(sent.tables),
                    ),
                    ngettext(
                        "%(num)d seat is bound to a member's account;",
                        "%(num)d seats are bound to members' accounts;",
                        sent.bound,
                    ),
                    ngettext(
                        "%(num)d bot is carried from the previous round.",
                        "%(num)d bots are carried from the previous round.",
                        sent.bots,
                    ),
                    _("Send the guests their links from each table's online page."),
                ]
            ),
            "success",
        )
    return redirect(round_url(club, t, n), 303)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/swap")
@club_route("director")
def swap(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    t = tournament(club, tid)
    rnd = round_(t, n)
    form = SwapForm()
    form.first.choices = choices(_seated(rnd))
    form.second.choices = choices(_seated(rnd))
    if not form.validate_on_submit():
        flash(_("Choose two entrants of this round."), "error")
        return redirect(round_url(club, t, n), 303)
    a, b = form.first.data or 0, form.second.data or 0
    seen = versions.seen_of(request.form)
    ok, _none = attempt(lambda: rounds.swap_entrants(t, rnd, a, b, actor(me), seen))
    if ok:
        flash(_("Entrants swapped."), "success")
    return redirect(round_url(club, t, n), 303)


CLOCK_ACTIONS: dict[str, Callable[[Tournament, Round, Actor], None]] = {
    "start": clocks.start,
    "pause": clocks.pause,
    "resume": clocks.resume,
    "last_deal": clocks.call_last_deal,
}


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/clock")
@club_route("director")
def round_clock(club: Club, me: Member, tid: int, n: int) -> ResponseReturnValue:
    """The round clock of a match by time: start, pause, resume, or call the last deal."""
    t = tournament(club, tid)
    rnd = round_(t, n)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    action = CLOCK_ACTIONS.get(request.form.get("action", ""))
    if action is None:
        flash(
            _("Please choose what to do with the clock: start, pause, resume or last deal."),
            "error",
        )
        return redirect(round_url(club, t, n), 303)
    messages = {
        "start": _("The clock of round %(n)d runs.", n=n),
        "pause": _("The clock of round %(n)d is paused.", n=n),
        "resume": _("The clock of round %(n)d runs again.", n=n),
        "last_deal": _(
            "Last deal called: every table finishes the deal in progress and starts no new one."
        ),
    }
    ok, _none = attempt(lambda: action(t, rnd, actor(me)))
    if ok:
        flash(messages[request.form["action"]], "success")
    return redirect(round_url(club, t, n), 303)
