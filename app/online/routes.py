"""The online tables' views: the director's table page, each seat's page, the spectators' live
view and the replays of finished deals."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from flask import (
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..db import read_first
from ..extensions import db, htmx
from ..models import Club, Member, OnlineSeat, Table, Tournament
from ..permissions import club_route
from ..poll_shortcut import SEAT_STATE
from ..services import ServiceError
from ..services.live import bus as live_bus
from ..services.live import streams as live_streams
from ..services.online import (
    botchoice,
    bridge,
    chat,
    clock,
    director,
    guards,
    moves,
    pages,
    seat_json,
    seats,
    takeback,
    tokens,
)
from ..services.tournaments.rows import seat_names
from ..services.tournaments.sheets import may_edit
from ..tournaments.actions import attempt
from ..tournaments.forms import ConfirmForm
from ..tournaments.lookup import actor, round_, table, tournament
from ..web import no_store
from . import bp
from .forms import MoveForm, PauseForm, SeatControlForm

TABLE_URL = "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/online"
MY_SEAT_URL = "/clubs/<slug>/my-table/<int:seat_id>"
WATCH_URL = "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/watch"

T = TypeVar("T")


def _table_of(club: Club, tid: int, n: int, tno: int) -> tuple[Tournament, Table]:
    """The tournament and the table named by the URL (a bye is a 404: it has no deals)."""
    t = tournament(club, tid)
    return t, table(round_(t, n), tno, bye=False)


def _table_kw(club: Club, t: Tournament, tab: Table) -> dict[str, Any]:
    return {"slug": club.slug, "tid": t.id, "n": tab.round.number, "tno": tab.number}


# --- the director -----------------------------------------------------------------------------


def _on_table(
    club: Club,
    tid: int,
    n: int,
    tno: int,
    form: type[ConfirmForm],
    action: Callable[[Tournament, Table], T],
    said: Callable[[T | None], str | None],
    onward: str | None = None,
) -> ResponseReturnValue:
    """A director's button on an online table: the tournament and the table the URL names, the
    button's form (CSRF checked, else 400), the service ``action`` (committed, or rolled back with
    its refusal flashed), ``said(result)`` flashed when it succeeded and says something; then back
    to the table's page (or to ``onward`` after a success)."""
    t, tab = _table_of(club, tid, n, tno)
    if not form().validate_on_submit():
        abort(400)
    ok, result = attempt(lambda: action(t, tab))
    if ok:
        message = said(result)
        if message:
            flash(message, "success")
        if onward is not None:
            return redirect(onward, 303)
    return redirect(url_for("online.table_page", **_table_kw(club, t, tab)), 303)


@bp.route(TABLE_URL, methods=["GET", "POST"])
@club_route("director")
def table_page(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """GET: the seat links and bots of an online table; POST: switch the table online."""
    if request.method == "POST":

        def switch(t: Tournament, tab: Table) -> None:
            director.switch_online(t, tab, actor(me))
            seats.bind_defaults(t, tab, club, actor(me))

        return _on_table(
            club,
            tid,
            n,
            tno,
            ConfirmForm,
            switch,
            lambda _r: _("The table is played online: send each player the link of their seat."),
        )
    t, tab = _table_of(club, tid, n, tno)
    ctx: dict[str, Any] = {"club": club, "me": me, "t": t, "tab": tab, "rnd": tab.round}
    if tab.mode == "online":
        ctx.update(pages.director_page(tab))
        ctx["links"] = seats.seat_links(tab, club)
        # a director who plays a seat here sees no other seat's link (each opens that hand)
        # until the match is over
        ctx["playing"] = (
            None
            if ctx["over"]
            else next((s.seat for s in ctx["seats"] if s.member_id == me.id), None)
        )
        ctx["accounts"] = seats.accounts_of(club)
        ctx["live"] = _director_live_context(club, me, t, tab)
        ctx["chat"] = _chat_view(tab, url_for("online.table_chat", **_table_kw(club, t, tab)), None)
    return render_template(
        "online/table.html",
        **ctx,
        sheet_url=url_for("tournaments.table_sheet", slug=club.slug, tid=t.id, n=n, tno=tno),
        bots_url=url_for("online.bots", slug=club.slug, tid=t.id, n=n, tno=tno),
        bot_levels=botchoice.LEVEL_LABELS,
        bot_strength=botchoice.strength_table(t.variant),
        bind_url=url_for("online.bind", slug=club.slug, tid=t.id, n=n, tno=tno),
        rotate_url=url_for("online.rotate", slug=club.slug, tid=t.id, n=n, tno=tno),
        finish_url=url_for("online.finish", slug=club.slug, tid=t.id, n=n, tno=tno),
        paper_url=url_for("online.paper", slug=club.slug, tid=t.id, n=n, tno=tno),
        paper_warning=_paper_warning(tab),
    )


def _paper_warning(tab: Table) -> str | None:
    """What playing on paper would discard, when the online game has moves (then the button
    asks for confirmation)."""
    game = guards.game_of(tab)
    return guards.paper_warning(game) if game is not None and game.moves else None


@bp.post(TABLE_URL + "/paper")
@club_route("director")
def paper(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """The players move to a physical table: the table is played on paper from now on (when it
    is refused, back to the button, which now asks for confirmation)."""
    sure = request.form.get("confirm") == "1"
    return _on_table(
        club,
        tid,
        n,
        tno,
        ConfirmForm,
        lambda t, tab: guards.switch_paper(t, tab, actor(me), sure),
        lambda _r: _("The table is played on paper: enter its next deals on the score sheet."),
        onward=url_for("tournaments.table_sheet", slug=club.slug, tid=tid, n=n, tno=tno),
    )


def _seat_field() -> int:
    raw = request.form.get("seat", "")
    return int(raw) if raw.isdigit() and len(raw) < 3 else -1


@bp.post(TABLE_URL + "/bots")
@club_route("director")
def bots(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Mark a seat as played by a bot (``bot=1``) or by its player again (``bot=0``); with
    ``level`` (easy, normal, strong), choose how strong the seat's bot plays."""
    seat = _seat_field()
    level = request.form.get("level")
    if level is not None:
        return _on_table(
            club,
            tid,
            n,
            tno,
            SeatControlForm,
            lambda t, tab: director.set_bot_level(t, tab, seat, level, actor(me)),
            lambda _r: _(
                "Seat %(s)d's bot plays %(level)s.",
                s=seat + 1,
                level=botchoice.LEVEL_LABELS[level],
            ),
        )
    bot = request.form.get("bot", "1") == "1"
    return _on_table(
        club,
        tid,
        n,
        tno,
        SeatControlForm,
        lambda t, tab: director.set_bot(t, tab, seat, bot, actor(me)),
        lambda _r: (
            _("Seat %(s)d is played by a bot.", s=seat + 1)
            if bot
            else _("Seat %(s)d is played by its player.", s=seat + 1)
        ),
    )


@bp.post(TABLE_URL + "/seats")
@club_route("director")
def bind(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Bind a seat to a member with an account (``member`` = their id), or make it a guest's
    seat played through its link (``member`` empty)."""
    seat = _seat_field()
    raw = request.form.get("member", "").strip()
    member_id = int(raw) if raw.isdigit() and len(raw) < 12 else None

    def bind_seat(t: Tournament, tab: Table) -> bool:
        if raw and member_id is None:
            raise ServiceError(_("Please choose a member from the list."))
        return seats.bind(t, tab, seat, member_id, actor(me))

    return _on_table(
        club,
        tid,
        n,
        tno,
        SeatControlForm,
        bind_seat,
        lambda changed: (
            None
            if not changed
            else _("Seat %(s)d is played by its guest, through its link.", s=seat + 1)
            if member_id is None
            else _("Seat %(s)d is bound: its member plays it from their home page.", s=seat + 1)
        ),
    )


@bp.post(TABLE_URL + "/rotate")
@club_route("director")
def rotate(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Give a seat a new secret link; the old one stops working."""
    seat = _seat_field()
    return _on_table(
        club,
        tid,
        n,
        tno,
        SeatControlForm,
        lambda t, tab: seats.rotate(t, tab, seat, actor(me)),
        lambda _r: _("Seat %(s)d has a new link: the old one no longer works.", s=seat + 1),
    )


@bp.post(TABLE_URL + "/finish")
@club_route("director")
def finish(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Time is up for a timed match: the online table stops where it is."""
    return _on_table(
        club,
        tid,
        n,
        tno,
        ConfirmForm,
        lambda t, tab: director.finish(t, tab, actor(me)),
        lambda _r: _("Table marked finished."),
    )


def _director_live_context(club: Club, me: Member, t: Tournament, tab: Table) -> dict[str, Any]:
    kw = _table_kw(club, t, tab)
    return {
        **pages.spectator_page(tab),
        "replays": _club_replays(club, tab),
        "poll_url": url_for("online.director_poll", **kw),
        "stream_url": url_for("online.director_stream", **kw),
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
    if request.args.get("v", "") == tokens.watch_token(tab):
        return "", 204
    return render_template(
        "online/_director_live.html", live=_director_live_context(club, me, t, tab), tab=tab
    )


@bp.post(TABLE_URL + "/pause")
@club_route("director")
def pause(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Pause the table (``paused=1``: moves refused, bots wait) or let it play on (``paused=0``)."""
    paused = request.form.get("paused", "1") == "1"
    return _on_table(
        club,
        tid,
        n,
        tno,
        PauseForm,
        lambda t, tab: director.set_paused(t, tab, paused, actor(me)),
        lambda _r: (
            _("The table is paused: no move is taken until you resume it.")
            if paused
            else _("The table plays on.")
        ),
    )


# --- spectators -------------------------------------------------------------------------------


def _watch_context(club: Club, me: Member, t: Tournament, tab: Table) -> dict[str, Any]:
    kw = _table_kw(club, t, tab)
    is_director = me.role in ("owner", "director")
    return {
        **pages.spectator_page(tab),
        "replays": _club_replays(club, tab) if _may_replay(me, tab) else [],
        "watch_poll_url": url_for("online.watch_poll", **kw) if tab.mode == "online" else None,
        "stream_url": url_for("online.watch_stream", **kw) if tab.mode == "online" else None,
        "director_url": url_for("online.table_page", **kw) if is_director else None,
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
    if request.args.get("v", "") == tokens.watch_token(tab):
        return "", 204
    return render_template("online/_spectate.html", w=_watch_context(club, me, t, tab))


@bp.get(WATCH_URL + "/stream")
@club_route("player")
def watch_stream(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """The live view's stream (server-sent events): the public table on every change."""
    _t, tab = _table_of(club, tid, n, tno)
    return _table_stream(
        club,
        me,
        tab,
        "watch",
        lambda club, me, t, tab: render_template(
            "online/_spectate.html", w=_watch_context(club, me, t, tab)
        ),
    )


@bp.get(TABLE_URL + "/live/stream")
@club_route("director")
def director_stream(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """The director's live view's stream: the partial on every change of the table."""
    _t, tab = _table_of(club, tid, n, tno)
    return _table_stream(
        club,
        me,
        tab,
        "live",
        lambda club, me, t, tab: render_template(
            "online/_director_live.html", live=_director_live_context(club, me, t, tab), tab=tab
        ),
    )


def _table_stream(
    club: Club,
    me: Member,
    tab: Table,
    name: str,
    render: Callable[[Club, Member, Tournament, Table], str],
) -> ResponseReturnValue:
    """A stream of an online table's public view (its state: ``tokens.watch_token``). Each
    read loads its rows afresh: the stream holds no session (nor its objects) while it waits."""
    table_id, club_id, me_id = tab.id, club.id, me.id

    def current() -> tuple[Club, Member, Tournament, Table] | None:
        got = db.session.get(Table, table_id)
        club_now, me_now = db.session.get(Club, club_id), db.session.get(Member, me_id)
        if got is None or got.mode != "online" or club_now is None or me_now is None:
            return None
        t = bridge.tournament_of(got)
        return None if t.deleted_at is not None else (club_now, me_now, t, got)

    def state() -> str | None:
        got = current()
        return None if got is None else tokens.watch_token(got[3])

    def page() -> str:
        got = current()
        return "" if got is None else render(*got)

    return _stream(table_id, request.args.get("v", ""), state, page, name=name)


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


def _seat_replays(
    seat_token: str, tab: Table, build: Callable[..., str] = url_for
) -> list[dict[str, Any]]:
    """The table's finished deals, each with the address of its replay for a seat's player
    (``build``: the member's ``url_for`` for a bound seat)."""
    return [
        {**r, "url": build("online.seat_replay", seat_token=seat_token, number=r["number"])}
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


# --- a seat's page: through its secret link, or by its member -------------------------------------

# The seat page's own addresses (in templates/online/_seat.html, built from ``seat_token``) and
# where they lead when the seat's member plays it from their account.
MEMBER_ENDPOINTS = {
    "online.seat": "online.my_seat",
    "online.poll": "online.my_poll",
    "online.seat_stream": "online.my_stream",
    "online.state": "online.my_state",
    "online.seat_replays": "online.my_replays",
    "online.seat_replay": "online.my_replay",
    "online.ready": "online.my_ready",
    "online.next_deal": "online.my_next_deal",
    "online.move_clock": "online.my_move_clock",
    "online.seat_takeback": "online.my_takeback",
    "online.seat_chat": "online.my_chat",
}


def _link_gone(token: str) -> NoReturn:
    """An unknown seat link: a 404, except a link the director replaced, whose page still open
    is told so (htmx swaps the sentence in place of the seat, and its polling stops)."""
    if seats.was_replaced(token):
        page = render_template("online/_replaced.html" if htmx else "online/replaced.html")
        abort(make_response(page, 200 if htmx else 410))
    abort(404)


def _seat_or_404(token: str) -> OnlineSeat:
    """The guest's seat of ``token``; a seat bound to a member opens only for that member."""
    seat = seats.seat_by_token(token)
    if seat is None:
        _link_gone(token)
    if seat.member_id is not None:
        abort(404)
    tab = db.session.get(Table, seat.table_id)
    if tab is None or tab.mode != "online" or bridge.tournament_of(tab).deleted_at is not None:
        abort(404)
    return seat


def _my_seat_or_404(me: Member, seat_id: int) -> OnlineSeat:
    seat = seats.seat_of_member(seat_id, me)
    if seat is None:
        abort(404)
    return seat


def _member_url_for(club: Club, seat: OnlineSeat) -> Callable[..., str]:
    """``url_for`` for the seat page of a bound seat: the seat's addresses become the member's
    (login-protected) ones, so the page never sends its moves to the secret link."""

    def build(endpoint: str, **values: Any) -> str:
        if endpoint in MEMBER_ENDPOINTS and values.get("seat_token") == seat.token:
            values.pop("seat_token")
            return url_for(MEMBER_ENDPOINTS[endpoint], slug=club.slug, seat_id=seat.id, **values)
        return url_for(endpoint, **values)

    return build


def _seat_context(seat: OnlineSeat, error: str | None = None) -> dict[str, Any]:
    """What the seat's page (and its JSON twin) shows."""
    ctx = pages.seat_page(seat)
    ctx["seat_token"] = seat.token
    tab = db.session.get(Table, seat.table_id)
    if tab is not None and tab.paused and not tab.finished:
        # the seat's page says so where it shows a refused move's reason, and offers no move
        error = error or moves.paused_message()
        ctx["actions"] = []
    ctx["error"] = error
    return ctx


def _render_seat(
    seat: OnlineSeat, partial: bool, error: str | None = None, club: Club | None = None
) -> str:
    ctx = _seat_context(seat, error)
    if club is not None:
        ctx["url_for"] = _member_url_for(club, seat)
    if not partial:  # the chat, outside the seat's partial, loads and polls on its own
        build = ctx["url_for"] if club else url_for
        ctx["chat_url"] = build("online.seat_chat", seat_token=seat.token)
    return render_template("online/_seat.html" if partial else "online/seat.html", **ctx)


def _play(s: OnlineSeat, here: str, club: Club | None = None) -> ResponseReturnValue:
    """GET: the seat's page; POST: this seat's move (``v`` = the state token it saw)."""
    if request.method == "GET":
        return _render_seat(s, partial=False, club=club)
    if not MoveForm().validate_on_submit():
        abort(400)
    table_id = s.table_id  # read now: the move's writes expire the seat
    tab = db.session.get(Table, table_id)
    if tab is not None and clock.expired_seat(tab) == s.seat:
        # too late by the server's clock: the bot moves for the seat, not the move sent
        return _clock_expired(s, here, club, error=clock.late_message())
    try:
        moves.act(
            s,
            request.form.get("v", ""),
            request.form.get("kind", ""),
            request.form.getlist("cards"),
            request.form.get("card", ""),
        )
    except bridge.Stale as e:
        db.session.rollback()
        return _render_seat(s, partial=bool(htmx), error=e.message, club=club), 409
    except ServiceError as e:
        db.session.rollback()
        return _render_seat(s, partial=bool(htmx), error=e.message, club=club), 422
    # the seat's open stream brings the state this move made, as it brings every other
    # seat's: rendering it here as well would draw each move's state twice for this seat
    made = _state_made(table_id) if htmx and _streamed() else None
    db.session.commit()
    if made is not None:
        return _streamed_answer(made)
    if htmx:
        return _render_seat(s, partial=True, club=club)
    return redirect(here, 303)


def _state_made(table_id: int) -> str:
    """The state token of what this request wrote, read before its commit, in its own
    transaction: exactly the state it made, in one query (after the commit, or from the seat
    and table objects its writes expired, the seat and its table would be read again first)."""
    return tokens.table_state_token(table_id)


def _streamed_answer(made: str) -> ResponseReturnValue:
    """An empty answer naming the state the request made (``X-Live-State``): the page waits
    for its stream to bring it (static/live.js asks for it once if the stream does not)."""
    return "", 204, {"X-Live-State": made}


def _streamed() -> bool:
    """Whether the page that moved has its live stream open (static/live.js says so in a
    header); its stream then pushes the new state, and the move's answer is empty (204)."""
    return bool(current_app.config.get("LIVE_STREAMS")) and (
        request.headers.get(live_streams.OPEN_HEADER) == "open"
    )


def _poll(s: OnlineSeat, club: Club | None = None) -> ResponseReturnValue:
    """204 while the state token is the one the page shows, else the seat's fresh partial."""
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    if request.args.get("v", "") == tokens.state_token(tab):
        return "", 204
    return _render_seat(s, partial=True, club=club)


@bp.route("/play/<seat_token>", methods=["GET", "POST"])
@read_first  # the move is computed before the write lock is taken (bridge.save)
@no_store
def seat(seat_token: str) -> ResponseReturnValue:
    """A guest's seat page, opened by its secret link."""
    s = _seat_or_404(seat_token)
    return _play(s, url_for("online.seat", seat_token=seat_token))


@bp.get("/play/<seat_token>/poll")
@no_store
def poll(seat_token: str) -> ResponseReturnValue:
    """204 while the state token is the one the page shows, else the seat's fresh partial."""
    if SEAT_STATE in request.environ:  # read by the shortcut in front of Flask
        now = request.environ[SEAT_STATE]
    else:
        now = tokens.seat_state_token(seat_token)  # one query: no deal is loaded
    if now is None:
        _link_gone(seat_token)
    if request.args.get("v", "") == now:
        return "", 204
    return _render_seat(_seat_or_404(seat_token), partial=True)


def _stream(
    table_id: int,
    shown: str,
    state: Callable[[], str | None],
    render: Callable[[], str],
    name: str = "seat",
    read: Callable[[], live_streams.Read] | None = None,
) -> ResponseReturnValue:
    """A live stream of a table's page: its partial pushed the moment the table changes
    (app/services/live); 404 where streams are off (the page polls then)."""
    if not current_app.config.get("LIVE_STREAMS"):
        abort(404)
    events = live_streams.stream(
        [live_bus.topic(table_id)],
        state,
        render,
        shown,
        name=name,
        gone=(lambda: render_template("online/_replaced.html")) if name == "seat" else None,
        read=read,
    )
    return Response(
        stream_with_context(events),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@bp.get("/play/<seat_token>/stream")
def seat_stream(seat_token: str) -> ResponseReturnValue:
    """A guest seat's live stream (server-sent events): the seat's partial on every change."""
    s = _seat_or_404(seat_token)

    def render() -> str:
        seat = seats.seat_by_token(seat_token)
        return "" if seat is None else _render_seat(seat, partial=True)

    def read() -> live_streams.Read:
        seat = seats.seat_by_token(seat_token)
        if seat is None or seat.member_id is not None:  # as seat_state_token: no guest seat
            return None, str
        return _seat_read_state(seat), lambda: _render_seat(seat, partial=True)

    return _stream(
        s.table_id,
        request.args.get("v", ""),
        lambda: tokens.seat_state_token(seat_token),
        render,
        read=read,
    )


def _seat_read_state(seat: OnlineSeat) -> str | None:
    """The state token of a seat just read with its table and latest deal (``seats``' seat
    queries): what ``tokens.seat_state_token`` would answer, without a query of its own; None
    when its table is no online table."""
    tab = seat.table
    if tab.mode != "online":
        return None
    got = seats.remembered_latest(tab.id)
    if got is None or isinstance(got, tuple):
        return tokens.token_of(tab, None if got is None else got[0])
    return tokens.state_token(tab)  # not read with the seat (not so right after its query)


def _state(s: OnlineSeat) -> ResponseReturnValue:
    """The seat's JSON, with ``<``, ``>`` and ``&`` written as ``\\u`` escapes: a name is data
    here, and no browser could read the answer as markup (it is ``nosniff`` besides)."""
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    text = json.dumps(seat_json.seat_json(_seat_context(s), tab), ensure_ascii=False)
    for raw, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(raw, escaped)
    return Response(text, mimetype="application/json")


@bp.get("/play/<seat_token>/state.json")
@no_store
def state(seat_token: str) -> ResponseReturnValue:
    """The seat's page as JSON: its own hand, the moves it may make, the public table, the
    state token to move with (app/services/online/seat_json.py)."""
    return _state(_seat_or_404(seat_token))


@bp.route(MY_SEAT_URL, methods=["GET", "POST"])
@read_first
@club_route("player")
@no_store
def my_seat(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    """The seat bound to the logged-in member: the same page and moves as its link, without
    one; anyone else gets a 404."""
    s = _my_seat_or_404(me, seat_id)
    return _play(s, url_for("online.my_seat", slug=club.slug, seat_id=seat_id), club)


@bp.get(MY_SEAT_URL + "/stream")
@club_route("player")
def my_stream(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    """The live stream of the seat bound to the logged-in member."""
    s = _my_seat_or_404(me, seat_id)
    table_id, member_id, club_id = s.table_id, me.id, club.id

    def state() -> str | None:
        tab = db.session.get(Table, table_id)
        seat = seats.seat_with_table(seat_id)
        if tab is None or seat is None or seat.member_id != member_id or tab.mode != "online":
            return None
        return tokens.state_token(tab)

    def render() -> str:
        seat = seats.seat_with_table(seat_id)
        club_now = db.session.get(Club, club_id)
        if seat is None or club_now is None:
            return ""
        return _render_seat(seat, partial=True, club=club_now)

    def read() -> live_streams.Read:
        seat = seats.seat_with_table(seat_id)
        if seat is None or seat.table_id != table_id:  # (a seat keeps its table) as before
            return state(), render
        if seat.member_id != member_id:
            return None, str
        club_now = db.session.get(Club, club_id)
        if club_now is None:
            return _seat_read_state(seat), str
        return _seat_read_state(seat), lambda: _render_seat(seat, partial=True, club=club_now)

    return _stream(table_id, request.args.get("v", ""), state, render, read=read)


@bp.get(MY_SEAT_URL + "/poll")
@club_route("player")
@no_store
def my_poll(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    return _poll(_my_seat_or_404(me, seat_id), club)


@bp.get(MY_SEAT_URL + "/state.json")
@club_route("player")
@no_store
def my_state(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    """The bound seat's page as JSON, for its member only."""
    return _state(_my_seat_or_404(me, seat_id))


@bp.get(MY_SEAT_URL + "/replays")
@club_route("player")
@no_store
def my_replays(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    """The finished deals of the bound member's table, each a link to its replay."""
    s = _my_seat_or_404(me, seat_id)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    build = _member_url_for(club, s)
    return render_template(
        "online/replays.html",
        tournament=bridge.tournament_of(tab).name,
        table=tab.number,
        round=tab.round.number,
        replays=_seat_replays(s.token, tab, build),
        back_url=url_for("online.my_seat", slug=club.slug, seat_id=seat_id),
    )


@bp.get(MY_SEAT_URL + "/replays/<int:number>")
@club_route("player")
@no_store
def my_replay(club: Club, me: Member, seat_id: int, number: int) -> ResponseReturnValue:
    """A finished deal of the bound member's own table."""
    s = _my_seat_or_404(me, seat_id)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    build = _member_url_for(club, s)
    ctx = pages.replay_page(tab, number, _trick_arg())
    here = url_for("online.my_replay", slug=club.slug, seat_id=seat_id, number=number)
    back = url_for("online.my_seat", slug=club.slug, seat_id=seat_id)
    return _render_replay(ctx, here, _seat_replays(s.token, tab, build), back)


def _between_deals(
    s: OnlineSeat, step: Any, here: str, club: Club | None = None
) -> ResponseReturnValue:
    if not MoveForm().validate_on_submit():
        abort(400)
    table_id = s.table_id  # read now: the step's writes expire the seat
    for tries in (1, 2):  # another seat's Continue (or page) may have written meanwhile
        try:
            step(s)
            break
        except bridge.Stale as e:
            db.session.rollback()
            if tries == 2:
                return _render_seat(s, partial=bool(htmx), error=e.message, club=club), 409
        except ServiceError as e:
            db.session.rollback()
            return _render_seat(s, partial=bool(htmx), error=e.message, club=club), 422
    # the seat's open stream brings the state this move made, as it brings every other
    # seat's: rendering it here as well would draw each move's state twice for this seat
    made = _state_made(table_id) if htmx and _streamed() else None
    db.session.commit()
    if made is not None:
        return _streamed_answer(made)
    if htmx:
        return _render_seat(s, partial=True, club=club)
    return redirect(here, 303)


def _ready_step(s: OnlineSeat) -> bool:
    return moves.ready(s, request.form.get("v", ""))


@bp.post("/play/<seat_token>/ready")
@no_store
def ready(seat_token: str) -> ResponseReturnValue:
    """This seat has seen the deal's summary (Continue); the next deal starts once every human
    seat has (``v``: the state token the page showed)."""
    s = _seat_or_404(seat_token)
    return _between_deals(s, _ready_step, url_for("online.seat", seat_token=seat_token))


@bp.post("/play/<seat_token>/next")
@no_store
def next_deal(seat_token: str) -> ResponseReturnValue:
    """Sent by the page when its countdown ends: the server deals on if the tournament's pause
    has really passed since the deal's last move, else nothing changes."""
    s = _seat_or_404(seat_token)
    return _between_deals(s, moves.next_deal, url_for("online.seat", seat_token=seat_token))


def _clock_expired(
    s: OnlineSeat, here: str, club: Club | None = None, error: str | None = None
) -> ResponseReturnValue:
    """The move clock has run out for the seat the deal waits for: its bot moves for it."""
    for tries in (1, 2):  # another seat's page may have sent the same at once
        tab = db.session.get(Table, s.table_id)
        assert tab is not None
        try:
            clock.expire(tab)
            break
        except bridge.Stale:
            db.session.rollback()
            if tries == 2:
                break
        except ServiceError as e:
            db.session.rollback()
            return _render_seat(s, partial=bool(htmx), error=e.message, club=club), 422
    db.session.commit()
    if htmx:
        return _render_seat(s, partial=True, error=error, club=club), 409 if error else 200
    return redirect(here, 303)


@bp.post("/play/<seat_token>/clock")
@read_first
@no_store
def move_clock(seat_token: str) -> ResponseReturnValue:
    """Sent by a seat's page when the move clock it shows reaches 0: if the waited seat's time
    has really run out by the server's clock, its bot makes that move; else nothing changes."""
    s = _seat_or_404(seat_token)
    if not MoveForm().validate_on_submit():
        abort(400)
    return _clock_expired(s, url_for("online.seat", seat_token=seat_token))


@bp.post(MY_SEAT_URL + "/clock")
@read_first
@club_route("player")
@no_store
def my_move_clock(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    s = _my_seat_or_404(me, seat_id)
    if not MoveForm().validate_on_submit():
        abort(400)
    here = url_for("online.my_seat", slug=club.slug, seat_id=seat_id)
    return _clock_expired(s, here, club)


def _takeback_step(s: OnlineSeat) -> None:
    seen = request.form.get("v", "")
    what = request.form.get("answer", "")
    if what == "ask":
        takeback.ask(s, seen)
    elif what in ("accept", "refuse"):
        takeback.answer(s, seen, what == "accept")
    else:
        raise bridge.IllegalMove(_("Unknown move."))


@bp.post("/play/<seat_token>/takeback")
@read_first
@no_store
def seat_takeback(seat_token: str) -> ResponseReturnValue:
    """A take-back (悔牌): ``answer=ask`` by the seat that played last, ``accept`` or
    ``refuse`` by the next seat (``v``: the state token the page showed)."""
    s = _seat_or_404(seat_token)
    return _between_deals(s, _takeback_step, url_for("online.seat", seat_token=seat_token))


@bp.post(MY_SEAT_URL + "/takeback")
@read_first
@club_route("player")
@no_store
def my_takeback(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    s = _my_seat_or_404(me, seat_id)
    here = url_for("online.my_seat", slug=club.slug, seat_id=seat_id)
    return _between_deals(s, _takeback_step, here, club)


# --- the table chat ---------------------------------------------------------------------------


def _chat_view(tab: Table, chat_url: str, seat: int | None, error: str | None = None) -> Any:
    """What ``online/_chat.html`` shows: the messages by name, the phrases, the form."""
    _sides, names = seat_names(tab)
    return {
        "messages": chat.shown(tab),
        "last": chat.last_id(tab),
        "names": names,
        "phrases": chat.PHRASES,
        "chat_off": tab.chat_off,
        "chat_url": chat_url,
        "director": seat is None,
        "may_write": seat is None or not tab.chat_off,
        "max_text": chat.MAX_TEXT,
        "error": error,
    }


def _chat(tab: Table, seat: int | None, chat_url: str, back: str) -> ResponseReturnValue:
    """GET: the chat's partial (204 while ``after`` is still its latest message); POST: a
    message, a phrase (``phrase``) or a short text (``text``)."""
    if request.method == "GET":
        if request.args.get("after", "") == str(chat.last_id(tab)):
            return "", 204
        return render_template("online/_chat.html", chat=_chat_view(tab, chat_url, seat))
    if not MoveForm().validate_on_submit():
        abort(400)
    try:
        chat.post(tab, seat, request.form.get("phrase", ""), request.form.get("text", ""))
    except ServiceError as e:
        db.session.rollback()
        view = _chat_view(tab, chat_url, seat, e.message)
        return render_template("online/_chat.html", chat=view), 422
    db.session.commit()
    if htmx:
        return render_template("online/_chat.html", chat=_chat_view(tab, chat_url, seat))
    return redirect(back, 303)


@bp.route("/play/<seat_token>/chat", methods=["GET", "POST"])
@no_store
def seat_chat(seat_token: str) -> ResponseReturnValue:
    """The table chat, seen and written from a seat's link (an unchanged poll: one query)."""
    if request.method == "GET" and "after" in request.args:
        latest = chat.last_id_by_token(seat_token)
        if latest is None:
            abort(404)
        if request.args["after"] == str(latest):
            return "", 204
    s = _seat_or_404(seat_token)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    here = url_for("online.seat_chat", seat_token=seat_token)
    return _chat(tab, s.seat, here, url_for("online.seat", seat_token=seat_token))


@bp.route(MY_SEAT_URL + "/chat", methods=["GET", "POST"])
@club_route("player")
@no_store
def my_chat(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    s = _my_seat_or_404(me, seat_id)
    tab = db.session.get(Table, s.table_id)
    assert tab is not None
    here = url_for("online.my_chat", slug=club.slug, seat_id=seat_id)
    return _chat(tab, s.seat, here, url_for("online.my_seat", slug=club.slug, seat_id=seat_id))


@bp.route(TABLE_URL + "/chat", methods=["GET", "POST"])
@club_route("director")
def table_chat(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """The table chat on the director's page: read it, write to it, or switch it off or on
    (``chat=0`` / ``chat=1``)."""
    t, tab = _table_of(club, tid, n, tno)
    kw = _table_kw(club, t, tab)
    here = url_for("online.table_chat", **kw)
    if request.method == "POST" and "chat" in request.form:
        on = request.form.get("chat") == "1"
        return _on_table(
            club,
            tid,
            n,
            tno,
            ConfirmForm,
            lambda t, tab: chat.set_chat(t, tab, on, actor(me)),
            lambda _r: _("The table chat is on.") if on else _("The table chat is off."),
        )
    return _chat(tab, None, here, url_for("online.table_page", **kw))


@bp.post(MY_SEAT_URL + "/ready")
@club_route("player")
@no_store
def my_ready(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    s = _my_seat_or_404(me, seat_id)
    here = url_for("online.my_seat", slug=club.slug, seat_id=seat_id)
    return _between_deals(s, _ready_step, here, club)


@bp.post(MY_SEAT_URL + "/next")
@club_route("player")
@no_store
def my_next_deal(club: Club, me: Member, seat_id: int) -> ResponseReturnValue:
    s = _my_seat_or_404(me, seat_id)
    here = url_for("online.my_seat", slug=club.slug, seat_id=seat_id)
    return _between_deals(s, moves.next_deal, here, club)
