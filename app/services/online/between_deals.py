"""Between deals: the summary of a played deal and the players' "continue".

After a played deal every seat's page stops on its summary (``deal_summary``). The next deal
starts only when every human seat has pressed Continue (a ``{"kind": "ready"}`` entry in the
finished deal's log, skipped by replay like ``continue``; it moves the state token, so polls see
it) or once the tournament's ``online_pause`` has passed since the deal's last move — always on a
POST (``moves.ready``, or ``moves.next_deal`` sent by the page's countdown), never on a GET. A
table of bots only does not wait.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ...extensions import db
from ...models import OnlineAction, Table, Tournament, utcnow
from .bridge import READY, TRACTOR, TRICKS, Live, next_deal_setup, points_of, throw_penalty_points
from .cards import card_face, faces_of
from .throws import failed_throws


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
    return next_deal_setup(t, tab, live.deal, 0, live.row.number + 1) is None


def deal_summary(live: Live) -> dict[str, Any] | None:
    """What a played deal came to, the same for every seat and spectator: every
    trick with its winner and points, the kitty with its multiplier, failed throws with the
    cards forced, the totals and the result. The kitty is turned face up once the deal is over
    (replays show every card then too); it counts only when the attackers won the last trick
    (抠底). None while the deal is not played out."""
    if live.family != TRICKS:
        return None  # 争上游's end of the deal: climbing_pages.deal_end
    deal = live.trick
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
