"""Online tables: the one app module that drives the rules engine.

A table of a round is played in the browser: each seat has a secret link (``OnlineSeat.token``)
that shows that seat's view and accepts that seat's moves; seats marked as bots are played here,
synchronously, after every change (no thread). The deal's truth is its seed, setup and log
(``OnlineDeal``/``OnlineAction``); a request gets the current deal from ``cache`` (the deal
rebuilt at the row's version, kept in this process; a miss replays the log). A move carries the
state token its player saw (``"<deal number>.<version>"``) and a stale or repeated one changes
nothing (``Stale``). A move is computed in a read transaction and written in a fresh one
(``app.db.begin_write``) that checks the version and the seats it was computed on; the ORM also
checks the version on write (compare and swap), so two workers cannot both append to the same
version.

A finished deal is written to the score sheet through ``tournaments.sheets.record_deal`` — the
same path as a typed paper deal — from the engine's result; the next deal starts with the levels
the sheet derives and the dealer the engine's rules give, until the match is complete.

The draw is the engine's chance step, performed here. When a human seat draws a card that makes
a trump call possible, the deal pauses for that seat: it calls, or continues the draw (a
``{"kind": "continue"}`` entry in the log, which replay skips).

After a played deal every seat's page stops on its summary (``deal_summary``). The next deal
starts only when every human seat has pressed Continue (a ``{"kind": "ready"}`` entry in the
finished deal's log, skipped by replay like ``continue``; it moves the state token, so polls see
it) or once the tournament's ``online_pause`` has passed since the deal's last move — always on a
POST (``ready``, or ``next_deal`` sent by the page's countdown), never on a GET. A table of bots
only does not wait.
"""

from __future__ import annotations

import functools
import math
import secrets
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import Select, bindparam, func, insert, select
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from engine.bots import RandomBot, perform
from engine.cards import HJ, LJ, RANKS, parse_card, points_of
from engine.deal import CALLS, DRAW, OVERCALL, Deal, DealSetup, Record, apply
from engine.errors import EngineError
from engine.play import trick_winner
from engine.scoring import next_dealer, throw_penalty_points
from engine.variants import ONE_TWENTY, RED_FIVE, TRACTOR
from engine.views import seat_view, spectator_view

from ...competition import model as cm
from ...competition.matches import FixedMatch
from ...db import OneRow, begin_write, reads_only
from ...extensions import db
from ...models import OnlineAction, OnlineDeal, OnlineSeat, Round, Table, Tournament, utcnow
from .. import ServiceError
from ..duplicate import tables as duplicate_tables
from ..tournaments.audit import Actor, audit
from ..tournaments.rows import variant_of
from ..tournaments.sheets import may_edit, record_deal, sheet
from . import botchoice, cache
from .cards import card_face, faces_of
from .refusals import refusal_text
from .seats import Latest, new_token, remembered_latest, seats_changed, seats_of
from .throws import failed_throw, failed_throws

# Log entries that are no engine record (replay skips them; defined with the cache that replays):
# ``continue`` — a seat let the draw go on; ``ready`` — after a played deal a human seat has seen
# the summary, and the next deal waits for them all, or for the tournament's pause.
CONTINUE, READY, LOG_ONLY = cache.CONTINUE, cache.READY, cache.LOG_ONLY
MAX_STEPS = 20_000  # a safety net for the bot loop (a whole 4-deck deal is ~300 steps)
# A table of bots only would play a timed match forever in one request: after this many steps
# no new deal is started until the next change at the table (a director's action).
DEAL_BUDGET = 6_000
GAME_ACTOR = Actor(label="online game")
# A human seat the deal has waited for this long is shown to the director as not acting.
IDLE_AFTER = timedelta(minutes=1)
# Which engine bot plays the bot seats: each seat's strength (botchoice.py); ``flask tournament
# run-bots --bots KIND`` sets one kind for every seat for its run (autoplay.py).
BOT_KIND: ContextVar[str | None] = botchoice.FORCED_KIND


def paused_message() -> str:
    """What a seat is told while the director has paused its table."""
    return _("The director paused the table: wait until play resumes.")


class Stale(ServiceError):
    """The move was made on a state that has changed since (answer 409)."""


class IllegalMove(ServiceError):
    """The engine (or the table) refuses the move; nothing changed (answer 422)."""


# --- loading ---------------------------------------------------------------------------------------


@dataclass
class Live:
    """The current deal of a table rebuilt from its log, plus the entries added meanwhile."""

    row: OnlineDeal
    deal: Deal
    entries: list[dict[str, Any]]
    humans: frozenset[int]
    new: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    # ``deal`` is the cache's own object (loaded to be read, or saved): never to be acted on
    cached: bool = False
    levels: dict[int, str] = field(default_factory=dict)  # the bot seats' strengths

    def add(self, entry: dict[str, Any], actor: str) -> None:
        if self.cached:  # a bug (a GET acting, a saved deal acted on): forget what it changed
            cache.CACHE.clear()
            raise RuntimeError("a cached deal was changed: act on a deal loaded to be changed")
        self.entries.append(entry)
        self.new.append((entry, actor))

    def pause(self) -> int | None:
        """The human seat the draw waits for (it may call with the card it just drew)."""
        deal = self.deal
        if deal.phase != DRAW or not self.entries or self.entries[-1]["kind"] != "draw":
            return None
        seat = self.entries[-1]["seat"]
        if seat not in self.humans or not deal.can_call_now(seat):
            return None
        card = deal.log[-1].cards[0]
        return seat if any(card in call for call in deal.legal_calls(seat)) else None

    def waiting_for(self) -> int | None:
        """The seat whose decision the deal waits for (None: the draw goes on, or done)."""
        if self.deal.outcome is not None:
            return None
        if self.deal.phase == DRAW:
            return self.pause()
        return self.deal.to_act


def _token(number: int | None, version: int | None, seats_version: int, paused: bool) -> str:
    """``deal.version``, then ``.s<n>`` once who plays the seats has changed, ``p`` while
    paused."""
    token = "0.0" if number is None else f"{number}.{version}"
    if seats_version:
        token += f".s{seats_version}"
    return token + "p" if paused else token


def deal_part(token: str) -> str:
    """The part of a state token a move is checked against: the deal and its version (a seat
    handed to a bot, or a pause and resume, leave a move made on the same deal valid)."""
    return token.split(".s", 1)[0].removesuffix("p")


def state_token(tab: Table) -> str:
    """What a seat's page saw: changes with every entry of every deal, when the director
    pauses or resumes the table and when who plays a seat changes (one indexed query: no
    replay)."""
    got = db.session.execute(_token_queries()[0], {"table": tab.id}).first()
    return _token(
        None if got is None else got[0],
        None if got is None else got[1],
        tab.seats_version or 0,
        tab.paused,
    )


def seat_state_token(token: str) -> str | None:
    """The state token of a guest seat link's table in one query (a poll's answer); None when
    the link is no guest seat of an online table."""
    if not token or len(token) > 40:
        return None
    got = _poll_row(token)
    if got is None:
        return None
    return _token(got[0], got[1], got[3] or 0, bool(got[2]))


def _poll_row(token: str) -> Any:
    """The poll's one row (``app.db.OneRow``): a poll is most requests of a night and answers
    204 from this alone."""
    return _SEAT_POLL(token=token)


def _poll_sql(dialect: Dialect) -> tuple[str, tuple[str, ...] | None, dict[str, Any]]:
    """The seat poll's SQL for ``dialect`` (what the tests count it by)."""
    return _SEAT_POLL.sql(dialect)


@functools.cache
def _token_queries() -> tuple[Select[int, int], Select[int, int, bool, int]]:
    """The two state token queries, built once (a poll is mostly this query)."""
    latest = select(OnlineDeal.number, OnlineDeal.version).order_by(OnlineDeal.number.desc())
    by_table = latest.where(OnlineDeal.table_id == bindparam("table")).limit(1)
    by_seat = (
        select(OnlineDeal.number, OnlineDeal.version, Table.paused, Table.seats_version)
        .select_from(OnlineSeat)
        .join(Table, Table.id == OnlineSeat.table_id)
        .outerjoin(OnlineDeal, OnlineDeal.table_id == Table.id)
        .where(
            OnlineSeat.token == bindparam("token"),
            OnlineSeat.member_id.is_(None),
            Table.mode == "online",
        )
        .order_by(OnlineDeal.number.desc())
        .limit(1)
    )
    return by_table, by_seat


_SEAT_POLL = OneRow(lambda: _token_queries()[1], ("token",))


def now() -> datetime:
    """The time as the online tables read it (naive UTC, as stored); the one clock of this
    package, so a test can move it on."""
    return utcnow()


def last_moved_at(tab: Table) -> datetime | None:
    """When the table's current deal last changed: its log's last entry, or when it was dealt."""
    row = current_row(tab)
    if row is None:
        return None
    last = db.session.scalar(
        select(func.max(OnlineAction.created_at)).where(OnlineAction.deal_id == row.id)
    )
    return last or row.created_at


def _may_idle(tab: Table, row: OnlineDeal | None) -> bool:
    """Could a seat be keeping the table waiting (a deal in play, nobody stopped it)?"""
    return (
        row is not None
        and row.outcome is None
        and tab.mode == "online"
        and not tab.paused
        and not tab.finished
        and tab.round.status != "closed"
    )


def idle_for(tab: Table) -> timedelta | None:
    """How long the current deal has waited without a move, once that is ``IDLE_AFTER`` or more
    (bots act at once, so only a human seat keeps a deal waiting); None otherwise."""
    row = current_row(tab)
    if not _may_idle(tab, row):
        return None
    since = last_moved_at(tab)
    if since is None:  # pragma: no cover - a deal row always has its creation time
        return None
    waited = now() - since
    return waited if waited >= IDLE_AFTER else None


def watch_token(tab: Table) -> str:
    """What a spectator's or the director's live view saw: the state token, which seats bots
    play, and for how many whole minutes the table has been kept waiting (cheap: no replay)."""
    bots = "".join("b" if s.bot else "h" for s in seats_of(tab))
    waited = idle_for(tab)
    idle = "" if waited is None else f".idle{int(waited.total_seconds() // 60)}"
    return f"{state_token(tab)}.{bots}{idle}"


def current_row(tab: Table) -> OnlineDeal | None:
    return db.session.scalar(
        select(OnlineDeal)
        .where(OnlineDeal.table_id == tab.id)
        .order_by(OnlineDeal.number.desc())
        .limit(1)
    )


def _humans(tab: Table) -> frozenset[int]:
    return frozenset(
        db.session.scalars(
            select(OnlineSeat.seat).where(OnlineSeat.table_id == tab.id, OnlineSeat.bot.is_(False))
        )
    )


def _load(
    row: OnlineDeal,
    humans: frozenset[int],
    levels: dict[int, str] | None = None,
    private: bool = True,
) -> Live:
    deal, entries = cache.rebuild(row, private)  # at row.version, no replay when cached
    return Live(row, deal, entries, humans, cached=not private, levels=dict(levels or {}))


def load(tab: Table) -> Live | None:
    """The table's current deal. While the request writes nothing more (``reads_only``: a
    page, a poll, the answer to a move once written) it is the cached deal itself, only to be
    read; otherwise a copy of the request's own, to act on. One query: the latest deal row
    with the seats (who is human, the bots' strengths)."""
    got = latest(tab)
    return None if got is None else load_row(*got)


def load_row(row: OnlineDeal, humans: frozenset[int], levels: dict[int, str]) -> Live:
    """``load`` of a deal row already read (``latest``)."""
    return _load(row, humans, levels, private=not reads_only())


def latest(tab: Table) -> Latest | None:
    """The table's latest deal row, its human seats and its bot seats' strengths, in one query
    (no deal rebuilt); None before the first deal."""
    remembered = remembered_latest(tab.id)
    if remembered is not False:  # read with the seat, in this transaction
        return remembered  # type: ignore[return-value]
    got = db.session.execute(_deal_queries()[0], {"table": tab.id}).all()
    if not got:
        return None
    humans = frozenset(seat for _row, seat, bot, _lv in got if seat is not None and not bot)
    levels = {seat: lv for _row, seat, _bot, lv in got if seat is not None}
    return got[0][0], humans, levels


@functools.cache
def _deal_queries() -> tuple[
    Select[OnlineDeal, int, bool, str], Select[OnlineDeal, str, bool, str, int, bool]
]:
    """``latest``'s and ``_check_unchanged``'s queries, built once (a move runs both)."""
    newest = (
        select(OnlineDeal.id)
        .where(OnlineDeal.table_id == bindparam("table"))
        .order_by(OnlineDeal.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    latest = (
        select(OnlineDeal, OnlineSeat.seat, OnlineSeat.bot, OnlineSeat.bot_level)
        .outerjoin(OnlineSeat, OnlineSeat.table_id == OnlineDeal.table_id)
        .where(OnlineDeal.id == newest)
    )
    unchanged = (
        select(
            OnlineDeal, Table.mode, Table.finished, Round.status, OnlineSeat.seat, OnlineSeat.bot
        )
        .join(Table, Table.id == OnlineDeal.table_id)
        .join(Round, Round.id == Table.round_id)
        .join(OnlineSeat, OnlineSeat.table_id == Table.id)
        .where(OnlineDeal.id == bindparam("deal"))
    )
    return latest, unchanged


def token_of(tab: Table, row: OnlineDeal | None) -> str:
    """``state_token`` of a table whose latest deal row is ``row`` (already read: no query)."""
    return _token(
        None if row is None else row.number,
        None if row is None else row.version,
        tab.seats_version or 0,
        tab.paused,
    )


# --- the director's side ----------------------------------------------------------------------


def tournament_of(tab: Table) -> Tournament:
    t = db.session.get(Tournament, tab.round.tournament_id)
    assert t is not None
    return t


def switch_online(t: Tournament, tab: Table, actor: Actor) -> None:
    """Make a table online before its first deal: a secret link per seat, the first deal dealt."""
    if tab.mode == "online":
        raise ServiceError(_("This table is already played online."))
    if tab.kind == "bye":
        raise ServiceError(_("A bye has no deals."))
    if tab.forfeit is not None:
        raise ServiceError(_("This table was forfeited: it has no deals."))
    if tab.deals:
        raise ServiceError(_("Deals are entered at this table: it can only go online before them."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    tab.mode = "online"
    for seat in range(variant_of(t).players):
        db.session.add(OnlineSeat(table_id=tab.id, seat=seat, token=new_token()))
    db.session.flush()
    t.bump()
    audit(t, actor, "online", _where(tab), {"mode": "paper"}, {"mode": "online"})
    _start_next(t, tab, None)
    advance(t, tab)


def start_game(t: Tournament, tab: Table) -> None:
    """Deal an online table's first deal (again, after its game was discarded) and let the
    bots act."""
    _start_next(t, tab, None)
    advance(t, tab)


def set_bot(t: Tournament, tab: Table, seat: int, bot: bool, actor: Actor) -> None:
    """Let the server play a seat (or give it back to its player); bots act at once."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    row = next((s for s in seats_of(tab) if s.seat == seat), None)
    if row is None:
        raise ServiceError(_("There is no such seat at this table."), "seat")
    if row.bot == bot:
        return
    row.bot = bot
    seats_changed(tab)
    db.session.flush()
    audit(t, actor, "online_bot", _where(tab, seat), {"bot": not bot}, {"bot": bot})
    advance(t, tab)


def set_bot_level(t: Tournament, tab: Table, seat: int, level: str, actor: Actor) -> None:
    """Choose how strong a seat's bot plays: easy, normal or strong (botchoice.py)."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if level not in botchoice.LEVELS:
        raise ServiceError(_("Choose easy, normal or strong."), "level")
    row = next((s for s in seats_of(tab) if s.seat == seat), None)
    if row is None:
        raise ServiceError(_("There is no such seat at this table."), "seat")
    if row.bot_level == level:
        return
    before = row.bot_level
    row.bot_level = level
    db.session.flush()
    audit(t, actor, "online_bot_level", _where(tab, seat), {"level": before}, {"level": level})


def set_paused(t: Tournament, tab: Table, paused: bool, actor: Actor) -> None:
    """The director stops play at the table (seats' moves are refused, bots wait) or lets it go
    on (bots act at once)."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if tab.paused == paused:
        return
    if paused and tab.finished:
        raise ServiceError(_("The match is over."))
    tab.paused = paused
    db.session.flush()
    audit(t, actor, "online_pause", _where(tab), {"paused": not paused}, {"paused": paused})
    if not paused:
        advance(t, tab)


def finish(t: Tournament, tab: Table, actor: Actor) -> None:
    """Time is up (a match of a time limit): the table stops; a deal in progress is not
    counted, the deals recorded so far are the match."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if tab.finished:
        return
    if "deals" in t.match:  # a finished match of n deals counts on the deals played
        raise ServiceError(
            _(
                "This table is played online: its match is not ended early, so that no deal "
                "in play is cut off. Pause the table instead."
            )
        )
    tab.finished = True
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(t, actor, "finish", _where(tab), {"finished": False}, {"finished": True})


def _board_without_result(t: Tournament, tab: Table, outcome: str) -> None:
    """A duplicate board's deal ended without a result (120分: nobody called; an older
    board's weak-hand redeal or refusal): its cards are fixed, so it is not dealt again. The
    table is over with no traveller line (its pages say so); the director types the table's
    result on the board's traveller, as for a board a table did not play on paper."""
    tab.finished = True
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(t, GAME_ACTOR, "finish", _where(tab), {"finished": False}, {"finished": True})
    duplicate_tables.ended(tab, outcome)  # and in the event's own trail
    db.session.flush()


def where(tab: Table, seat: int | None = None) -> str:
    """Where an audited change at an online table happened, in words."""
    return _where(tab, seat)


def _where(tab: Table, seat: int | None = None) -> str:
    if seat is None:
        return _("round %(r)d, table %(t)d", r=tab.round.number, t=tab.number)
    return _("round %(r)d, table %(t)d, seat %(s)d", r=tab.round.number, t=tab.number, s=seat + 1)


# --- deals one after another ------------------------------------------------------------------


def _new_seed(tab: Table, number: int) -> int:
    """A fresh unpredictable seed per deal; ``ONLINE_SEED_BASE`` in the config (tests only) makes
    the shuffles repeatable, so a browser test plays the same deal on every run."""
    base = current_app.config.get("ONLINE_SEED_BASE")
    if base is None:
        return secrets.randbits(48)
    return int(base) + tab.id * 1000 + number


def _start_next(t: Tournament, tab: Table, prev: Live | None) -> OnlineDeal | None:
    """Deal the table's next deal, or None when the match is complete."""
    v = variant_of(t)
    number = 1 if prev is None else prev.row.number + 1
    seed = _new_seed(tab, number)
    setup: DealSetup | None
    board = duplicate_tables.board_of(tab)
    if board is not None:  # a duplicate board: its own draw, once
        if prev is not None:
            return None
        setup, seed = board.board.setup(), board.board.seed
    elif prev is None:
        setup = DealSetup(v.id, dict(t.options or {}), seed, ("2", "2"), None, True, False, 1)
    else:
        setup = _next_setup(t, tab, prev.deal, seed, number)
    if setup is None:
        return None
    row = OnlineDeal(table_id=tab.id, number=number, seed=seed, setup=setup.to_json(), version=0)
    db.session.add(row)
    db.session.flush()
    return row


def _next_setup(t: Tournament, tab: Table, deal: Deal, seed: int, number: int) -> DealSetup | None:
    """As ``engine.game.Game.record``: a redeal keeps the dealer, a refused 120分 deal is
    followed by a race, a played deal hands over by the sheet's levels and the rules' dealer."""
    s = deal.setup
    base: dict[str, Any] = {
        "variant": s.variant,
        "options": dict(s.options),
        "seed": seed,
        "deal_no": number,
    }
    if deal.outcome == "redeal":
        if deal.dealer is None:
            return DealSetup(**base, levels=s.levels, dealer=s.dealer, first=s.first, race=s.race)
        return DealSetup(**base, levels=s.levels, dealer=deal.dealer, first=False, race=s.race)
    if deal.outcome == "refused":
        return DealSetup(**base, levels=s.levels, dealer=deal.dealer, first=s.first, race=True)
    derived = sheet(t, tab)
    if derived.counts or derived.errors:
        return None
    assert deal.dealer is not None and deal.result is not None
    if not isinstance(derived, FixedMatch):
        return DealSetup(**base, levels=("2", "2"), dealer=deal.dealer, first=False)
    if derived.passed_side is not None:
        return None
    dealer = next_dealer(deal.variant, deal.dealer, deal.result.winner)
    if dealer % 2 != derived.next_declarer:  # pragma: no cover - the two derivations agree
        raise ServiceError(_("The score sheet and the game disagree about the next dealer."))
    return DealSetup(**base, levels=derived.levels, dealer=dealer, first=False)


def sheet_deal(deal: Deal) -> cm.Deal:
    """The score sheet row of a played deal, computed from the engine's state."""
    assert deal.dealer is not None and deal.result is not None
    kitty, mult = deal.kitty_bonus if deal.kitty_bonus is not None else (0, 0)
    points = deal.attackers_points()
    v = deal.variant
    if v.id == RED_FIVE:
        friend = deal.friend
        return cm.Deal(
            points=points,
            kitty=kitty,
            trump=deal.trump,
            dealer=deal.dealer,
            friend=friend,
            multiplier=mult,
            failed_throws=tuple(deal.failed_throws) or None,
            friend_grabbed=bool(deal.friend_grabbed and friend is not None),
        )
    ft: cm.FailedThrows | None = None
    if v.id == TRACTOR:
        mine = [s % 2 == deal.dealer % 2 for s in deal.failed_throws]
        if v.options.get("throw_penalty") == "ten_per_card":  # the cards each throw took back
            taken = list(zip(mine, deal.failed_throw_cards, strict=True))
            ft = cm.FailedThrows.per_card(
                tuple(n for m, n in taken if m), tuple(n for m, n in taken if not m)
            )
        else:
            dec = sum(mine)
            ft = cm.FailedThrows(dec, len(mine) - dec)
    return cm.Deal(
        points=points,
        kitty=kitty,
        trump=deal.trump,
        declarer=deal.dealer % 2,
        multiplier=mult,
        failed_throws=ft,
        misplays=tuple(deal.misplays()) if v.id == ONE_TWENTY else (),
        level=deal.level,
    )


def _bot(live: Live, seat: int) -> RandomBot:
    # a fresh bot per decision, seeded by the deal and the moment: replay needs no bot state
    seed = live.row.seed * 4099 + len(live.entries) * 17 + seat
    return botchoice.make_seat_bot(live.levels.get(seat), seed)


def bot_for(live: Live, seat: int) -> RandomBot:
    """The bot that would decide for ``seat`` now (the move clock lends a human seat its bot
    for one move: clock.py)."""
    return _bot(live, seat)


def _step(live: Live) -> bool:
    """One automatic step (a draw, a bot's call or move); False when a human must act or the
    deal is over."""
    deal = live.deal
    if deal.outcome is not None:
        return False
    if deal.phase == DRAW:
        if live.pause() is not None:
            return False
        rec = deal.draw()
        live.add(rec.to_json(), "chance")
        drew = rec.seat
        if drew not in live.humans and deal.phase == DRAW and deal.can_call_now(drew):
            call = _bot(live, drew).on_draw(deal, drew)
            if call is not None:
                live.add(deal.call(drew, call).to_json(), "bot")
        return True
    seat = deal.to_act
    if seat is None or seat in live.humans:
        return False
    live.add(perform(deal, _bot(live, seat).act(deal, seat)).to_json(), "bot")
    return True


def _save(live: Live) -> None:
    """Append the new entries on the version they were computed on (else ``Stale``). In a move
    computed in a read transaction, this is where the write lock is taken. The saved deal goes
    to the cache as it is (once committed): ``live`` is not to be acted on any more."""
    row = live.row
    start, deal_id = row.version, row.id
    if not live.new and row.outcome == live.deal.outcome:
        return
    if begin_write(db.session()):
        _check_unchanged(live, deal_id, start)
    rows = [
        {"deal_id": row.id, "seq": start + i + 1, "record": entry, "actor": actor}
        for i, (entry, actor) in enumerate(live.new)
    ]
    row.version = start + len(live.new)
    row.outcome = live.deal.outcome
    live.new = []
    try:
        db.session.flush()  # UPDATE … WHERE version = start: compare and swap
        if rows:  # one statement for all (a new deal's whole draw is some 100-200 entries),
            # a plain Core insert on the session's connection (no ORM bulk bookkeeping; the
            # flush above has marked the transaction as written, for the deal cache)
            db.session.connection().execute(insert(OnlineAction), rows)
    except (StaleDataError, IntegrityError):
        raise Stale(_("The game moved on meanwhile: look again and choose again.")) from None
    cache.offer(row, live.deal, live.entries, private=False)  # kept once committed
    live.cached = True


def _check_unchanged(live: Live, deal_id: int, start: int) -> None:
    """Under the write lock, fresh from the database: the deal is still at the version the
    move was computed on, the same seats are human, and the table still plays (one query: the
    deal row, which the write needs anyway, with the table's state and its seats)."""
    seats = db.session.execute(_deal_queries()[1], {"deal": deal_id}).all()
    if live.row.version != start:  # the row was read again just above (it was expired)
        raise Stale(_("The game moved on meanwhile: look again and choose again."))
    humans = frozenset(seat for *_t, seat, bot in seats if not bot)
    mode, finished, status = seats[0][1:4] if seats else ("", True, "closed")
    if mode != "online" or finished or status == "closed" or humans != live.humans:
        raise Stale(_("The game moved on meanwhile: look again and choose again."))


def advance(t: Tournament, tab: Table, live: Live | None = None) -> Live | None:
    """Run draws and bots until a human must act; record finished deals and deal the next.
    A paused table does nothing (its bots wait too)."""
    if tab.mode != "online" or tab.finished or tab.paused:
        return None
    if live is None:
        live = load(tab)
    botchoice.new_request_budget()
    steps = 0
    while live is not None and not tab.finished:
        while _step(live):
            steps += 1
            if steps > MAX_STEPS:  # pragma: no cover - a bug, not a game
                raise ServiceError(_("The game does not progress; tell the director."))
        _save(live)
        if live.deal.outcome is None:
            return live
        if live.row.sheet_index is None and live.deal.outcome == "played":
            from . import takeback  # the take-backs of the deal: penalties in competition

            on_sheet = takeback.with_penalties(t, live, sheet_deal(live.deal))
            written = record_deal(t, tab, on_sheet, GAME_ACTOR, source="online")
            live.row.sheet_index = written.index
            duplicate_tables.record(tab, live.deal)  # a duplicate board: its traveller line
            db.session.flush()
        if live.deal.outcome != "played" and duplicate_tables.board_number(tab) is not None:
            _board_without_result(t, tab, live.deal.outcome)  # never dealt again
            return live
        if steps > DEAL_BUDGET:
            return live
        if not may_deal_next(t, live):
            return live  # the players are reading the deal's summary
        row = _start_next(t, tab, live)
        if row is None:
            return live
        t.bump()
        live = _load(row, live.humans, live.levels)
    return None


# --- a seat's side ----------------------------------------------------------------------------


def seat_turn(seat_row: OnlineSeat, seen: str) -> tuple[Tournament, Table, Live]:
    """The table and its current deal (to act on) for a human seat's request on the state it
    saw; refused (``Stale``, ``IllegalMove``) when the table takes no move from it."""
    tab = db.session.get(Table, seat_row.table_id)
    assert tab is not None
    if tab.mode != "online":
        raise IllegalMove(_("This table is not played online."))
    if tab.paused:
        raise IllegalMove(paused_message())
    got = latest(tab)  # the state token and the deal in one query
    if deal_part(seen) != deal_part(token_of(tab, None if got is None else got[0])):
        raise Stale(_("The game moved on meanwhile: look again and choose again."))
    if seat_row.bot:
        raise IllegalMove(_("A bot plays this seat now."))
    if tab.round.status == "closed":
        raise IllegalMove(_("The round is closed: its tables play no more."))
    if tab.finished:
        raise IllegalMove(_("The match is over."))
    t = tournament_of(tab)
    live = None if got is None else load_row(*got)
    if live is None or live.deal.outcome is not None:
        raise IllegalMove(_("The match is over."))
    return t, tab, live


def act(
    seat_row: OnlineSeat, seen: str, kind: str, cards: Sequence[str] = (), card: str = ""
) -> None:
    """A human seat's move on the state it saw; bots answer at once."""
    t, tab, live = seat_turn(seat_row, seen)
    seat = seat_row.seat
    deal = live.deal
    try:
        parsed = [parse_card(c) for c in cards]
        if deal.phase == DRAW:
            if live.pause() != seat:
                raise IllegalMove(_("Wait: the cards are being dealt."))
            if kind == CONTINUE:
                live.add({"kind": CONTINUE, "seat": seat}, f"seat {seat}")
            elif kind == "call":
                live.add(deal.call(seat, parsed).to_json(), f"seat {seat}")
            else:
                raise IllegalMove(_("Call trump or let the deal go on."))
        else:
            action: tuple[Any, ...]
            if kind in ("call", "bury", "play"):
                action = (kind, seat, parsed)
            elif kind in ("pass", "redeal"):
                action = (kind, seat)
            elif kind == "friend":
                action = (kind, seat, parse_card(card) if card else None)
            else:
                raise IllegalMove(_("Unknown move."))
            live.add(perform(deal, action).to_json(), f"seat {seat}")
    except EngineError as e:
        raise IllegalMove(refusal_text(e)) from None
    advance(t, tab, live)


def view(live: Live, seat: int) -> dict[str, Any]:
    """The engine's view of the deal for one seat: never another seat's hand (its log left
    out: the pages draw the table from the rest, replays read the log itself)."""
    return seat_view(live.deal, seat, log=False)


def spectate(live: Live) -> dict[str, Any]:
    """The engine's public view of the deal: no hand, no buried kitty before it is revealed
    (without its log, as ``view``)."""
    return spectator_view(live.deal, log=False)


# --- replays ----------------------------------------------------------------------------------


@dataclass
class ReplayTrick:
    """One trick of a finished deal as it was played."""

    number: int  # 1-based
    leader: int
    plays: list[tuple[int, list[int], list[int] | None]]  # seat, cards played, a failed throw
    winner: int
    points: int
    hands: list[list[int]]  # each seat's cards before the trick (its cards still in them)
    won: list[int]  # each seat's card points after the trick


@dataclass
class Replay:
    """A finished deal rebuilt from its log: how it was dealt, called, buried and played."""

    row: OnlineDeal
    deal: Deal  # at its end
    dealt: list[list[int]]  # each seat's hand as the draw gave it
    calls: list[tuple[int, list[int]]]
    burials: list[tuple[int, list[int]]]
    start: list[list[int]]  # each seat's hand when the first trick was led
    tricks: list[ReplayTrick]

    def hands_at(self, trick: int) -> list[list[int]]:
        """Every hand before trick ``trick`` (0: when play began; after the last: empty)."""
        if trick == 0:
            return self.start
        if trick > len(self.tricks):
            return [list(h) for h in self.deal.hands]
        return self.tricks[trick - 1].hands


def finished_deals(tab: Table) -> list[OnlineDeal]:
    """The table's deals that are over (played, dealt again or refused), in order."""
    return list(
        db.session.scalars(
            select(OnlineDeal)
            .where(OnlineDeal.table_id == tab.id, OnlineDeal.outcome.is_not(None))
            .order_by(OnlineDeal.number)
        )
    )


def finished_deal(tab: Table, number: int) -> OnlineDeal | None:
    row = db.session.scalar(
        select(OnlineDeal).where(OnlineDeal.table_id == tab.id, OnlineDeal.number == number)
    )
    return row if row is not None and row.outcome is not None else None


def deal_by_id(deal_id: int) -> OnlineDeal | None:
    return db.session.get(OnlineDeal, deal_id)


def replay(row: OnlineDeal) -> Replay:
    """Replay a finished deal's log (its setup, seed and entries) trick by trick."""
    if row.outcome is None:
        raise ServiceError(_("This deal is not over yet."))
    deal = Deal(DealSetup.from_json(row.setup))
    dealt: list[list[int]] = [[] for _s in range(deal.n)]
    calls: list[tuple[int, list[int]]] = []
    burials: list[tuple[int, list[int]]] = []
    tricks: list[ReplayTrick] = []
    start: list[list[int]] | None = None
    before: list[list[int]] = []
    attempt: list[int] | None = None  # the cards of a failed throw that led the trick
    for record in cache.engine_records([a.record for a in row.actions]):
        rec = Record.from_json(record)
        lead = rec.kind == "play" and deal.trick is not None and not deal.trick.plays
        if lead:
            before = [list(h) for h in deal.hands]
            if start is None:
                start = before
        count = len(deal.tricks)
        done = apply(deal, rec)
        if done.kind == "draw":
            dealt[done.seat].extend(done.cards)
        elif done.kind == "call":
            calls.append((done.seat, list(done.cards)))
        elif done.kind == "bury":
            burials.append((done.seat, list(done.cards)))
        if lead:
            attempt = list(done.cards) if done.played is not None else None
        if len(deal.tricks) > count:
            trick = deal.tricks[-1]
            assert trick.winner is not None
            plays: list[tuple[int, list[int], list[int] | None]] = [
                (s, list(p), attempt if i == 0 else None) for i, (s, p) in enumerate(trick.plays)
            ]
            tricks.append(
                ReplayTrick(
                    number=len(deal.tricks),
                    leader=trick.leader,
                    plays=plays,
                    winner=trick.winner,
                    points=trick.points,
                    hands=before,
                    won=list(deal.won),
                )
            )
    if deal.outcome != row.outcome:  # pragma: no cover - the log is append-only and checked
        raise ServiceError(_("The log of this deal does not replay to its end."))
    return Replay(
        row=row,
        deal=deal,
        dealt=dealt,
        calls=calls,
        burials=burials,
        start=start if start is not None else [list(h) for h in deal.hands],
        tricks=tricks,
    )


def trick_plays(live: Live, which: str = "current") -> dict[str, Any] | None:
    """The current trick (or the previous one: ``which="previous"``) by seat, with the play
    that wins it so far (the engine's judgement) and its points."""
    deal = live.deal
    if which == "current":
        tr = deal.trick
        if tr is None or not tr.plays or deal.ctx is None:
            return None
        idx = trick_winner([p for _s, p in tr.plays], deal.ctx, tr.lead_comps)
        winner: int | None = tr.plays[idx][0]
        points = sum(points_of(p) for _s, p in tr.plays)
        number = len(deal.tricks)
    else:
        if not deal.tricks:
            return None
        tr = deal.tricks[-1]
        winner, points = tr.winner, tr.points
        number = len(deal.tricks) - 1
    return {
        "failed": failed_throw(deal, number),  # a failed throw led it: announced to every seat
        "leader": tr.leader,
        "winner": winner,
        "points": points,
        "plays": {s: faces_of(deal, p) for s, p in tr.plays},
        "order": [s for s, _p in tr.plays],
    }


def current_winner(live: Live) -> int | None:
    t = trick_plays(live)
    return None if t is None else t["winner"]


def call_help(live: Live, seat: int) -> dict[str, Any] | None:
    """What the rules allow a seat to call now, and why cards it holds are not a call here
    (codes the page words in the reader's language). None outside the calling phases."""
    deal = live.deal
    if deal.phase not in (DRAW, CALLS, OVERCALL):
        return None
    v = deal.variant
    book = deal.book
    standing = book.standing
    help_: dict[str, Any] = {
        "variant": v.id,
        "decks": v.decks,
        "level": deal._call_level(seat),
        "phase": deal.phase,
        "standing": None
        if standing is None or (book.hidden and deal.phase == DRAW)
        else {"seat": standing.seat, "cards": faces_of(deal, standing.cards)},
        "notes": [],
        "open": False,
    }
    notes: list[dict[str, Any]] = help_["notes"]
    if deal.phase == DRAW and not deal.can_call_now(seat):
        if v.id == RED_FIVE and standing is not None:
            notes.append({"code": "rf_shown"})
        elif v.id == RED_FIVE:
            notes.append({"code": "rf_last_rounds", "seat": deal.prev_dealer})
        else:
            assert deal.dealer is not None
            notes.append({"code": "side_only", "seats": list(range(deal.dealer % 2, deal.n, 2))})
        return help_
    if deal.phase != DRAW and deal.to_act != seat:
        return help_
    help_["open"] = True
    hand = deal.hands[seat]
    lv = RANKS.index(help_["level"])
    options = deal.call_options(seat)
    legal = {tuple(sorted(c)) for c in deal.legal_calls(seat)}
    refused = [c for c in options if tuple(sorted(c)) not in legal]
    if refused:
        if deal.phase == DRAW and v.id == TRACTOR and standing is not None:
            notes.append({"code": "after_deal"})
        elif v.id == TRACTOR and standing is not None and standing.seat == seat:
            notes.append({"code": "own_call"})
        else:
            notes.append({"code": "weaker", "cards": faces_of(deal, refused[0])})
    if v.id == TRACTOR and v.decks == 2:
        for s, suit in enumerate("SHDC"):
            card = s * 13 + lv
            joker = HJ if suit in ("H", "D") else LJ
            if card in hand and joker not in hand:
                notes.append(
                    {"code": "need_joker", "card": card_face(card), "joker": card_face(joker)}
                )
        for joker, colour in ((LJ, (0, 3)), (HJ, (1, 2))):
            if hand.count(joker) == 1 and not any(s * 13 + lv in hand for s in colour):
                notes.append({"code": "joker_alone", "card": card_face(joker)})
    elif v.id == ONE_TWENTY:
        for joker in (LJ, HJ):
            if hand.count(joker) == 1:
                notes.append({"code": "single_joker", "card": card_face(joker)})
    return help_


# --- between deals: the summary and the players' "continue" ---------------------------------


def ready_seats(live: Live) -> frozenset[int]:
    """The human seats that said they have seen the finished deal's summary."""
    return frozenset(e["seat"] for e in live.entries if e["kind"] == READY)


def ended_at(live: Live) -> datetime | None:
    """When the deal's last move was written (a seat's "ready" is no move)."""
    rows = db.session.scalars(
        select(OnlineAction)
        .where(OnlineAction.deal_id == live.row.id)
        .order_by(OnlineAction.seq.desc())
        .limit(live.deal.n + 2)
    )
    for a in rows:
        if a.record.get("kind") != READY:
            return a.created_at
    return None


def pause_left(t: Tournament, live: Live) -> int:
    """Seconds until the next deal starts by itself (0: it may start now)."""
    end = ended_at(live)
    if end is None:
        return 0
    elapsed = (utcnow() - end).total_seconds()
    return max(0, math.ceil(t.online_pause - elapsed))


def may_deal_next(t: Tournament, live: Live) -> bool:
    """After a played deal the next one waits until every human seat has pressed Continue or
    the tournament's pause has passed; bots never race ahead of people."""
    if live.deal.outcome != "played" or not live.humans:
        return True
    if live.humans <= ready_seats(live):
        return True
    return pause_left(t, live) <= 0


def match_complete(t: Tournament, tab: Table, live: Live) -> bool:
    """No deal follows this one: the match is over (or time was called)."""
    if tab.finished:
        return True
    if live.deal.outcome != "played":
        return False
    return _next_setup(t, tab, live.deal, 0, live.row.number + 1) is None


def _between_deals(seat_row: OnlineSeat) -> tuple[Tournament, Table, Live] | None:
    """The table, if its current deal is played out and the match goes on."""
    tab = db.session.get(Table, seat_row.table_id)
    assert tab is not None
    if tab.mode != "online" or tab.finished or tab.round.status == "closed":
        return None
    live = load(tab)
    if live is None or live.deal.outcome != "played":
        return None
    t = tournament_of(tab)
    return t, tab, live


def ready(seat_row: OnlineSeat, seen: str) -> bool:
    """A seat has seen the summary of deal ``seen`` (its state token) and may go on: a "ready"
    entry in that deal's log; the next deal starts once every human seat is ready. False when
    there is nothing to do (the next deal already started, the match is over, already ready)."""
    if seat_row.bot:
        raise IllegalMove(_("A bot plays this seat now."))
    found = _between_deals(seat_row)
    if found is None:
        return False
    t, tab, live = found
    if seen.split(".", 1)[0] != str(live.row.number):
        return False
    if seat_row.seat not in ready_seats(live):
        live.add({"kind": READY, "seat": seat_row.seat}, f"seat {seat_row.seat}")
    try:
        advance(t, tab, live)
    except IntegrityError:
        raise Stale(_("The game moved on meanwhile: look again and choose again.")) from None
    return True


def next_deal(seat_row: OnlineSeat) -> bool:
    """The page's countdown reached 0: deal on if the pause has really passed (the server's
    clock, from the deal's last move). False when it is not time yet or nothing waits."""
    found = _between_deals(seat_row)
    if found is None:
        return False
    t, tab, live = found
    if not may_deal_next(t, live):
        return False
    try:
        advance(t, tab, live)
    except IntegrityError:
        raise Stale(_("The game moved on meanwhile: look again and choose again.")) from None
    return True


def deal_summary(live: Live) -> dict[str, Any] | None:
    """What a played deal came to, the same for every seat and spectator: every
    trick with its winner and points, the kitty with its multiplier, failed throws with the
    cards forced, the totals and the result. The kitty is turned face up once the deal is over
    (replays show every card then too); it counts only when the attackers won the last trick
    (抠底). None while the deal is not played out."""
    deal = live.deal
    r = deal.result
    if deal.outcome != "played" or r is None or deal.dealer is None:
        return None
    v = deal.variant
    attackers = [deal.is_attacker(s) for s in range(deal.n)]
    tricks = [
        {
            "number": i + 1,
            "leader": tr.leader,
            "winner": tr.winner,
            "points": tr.points,
            "attackers": tr.winner is not None and attackers[tr.winner],
            "plays": {s: faces_of(deal, p) for s, p in tr.plays},
            "order": [s for s, _p in tr.plays],
        }
        for i, tr in enumerate(deal.tricks)
    ]
    failed = failed_throws(deal)
    penalty = 0
    if v.id == TRACTOR and failed:
        dec = sum(1 for f in failed if not attackers[f["seat"]])
        penalty = throw_penalty_points(v, {"declarer": dec, "attackers": len(failed) - dec})
    # the deal is over: its summary turns the kitty face up for every seat and spectator (the
    # issue's "the kitty turned face up"); its points count only with 抠底 (RULES §2-§4)
    kitty_points = points_of(deal.buried)
    mult = deal.kitty_bonus[1] if deal.kitty_bonus is not None else None
    return {
        "variant": v.id,
        "n": deal.n,
        "dealer": deal.dealer,
        "friend": deal.friend,
        "friend_card": None if deal.friend_card is None else card_face(deal.friend_card),
        "friend_grabbed": bool(deal.friend_grabbed and deal.friend is not None),
        "attackers": attackers,
        "won": list(deal.won),
        "tricks": tricks,
        "last": tricks[-1],
        "trick_points": deal.attackers_points(),
        "kitty": faces_of(deal, deal.buried),
        "kitty_revealed": deal.kitty_revealed,
        "kitty_size": v.kitty,
        "kitty_points": kitty_points,
        "kitty_owner": deal.kitty_owner,
        "multiplier": mult,
        "kitty_bonus": (kitty_points or 0) * mult if mult else 0,
        "failed": failed,
        "penalty": penalty,
        "total": r.total,
        "winner": r.winner,
        "levels": r.levels,
        "units": r.units,
        "scores": None if r.scores is None else list(r.scores),
        "level": deal.level,
        "trump": deal.trump,
    }
