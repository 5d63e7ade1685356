"""Online tables: the one app module of the online tables that drives the rules engine.

A table of a round is played in the browser: each seat has a secret link (``OnlineSeat.token``)
that shows that seat's view and accepts that seat's moves; seats marked as bots are played here,
synchronously, after every change (no thread; the loop is ``advance.py``). The deal's truth is
its seed, setup and log (``OnlineDeal``/``OnlineAction``); a request gets the current deal from
``cache`` (the deal rebuilt at the row's version, kept in this process; a miss replays the log).
A move carries the state token its player saw (``"<deal number>.<version>"``, ``tokens.py``)
and a stale or repeated one changes nothing (``Stale``). A move is computed in a read
transaction, then written by one UPDATE of the deal row that is its compare and swap: only over
the version it was computed on, while the table plays with the same human seats (``save``), so
two workers cannot both append to the same version. On PostgreSQL a move within its deal is that
UPDATE and the INSERT of its entries as one statement committed on its own; otherwise it is
written in a fresh transaction (``app.db.begin_write``).

The draw is the engine's chance step, performed here. When a human seat draws a card that makes
a trump call possible, the deal pauses for that seat: it calls, or continues the draw (a
``{"kind": "continue"}`` entry in the log, which replay skips).

Here: a table's deal loaded and saved (``Live``, ``load``, ``save``), the next deal's setup,
one automatic step (a draw, a bot's call or move), a seat's move applied, a played deal as a
score sheet row, the engine's views of a deal and the replay of a finished one. The other
modules of the package import no engine: the few engine names they read (card points, the
trick's winner, the calling phases) they take from here.

Game families: the trick games (升级, 红五, 120分: ``engine.deal.Deal``) are this module's own
code; a game with a state machine of its own is driven through its family's adapter, chosen by
the variant (``family_of``): 争上游 by ``climbing_game`` (its docstring lists what an adapter
offers), 打百分 (hundred-4p, forty-4p, hundred-3p) by ``hundred_game``. Each entry point below
(``start_next``, ``step``, ``apply_move``, ``lent_bot_move``, ``sheet_deal``, ``view``,
``spectate``) hands a deal of another family to its adapter; ``Live.family`` says which family a deal is, ``Live.trick``
gives a trick game's deal as its own type to code that reads the trick games only.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import (
    JSON,
    Integer,
    Select,
    Update,
    and_,
    bindparam,
    column,
    func,
    insert,
    not_,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from engine.bots import RandomBot, perform
from engine.cards import HJ as HJ
from engine.cards import LJ as LJ
from engine.cards import RANKS as RANKS
from engine.cards import parse_card
from engine.cards import points_of as points_of
from engine.climbing_deal import ClimbingDeal
from engine.deal import CALLS as CALLS
from engine.deal import DRAW, Deal, DealSetup, Record, apply
from engine.deal import OVERCALL as OVERCALL
from engine.errors import EngineError
from engine.hundred import HundredDeal
from engine.play import trick_winner as trick_winner
from engine.scoring import next_dealer
from engine.scoring import throw_penalty_points as throw_penalty_points
from engine.variants import CLIMBING as CLIMBING
from engine.variants import ONE_TWENTY, RED_FIVE, TRACTOR
from engine.views import seat_view, spectator_view

from ...competition import model as cm
from ...competition.matches import FixedMatch
from ...db import READ_MEMOS, begin_write, memo, reads_only, write_alone, wrote_alone
from ...extensions import db
from ...models import OnlineAction, OnlineDeal, OnlineSeat, Round, Table, Tournament, utcnow
from .. import ServiceError
from ..duplicate import tables as duplicate_tables
from ..live import bus as live_bus
from ..tournaments.rows import variant_of
from ..tournaments.sheets import sheet
from . import botchoice, cache, climbing_game, hundred_game
from .cache import GameDeal
from .refusals import refusal_text
from .seats import Latest, remembered_latest

# Log entries that are no engine record (replay skips them; defined with the cache that replays):
# ``continue`` — a seat let the draw go on; ``ready`` — after a played deal a human seat has seen
# the summary, and the next deal waits for them all, or for the tournament's pause.
CONTINUE, READY, LOG_ONLY = cache.CONTINUE, cache.READY, cache.LOG_ONLY
# Which engine bot plays the bot seats: each seat's strength (botchoice.py); ``flask tournament
# run-bots --bots KIND`` sets one kind for every seat for its run (autoplay.py).
BOT_KIND: ContextVar[str | None] = botchoice.FORCED_KIND


class Stale(ServiceError):
    """The move was made on a state that has changed since (answer 409)."""


class IllegalMove(ServiceError):
    """The engine (or the table) refuses the move; nothing changed (answer 422)."""


# --- loading ---------------------------------------------------------------------------------------


@dataclass
class Live:
    """The current deal of a table rebuilt from its log, plus the entries added meanwhile."""

    row: OnlineDeal
    deal: GameDeal
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

    @property
    def trick(self) -> Deal:
        """The deal of a trick game (a bug to ask it of another family's)."""
        if not isinstance(self.deal, Deal):
            raise TypeError("not a trick game's deal")
        return self.deal

    @property
    def family(self) -> str:
        return family_of(self.deal.variant.id)

    def pause(self) -> int | None:
        """The human seat the draw waits for (it may call with the card it just drew; in a
        game without calls the draw never waits)."""
        deal = self.deal
        if not isinstance(deal, Deal):
            return None
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


TRICKS = "tricks"  # the family of the trick games (this module's own code)
FAMILIES = {TRICKS: (TRACTOR, RED_FIVE, ONE_TWENTY), climbing_game.FAMILY: (CLIMBING,)}
HUNDRED = hundred_game.FAMILY  # 打百分: hundred-4p (every friend mode), forty-4p, hundred-3p
FAMILIES[HUNDRED] = hundred_game.VARIANTS


def family_of(variant: str) -> str:
    """The game family of a variant (its adapter plays its deals); "" for one not online."""
    for family, variants in FAMILIES.items():
        if variant in variants:
            return family
    return ""


def plays_online(variant: str) -> bool:
    """Whether tables of ``variant`` can be played in the browser: the trick games the engine's
    ``Deal`` plays, 争上游 (``climbing_game``) and 打百分's three games (``hundred_game``)."""
    return family_of(variant) != ""


def players_of(t: Tournament) -> int:
    """Seats at an online table of the tournament's game (3人百分: 3, its dummy no one's)."""
    if hundred_game.owns(t.variant):
        return hundred_game.players(t.variant)
    return variant_of(t).players


def options_of(t: Tournament) -> dict[str, Any]:
    """The tournament's game options with the engine's defaults."""
    if hundred_game.owns(t.variant):
        return hundred_game.options_of(t.variant, dict(t.options or {}))
    return dict(variant_of(t).options)


def tournament_of(tab: Table) -> Tournament:
    t = db.session.get(Tournament, tab.round.tournament_id)
    assert t is not None
    return t


def where(tab: Table, seat: int | None = None) -> str:
    """Where an audited change at an online table happened, in words."""
    return _where(tab, seat)


def _where(tab: Table, seat: int | None = None) -> str:
    if seat is None:
        return _("round %(r)d, table %(t)d", r=tab.round.number, t=tab.number)
    return _("round %(r)d, table %(t)d, seat %(s)d", r=tab.round.number, t=tab.number, s=seat + 1)


def current_row(tab: Table) -> OnlineDeal | None:
    return db.session.scalar(
        select(OnlineDeal)
        .where(OnlineDeal.table_id == tab.id)
        .order_by(OnlineDeal.number.desc())
        .limit(1)
    )


def load_deal(
    row: OnlineDeal,
    humans: frozenset[int],
    levels: dict[int, str] | None = None,
    private: bool = True,
) -> Live:
    """A deal row rebuilt to act on (``private``, the default: a copy of its own) or only to
    read (the cached deal itself)."""
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
    return load_deal(row, humans, levels, private=not reads_only())


def latest(tab: Table) -> Latest | None:
    """The table's latest deal row, its human seats and its bot seats' strengths, in one query
    (no deal rebuilt); None before the first deal."""
    remembered = remembered_latest(tab.id)
    if remembered is not False:  # read with the seat, in this transaction
        return remembered  # type: ignore[return-value]
    got = db.session.execute(_latest_query(), {"table": tab.id}).all()
    if not got:
        return None
    humans = frozenset(seat for _row, seat, bot, _lv in got if seat is not None and not bot)
    levels = {seat: lv for _row, seat, _bot, lv in got if seat is not None}
    return got[0][0], humans, levels


@functools.cache
def _latest_query() -> Select[OnlineDeal, int, bool, str]:
    """``latest``'s query, built once."""
    newest = (
        select(OnlineDeal.id)
        .where(OnlineDeal.table_id == bindparam("table"))
        .order_by(OnlineDeal.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    return (
        select(OnlineDeal, OnlineSeat.seat, OnlineSeat.bot, OnlineSeat.bot_level)
        .outerjoin(OnlineSeat, OnlineSeat.table_id == OnlineDeal.table_id)
        .where(OnlineDeal.id == newest)
    )


# --- deals one after another ------------------------------------------------------------------


def _new_seed(tab: Table, number: int) -> int:
    """A fresh unpredictable seed per deal; ``ONLINE_SEED_BASE`` in the config (tests only) makes
    the shuffles repeatable, so a browser test plays the same deal on every run."""
    base = current_app.config.get("ONLINE_SEED_BASE")
    if base is None:
        return secrets.randbits(48)
    return int(base) + tab.id * 1000 + number


def start_next(t: Tournament, tab: Table, prev: Live | None) -> OnlineDeal | None:
    """Deal the table's next deal, or None when the match is complete."""
    number = 1 if prev is None else prev.row.number + 1
    seed = _new_seed(tab, number)
    if hundred_game.owns(t.variant):  # 打百分: its adapter's setups
        stored = (
            hundred_game.first_setup(t.variant, dict(t.options or {}), seed)
            if prev is None
            else next_deal_setup(t, tab, prev.deal, seed, number)
        )
        return None if stored is None else _new_row(tab, number, seed, stored)
    v = variant_of(t)
    if family_of(v.id) == climbing_game.FAMILY:
        stored = (
            climbing_game.first_setup(dict(t.options or {}), seed)
            if prev is None
            else next_deal_setup(t, tab, prev.deal, seed, number)
        )
        return None if stored is None else _new_row(tab, number, seed, stored)
    setup: DealSetup | None
    board = duplicate_tables.board_of(tab)
    if board is not None:  # a duplicate board: its own draw, once
        if prev is not None:
            return None
        setup, seed = board.board.setup(), board.board.seed
    elif prev is None:
        setup = DealSetup(v.id, dict(t.options or {}), seed, ("2", "2"), None, True, False, 1)
    else:
        setup = next_setup(t, tab, prev.trick, seed, number)
    if setup is None:
        return None
    return _new_row(tab, number, seed, setup.to_json())


def _new_row(tab: Table, number: int, seed: int, setup: dict[str, Any]) -> OnlineDeal:
    row = OnlineDeal(table_id=tab.id, number=number, seed=seed, setup=setup, version=0)
    db.session.add(row)
    db.session.flush()
    return row


def next_deal_setup(
    t: Tournament, tab: Table, deal: GameDeal, seed: int, number: int
) -> dict[str, Any] | None:
    """The stored setup of the deal after ``deal``, of any family; None when the match is
    complete (the sheet counts, or is in error)."""
    if isinstance(deal, Deal):
        setup = next_setup(t, tab, deal, seed, number)
        return None if setup is None else setup.to_json()
    derived = sheet(t, tab)
    if derived.counts or derived.errors:
        return None
    if isinstance(deal, HundredDeal):
        return hundred_game.next_setup(deal, seed)
    return climbing_game.next_setup(deal, seed)


def next_setup(t: Tournament, tab: Table, deal: Deal, seed: int, number: int) -> DealSetup | None:
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


def sheet_deal(deal: GameDeal) -> cm.Deal:
    """The score sheet row of a played deal, computed from the engine's state."""
    if isinstance(deal, HundredDeal):
        return hundred_game.sheet_row(deal)
    if not isinstance(deal, Deal):
        return climbing_game.sheet_row(deal)
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


def _seed(live: Live, seat: int) -> int:
    # a fresh bot per decision, seeded by the deal and the moment: replay needs no bot state
    return live.row.seed * 4099 + len(live.entries) * 17 + seat


def _bot(live: Live, seat: int) -> RandomBot:
    return botchoice.make_seat_bot(live.levels.get(seat), _seed(live, seat))


def lent_bot_move(live: Live, seat: int) -> dict[str, Any]:
    """The move the bot of ``seat`` makes now, performed on the deal and returned as its log
    entry, not yet added (the move clock lends a human seat its bot for one move and marks the
    entry: clock.py)."""
    deal = live.deal
    if isinstance(deal, HundredDeal):
        kind = botchoice.kind_for(live.levels.get(seat))
        return hundred_game.bot_entry(deal, seat, kind, _seed(live, seat))
    if not isinstance(deal, Deal):
        kind = botchoice.kind_for(live.levels.get(seat))
        return climbing_game.bot_entry(deal, seat, kind, _seed(live, seat))
    return perform(deal, _bot(live, seat).act(deal, seat)).to_json()


def _climbing_step(live: Live, deal: ClimbingDeal) -> bool:
    drawn = climbing_game.draw_entry(deal)
    if drawn is not None:
        live.add(drawn, "chance")
        return True
    seat = deal.to_act
    if seat is None or seat in live.humans:
        return False
    live.add(lent_bot_move(live, seat), "bot")
    return True


def _hundred_step(live: Live, deal: HundredDeal) -> bool:
    """打百分 has no chance step (the engine deals the pack at once): a bot's decision."""
    seat = deal.to_act
    if seat is None or seat in live.humans:
        return False
    live.add(lent_bot_move(live, seat), "bot")
    return True


def step(live: Live) -> bool:
    """One automatic step (a draw, a bot's call or move); False when a human must act or the
    deal is over."""
    deal = live.deal
    if deal.outcome is not None:
        return False
    if isinstance(deal, HundredDeal):
        return _hundred_step(live, deal)
    if not isinstance(deal, Deal):
        return _climbing_step(live, deal)
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


def save(live: Live) -> None:
    """Append the new entries on the version they were computed on (else ``Stale``). One UPDATE
    of the deal row is the compare and swap (``_swap``); in a move computed in a read
    transaction it also checks that the table still plays, with the same human seats. On
    PostgreSQL a move that leaves its deal going on is written as one statement committed on
    its own (``app.db.write_alone``: that UPDATE and the entries' INSERT, no BEGIN, no COMMIT);
    else this is where the write lock is taken. The saved deal goes to the cache as it is (once
    committed): ``live`` is not to be acted on any more."""
    row = live.row
    if not live.new and row.outcome == live.deal.outcome:
        return
    start, deal_id, table_id, number = row.version, row.id, row.table_id, row.number
    version, outcome = start + len(live.new), live.deal.outcome
    entries = [{"seq": start + i + 1, "record": e, "actor": a} for i, (e, a) in enumerate(live.new)]
    live.new = []
    now = utcnow()
    session = db.session()
    alone = outcome is None and write_alone(session)
    checked = alone or begin_write(session)
    swap: dict[str, Any] = {"deal": deal_id, "start": start, "version": version, "outcome": outcome}
    if checked:
        swap["humans"] = sorted(live.humans)
    try:
        if alone:  # one statement, committed by itself
            stamp = now.isoformat()
            swap["entries"] = [{**e, "created_at": stamp} for e in entries]
            made = session.connection().execute(_swap_and_append(), swap).first()
            if made is not None:
                wrote_alone(session)
        else:  # through the session, which marks its transaction as written (the deal cache)
            made = session.execute(_swap(checked), swap, execution_options=_NO_SYNC).first()
            if made is not None:
                live_bus.deal_written(session, table_id)  # (SQLite; PostgreSQL: its trigger)
                if entries:  # one plain Core INSERT for all (a new deal's whole draw is some
                    # 100-200 entries): no ORM bulk bookkeeping
                    rows = [{**e, "deal_id": deal_id, "created_at": now} for e in entries]
                    session.connection().execute(insert(OnlineAction), rows)
    except IntegrityError:
        made = None
    if made is None:  # the version moved on, or the table or its seats changed
        raise Stale(_("The game moved on meanwhile: look again and choose again."))
    set_committed_value(row, "version", version)  # as written: the ORM's own compare and
    set_committed_value(row, "outcome", outcome)  # swap of a later flush starts from it
    if checked:  # what the table shows now, read in this write: see ``state_made``
        session.info[_MADE] = (table_id, number, version, made[-2] or 0, bool(made[-1]))
    cache.offer(row, live.deal, live.entries, private=False)  # kept once committed
    live.cached = True


_NO_SYNC = {"synchronize_session": False}  # the ORM's objects: ``save`` sets what it wrote


@functools.cache
def _swap(checked: bool) -> Update:
    """The deal row's compare and swap (built once; SQLAlchemy then compiles it once): row
    ``deal`` from version ``start`` to ``version`` with ``outcome``, returning the row's id.
    ``checked`` (a move computed in a read transaction): only while its table is online, not
    finished, in a round not closed, and plays with exactly the human seats ``humans``; then it
    also returns the table's ``seats_version`` and ``paused`` (the state the move made)."""
    swap = (
        update(OnlineDeal)
        .where(OnlineDeal.id == bindparam("deal"), OnlineDeal.version == bindparam("start"))
        .values(version=bindparam("version"), outcome=bindparam("outcome"))
    )
    if not checked:
        return swap.returning(OnlineDeal.id)
    humans = bindparam("humans", type_=Integer, expanding=True)
    changed_seat = (
        select(OnlineSeat.id)
        .where(
            OnlineSeat.table_id == OnlineDeal.table_id,
            or_(
                and_(OnlineSeat.seat.in_(humans), OnlineSeat.bot),
                and_(OnlineSeat.seat.not_in(humans), not_(OnlineSeat.bot)),
            ),
        )
        .exists()
    )
    playing = (
        select(Table.id)
        .join(Round, Round.id == Table.round_id)
        .where(
            Table.id == OnlineDeal.table_id,
            Table.mode == "online",
            not_(Table.finished),
            Round.status != "closed",
        )
        .exists()
    )
    # subqueries: SQLite's RETURNING names no table but the one it updates. SQLAlchemy writes
    # every column there unqualified, which SQL's scoping reads right: ``id`` is the table's
    # (the innermost), ``table_id`` the deal row's (the table has none; a streamed move's state
    # on SQLite, tests/online/test_online_queries.py, would show it otherwise)
    shown = [
        select(c).where(Table.id == OnlineDeal.table_id).scalar_subquery()
        for c in (Table.seats_version, Table.paused)
    ]
    return swap.where(playing, ~changed_seat).returning(OnlineDeal.id, *shown)


@functools.cache
def _swap_and_append() -> Select[Any]:
    """The checked ``_swap`` and the INSERT of the entries as one statement (PostgreSQL's
    data-modifying WITH; built once): the entries, a JSON array ``entries`` of rows, are
    written only if the swap was; answers the swap's row."""
    moved = _swap(True).cte("moved")
    types = OnlineAction.__table__.c
    keys = ("seq", "record", "actor", "created_at")
    entries = (
        func.json_to_recordset(bindparam("entries", type_=JSON))
        .table_valued(*(column(k, types[k].type) for k in keys))
        .render_derived(name="entries", with_types=True)
    )
    added = insert(OnlineAction).from_select(
        ["deal_id", *keys],
        select(moved.c.id, *(entries.c[k] for k in keys)).join_from(moved, entries, true()),
    )
    return select(*moved.c).add_cte(added.cte("added"))


# session.info: (table id, deal number, version, seats_version, paused) of the deal the
# transaction's move saved last, with its table as its compare and swap returned it; forgotten
# at any later write and at the end of the transaction (app.db.READ_MEMOS)
_MADE = "online_state_made"
READ_MEMOS.add(_MADE)


def state_made(table_id: int) -> tuple[int, int, int, bool] | None:
    """What a move of this transaction made table ``table_id`` show, known without a query:
    its deal's number and version, the table's ``seats_version`` and ``paused`` (None when
    something else was written or is waiting to be after the move, or its write did not check
    the table: no move of a read transaction)."""
    made = memo(db.session(), _MADE)
    return None if made is None or made[0] != table_id else made[1:]


# --- a seat's move -----------------------------------------------------------------------------


def apply_move(live: Live, seat: int, kind: str, cards: Sequence[str] = (), card: str = "") -> None:
    """A human seat's move applied to its deal (``moves.act`` checks the seat and the state it
    saw first, and lets the bots answer); an engine refusal is ``IllegalMove`` in the reader's
    language."""
    deal = live.deal
    if isinstance(deal, HundredDeal):  # the bid, trump suit or friend card comes as ``card``
        if kind not in hundred_game.MOVE_KINDS:
            raise IllegalMove(_("Unknown move."))
        try:
            live.add(hundred_game.move_entry(deal, seat, kind, cards, card), f"seat {seat}")
        except EngineError as e:
            raise IllegalMove(refusal_text(e)) from None
        return
    if not isinstance(deal, Deal):
        if kind not in climbing_game.MOVE_KINDS:
            raise IllegalMove(_("Unknown move."))
        try:
            live.add(climbing_game.move_entry(deal, seat, kind, cards), f"seat {seat}")
        except EngineError as e:
            raise IllegalMove(refusal_text(e)) from None
        return
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


def view(live: Live, seat: int) -> dict[str, Any]:
    """The engine's view of the deal for one seat: never another seat's hand (its log left
    out: the pages draw the table from the rest, replays read the log itself)."""
    if isinstance(live.deal, HundredDeal):
        return hundred_game.seat_view(live.deal, seat)
    if not isinstance(live.deal, Deal):
        return climbing_game.seat_view(live.deal, seat)
    return seat_view(live.deal, seat, log=False)


def spectate(live: Live) -> dict[str, Any]:
    """The engine's public view of the deal: no hand, no buried kitty before it is revealed
    (without its log, as ``view``)."""
    if isinstance(live.deal, HundredDeal):
        return hundred_game.spectator_view(live.deal)
    if not isinstance(live.deal, Deal):
        return climbing_game.spectator_view(live.deal)
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


def family_of_row(row: OnlineDeal) -> str:
    return family_of(str(row.setup.get("variant", "")))


def replay_moves(row: OnlineDeal) -> dict[str, Any]:
    """A finished deal of a game without tricks (争上游) replayed move by move (its family's
    adapter's ``replay_moves``)."""
    if row.outcome is None:
        raise ServiceError(_("This deal is not over yet."))
    if family_of_row(row) == HUNDRED:
        return hundred_game.replay_moves(
            row.setup, cache.engine_records([a.record for a in row.actions])
        )
    return climbing_game.replay_moves(
        row.setup, cache.engine_records([a.record for a in row.actions])
    )


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
