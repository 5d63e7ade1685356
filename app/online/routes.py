"""The online tables' views: the director's table page and each seat's page."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..db import read_first
from ..extensions import db, htmx
from ..models import Club, Member, OnlineSeat, Table
from ..permissions import club_route
from ..services import ServiceError
from ..services.online import bridge, pages, seats
from ..tournaments.actions import attempt, confirmed
from ..tournaments.forms import ConfirmForm
from ..tournaments.lookup import actor, round_, table, tournament
from . import bp
from .forms import MoveForm, SeatControlForm

TABLE_URL = "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/online"


# --- the director -----------------------------------------------------------------------------


@bp.route(TABLE_URL, methods=["GET", "POST"])
@club_route("director")
def table_page(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """GET: the seat links and bots of an online table; POST: switch the table online."""
    t = tournament(club, tid)
    tab = table(round_(t, n), tno, bye=False)
    here = url_for("online.table_page", slug=club.slug, tid=t.id, n=n, tno=tno)
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            abort(400)
        ok, _r = attempt(lambda: bridge.switch_online(t, tab, actor(me)))
        if ok:
            flash(
                _("The table is played online: send each player the link of their seat."), "success"
            )
        return redirect(here, 303)
    ctx: dict[str, Any] = {"club": club, "me": me, "t": t, "tab": tab, "rnd": tab.round}
    if tab.mode == "online":
        ctx.update(pages.director_page(tab))
    return render_template(
        "online/table.html",
        **ctx,
        confirm_form=ConfirmForm(formdata=None),
        sheet_url=url_for("tournaments.table_sheet", slug=club.slug, tid=t.id, n=n, tno=tno),
        bots_url=url_for("online.bots", slug=club.slug, tid=t.id, n=n, tno=tno),
        finish_url=url_for("online.finish", slug=club.slug, tid=t.id, n=n, tno=tno),
    )


@bp.post(TABLE_URL + "/bots")
@club_route("director")
def bots(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Mark a seat as played by a bot (``bot=1``) or by its player again (``bot=0``)."""
    t = tournament(club, tid)
    tab = table(round_(t, n), tno, bye=False)
    if not SeatControlForm().validate_on_submit():
        abort(400)
    raw = request.form.get("seat", "")
    seat = int(raw) if raw.isdigit() and len(raw) < 3 else -1
    bot = request.form.get("bot", "1") == "1"
    ok, _r = attempt(lambda: bridge.set_bot(t, tab, seat, bot, actor(me)))
    if ok:
        flash(
            _("Seat %(s)d is played by a bot.", s=seat + 1)
            if bot
            else _("Seat %(s)d is played by its player.", s=seat + 1),
            "success",
        )
    return redirect(url_for("online.table_page", slug=club.slug, tid=t.id, n=n, tno=tno), 303)


@bp.post(TABLE_URL + "/finish")
@club_route("director")
def finish(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Time is up for a timed match: the online table stops where it is."""
    t = tournament(club, tid)
    tab = table(round_(t, n), tno, bye=False)
    here = url_for("online.table_page", slug=club.slug, tid=t.id, n=n, tno=tno)
    return confirmed(lambda: bridge.finish(t, tab, actor(me)), here, _("Table marked finished."))


# --- a seat's link ----------------------------------------------------------------------------


def _seat_or_404(token: str) -> OnlineSeat:
    seat = seats.seat_by_token(token)
    if seat is None:
        abort(404)
    tab = db.session.get(Table, seat.table_id)
    if tab is None or tab.mode != "online":
        abort(404)
    return seat


def _render_seat(seat: OnlineSeat, partial: bool, error: str | None = None) -> str:
    ctx = pages.seat_page(seat)
    ctx["seat_token"] = seat.token
    ctx["error"] = error
    ctx["confirm_form"] = ConfirmForm(formdata=None)
    return render_template("online/_seat.html" if partial else "online/seat.html", **ctx)


@bp.route("/play/<seat_token>", methods=["GET", "POST"])
@read_first  # the move is computed before the write lock is taken (bridge._save)
def seat(seat_token: str) -> ResponseReturnValue:
    """A seat's page; POST makes this seat's move (``v`` = the state token it saw)."""
    s = _seat_or_404(seat_token)
    if request.method == "GET":
        return _render_seat(s, partial=False)
    if not MoveForm().validate_on_submit():
        abort(400)
    try:
        bridge.act(
            s,
            request.form.get("v", ""),
            request.form.get("kind", ""),
            request.form.getlist("cards"),
            request.form.get("card", ""),
        )
    except bridge.Stale as e:
        db.session.rollback()
        return _render_seat(s, partial=bool(htmx), error=e.message), 409
    except ServiceError as e:
        db.session.rollback()
        return _render_seat(s, partial=bool(htmx), error=e.message), 422
    db.session.commit()
    if htmx:
        return _render_seat(s, partial=True)
    return redirect(url_for("online.seat", seat_token=seat_token), 303)


@bp.get("/play/<seat_token>/poll")
def poll(seat_token: str) -> ResponseReturnValue:
    """204 while the state token is the one the page shows, else the seat's fresh partial."""
    now = bridge.seat_state_token(seat_token)  # one query: no deal is loaded
    if now is None:
        abort(404)
    if request.args.get("v", "") == now:
        return "", 204
    return _render_seat(_seat_or_404(seat_token), partial=True)
