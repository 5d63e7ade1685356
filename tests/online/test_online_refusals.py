"""Every engine refusal in the reader's language: each engine code has words in the app
(``app/services/online/refusals.py``) in English and in Chinese, and an illegal move posted on a
seat page answers 422 with the sentence in the browser's language, changing nothing."""

from __future__ import annotations

import functools
import html as htmllib
import io
import json
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import force_locale
from sqlalchemy import func, select

from app.extensions import db
from app.models import OnlineAction, OnlineDeal, Tournament
from app.services.online.cards import face_of
from app.services.online.refusals import REFUSALS, refusal_text, refusal_words
from engine import hundred_rules
from engine.bots import HeuristicBot
from engine.cards import card_str, cards_str, parse_cards
from engine.climbing import HIGH_JOKER, crank
from engine.climbing_deal import ClimbingDeal, new_deal, plays_from
from engine.codes import CODES
from engine.errors import EngineError, IllegalAction
from tests.online.online_helpers import (
    OnlineWorld,
    form,
    moves,
    online_world,
    page_token,
    replay_row,
)
from tests.tournaments.tournament_helpers import login, world

PO = Path(__file__).parents[2] / "app/translations/zh/LC_MESSAGES/messages.po"
CJK = re.compile(r"[\u4e00-\u9fff]")

SAMPLES = {
    "seat": 2,
    "to_act": 1,
    "caller": 3,
    "dealer": 0,
    "seats": [0, 2],
    "card": "10H",
    "cards": ["10H", "HJ"],
    "suit": "H",
    "phase": "bury",
    "side": "declarer",
    "action": "play",
    "what": "the play",
    "level": "5",
    "got": "'7Z'",
    "text": "'7Z'",
    "cause": {"code": "phase.pass", "params": {"phase": "draw"}},
    "demands": [
        {"kind": "pair"},
        {"kind": "tractor", "unit": "pair", "length": 2},
        {"kind": "handled", "triples": 1, "pairs": 1},
    ],
}


def _engine_params(code: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(CODES[code]) if name}


def _sample(code: str) -> dict:
    names = _engine_params(code) | ({"demands"} if code == "follow.shape" else set())
    return {name: SAMPLES.get(name, 3) for name in names}


@functools.cache
def _catalog() -> dict[str, str]:
    with PO.open("rb") as f:
        cat = read_po(f)
    return {m.id: m.string for m in cat if m.id and not m.fuzzy}


def test_every_engine_code_has_words_in_the_app():
    assert set(CODES) - set(REFUSALS) == set()
    assert set(REFUSALS) - set(CODES) == set()  # no words for a code the engine dropped


def _problems(code: str) -> list[str]:
    with force_locale("en"):
        msgid = str(REFUSALS[code])  # no English catalog: the words are the msgid
    problems = []
    # the app's words use only parameters the engine gives with this code
    extra = set(re.findall(r"%\((\w+)\)s", msgid)) - _engine_params(code)
    if extra:
        problems.append(f"uses {sorted(extra)}, which the engine does not give")
    zh_msg = _catalog().get(msgid)
    if not zh_msg or zh_msg == msgid:
        problems.append(f"no Chinese for {msgid!r}")
    params = _sample(code)
    with force_locale("en"):
        en = refusal_words(code, params, "FALLBACK")
    with force_locale("zh"):
        zh = refusal_words(code, params, "FALLBACK")
    for text in (en, zh):
        if "FALLBACK" in text or "%(" in text or "{" in text:
            problems.append(f"renders as {text!r}")
    if zh == en or not CJK.search(zh):
        problems.append(f"reads {zh!r} in Chinese")
    if CJK.search(en.replace("升级", "").replace("大王", "")):  # 大王: the card's face
        problems.append(f"reads {en!r} in English")
    return [f"{code}: {p}" for p in problems]


def test_each_refusal_reads_in_english_and_in_chinese(app: Flask):
    with app.test_request_context():
        problems = [p for code in sorted(CODES) for p in _problems(code)]
    assert problems == []


def _face(code: str) -> str:
    return str(face_of(code)["label"])


def _say(app: Flask, err: EngineError, locale: str) -> str:
    with app.test_request_context(), force_locale(locale):
        return refusal_text(err)


def test_the_words_count_seats_from_one_and_show_cards_as_faces(app: Flask):
    turn = IllegalAction("turn.not_yours", to_act=1, seat=0)
    assert str(turn) == "it is seat 1's turn, not seat 0's"  # the engine's own words: from 0
    assert _say(app, turn, "en") == "It is seat 2's turn, not yours (seat 1)."
    assert _say(app, turn, "zh") == "现在轮到 2 号座位，不是你（1 号座位）。"
    friend = IllegalAction("friend.card", card="HJ")
    assert _say(app, IllegalAction("friend.card", card="QS"), "en").endswith("not Q♠.")
    assert "大王" in _say(app, friend, "zh")
    suit = IllegalAction("follow.suit", held=2, suit="H", lead=1, cards=["6C"])
    assert _say(app, suit, "zh") == "你手里有 2 张红心：要跟出其中 1 张，而不是 6♣。"
    assert _say(app, suit, "en") == "You hold 2 cards of hearts: follow with 1 of them, not 6♣."
    side = EngineError.because(IllegalAction("call.dealer_side", seats=[1, 3]))
    assert _say(app, side, "en").endswith("(seats 2, 4).")


def test_a_shape_and_a_wrapped_cause_are_worded_too(app: Flask):
    shape = IllegalAction(
        "follow.shape",
        suit="trumps",
        shape="a pair, a tractor of 2 pairs",
        demands=[{"kind": "pair"}, {"kind": "tractor", "unit": "pair", "length": 2}],
    )
    assert (
        _say(app, shape, "zh")
        == "要尽量跟首家的牌型：你的主牌能跟出一对、2 连对的拖拉机，而这手牌没有。"
    )
    assert "your trumps can give a pair, a tractor of 2 pairs" in _say(app, shape, "en")
    inner = IllegalAction("phase.pass", phase="draw")
    outer = EngineError("log.action", action=3, kind="pass", seat=0, cause=inner.as_dict())
    assert (
        _say(app, outer, "zh")
        == "记录中的第 3 个动作（1 号座位的 pass）：发牌阶段没有可以“不叫”的。"
    )


def _drawn(**setup) -> ClimbingDeal:
    deal = new_deal({"players": 4}, **setup)
    while deal.phase == "draw":
        deal.draw()
    return deal


def _refusal(act) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        act()
    return caught.value


def test_climbings_refusals_name_kinds_ranks_and_cards_in_words(app: Flask):
    deal = _drawn(seed=3)
    leader = deal.to_act
    assert leader is not None
    top = max(deal.hand(leader), key=crank)
    deal.play(leader, [top])  # the leader's highest card: a single
    seat = deal.to_act
    assert seat is not None
    hand = deal.hand(seat)
    low = min(hand, key=crank)
    assert crank(low) <= crank(top)
    lower = _refusal(lambda: deal.play(seat, [low]))
    assert lower.code == "climb.not_higher"
    assert _say(app, lower, "en") == (
        f"{_face(card_str(low))} does not beat {_face(card_str(top))}: play higher or pass."
    )
    assert _say(app, lower, "zh").startswith(
        f"{_face(card_str(low))} 压不过 {_face(card_str(top))}"
    )

    pair = next(p for p in plays_from(hand, None) if len(p) == 2 and crank(p[0]) == crank(p[1]))
    kind = _refusal(lambda: deal.play(seat, pair))
    assert kind.code == "climb.same_kind"
    assert _say(app, kind, "en") == (
        "Beat the standing single with a higher single, not with a pair."
    )
    assert _say(app, kind, "zh") == "要用更大的单张压桌上的单张，而不是用对子。"
    straight = next(p for p in plays_from(hand, None) if len(p) >= 3 and crank(p[0]) != crank(p[1]))
    kind = _refusal(lambda: deal.play(seat, straight))
    assert (
        _say(app, kind, "zh") == f"要用更大的单张压桌上的单张，而不是用顺子（{len(straight)} 张）。"
    )
    assert _say(app, kind, "en").endswith(f"not with a straight of {len(straight)}.")

    high = max(hand, key=crank)
    no_play = _refusal(lambda: deal.play(seat, [low, high]))  # two ranks: no kind of play
    assert _say(app, no_play, "zh") == (
        f"{_face(card_str(low))} {_face(card_str(high))} 不成牌型："
        "可以出单张、对子、三张、四张或更多同点的牌，或者顺子。"
    )


def test_a_tribute_below_a_joker_names_the_joker(app: Flask):
    deal = next(
        d
        for d in (_drawn(seed=s, deal_no=2, winner=0, loser=3) for s in range(200))
        if d.phase == "tribute" and d.tribute_rank() == HIGH_JOKER
    )
    other = min(deal.hand(3), key=crank)
    wrong = _refusal(lambda: deal.tribute(3, other))
    assert wrong.code == "climb.tribute_highest"
    face = _face(card_str(other))
    assert _say(app, wrong, "en") == (
        f"The tribute is a card of your highest rank (big joker), not {face}."
    )
    assert _say(app, wrong, "zh") == f"进贡要给你手里最大的牌（大王），而不是 {face}。"
    early = _refusal(lambda: deal.give_back(0, deal.hand(0)[0]))
    assert early.code == "climb.phase_return"
    assert _say(app, early, "zh") == "现在不能还牌：现在是进贡阶段。"
    assert _say(app, early, "en") == "No card is given back now: the deal is at the tribute."
    one = EngineError("climb.one_card", kind="tribute", got=2)
    assert _say(app, one, "en") == "The tribute is exactly one card, not 2."
    assert _say(app, one, "zh") == "进贡的牌只能是一张牌，而不是 2 张。"


def test_a_horizontal_throw_names_the_missing_suits_in_words(app: Flask):
    # 打百分, hearts trump: to 7♠ 7♥ 7♦ 7♣ a hand holding spades and trumps plays neither
    hand = parse_cards(["2S", "3H", "4D", "5D", "6C", "8C"])
    play = parse_cards(["4D", "5D", "6C", "8C"])
    lead = parse_cards(["7S", "7H", "7D", "7C"])
    reason = hundred_rules.follow_reason(lead, hand, play, hundred_rules.check_trump("H"))
    assert reason is not None and reason.code == "hundred.follow_horizontal"
    err = IllegalAction(reason.code, **reason.params)
    assert _say(app, err, "en") == (
        "To a horizontal throw play one card of each suit you hold: 4♦ 5♦ 6♣ 8♣ has none of "
        "your spades, trumps."
    )
    assert _say(app, err, "zh") == (
        "跟横甩时，你手里有的每一门都要出一张：4♦ 5♦ 6♣ 8♣ 里没有你的黑桃、主牌。"
    )


# --- a real refusal on a seat page -------------------------------------------------------------


def _state(ow: OnlineWorld) -> tuple:
    db.session.expire_all()
    n = db.session.scalar(
        select(func.count(OnlineAction.id)).join(OnlineDeal).where(OnlineDeal.table_id == ow.tab.id)
    )
    return n, [(d.number, d.version) for d in ow.deals()]


def _to_a_follow(ow: OnlineWorld, player, url: str) -> tuple[str, int]:
    """Make seat 0's moves (a bot's choice) until it must follow a lead; the page and the lead's
    size."""
    for _ in range(200):
        html = player.get(url).get_data(as_text=True)
        deal = replay_row(ow.deals()[-1])
        offered = moves(html)
        v = page_token(html)
        if "play" in offered and deal.trick is not None and deal.trick.plays:
            return html, len(deal.trick.plays[0][1])
        if "continue" in offered:
            move = form(v, "continue")
        elif "pass" in offered:
            move = form(v, "pass")
        else:
            kind, _seat, *rest = HeuristicBot(7).act(deal, 0)
            move = form(v, kind, cards_str(rest[0]))
        assert player.post(url, data=move).status_code == 303
    raise AssertionError("seat 0 never had to follow")


def _error(response) -> str:
    m = re.search(r'<p class="flash error" role="alert">(.*?)</p>', response.get_data(as_text=True))
    assert m, response.get_data(as_text=True)[:2000]
    return htmllib.unescape(m.group(1))


def test_a_wrong_size_play_is_refused_in_the_readers_language(app: Flask, client):
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    player = app.test_client()
    url = f"/play/{me.token}"
    html, n = _to_a_follow(ow, player, url)
    hand = replay_row(ow.deals()[-1]).hands[0]
    wrong = form(page_token(html), "play", cards_str(hand[: n + 1]))
    before = _state(ow)

    r = player.post(url, data=wrong, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert r.status_code == 422
    assert _error(r) == f"首家出了 {n} 张牌，你也要出 {n} 张，而不是 {n + 1} 张。"
    assert _state(ow) == before

    r = player.post(url, data=wrong, headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert r.status_code == 422
    assert _error(r) == f"The lead has {n} cards, so play {n}, not {n + 1}."
    assert _state(ow) == before

    with player.session_transaction() as sess:  # the language switch beats the browser's
        sess["lang"] = "zh"
    r = player.post(url, data=wrong, headers={"Accept-Language": "en"})
    assert r.status_code == 422
    assert _error(r) == f"首家出了 {n} 张牌，你也要出 {n} 张，而不是 {n + 1} 张。"
    assert _state(ow) == before


def test_a_card_not_in_the_hand_is_refused_with_its_face(app: Flask, client):
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    me = ow.seats()[0]
    player = app.test_client()
    url = f"/play/{me.token}"
    html, n = _to_a_follow(ow, player, url)
    hand = replay_row(ow.deals()[-1]).hands[0]
    foreign = next(
        c for c in ("AS", "AH", "AD", "AC", "KS", "KH", "2C") if c not in cards_str(hand)
    )
    before = _state(ow)
    r = player.post(
        url, data=form(page_token(html), "play", [foreign] * n), headers={"Accept-Language": "zh"}
    )
    assert r.status_code == 422
    face = foreign[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[foreign[-1]]
    assert _error(r) == f"你手里没有 {face}。"
    assert _state(ow) == before


def test_a_bad_option_in_an_imported_file_reads_in_the_readers_language(app: Flask, client):
    w = world()
    login(client, w.director)
    doc = {
        "format": "shengji-tournament/1",
        "club": w.club.name,
        "name": "Winter Cup",
        "variant": "tractor-4p",
        "options": {"decks": 3},
        "pairing": "swiss",
        "rounds": 1,
        "match": {"deals": 1},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [
            {"name": "A", "players": ["A1", "A2"]},
            {"name": "B", "players": ["B1", "B2"]},
        ],
        "played": [],
    }
    url = f"/clubs/{w.club.slug}/tournaments/import"
    body = json.dumps(doc).encode()
    for lang, want in (
        ("zh", "options.decks: 选项 decks 只能取 2, 4 之一，而不是 3。"),
        ("en", "options.decks: Option decks takes one of 2, 4, not 3."),
    ):
        data = {"file": (io.BytesIO(body), "t.json")}
        r = client.post(url, data=data, headers={"Accept-Language": lang})
        assert r.status_code == 422
        assert want in htmllib.unescape(r.get_data(as_text=True))
    assert db.session.scalar(select(func.count(Tournament.id))) == 0
