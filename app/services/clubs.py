"""Clubs and their members: create, add by name, invite, claim, change roles, remove.

Permission checks (who may call these) live in ``app.permissions`` and are done by the views;
these functions keep the club's own invariants (unique names, at least one owner, ...).
"""

from __future__ import annotations

import csv
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from sqlalchemy import func, select

from ..competition.names import name_match_key, sorted_names
from ..db import lock_for_update
from ..extensions import db
from ..models import ROLE_RANK, ROLES, Club, Invite, Member, User, utcnow
from . import ServiceError, StaleError, trash, versions
from .text import clean_name, slugify

INVITE_ROLES: tuple[str, ...] = ("player", "director")


def unique_slug(name: str) -> str:
    base = slugify(name)
    slug, n = base, 1
    while db.session.scalar(select(Club.id).where(Club.slug == slug)) is not None:
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_club(user: User, name: str) -> Club:
    """Create a club; its creator becomes its owner."""
    clean = clean_name(name, "name")
    taken = db.session.scalar(select(Club.id).where(func.lower(Club.name) == clean.lower()))
    if taken is not None:
        raise ServiceError(_("A club with this name already exists."), "name")
    club = Club(name=clean, slug=unique_slug(clean))
    db.session.add(club)
    db.session.add(Member(club=club, user=user, display_name=user.display_name, role="owner"))
    db.session.flush()
    return club


def _taken_names(club: Club, removed: bool = False) -> set[str]:
    """The club's member names as ``name_match_key`` compares them (``removed``: those of the
    members removed and not yet purged, whose names stay theirs until then)."""
    names = db.session.scalars(
        select(Member.display_name).where(
            Member.club_id == club.id,
            Member.deleted_at.is_not(None) if removed else Member.deleted_at.is_(None),
        )
    )
    return {name_match_key(n) for n in names}


def removed_name_text() -> str:
    return _(
        "A member removed from the club has this name: restore them from the club's page, or "
        "choose another name."
    )


def _check_name_free(club: Club, name: str, field: str) -> None:
    """Refuse a name a member already has, compared as ``name_match_key`` ("王 伟" is 王伟,
    "ＷＡＮＧ" is Wang): a new member, or a newcomer joining by an invitation."""
    if name_match_key(name) in _taken_names(club):
        raise ServiceError(_("A member of this club already has this name."), field)
    if name_match_key(name) in _taken_names(club, removed=True):
        raise ServiceError(removed_name_text(), field)


def _check_role(role: str, allowed: tuple[str, ...] = ROLES) -> None:
    if role not in allowed:
        raise ServiceError(_("Unknown role."), "role")


def add_member(club: Club, display_name: str, role: str = "player") -> Member:
    """Add a person by name, without an account (they may claim the record later)."""
    name = clean_name(display_name, "display_name")
    _check_role(role, INVITE_ROLES)
    _check_name_free(club, name, "display_name")
    member = Member(club=club, display_name=name, role=role)
    db.session.add(member)
    db.session.flush()
    return member


def owners_count(club: Club) -> int:
    return (
        db.session.scalar(
            select(func.count(Member.id)).where(
                Member.club_id == club.id, Member.role == "owner", Member.deleted_at.is_(None)
            )
        )
        or 0
    )


# --- what the members page showed (no lost updates) ------------------------------------------

_MEMBER_WORDS = {"name": _l("name"), "role": _l("role"), "account": _l("account")}


def _member_fields(member: Member) -> dict[str, object]:
    return {"name": member.display_name, "role": member.role, "account": member.user_id}


def member_version(member: Member) -> str:
    """What a form on one member (its role, its removal) showed: sent back as ``seen``."""
    return versions.version(_member_fields(member))


def check_member_seen(member: Member, seen: str | None) -> None:
    """Refuse a form on ``member`` shown before it changed (another owner, a claimed account)."""
    versions.check_seen(
        _member_fields(member),
        seen,
        lambda c: _(
            "%(name)s was changed by someone else since you opened this page (%(what)s): look "
            "again. Nothing was saved.",
            name=member.display_name,
            what=versions.named(c.keys, _MEMBER_WORDS),
        ),
    )


def _list_fields(club: Club) -> dict[str, object]:
    return {f"m{m.id}": m.display_name for m in sorted(club.members, key=lambda m: m.id)}


def members_version(club: Club) -> str:
    """What a page listing the club's members showed (the bulk add's preview)."""
    return versions.version(_list_fields(club))


def check_members_seen(club: Club, seen: str | None) -> None:
    """Refuse a form shown before members were added, removed or renamed."""
    lock_for_update(club, "members")

    def say(c: versions.Changes) -> str:
        parts = []
        if c.added:
            parts.append(ngettext("%(num)d member added", "%(num)d members added", len(c.added)))
        if c.removed:
            parts.append(
                ngettext("%(num)d member removed", "%(num)d members removed", len(c.removed))
            )
        if c.changed:
            parts.append(
                ngettext("%(num)d member renamed", "%(num)d members renamed", len(c.changed))
            )
        return _(
            "The club's members changed since you opened this page (%(what)s): look again. "
            "Nothing was saved.",
            what=", ".join(parts),
        )

    versions.check_seen(_list_fields(club), seen, say)


def change_role(club: Club, member: Member, role: str, seen: str | None = None) -> None:
    lock_for_update(member)
    check_member_seen(member, seen)
    _check_role(role)
    if member.club_id != club.id:
        raise ServiceError(_("This person is not a member of this club."))
    if member.role == "owner" and role != "owner" and owners_count(club) <= 1:
        raise ServiceError(_("A club needs at least one owner."), "role")
    if role == "owner" and member.user_id is None:
        raise ServiceError(_("Only a member with an account can be an owner."), "role")
    member.role = role


def remove_member(club: Club, member: Member, by: str, seen: str | None = None) -> None:
    """Take the member out of the club, reversibly (``app.services.trash``): the row stays, with
    its name and everything pointing at it (results, ratings, seats), listed on the club's page
    with ``by`` and when; meanwhile it is in no list and its account is no member here."""
    lock_for_update(member)
    check_member_seen(member, seen)
    if member.club_id != club.id or member.deleted_at is not None:
        raise ServiceError(_("This person is not a member of this club."))
    if member.role == "owner" and owners_count(club) <= 1:
        raise ServiceError(_("A club needs at least one owner."))
    trash.hide(member, member.display_name, by, None)
    db.session.flush()
    db.session.expire(club, ["members"])


def restore_member(club: Club, member: Member) -> None:
    """Bring a removed member back, whole (refused once ``trash.KEEP_DAYS`` days have passed)."""
    lock_for_update(member)
    if member.club_id != club.id:
        raise ServiceError(_("This person is not a member of this club."))
    trash.unhide(member, member.display_name)
    db.session.flush()
    db.session.expire(club, ["members"])


def removed_member(club: Club, member_id: int) -> Member | None:
    m = db.session.get(Member, member_id)
    if m is None or m.club_id != club.id or m.deleted_at is None:
        return None
    return m


def _removed_since(club: Club, start: datetime) -> list[trash.Deleted]:
    rows = db.session.scalars(
        select(Member).where(
            Member.club_id == club.id, Member.deleted_at.is_not(None), Member.deleted_at >= start
        )
    )
    return [trash.deleted("member", m, m.display_name) for m in rows]


def _purge_members(cutoff: datetime) -> list[str]:
    old = list(
        db.session.scalars(
            select(Member).where(Member.deleted_at.is_not(None), Member.deleted_at < cutoff)
        )
    )
    names = [m.display_name for m in old]
    for m in old:
        # results keep the name as typed (their member_id is SET NULL), as before this undo
        db.session.delete(m)
    db.session.flush()
    return names


MEMBER_KIND = trash.Kind(_removed_since, _purge_members)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_invite(
    club: Club, by: User, role: str = "player", member: Member | None = None
) -> tuple[Invite, str]:
    """Make an invitation link. Returns the invite and its token (shown once, never stored)."""
    if member is not None:
        if member.club_id != club.id:
            raise ServiceError(_("This person is not a member of this club."), "member_id")
        if member.user_id is not None:
            raise ServiceError(_("This member already has an account."), "member_id")
        role = member.role
    else:
        _check_role(role, INVITE_ROLES)
    token = secrets.token_urlsafe(24)
    invite = Invite(
        club=club,
        token_hash=_hash_token(token),
        role=role,
        member=member,
        created_by_id=by.id,
        expires_at=utcnow() + timedelta(days=current_app.config["INVITE_DAYS"]),
    )
    db.session.add(invite)
    db.session.flush()
    return invite, token


def find_invite(token: str, now: datetime | None = None) -> Invite | None:
    """The usable invite for this token, or None (unknown, expired, revoked or used)."""
    if not token or len(token) > 100:
        return None
    invite = db.session.scalar(select(Invite).where(Invite.token_hash == _hash_token(token)))
    if invite is None or not invite.usable(now or utcnow()):
        return None
    if invite.member is not None and invite.member.deleted_at is not None:
        return None  # its member was removed from the club
    return invite


def member_names(club: Club) -> list[str]:
    """The club's member names in the app's name order: the pickers' suggestions."""
    return sorted_names((m.display_name for m in club.members), lambda n: n)


def unclaimed_members(club: Club) -> list[Member]:
    """The club's members without an account, in the app's name order (``sorted_names``)."""
    rows = db.session.scalars(
        select(Member).where(
            Member.club_id == club.id, Member.user_id.is_(None), Member.deleted_at.is_(None)
        )
    )
    return sorted_names(rows, lambda m: m.display_name)


def claimable_members(invite: Invite) -> list[Member]:
    """Account-less members an open invitation may claim: none above the link's own role (a
    player link shared in a group chat must not make its reader the club's director)."""
    if invite.member is not None:
        return []
    rank = ROLE_RANK[invite.role]
    return [m for m in unclaimed_members(invite.club) if ROLE_RANK[m.role] <= rank]


def membership(user: User, club: Club) -> Member | None:
    return db.session.scalar(
        select(Member).where(
            Member.club_id == club.id, Member.user_id == user.id, Member.deleted_at.is_(None)
        )
    )


def _removed_membership(user: User, club: Club) -> Member | None:
    return db.session.scalar(
        select(Member).where(
            Member.club_id == club.id, Member.user_id == user.id, Member.deleted_at.is_not(None)
        )
    )


def claimed_text(member: Member) -> str:
    """Why a name chosen on an older page cannot be claimed."""
    return _(
        "%(name)s was claimed by someone else since you opened this page: choose again. "
        "Nothing was saved.",
        name=member.display_name,
    )


def accept_invite(
    invite: Invite, user: User, claim_member_id: int | None = None, display_name: str | None = None
) -> Member:
    """Join the invite's club: claim the invite's member, an unclaimed member, or join anew."""
    club = invite.club
    if membership(user, club) is not None:
        raise ServiceError(_("You are already a member of this club."))
    if _removed_membership(user, club) is not None:
        raise ServiceError(
            _(
                "You were removed from this club: an owner can restore your membership from the "
                "club's page."
            )
        )
    now = utcnow()
    if invite.member is not None:
        member = invite.member
        if member.user_id is not None:
            raise ServiceError(_("This member already has an account."))
        member.user_id = user.id
    elif claim_member_id:
        found = db.session.scalar(
            select(Member).where(
                Member.id == claim_member_id,
                Member.club_id == club.id,
                Member.deleted_at.is_(None),
            )
        )
        if found is not None:
            # two people claiming one name at once: the second waits here, then is refused
            lock_for_update(found, "user_id")
            if found.user_id is not None:
                raise StaleError(claimed_text(found), "claim_member_id")
        if found is None or ROLE_RANK[found.role] > ROLE_RANK[invite.role]:
            raise ServiceError(_("Please choose a name from the list."), "claim_member_id")
        member = found
        member.user_id = user.id
    else:
        name = clean_name(display_name or user.display_name, "display_name")
        _check_name_free(club, name, "display_name")
        member = Member(club=club, user_id=user.id, display_name=name, role=invite.role)
        db.session.add(member)
    invite.uses += 1
    invite.used_at = now
    db.session.flush()
    return member


def revoke_invite(club: Club, invite: Invite) -> None:
    if invite.club_id != club.id:
        raise ServiceError(_("Unknown invitation."))
    invite.revoked = True


def active_invites(club: Club) -> list[Invite]:
    now = utcnow()
    invites = db.session.scalars(
        select(Invite).where(Invite.club_id == club.id).order_by(Invite.created_at.desc())
    )
    return [i for i in invites if i.usable(now)]


def clubs_of(user: User) -> list[tuple[Club, Member]]:
    rows = db.session.execute(
        select(Club, Member)
        .join(Member, Member.club_id == Club.id)
        .where(Member.user_id == user.id, Member.deleted_at.is_(None))
        .order_by(Club.name)
    )
    return [(row[0], row[1]) for row in rows]


# --- adding many members at once ------------------------------------------------------------

MAX_BULK_LINES = 500


@dataclass(frozen=True)
class MemberLine:
    """One line of a pasted member list, as the preview shows it."""

    number: int  # 1-based line number in what was pasted
    name: str
    contact: str | None
    problem: str | None  # why the line is not added (translated), or None: it will be added


def parse_member_list(club: Club, text: str) -> list[MemberLine]:
    """Read a pasted list: one name a line, or CSV lines ``name, contact`` (a header line
    ``name,contact`` / ``姓名,联系方式`` is skipped). Names already in the club, or twice in the
    list, are refused by name (compared as ``name_match_key``), and so is anything
    ``clean_name`` refuses."""
    taken = _taken_names(club)
    removed = _taken_names(club, removed=True)
    seen: set[str] = set()
    out: list[MemberLine] = []
    raw_lines = (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(raw_lines, 1):
        if not raw.strip():
            continue
        if len(out) >= MAX_BULK_LINES:
            out.append(
                MemberLine(
                    number,
                    raw.strip()[:80],
                    None,
                    _(
                        "At most %(n)d members at once: add the rest in another paste.",
                        n=MAX_BULK_LINES,
                    ),
                )
            )
            break
        cells = next(csv.reader([raw.replace("\t", ",").replace("，", ",")]), [])
        name_cell = cells[0] if cells else ""
        contact = ",".join(cells[1:]).strip() or None
        if not out and number == 1 and name_cell.strip().lower() in ("name", "姓名", "名字"):
            continue  # a header line
        problem: str | None = None
        name = name_cell.strip()
        try:
            name = clean_name(name_cell, "members")
        except ServiceError as e:
            problem = e.message
        if problem is None and contact is not None and len(contact) > 120:
            problem = _("The contact is longer than 120 characters.")
        elif (
            problem is None
            and contact is not None
            and any(unicodedata.category(ch).startswith("C") for ch in contact)
        ):
            problem = _("The contact contains invisible control characters.")
        if problem is None and name_match_key(name) in taken:
            problem = _("Already a member of the club.")
        elif problem is None and name_match_key(name) in removed:
            problem = removed_name_text()
        elif problem is None and name_match_key(name) in seen:
            problem = _("Twice in this list.")
        if problem is None:
            seen.add(name_match_key(name))
        out.append(MemberLine(number, name[:80], contact, problem))
    return out


def add_members(club: Club, lines: list[MemberLine]) -> list[Member]:
    """Add every line without a problem (as players without an account); nothing else."""
    added = []
    for line in lines:
        if line.problem is not None:
            continue
        member = Member(club=club, display_name=line.name, contact=line.contact, role="player")
        db.session.add(member)
        added.append(member)
    db.session.flush()
    return added
