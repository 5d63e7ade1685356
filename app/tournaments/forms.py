"""Forms: tournament set up (with the variant's rule options in plain words), entrants, rounds,
and the score sheet row (记分表) of each variant."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, SelectField, StringField
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)

from engine.scoring import allowed_multiplier_set, max_kitty_points
from engine.variants import LEVELS, ONE_TWENTY, RED_FIVE, TRACTOR, Variant

from ..forms_common import REQUIRED, TOO_LONG, choices
from ..services.visibility import VISIBILITY_LABELS

VARIANT_LABELS = {
    TRACTOR: _l("升级 Tractor (4 players, pairs)"),
    RED_FIVE: _l("红五 Red five (5 players, individuals)"),
    ONE_TWENTY: _l("120分 (6 players, trios)"),
}
PAIRING_LABELS = {
    "swiss": _l("Swiss (by match points, no repeat opponents)"),
    "round-robin": _l("Round robin (Berger tables)"),
    "reseat": _l("Red five re-seating (new tablemates each round)"),
}
MATCH_LABELS = {
    "deals": _l("A number of deals"),
    "minutes": _l("A time limit (minutes)"),
    "to_a": _l("Play to A"),
}
# the number field of the match length, worded after the chosen kind
MATCH_VALUE_LABELS = {"deals": _l("Number of deals"), "minutes": _l("Time limit (minutes)")}
MATCH_VALUE_HINTS = {
    "deals": _l("Deals each table plays in a match."),
    "minutes": _l("Minutes of play; the director ends each match when time is up."),
    "to_a": _l("A match ends when a side passes A (or when the director ends it)."),
}
SUIT_LABELS = {"S": _l("♠ Spades"), "H": _l("♥ Hearts"), "D": _l("♦ Diamonds"), "C": _l("♣ Clubs")}
NO_TRUMP = "NT"


class TournamentForm(FlaskForm):
    name = StringField(
        _l("Tournament name"),
        validators=[InputRequired(REQUIRED), Length(max=120, message=TOO_LONG)],
    )
    variant = SelectField(_l("Game"), choices=choices(VARIANT_LABELS.items()), default=TRACTOR)
    pairing = SelectField(_l("Pairing"), choices=choices(PAIRING_LABELS.items()), default="swiss")
    rounds = IntegerField(
        _l("Rounds"),
        default=5,
        validators=[
            InputRequired(REQUIRED),
            NumberRange(1, 50, _l("Between %(min)s and %(max)s, please.")),
        ],
    )
    match_kind = SelectField(
        _l("Match length"), choices=choices(MATCH_LABELS.items()), default="deals"
    )
    match_value = IntegerField(
        _l("Deals or minutes"),
        default=8,
        validators=[
            lambda form, field: form.check_match_value(field),
            NumberRange(1, 600, _l("Between %(min)s and %(max)s, please.")),
        ],
        description=_l("Not used for play to A."),
    )
    win = IntegerField(
        _l("Match points for a win"),
        default=2,
        validators=[InputRequired(REQUIRED), NumberRange(0, 100)],
    )
    draw = IntegerField(
        _l("for a draw"), default=1, validators=[InputRequired(REQUIRED), NumberRange(0, 100)]
    )
    loss = IntegerField(
        _l("for a loss"), default=0, validators=[InputRequired(REQUIRED), NumberRange(0, 100)]
    )
    bye = IntegerField(
        _l("for a bye (轮空)"),
        validators=[Optional(), NumberRange(0, 100)],
        description=_l("Empty: as a win."),
    )
    forfeit_level_diff = IntegerField(
        _l("级差 for a forfeit"),
        default=3,
        validators=[InputRequired(REQUIRED), NumberRange(0, 14)],
    )
    options_variant = StringField()  # which variant's option fields were shown

    def follow_match_kind(self, kind: str | None = None) -> str:
        """Word the number field after the chosen match length; returns the kind."""
        kind = kind if kind in MATCH_LABELS else (self.match_kind.data or "deals")
        if kind not in MATCH_LABELS:
            kind = "deals"
        self.match_value.label.text = str(MATCH_VALUE_LABELS.get(kind, MATCH_VALUE_LABELS["deals"]))
        self.match_value.description = MATCH_VALUE_HINTS[kind]
        return kind

    def check_match_value(self, field: IntegerField) -> None:
        if self.match_kind.data not in ("deals", "minutes"):
            field.errors[:] = []  # type: ignore[index]
            raise StopValidation()
        if not field.raw_data or not field.raw_data[0].strip():
            field.errors[:] = []  # type: ignore[index]
            if self.match_kind.data == "minutes":
                raise StopValidation(_l("Please give the time limit in minutes."))
            raise StopValidation(_l("Please give the number of deals."))


class EntrantForm(FlaskForm):
    name = StringField(
        _l("Entrant name"),
        validators=[Optional(), Length(max=120, message=TOO_LONG)],
        description=_l("Empty: the players' names joined by &."),
    )
    player_0 = StringField(_l("Player 1"), validators=[Length(max=80, message=TOO_LONG)])
    player_1 = StringField(_l("Player 2"), validators=[Length(max=80, message=TOO_LONG)])
    player_2 = StringField(_l("Player 3"), validators=[Length(max=80, message=TOO_LONG)])


class SwapForm(FlaskForm):
    first = SelectField(_l("Entrant"), coerce=int)
    second = SelectField(_l("swaps places with"), coerce=int)


class ForfeitForm(FlaskForm):
    side = SelectField(_l("Side that did not play"), coerce=int)


class ConfirmForm(FlaskForm):
    """A button that posts with the CSRF token."""


class VisibilityForm(FlaskForm):
    visibility = SelectField(
        _l("Who may see the standings"),
        choices=choices(VISIBILITY_LABELS.items()),
        validators=[InputRequired()],
    )


class ImportForm(FlaskForm):
    pass


# --- the score sheet row ------------------------------------------------------------------------


def _int_or_none(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class DealForm(FlaskForm):
    """One deal as written on the 记分表. Bound to a variant and a table with ``setup``."""

    declarer = SelectField(_l("Declarer side (庄家)"), coerce=_int_or_none)
    dealer = SelectField(_l("Dealer (庄家)"), coerce=_int_or_none)
    friend = SelectField(_l("Friend (找朋友)"), coerce=_int_or_none)
    friend_grabbed = BooleanField(_l("The friend grabbed (抢伴)"))
    trump = SelectField(_l("Trump (主)"))
    points = IntegerField(
        _l("Attackers' points"),
        validators=[InputRequired(_l("Please write the attackers' points."))],
    )
    kitty = IntegerField(_l("Kitty points (底分)"), default=0, validators=[Optional()])
    multiplier = SelectField(_l("Kitty multiplier (抠底)"), coerce=_int_or_none, default=0)
    ft_declarer = IntegerField(
        _l("Failed throws (甩牌) by the declarers"), default=0, validators=[Optional()]
    )
    ft_attackers = IntegerField(
        _l("Failed throws by the attackers"), default=0, validators=[Optional()]
    )
    ft_seat_0 = IntegerField(validators=[Optional()], default=0)
    ft_seat_1 = IntegerField(validators=[Optional()], default=0)
    ft_seat_2 = IntegerField(validators=[Optional()], default=0)
    ft_seat_3 = IntegerField(validators=[Optional()], default=0)
    ft_seat_4 = IntegerField(validators=[Optional()], default=0)
    misplays_0 = IntegerField(_l("Misplays (吃苍蝇) by side A"), default=0, validators=[Optional()])
    misplays_1 = IntegerField(_l("Misplays (吃苍蝇) by side B"), default=0, validators=[Optional()])
    level = SelectField(_l("Level (级) on the sheet"), default="")
    seen = HiddenField()  # deals on the sheet when the form was shown: a resubmission is refused

    variant: Variant
    seat_names: list[str]
    side_names: list[str]

    def setup(self, variant: Variant, side_names: list[str], seat_names: list[str]) -> None:
        self.variant = variant
        self.side_names = side_names
        self.seat_names = seat_names
        side_choices = [(i, f"{'AB'[i]} · {n}") for i, n in enumerate(side_names)]
        self.declarer.choices = choices(side_choices)
        seats = [(i, f"{i + 1} · {n}") for i, n in enumerate(seat_names)]
        self.dealer.choices = choices(seats)
        self.friend.choices = choices([("", _l("alone (独打)")), *seats])
        suits = list(SUIT_LABELS.items())
        if variant.id != RED_FIVE:
            suits.append((NO_TRUMP, _l("No trump (无主)")))
        self.trump.choices = choices(suits)
        mults = sorted(allowed_multiplier_set(variant))
        self.multiplier.choices = choices(
            [(0, _l("none (the declarers won the last trick)"))] + [(m, f"× {m}") for m in mults]
        )
        self.level.choices = choices([("", _l("not written"))] + [(lv, lv) for lv in LEVELS])

    def validate_points(self, field: IntegerField) -> None:
        total = self.variant.total_points
        if field.data is None:
            return
        if field.data < 0 or field.data > total:
            raise ValidationError(_l("Between 0 and %(n)d points, please.", n=total))
        if field.data % 5:
            raise ValidationError(_l("Card points come in steps of 5."))

    def validate_kitty(self, field: IntegerField) -> None:
        k = field.data or 0
        if self.variant.kitty == 0 and k:
            raise ValidationError(_l("With 4 decks there is no kitty: write 0."))
        if k < 0 or k % 5:
            raise ValidationError(_l("Kitty points come in steps of 5, from 0."))
        most = max_kitty_points(self.variant)
        if k > most:
            raise ValidationError(
                _l(
                    "A kitty of %(cards)d cards holds at most %(n)d points.",
                    cards=self.variant.kitty,
                    n=most,
                )
            )
        p = self.points.data
        if isinstance(p, int) and p + k > self.variant.total_points:
            raise ValidationError(
                _l(
                    "Points and kitty together are more than the %(n)d points in the cards.",
                    n=self.variant.total_points,
                )
            )

    def _count(self, field: IntegerField) -> None:
        if field.data is not None and not 0 <= field.data <= 20:
            raise ValidationError(_l("A count from 0 to 20, please."))

    def validate_ft_declarer(self, field: IntegerField) -> None:
        self._count(field)

    def validate_ft_attackers(self, field: IntegerField) -> None:
        self._count(field)

    # red five: failed throws per seat, bounded like the sides' counts above
    def validate_ft_seat_0(self, field: IntegerField) -> None:
        self._count(field)

    def validate_ft_seat_1(self, field: IntegerField) -> None:
        self._count(field)

    def validate_ft_seat_2(self, field: IntegerField) -> None:
        self._count(field)

    def validate_ft_seat_3(self, field: IntegerField) -> None:
        self._count(field)

    def validate_ft_seat_4(self, field: IntegerField) -> None:
        self._count(field)

    def validate_misplays_0(self, field: IntegerField) -> None:
        self._count(field)

    def validate_misplays_1(self, field: IntegerField) -> None:
        self._count(field)

    def validate_friend(self, field: SelectField) -> None:
        if (
            self.variant.id == RED_FIVE
            and field.data is not None
            and field.data == self.dealer.data
        ):
            raise ValidationError(_l("The friend is not the dealer: choose alone (独打)."))

    def validate_friend_grabbed(self, field: BooleanField) -> None:
        if self.variant.id == RED_FIVE and field.data and self.friend.data is None:
            raise ValidationError(_l("The dealer played alone: there is no friend."))

    def relevant(self) -> list[str]:
        """The field names this variant's sheet uses (others are ignored)."""
        v = self.variant.id
        common = ["trump", "points", "kitty", "multiplier"]
        if v == RED_FIVE:
            return [
                "dealer",
                "friend",
                "friend_grabbed",
                *common,
                *[f"ft_seat_{i}" for i in range(5)],
            ]
        if v == TRACTOR:
            return ["declarer", *common, "ft_declarer", "ft_attackers", "level"]
        return ["declarer", *common, "misplays_0", "misplays_1", "level"]

    def validate_relevant(self) -> bool:
        """Validate only this variant's fields (and CSRF)."""
        ok = True
        names = set(self.relevant()) | {"csrf_token", "seen"}
        for name, f in self._fields.items():
            if name not in names:
                continue
            extra = getattr(self, f"validate_{name}", None)
            chain = [lambda _form, field, check=extra: check(field)] if extra else []
            if not f.validate(self, chain):
                ok = False
        return ok

    def seen_count(self) -> int | None:
        raw = (self.seen.data or "").strip()
        return int(raw) if raw.isdigit() else None

    def to_deal(self) -> Any:
        from ..competition.model import Deal, FailedThrows

        v = self.variant.id
        trump = self.trump.data
        ft: Any = None
        if v == TRACTOR:
            a, b = self.ft_declarer.data or 0, self.ft_attackers.data or 0
            ft = FailedThrows(a, b) if (a or b) else None
        elif v == RED_FIVE:
            seats: list[int] = []
            for i in range(5):
                seats += [i] * (getattr(self, f"ft_seat_{i}").data or 0)
            ft = tuple(seats) or None
        misplays: tuple[int, ...] = ()
        if v == ONE_TWENTY:
            misplays = (0,) * (self.misplays_0.data or 0) + (1,) * (self.misplays_1.data or 0)
        red = v == RED_FIVE
        return Deal(
            points=self.points.data or 0,
            kitty=self.kitty.data or 0,
            trump=None if trump == NO_TRUMP else trump,
            declarer=None if red else self.declarer.data,
            dealer=self.dealer.data if red else None,
            friend=self.friend.data if red else None,
            multiplier=self.multiplier.data or 0,
            failed_throws=ft,
            friend_grabbed=bool(self.friend_grabbed.data) if red else False,
            misplays=misplays,
            level=(self.level.data or None) if not red else None,
        )

    def fill_from(self, deal: Any) -> None:
        """Show a recorded deal in the form (for a correction)."""
        self.declarer.data = deal.declarer
        self.dealer.data = deal.dealer
        self.friend.data = deal.friend
        self.friend_grabbed.data = deal.friend_grabbed
        self.trump.data = deal.trump or NO_TRUMP
        self.points.data = deal.points
        self.kitty.data = deal.kitty
        self.multiplier.data = deal.multiplier
        ft = deal.failed_throws
        if hasattr(ft, "declarer"):
            self.ft_declarer.data = ft.declarer
            self.ft_attackers.data = ft.attackers
        elif ft:
            for i in range(5):
                getattr(self, f"ft_seat_{i}").data = list(ft).count(i)
        self.misplays_0.data = list(deal.misplays).count(0)
        self.misplays_1.data = list(deal.misplays).count(1)
        self.level.data = deal.level or ""
