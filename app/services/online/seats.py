"""Seat links: each seat of an online table has a secret token; its link shows that seat's view
and accepts that seat's moves, nothing else.

A seat can instead be bound to a club member with an account: that member plays it from their
home page while logged in, and the seat's secret link no longer opens it. The director binds
seats (by default to the seat's own player, when that player is a member with an account) and
can give a guest seat a new link, which ends the old one. Both are in the audit trail.
"""

from __future__ import annotations

import functools
import secrets
from dataclasses import dataclass
from typing import Any

from flask import url_for
from flask_babel import gettext as _
from sqlalchemy import Select, String, bindparam, case, cast, func, select
from sqlalchemy.orm import aliased, joinedload

from ... import qr
from ...competition.model import seats_in_round
from ...competition.names import sorted_names
from ...db import READ_MEMOS, memo
from ...extensions import db
from ...models import (
    Club,
    DuplicateEvent,
    DuplicateOnlineTable,
    Entrant,
    EntrantPlayer,
    Member,
    OnlineDeal,
    OnlineSeat,
    Round,
    Substitution,
    Table,
    Tournament,
    User,
)
from .. import ServiceError
from ..tournaments.audit import Actor, audit, place
from ..tournaments.rows import derive_row_table, table_entrants
from ..tournaments.sheets import may_edit

TOKEN_BYTES = 18  # 144 bits: a seat's link cannot be guessed


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def seats_of(tab: Table) -> list[OnlineSeat]:
    return list(
        db.session.scalars(
            select(OnlineSeat).where(OnlineSeat.table_id == tab.id).order_by(OnlineSeat.seat)
        )
    )


def with_table() -> Any:
    """The loader option that brings a seat's table, round and tournament in the seat's own
    query (the seat keeps them: ``db.session.get`` of any of them then needs no query)."""
    return joinedload(OnlineSeat.table).joinedload(Table.round).joinedload(Round.tournament)


# The latest deal of each table read with its seat in this transaction (``seat_by_token``), by
# table id: ``bridge.latest`` answers from it instead of a query of its own. session.info lives
# as long as the request's session; the memo ends with the transaction and at any write.
_LATEST = "online_latest_deals"
READ_MEMOS.add(_LATEST)  # forgotten at any write, a row lock, the transaction's end

# (the deal row, the human seats, every seat's bot strength): ``bridge.latest``'s answer
Latest = tuple[OnlineDeal, frozenset[int], dict[int, str]]


def _seats_text(seat: Any, bot: Any, level: Any) -> Any:
    """One seat as ``seat:h|b:level``, in SQL (``latest_of_text`` reads it back)."""
    return cast(seat, String) + ":" + case((bot.is_(True), "b"), else_="h") + ":" + level


def latest_of_text(row: OnlineDeal | None, text: str | None) -> Latest | None:
    """``bridge.latest``'s answer from the deal row and its table's seats as aggregated by
    ``_seat_queries`` (``0:h:normal,1:b:strong,…``)."""
    if row is None:
        return None
    humans: set[int] = set()
    levels: dict[int, str] = {}
    for part in (text or "").split(","):
        if not part:
            continue
        seat, kind, level = part.split(":", 2)
        levels[int(seat)] = level
        if kind == "h":
            humans.add(int(seat))
    return row, frozenset(humans), levels


def remembered_latest(table_id: int) -> Latest | None | bool:
    """The latest deal of ``table_id`` read in this transaction with a seat (False: none, or
    the session holds changes not flushed yet, which a query would flush first)."""
    latest = memo(db.session(), _LATEST)
    if latest is None or table_id not in latest:
        return False
    return latest[table_id]  # type: ignore[no-any-return]


def _remember_latest(table_id: int, got: Latest | None) -> None:
    db.session().info.setdefault(_LATEST, {})[table_id] = got


@functools.cache
def _seat_queries() -> tuple[
    Select[OnlineSeat, OnlineDeal, str], Select[OnlineSeat, OnlineDeal, str]
]:
    """A seat by its token, and by its id, each with its table, round and tournament, its
    table's latest deal and every seat of that table (who is human, the bots' strengths): what
    a seat's page shows comes from this one query. Built once (building a statement costs more
    than running it)."""
    newest = (
        select(OnlineDeal.id)
        .where(OnlineDeal.table_id == OnlineSeat.table_id)
        .order_by(OnlineDeal.number.desc())
        .limit(1)
        .correlate(OnlineSeat)
        .scalar_subquery()
    )
    other = aliased(OnlineSeat)
    seats_text = (
        select(func.aggregate_strings(_seats_text(other.seat, other.bot, other.bot_level), ","))
        .where(other.table_id == OnlineSeat.table_id)
        .correlate(OnlineSeat)
        .scalar_subquery()
    )
    by = (
        select(OnlineSeat, OnlineDeal, seats_text)
        .outerjoin(OnlineDeal, OnlineDeal.id == newest)
        .options(with_table())
    )
    return (
        by.where(OnlineSeat.token == bindparam("token")),
        by.where(OnlineSeat.id == bindparam("seat")),
    )


def _seat_read(
    query: Select[OnlineSeat, OnlineDeal, str], params: dict[str, Any]
) -> OnlineSeat | None:
    got = db.session.execute(query, params).first()
    if got is None:
        return None
    seat, row, text = got
    _remember_latest(seat.table_id, latest_of_text(row, text))
    return seat  # type: ignore[no-any-return]


def seat_by_token(token: str) -> OnlineSeat | None:
    if not token or len(token) > 40:
        return None
    return _seat_read(_seat_queries()[0], {"token": token})


def was_replaced(token: str) -> bool:
    """Whether ``token`` is a seat link the director has replaced (the seat's previous one)."""
    if not token or len(token) > 40:
        return False
    found = db.session.scalar(
        select(OnlineSeat.id).where(OnlineSeat.replaced_token == token).limit(1)
    )
    return found is not None


def seat_with_table(seat_id: int) -> OnlineSeat | None:
    """The seat ``seat_id`` read again with its table, round and tournament (one query)."""
    return _seat_read(_seat_queries()[1], {"seat": seat_id})


# --- who sits where -----------------------------------------------------------------------------


def players_in_round(e: Entrant, round_no: int) -> list[EntrantPlayer | Substitution]:
    """The entrant's players of round ``round_no`` as rows, in seat order: a seat's substitute
    from the substitution's round on (``app.competition.model.Entrant.players_in``)."""
    players: list[EntrantPlayer | Substitution] = list(e.players)
    subs = ((s.seat, s.from_round, s) for s in e.substitutions)
    return seats_in_round(players, subs, round_no)


def seat_players(tab: Table) -> list[EntrantPlayer | Substitution | None]:
    """The player at each engine seat in the table's round (a substitute in the seat they
    took): partners opposite (fixed sides, as ``seat_names`` orders them), the single player
    of each entrant otherwise."""
    entrants = table_entrants(tab)
    number = tab.round.number
    if tab.kind == "sides" and len(entrants) == 2:
        a, b = (players_in_round(e, number) for e in entrants)
        out: list[EntrantPlayer | Substitution | None] = []
        for pa, pb in zip(a, b, strict=False):
            out += [pa, pb]
        return out
    firsts = [players_in_round(e, number) for e in entrants]
    return [ps[0] if ps else None for ps in firsts]


def player_key(p: EntrantPlayer | Substitution) -> tuple[str, int]:
    """Tells an entrant's player from a substitute (their ids are of two tables)."""
    return ("sub" if isinstance(p, Substitution) else "player", p.id)


def accounts_of(club: Club) -> list[Member]:
    """The club's members who have an account (only they can be bound to a seat), by name."""
    rows = db.session.scalars(
        select(Member).where(
            Member.club_id == club.id, Member.user_id.is_not(None), Member.deleted_at.is_(None)
        )
    )
    return sorted_names(rows, lambda m: m.display_name)


def suggested_members(tab: Table, club: Club) -> list[int | None]:
    """Per seat: the member id of the seat's own player when that member has an account."""
    with_account = {m.id for m in accounts_of(club)}
    return [
        p.member_id if p is not None and p.member_id in with_account else None
        for p in seat_players(tab)
    ]


# --- the director's changes ---------------------------------------------------------------------


def _where(tab: Table, seat: int) -> str:
    return place(tab.round.number, tab.number, seat=seat + 1)


def seat_to_change(t: Tournament, tab: Table, seat: int, actor: Actor) -> OnlineSeat:
    """A seat of an online table the director may change now (else ``ServiceError``)."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    row = next((s for s in seats_of(tab) if s.seat == seat), None)
    if row is None:
        raise ServiceError(_("There is no such seat at this table."), "seat")
    return row


def seats_changed(tab: Table) -> None:
    """Who plays a seat of ``tab`` changed (a bot handed a seat or a seat handed back, a member
    bound, a link replaced): part of the state token, so every page of the table sees it on
    its next poll."""
    tab.seats_version = (tab.seats_version or 0) + 1


def _member_name(member_id: int | None) -> str | None:
    if member_id is None:
        return None
    m = db.session.get(Member, member_id)
    return m.display_name if m is not None else None


def bind(t: Tournament, tab: Table, seat: int, member_id: int | None, actor: Actor) -> bool:
    """Bind a seat to a member of the tournament's club who has an account (``None``: the seat
    is a guest's, played through its link). Returns whether anything changed."""
    row = seat_to_change(t, tab, seat, actor)
    if member_id is not None:
        member = db.session.get(Member, member_id)
        if member is None or member.club_id != t.club_id or member.deleted_at is not None:
            raise ServiceError(_("This person is not a member of this club."), "member")
        if member.user_id is None:
            raise ServiceError(
                _(
                    "%(name)s has no account yet: a guest link is the way to give them this seat.",
                    name=member.display_name,
                ),
                "member",
            )
        other = db.session.scalar(
            select(OnlineSeat)
            .join(Table, OnlineSeat.table_id == Table.id)
            .where(
                Table.round_id == tab.round_id,
                OnlineSeat.member_id == member.id,
                OnlineSeat.id != row.id,
            )
        )
        if other is not None:
            other_tab = db.session.get(Table, other.table_id)
            assert other_tab is not None
            raise ServiceError(
                _(
                    "%(name)s already plays seat %(s)d of table %(t)d in this round.",
                    name=member.display_name,
                    s=other.seat + 1,
                    t=other_tab.number,
                ),
                "member",
            )
    if row.member_id == member_id:
        return False
    before = _member_name(row.member_id)
    row.member_id = member_id
    seats_changed(tab)
    db.session.flush()
    audit(
        t,
        actor,
        "online_seat",
        _where(tab, seat),
        {"member": before},
        {"member": _member_name(member_id)},
    )
    return True


def bind_defaults(t: Tournament, tab: Table, club: Club, actor: Actor) -> None:
    """Bind every unbound seat whose player is a member with an account to that member (when
    that member plays no other seat of the round); the rest stay guests' seats."""
    for row, member_id in zip(seats_of(tab), suggested_members(tab, club), strict=False):
        if member_id is None or row.member_id is not None:
            continue
        taken = db.session.scalar(
            select(OnlineSeat.id)
            .join(Table, OnlineSeat.table_id == Table.id)
            .where(Table.round_id == tab.round_id, OnlineSeat.member_id == member_id)
        )
        if taken is None:
            bind(t, tab, row.seat, member_id, actor)


def rotate(t: Tournament, tab: Table, seat: int, actor: Actor) -> None:
    """Give a seat a new secret link: the old one stops working at once."""
    row = seat_to_change(t, tab, seat, actor)
    row.replaced_token = row.token  # a page still open on it is told, and nothing more
    row.token = new_token()
    seats_changed(tab)
    db.session.flush()
    # the tokens are secrets: the trail says that the link changed, never what it is
    audit(t, actor, "online_link", _where(tab, seat), None, None)


# --- links ----------------------------------------------------------------------------------------


def guest_url(row: OnlineSeat) -> str:
    return url_for("online.seat", seat_token=row.token, _external=True)


def member_url(row: OnlineSeat, club: Club) -> str:
    return url_for("online.my_seat", slug=club.slug, seat_id=row.id, _external=True)


def link_of(row: OnlineSeat, club: Club) -> str:
    """The address that plays this seat: the member's (log in first) or the guest's secret one."""
    return member_url(row, club) if row.member_id is not None else guest_url(row)


@dataclass(frozen=True)
class SeatLink:
    """One seat as the director's page lists it."""

    row: OnlineSeat
    member: Member | None  # bound: who plays it from their home page
    suggested: Member | None  # the seat's own player, if a member with an account
    url: str
    code: qr.QrSvg  # its QR code
    code_title: str
    # the seat's player when a member of the club, with an account or not: a member without
    # one plays through the guest link but is shown as the member they are
    player: Member | None = None


def seat_links(tab: Table, club: Club) -> list[SeatLink]:
    suggested = suggested_members(tab, club)
    players = seat_players(tab)
    out = []
    for row in seats_of(tab):
        p = players[row.seat] if row.seat < len(players) else None
        player = db.session.get(Member, p.member_id) if p and p.member_id is not None else None
        url = link_of(row, club)
        member = db.session.get(Member, row.member_id) if row.member_id is not None else None
        own = suggested[row.seat] if row.seat < len(suggested) else None
        title = _("QR code of the link of seat %(s)d", s=row.seat + 1)
        out.append(
            SeatLink(
                row,
                member,
                db.session.get(Member, own) if own is not None else None,
                url,
                qr.svg(url),
                title,
                player if player is not None and player.club_id == club.id else None,
            )
        )
    return out


# --- a member's seats -----------------------------------------------------------------------------


def seat_of_member(seat_id: int, me: Member) -> OnlineSeat | None:
    """The seat ``seat_id`` if it is bound to ``me`` at an online table of ``me``'s club."""
    row = _seat_read(_seat_queries()[1], {"seat": seat_id})
    if row is None or row.member_id is None or row.member_id != me.id:
        return None
    tab = db.session.get(Table, row.table_id)
    if tab is None or tab.mode != "online":
        return None
    t = db.session.get(Tournament, tab.round.tournament_id)
    if t is None or t.club_id != me.club_id or t.deleted_at is not None:
        return None
    return row


@dataclass(frozen=True)
class ReadySeat:
    """A seat waiting for its member, as the home page shows it."""

    club: Club
    tournament: Tournament
    round: int
    table: int
    seat: int  # 1-based
    url: str
    event: str | None = None  # a duplicate event's online table: the event's name …
    board: int | None = None  # … and the board it deals (its tournament is hidden)


def ready_for(user: User) -> list[ReadySeat]:
    """The seats bound to ``user`` at online tables still being played (round open, match not
    over), newest round first."""
    rows = db.session.execute(
        select(
            OnlineSeat,
            Table,
            Round,
            Tournament,
            Club,
            DuplicateEvent.name,
            DuplicateOnlineTable.board,
        )
        .join(Member, OnlineSeat.member_id == Member.id)
        .join(Table, OnlineSeat.table_id == Table.id)
        .join(Round, Table.round_id == Round.id)
        .join(Tournament, Round.tournament_id == Tournament.id)
        .join(Club, Tournament.club_id == Club.id)
        .outerjoin(DuplicateOnlineTable, DuplicateOnlineTable.table_id == Table.id)
        .outerjoin(DuplicateEvent, DuplicateEvent.id == DuplicateOnlineTable.event_id)
        .where(
            Member.user_id == user.id,
            Member.club_id == Club.id,
            Member.deleted_at.is_(None),
            Table.mode == "online",
            Table.finished.is_(False),
            Round.status != "closed",
            Tournament.deleted_at.is_(None),
        )
        .order_by(Round.created_at.desc(), Table.number)
    ).all()
    out = []
    for row, tab, rnd, t, club, event, board in rows:
        if db.session.scalar(select(OnlineDeal.id).where(OnlineDeal.table_id == tab.id)) is None:
            continue  # not dealt yet
        if derive_row_table(t, tab).counts:
            continue  # the match is over
        out.append(
            ReadySeat(
                club,
                t,
                rnd.number,
                tab.number,
                row.seat + 1,
                url_for("online.my_seat", slug=club.slug, seat_id=row.id),
                event,
                board,
            )
        )
    return out
