"""Forms of the season pages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    FloatField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from ..forms_common import TOO_LONG, choices

RULE_LABELS = {
    "total": _l("Total match points of every night"),
    "best": _l("Best N nights"),
    "average": _l("Average per night played"),
    "places": _l("League points per finishing place"),
}


def parse_places(text: str | None) -> list[int] | None:
    """``"10, 7, 5"`` → [10, 7, 5]; None when it is not a list of whole numbers."""
    parts = [p.strip() for p in (text or "").replace("，", ",").split(",") if p.strip()]
    if not all(p.isdigit() and len(p) < 6 for p in parts):
        return None
    return [int(p) for p in parts]


class RuleFields:
    rule = SelectField(_l("How the season is counted"), choices=choices(RULE_LABELS.items()))
    best = IntegerField(
        _l("N (best N nights)"), default=5, validators=[Optional(), NumberRange(1, 1000)]
    )
    min_nights = IntegerField(
        _l("Nights needed to be ranked (average)"),
        default=1,
        validators=[Optional(), NumberRange(1, 1000)],
    )
    places = StringField(
        _l("League points per place (1st, 2nd, …)"),
        default="10, 8, 6, 5, 4, 3, 2, 1",
        validators=[Optional(), Length(max=200)],
    )

    def rule_text(self) -> str:
        kind = self.rule.data or "total"  # type: ignore[attr-defined]
        if kind == "best":
            return f"best:{self.best.data or 0}"  # type: ignore[attr-defined]
        return str(kind)

    def places_list(self) -> list[int]:
        return parse_places(self.places.data) or []  # type: ignore[attr-defined]


class SeasonForm(FlaskForm, RuleFields):
    name = StringField(_l("Season name"), validators=[DataRequired(), Length(max=120)])
    starts_on = DateField(_l("Starts on"), validators=[Optional()])
    ends_on = DateField(_l("Ends on"), validators=[Optional()])

    def validate_places(self, field: StringField) -> None:
        from wtforms import ValidationError

        if parse_places(field.data) is None:
            raise ValidationError(_l("Whole numbers separated by commas, please (10, 8, 6 …)."))


class RuleForm(FlaskForm, RuleFields):
    def validate_places(self, field: StringField) -> None:
        from wtforms import ValidationError

        if parse_places(field.data) is None:
            raise ValidationError(_l("Whole numbers separated by commas, please (10, 8, 6 …)."))


class NightForm(FlaskForm):
    tournament = SelectField(_l("Tournament night"), coerce=int, validators=[InputRequired()])
    date = DateField(_l("Date"), validators=[Optional()])
    venue = StringField(_l("Venue"), validators=[Optional(), Length(max=120)])
    division = SelectField(_l("Division"), coerce=int, default=0)


class DivisionForm(FlaskForm):
    name = StringField(
        _l("Division name (甲级, 乙级 …)"), validators=[DataRequired(), Length(max=40)]
    )
    carry_factor = FloatField(
        _l("Carry-over factor into the next season (e.g. 1.15)"),
        validators=[Optional(), NumberRange(min=0.01, max=10)],
    )
    players = TextAreaField(_l("Players, one name a line"), validators=[Length(max=20000)])


class DivisionEditForm(DivisionForm):
    """A division corrected: its name, carry-over factor and players, with the version shown,
    and why (optional, shown in the season's audit trail)."""

    seen = HiddenField()
    reason = StringField(
        _l("Reason (optional)"),
        validators=[Optional(), Length(max=200, message=TOO_LONG)],
        description=_l("Shown in the audit trail."),
    )


class NightDivisionForm(FlaskForm):
    division = SelectField(_l("Division"), coerce=int, default=0)


class MovementForm(FlaskForm):
    k = IntegerField(
        _l("Players going up and down per division"),
        default=2,
        validators=[InputRequired(), NumberRange(0, 100)],
    )
    next_season = SelectField(_l("Seed this season"), coerce=int, validators=[InputRequired()])
