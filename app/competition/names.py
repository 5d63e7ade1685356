"""How a typed name is cleaned, without any web framework: the forms (``app.services.text``) and
the tournament file (``tfile``) both use it, so a name means the same whichever way it came in."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

_SPACES = re.compile(r"\s+")
T = TypeVar("T")


def normalize_name(value: str) -> str:
    """NFC, every run of white space (ideographic spaces too) one space, no space at the ends."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", value)).strip()


def name_match_key(value: str) -> str:
    """How two typed names are compared: NFKC (full-width letters and digits as ASCII, 兼容
    forms as their ordinary characters), without white space, case-blind: "王 伟" is "王伟",
    "ＡＮＮＡ Li" is "anna li"."""
    return "".join(unicodedata.normalize("NFKC", value).split()).casefold()


def has_invisible(name: str) -> bool:
    """Control, format (bidirectional overrides and isolates, zero-width spaces and joiners, the
    byte order mark), surrogate, private-use or unassigned characters: none belongs in a name."""
    return any(unicodedata.category(ch).startswith("C") for ch in name)


# How surnames read that pypinyin reads otherwise (曾 is zēng as a surname, not céng): applied to
# the start of a name only, two-character surnames first.
_SURNAMES: dict[str, tuple[str, ...]] = {
    "万俟": ("mo4", "qi2"),
    "尉迟": ("yu4", "chi2"),
    "单于": ("chan2", "yu2"),
    "长孙": ("zhang3", "sun1"),
    "令狐": ("ling2", "hu2"),
    "澹台": ("tan2", "tai2"),
    "曾": ("zeng1",),
    "单": ("shan4",),
    "解": ("xie4",),
    "仇": ("qiu2",),
    "区": ("ou1",),
    "朴": ("piao2",),
    "查": ("zha1",),
    "盖": ("ge3",),
    "覃": ("qin2",),
    "乐": ("yue4",),
    "翟": ("zhai2",),
    "缪": ("miao4",),
    "尉": ("wei4",),
    "召": ("shao4",),
    "秘": ("bi4",),
    "宓": ("mi4",),
    "种": ("chong2",),
    "员": ("yun4",),
    "繁": ("po2",),
    "句": ("gou1",),
    "厍": ("she4",),
    "折": ("she2",),
    "祭": ("zhai4",),
    "藏": ("zang4",),
    "华": ("hua4",),
    "任": ("ren2",),
    "纪": ("ji3",),
    "过": ("guo1",),
    "褚": ("chu3",),
    "阚": ("kan4",),
    "訾": ("zi1",),
    "燕": ("yan1",),
    "都": ("du1",),
    "重": ("chong2",),
    "莘": ("shen1",),
    "蕃": ("pi2",),
}
_HAN = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+)")


def _syllables(han: str, first: bool) -> list[str]:
    """Pinyin with tone numbers (TONE3, neutral tone 5) of a run of Chinese characters; at the
    start of a name the surname reads as a surname."""
    from pypinyin import Style, lazy_pinyin

    head: list[str] = []
    if first:
        for surname in (han[:2], han[:1]):
            if surname in _SURNAMES:
                head, han = list(_SURNAMES[surname]), han[len(surname) :]
                break
    rest = lazy_pinyin(han, style=Style.TONE3, neutral_tone_with_five=True) if han else []
    return head + rest


def name_sort_key(name: str) -> tuple[str, tuple[int, ...], str, str]:
    """How every list of names in the app is ordered: Chinese names by their pinyin (李 among
    the L's, 曾 among the Z's as a surname), Latin names among them by their letters (accents
    and case aside), so 陈静 (chen jing) < Emma Chen < 刘洋 (liu yang) < 王伟 (wang wei). Equal
    spellings order by tone, then by the match key, then by the name itself, so the order is
    total. Compared after NFKC and white-space folding, like ``name_match_key``."""
    text = unicodedata.normalize("NFKC", name).strip()
    words: list[str] = []
    tones: list[int] = []
    for i, part in enumerate(_HAN.split(text)):
        if i % 2:  # a run of Chinese characters
            for syllable in _syllables(part, first=not words):
                tone = syllable[-1] if syllable[-1:].isdigit() else "0"
                words.append(syllable.rstrip("012345"))
                tones.append(int(tone))
        else:
            plain = "".join(
                ch for ch in unicodedata.normalize("NFKD", part) if not unicodedata.combining(ch)
            )
            for word in plain.casefold().split():
                words.append(word)
                tones.append(0)
    return (" ".join(words), tuple(tones), name_match_key(name), name)


def sorted_names(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """``items`` in the app's one name order (``name_sort_key`` of ``name(item)``)."""
    return sorted(items, key=lambda item: name_sort_key(name(item)))
