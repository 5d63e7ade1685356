"""Bilingual words on paper: variants, suits, cards, options and match lengths."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.hundred_rules import FAMILY_IDS, FORTY_4P, HUNDRED_3P, HUNDRED_4P
from engine.variants import CLIMBING, ONE_TWENTY, RED_FIVE, TRACTOR, VARIANT_IDS

from .model import PrintError

# --------------------------------------------------------------------------------------------
# Words: variants, options, cards
# --------------------------------------------------------------------------------------------

_VARIANT_NAMES = {
    TRACTOR: ("升级（拖拉机）", "Tractor, 4 players"),
    RED_FIVE: ("红五", "Red five, 5 players"),
    ONE_TWENTY: ("120分", "One-twenty, 6 players"),
    CLIMBING: ("争上游", "Climbing, 3 to 6 players"),
    HUNDRED_4P: ("打百分", "Hundred, 4 players"),
    FORTY_4P: ("40分下台", "Forty, 4 players in pairs"),
    HUNDRED_3P: ("3人百分", "Hundred, 3 players and a dummy"),
}
# the games played on paper beside the trick games: 争上游 and 打百分's three
PAPER_GAMES = (CLIMBING, *FAMILY_IDS)
_SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SIDE = ("甲A", "乙B")
_SIDE_LONG = ("甲方 A", "乙方 B")


def _variant_label(variant: str) -> str:
    zh, en = _VARIANT_NAMES[variant]
    return f"{zh} {en}"


def _check_variant(variant: object, also: tuple[str, ...] = ()) -> str:
    """A trick game's id; ``also``: other games the caller prints (争上游's standings)."""
    known = (*VARIANT_IDS, *also)
    if variant not in known:
        raise PrintError(f"unknown variant {variant!r}; the variants are {', '.join(known)}")
    return str(variant)


def _trump_text(trump: str | None) -> str:
    return "无主 NT" if trump is None else _SUIT_SIGNS[trump]


def _card_text(card: str) -> str:
    card = card.strip().upper()
    if card == "HJ":
        return "大王 HJ"
    if card == "LJ":
        return "小王 LJ"
    if len(card) >= 2 and card[-1] in _SUIT_SIGNS:
        return card[:-1] + _SUIT_SIGNS[card[-1]]
    return card


def _yes(v: bool) -> str:
    return "是 yes" if v else "否 no"


def _option_words(variant: str, options: Mapping[str, Any]) -> list[str]:
    """Every option in force, in plain bilingual words (Chinese first)."""
    if variant in FAMILY_IDS:
        return _hundred_options(options)
    words: list[str] = []
    for name, value in options.items():
        if variant == CLIMBING and name in _CLIMBING_OPTIONS:
            words.append(_climbing_option(name, value, options))
        elif name == "decks":
            words.append(
                f"{value} 副牌 {value} decks" + ("（无底牌 no kitty）" if value == 4 else "")
            )
        elif name == "triple_tractors":
            words.append(f"三张连算拖拉机 Tractors of triples: {_yes(bool(value))}")
        elif name == "kitty_multiplier":
            if options.get("decks") == 4:
                continue  # no kitty with 4 decks
            text = {
                "by_shape": "按牌型 ×2×张数 by shape: 2 × cards of the largest unit",
                "power": "2 的张数次方 2 to the power of the unit's cards",
                "double": "一律 ×2 always × 2",
            }[value]
            words.append(f"抠底倍数 Kitty multiplier: {text}")
        elif name == "throw_penalty":
            text = {
                "ten_per_attempt": (
                    "每次罚 10 分，每方每局至多 3 次 10 points per failure, at most 3 per side"
                ),
                "ten_per_card": (
                    "每张收回的牌罚 10 分，每方每局至多 3 次 "
                    "10 × the cards taken back, at most 3 failures per side"
                ),
            }.get(value, "不罚 no penalty")
            words.append(f"甩牌失败 Failed throw: {text}")
        elif name in _PENALTY_OPTIONS:
            continue  # in the penalty catalogue (``_penalty_catalogue``)
        elif name == "no_call_trump":
            text = (
                "翻底定主 turn the kitty over" if value == "kitty" else "黑桃为主 spades are trump"
            )
            words.append(f"无人叫主 Nobody calls: {text}")
        elif name == "redeal_below":
            words.append(
                "不许暴动 No redeal"
                if value is None
                else f"闲家手牌不足 {value} 分可暴动重发 Redeal if an attacker holds < {value} points"
            )
        elif name == "refuse_below":
            words.append(
                "不许拒打 No refusing"
                if value is None
                else f"对方手牌不足 {value} 分可拒打 Opponents may refuse if a hand holds < {value}"
            )
        elif name == "score_table":
            words.append("积分表：每 60 分一个单位 Score table: units of 60 points")
        elif name == "must_play_levels":
            levels = " ".join(value)
            words.append(f"必打级 Must-play levels: {levels}")
        else:  # an option without printed words yet: never leave a rule in force off the sheet
            words.append(f"{name}: {value}")
    return words


_CLIMBING_OPTIONS = ("players", "decks", "tribute", "place_points")


def _climbing_option(name: str, value: Any, options: Mapping[str, Any]) -> str:
    """One of 争上游's options (CLIMBING.md) in words."""
    if name == "players":
        return f"{value} 人 {value} players"
    if name == "decks":
        return f"{value} 副牌 {value} deck{'s' if value != 1 else ''}"
    if name == "tribute":
        return (
            "进贡：下游给上游最大的一张牌 Tribute: the last gives the first his highest card"
            if value
            else "不进贡 No tribute"
        )
    points = value if value is not None else range(options.get("players", 4) - 1, -1, -1)
    text = " · ".join(str(p) for p in points)
    return f"名次得分（上游→下游）Points by place (first to last): {text}"


def _hundred_options(options: Mapping[str, Any]) -> list[str]:
    """打百分's options (HUNDRED.md) in words, with the scoring they bring (§8)."""
    words = []
    friend = options.get("friend")
    if friend is not None:
        words.append(
            {
                "fixed": "固定朋友：对家为搭档 Fixed partners opposite",
                "shown": "明朋友：叫牌者亮明 A friend card, its holder shown at once",
                "hidden": "暗朋友：出牌才知 A hidden friend, known when the card is played",
                "blind": "盲叫：看底前叫主和朋友牌 Trump and friend card named before the kitty",
            }[str(friend)]
        )
    if "open_kitty" in options:
        words.append(
            "明底 Open kitty" if options["open_kitty"] else "暗底 Kitty seen by the declarer"
        )
    stakes = options.get("stakes")
    if stakes == "flat":
        words.append("每局 1 分 One unit a deal")
    elif stakes == "bid":
        words.append("每局分数 = (叫分 − 55) ÷ 5 Units = (bid − 55) / 5")
    else:
        words.append(
            "翻牌定主，闲家 40 分胜，每局 1 分 Turned card trump; attackers win at 40; 1 unit"
        )
    words.append("抠底闲家胜 抠底: the attackers win the deal")
    return words


_PENALTY_OPTIONS = ("revoke_effect", "takeback_effect", "strikes_lose_match")


def _penalty_catalogue(variant: str, options: Mapping[str, Any]) -> list[str]:
    """The competition penalties (RULES §7) with this tournament's options, in bilingual words
    for the rules line; the sheet's penalties column records them."""
    takeback_level = options.get("takeback_effect", "level") == "level"
    if variant in FAMILY_IDS:  # HUNDRED.md §8
        return [
            "罚则 Penalties: 出错牌、多牌/少牌本局结束 revoke, miscount end the deal: "
            "庄家方犯规闲家胜，闲家犯规庄家方胜 declarer side at fault → the attackers win it; "
            "attackers at fault → the declarer side wins it (units by the bid)",
            "悔牌只警告 Take-back: a warning only",
            "警告不计分 Warnings (警告) count for nothing",
        ]
    if variant == CLIMBING:
        return [
            "罚则 Penalties: 悔牌犯规者少 1 分 a take-back costs its player one point",
            "出牌错误由裁判在记分表上更正 A wrong play is corrected by the table director",
            "警告不计分 Warnings (警告) count for nothing",
        ]
    if variant == RED_FIVE:
        kinds = "出错牌、多牌/少牌、扣底张数错" + ("、悔牌" if takeback_level else "")
        words = [
            f"罚则 Penalties: {kinds} revoke, miscount, wrong kitty"
            + (", take-back" if takeback_level else "")
            + "：犯规者 −4 积分，其余每人 +1 the seat at fault −4, each other seat +1"
        ]
        if not takeback_level:
            words.append("悔牌只警告 Take-back: a warning only")
    else:
        ends = "本局结束：庄家方犯规闲家坐庄不升级，闲家犯规庄家方升 1 级 the deal ends: declarers at fault → attackers take over, no gain; attackers at fault → declarers +1"  # noqa: E501
        if options.get("revoke_effect", "ends_deal") == "ends_deal":
            revoke = ends
        else:
            revoke = "打完计分后对方多升 1 级 played out, then the other side gains one more level"
        words = [
            f"出错牌 Revoke: {revoke}",
            f"多牌/少牌 Miscount: {ends}",
        ]
        if options.get("decks", 2) != 4:
            words.append("扣底张数错 Wrong kitty (庄家方 declarers): 闲家坐庄 attackers take over")
        words.append(
            "悔牌 Take-back: 犯规方降 1 级 the side at fault goes down one level"
            if takeback_level
            else "悔牌只警告 Take-back: a warning only"
        )
        strikes = options.get("strikes_lose_match")
        if strikes is not None:
            words.append(
                f"一场犯规满 {strikes} 次判负 {strikes} penalties in a match lose it (forfeit)"
            )
    words.append("警告不计分 Warnings (警告) count for nothing")
    return words


def _penalty_cell(penalties: Any, warnings: Any, fixed: bool) -> str:
    """A deal's penalties and warnings in the sheet's penalties column, short enough for it:
    the kind in two characters and who was at fault (庄 / 闲, or the seat), a warning 警 and the
    seat ("出错庄 悔牌闲 警3"); the rules line names the kinds in full."""
    parts = []
    for kind, who in penalties:
        whose = ("庄" if who == "declarer" else "闲") if fixed else str(who + 1)
        parts.append(f"{_PENALTY_SHORT[kind]}{whose}")
    parts += [f"警{seat + 1}" for seat in warnings]
    return " ".join(parts)


_PENALTY_SHORT = {"revoke": "出错", "miscount": "多少", "wrong_kitty": "扣底", "takeback": "悔牌"}
PENALTY_KINDS = tuple(_PENALTY_SHORT)


_TIE_BREAK_WORDS = {
    "on_stage": "平级台上方胜 equal levels: the side on stage wins",
    "extra_deal": "平级加赛一局 equal levels: one extra deal decides",
}


def _match_words(match: Mapping[str, Any]) -> str:
    kind = _match_kind(match)
    if kind[0] == "deals":
        text = f"{kind[1]} 局 deals"
    elif kind[0] == "minutes":
        text = f"{kind[1]} 分钟 minutes"
    elif match.get("target", "A") != "A":
        text = f"打过{match['target']} to {match['target']}"
    else:
        text = "打过A to A"
    return text


def _preset_words(preset: str, match: Mapping[str, Any]) -> list[str]:
    """The rule preset the tournament started from and the match's tie-break, first on the
    rules line (none of them: nothing)."""
    words = [f"规则预设 Rule preset: {preset}"] if preset else []
    tie = match.get("tie_break", "draw")
    if tie in _TIE_BREAK_WORDS:
        words.append(_TIE_BREAK_WORDS[tie])
    return words


_MATCH_EXTRAS = ("tie_break", "target")


def _match_kind(match: object) -> tuple[str, int]:
    kinds = (
        {k: v for k, v in match.items() if k not in _MATCH_EXTRAS}
        if isinstance(match, Mapping)
        else None
    )
    if kinds is None or len(kinds) != 1:
        raise PrintError(
            f'match must be one of {{"deals": n}}, {{"minutes": n}}, {{"to_a": true}}, not {match!r}'
        )
    ((key, value),) = kinds.items()
    if key in ("deals", "minutes"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PrintError(f"match {key} must be a whole number ≥ 1, not {value!r}")
        return key, value
    if key == "to_a" and value is True:
        return "to_a", 0
    raise PrintError(
        f'match must be one of {{"deals": n}}, {{"minutes": n}}, {{"to_a": true}}, not {match!r}'
    )


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)
