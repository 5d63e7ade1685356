"""What a director's click may not lose: pairing a round again, forfeiting a table or playing it
on paper while its online game has moves is refused with a sentence that says what would be lost;
confirmed, the online game is discarded and its whole log (each deal's seed, setup and action
records) is kept in the audit entry's ``before`` data, under ``online_log``, where ``replay``
reads it back into the engine.

"Moves" are the players' (or bots') decisions and any deal after the first: the draw that runs
by itself when a table goes online is chance, and discarding it loses nothing.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import func, select

from ...competition.tfile import dump_deal
from ...extensions import db
from ...models import Club, Member, OnlineAction, OnlineDeal, Table, Tournament
from .. import ServiceError
from ..tournaments import sheets
from ..tournaments.audit import ONLINE_LOG, Actor, audit, place
from ..tournaments.rows import deal_from_row
from ..tournaments.sheets import OnlineGame, may_edit
from . import bridge, cache, director
from .seats import link_of, seats_of

CHANCE = "chance"
LOG_KEY = ONLINE_LOG  # the audit data key of the discarded online logs


def _deals(tab: Table) -> list[OnlineDeal]:
    return list(
        db.session.scalars(
            select(OnlineDeal).where(OnlineDeal.table_id == tab.id).order_by(OnlineDeal.number)
        )
    )


def game_of(tab: Table) -> OnlineGame | None:
    """The online game of a table, None when it is not online or has no deal yet."""
    if tab.mode != "online":
        return None
    deals = _deals(tab)
    if not deals:
        return None
    decisions = db.session.scalar(
        select(func.count())
        .select_from(OnlineAction)
        .join(OnlineDeal, OnlineAction.deal_id == OnlineDeal.id)
        .where(OnlineDeal.table_id == tab.id, OnlineAction.actor != CHANCE)
    )
    played = sum(1 for d in deals if d.sheet_index is not None)
    in_progress = deals[-1].outcome is None and not tab.finished
    return OnlineGame(tab.number, played, in_progress, bool(decisions) or len(deals) > 1)


def game_words(game: OnlineGame) -> str:
    """ "Table 3 has an online game with 2 deals played and one in progress"."""
    if game.played and game.in_progress:
        return ngettext(
            "Table %(t)d has an online game with %(num)d deal played and one in progress",
            "Table %(t)d has an online game with %(num)d deals played and one in progress",
            game.played,
            t=game.table,
        )
    if game.played:
        return ngettext(
            "Table %(t)d has an online game with %(num)d deal played",
            "Table %(t)d has an online game with %(num)d deals played",
            game.played,
            t=game.table,
        )
    return _("Table %(t)d has an online game in progress", t=game.table)


def repair_warning(game: OnlineGame) -> str:
    return _(
        "%(game)s: pairing again would discard it. "
        "Confirm to discard it; its log is kept in the audit trail.",
        game=game_words(game),
    )


def forfeit_warning(game: OnlineGame) -> str:
    return _(
        "%(game)s: a forfeit would discard it and stop the table. "
        "Confirm to discard it; its log is kept in the audit trail.",
        game=game_words(game),
    )


def paper_warning(game: OnlineGame) -> str:
    return _(
        "%(game)s: playing on paper keeps the recorded deals on the sheet and discards the "
        "rest of the online game. Confirm to discard it; its log is kept in the audit trail.",
        game=game_words(game),
    )


# --- the log, kept and read back ------------------------------------------------------------


def log_of(tab: Table) -> dict[str, Any]:
    """A table's whole online log as plain data: enough to replay every deal in the engine."""
    return {
        "table": tab.number,
        "deals": [
            {
                "number": d.number,
                "seed": d.seed,
                "setup": d.setup,
                "outcome": d.outcome,
                "sheet_index": d.sheet_index,
                "actions": [
                    {"seq": a.seq, "actor": a.actor, "record": dict(a.record)} for a in d.actions
                ],
            }
            for d in _deals(tab)
        ],
    }


def replay(kept: dict[str, Any]) -> cache.GameDeal:
    """The engine deal one kept deal of ``log_of`` replays to."""
    log = [a["record"] for a in sorted(kept["actions"], key=lambda a: a["seq"])]
    return cache.replayed(kept["setup"], log)


def kept_logs(before: Any) -> list[dict[str, Any]]:
    """The online logs an audit entry's ``before`` data keeps (none for other entries)."""
    if isinstance(before, dict) and isinstance(before.get(LOG_KEY), list):
        return list(before[LOG_KEY])
    return []


def discard(tab: Table) -> dict[str, Any]:
    """Delete a table's online deals (their actions go with them); return their log."""
    kept = log_of(tab)
    for row in _deals(tab):
        db.session.delete(row)
    db.session.flush()
    return kept


def check(game: OnlineGame | None, confirm: bool, warning: str) -> None:
    """Refuse (nothing changed) when a game with moves would be lost without confirmation."""
    if game is not None and game.moves and not confirm:
        raise ServiceError(warning, "confirm")


# --- online → paper ---------------------------------------------------------------------------


def switch_paper(t: Tournament, tab: Table, actor: Actor, confirm: bool = False) -> None:
    """The players move to a physical table: the deals recorded online stay on the sheet, the
    rest of the online game is discarded (kept in the audit trail), the seat links stop."""
    if tab.mode != "online":
        raise ServiceError(_("This table is already played on paper."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    game = game_of(tab)
    if game is not None:
        check(game, confirm, paper_warning(game))
    kept = discard(tab)
    for s in seats_of(tab):
        db.session.delete(s)
    tab.mode = "paper"
    if tab.forfeit is not None:
        tab.finished = False  # set only to stop the online game (``forfeit_online``)
    t.bump()
    db.session.flush()
    where = place(tab.round.number, tab.number)
    audit(t, actor, "online_paper", where, {"mode": "online", LOG_KEY: [kept]}, {"mode": "paper"})


# --- a forfeit at an online table ---------------------------------------------------------------


def forfeit_online(
    t: Tournament, tab: Table, side: int | None, actor: Actor, confirm: bool = False
) -> None:
    """A side did not play (on): the online game stops — its deals are discarded from the sheet
    and the log, which the audit entry keeps — and the table is finished, so no bot plays on and
    every seat's page shows the match over. Removing the forfeit deals a fresh game."""
    if tab.kind != "sides":
        raise ServiceError(_("Only a table of two sides can be forfeited."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if side is not None and side not in (0, 1):
        raise ServiceError(_("Choose the side that did not play."), "side")
    before_side = tab.forfeit
    if side == before_side:
        return
    where = place(tab.round.number, tab.number)
    if side is None:
        tab.forfeit = None
        tab.finished = False
        t.bump()
        db.session.flush()
        audit(t, actor, "forfeit", where, {"forfeit": before_side}, {"forfeit": None})
        if not _deals(tab):
            director.start_game(t, tab)
        return
    game = game_of(tab)
    check(game, confirm, forfeit_warning(game) if game is not None else "")
    kept = discard(tab)
    sheet_rows = [dump_deal(deal_from_row(d)) for d in tab.deals]
    for row in list(tab.deals):
        tab.deals.remove(row)
        db.session.delete(row)
    tab.forfeit = side
    tab.finished = True
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    db.session.flush()
    before: dict[str, Any] = {"forfeit": before_side, LOG_KEY: [kept]}
    if sheet_rows:
        before["sheet_deals"] = sheet_rows
    audit(t, actor, "forfeit", where, before, {"forfeit": side})


class _SheetListener:
    """The online tables' answers to the score sheets (``tournaments.sheets.OnlineTables``)."""

    def deal_in_play(self, tab: Table) -> bool:
        game = game_of(tab)
        return game is not None and game.in_progress

    def deal_unrecorded(self, tab: Table) -> bool:
        row = bridge.current_row(tab)
        return row is not None and row.sheet_index is None and row.outcome != "played"

    def game_of(self, tab: Table) -> OnlineGame | None:
        return game_of(tab)

    def repair_warning(self, game: OnlineGame) -> str:
        return repair_warning(game)

    def discard(self, tab: Table) -> dict[str, Any]:
        return discard(tab)

    def seat_links(self, tab: Table, club: Club) -> list[tuple[str, str]]:
        out = []
        for row in seats_of(tab):
            member = db.session.get(Member, row.member_id) if row.member_id is not None else None
            out.append((link_of(row, club), member.display_name if member is not None else ""))
        return out

    def forfeit(
        self, t: Tournament, tab: Table, side: int | None, actor: Actor, confirm: bool
    ) -> None:
        forfeit_online(t, tab, side, actor, confirm)


sheets.listen(_SheetListener())
