"""Failed throws (甩牌失败) as the table announces them: the lead of a trick that tried more
cards than it could hold, what it had to play instead and what the failure costs, the moment it
happens (on the felt and in the previous trick) and in the deal's summary.

What it costs is the engine's rule (``engine.scoring.throw_penalty_points``, RULES.md): in 升级
10 points per failed throw (or per card taken back, ``throw_penalty: ten_per_card``; nothing
with ``none``), to the attackers for a declarer's throw and off them for an attacker's, at most
three per side and deal; in 红五 −4 积分 for the thrower and +1 for each other player; in
120分 a misplay (吃苍蝇) that sends the other side up one more level."""

from __future__ import annotations

from typing import Any

from engine.deal import Deal, Record
from engine.scoring import MAX_PENALTIES_PER_SIDE, throw_penalty_points
from engine.variants import TRACTOR

from .cards import faces_of


def _plays(deal: Deal) -> list[Record]:
    return [rec for rec in deal.log if rec.kind == "play"]


def failed_throw(deal: Deal, trick: int) -> dict[str, Any] | None:
    """The failed throw that led trick ``trick`` (0 = the first trick of the deal), or None.
    Every trick has one play per seat, so its lead is play ``trick × n`` of the log."""
    plays = _plays(deal)
    i = trick * deal.n
    if i >= len(plays) or plays[i].played is None:
        return None
    return _describe(deal, plays, i)


def failed_throws(deal: Deal) -> list[dict[str, Any]]:
    """Every failed throw of the deal so far, in order."""
    plays = _plays(deal)
    return [_describe(deal, plays, i) for i, rec in enumerate(plays) if rec.played is not None]


def _describe(deal: Deal, plays: list[Record], i: int) -> dict[str, Any]:
    rec = plays[i]
    assert rec.played is not None
    attacker = deal.is_attacker(rec.seat)
    out: dict[str, Any] = {
        "seat": rec.seat,
        "tried": faces_of(deal, rec.cards),
        "forced": faces_of(deal, rec.played),
        "variant": deal.variant.id,
        "attacker": attacker,
        "points": None,
    }
    if deal.variant.id == TRACTOR:
        side = "attackers" if attacker else "declarer"
        earlier = sum(
            1
            for p in plays[:i]
            if p.played is not None and p.kind == "play" and deal.is_attacker(p.seat) == attacker
        )
        taken = len(rec.cards) - len(rec.played)
        cost = abs(throw_penalty_points(deal.variant, {side: [taken]}))
        out["points"] = cost if earlier < MAX_PENALTIES_PER_SIDE else 0
    return out
