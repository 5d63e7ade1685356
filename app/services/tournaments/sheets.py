"""Score sheets (记分表): recording, correcting and removing deals, finishing and forfeiting a
table. A deal is written only if the whole table still derives without an error (the new deal and
every deal after it), so nothing is half-saved; every change leaves an audit entry. Typed deals
(``source="paper"``) and deals recorded by the engine at an online table (``source="online"``)
take the same path, ``record_deal``."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Protocol

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from engine.scoring import ATTACKERS, DECLARER, TAKEBACK

from ...competition import model as cm
from ...competition.hundred_file import load_hundred_deal
from ...competition.matches import FixedMatch, deal_issues
from ...competition.standings import SheetTable
from ...competition.tfile import TournamentFileError, dump_deal, load_deal
from ...db import lock_for_update
from ...extensions import db
from ...models import AuditEntry, Club, Deal, Round, Table, Tournament, utcnow
from .. import ServiceError
from .audit import Actor, audit, place
from .issues import issue_text, later_text
from .rows import (
    deal_columns,
    deal_from_row,
    deal_row,
    derive_row_table,
    hundred_rules_of,
    variant_of,
)


class DealErrors(ServiceError):
    """A deal refused; ``fields`` maps form field names to messages ("" for the whole deal)."""

    def __init__(self, fields: dict[str, str]) -> None:
        first = next(iter(fields.values()), "")
        super().__init__(first, next(iter(fields), None) or None)
        self.fields = fields


@dataclass(frozen=True)
class OnlineGame:
    """What an online table's game holds: deals recorded on the sheet, a deal in progress."""

    table: int
    played: int
    in_progress: bool
    moves: bool


class OnlineTables(Protocol):
    """What the tournament services ask of, and announce to, the tables played online: the
    sheets here, the rounds (``rounds``: pairing again), the clock (``clock``: the last deal)
    and the table cards (``printouts``). The online package (``app.services.online.guards``)
    answers by ``listen``: no module of ``app.services.tournaments`` imports it, so the
    tournaments can be read, and run, without the online tables."""

    def deal_in_play(self, tab: Table) -> bool:
        """An online deal is under way at ``tab`` beyond the recorded ones."""
        ...

    def deal_unrecorded(self, tab: Table) -> bool:
        """The latest online deal of ``tab`` is dealt and not yet on its sheet (nor played
        out): the round's last deal, when called now, is that one."""
        ...

    def game_of(self, tab: Table) -> OnlineGame | None:
        """The online game of ``tab``, None when it is not online or has no deal yet."""
        ...

    def repair_warning(self, game: OnlineGame) -> str:
        """What pairing the round again would discard of ``game``, in the reader's language."""
        ...

    def discard(self, tab: Table) -> dict[str, Any]:
        """Delete the online deals of ``tab``; return their log (for the audit entry)."""
        ...

    def seat_links(self, tab: Table, club: Club) -> list[tuple[str, str]]:
        """Each seat of the online table ``tab``: the address that plays it, and the name of
        the member bound to it ("" for a guest's link)."""
        ...

    def forfeit(
        self, t: Tournament, tab: Table, side: int | None, actor: Actor, confirm: bool
    ) -> None:
        """A side of the online table ``tab`` did not play (None: it did after all): the
        online game stops (or starts again), refused with ``ServiceError``."""
        ...


_listener: list[OnlineTables] = []


def listen(online: OnlineTables) -> None:
    """The online tables take the sheet's announcements (once; a second listener replaces it)."""
    _listener[:] = [online]


def online_tables() -> OnlineTables:
    if not _listener:
        raise RuntimeError(
            "no online tables listen to the score sheets (import app.services.online)"
        )
    return _listener[0]


def sheet(t: Tournament, tab: Table) -> SheetTable:
    """The table's sheet as derived from its recorded deals."""
    return derive_row_table(t, tab)


def may_edit(rnd: Round, actor: Actor) -> bool:
    return rnd.status != "closed" or actor.owner


def _where(tab: Table, deal_index: int | None = None) -> str:
    """The audit target: stored as data, worded in the reader's language when shown."""
    return place(tab.round.number, tab.number, None if deal_index is None else deal_index + 1)


def _check_editable(tab: Table, actor: Actor) -> None:
    if tab.kind == "bye":
        raise DealErrors({"": _("A bye has no deals.")})
    if tab.forfeit is not None:
        raise DealErrors({"": _("This table was forfeited: it has no deals.")})
    if tab.mode == "online":
        raise DealErrors(
            {"": _("This table is played online: its deals are recorded by the game.")}
        )
    if not may_edit(tab.round, actor):
        raise DealErrors({"": _("The round is closed: only the club's owner can correct it.")})


def _mark_started(t: Tournament, tab: Table) -> None:
    """Any result starts the round (it can no longer be paired again); the version moves on."""
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()


def sheet_version(tab: Table) -> str:
    """What a form on the sheet showed: a digest of every recorded deal as the sheet shows it
    (sent back by the deal form and the undo button; a save from an older page is refused)."""
    deals = [dump_deal(deal_from_row(d)) for d in tab.deals]
    text = json.dumps(
        [tab.forfeit, tab.finished, tab.end_reason, deals], sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _check_seen(tab: Table, count: int | None, version: str | None) -> None:
    """Refuse, with nothing saved, a form shown before the sheet changed: another device or
    director recorded, corrected or removed a deal meanwhile. The refusal says what changed
    (deals added or removed when the form said how many it showed) and that nothing was saved."""
    now = len(tab.deals)
    if count is not None and count != now:
        what: str | None = (
            ngettext("%(num)d deal was added", "%(num)d deals were added", now - count)
            if now > count
            else ngettext("%(num)d deal was removed", "%(num)d deals were removed", count - now)
        )
    elif version and version != sheet_version(tab):
        what = (
            _("a deal was corrected, or the match was ended or forfeited")
            if count is not None
            else None
        )
    else:
        return
    if what is None:
        message = ngettext(
            "The sheet changed since you opened it (now %(num)d deal). Nothing was saved: "
            "check it and enter again.",
            "The sheet changed since you opened it (now %(num)d deals). Nothing was saved: "
            "check it and enter again.",
            now,
        )
    else:
        message = ngettext(
            "The sheet changed since you opened it: %(what)s (now %(num)d deal). Nothing was "
            "saved: check it and enter again.",
            "The sheet changed since you opened it: %(what)s (now %(num)d deals). Nothing was "
            "saved: check it and enter again.",
            now,
            what=what,
        )
    raise DealErrors({"": message})


def record_deal(
    t: Tournament,
    tab: Table,
    deal: cm.Deal,
    actor: Actor,
    index: int | None = None,
    source: str = "paper",
    expected_count: int | None = None,
    expected_version: str | None = None,
    reason: str | None = None,
    action: str = "deal",
) -> Deal:
    """Write a deal (append, or replace deal ``index``) if the whole table stays valid.
    ``reason``: why a deal is corrected (optional), shown in the audit trail; ``action``: the
    audit entry's, when it is appended.

    ``expected_count``, ``expected_version``: the number of deals the writer saw and the
    sheet's version (``sheet_version``) then; if the table has changed since (a double click,
    a second device, another director's correction), nothing is written.
    """
    # Two entries at one table (a double click, a second phone) go one after the other: the
    # second waits here for the first and then sees its deal (PostgreSQL; SQLite: BEGIN
    # IMMEDIATE already did this).
    lock_for_update(tab, "deals")
    if source == "paper":
        _check_editable(tab, actor)
    _check_seen(tab, expected_count, expected_version)
    if index is None and tab.end_reason:
        raise DealErrors(
            {
                "": _(
                    "This match was ended early (%(why)s): open it again to add a deal.",
                    why=tab.end_reason,
                )
            }
        )
    if hundred_rules_of(t) is None:  # 打百分's rows are checked with the table below
        field_errors = deal_issues(variant_of(t), deal)
        if field_errors:
            raise DealErrors({issue.field: issue_text(issue) for issue in field_errors})
    current = [deal_from_row(d) for d in tab.deals]
    if index is None:
        pos = len(current)
        candidate = [*current, deal]
    else:
        if not 0 <= index < len(current):
            raise DealErrors({"": _("There is no deal %(n)d at this table.", n=index + 1)})
        pos = index
        candidate = list(current)
        candidate[index] = deal
    derived = derive_row_table(t, tab, candidate)
    if derived.errors:
        raise DealErrors(_deal_issue_fields(derived, pos))
    before = dump_deal(current[pos]) if index is not None else None
    after = dump_deal(deal)
    if index is None:
        row = deal_row(pos, deal, source)
        tab.deals.append(row)
    else:
        row = tab.deals[index]
        for key, value in deal_columns(deal).items():
            setattr(row, key, value)
        row.updated_at = utcnow()
    _mark_started(t, tab)
    db.session.flush()
    if before != after:
        action = action if index is None else _correction(before, after)
        why = " ".join((reason or "").split())[:200] if index is not None else ""
        audit(t, actor, action, _where(tab, pos), before, after, reason=why or None)
    return row


_PENALTY_KEYS = ("penalties", "warnings")


def _correction(before: dict[str, Any] | None, after: dict[str, Any]) -> str:
    """A correction that changed only the deal's penalties or warnings has words of its own."""
    assert before is not None
    rest = {k: v for k, v in before.items() if k not in _PENALTY_KEYS}
    if rest == {k: v for k, v in after.items() if k not in _PENALTY_KEYS}:
        return "correct_penalties"
    return "correct_deal"


# kinds a director may add to a recorded deal of an online table: the engine makes the others
# impossible there (a revoke, a miscount, a wrong kitty), a take-back is conduct
ONLINE_KINDS = (TAKEBACK, cm.WARNING)


def with_penalty(deal: cm.Deal, kind: str, seat: int, fixed_sides: bool) -> cm.Deal:
    """The deal with one more penalty against ``seat``: its side (declarer or attackers) with
    fixed sides, the seat itself in red five."""
    who: str | int = seat
    if fixed_sides:
        who = DECLARER if seat % 2 == deal.declarer else ATTACKERS
    return replace(deal, penalties=(*deal.penalties, (kind, who)))


def add_penalty(
    t: Tournament,
    tab: Table,
    number: int,
    kind: str,
    seat: int,
    reason: str,
    actor: Actor,
) -> None:
    """A director records a conduct penalty (a take-back) or a warning (警告) against a seat on
    recorded deal ``number`` (1-based) of an online table. A penalty enters the result through
    the same scoring as a paper row's; a warning counts for nothing. Refused, with nothing
    saved, if the table would no longer derive, or (fixed sides) if it would change the levels
    or the declarer of a deal that is already being played."""
    lock_for_update(tab, "deals")
    if tab.kind == "bye" or tab.forfeit is not None:
        raise DealErrors({"": _("This table has no deals.")})
    if not may_edit(tab.round, actor):
        raise DealErrors({"": _("The round is closed: only the club's owner can correct it.")})
    v = variant_of(t)
    current = [deal_from_row(d) for d in tab.deals]
    if not 1 <= number <= len(current):
        raise DealErrors({"deal": _("There is no deal %(n)d at this table.", n=number)})
    if kind not in ONLINE_KINDS:
        raise DealErrors(
            {"kind": _("Online, only a take-back (悔牌) or a warning (警告) can be recorded.")}
        )
    if not 0 <= seat < v.players:
        raise DealErrors({"seat": _("Please choose one of the seats.")})
    reason = reason.strip()
    deal = current[number - 1]
    if kind == cm.WARNING:
        if not reason:
            raise DealErrors({"reason": _("Please write the reason for the warning.")})
        new = replace(deal, warnings=(*deal.warnings, (seat, reason)))
    else:
        new = with_penalty(deal, kind, seat, v.fixed_sides)
    issues = deal_issues(v, new)
    if issues:
        raise DealErrors({"reason" if i.field == "warnings" else "": issue_text(i) for i in issues})
    candidate = list(current)
    candidate[number - 1] = new
    old = derive_row_table(t, tab)
    derived = derive_row_table(t, tab, candidate)
    if derived.errors:
        raise DealErrors({"": next(iter(_deal_issue_fields(derived, number - 1).values()))})
    if (
        isinstance(derived, FixedMatch)
        and isinstance(old, FixedMatch)
        and (derived.levels, derived.next_declarer) != (old.levels, old.next_declarer)
        and _playing(tab)
    ):
        raise DealErrors(
            {
                "": _(
                    "The next deal is already being played at the levels before this "
                    "penalty: record it when that deal is over."
                )
            }
        )
    row = tab.deals[number - 1]
    before = {"penalties": row.penalties or []}
    row.penalties = deal_columns(new)["penalties"]
    row.updated_at = utcnow()
    t.bump()
    db.session.flush()
    audit(
        t,
        actor,
        "warning" if kind == cm.WARNING else "penalty",
        _where(tab, number - 1),
        before,
        {"penalties": row.penalties or []},
    )


def _playing(tab: Table) -> bool:
    """An online deal is under way beyond the recorded ones (asked of the online tables)."""
    return tab.mode == "online" and online_tables().deal_in_play(tab)


def delete_last_deal(
    t: Tournament,
    tab: Table,
    actor: Actor,
    expected_count: int | None = None,
    expected_version: str | None = None,
) -> None:
    """Remove the table's last deal: the one the page showed last (``expected_*``), never one
    recorded since."""
    lock_for_update(tab, "deals")  # a second removal waits, then is refused (the sheet changed)
    _check_editable(tab, actor)
    _check_seen(tab, expected_count, expected_version)
    if not tab.deals:
        raise DealErrors({"": _("There is no deal to remove.")})
    row = tab.deals[-1]
    before = dump_deal(deal_from_row(row))
    tab.deals.remove(row)
    db.session.delete(row)
    t.bump()
    db.session.flush()
    # the entry keeps the whole deal: ``restore_deal`` puts it back from there
    audit(t, actor, "delete_deal", _where(tab, row.index), before, None)


def _table_entries(t: Tournament, tab: Table) -> list[tuple[AuditEntry, int]]:
    """The table's deal removals and restores in the trail, newest first, each with its deal's
    0-based index."""
    rows = db.session.scalars(
        select(AuditEntry)
        .where(
            AuditEntry.tournament_id == t.id,
            AuditEntry.action.in_(("delete_deal", "restore_deal")),
            # not a removal at the table of that number in a seating paired again since
            AuditEntry.at >= tab.round.created_at,
        )
        .order_by(AuditEntry.id.desc())
    )
    out = []
    for e in rows:
        try:
            where = json.loads(e.target)
        except ValueError:
            continue
        if (
            isinstance(where, dict)
            and where.get("round") == tab.round.number
            and where.get("table") == tab.number
            and isinstance(where.get("deal"), int)
        ):
            out.append((e, where["deal"] - 1))
    return out


def removed_deal(t: Tournament, tab: Table) -> AuditEntry | None:
    """The newest removal of a deal of this table not restored since: the sheet's undo (a
    restore of deal n is the newest entry on deal n after its removal)."""
    restored: set[int] = set()
    for e, index in _table_entries(t, tab):
        if e.action == "restore_deal":
            restored.add(index)
        elif index in restored:
            restored.discard(index)
        else:
            return e
    return None


def may_restore(t: Tournament, tab: Table) -> AuditEntry | None:
    """The removal the sheet offers to undo: only while its deal's place is the table's next."""
    e = removed_deal(t, tab)
    if e is None or json.loads(e.target)["deal"] - 1 != len(tab.deals):
        return None
    return e


def restore_deal(
    t: Tournament,
    tab: Table,
    actor: Actor,
    entry_id: int,
    expected_count: int | None = None,
    expected_version: str | None = None,
) -> None:
    """Put back the deal removed by audit entry ``entry_id`` as it was, at its place: refused,
    nothing changed, if a deal has been entered at that place since (a restore never overwrites
    a deal), if it was restored already, or if the table no longer takes it as it is."""
    lock_for_update(tab, "deals")
    _check_editable(tab, actor)
    e = removed_deal(t, tab)
    if e is None or e.id != entry_id:
        raise DealErrors(
            {"": _("This deal was restored already, or another was removed since: look again.")}
        )
    index = json.loads(e.target)["deal"] - 1
    if len(tab.deals) > index:
        raise DealErrors(
            {
                "": _(
                    "Deal %(n)d cannot be restored: another deal %(n)d was entered at this table "
                    "since. Nothing was changed.",
                    n=index + 1,
                )
            }
        )
    if len(tab.deals) < index:
        raise DealErrors(
            {"": _("Restore deal %(n)d first: this deal came after it.", n=len(tab.deals) + 1)}
        )
    try:
        rules = hundred_rules_of(t)
        deal: cm.Deal
        if rules is not None:
            deal = load_hundred_deal(e.before, rules)
        else:
            deal = load_deal(e.before, variant_of(t))
    except TournamentFileError as error:
        raise DealErrors(
            {"": _("This deal cannot be restored: %(why)s.", why=str(error))}
        ) from None
    record_deal(
        t,
        tab,
        deal,
        actor,
        expected_count=expected_count,
        expected_version=expected_version,
        action="restore_deal",
    )


def _deal_issue_fields(derived: SheetTable, pos: int) -> dict[str, str]:
    """The derivation's issues of deal ``pos`` on their fields; an issue it causes in a later
    deal on the deal as a whole."""
    out: dict[str, str] = {}
    for issue in derived.errors:
        if issue.index == pos:
            out.setdefault(issue.field, issue_text(issue))
        elif issue.index > pos:
            out.setdefault("", later_text(issue))
    return out or {"": issue_text(derived.errors[0])}


def set_finished(
    t: Tournament,
    tab: Table,
    finished: bool,
    actor: Actor,
    expected_version: str | None = None,
) -> None:
    """End (or open again) a match by time or to A; opening a match by deals that was ended
    early (``end_early``) plays it on to its last deal."""
    lock_for_update(tab, "deals")
    _check_editable(tab, actor)
    _check_seen(tab, None, expected_version)
    if tab.finished == finished:
        return
    if finished and "deals" in t.match:
        raise ServiceError(_("A match of a number of deals is ended early with a reason."))
    before = {"finished": tab.finished}
    tab.finished = finished
    tab.end_reason = None
    _mark_started(t, tab)
    audit(
        t,
        actor,
        "finish" if finished else "unfinish",
        _where(tab),
        before,
        {"finished": finished},
    )


def may_end_early(t: Tournament, tab: Table) -> bool:
    """A paper match of a number of deals, neither over nor ended, with a deal played (with none
    played the director records a forfeit instead)."""
    deals = t.match.get("deals")
    return (
        deals is not None
        and tab.mode == "paper"
        and tab.kind != "bye"
        and tab.forfeit is None
        and not tab.finished
        and 0 < len(tab.deals) < deals
    )


def end_early(
    t: Tournament,
    tab: Table,
    reason: str,
    actor: Actor,
    expected_version: str | None = None,
) -> None:
    """The director ends a match of a number of deals before its last deal (time ran out, a
    player left): the match counts on the deals played, its levels (or 积分) as they stand, with
    no extra deal; the sheet shows the reason and the trail records it. ``set_finished(False)``
    opens it again while the round is open. An online table is refused: a deal in play there
    is not cut off (pause the table instead)."""
    lock_for_update(tab, "deals")
    if tab.mode == "online":
        raise ServiceError(
            _(
                "This table is played online: its match is not ended early, so that no deal "
                "in play is cut off. Pause the table instead."
            )
        )
    _check_editable(tab, actor)
    _check_seen(tab, None, expected_version)
    reason = " ".join(reason.split())[:200]
    if not reason:
        raise ServiceError(_("Please write why the match ends early."), "reason")
    if tab.finished:
        raise ServiceError(_("This match was ended already."))
    deals = t.match.get("deals")
    if deals is None:
        raise ServiceError(_("Only a match of a number of deals is ended early."))
    if not tab.deals:
        raise ServiceError(
            _("No deal was played at this table: record a forfeit instead of ending it.")
        )
    if len(tab.deals) >= deals:
        raise ServiceError(_("This match is complete already."))
    tab.finished = True
    tab.end_reason = reason
    _mark_started(t, tab)
    audit(
        t,
        actor,
        "end_early",
        _where(tab),
        {"finished": False},
        {"finished": True, "sheet_deals": len(tab.deals)},
        reason=reason,
    )


def set_forfeit(
    t: Tournament, tab: Table, side: int | None, actor: Actor, confirm: bool = False
) -> None:
    """A side did not play. At an online table the game stops (``online.guards``); one with
    moves only with ``confirm``."""
    if tab.mode == "online":
        online_tables().forfeit(t, tab, side, actor, confirm)
        return
    if tab.kind != "sides":
        raise ServiceError(_("Only a table of two sides can be forfeited."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if side is not None and side not in (0, 1):
        raise ServiceError(_("Choose the side that did not play."), "side")
    if side is not None and tab.deals:
        raise ServiceError(_("Deals are entered at this table: remove them before a forfeit."))
    before = tab.forfeit
    tab.forfeit = side
    _mark_started(t, tab)
    audit(t, actor, "forfeit", _where(tab), {"forfeit": before}, {"forfeit": side})
