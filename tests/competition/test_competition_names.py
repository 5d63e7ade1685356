"""The app's one name order (``name_sort_key``: pinyin, Latin names among them) and its one name
comparison (``name_match_key``: NFKC, white space folded, case-blind)."""

from __future__ import annotations

import copy

import pytest

from app.competition import duplicate_file as df
from app.competition import tfile
from app.competition.names import name_match_key, name_sort_key, sorted_names
from app.competition.ratings import Game, rate
from app.competition.seasons import NightLine, season_standings
from app.competition.tfile import TournamentFileError
from tests.competition.test_competition_duplicate_file import LIMITS
from tests.competition.tfile_examples import EXAMPLE


def _order(names: list[str]) -> list[str]:
    return sorted(names, key=name_sort_key)


def test_chinese_names_by_pinyin_with_latin_names_among_them():
    names = ["王伟", "Emma Chen", "刘洋", "陈静", "zoe", "Anna", "李娜", "bob", "张敏"]
    assert _order(names) == [
        "Anna",
        "bob",
        "陈静",  # chen jing
        "Emma Chen",
        "李娜",  # li na
        "刘洋",  # liu yang
        "王伟",  # wang wei
        "张敏",  # zhang min
        "zoe",
    ]
    # the same list the other way round gives the same order: the key alone decides
    assert _order(list(reversed(names))) == _order(names)
    assert sorted_names([{"n": n} for n in names], lambda x: x["n"])[2] == {"n": "陈静"}


def test_syllable_by_syllable_then_tone_then_spelling():
    # li na < lin: a shorter syllable first, as in a dictionary
    assert _order(["林", "李娜"]) == ["李娜", "林"]
    # the same letters: the tones decide (妈 mā, 麻 má, 马 mǎ, 骂 mà)
    assert _order(["骂", "马", "妈", "麻"]) == ["妈", "麻", "马", "骂"]
    # the same sound in Latin letters comes before the characters, and the order is total
    assert _order(["王伟", "Wang Wei"]) == ["Wang Wei", "王伟"]
    assert _order(["Zoë", "Zoe", "zoe"]) == ["Zoe", "zoe", "Zoë"]
    # lü after lu, as in the dictionary
    assert _order(["吕方", "卢方"]) == ["卢方", "吕方"]


def test_polyphonic_surnames_read_as_surnames():
    # 曾 is zēng as a surname (not céng), 单 shàn, 解 xiè, 仇 qiú, 区 ōu, 朴 piáo, 查 zhā
    assert name_sort_key("曾伟")[0] == "zeng wei"
    assert name_sort_key("单田芳")[0] == "shan tian fang"
    assert name_sort_key("解晓东")[0] == "xie xiao dong"
    assert name_sort_key("仇英")[0] == "qiu ying"
    assert name_sort_key("区志")[0] == "ou zhi"
    assert name_sort_key("朴正")[0] == "piao zheng"
    assert name_sort_key("查良镛")[0] == "zha liang yong"
    assert name_sort_key("尉迟恭")[0] == "yu chi gong"  # a two-character surname
    # only at the start: 曾 inside a given name reads as pypinyin reads it
    assert name_sort_key("王曾")[0] == "wang ceng"
    # read as céng, 曾伟 would come before 陈静 (ceng < chen); as zēng it is among the Z's
    assert _order(["曾伟", "陈静", "王伟"]) == ["陈静", "王伟", "曾伟"]


def test_spaces_and_full_width_letters_do_not_change_the_place():
    assert name_sort_key("王 伟")[:3] == name_sort_key("王伟")[:3]
    assert name_sort_key("ＷＡＮＧ")[0] == name_sort_key("Wang")[0] == "wang"
    assert name_match_key("王 伟") == name_match_key("王伟")
    assert name_match_key("ＷＡＮＧ  Wei") == name_match_key("wang wei")
    assert name_match_key("王\u3000伟") == name_match_key("王伟")  # an ideographic space
    assert name_match_key("王伟") != name_match_key("王玮")


def test_season_lines_and_ratings_fold_names_typed_differently():
    one = [NightLine("n1", "王伟", 3, 2, 1, "A"), NightLine("n1", "李娜", 0, -2, 2, "B")]
    two = [NightLine("n2", "王 伟", 3, 1, 1, "A"), NightLine("n2", "李\u3000娜", 0, -1, 2, "B")]
    rows = season_standings([one, two])
    assert [(r.player, r.nights, r.score) for r in rows] == [("王伟", 2, 6), ("李娜", 2, 0)]
    # ratings: "王 伟" on the second night is the same player as 王伟 on the first
    games = [
        Game(when="1", teams=(("王伟",), ("李娜",)), winner=0, kind="match"),
        Game(when="2", teams=(("王 伟",), ("李娜",)), winner=0, kind="match"),
    ]
    ratings = rate(games)
    assert set(ratings) == {"王伟", "李娜"} and ratings["王伟"].games == 2


def test_a_tournament_file_lists_a_player_once_however_typed():
    doc = copy.deepcopy(EXAMPLE)
    doc["played"] = []
    doc["entrants"][1]["players"] = ["王 伟", "Zhao Lei"]
    doc["entrants"][2]["players"] = ["王伟", "Liu Yang"]
    with pytest.raises(TournamentFileError) as info:
        tfile.load(doc)
    assert "entrants[2].players[0]: '王伟' already plays for 'Wang & Zhao'" in [
        str(e) for e in info.value.errors
    ]
    doc["entrants"][2]["players"] = ["Chen Jie", "ＣＨＥＮ  jie"]
    with pytest.raises(TournamentFileError) as info:
        tfile.load(doc)
    assert any("listed twice" in str(e) for e in info.value.errors)


def test_a_duplicate_file_names_an_entrant_once_however_typed():
    e = df.EventFile(
        "Club", "Pairs", "tractor-4p", {}, "pairs", "round-robin", 1, None, 77, tuple("ABCDEF")
    )
    doc = df.dump(e)
    doc["duplicate"]["entrants"] = ["王伟", "李娜", "王 伟", "ＬＩ娜", "E", "F"]
    problems = [(p.path, p.code) for p in _load_problems(doc)]
    assert problems == [("duplicate.entrants[2]", "entrant_twice")]


def _load_problems(doc: object) -> list[df.Problem]:
    with pytest.raises(df.DuplicateFileError) as info:
        df.load(doc, LIMITS)
    return list(info.value.problems)
