"""Take-backs (悔牌) at an online table.

The rule online: a human seat may ask to take back its own last play while that play is still
the last move of the deal and its trick is still open — the next seat has not played yet (at
the physical table RULES §7 penalises taking a card back *after* the next player has played;
online the next seat is asked instead, so nobody's later play is ever undone). A play that
closes a trick cannot be taken back, nor a play that a bot at the next seat has answered
already (a bot plays at once). The next seat — in 升级 and 120分 always an opponent, in 红五 the
next player — accepts or refuses; its own play meanwhile refuses it too. One ask per play.

The log stays append-only: the ask is ``{"kind": "takeback_ask", "seat": s}``; an acceptance
``{"kind": "takeback", "seat": s, "by": n, "of": seq}`` cancels the play at log ``seq`` (replay
skips both: ``cache.engine_records``), and the deal is rebuilt from its log without it — the card
goes back to the hand and the seat plays again; a refusal is ``{"kind": "takeback_refused",
"seat": n, "asker": s}``. In a competition preset (``presets.is_competition``) every accepted
take-back is written on the deal's score sheet row as RULES §7's ``takeback`` penalty against the
asker's side (red five: the seat), with the tournament's ``takeback_effect``; elsewhere it is only
in the log.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from engine.cards import parse_card
from engine.scoring import TAKEBACK as TAKEBACK_PENALTY

from ...competition import model as cm
from ...competition import presets
from ...models import OnlineSeat, Tournament
from ..tournaments.rows import variant_of
from ..tournaments.sheets import with_penalty
from . import advance, bridge, cache, moves
from .cards import faces_of

ASK, ACCEPTED, REFUSED = cache.TAKEBACK_ASK, cache.TAKEBACK, cache.TAKEBACK_REFUSED


def askable(live: bridge.Live, seat: int) -> bool:
    """May ``seat`` ask to take back its last play now?"""
    if live.family != bridge.TRICKS:  # 争上游: no take-backs online (yet)
        return False
    deal = live.trick
    trick = deal.trick
    if deal.outcome is not None or not live.entries or trick is None or not trick.plays:
        return False
    last = live.entries[-1]
    return last["kind"] == "play" and last["seat"] == seat and trick.plays[-1][0] == seat


def pending(live: bridge.Live) -> dict[str, Any] | None:
    """The take-back asked and not answered yet: who asked, who answers, the cards."""
    if live.family != bridge.TRICKS or live.deal.outcome is not None or len(live.entries) < 2:
        return None
    if live.entries[-1]["kind"] != ASK:
        return None
    play = live.entries[-2]
    return {
        "asker": live.entries[-1]["seat"],
        "answers": live.deal.to_act,
        "cards": faces_of(live.trick, [parse_card(c) for c in play.get("cards", [])]),
    }


def refused_by(live: bridge.Live, seat: int) -> int | None:
    """The seat that has just refused ``seat``'s take-back (until the next move)."""
    last = live.entries[-1] if live.entries else None
    if last is None or last["kind"] != REFUSED or last.get("asker") != seat:
        return None
    return int(last["seat"])


def ask(seat_row: OnlineSeat, seen: str) -> None:
    """This seat asks to take back its last play (the next seat answers)."""
    t, tab, live = moves.seat_turn(seat_row, seen)
    if not askable(live, seat_row.seat):
        raise bridge.IllegalMove(
            _(
                "Only your last card can be taken back, before the next player has played "
                "and while its trick is still open."
            )
        )
    live.add({"kind": ASK, "seat": seat_row.seat}, f"seat {seat_row.seat}")
    advance.advance(t, tab, live)


def answer(seat_row: OnlineSeat, seen: str, accept: bool) -> None:
    """The next seat accepts the take-back asked (the deal is rebuilt without that play, the
    asker plays again) or refuses it."""
    t, tab, live = moves.seat_turn(seat_row, seen)
    asked = pending(live)
    if asked is None or asked["answers"] != seat_row.seat:
        raise bridge.IllegalMove(_("There is no take-back for you to answer."))
    asker = asked["asker"]
    me = seat_row.seat
    if accept:
        of = len(live.entries) - 1  # the play's seq: the entry just before the ask
        live.add({"kind": ACCEPTED, "seat": asker, "by": me, "of": of}, f"seat {me}")
        live.deal = cache.replayed(live.row.setup, live.entries)
    else:
        live.add({"kind": REFUSED, "seat": me, "asker": asker}, f"seat {me}")
    advance.advance(t, tab, live)


def accepted(entries: list[dict[str, Any]]) -> list[int]:
    """The seats whose take-backs were accepted in a deal's log, in order."""
    return [e["seat"] for e in entries if e["kind"] == ACCEPTED]


def with_penalties(t: Tournament, live: bridge.Live, deal: cm.Deal) -> cm.Deal:
    """The deal's score sheet row with its accepted take-backs as RULES §7 ``takeback``
    penalties, in a competition preset (elsewhere as it is)."""
    if not presets.is_competition(t.preset) or not accepted(live.entries):
        return deal
    fixed = variant_of(t).fixed_sides
    for seat in accepted(live.entries):
        deal = with_penalty(deal, TAKEBACK_PENALTY, seat, fixed)
    return deal
