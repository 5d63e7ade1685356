"""Rule presets: named starting points for a tournament's set-up (its game, rule options, match
length and tie-break). A director picks one and may then change any option; the tournament keeps
the preset's name, which its printed score sheet shows. Data only: the words are in both
languages here because the printed sheet is bilingual; pages show the reader's one.

``variant`` None: the preset fits every game of RULES.md, the games of levels (it keeps the
game chosen on the form). 打百分's games (HUNDRED.md) have no levels and rules of their own, so
the generic presets, whose words speak of RULES.md and levels, are not theirs: each of its games
has its own club-night preset (``club-hundred`` …), first in its list as ``club`` is in theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.hundred_rules import is_family as is_hundred
from engine.variants import ONE_TWENTY, RED_FIVE, TRACTOR


@dataclass(frozen=True)
class Preset:
    id: str
    name_en: str
    name_zh: str
    words_en: str
    words_zh: str
    variant: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    match: Mapping[str, Any] = field(default_factory=lambda: {"deals": 8})

    def name(self, locale: str) -> str:
        return self.name_zh if locale.startswith("zh") else self.name_en

    def words(self, locale: str) -> str:
        return self.words_zh if locale.startswith("zh") else self.words_en

    @property
    def printed(self) -> str:
        """The name as the bilingual score sheet prints it."""
        return f"{self.name_zh} {self.name_en}"

    def fits(self, variant: str) -> bool:
        """Offered for ``variant``: its own game's preset, or a generic one (``variant`` None)
        for a game of levels — never for 打百分's, whose words it does not speak."""
        if self.variant is not None:
            return self.variant == variant
        return not is_hundred(variant)


PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        Preset(
            "club",
            "Club default",
            "俱乐部默认",
            "The rules of RULES.md as they stand, 8 deals a match, equal levels a draw.",
            "按规则书的默认规则，每场 8 局，级数相同为平局。",
        ),
        Preset(
            "competition-tractor",
            "Competition 升级",
            "升级比赛",
            "10 points per card a failed throw takes back, a revoke ends the deal, three "
            "penalties lose the match; 90-minute rounds, equal levels won by the side on stage.",
            "甩牌失败每张罚 10 分，出错牌本局结束，三次犯规判负；每轮 90 分钟定时，"
            "级数相同台上方胜。",
            TRACTOR,
            {
                "throw_penalty": "ten_per_card",
                "revoke_effect": "ends_deal",
                "strikes_lose_match": 3,
            },
            {"minutes": 90, "tie_break": "on_stage"},
        ),
        Preset(
            "first-past-10",
            "First past 10",
            "打过 10",
            "A match to level 10, which no gain may skip: the first side to win a deal as "
            "declarer at 10 wins, as local knockout events play it.",
            "打到 10 级为止，10 为必打级：先在 10 级坐庄获胜的一方胜出（地方淘汰赛打法）。",
            TRACTOR,
            {"must_play_levels": ["10", "A"]},
            {"to_a": True, "target": "10"},
        ),
        Preset(
            "competition-red-five",
            "Competition 红五",
            "红五比赛",
            "10 deals at each table, so every seat deals twice; a take-back costs 4 积分.",
            "每桌 10 局，每位轮流坐庄两次；悔牌罚 4 积分。",
            RED_FIVE,
            {"takeback_effect": "level"},
            {"deals": 10},
        ),
        Preset(
            "competition-one-twenty",
            "Competition 120分",
            "120分比赛",
            "A revoke gives the other side one level more, three penalties lose the match; "
            "60-minute rounds, equal levels decided by one extra deal.",
            "出错牌对方多升一级，三次犯规判负；每轮 60 分钟定时，级数相同加赛一局定胜负。",
            ONE_TWENTY,
            {"revoke_effect": "extra_level", "strikes_lose_match": 3},
            {"minutes": 60, "tie_break": "extra_deal"},
        ),
    )
}


# 打百分 (HUNDRED.md): a club night of each game; the options are the engine's
# (engine.hundred_rules), the rest of the night (pairing, rounds) as for any game
PRESETS.update(
    (p.id, p)
    for p in (
        Preset(
            "club-hundred",
            "Club 打百分",
            "打百分俱乐部赛",
            "叫分暗朋友: the declarer calls a card after burying, its holder is the friend, known "
            "when it is played; 积分 by the bid's units, players re-seated each round; 8 deals a "
            "table.",
            "叫分暗朋友：庄家扣底后叫一张牌，持牌者为朋友，打出才知；按叫分计积分，每轮按名次"
            "重新排座；每桌 8 局。",
            "hundred-4p",
            {"friend": "hidden", "stakes": "bid"},
            {"deals": 8},
        ),
        Preset(
            "club-hundred-pairs",
            "Club 打百分, fixed partners",
            "打百分固定朋友俱乐部赛",
            "叫分固定朋友: partners sit opposite; each side scores its deals' units by the bid, "
            "more units win the match and 分差 breaks ties; 8 deals a match.",
            "叫分固定朋友：对家为伙伴；每方按叫分计各局分数，分多者胜，分差决定并列名次；"
            "每场 8 局。",
            "hundred-4p",
            {"friend": "fixed", "stakes": "bid"},
            {"deals": 8},
        ),
        Preset(
            "club-forty",
            "Club 40分下台",
            "40分下台俱乐部赛",
            "A turned card names trump and the attackers need 40 to win (抠底 wins too); one unit "
            "a deal, more units win the match, 分差 breaks ties; 10 deals a match.",
            "翻牌定主，闲家得 40 分即胜（抠底亦胜）；每局 1 分，分多者胜，分差决定并列名次；"
            "每场 10 局。",
            "forty-4p",
            {},
            {"deals": 10},
        ),
        Preset(
            "club-hundred-3p",
            "Club 3人百分",
            "3人百分俱乐部赛",
            "Three players bid; the declarer plays the dummy hand turned face up opposite him "
            "(the declarer ±2 units, each attacker ∓1, units by the bid); re-seated in threes "
            "each round; 9 deals a table.",
            "三人叫分，庄家明摆对面的暗手一同出牌（庄家 ±2 倍，闲家各 ∓1 倍，按叫分计）；"
            "每轮三人一桌按名次重新排座；每桌 9 局。",
            "hundred-3p",
            {"stakes": "bid"},
            {"deals": 9},
        ),
    )
)


def presets_for(variant: str) -> list[Preset]:
    """The presets a tournament of this game may start from, in order."""
    return [p for p in PRESETS.values() if p.fits(variant)]


def preset(preset_id: str | None) -> Preset | None:
    return PRESETS.get(preset_id) if preset_id else None


def is_competition(preset_id: str | None) -> bool:
    """A competition preset: conduct penalties (a take-back online) go on the score sheet."""
    return bool(preset_id) and str(preset_id).startswith("competition-")
