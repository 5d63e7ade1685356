"""The seat page says which trump calls the rules allow and why a card a player might expect to
call with is not a call here (RULES §2–§4): a level card without the joker of its colour in
升级, a joker alone, one joker in 120分, a seat outside the dealer's side while the cards are
dealt."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, render_template

from app.services.online import bridge, cards, deal_view
from engine.cards import HJ, LJ, parse_card
from engine.deal import DRAW, Deal, DealSetup


def _live(deal: Deal) -> bridge.Live:
    return bridge.Live(row=None, deal=deal, entries=[], humans=frozenset({0}))  # type: ignore[arg-type]


def _draw_until(setup: DealSetup, holds: Callable[[list[int]], bool]) -> Deal:
    """Deal cards of the seeded shuffle until seat 0's hand satisfies ``holds``."""
    for seed in range(200):
        deal = Deal(DealSetup(**{**setup.__dict__, "seed": seed}))
        while deal.phase == DRAW:
            deal.draw()
            if holds(deal.hands[0]):
                return deal
    raise AssertionError("no shuffle gave that hand")


def _words(app: Flask, help_: dict) -> str:
    with app.test_request_context():
        return render_template("online/_calls.html", call_help=help_, names=list("ABCDEF"))


def test_a_level_card_without_its_joker_is_explained(app: Flask) -> None:
    two_spades = parse_card("2S")
    deal = _draw_until(
        DealSetup("tractor-4p"),
        lambda hand: two_spades in hand and LJ not in hand and len(hand) >= 3,
    )
    assert not any(two_spades in c for c in deal.legal_calls(0))
    help_ = deal_view.call_help(_live(deal), 0)
    assert help_ is not None and help_["open"] and help_["level"] == "2"
    codes = {(n["code"], n.get("card", {}).get("code")) for n in help_["notes"]}
    assert ("need_joker", "2S") in codes
    html = _words(app, help_)
    assert "Your 2♠ is not a call here: it needs the small joker with it." in html
    assert "A joker alone is never a call." in html


def test_a_joker_alone_in_tractor_and_one_joker_in_one_twenty(app: Flask) -> None:
    black = [parse_card(f"2{s}") for s in "SC"]
    deal = _draw_until(
        DealSetup("tractor-4p"),
        lambda hand: hand.count(LJ) == 1 and not any(c in hand for c in black),
    )
    help_ = deal_view.call_help(_live(deal), 0)
    assert help_ is not None
    assert "joker_alone" in {n["code"] for n in help_["notes"]}
    assert "Your small joker alone is not a call" in _words(app, help_)
    deal = _draw_until(DealSetup("one-twenty-6p"), lambda hand: hand.count(HJ) == 1)
    help_ = deal_view.call_help(_live(deal), 0)
    assert help_ is not None
    assert {"code": "single_joker", "card": cards.card_face(HJ)} in help_["notes"]
    html = _words(app, help_)
    assert "One big joker is not a call: no trump takes at least two identical jokers." in html
    assert "A single joker is not a call." in html


def test_only_the_dealers_side_calls_while_the_cards_are_dealt(app: Flask) -> None:
    deal = Deal(DealSetup("tractor-4p", seed=3, levels=("5", "7"), dealer=1, first=False))
    deal.draw()
    help_ = deal_view.call_help(_live(deal), 0)
    assert help_ is not None and not help_["open"]
    assert help_["notes"] == [{"code": "side_only", "seats": [1, 3]}]
    assert "only the dealer's side may call (B, D)" in _words(app, help_)
    # outside the calling phases there is nothing to say
    assert deal_view.call_help(_live(_played_out()), 0) is None


def _played_out() -> Deal:
    from engine.bots import HeuristicBot, perform

    deal = Deal(DealSetup("tractor-4p", seed=5))
    bot = HeuristicBot(1)
    while deal.outcome is None:
        if deal.phase == DRAW:
            deal.draw()
            continue
        seat = deal.to_act
        assert seat is not None
        perform(deal, bot.act(deal, seat))
    return deal


def test_the_seat_page_explains_calls_while_it_may_call(app: Flask, client, monkeypatch) -> None:
    from engine.bots import HeuristicBot
    from tests.online.online_helpers import form, moves, online_world, page_token

    # shuffle 1 gives seat 0 a call during the draw; the bots keep quiet
    monkeypatch.setattr("app.services.online.bridge.secrets.randbits", lambda _bits: 1)
    monkeypatch.setattr(HeuristicBot, "on_draw", lambda self, deal, seat: None)
    ow = online_world(client, "tractor-4p")
    ow.bots(1, 2, 3)
    url = f"/play/{ow.seats()[0].token}"
    player = app.test_client()
    for _ in range(60):
        html = player.get(url).get_data(as_text=True)
        assert '<details class="call-help" id="call-help" open>' in html  # seat 0 may call
        if "call" in moves(html):
            assert "A joker alone is never a call." in html
            zh = player.get(url, headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
            assert "单独的王不能叫主" in zh
            return
        player.post(url, data=form(page_token(html), "continue"))
    raise AssertionError("the draw never paused for seat 0")
