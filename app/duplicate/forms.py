"""Forms of the duplicate pages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DecimalField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from ..forms_common import choices
from ..tournaments.options import CHOICE_LABELS, OPTION_LABELS

VARIANT_LABELS = {
    "tractor-4p": _l("升级 (tractor, 4 players)"),
    "one-twenty-6p": _l("120分 (6 players)"),
    "red-five-5p": _l("红五 (red five, 5 players)"),
}
KIND_LABELS = {
    "pairs": _l("Pairs or trios across the field (matchpoints)"),
    "teams": _l("Teams of two pairs or trios (IMPs and VPs)"),
    "individuals": _l("Red five individuals (matchpoints)"),
}
PAIRING_LABELS = {
    "round-robin": _l("Round robin"),
    "swiss": _l("Swiss"),
}


class DuplicateEventForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=120)])
    variant = SelectField(_l("Game"), choices=choices(VARIANT_LABELS.items()))
    kind = SelectField(_l("Format"), choices=choices(KIND_LABELS.items()))
    pairing = SelectField(
        _l("Team matches"),
        choices=choices(PAIRING_LABELS.items()),
        default="round-robin",
        description=_l(
            "Teams only. Round robin: every team meets every other. Swiss: fewer rounds, round "
            "1 from the entrant order (first half against second half, so list the teams by "
            "seed), each later round paired from the VPs once the round before is complete."
        ),
    )
    entrants = TextAreaField(
        _l("Entrants, one a line"),
        description=_l("A pair's, trio's, team's or player's name on each line."),
        validators=[DataRequired(), Length(max=6000)],
    )
    boards_per_round = IntegerField(
        _l("Boards per round"), default=2, validators=[InputRequired(), NumberRange(1, 8)]
    )
    rounds = IntegerField(
        _l("Rounds (optional)"),
        description=_l(
            "Empty: the whole movement. Pairs: each round is a set of boards every pair plays "
            "once, so fewer rounds mean fewer boards, each at several tables at once. A Swiss "
            "of teams: the number of rounds, fewer than the round robin's."
        ),
        validators=[Optional(), NumberRange(1, 60)],
    )
    decks = SelectField(
        OPTION_LABELS["decks"],
        choices=choices((str(n), CHOICE_LABELS[("decks", n)]) for n in (2, 4)),
        default="2",
        description=_l("升级 only: the boards are dealt, and scored, with this many decks."),
    )
    vp_factor = DecimalField(
        _l("VP scale factor"),
        default=10,
        places=None,
        description=_l(
            "Teams only: a match's IMP margin becomes VPs on a scale of this factor × √(the "
            "match's boards); the larger, the more IMPs a win of 20 VPs needs. Usually 10."
        ),
        validators=[Optional(), NumberRange(1, 100)],
    )
    seed = IntegerField(
        _l("Seed of the boards (optional)"),
        description=_l("Empty: a random seed. The same seed deals the same boards."),
        validators=[Optional(), NumberRange(0, 2**48 - 1)],
    )


class DuplicateImportForm(FlaskForm):
    """An event file upload (the file itself is read from ``request.files``)."""

    name = StringField(
        _l("Name in this club (optional)"),
        description=_l("Empty: the name in the file."),
        validators=[Optional(), Length(max=120)],
    )
