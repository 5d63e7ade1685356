"""The round clock of a match by time (定时): one clock per round, the same for every table.

The server's time is the truth: a round stores when its clock started, when it was paused (if it
is) and the seconds it has spent paused; the remaining time is worked out from them on every
request, and the pages only count down between two looks (``static/clock.js``). When time is up
the director calls the last deal: each table finishes the deal in progress and starts no new one
(``Table.last_deal``: the deals it may play in all; an extra deal may follow on equal levels under
the tie-break ``extra_deal``). A paper sheet then refuses a further deal, and an online table
deals no further one (``app.competition.matches`` counts the match complete at that limit).

Every function takes the time as ``at`` (naive UTC); ``now()`` is the one clock read, which a
test replaces through the ``CLOCK_NOW`` config value (a function), so nothing sleeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from flask_babel import gettext as _

from ...db import lock_for_update
from ...models import Round, Tournament, utcnow
from .. import ServiceError
from .audit import Actor, audit, place
from .sheets import online_tables

_CLOCK_COLUMNS = ("clock_started_at", "clock_paused_at", "clock_paused_seconds", "last_deal_at")


def now() -> datetime:
    """The time the clock reads (naive UTC); tests set ``CLOCK_NOW`` to a function."""
    clock = current_app.config.get("CLOCK_NOW")
    return clock() if clock is not None else utcnow()


@dataclass(frozen=True)
class ClockState:
    minutes: int
    started: bool
    paused: bool
    remaining: int  # whole seconds left, 0 when time is up
    last_deal: bool  # the director has called the last deal

    @property
    def running(self) -> bool:
        return self.started and not self.paused and self.remaining > 0

    @property
    def over(self) -> bool:
        return self.started and self.remaining <= 0

    @property
    def shown(self) -> str:
        """The remaining time as the page prints it: ``m:ss`` (``h:mm:ss`` from an hour)."""
        h, rest = divmod(self.remaining, 3600)
        m, s = divmod(rest, 60)
        return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def minutes_of(t: Tournament) -> int | None:
    value = (t.match or {}).get("minutes")
    return int(value) if value is not None else None


def elapsed(rnd: Round, at: datetime) -> float:
    """Seconds of play on the round's clock at ``at`` (pauses left out)."""
    if rnd.clock_started_at is None:
        return 0.0
    until = rnd.clock_paused_at or at
    return max(0.0, (until - rnd.clock_started_at).total_seconds() - rnd.clock_paused_seconds)


def state(t: Tournament, rnd: Round, at: datetime | None = None) -> ClockState | None:
    """The round's clock at ``at`` (now), or None when the tournament's matches are not by time."""
    minutes = minutes_of(t)
    if minutes is None:
        return None
    at = at or now()
    left = minutes * 60 - elapsed(rnd, at)
    return ClockState(
        minutes=minutes,
        started=rnd.clock_started_at is not None,
        paused=rnd.clock_paused_at is not None,
        remaining=max(0, int(left + 0.999)),  # a started second counts as left
        last_deal=rnd.last_deal_at is not None,
    )


def _check(t: Tournament, rnd: Round) -> None:
    # two directors' clicks go one after the other, each seeing the other's change (PostgreSQL)
    lock_for_update(rnd, *_CLOCK_COLUMNS)
    if minutes_of(t) is None:
        raise ServiceError(_("This tournament's matches are not played by time."))
    if rnd.status == "closed":
        raise ServiceError(_("The round is closed: its clock no longer runs."))


def start(t: Tournament, rnd: Round, actor: Actor, at: datetime | None = None) -> None:
    _check(t, rnd)
    if rnd.clock_started_at is not None:
        raise ServiceError(_("The round's clock has already started."))
    rnd.clock_started_at = at or now()
    rnd.clock_paused_at = None
    rnd.clock_paused_seconds = 0
    if rnd.status == "seated":
        rnd.status = "started"
    _changed(t, rnd, actor, "clock_start")


def pause(t: Tournament, rnd: Round, actor: Actor, at: datetime | None = None) -> None:
    _check(t, rnd)
    if rnd.clock_started_at is None:
        raise ServiceError(_("The round's clock has not started yet."))
    if rnd.clock_paused_at is not None:
        raise ServiceError(_("The round's clock is already paused."))
    rnd.clock_paused_at = at or now()
    _changed(t, rnd, actor, "clock_pause")


def resume(t: Tournament, rnd: Round, actor: Actor, at: datetime | None = None) -> None:
    _check(t, rnd)
    if rnd.clock_paused_at is None:
        raise ServiceError(_("The round's clock is not paused."))
    at = at or now()
    rnd.clock_paused_seconds += max(0, int((at - rnd.clock_paused_at).total_seconds()))
    rnd.clock_paused_at = None
    _changed(t, rnd, actor, "clock_resume")


def call_last_deal(t: Tournament, rnd: Round, actor: Actor, at: datetime | None = None) -> None:
    """Time is up: every table of the round finishes the deal in progress and starts no new one.
    A paper table may record one more deal (the one being played when the call came); an
    online table finishes its deal in progress, or stops at once between two deals."""
    _check(t, rnd)
    if rnd.clock_started_at is None:
        raise ServiceError(_("The round's clock has not started yet."))
    if rnd.last_deal_at is not None:
        raise ServiceError(_("The last deal has already been called."))
    at = at or now()
    rnd.last_deal_at = at
    if rnd.clock_paused_at is not None:  # the call ends any pause: the clock is spent
        rnd.clock_paused_seconds += max(0, int((at - rnd.clock_paused_at).total_seconds()))
        rnd.clock_paused_at = None
    for tab in rnd.tables:
        if tab.kind == "bye" or tab.forfeit is not None or tab.finished:
            continue
        recorded = len(tab.deals)
        if tab.mode == "online":
            in_progress = online_tables().deal_unrecorded(tab)
            tab.last_deal = recorded + (1 if in_progress else 0)
        else:
            tab.last_deal = recorded + 1
    _changed(t, rnd, actor, "last_deal")


def _changed(t: Tournament, rnd: Round, actor: Actor, action: str) -> None:
    t.bump()
    audit(
        t,
        actor,
        action,
        place(rnd.number),
        None,
        {
            "clock_started_at": _iso(rnd.clock_started_at),
            "clock_paused_at": _iso(rnd.clock_paused_at),
            "clock_paused_seconds": rnd.clock_paused_seconds,
            "last_deal_at": _iso(rnd.last_deal_at),
        },
    )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value is not None else None
