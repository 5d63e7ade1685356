from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from ..forms_common import TOO_LONG
from ..passwords import MAX_PASSWORD_LENGTH


def _password_twice(label: str, again: str, name: str) -> tuple[PasswordField, PasswordField]:
    """A new password (not longer than the hashing takes) and the same typed again: the form's
    fields ``name`` and ``confirm``."""
    return (
        PasswordField(
            label,
            validators=[
                DataRequired(_l("Please fill this in.")),
                Length(max=MAX_PASSWORD_LENGTH, message=TOO_LONG),
            ],
        ),
        PasswordField(
            again,
            validators=[
                DataRequired(_l("Please fill this in.")),
                EqualTo(name, _l("The two passwords differ.")),
            ],
        ),
    )


class RegisterForm(FlaskForm):
    username = StringField(
        _l("Login name"),
        validators=[DataRequired(_l("Please fill this in.")), Length(max=40, message=TOO_LONG)],
        description=_l("Letters, digits, dot, dash or underscore; used to log in."),
    )
    display_name = StringField(
        _l("Your name"),
        validators=[DataRequired(_l("Please fill this in.")), Length(max=80, message=TOO_LONG)],
        description=_l("As club mates know you; shown on score sheets."),
    )
    password, confirm = _password_twice(_l("Password"), _l("Password again"), "password")
    next = HiddenField()


class LoginForm(FlaskForm):
    username = StringField(_l("Login name"), validators=[DataRequired(_l("Please fill this in."))])
    password = PasswordField(_l("Password"), validators=[DataRequired(_l("Please fill this in."))])
    next = HiddenField()


class ChangePasswordForm(FlaskForm):
    current_password = PasswordField(
        _l("Current password"), validators=[DataRequired(_l("Please fill this in."))]
    )
    new_password, confirm = _password_twice(
        _l("New password"), _l("New password again"), "new_password"
    )


class LogoutForm(FlaskForm):
    pass
