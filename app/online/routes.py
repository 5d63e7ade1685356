"""The online tables' views: the director's table page, each seat's page, the spectators' live
view and the replays of finished deals."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..extensions import db, htmx
from ..models import Club, Member, OnlineSeat, Table, Tournament
from ..permissions import club_route
from ..services import ServiceError
from ..services.online import bridge, pages, seats
from ..services.tournament_sheets import may_edit
from ..tournaments.actions import attempt, confirmed
from ..tournaments.forms import ConfirmForm
from ..tournaments.lookup import actor, round_, table, tournament
from . import bp
from .forms import MoveForm, PauseForm, SeatControlForm

TABLE_URL = "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/online"
WATCH_URL = "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/watch"

F = TypeVar("F", bound=Callable[..., Any])


def no_store(view: F) -> F:
    """A live page (a seat's, a spectator's) and its poll are never kept by a browser or a proxy:
    a cached copy would show a stale table, or a hand to the next user of a shared device."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapper  # type: ignore[return-value]


def _table_of(club: Club, tid: int, n: int, tno: int) -> tuple[Tournament, Table]:
    """The tournament and the table named by the URL (a bye is a 404: it has no deals)."""
    t = tournament(club, tid)
    return t, table(round_(t, n), tno, bye=False)


def _table_kw(club: Club, t: Tournament, tab: Table) -> dict[str, Any]:
    return {"slug": club.slug, "tid": t.id, "n": tab.round.number, "tno": tab.number}


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
        ctx["live"] = _director_live_context(club, me, t, tab)
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


def _director_live_context(club: Club, me: Member, t: Tournament, tab: Table) -> dict[str, Any]:
    kw = _table_kw(club, t, tab)
    return {
        **pages.spectator_page(tab),
        "replays": _club_replays(club, tab),
        "poll_url": url_for("online.director_poll", **kw),
        "pause_url": url_for("online.pause", **kw),
        "bots_url": url_for("online.bots", **kw),
        "watch_url": url_for("online.watch", **kw),
        "may_pause": not tab.finished and may_edit(tab.round, actor(me)),
    }


@bp.get(TABLE_URL + "/live")
@club_route("director")
def director_poll(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """The director's live view: 204 while unchanged, else the fresh partial."""
    t, tab = _table_of(club, tid, n, tno)
    if request.args.get("v", "") == bridge.watch_token(tab):
        return "", 204
    return render_template(
        "online/_director_live.html", live=_director_live_context(club, me, t, tab), tab=tab
    )


@bp.post(TABLE_URL + "/pause")
@club_route("director")
def pause(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Pause the table (``paused=1``: moves refused, bots wait) or let it play on (``paused=0``)."""
    t, tab = _table_of(club, tid, n, tno)
    if not PauseForm().validate_on_submit():
        abort(400)
    paused = request.form.get("paused", "1") == "1"
    ok, _r = attempt(lambda: bridge.set_paused(t, tab, paused, actor(me)))
    if ok:
        flash(
            _("The table is paused: no move is taken until you resume it.")
            if paused
            else _("The table plays on."),
            "success",
        )
    return redirect(url_for("online.table_page", **_table_kw(club, t, tab)), 303)


# --- spectators -------------------------------------------------------------------------------


def _watch_context(club: Club, me: Member, t: Tournament, tab: Table) -> dict[str, Any]:
    kw = _table_kw(club, t, tab)
    director = me.role in ("owner", "director")
    return {
        **pages.spectator_page(tab),
        "replays": _club_replays(club, tab) if _may_replay(me, tab) else [],
        "watch_poll_url": url_for("online.watch_poll", **kw) if tab.mode == "online" else None,
        "director_url": url_for("online.table_page", **kw) if director else None,
    }


@bp.get(WATCH_URL)
@club_route("player")
@no_store
def watch(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """A club member watches an online table live: the public table, never a hand."""
    t, tab = _table_of(club, tid, n, tno)
    return render_template(
        "online/watch.html",
        club=club,
        me=me,
        t=t,
        tab=tab,
        rnd=tab.round,
        w=_watch_context(club, me, t, tab),
    )


@bp.get(WATCH_URL + "/poll")
@club_route("player")
@no_store
def watch_poll(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """204 while the live view's token is the one the page shows, else the fresh partial."""
    t, tab = _table_of(club, tid, n, tno)
    if request.args.get("v", "") == bridge.watch_token(tab):
        return "", 204
    return render_template("online/_spectate.html", w=_watch_context(club, me, t, tab))


# --- replays ----------------------------------------------------------------------------------


def _may_replay(me: Member, tab: Table) -> bool:
    """A club's directors replay a table's deals at once; its members once the round is closed
    (the table's players replay theirs at once from their seat's link)."""
    return me.role in ("owner", "director") or tab.round.status == "closed"


def _trick_arg() -> int:
    raw = request.args.get("trick", "0")
    return int(raw) if raw.isdigit() and len(raw) < 4 else 0


def _club_replays(club: Club, tab: Table) -> list[dict[str, Any]]:
    """The table's finished deals, each with the address of its replay for the club."""
    return [
        {**r, "url": url_for("online.table_replay", slug=club.slug, deal_id=r["id"])}
        for r in pages.replay_list(tab)
    ]


def _seat_replays(seat_token: str, tab: Table) -> list[dict[str, Any]]:
    """The table's finished deals, each with the address of its replay for a seat's player."""
    return [
        {**r, "url": url_for("online.seat_replay", seat_token=seat_token, number=r["number"])}
        for r in pages.replay_list(tab)
    ]


def _render_replay(
    ctx: dict[str, Any] | None, here: str, replays: list[dict[str, Any]], back: str
) -> ResponseReturnValue:
    if ctx is None:
        abort(404)
    ctx.update(here=here, replays=replays, back_url=back)
    if htmx and not htmx.history_restore_request:
        return render_template("online/_replay.html", **ctx)
    return render_template("online/replay.html", **ctx)


@bp.get("/clubs/<slug>/replays/<int:deal_id>")
@club_route("player")
@no_store
def table_replay(club: Club, me: Member, deal_id: int) -> ResponseReturnValue:
    """A finished deal of one of the club's online tables, trick by trick (``?trick=k``)."""
    row = bridge.deal_by_id(deal_id)
    tab = None if row is None else db.session.get(Table, row.table_id)
    if row is None or tab is None or tab.mode != "online":
        abort(404)
    t = bridge.tournament_of(tab)
    if t.club_id != club.id or not _may_replay(me, tab):
        abort(404)
    ctx = pages.replay_page(tab, row.number, _trick_arg())
    here = url_for("online.table_replay", slug=club.slug, deal_id=deal_id)
    back = url_for("online.watch", **_table_kw(club, t, tab))
    return _render_replay(ctx, here, _club_replays(club, tab), back)


@bp.get("/play/<seat_token>/replays/<int:number>")
@no_store
def seat_replay(seat_token: str, number: int) -> ResponseReturnValue:
    """A finished deal of the seat's own table, for its players at once."""
    s = _seat_or_404(seat_token)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    ctx = pages.replay_page(tab, number, _trick_arg())
    here = url_for("online.seat_replay", seat_token=seat_token, number=number)
    back = url_for("online.seat", seat_token=seat_token)
    return _render_replay(ctx, here, _seat_replays(seat_token, tab), back)


@bp.get("/play/<seat_token>/replays")
@no_store
def seat_replays(seat_token: str) -> ResponseReturnValue:
    """The finished deals of the seat's table, each a link to its replay."""
    s = _seat_or_404(seat_token)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    t = bridge.tournament_of(tab)
    return render_template(
        "online/replays.html",
        tournament=t.name,
        table=tab.number,
        round=tab.round.number,
        replays=_seat_replays(seat_token, tab),
        back_url=url_for("online.seat", seat_token=seat_token),
    )


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
    tab = db.session.get(Table, seat.table_id)
    if tab is not None and tab.paused and not tab.finished:
        # the seat's page says so where it shows a refused move's reason, and offers no move
        error = error or bridge.paused_message()
        ctx["actions"] = []
    ctx["error"] = error
    ctx["confirm_form"] = ConfirmForm(formdata=None)
    return render_template("online/_seat.html" if partial else "online/seat.html", **ctx)


@bp.route("/play/<seat_token>", methods=["GET", "POST"])
@no_store
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
@no_store
def poll(seat_token: str) -> ResponseReturnValue:
    """204 while the state token is the one the page shows, else the seat's fresh partial."""
    s = _seat_or_404(seat_token)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    if request.args.get("v", "") == bridge.state_token(tab):
        return "", 204
    return _render_seat(s, partial=True)
