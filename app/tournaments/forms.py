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

from engine.errors import EngineError
from engine.hundred_rules import FORTY_4P, HUNDRED_3P, HUNDRED_4P
from engine.scoring import (
    ATTACKERS,
    DECLARER,
    PENALTY_KINDS,
    TAKEBACK,
    WRONG_KITTY,
    allowed_multiplier_set,
    ending_penalty,
    max_kitty_points,
)
from engine.variants import CLIMBING, LEVELS, ONE_TWENTY, RED_FIVE, TRACTOR, Variant

from ..competition.presets import PRESETS, presets_for
from ..forms_common import REQUIRED, TOO_LONG, choices
from ..services.visibility import VISIBILITY_LABELS

VARIANT_LABELS = {
    TRACTOR: _l("升级 Tractor (4 players, pairs)"),
    RED_FIVE: _l("红五 Red five (5 players, individuals)"),
    ONE_TWENTY: _l("120分 (6 players, trios)"),
    CLIMBING: _l("争上游 Climbing (3 to 6 players a table, individuals, on paper)"),
    HUNDRED_4P: _l("打百分 (4 players: a friend as individuals, or fixed pairs; on paper)"),
    FORTY_4P: _l("40分下台 (4 players, fixed pairs, on paper)"),
    HUNDRED_3P: _l("3人百分 (3 players and a dummy, individuals, on paper)"),
}
PAIRING_LABELS = {
    "swiss": _l("Swiss (by match points, no repeat opponents)"),
    "round-robin": _l("Round robin (Berger tables)"),
    "reseat": _l(
        "Re-seating of individuals (red five, 争上游, 打百分 with a friend: new tablemates each "
        "round)"
    ),
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
# a fixed-side match whose final levels are equal (app.competition.model.TIE_BREAKS)
TIE_BREAK_LABELS = {
    "draw": _l("a draw"),
    "on_stage": _l("the side on stage (台上: the declaring side of the last deal) wins"),
    "extra_deal": _l("one extra deal decides (its winner wins the match)"),
}
# a match to a level: the level whose passing ends it
TARGET_LABELS = {lv: lv for lv in LEVELS[1:]}
SUIT_LABELS = {"S": _l("♠ Spades"), "H": _l("♥ Hearts"), "D": _l("♦ Diamonds"), "C": _l("♣ Clubs")}
NO_TRUMP = "NT"
# competition penalties (RULES §7): the words of each kind, in the reader's language
PENALTY_LABELS = {
    "revoke": _l("Revoke (出错牌)"),
    "miscount": _l("Miscount (多牌/少牌)"),
    "wrong_kitty": _l("Wrong kitty (扣底张数错)"),
    "takeback": _l("Take-back (悔牌)"),
}
ROLE_LABELS = {DECLARER: _l("the declarer side (庄家方)"), ATTACKERS: _l("the attackers (闲家)")}
PLACE_SLOTS = 6  # 争上游: at most 6 players a table
PEN_SLOTS = 4  # penalties one deal's form can hold, in the order they happened
WARN_SLOTS = 2  # conduct warnings (警告) per deal
WARNING_REASON_MAX = 200


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
    tie_break = SelectField(
        _l("Equal levels at the end of a match"),
        choices=choices(TIE_BREAK_LABELS.items()),
        default="draw",
        validate_choice=False,
        validators=[lambda form, field: form.check_choice(field, TIE_BREAK_LABELS)],
        description=_l("Fixed sides only; red five has no tie-break."),
    )
    target = SelectField(
        _l("Play to level"),
        choices=choices(TARGET_LABELS.items()),
        default="A",
        validate_choice=False,
        validators=[lambda form, field: form.check_choice(field, TARGET_LABELS)],
        description=_l("The first side to win a deal as declarer at this level wins the match."),
    )
    move_seconds = IntegerField(
        _l("Seconds per move (online tables)"),
        validators=[Optional(), NumberRange(10, 600, _l("Between %(min)s and %(max)s, please."))],
        description=_l(
            "Empty: no clock. When a player's time runs out, a bot makes that one move for them."
        ),
    )
    preset = HiddenField(
        default="club",
        validators=[lambda form, field: form.check_preset(field)],
    )  # the rule preset the form was filled from (app.competition.presets)
    options_variant = StringField()  # which variant's option fields were shown

    def check_choice(self, field: SelectField, labels: dict[str, Any]) -> None:
        if field.data not in labels:
            raise StopValidation(_l("Please choose one of the listed values."))

    def check_preset(self, field: HiddenField) -> None:
        if not field.data:  # the game's first preset: ``club``, or 打百分's club night
            fitting = presets_for(self.variant.data or "")
            field.data = fitting[0].id if fitting else "club"
        if field.data not in PRESETS or not PRESETS[field.data].fits(self.variant.data or ""):
            raise StopValidation(_l("This rule preset does not exist for this game."))

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


class EntrantEditForm(EntrantForm):
    """Correct an entrant: its name and players, with the version of what the page showed."""

    seen = HiddenField()
    reason = StringField(
        _l("Reason (optional)"),
        validators=[Optional(), Length(max=200, message=TOO_LONG)],
        description=_l("Shown in the audit trail."),
    )


class SubstituteForm(FlaskForm):
    """From a round on, a substitute plays one seat of an entrant (checked by the service:
    ``app.services.tournaments.substitutes``)."""

    seen = HiddenField()
    seat = SelectField(_l("Instead of"), validate_choice=False)
    from_round = StringField(_l("From round"), render_kw={"inputmode": "numeric"})
    name = StringField(
        _l("Substitute"),
        validators=[Length(max=80, message=TOO_LONG)],
        description=_l("A club member's name (suggested as you type) or a guest's name."),
        render_kw={"list": "member-names", "autocomplete": "off"},
    )
    reason = StringField(
        _l("Reason (optional)"),
        validators=[Optional(), Length(max=200, message=TOO_LONG)],
        description=_l("Shown in the audit trail."),
    )


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
        validators=[lambda form, field: form.check_points(field)],
        description=_l("Not needed when a penalty ended the deal."),
    )
    kitty = IntegerField(_l("Kitty points (底分)"), default=0, validators=[Optional()])
    multiplier = SelectField(_l("Kitty multiplier (抠底)"), coerce=_int_or_none, default=0)
    ft_declarer = IntegerField(
        _l("Failed throws (甩牌) by the declarers"), default=0, validators=[Optional()]
    )
    ft_attackers = IntegerField(
        _l("Failed throws by the attackers"), default=0, validators=[Optional()]
    )
    # throw_penalty ten_per_card: the cards each failed throw took back, e.g. "2 3"
    ftc_declarer = StringField(
        _l("Failed throws (甩牌) by the declarers: cards taken back"),
        description=_l("One number per failed throw, e.g. 2 3."),
    )
    ftc_attackers = StringField(
        _l("Failed throws by the attackers: cards taken back"),
        description=_l("One number per failed throw, e.g. 2 3."),
    )
    ft_seat_0 = IntegerField(validators=[Optional()], default=0)
    ft_seat_1 = IntegerField(validators=[Optional()], default=0)
    ft_seat_2 = IntegerField(validators=[Optional()], default=0)
    ft_seat_3 = IntegerField(validators=[Optional()], default=0)
    ft_seat_4 = IntegerField(validators=[Optional()], default=0)
    misplays_0 = IntegerField(_l("Misplays (吃苍蝇) by side A"), default=0, validators=[Optional()])
    misplays_1 = IntegerField(_l("Misplays (吃苍蝇) by side B"), default=0, validators=[Optional()])
    level = SelectField(_l("Level (级) on the sheet"), default="")
    # penalties in the order they happened: a kind and who was at fault (a side's role, or a
    # red five seat); the choices are checked by hand so a refusal is a sentence of ours
    pen_kind_0 = SelectField(_l("Penalty"), default="", validate_choice=False)
    pen_who_0 = SelectField(_l("at fault"), validate_choice=False)
    pen_kind_1 = SelectField(_l("Penalty"), default="", validate_choice=False)
    pen_who_1 = SelectField(_l("at fault"), validate_choice=False)
    pen_kind_2 = SelectField(_l("Penalty"), default="", validate_choice=False)
    pen_who_2 = SelectField(_l("at fault"), validate_choice=False)
    pen_kind_3 = SelectField(_l("Penalty"), default="", validate_choice=False)
    pen_who_3 = SelectField(_l("at fault"), validate_choice=False)
    # a correction's reason (shown in the audit trail): asked only when a deal is corrected
    reason = StringField(
        _l("Reason (optional)"),
        validators=[Optional(), Length(max=200, message=TOO_LONG)],
        description=_l("Shown in the audit trail."),
    )
    warn_seat_0 = SelectField(_l("Warning (警告) to"), default="", validate_choice=False)
    warn_reason_0 = StringField(_l("Reason"))
    warn_seat_1 = SelectField(_l("Warning (警告) to"), default="", validate_choice=False)
    warn_reason_1 = StringField(_l("Reason"))
    # 争上游: each seat's place (1 … n) and the tribute (进贡) paid before the deal
    place_0 = SelectField(coerce=_int_or_none, validate_choice=False)
    place_1 = SelectField(coerce=_int_or_none, validate_choice=False)
    place_2 = SelectField(coerce=_int_or_none, validate_choice=False)
    place_3 = SelectField(coerce=_int_or_none, validate_choice=False)
    place_4 = SelectField(coerce=_int_or_none, validate_choice=False)
    place_5 = SelectField(coerce=_int_or_none, validate_choice=False)
    tribute_from = SelectField(
        _l("Tribute (进贡) paid by"), coerce=_int_or_none, validate_choice=False
    )
    tribute_to = SelectField(_l("to"), coerce=_int_or_none, validate_choice=False)
    tribute_card = StringField(
        _l("Card given"),
        validators=[Length(max=3, message=TOO_LONG)],
        description=_l("E.g. 2S, 10H, AD, HJ. Leave the tribute empty in a first deal or on 抗贡."),
    )
    seen = HiddenField()  # deals on the sheet when the form was shown: a resubmission is refused
    seen_version = HiddenField()  # the sheet's version then (any correction since is refused)

    variant: Variant
    with_warnings: bool = False
    seat_names: list[str]
    side_names: list[str]

    def setup(
        self,
        variant: Variant,
        side_names: list[str],
        seat_names: list[str],
        warnings: bool = False,
    ) -> None:
        """``warnings``: the director's form, which records conduct warnings too."""
        self.variant = variant
        self.side_names = side_names
        self.seat_names = seat_names
        self.with_warnings = warnings
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
        kinds = [("", _l("none"))] + [(k, PENALTY_LABELS[k]) for k in self.penalty_kinds()]
        if variant.fixed_sides:
            who: list[tuple[Any, Any]] = list(ROLE_LABELS.items())
        else:
            who = [(str(i), label) for i, label in seats]
        for i in range(PEN_SLOTS):
            self[f"pen_kind_{i}"].choices = choices(kinds)  # type: ignore[attr-defined]
            self[f"pen_who_{i}"].choices = choices(who)  # type: ignore[attr-defined]
        warned = [("", _l("nobody"))] + [(str(i), label) for i, label in seats]
        for i in range(WARN_SLOTS):
            self[f"warn_seat_{i}"].choices = choices(warned)  # type: ignore[attr-defined]
        if variant.id == CLIMBING:
            places = [("", "—")] + [(k, str(k)) for k in range(1, variant.players + 1)]
            for i in range(PLACE_SLOTS):
                self[f"place_{i}"].choices = choices(places)  # type: ignore[attr-defined]
                if i < len(seat_names):
                    self[f"place_{i}"].label.text = f"{i + 1} · {seat_names[i]}"
            self.tribute_from.choices = choices([("", _l("no tribute")), *seats])
            self.tribute_to.choices = choices([("", "—"), *seats])

    def penalty_kinds(self) -> list[str]:
        """The penalties this game has: no wrong kitty without a kitty (4 decks); 争上游 records
        a take-back only (CLIMBING.md §4)."""
        if self.variant.id == CLIMBING:
            return [TAKEBACK]
        return [k for k in PENALTY_KINDS if not (k == WRONG_KITTY and self.variant.kitty == 0)]

    def penalties(self) -> tuple[tuple[str, str | int], ...]:
        """The penalty slots that name a kind, in order (after validation)."""
        out: list[tuple[str, str | int]] = []
        for i in range(PEN_SLOTS):
            kind = self[f"pen_kind_{i}"].data
            who = self[f"pen_who_{i}"].data
            if not kind:
                continue
            if self.variant.fixed_sides:
                out.append((kind, str(who)))
            else:
                out.append((kind, int(who) if str(who).isdigit() else str(who)))
        return tuple(out)

    def warnings(self) -> tuple[tuple[int, str], ...]:
        out: list[tuple[int, str]] = []
        for i in range(WARN_SLOTS):
            seat = self[f"warn_seat_{i}"].data
            if seat not in (None, "") and str(seat).isdigit():
                out.append((int(seat), (self[f"warn_reason_{i}"].data or "").strip()))
        return tuple(out)

    def ends_by_penalty(self) -> bool:
        """A deal-ending penalty is chosen (the engine decides which do): its card points do
        not count, so they need not be written."""
        try:
            return ending_penalty(self.variant, self._engine_penalties()) is not None
        except EngineError:
            return False

    def _engine_penalties(self) -> list[dict[str, Any]]:
        key = "side" if self.variant.fixed_sides else "seat"
        return [{"kind": k, key: w} for k, w in self.penalties()]

    def _check_penalty(self, i: int) -> None:
        kind = self[f"pen_kind_{i}"].data
        if not kind:
            return
        if kind not in self.penalty_kinds():
            if kind == WRONG_KITTY:
                raise ValidationError(_l("With 4 decks there is no kitty, so no wrong kitty."))
            raise ValidationError(
                _l(
                    "Please choose a penalty: revoke (出错牌), miscount (多牌/少牌), "
                    "wrong kitty (扣底张数错) or take-back (悔牌)."
                )
            )

    def _check_who(self, i: int) -> None:
        if not self[f"pen_kind_{i}"].data:
            return
        who = self[f"pen_who_{i}"].data
        if self.variant.fixed_sides:
            if who not in ROLE_LABELS:
                raise ValidationError(
                    _l("Please choose who was at fault: the declarer side or the attackers.")
                )
            if self[f"pen_kind_{i}"].data == WRONG_KITTY and who != DECLARER:
                raise ValidationError(
                    _l("Only the declarer side buries: a wrong kitty (扣底张数错) is theirs.")
                )
            return
        n = self.variant.players
        if not (isinstance(who, str) and who.isdigit() and 0 <= int(who) < n):
            raise ValidationError(
                _l("Please choose the seat at fault, 1 to %(n)d.", n=self.variant.players)
            )
        if self[f"pen_kind_{i}"].data == WRONG_KITTY and int(who) != self.dealer.data:
            raise ValidationError(
                _l("Only the dealer buries: a wrong kitty (扣底张数错) is the dealer's.")
            )

    def validate_pen_kind_0(self, field: SelectField) -> None:
        self._check_penalty(0)

    def validate_pen_kind_1(self, field: SelectField) -> None:
        self._check_penalty(1)

    def validate_pen_kind_2(self, field: SelectField) -> None:
        self._check_penalty(2)

    def validate_pen_kind_3(self, field: SelectField) -> None:
        self._check_penalty(3)

    def validate_pen_who_0(self, field: SelectField) -> None:
        self._check_who(0)

    def validate_pen_who_1(self, field: SelectField) -> None:
        self._check_who(1)

    def validate_pen_who_2(self, field: SelectField) -> None:
        self._check_who(2)

    def validate_pen_who_3(self, field: SelectField) -> None:
        self._check_who(3)

    def _check_warning(self, i: int) -> None:
        seat = self[f"warn_seat_{i}"].data
        reason = (self[f"warn_reason_{i}"].data or "").strip()
        if seat in (None, ""):
            if reason:
                raise ValidationError(_l("Please choose the seat that is warned."))
            return
        if not (str(seat).isdigit() and 0 <= int(seat) < self.variant.players):
            raise ValidationError(_l("Please choose the seat that is warned."))
        if not reason:
            raise ValidationError(_l("Please write the reason for the warning."))
        if len(reason) > WARNING_REASON_MAX:
            raise ValidationError(_l("At most %(n)d characters, please.", n=WARNING_REASON_MAX))

    def validate_warn_seat_0(self, field: SelectField) -> None:
        self._check_warning(0)

    def validate_warn_seat_1(self, field: SelectField) -> None:
        self._check_warning(1)

    def check_points(self, field: IntegerField) -> None:
        """The attackers' points are needed unless a penalty ended the deal."""
        if not field.raw_data or not str(field.raw_data[0]).strip():
            field.errors[:] = []  # type: ignore[index]
            if self.ends_by_penalty():
                field.data = None
                raise StopValidation()
            raise StopValidation(_l("Please write the attackers' points."))

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

    @property
    def per_card(self) -> bool:
        """tractor-4p with ``throw_penalty: ten_per_card``: each throw's cards are written."""
        return self.variant.id == TRACTOR and (
            self.variant.options.get("throw_penalty") == "ten_per_card"
        )

    @staticmethod
    def card_counts(text: str | None) -> tuple[int, ...] | None:
        """ "2 3" (or "2, 3") as (2, 3); None when it is not such a list."""
        parts = (text or "").replace(",", " ").replace("，", " ").split()
        if not all(p.isdigit() for p in parts):
            return None
        return tuple(int(p) for p in parts)

    def _check_cards(self, field: StringField) -> None:
        counts = self.card_counts(field.data)
        if counts is None or not all(1 <= n <= 40 for n in counts) or len(counts) > 20:
            raise ValidationError(
                _l("One whole number from 1 to 40 per failed throw, e.g. 2 3, please.")
            )

    def validate_ftc_declarer(self, field: StringField) -> None:
        self._check_cards(field)

    def validate_ftc_attackers(self, field: StringField) -> None:
        self._check_cards(field)

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
        pens = [f"pen_{part}_{i}" for i in range(PEN_SLOTS) for part in ("kind", "who")]
        if self.with_warnings:
            pens += [f"warn_{part}_{i}" for i in range(WARN_SLOTS) for part in ("seat", "reason")]
        if v == CLIMBING:
            places = [f"place_{i}" for i in range(self.variant.players)]
            return [*places, "tribute_from", "tribute_to", "tribute_card", *pens]
        if v == RED_FIVE:
            return [
                "dealer",
                "friend",
                "friend_grabbed",
                *common,
                *[f"ft_seat_{i}" for i in range(5)],
                *pens,
            ]
        if v == TRACTOR:
            ft = (
                ["ftc_declarer", "ftc_attackers"]
                if self.per_card
                else ["ft_declarer", "ft_attackers"]
            )
            return ["declarer", *common, *ft, "level", *pens]
        return ["declarer", *common, "misplays_0", "misplays_1", "level", *pens]

    def validate_relevant(self) -> bool:
        """Validate only this variant's fields (and CSRF)."""
        ok = True
        names = set(self.relevant()) | {"csrf_token", "seen", "seen_version", "reason"}
        for name, f in self._fields.items():
            if name not in names:
                continue
            extra = getattr(self, f"validate_{name}", None)
            chain = [lambda _form, field, check=extra: check(field)] if extra else []
            if not f.validate(self, chain):
                ok = False
        return ok

    def seen_count(self) -> int | None:
        return seen_count(self.seen.data)

    def seen_sheet(self) -> str | None:
        return (self.seen_version.data or "").strip()[:32] or None

    def _tribute_given(self) -> bool:
        """A tribute is its payer, its receiver and the card, or nothing at all."""
        card = (self.tribute_card.data or "").strip()
        return self.tribute_from.data is not None or self.tribute_to.data is not None or bool(card)

    def validate_tribute_from(self, field: SelectField) -> None:
        if self._tribute_given() and field.data is None:
            raise ValidationError(_l("Please choose who paid the tribute."))

    def validate_tribute_to(self, field: SelectField) -> None:
        if self._tribute_given() and field.data is None:
            raise ValidationError(_l("Please choose who received the tribute."))

    def validate_tribute_card(self, field: StringField) -> None:
        if self._tribute_given() and not (field.data or "").strip():
            raise ValidationError(_l("Please write the card given (e.g. 2S, HJ)."))

    def validate_place_0(self, field: SelectField) -> None:
        self._check_place(field)

    def validate_place_1(self, field: SelectField) -> None:
        self._check_place(field)

    def validate_place_2(self, field: SelectField) -> None:
        self._check_place(field)

    def validate_place_3(self, field: SelectField) -> None:
        self._check_place(field)

    def validate_place_4(self, field: SelectField) -> None:
        self._check_place(field)

    def validate_place_5(self, field: SelectField) -> None:
        self._check_place(field)

    def _check_place(self, field: SelectField) -> None:
        if field.data is None:
            raise ValidationError(_l("Please choose this player's place."))

    def to_deal(self) -> Any:
        from ..competition.climbing import normal_tribute
        from ..competition.model import Deal, FailedThrows, Tribute

        v = self.variant.id
        if v == CLIMBING:
            tribute = None
            if self.tribute_from.data is not None:
                tribute = normal_tribute(
                    Tribute(
                        self.tribute_from.data,
                        self.tribute_to.data,  # type: ignore[arg-type]
                        (self.tribute_card.data or "").strip(),
                    )
                )
            return Deal(
                points=0,
                kitty=0,
                places=tuple(self[f"place_{i}"].data for i in range(self.variant.players)),
                tribute=tribute,
                penalties=self.penalties(),
                warnings=self.warnings() if self.with_warnings else (),
            )
        trump = self.trump.data
        ft: Any = None
        if v == TRACTOR and self.per_card:
            dc = self.card_counts(self.ftc_declarer.data) or ()
            ac = self.card_counts(self.ftc_attackers.data) or ()
            ft = FailedThrows.per_card(dc, ac) if (dc or ac) else None
        elif v == TRACTOR:
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
            penalties=self.penalties(),
            warnings=self.warnings() if self.with_warnings else (),
        )

    def fill_from(self, deal: Any) -> None:
        """Show a recorded deal in the form (for a correction)."""
        if deal.places is not None:
            for i, place in enumerate(deal.places[:PLACE_SLOTS]):
                self[f"place_{i}"].data = place
        tr = deal.tribute
        self.tribute_from.data = tr.giver if tr is not None else None
        self.tribute_to.data = tr.receiver if tr is not None else None
        self.tribute_card.data = tr.card if tr is not None else ""
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
            if ft.cards is not None:
                self.ftc_declarer.data = " ".join(str(n) for n in ft.cards[0])
                self.ftc_attackers.data = " ".join(str(n) for n in ft.cards[1])
        elif ft:
            for i in range(5):
                getattr(self, f"ft_seat_{i}").data = list(ft).count(i)
        self.misplays_0.data = list(deal.misplays).count(0)
        self.misplays_1.data = list(deal.misplays).count(1)
        self.level.data = deal.level or ""
        for i in range(PEN_SLOTS):
            kind, who = deal.penalties[i] if i < len(deal.penalties) else ("", "")
            self[f"pen_kind_{i}"].data = kind
            self[f"pen_who_{i}"].data = str(who) if kind else None
        for i in range(WARN_SLOTS):
            seat, reason = deal.warnings[i] if i < len(deal.warnings) else ("", "")
            self[f"warn_seat_{i}"].data = str(seat)
            self[f"warn_reason_{i}"].data = reason


ONLINE_PENALTY_LABELS = {
    "takeback": _l("Take-back (悔牌)"),
    "warning": _l("Warning (警告), counts for nothing"),
}


class PenaltyForm(FlaskForm):
    """A director's penalty or warning against a seat on a recorded deal of an online table."""

    deal = SelectField(_l("Deal"), coerce=_int_or_none, validate_choice=False)
    kind = SelectField(
        _l("Penalty"), choices=choices(ONLINE_PENALTY_LABELS.items()), validate_choice=False
    )
    seat = SelectField(_l("Seat"), coerce=_int_or_none, validate_choice=False)
    reason = StringField(
        _l("Reason"),
        validators=[Length(max=WARNING_REASON_MAX, message=TOO_LONG)],
        description=_l("Needed for a warning."),
    )

    def setup(self, deals: int, seat_names: list[str]) -> None:
        self.deal.choices = choices([(i, str(i)) for i in range(deals, 0, -1)])
        self.seat.choices = choices([(i, f"{i + 1} · {n}") for i, n in enumerate(seat_names)])


def seen_count(raw: str | None) -> int | None:
    """A form's ``seen`` field: how many deals the page showed (None: not sent)."""
    text = (raw or "").strip()
    return int(text) if text.isdigit() and len(text) < 6 else None
