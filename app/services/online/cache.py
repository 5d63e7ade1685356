"""Rebuilt deals kept in this process, so that a request does not replay a deal's whole log.

The log in the database stays the truth: a cached snapshot is the engine ``Deal`` a deal's log
replays to at one version, used only when the deal row read in the request matches it (same
row, same shuffle, same version). A row that is further on (another worker appended) is
rebuilt forward from the snapshot by applying only the newer entries; anything else (a version
behind the snapshot, a row recreated under the same id, a gap in the log) falls back to the full
replay. Snapshots are never changed: a request that acts on the deal gets its own copy
(``clone``, under half a millisecond late in a 4-deck deal, against several for a replay); one
that only reads (a page, a poll's fragment, a move's answer once written) reads the snapshot
itself, and a move's result becomes the next snapshot as it is.

A snapshot is stored only from committed data: what a transaction read before it wrote anything
is stored at once; what it wrote (the move's result) when it commits, never after a rollback.
Each worker process has its own cache (an LRU of ``SIZE`` deals; a table in play is one entry).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, event, select
from sqlalchemy.orm import ORMExecuteState, Session

from engine.climbing_deal import ClimbingDeal
from engine.deal import Deal, DealSetup, Record, apply
from engine.hundred import HundredDeal

from ...extensions import db
from ...models import OnlineAction, OnlineDeal
from . import climbing_game, hundred_game

# a deal of any game family the online tables play: the trick games' ``Deal``, 争上游's own
GameDeal = Deal | ClimbingDeal | HundredDeal  # 打百分's too (hundred_game)

# log entries that are no engine record (replay skips them):
CONTINUE = "continue"  # a seat let the draw go on
READY = "ready"  # after a played deal, a human seat has seen the summary (Continue)
# a take-back (悔牌, app/services/online/takeback.py): a seat asks to take back its last play,
# the next seat accepts (``takeback``, ``of``: the log seq of the play it cancels) or refuses
TAKEBACK_ASK = "takeback_ask"
TAKEBACK = "takeback"
TAKEBACK_REFUSED = "takeback_refused"
LOG_ONLY = (CONTINUE, READY, TAKEBACK_ASK, TAKEBACK, TAKEBACK_REFUSED)
SIZE = 256
_PENDING = "online_deal_snapshots"  # session.info: snapshots waiting for the commit
_WROTE = "online_deal_wrote"  # session.info: this transaction has flushed a change


@dataclass(frozen=True)
class Snapshot:
    """A deal's log replayed up to ``version``: the engine state and the log's entries."""

    deal_id: int
    created_at: datetime | None
    seed: int
    setup: dict[str, Any]  # the row's DealSetup as stored
    version: int
    deal: GameDeal  # never changed once made: readers get a clone
    entries: tuple[dict[str, Any], ...]

    def of(self, row: OnlineDeal) -> bool:
        """Is this a snapshot of ``row``'s deal (the same row, not one recreated since)?"""
        return (
            self.deal_id == row.id
            and self.seed == row.seed
            and self.created_at == row.created_at
            and self.setup == row.setup
        )


class DealCache:
    """An LRU of snapshots by deal id, the newest version of each; safe across threads."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._items: OrderedDict[int, Snapshot] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.forward = self.replays = 0  # how deals were rebuilt (tests, bench)

    def get(self, deal_id: int) -> Snapshot | None:
        with self._lock:
            snap = self._items.get(deal_id)
            if snap is not None:
                self._items.move_to_end(deal_id)
            return snap

    def put(self, snap: Snapshot) -> None:
        """Keep ``snap`` unless a later version of the same deal is kept already."""
        with self._lock:
            old = self._items.get(snap.deal_id)
            if (
                old is not None
                and old.version > snap.version
                and (old.seed, old.created_at) == (snap.seed, snap.created_at)
            ):
                return
            self._items[snap.deal_id] = snap
            self._items.move_to_end(snap.deal_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def drop(self, deal_id: int, snap: Snapshot) -> None:
        """Forget ``snap`` (unless another thread has stored a newer one meanwhile)."""
        with self._lock:
            if self._items.get(deal_id) is snap:
                del self._items[deal_id]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.forward = self.replays = 0

    def __len__(self) -> int:
        return len(self._items)


CACHE = DealCache()


# --- copies -------------------------------------------------------------------------------------

_ATOMIC: frozenset[type] = frozenset({int, float, str, bool, bytes, type(None)})
_FROZEN: dict[type, bool] = {}
_SHARED: set[type] = set(_ATOMIC)  # the atomic types and the frozen classes met so far


def _frozen(t: type) -> bool:
    """Frozen dataclasses (records, the variant, the trump context, calls) are shared."""
    known = _FROZEN.get(t)
    if known is None:
        params = getattr(t, "__dataclass_params__", None)
        known = _FROZEN[t] = bool(dataclasses.is_dataclass(t) and params and params.frozen)
        if known:
            _SHARED.add(t)
    return known


def _immutable(x: Any) -> bool:
    t = type(x)
    if t in _ATOMIC:
        return True
    if t is tuple:
        return all(_immutable(e) for e in x)
    return _frozen(t)


def _copy(x: Any, memo: dict[int, Any]) -> Any:
    t = type(x)
    if t in _ATOMIC:
        return x
    if t is tuple:
        if _immutable(x):  # cards, (seat, cards): most tuples of a deal
            return x
        return tuple([_copy(e, memo) for e in x])
    if _frozen(t):
        return x
    done = memo.get(id(x))
    if done is not None:
        return done
    if t is list:
        shared = _SHARED
        if all(type(e) in shared for e in x) or all(_immutable(e) for e in x):
            # a hand, the pack, the log of records, a trick's plays: copied wholesale
            new_list = x[:]
            memo[id(x)] = new_list
            return new_list
        new_list = []
        memo[id(x)] = new_list
        new_list.extend([_copy(e, memo) for e in x])
        return new_list
    if t is dict:
        new_dict: dict[Any, Any] = {}
        memo[id(x)] = new_dict
        for k, v in x.items():
            new_dict[k] = _copy(v, memo)
        return new_dict
    if isinstance(x, random.Random):
        rng = t.__new__(t)  # type: ignore[call-overload]
        rng.setstate(x.getstate())
        memo[id(x)] = rng
        return rng
    if not hasattr(x, "__dict__") or hasattr(t, "__slots__"):
        import copy

        return copy.deepcopy(x, memo)
    obj = object.__new__(t)
    memo[id(x)] = obj
    obj.__dict__.update({k: _copy(v, memo) for k, v in vars(x).items()})
    return obj


def clone(deal: GameDeal) -> GameDeal:
    """A private copy of a deal (what is immutable is shared, everything else copied)."""
    out: GameDeal = _copy(deal, {})
    return out


# --- rebuilding a deal --------------------------------------------------------------------------


def _entries(deal_id: int, after: int, upto: int) -> list[tuple[int, dict[str, Any]]]:
    """The log entries after ``after`` up to the row's version (a database whose statements
    each see the latest commit may hold later ones already: they belong to a later version)."""
    return [
        (seq, dict(record))
        for seq, record in db.session.execute(
            _entries_query(), {"deal": deal_id, "after": after, "upto": upto}
        )
    ]


@functools.cache
def _entries_query() -> Select[int, dict[str, Any]]:
    """``_entries``' query, built once (a stream woken by another server's move reads the
    move's entries with it: building the statement each time cost as much as running it)."""
    return (
        select(OnlineAction.seq, OnlineAction.record)
        .where(
            OnlineAction.deal_id == bindparam("deal"),
            OnlineAction.seq > bindparam("after"),
            OnlineAction.seq <= bindparam("upto"),
        )
        .order_by(OnlineAction.seq)
    )


def engine_records(log: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of a whole log (seq 1, 2, … in order) that replay applies to the engine: not
    the log-only ones, nor a play a take-back accepted later cancels (the log is append-only:
    the play stays in it, replay skips it)."""
    cancelled = {e["of"] for e in log if e["kind"] == TAKEBACK}
    return [e for seq, e in enumerate(log, 1) if e["kind"] not in LOG_ONLY and seq not in cancelled]


def _apply(deal: GameDeal, entries: Iterable[dict[str, Any]]) -> None:
    """Apply entries that cancel nothing before them (a whole log goes through
    ``engine_records`` first)."""
    for entry in entries:
        if entry["kind"] in LOG_ONLY:
            continue
        if isinstance(deal, Deal):
            apply(deal, Record.from_json(entry))
        elif isinstance(deal, HundredDeal):
            hundred_game.apply_entry(deal, entry)
        else:
            climbing_game.apply_entry(deal, entry)


def new_deal(setup: dict[str, Any]) -> GameDeal:
    """A deal of its setup's game family (by its variant), before any entry of its log."""
    if hundred_game.owns(setup.get("variant", "")):
        return hundred_game.new_deal(setup)
    if climbing_game.owns(setup.get("variant", "")):
        return climbing_game.new_deal(setup)
    return Deal(DealSetup.from_json(setup))


def replayed(setup: dict[str, Any], log: Sequence[dict[str, Any]]) -> GameDeal:
    """The deal a whole log replays to."""
    deal = new_deal(setup)
    _apply(deal, engine_records(log))
    return deal


def _contiguous(rows: list[tuple[int, dict[str, Any]]], after: int, version: int) -> bool:
    return [seq for seq, _e in rows] == list(range(after + 1, version + 1))


# One rebuild of a deal at a time in this process: the streams of a table's seats that one
# process holds are woken together by the same move, and each would otherwise read the new
# entries and rebuild the same version (``forward``) — the first to finish stores it, the others
# then find it. Locks are made on first use (after gevent patched ``threading``: a waiter yields)
# and forgotten when many have piled up.
_FLIGHTS: dict[int, threading.Lock] = {}
_FLIGHTS_KEPT = 1024


def _flight(deal_id: int) -> threading.Lock:
    lock = _FLIGHTS.get(deal_id)
    if lock is None:
        if len(_FLIGHTS) >= _FLIGHTS_KEPT:
            for k in [k for k, v in list(_FLIGHTS.items()) if not v.locked()]:
                _FLIGHTS.pop(k, None)
        lock = _FLIGHTS.setdefault(deal_id, threading.Lock())
    return lock


def _cached(row: OnlineDeal, private: bool) -> tuple[GameDeal, list[dict[str, Any]]] | None:
    snap = CACHE.get(row.id)
    if snap is not None and snap.version == row.version and snap.of(row):
        CACHE.hits += 1
        return (clone(snap.deal) if private else snap.deal), list(snap.entries)
    return None


def rebuild(row: OnlineDeal, private: bool = True) -> tuple[GameDeal, list[dict[str, Any]]]:
    """The deal ``row``'s log replays to, and its entries. ``private``: a copy of its own to
    act on; False: the cached object itself, which the caller only reads."""
    got = _cached(row, private)
    if got is not None:
        return got
    with _flight(row.id):
        # another request of this process may have rebuilt this very version meanwhile
        return _cached(row, private) or _rebuild(row, private)


def _rebuild(row: OnlineDeal, private: bool) -> tuple[GameDeal, list[dict[str, Any]]]:
    version = row.version
    snap = CACHE.get(row.id)
    if snap is not None and snap.of(row) and snap.version <= version:
        newer = _entries(row.id, snap.version, version)
        cancels = any(e["kind"] == TAKEBACK for _s, e in newer)  # replayed whole, below
        if _contiguous(newer, snap.version, version) and not cancels:
            CACHE.forward += 1
            deal = clone(snap.deal)
            added = [e for _s, e in newer]
            _apply(deal, added)
            entries = list(snap.entries) + added
            offer(row, deal, entries, private)
            return deal, entries
    if snap is not None:
        CACHE.drop(row.id, snap)  # it does not fit the row: replaced by the replay, if whole
    CACHE.replays += 1
    rows = _entries(row.id, 0, version)
    entries = [e for _s, e in rows]
    deal = replayed(row.setup, entries)
    if _contiguous(rows, 0, version):
        offer(row, deal, entries, private)
    return deal, entries


def offer(
    row: OnlineDeal, deal: GameDeal, entries: list[dict[str, Any]], private: bool = True
) -> None:
    """Keep a copy of ``deal`` (at ``row.version``) once it is known to be committed.

    ``private``: the caller goes on using ``deal``, so a copy is kept; False hands the object
    itself over (the caller must not change it any more)."""
    snap = Snapshot(
        row.id,
        row.created_at,
        row.seed,
        dict(row.setup),
        row.version,
        clone(deal) if private else deal,
        tuple(entries),
    )
    session = db.session()
    if session.info.get(_WROTE):
        session.info.setdefault(_PENDING, []).append(snap)
    else:
        CACHE.put(snap)  # read in a transaction that wrote nothing: committed data


@event.listens_for(Session, "after_flush")
def _wrote(session: Session, _context: Any) -> None:
    session.info[_WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _writes(state: ORMExecuteState) -> None:
    if state.is_insert or state.is_update or state.is_delete:  # DML through the session
        state.session.info[_WROTE] = True


@event.listens_for(Session, "after_commit")
def _publish(session: Session) -> None:
    for snap in session.info.pop(_PENDING, ()):
        CACHE.put(snap)
    session.info.pop(_WROTE, None)


@event.listens_for(Session, "after_rollback")
def _discard(session: Session) -> None:
    session.info.pop(_PENDING, None)
    session.info.pop(_WROTE, None)
