"""打百分's score-sheet row (记分表, HUNDRED.md §8) as a form: the bid and the declarer (or
40分下台's turned card), trump, the friend card and the friend (or alone), the attackers'
points, 抠底, the buried cards' points if written, and the penalties. The form only reads what
was typed; every value is checked by ``app.competition.hundred`` and refused on its field."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, IntegerField, SelectField, StringField
from wtforms.validators import Length, Optional, ValidationError

from engine.hundred_rules import (
    ATTACKERS,
    BID_STEP,
    DECLARER,
    MAX_BID,
    MIN_BID,
    MISCOUNT,
    PENALTY_KINDS,
    REVOKE,
    HundredVariant,
)

from ..competition.hundred import HundredDeal
from ..forms_common import TOO_LONG, choices
from .forms import PEN_SLOTS, PENALTY_LABELS, ROLE_LABELS, SUIT_LABELS, WARN_SLOTS, DealForm


def _int_or_none(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class HundredDealForm(DealForm):
    """One 打百分 deal; bound to the tournament's variant and the table by ``setup``. Its select
    fields take any value (``validate_choice`` off): what is not a seat, a bid or a suit is
    refused by the competition layer's checks, on its field, in the reader's language."""

    declarer = SelectField(_l("Declarer (庄家)"), coerce=_int_or_none, validate_choice=False)
    bid = SelectField(_l("Winning bid (叫分)"), coerce=_int_or_none, validate_choice=False)
    turned = StringField(
        _l("Turned card (翻牌)"),
        validators=[Length(max=3, message=TOO_LONG)],
        description=_l("E.g. 7H: its suit is trump."),
    )
    trump = SelectField(_l("Trump (主)"), validate_choice=False)
    friend_card = StringField(
        _l("Friend card (叫的牌)"),
        validators=[Length(max=3, message=TOO_LONG)],
        description=_l("The card the declarer called, e.g. AS, 10H, HJ."),
    )
    friend = SelectField(_l("Friend (朋友)"), coerce=_int_or_none, validate_choice=False)
    kou_di = BooleanField(_l("抠底: an attacker won the last trick (the attackers win)"))
    kitty = IntegerField(
        _l("Buried cards' points (底分), if written"),
        validators=[Optional()],
        description=_l("For the record only: leave empty if not counted."),
    )

    variant: HundredVariant  # type: ignore[assignment]

    def setup(  # type: ignore[override]
        self,
        variant: HundredVariant,
        side_names: list[str],
        seat_names: list[str],
        warnings: bool = False,
    ) -> None:
        self.variant = variant
        self.side_names = side_names
        self.seat_names = seat_names
        self.with_warnings = warnings
        seats = [(i, f"{i + 1} · {n}") for i, n in enumerate(seat_names)]
        self.declarer.choices = choices([("", "—"), *seats])
        self.bid.choices = choices(
            [("", "—")] + [(b, str(b)) for b in range(MIN_BID, MAX_BID + 1, BID_STEP)]
        )
        self.trump.choices = choices([("", "—"), *SUIT_LABELS.items()])
        if variant.friend_mode == "fixed":
            self.friend.label.text = str(_l("Partner (对家)"))
        self.friend.choices = choices([("", _l("alone (独打)")), *seats])
        kinds = [("", _l("none"))] + [(k, PENALTY_LABELS[k]) for k in PENALTY_KINDS]
        who = list(ROLE_LABELS.items())
        for i in range(PEN_SLOTS):
            self[f"pen_kind_{i}"].choices = choices(kinds)  # type: ignore[attr-defined]
            self[f"pen_who_{i}"].choices = choices(who)  # type: ignore[attr-defined]
        warned = [("", _l("nobody"))] + [(str(i), label) for i, label in seats]
        for i in range(WARN_SLOTS):
            self[f"warn_seat_{i}"].choices = choices(warned)  # type: ignore[attr-defined]

    @property
    def has_friend_card(self) -> bool:
        """A friend card is called (shown, hidden, blind), not in fixed pairs or 3人百分."""
        return self.variant.friend_mode not in ("fixed", "dummy")

    def relevant(self) -> list[str]:
        fields = ["declarer", "bid" if self.variant.bidding else "turned", "trump"]
        if self.has_friend_card:
            fields += ["friend_card", "friend"]
        fields += ["points", "kou_di", "kitty"]
        fields += [f"pen_{part}_{i}" for i in range(PEN_SLOTS) for part in ("kind", "who")]
        if self.with_warnings:
            fields += [f"warn_{part}_{i}" for i in range(WARN_SLOTS) for part in ("seat", "reason")]
        return fields

    def penalty_kinds(self) -> list[str]:
        return list(PENALTY_KINDS)

    def penalties(self) -> tuple[tuple[str, str | int], ...]:
        out: list[tuple[str, str | int]] = []
        for i in range(PEN_SLOTS):
            kind = self[f"pen_kind_{i}"].data
            if kind:
                out.append((kind, str(self[f"pen_who_{i}"].data)))
        return tuple(out)

    def ends_by_penalty(self) -> bool:
        """A revoke or a miscount ends the deal (§8): its points need not be written."""
        return any(kind in (REVOKE, MISCOUNT) for kind, _who in self.penalties())

    def _check_penalty(self, i: int) -> None:
        kind = self[f"pen_kind_{i}"].data
        if kind and kind not in PENALTY_KINDS:
            raise ValidationError(
                _l(
                    "Please choose a penalty: revoke (出错牌), miscount (多牌/少牌) or take-back (悔牌)."
                )
            )

    def _check_who(self, i: int) -> None:
        if self[f"pen_kind_{i}"].data and self[f"pen_who_{i}"].data not in (DECLARER, ATTACKERS):
            raise ValidationError(
                _l("Please choose who was at fault: the declarer side or the attackers.")
            )

    def validate_points(self, field: IntegerField) -> None:
        return None  # 0 … 100 in steps of 5: checked with the row (``hundred.hundred_issues``)

    def validate_kitty(self, field: IntegerField) -> None:
        return None  # checked with the row (``hundred.hundred_issues``)

    def validate_friend(self, field: SelectField) -> None:
        return None  # checked with the row: a friend who is the declarer is refused there

    def to_deal(self) -> HundredDeal:
        turned = (self.turned.data or "").strip().upper() or None
        friend_card = (self.friend_card.data or "").strip().upper() or None
        points = self.points.data
        if points is None and self.ends_by_penalty():
            points = 0  # not counted: the penalty decides the deal
        return HundredDeal(
            points=points,  # type: ignore[arg-type]  # None: refused with the row
            kitty=0,
            trump=self.trump.data or None,
            declarer=self.declarer.data,
            friend=self.friend.data if self.has_friend_card else None,
            penalties=self.penalties(),
            warnings=self.warnings() if self.with_warnings else (),
            bid=self.bid.data if self.variant.bidding else None,
            turned=turned if not self.variant.bidding else None,
            friend_card=friend_card if self.has_friend_card else None,
            kou_di=bool(self.kou_di.data),
            kitty_points=self.kitty.data,
        )

    def fill_from(self, deal: Any) -> None:
        self.declarer.data = deal.declarer
        self.trump.data = deal.trump or ""
        self.friend.data = deal.friend
        self.points.data = deal.points
        if isinstance(deal, HundredDeal):
            self.bid.data = deal.bid
            self.turned.data = deal.turned or ""
            self.friend_card.data = deal.friend_card or ""
            self.kou_di.data = deal.kou_di
            self.kitty.data = deal.kitty_points
        for i in range(PEN_SLOTS):
            kind, who = deal.penalties[i] if i < len(deal.penalties) else ("", "")
            self[f"pen_kind_{i}"].data = kind
            self[f"pen_who_{i}"].data = str(who) if kind else None
        for i in range(WARN_SLOTS):
            seat, reason = deal.warnings[i] if i < len(deal.warnings) else ("", "")
            self[f"warn_seat_{i}"].data = str(seat)
            self[f"warn_reason_{i}"].data = reason

    def fresh(self) -> None:
        """A new row: nothing chosen (the declarer, the bid and trump change every deal)."""
        self.declarer.data = None
        self.bid.data = None
        self.trump.data = ""
        self.friend.data = None
        self.kitty.data = None
        self.kou_di.data = False
