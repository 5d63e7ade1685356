"""A variant's rule options (``RULES.md``) in plain words: the set up form's inputs, and what was
typed in them parsed back into engine options."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from engine.errors import EngineError
from engine.variants import default_options, make_any_variant, option_names, option_spec

# Plain words for each rule option (the engine's help text, translated).
OPTION_LABELS: dict[str, Any] = {
    "decks": _l("Number of decks (4 decks: no kitty, hidden calls)"),
    "triple_tractors": _l("Consecutive triples form a tractor"),
    "kitty_multiplier": _l("Kitty bonus (抠底) when the attackers win the last trick"),
    "throw_penalty": _l("Failed throw (甩牌): points to the other side"),
    "no_call_trump": _l("When nobody calls a trump (主)"),
    "redeal_below": _l("An attacker with fewer points than this may ask for a redeal"),
    "refuse_below": _l("Opponents may refuse a deal when a hand has fewer points than this"),
    "score_table": _l("Red five score table"),
    "must_play_levels": _l("Levels (级) a gain may never skip"),
    "revoke_effect": _l("A revoke (出错牌: not following when able)"),
    "takeback_effect": _l("A take-back (悔牌: taking back a card after the next player played)"),
    "strikes_lose_match": _l(
        "Penalties (revoke, miscount, wrong kitty, take-back) that lose a match"
    ),
    # 争上游
    "players": _l("Players at a table"),
    "tribute": _l(
        "Tribute (进贡): from the second deal the last gives his highest card to the first"
    ),
    "place_points": _l("Points by place, first place first"),
    # 打百分
    "friend": _l("Sides (朋友)"),
    "open_kitty": _l("Open kitty (明底): the kitty and the buried cards shown to every seat"),
    "stakes": _l("Units of a deal"),
}
CHOICE_LABELS: dict[tuple[str, Any], Any] = {
    ("decks", 1): _l("1 deck"),
    ("decks", 2): _l("2 decks"),
    ("tribute", True): _l("yes"),
    ("tribute", False): _l("no: the turned card decides every first lead"),
    ("decks", 4): _l("4 decks"),
    ("kitty_multiplier", "by_shape"): _l("2 × the cards of the last trick's largest part"),
    ("kitty_multiplier", "power"): _l("2 to the power of that count"),
    ("kitty_multiplier", "double"): _l("always × 2"),
    ("throw_penalty", "ten_per_attempt"): _l("10 points per failed attempt (at most 3)"),
    ("throw_penalty", "ten_per_card"): _l("10 points per card taken back (at most 3 throws)"),
    ("throw_penalty", "none"): _l("no penalty"),
    ("revoke_effect", "ends_deal"): _l(
        "ends the deal: the other side wins it (the attackers take over, or the declarer side "
        "gains 1)"
    ),
    ("revoke_effect", "extra_level"): _l(
        "the deal is played out; the other side gains 1 level more"
    ),
    ("takeback_effect", "level"): _l("its side goes down 1 level (red five: 4 积分)"),
    ("takeback_effect", "warning"): _l("a warning only"),
    ("no_call_trump", "kitty"): _l("turn kitty cards until one names the trump suit"),
    ("no_call_trump", "spades"): _l("spades are trump"),
    ("score_table", "units60"): _l("units of 60 points"),
    ("triple_tractors", True): _l("yes"),
    ("triple_tractors", False): _l("no"),
    ("friend", "fixed"): _l("fixed partners opposite (固定朋友): a pair event"),
    ("friend", "shown"): _l("a friend card, its holder shown at once (明朋友)"),
    ("friend", "hidden"): _l("a friend card, its holder known when it is played (暗朋友)"),
    ("friend", "blind"): _l("friend card and trump named before the kitty is seen (盲叫)"),
    ("open_kitty", True): _l("yes"),
    ("open_kitty", False): _l("no: only the declarer sees them"),
    ("stakes", "bid"): _l("by the bid: (bid − 55) / 5, 60 → 1 … 100 → 9"),
    ("stakes", "flat"): _l("1 whatever the bid"),
}


# every game's options, 打百分's too, come from engine.variants


def option_choice_label(name: str, value: Any) -> str:
    label = CHOICE_LABELS.get((name, value))
    return str(label) if label is not None else str(value)


def option_value_text(name: str, value: Any, variant: str | None = None) -> str:
    """One option's value in words: a choice's label, yes/no, points, levels."""
    kind = option_spec(name, variant).kind
    if kind == "place_points":
        return _("players − 1 for the first down to 0") if value is None else _points_text(value)
    if kind == "points_or_null":
        return _("none") if value is None else _("%(n)d points", n=value)
    if kind == "levels":
        return ", ".join(value or [])
    if kind == "count_or_null":
        return _("none") if value is None else _("%(n)d penalties", n=value)
    return option_choice_label(name, value)


def option_summary(variant: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every rule option in force for a tournament (its own choices over the defaults), in plain
    words: ``label``, ``value`` (words) and ``changed`` (not the default)."""
    defaults = default_options(variant)
    out = []
    for name in option_names(variant):
        value = options.get(name, defaults.get(name))
        out.append(
            {
                "option": name,
                "label": str(OPTION_LABELS.get(name, option_spec(name, variant).help)),
                "value": option_value_text(name, value, variant),
                "changed": name in options and value != defaults.get(name),
            }
        )
    return out


def option_fields(variant: str, form_data: Any, defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """The option inputs of a variant (name, label, kind, choices, current value as text)."""
    out = []
    for name in option_names(variant):
        spec = option_spec(name, variant)
        key = f"opt_{name}"
        current = defaults.get(name)
        if spec.kind == "levels":
            shown = ", ".join(current or ["A"])
        elif spec.kind == "place_points":
            shown = "" if current is None else _points_text(current)
        elif current is None:
            shown = ""
        else:
            shown = _as_text(current)
        value = form_data.get(key, shown) if form_data is not None else shown
        opts: list[tuple[str, str]] = []
        if spec.choices is not None:
            opts = [(_as_text(c), option_choice_label(name, c)) for c in spec.choices]
        out.append(
            {
                "name": key,
                "option": name,
                "label": str(OPTION_LABELS.get(name, spec.help)),
                "kind": spec.kind,
                "choices": opts,
                "value": value,
                "default": shown,
            }
        )
    return out


def _points_text(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _as_text(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def parse_options(variant: str, form: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """The options typed in the set up form that differ from the defaults, and errors."""
    defaults = default_options(variant)
    given: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name in option_names(variant):
        spec = option_spec(name, variant)
        if spec.kind != "bool" and f"opt_{name}" not in form:
            continue  # not on the posted form (one from before the option existed): the default
        raw = (form.get(f"opt_{name}") or "").strip()
        value: Any
        if spec.kind == "bool":
            value = raw == "true"
        elif spec.kind == "choice":
            assert spec.choices is not None
            match = [c for c in spec.choices if str(c) == raw]
            if not match:
                errors[name] = _("Please choose one of the listed values.")
                continue
            value = match[0]
        elif spec.kind == "points_or_null":
            if raw == "":
                value = None
            elif raw.isdigit() and int(raw) % 5 == 0:
                value = int(raw)
            else:
                errors[name] = _("A number of points in steps of 5, or empty for none.")
                continue
        elif spec.kind == "count_or_null":
            if raw == "":
                value = None
            elif raw.isdigit() and int(raw) >= 1:
                value = int(raw)
            else:
                errors[name] = _("A whole number, 1 or more, or empty for none.")
                continue
        elif spec.kind == "place_points":
            parts = [x.strip() for x in raw.replace("，", ",").split(",") if x.strip()]
            if not all(x.lstrip("-").isdigit() and len(x) < 6 for x in parts):
                errors[name] = _("Whole numbers separated by commas, e.g. 3, 2, 1, 0.")
                continue
            value = [int(x) for x in parts] or None
        else:  # levels
            value = [x.strip().upper() for x in raw.replace("，", ",").split(",") if x.strip()]
        try:
            checked = make_any_variant(variant, {**given, name: value}).options[name]
        except EngineError:
            if spec.kind == "place_points":
                errors[name] = _(
                    "One number per place, as many as players at a table, from the first "
                    "down, each at most the one before."
                )
            else:
                errors[name] = _("Levels such as 5, 10, K, A separated by commas.")
            continue
        if checked != defaults.get(name):
            given[name] = checked
    return given, errors
