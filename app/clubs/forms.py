from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from ..forms_common import TOO_LONG, choices

ROLE_LABELS = {
    "player": _l("Player"),
    "director": _l("Director"),
    "owner": _l("Owner"),
}


class ClubForm(FlaskForm):
    name = StringField(
        _l("Club name"),
        validators=[DataRequired(_l("Please fill this in.")), Length(max=80, message=TOO_LONG)],
    )


class AddMemberForm(FlaskForm):
    display_name = StringField(
        _l("Name"),
        validators=[DataRequired(_l("Please fill this in.")), Length(max=80, message=TOO_LONG)],
        description=_l("A member does not need an account; they can claim this name later."),
    )
    role = SelectField(
        _l("Role"),
        choices=choices([("player", ROLE_LABELS["player"]), ("director", ROLE_LABELS["director"])]),
        default="player",
    )


class BulkMembersForm(FlaskForm):
    members = TextAreaField(
        _l("Names, one a line (or CSV: name, contact)"),
        validators=[DataRequired(_l("Please fill this in.")), Length(max=60000, message=TOO_LONG)],
        description=_l("Paste a list from a chat group or a spreadsheet; you see a preview first."),
    )


class RoleForm(FlaskForm):
    role = SelectField(_l("Role"), choices=choices(ROLE_LABELS.items()))


class InviteForm(FlaskForm):
    role = SelectField(
        _l("Role"),
        choices=choices([("player", ROLE_LABELS["player"]), ("director", ROLE_LABELS["director"])]),
        default="player",
    )
    member_id = SelectField(
        _l("For a member already listed (optional)"), coerce=int, validators=[Optional()]
    )


class AcceptInviteForm(FlaskForm):
    claim_member_id = RadioField(_l("Who are you?"), coerce=int, default=0, validators=[Optional()])
    display_name = StringField(
        _l("Your name in this club"), validators=[Length(max=80, message=TOO_LONG)]
    )


class ConfirmForm(FlaskForm):
    """An empty form: a button that posts with the CSRF token."""


__all__ = [
    "AcceptInviteForm",
    "AddMemberForm",
    "BulkMembersForm",
    "ClubForm",
    "ConfirmForm",
    "InviteForm",
    "ROLE_LABELS",
    "RoleForm",
]
