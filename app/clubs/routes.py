from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required

from ..competition.names import sorted_names
from ..extensions import db, htmx
from ..forms_common import choices
from ..models import Club, Invite, Member, User
from ..permissions import club_route, get_in_club_or_404, membership
from ..services import ServiceError, trash, versions
from ..services import clubs as svc
from ..web import show_service_error
from . import bp
from .forms import (
    ROLE_LABELS,
    AcceptInviteForm,
    AddMemberForm,
    BulkMembersForm,
    ClubForm,
    ConfirmForm,
    InviteForm,
    RoleForm,
)


def _user() -> User:
    return current_user._get_current_object()  # type: ignore[attr-defined,no-any-return]


@bp.route("/clubs/new", methods=["GET", "POST"])
@login_required
def new_club() -> ResponseReturnValue:
    form = ClubForm()
    if form.validate_on_submit():
        try:
            club = svc.create_club(_user(), form.name.data or "")
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            flash(_("Club created. You are its owner."), "success")
            return redirect(url_for("clubs.club", slug=club.slug))
    status = 200 if request.method == "GET" else 422
    return render_template("clubs/new.html", form=form), status


@bp.get("/clubs/<slug>")
@club_route("player")
def club(club: Club, me: Member) -> ResponseReturnValue:
    return render_template("clubs/club.html", club=club, me=me)


def _members_context(club: Club, me: Member, add_form: AddMemberForm | None = None) -> dict:
    return {
        "club": club,
        "me": me,
        "members": sorted_names(club.members, lambda m: m.display_name),
        "add_form": add_form or AddMemberForm(formdata=None),
        "role_labels": ROLE_LABELS,
        "member_version": svc.member_version,
    }


@bp.get("/clubs/<slug>/members")
@club_route("player")
def members(club: Club, me: Member) -> ResponseReturnValue:
    return render_template("clubs/members.html", **_members_context(club, me))


@bp.post("/clubs/<slug>/members")
@club_route("owner")
def add_member(club: Club, me: Member) -> ResponseReturnValue:
    form = AddMemberForm()
    ok = False
    added = ""
    if form.validate_on_submit():
        try:
            member = svc.add_member(club, form.display_name.data or "", form.role.data or "player")
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            ok = True
            added = _("%(name)s added.", name=member.display_name)
    if htmx:
        # htmx swaps 200 answers only: errors come back as 200 with the messages on the field.
        db.session.expire(club)
        ctx = _members_context(club, me, None if ok else form)
        return render_template("clubs/_members.html", status=added if ok else None, **ctx)
    if ok:
        flash(added, "success")
        return redirect(url_for("clubs.members", slug=club.slug))
    return render_template("clubs/members.html", **_members_context(club, me, form)), 422


@bp.route("/clubs/<slug>/members/bulk", methods=["GET", "POST"])
@club_route("owner")
def bulk_members(club: Club, me: Member) -> ResponseReturnValue:
    """Paste a list of names (or CSV lines name, contact): a preview first, then add the lines
    marked new; names already in the club or twice in the list are refused by name."""
    form = BulkMembersForm(formdata=request.form if request.method == "POST" else None)
    lines: list[svc.MemberLine] = []
    status = 200
    if request.method == "POST":
        if not form.validate():
            status = 422
        else:
            lines = svc.parse_member_list(club, form.members.data or "")
            adding = request.form.get("action") == "add" and any(x.problem is None for x in lines)
            try:
                if adding:
                    svc.check_members_seen(club, versions.seen_of(request.form))
            except ServiceError as error:
                flash(error.message, "error")  # the preview below is made afresh
                adding, status = False, 409
            if adding:
                added = svc.add_members(club, lines)
                db.session.commit()
                flash(
                    ngettext("%(num)d member added.", "%(num)d members added.", len(added)),
                    "success",
                )
                return redirect(url_for("clubs.members", slug=club.slug), 303)
            if not any(x.problem is None for x in lines):
                status = 422
    return render_template(
        "clubs/bulk_members.html",
        club=club,
        me=me,
        form=form,
        lines=lines,
        new=sum(1 for x in lines if x.problem is None),
        seen=svc.members_version(club),
    ), status


def _member_or_gone(club: Club, member_id: int) -> Member | None:
    """The club's member ``member_id``; None, said on the page, when it is gone and the form
    came from the members page (its ``seen``: another owner removed it after the page was
    shown); a request that shows no page's version gets a plain 404 (a guessed id)."""
    member = db.session.get(Member, member_id)
    if member is None or member.club_id != club.id or member.deleted_at is not None:
        if versions.seen_of(request.form) is None:
            abort(404)
        flash(
            _(
                "This member was removed from the club since you opened this page: look "
                "again. Nothing was saved."
            ),
            "error",
        )
        return None
    return member


@bp.post("/clubs/<slug>/members/<int:member_id>/role")
@club_route("owner")
def change_role(club: Club, me: Member, member_id: int) -> ResponseReturnValue:
    member = _member_or_gone(club, member_id)
    form = RoleForm()
    if member is None:
        return redirect(url_for("clubs.members", slug=club.slug)), 303
    if not form.validate_on_submit():
        flash(_("Unknown role."), "error")
        return redirect(url_for("clubs.members", slug=club.slug)), 303
    try:
        svc.change_role(club, member, form.role.data or "", versions.seen_of(request.form))
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
    else:
        db.session.commit()
        flash(
            _(
                "%(name)s is now: %(role)s.",
                name=member.display_name,
                role=str(ROLE_LABELS[member.role]),
            ),
            "success",
        )
    return redirect(url_for("clubs.members", slug=club.slug)), 303


@bp.post("/clubs/<slug>/members/<int:member_id>/remove")
@club_route("owner")
def remove_member(club: Club, me: Member, member_id: int) -> ResponseReturnValue:
    member = _member_or_gone(club, member_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    if member is None:
        return redirect(url_for("clubs.members", slug=club.slug)), 303
    name = member.display_name
    try:
        svc.remove_member(club, member, me.display_name, versions.seen_of(request.form))
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
    else:
        db.session.commit()
        flash(
            _(
                "%(name)s removed from the club. You can restore them, with their results, from "
                "the club's page for %(n)d days.",
                name=name,
                n=trash.KEEP_DAYS,
            ),
            "success",
        )
    return redirect(url_for("clubs.members", slug=club.slug)), 303


@bp.post("/clubs/<slug>/deleted/members/<int:member_id>/restore")
@club_route("owner")
def restore_member(club: Club, me: Member, member_id: int) -> ResponseReturnValue:
    if not ConfirmForm().validate_on_submit():
        abort(400)
    member = svc.removed_member(club, member_id)
    if member is None:
        abort(404)
    name = member.display_name
    try:
        svc.restore_member(club, member)
    except ServiceError as error:
        db.session.rollback()
        flash(error.message, "error")
        return redirect(url_for("clubs.club", slug=club.slug) + "#deleted", 303)
    db.session.commit()
    flash(_("%(name)s is a member of the club again, with their results.", name=name), "success")
    return redirect(url_for("clubs.members", slug=club.slug), 303)


def _invite_form(club: Club, formdata: bool = True) -> InviteForm:
    form = InviteForm() if formdata else InviteForm(formdata=None)
    form.member_id.choices = choices(
        [(0, _("— anyone with the link (new member) —"))]
        + [(m.id, m.display_name) for m in svc.unclaimed_members(club)]
    )
    return form


@bp.route("/clubs/<slug>/invites", methods=["GET", "POST"])
@club_route("owner")
def invites(club: Club, me: Member) -> ResponseReturnValue:
    form = _invite_form(club, formdata=request.method == "POST")
    link: str | None = None
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            target = None
            if form.member_id.data:
                target = get_in_club_or_404(Member, club, form.member_id.data)
            try:
                _invite, token = svc.create_invite(club, _user(), form.role.data or "", target)
            except ServiceError as error:
                db.session.rollback()
                show_service_error(form, error)
                status = 422
            else:
                db.session.commit()
                link = url_for("clubs.accept_invite", token=token, _external=True)
        else:
            status = 422
    return render_template(
        "clubs/invites.html",
        club=club,
        me=me,
        form=form,
        link=link,
        invites=svc.active_invites(club),
        role_labels=ROLE_LABELS,
    ), status


@bp.post("/clubs/<slug>/invites/<int:invite_id>/revoke")
@club_route("owner")
def revoke_invite(club: Club, me: Member, invite_id: int) -> ResponseReturnValue:
    invite = get_in_club_or_404(Invite, club, invite_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    svc.revoke_invite(club, invite)
    db.session.commit()
    flash(_("The invitation link no longer works."), "success")
    return redirect(url_for("clubs.invites", slug=club.slug)), 303


def _claimed_meanwhile(form: AcceptInviteForm, club: Club) -> None:
    """A name chosen on a page shown before someone else claimed it is no longer a choice: say
    so on the field instead of 'not a valid choice'."""
    chosen = form.claim_member_id.data
    member = db.session.get(Member, chosen) if chosen else None
    if member is not None and member.club_id == club.id and member.user_id is not None:
        form.claim_member_id.errors = [svc.claimed_text(member)]


@bp.route("/invite/<token>", methods=["GET", "POST"])
def accept_invite(token: str) -> ResponseReturnValue:
    invite = svc.find_invite(token)
    if invite is None:
        return render_template("clubs/invite_invalid.html"), 404
    club = invite.club
    if not current_user.is_authenticated:
        return render_template("clubs/invite_login.html", club=club, next=request.path)
    if membership(current_user, club) is not None:
        flash(_("You are already a member of this club."), "info")
        return redirect(url_for("clubs.club", slug=club.slug))
    form = AcceptInviteForm()
    unclaimed = svc.claimable_members(invite)
    form.claim_member_id.choices = choices(
        [(0, _("I am new to this club"))] + [(m.id, m.display_name) for m in unclaimed]
    )
    if request.method == "GET":
        form.claim_member_id.data = 0
        form.display_name.data = _user().display_name
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                svc.accept_invite(
                    invite, _user(), form.claim_member_id.data or None, form.display_name.data
                )
            except ServiceError as error:
                db.session.rollback()
                show_service_error(form, error)
                status = 422
            else:
                db.session.commit()
                flash(_("Welcome to %(club)s!", club=club.name), "success")
                return redirect(url_for("clubs.club", slug=club.slug))
        else:
            _claimed_meanwhile(form, club)
            status = 422
    return render_template(
        "clubs/accept_invite.html", club=club, invite=invite, form=form, unclaimed=unclaimed
    ), status
