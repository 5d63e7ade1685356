"""Score sheet pages (记分表): the director's sheet of a table (enter, correct, undo, finish,
forfeit), and the same sheet opened with the table's code, which grants that sheet and nothing
else."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from engine.variants import CLIMBING

from ..competition.climbing import ClimbingTable
from ..competition.hundred import HundredTable
from ..competition.matches import FixedMatch, RedFiveTable
from ..competition.standings import SheetTable
from ..extensions import db, htmx
from ..models import Club, Member, Table, Tournament
from ..permissions import check_code_guessing, club_route, record_code_failure
from ..services.online import guards
from ..services.online import pages as online_pages
from ..services.tournaments import clock as clocks
from ..services.tournaments import sheets as sheets
from ..services.tournaments.audit import Actor
from ..services.tournaments.rounds import table_by_code
from ..services.tournaments.rows import deal_from_row, hundred_rules_of, seat_names, variant_of
from ..web import client_ip
from . import bp
from .actions import confirmed
from .forms import (
    NO_TRUMP,
    PENALTY_LABELS,
    ROLE_LABELS,
    SUIT_LABELS,
    ConfirmForm,
    DealForm,
    PenaltyForm,
    seen_count,
)
from .hundred_forms import HundredDealForm
from .lookup import actor, current, round_, table, tournament

SHEET_PAGE = "tournaments/sheet.html"


def _deal_form(t: Tournament, tab: Table, formdata: bool, director: bool) -> DealForm:
    """The deal form; a director's also records conduct warnings (警告)."""
    sides, seats = seat_names(tab)
    rules = hundred_rules_of(t)
    if rules is not None:  # 打百分's row: bid, friend card, 抠底 …
        hundred = HundredDealForm() if formdata else HundredDealForm(formdata=None)
        hundred.setup(rules, sides, seats, warnings=director)
        return hundred
    form = DealForm() if formdata else DealForm(formdata=None)
    form.setup(variant_of(t), sides, seats, warnings=director)
    return form


def _tribute_for_next(form: DealForm, derived: ClimbingTable, deals: int) -> None:
    """争上游: the next deal's tribute as the rules pay it (CLIMBING.md §3), the previous deal's
    last to its first, with the card left to write; nothing before a first deal, with the
    ``tribute`` option off, or when a row in error leaves the deal before unknown."""
    if not form.variant.options.get("tribute", True) or not derived.rows:
        return
    if derived.errors or len(derived.rows) != deals:
        return
    before = derived.rows[-1]
    form.tribute_from.data = before.loser
    form.tribute_to.data = before.winner
    form.tribute_from.description = _(
        "Filled in from deal %(n)d: its last pays its first. On 抗贡 choose “no tribute”.",
        n=before.number,
    )


def _defaults_for_next(form: DealForm, derived: SheetTable, deals: int) -> None:
    if isinstance(form, HundredDealForm):
        form.fresh()
        return
    if isinstance(derived, ClimbingTable):
        _tribute_for_next(form, derived, deals)
    if isinstance(derived, FixedMatch):
        form.declarer.data = derived.next_declarer if derived.next_declarer is not None else 0
    elif isinstance(derived, RedFiveTable):
        form.dealer.data = derived.rows[-1].next_dealer if derived.rows else 0
        form.friend.data = None
    form.trump.data = "S"
    form.multiplier.data = 0
    form.level.data = ""


def _sheet_context(
    t: Tournament,
    tab: Table,
    who: Actor,
    urls: dict[str, str],
    form: DealForm | None = None,
    edit_index: int | None = None,
    form_error: str | None = None,
    status: str | None = None,
    penalty_form: PenaltyForm | None = None,
) -> dict[str, Any]:
    derived = sheets.sheet(t, tab)
    deals = [deal_from_row(d) for d in tab.deals]
    if form is None:
        form = _deal_form(t, tab, formdata=False, director=who.director)
        if edit_index is not None:
            form.fill_from(deals[edit_index])
        else:
            _defaults_for_next(form, derived, len(deals))
    form.seen.data = str(len(tab.deals))
    form.seen_version.data = sheets.sheet_version(tab)
    sides, seats = seat_names(tab)
    if penalty_form is None and who.director and tab.mode == "online" and tab.deals:
        penalty_form = PenaltyForm(formdata=None)
        penalty_form.setup(len(tab.deals), seats)
    return {
        "t": t,
        "tab": tab,
        "rnd": tab.round,
        "clock": clocks.state(t, tab.round),
        "clock_round": tab.round.number,
        "derived": derived,
        "fixed": isinstance(derived, FixedMatch),
        "climbing": t.variant == CLIMBING,
        "hundred": isinstance(derived, HundredTable),
        "hundred_pairs": isinstance(form, HundredDealForm) and form.variant.fixed_pairs,
        "deals": deals,
        "form": form,
        "edit_index": edit_index,
        "form_error": form_error,
        "status": status,
        "urls": urls,
        "side_names": sides,
        "seat_names": seats,
        "may_edit": sheets.may_edit(tab.round, who) and tab.forfeit is None,
        # the director's undo of a removal of the last deal (a code's sheet has no restore url)
        "removed": sheets.may_restore(t, tab) if "restore" in urls else None,
        "complete": derived.counts,
        "suit_labels": SUIT_LABELS,
        "penalty_labels": PENALTY_LABELS,
        "role_labels": ROLE_LABELS,
        "any_penalties": any(d.penalties or d.warnings for d in deals),
        "no_trump": NO_TRUMP,
        "penalty_form": penalty_form,
        "relevant": set(form.relevant()),
        "variant_id": t.variant,
        "timed": "deals" not in t.match,
        "online_game": _online_game(tab),
        "finish_label": _finish_label(t, tab, derived),
        "may_end_early": sheets.may_end_early(t, tab),
        "match_deals": t.match.get("deals"),
        "finish_confirm": (
            _("Nobody has passed A yet. End this match now, with the levels as they are?")
            if t.match.get("to_a") and not tab.finished
            else ""
        ),
    }


def _online_game(tab: Table) -> dict[str, Any] | None:
    """An online game with moves, and what a forfeit would discard of it (the forfeit form's
    confirm field)."""
    game = guards.game_of(tab)
    if game is None or not game.moves:
        return None
    return {"game": game, "forfeit_warning": guards.forfeit_warning(game)}


def _finish_label(t: Tournament, tab: Table, derived: SheetTable) -> str | None:
    """The director's button that ends (or reopens) a match, when a match needs one: a time
    limit ends when time is up; a match to A ends by itself when a side passes A, so the director
    ends it only when play stops before that (the evening is over). A match of a number of deals
    ends with its last deal: no button."""
    if tab.finished:
        return _("Open the match again")
    if "minutes" in t.match:
        return _("Time is up: match finished")
    if t.match.get("to_a"):
        if isinstance(derived, FixedMatch) and derived.passed_side is not None:
            return None
        return _("End the match here")
    return None


def _show_errors(form: DealForm, t: Tournament, error: sheets.DealErrors) -> str | None:
    """Put each refusal on its field; return the message about the whole deal, if any."""
    form_error = None
    for name, message in error.fields.items():
        if name and name in form and name in form.relevant():
            target: str | None = name
        elif name == "failed_throws":
            target = "ft_seat_0"
            if t.variant == "tractor-4p":
                target = "ftc_declarer" if form.per_card else "ft_declarer"
        elif name == "misplays":
            target = "misplays_0"
        elif name == "penalties":
            target = "pen_kind_0"
        elif name == "places":
            target = "place_0"
        elif name == "warnings" and form.with_warnings:
            target = "warn_seat_0"
        else:
            target = None
            form_error = message
        if target is not None:
            form[target].errors = [*form[target].errors, message]  # type: ignore[list-item]
    return form_error


def _sheet_response(
    t: Tournament,
    tab: Table,
    who: Actor,
    urls: dict[str, str],
    page_ctx: dict[str, Any],
    edit_index: int | None = None,
) -> ResponseReturnValue:
    """GET shows the sheet; POST records (or corrects) a deal."""
    if edit_index is not None and not 0 <= edit_index < len(tab.deals):
        abort(404)
    if request.method == "GET":
        ctx = _sheet_context(t, tab, who, urls, edit_index=edit_index)
        return render_template(SHEET_PAGE, **page_ctx, **ctx)
    form = _deal_form(t, tab, formdata=True, director=who.director)
    form_error = None
    if form.validate_relevant():
        deal = form.to_deal()
        if not form.with_warnings and edit_index is not None:  # a code keeps the warnings
            deal = replace(deal, warnings=deal_from_row(tab.deals[edit_index]).warnings)
        try:
            sheets.record_deal(
                t,
                tab,
                deal,
                who,
                index=edit_index,
                expected_count=form.seen_count(),
                expected_version=form.seen_sheet(),
                reason=form.reason.data if edit_index is not None else None,
            )
        except sheets.DealErrors as error:
            db.session.rollback()
            form_error = _show_errors(form, t, error)
        else:
            db.session.commit()
            return _recorded(t, tab, who, urls, edit_index)
    db.session.refresh(tab)
    ctx = _sheet_context(t, tab, who, urls, form=form, edit_index=edit_index, form_error=form_error)
    if htmx and edit_index is None:
        return render_template("tournaments/_sheet.html", **ctx)
    return render_template(SHEET_PAGE, **page_ctx, **ctx), 422


def _recorded(
    t: Tournament, tab: Table, who: Actor, urls: dict[str, str], edit_index: int | None
) -> ResponseReturnValue:
    """After a deal is saved: the fresh sheet (htmx) or back to the sheet with a message."""
    if edit_index is not None:
        message = _("Deal %(n)d corrected.", n=edit_index + 1)
    else:
        message = _("Deal %(n)d recorded.", n=len(tab.deals))
    if htmx and edit_index is None:
        db.session.refresh(tab)
        return render_template(
            "tournaments/_sheet.html", **_sheet_context(t, tab, who, urls, status=message)
        )
    flash(message, "success")
    return redirect(urls["sheet"], 303)


# --- the director's sheet -------------------------------------------------------------------------


def _director_table(
    club: Club, tid: int, n: int, tno: int, bye: bool = True
) -> tuple[Tournament, Table]:
    """The tournament and table named by the URL; ``bye=False``: a bye is a 404 (no sheet)."""
    t = tournament(club, tid)
    return t, table(round_(t, n), tno, bye=bye)


def _director_urls(club: Club, t: Tournament, tab: Table) -> dict[str, str]:
    n = tab.round.number
    kw: dict[str, Any] = {"slug": club.slug, "tid": t.id, "n": n, "tno": tab.number}
    return {
        "sheet": url_for("tournaments.table_sheet", **kw),
        "edit": url_for("tournaments.edit_deal", **kw, i=0)[:-1],
        "undo": url_for("tournaments.undo_deal", **kw),
        "restore": url_for("tournaments.restore_deal", **kw),
        "finish": url_for("tournaments.finish_table", **kw),
        "forfeit": url_for("tournaments.forfeit_table", **kw),
        "penalty": url_for("tournaments.table_penalty", **kw),
        "pdf": url_for("tournaments.sheet_pdf", **kw),
        "round": url_for("tournaments.round_page", slug=club.slug, tid=t.id, n=n),
    }


def _director_sheet(
    club: Club, me: Member, tid: int, n: int, tno: int, edit_index: int | None = None
) -> ResponseReturnValue:
    t, tab = _director_table(club, tid, n, tno, bye=False)
    page_ctx = {"club": club, "me": me, "director": True, "owner": me.role == "owner"}
    if tab.mode == "online":
        page_ctx["replays"] = online_pages.replay_list(tab)
    urls = _director_urls(club, t, tab)
    return _sheet_response(t, tab, actor(me), urls, page_ctx, edit_index=edit_index)


@bp.route(
    "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>", methods=["GET", "POST"]
)
@club_route("director")
def table_sheet(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    return _director_sheet(club, me, tid, n, tno)


@bp.route(
    "/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/deals/<int:i>",
    methods=["GET", "POST"],
)
@club_route("director")
def edit_deal(club: Club, me: Member, tid: int, n: int, tno: int, i: int) -> ResponseReturnValue:
    return _director_sheet(club, me, tid, n, tno, edit_index=i - 1)


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/undo")
@club_route("director")
def undo_deal(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t, tab = _director_table(club, tid, n, tno)
    return confirmed(
        lambda: sheets.delete_last_deal(
            t,
            tab,
            actor(me),
            seen_count(request.form.get("seen")),
            (request.form.get("seen_version") or "")[:32] or None,
        ),
        _director_urls(club, t, tab)["sheet"],
        _("The last deal was removed."),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/restore")
@club_route("director")
def restore_deal(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """Undo a removal of the last deal (the removal the sheet showed, ``entry``)."""
    t, tab = _director_table(club, tid, n, tno)
    entry = request.form.get("entry", "")
    return confirmed(
        lambda: sheets.restore_deal(
            t,
            tab,
            actor(me),
            int(entry) if entry.isdigit() and len(entry) < 12 else 0,
            seen_count(request.form.get("seen")),
            (request.form.get("seen_version") or "")[:32] or None,
        ),
        _director_urls(club, t, tab)["sheet"],
        _("The removed deal is back on the sheet."),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/finish")
@club_route("director")
def finish_table(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t, tab = _director_table(club, tid, n, tno)
    finished = request.form.get("finished", "1") == "1"
    seen = (request.form.get("seen_version") or "")[:32] or None
    target = _director_urls(club, t, tab)["sheet"]
    if finished and request.form.get("early") == "1":
        reason = request.form.get("reason") or ""
        return confirmed(
            lambda: sheets.end_early(t, tab, reason, actor(me), seen),
            target,
            _("The match was ended early: it counts on the deals played."),
        )
    return confirmed(
        lambda: sheets.set_finished(t, tab, finished, actor(me), seen),
        target,
        _("Table marked finished.") if finished else _("Table open again."),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/forfeit")
@club_route("director")
def forfeit_table(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    t, tab = _director_table(club, tid, n, tno)
    raw = request.form.get("side", "")
    side = int(raw) if raw in ("0", "1") else None
    sure = request.form.get("confirm") == "1"  # discard an online game with moves
    return confirmed(
        lambda: sheets.set_forfeit(t, tab, side, actor(me), sure),
        _director_urls(club, t, tab)["sheet"],
        _("Forfeit recorded.") if side is not None else _("Forfeit removed."),
    )


@bp.post("/clubs/<slug>/tournaments/<int:tid>/rounds/<int:n>/tables/<int:tno>/penalty")
@club_route("director")
def table_penalty(club: Club, me: Member, tid: int, n: int, tno: int) -> ResponseReturnValue:
    """A conduct penalty or a warning against a seat, on a recorded deal of an online table."""
    t, tab = _director_table(club, tid, n, tno, bye=False)
    who = actor(me)
    urls = _director_urls(club, t, tab)
    form = PenaltyForm()
    form.setup(len(tab.deals), seat_names(tab)[1])
    if form.validate():
        try:
            sheets.add_penalty(
                t,
                tab,
                form.deal.data or 0,
                str(form.kind.data),
                -1 if form.seat.data is None else form.seat.data,
                form.reason.data or "",
                who,
            )
        except sheets.DealErrors as error:
            db.session.rollback()
            for name, message in error.fields.items():
                target = name if name in ("deal", "kind", "seat", "reason") else "kind"
                form[target].errors = [*form[target].errors, message]  # type: ignore[list-item]
        else:
            db.session.commit()
            flash(
                _("Warning recorded.") if form.kind.data == "warning" else _("Penalty recorded."),
                "success",
            )
            return redirect(urls["sheet"], 303)
    db.session.refresh(tab)
    page_ctx = {"club": club, "me": me, "director": True, "owner": me.role == "owner"}
    ctx = _sheet_context(t, tab, who, urls, penalty_form=form)
    return render_template(SHEET_PAGE, **page_ctx, **ctx), 422


# --- a table's code: that one sheet and nothing else ----------------------------------------------


@bp.route("/table", methods=["GET", "POST"])
def table_code() -> ResponseReturnValue:
    error = None
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            abort(400)
        check_code_guessing(client_ip())
        tab = table_by_code(request.form.get("code", ""))
        if tab is not None:
            return redirect(url_for("tournaments.code_sheet", code=tab.code), 303)
        record_code_failure(client_ip())
        error = _("No table has this code. Check the code on the score sheet.")
    return render_template("tournaments/code.html", error=error), (422 if error else 200)


def _code_sheet(code: str, edit_index: int | None = None) -> ResponseReturnValue:
    check_code_guessing(client_ip())
    tab = table_by_code(code)
    if tab is None or tab.code != code:
        record_code_failure(client_ip())
        abort(404)
    t = db.session.get(Tournament, tab.round.tournament_id)
    assert t is not None
    if t.deleted_at is not None:
        record_code_failure(client_ip())
        abort(404)
    user = current()
    who = Actor(
        label=_(
            "%(who)s with the code of table %(n)d",
            who=user.display_name if user else _("guest"),
            n=tab.number,
        ),
        user=user,
    )
    urls = {
        "sheet": url_for("tournaments.code_sheet", code=code),
        "edit": url_for("tournaments.code_edit", code=code, i=0)[:-1],
    }
    return _sheet_response(t, tab, who, urls, {"by_code": True}, edit_index=edit_index)


@bp.route("/table/<code>", methods=["GET", "POST"])
def code_sheet(code: str) -> ResponseReturnValue:
    return _code_sheet(code)


@bp.route("/table/<code>/deals/<int:i>", methods=["GET", "POST"])
def code_edit(code: str, i: int) -> ResponseReturnValue:
    return _code_sheet(code, edit_index=i - 1)
