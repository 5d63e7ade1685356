"""What the seat page draws, from the engine through ``bridge`` and ``pages``: the hand in suit
groups (trumps first, strongest first), the table's marks (partner, dealer, the red five friend
once known, attackers), the trick by seat with the engine's winner, and a summary with 抠底 and
failed throws worded from the engine's numbers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask, render_template

from app.services.online import between_deals, bridge, pages
from app.services.online import cards as faces_module
from engine.bots import HeuristicBot, perform
from engine.cards import card_points, cards_str
from engine.deal import BURY, DRAW, PLAY, Deal, DealSetup
from engine.play import trick_winner
from engine.views import seat_view


def _live(deal: Deal) -> bridge.Live:
    return bridge.Live(row=None, deal=deal, entries=[], humans=frozenset({0}))  # type: ignore[arg-type]


def _step(deal: Deal, bot: HeuristicBot) -> None:
    if deal.phase == DRAW:
        deal.draw()
        return
    seat = deal.to_act
    assert seat is not None
    perform(deal, bot.act(deal, seat))


def _play(variant: str, seed: int, until: Callable[[Deal], bool]) -> Deal | None:
    deal = Deal(DealSetup(variant, seed=seed))
    bot = HeuristicBot(seed)
    while deal.outcome is None and not until(deal):
        _step(deal, bot)
    return deal if until(deal) else None


def _find(variant: str, until: Callable[[Deal], bool]) -> Deal:
    for seed in range(400):
        deal = _play(variant, seed, until)
        if deal is not None:
            return deal
    raise AssertionError("no seed gave that deal")


def test_the_hand_is_grouped_trumps_first_strongest_first() -> None:
    deal = _find("tractor-4p", lambda d: d.phase == PLAY and d.trump is not None)
    ctx = deal.ctx
    assert ctx is not None
    groups = faces_module.hand_groups(deal, 0)
    assert groups[0]["trump"] and groups[0]["suit"] is None
    assert not any(g["trump"] for g in groups[1:])
    seen: list[str] = []
    for g in groups:
        cards = [bridge.parse_card(c["code"]) for c in g["cards"]]
        assert {ctx.is_trump(c) for c in cards} == {g["trump"]}
        if not g["trump"]:
            assert {ctx.eff_suit(c) for c in cards} == {g["suit"]}
        strengths = [ctx.strength(c) for c in cards]
        assert strengths == sorted(strengths, reverse=True)
        seen += [c["code"] for c in g["cards"]]
    assert sorted(seen) == sorted(seat_view(deal, 0)["hand"])


def _board(deal: Deal, seat: int = 0) -> dict[str, Any]:
    view = seat_view(deal, seat)
    names = [f"P{s}" for s in range(deal.n)]
    return pages.board(_live(deal), view, seat, names, set(), deal.to_act)


def test_the_table_marks_partner_dealer_and_the_trick_winner() -> None:
    deal = _find("tractor-4p", lambda d: d.trick is not None and len(d.trick.plays) == 2)
    b = _board(deal, 1)
    assert [s["pos"] for s in b["seats"]] == [3, 0, 1, 2]  # seat 1 at the bottom
    dealer = deal.dealer
    assert dealer is not None
    for s in b["seats"]:
        assert ("dealer" in s["marks"]) == (s["seat"] == dealer)
        assert ("partner" in s["marks"]) == (s["seat"] == 3 and dealer != 3)
        assert s["attacker"] == (s["seat"] % 2 != dealer % 2)
        assert s["cards"] == len(deal.hands[s["seat"]])
    trick = deal.trick
    assert trick is not None and deal.ctx is not None
    winner = trick.plays[trick_winner([p for _s, p in trick.plays], deal.ctx)][0]
    assert [s["seat"] for s in b["seats"] if s["winning"]] == [winner]
    assert sorted(s["seat"] for s in b["seats"] if s["play"]) == sorted(s for s, _p in trick.plays)
    assert b["previous"] is None or b["previous"]["winner"] == deal.tricks[-1].winner


def test_red_five_marks_the_friend_only_once_known() -> None:
    def hidden_friend(d: Deal) -> bool:
        return d.phase == PLAY and d.friend_card is not None and not d.friend_revealed

    deal = _find("red-five-5p", hidden_friend)
    b = _board(deal)
    assert not any("friend" in s["marks"] or s["attacker"] for s in b["seats"])
    bot = HeuristicBot(99)
    while not deal.friend_revealed and deal.outcome is None:
        _step(deal, bot)
    assert deal.friend_revealed and deal.friend is not None
    b = _board(deal)
    friend = [s["seat"] for s in b["seats"] if "friend" in s["marks"]]
    assert friend == [deal.friend]
    attackers = {s["seat"] for s in b["seats"] if s["attacker"]}
    assert attackers == set(range(5)) - {deal.dealer, deal.friend}


def _summary_html(app: Flask, deal: Deal) -> tuple[dict[str, Any], str]:
    sm = between_deals.deal_summary(_live(deal))  # the same for every seat and spectator
    assert sm is not None
    ctx = dict(sm, row=None, match_over=True, ready=[], humans=[], waiting_for=[])
    with app.test_request_context():
        html = render_template(
            "online/_summary.html",
            sm=ctx,
            names=[f"P{s}" for s in range(deal.n)],
            sides=["A", "B"],
        )
    return sm, html


def _rich_kitty_deal() -> Deal:
    """A deal whose declarer buried point cards (5s, 10s, Ks first) and whose attackers then
    won the last trick: the kitty counts, multiplied."""
    for seed in range(400):
        deal = Deal(DealSetup("tractor-4p", seed=seed))
        bot = HeuristicBot(seed)
        while deal.outcome is None:
            if deal.phase == BURY:
                seat = deal.to_act
                assert seat is not None
                hand = sorted(deal.hands[seat], key=lambda c: -card_points(c))
                deal.bury(seat, hand[: deal.variant.kitty])
            else:
                _step(deal, bot)
        if deal.kitty_bonus is not None and deal.kitty_bonus[0] > 0:
            return deal
    raise AssertionError("no seed gave that deal")


def test_the_summary_words_the_kitty_bonus(app: Flask) -> None:
    deal = _rich_kitty_deal()
    assert deal.kitty_bonus is not None
    pts, mult = deal.kitty_bonus
    sm, html = _summary_html(app, deal)
    assert (sm["kitty_points"], sm["multiplier"], sm["kitty_bonus"]) == (pts, mult, pts * mult)
    assert f"Kitty ×{mult} (抠底)" in html
    assert f"the kitty's {pts} points count {pts * mult}." in html
    assert f"{pts * mult} from the kitty" in html
    assert sm["total"] == deal.result.total  # type: ignore[union-attr]


def _failed_throw_deal(stop_after_throw: bool = False) -> Deal:
    """A deal in which a leader throws a whole side suit that another hand beats (the bots
    never do): the throw fails and the forced component is played. ``stop_after_throw``: the
    deal as it stands right after that play."""
    for seed in range(200):
        deal = Deal(DealSetup("tractor-4p", seed=seed))
        bot = HeuristicBot(seed)
        thrown = False
        while deal.outcome is None:
            trick = deal.trick
            if not thrown and deal.phase == PLAY and trick is not None and not trick.plays:
                seat = deal.to_act
                assert seat is not None and deal.ctx is not None
                for suit in "SHDC":
                    cards = [c for c in deal.hands[seat] if deal.ctx.eff_suit(c) == suit]
                    if len(set(cards)) >= 2 and not deal.throw_outcome(seat, cards)[0]:
                        deal.play(seat, cards)
                        thrown = True
                        break
                else:
                    _step(deal, bot)
                if thrown and stop_after_throw:
                    return deal
                continue
            _step(deal, bot)
        if deal.failed_throws:
            return deal
    raise AssertionError("no seed gave that deal")


def test_the_summary_lists_failed_throws_with_the_forced_cards(app: Flask) -> None:
    deal = _failed_throw_deal()
    sm, html = _summary_html(app, deal)
    failed = [r for r in deal.log if r.kind == "play" and r.played is not None]
    assert [f["seat"] for f in sm["failed"]] == [r.seat for r in failed]
    for f, r in zip(sm["failed"], failed, strict=True):
        assert sorted(c["code"] for c in f["forced"]) == sorted(cards_str(r.played or ()))
        assert f"P{r.seat} tried" in html
    assert "the throw fails and must play" in html
    assert deal.dealer is not None
    dec = sum(1 for r in failed if r.seat % 2 == deal.dealer % 2)
    assert sm["penalty"] == 10 * (min(dec, 3) - min(len(failed) - dec, 3))
    for r in failed[:1]:  # the first throw of its side costs 10 points, to or off the attackers
        attacker = r.seat % 2 != deal.dealer % 2
        assert ("10 points off the attackers" if attacker else "10 points to the attackers") in html


def _table_html(app: Flask, deal: Deal, bottom: int | None) -> str:
    live = _live(deal)
    view = bridge.spectate(live) if bottom is None else bridge.view(live, bottom)
    names = [f"P{s}" for s in range(deal.n)]
    board = pages.board(live, view, bottom, names, set(), deal.to_act)
    with app.test_request_context():
        return render_template("online/_table.html", board=board)


def test_a_failed_throw_is_announced_to_every_seat_the_moment_it_is_played(app: Flask) -> None:
    deal = _failed_throw_deal(stop_after_throw=True)
    rec = [r for r in deal.log if r.kind == "play"][-1]
    assert rec.played is not None and deal.dealer is not None
    tried = " ".join(
        faces_module.card_face(c)["label"] for c in faces_module.sorted_cards(deal, list(rec.cards))
    )
    forced = " ".join(
        faces_module.card_face(c)["label"]
        for c in faces_module.sorted_cards(deal, list(rec.played))
    )
    attacker = rec.seat % 2 != deal.dealer % 2
    cost = "10 points off the attackers" if attacker else "10 points to the attackers"
    for bottom in (*range(deal.n), None):  # every seat and a spectator
        html = _table_html(app, deal, bottom)
        note = re.search(
            r'<p class="flash error throw-note" id="failed-throw"[^>]*>(.*?)</p>', html, re.S
        )
        assert note is not None, bottom
        text = re.sub(r"<[^>]+>", " ", note.group(1))
        text = " ".join(text.split())
        assert text.startswith(
            f"P{rec.seat} tried {tried} — the throw fails and must play {forced}"
        )
        assert text.endswith(cost)
    # the trick played out (bots answer at once): still announced, and in the previous trick
    bot = HeuristicBot(1)
    tricks = len(deal.tricks)
    while len(deal.tricks) == tricks:
        _step(deal, bot)
    html = _table_html(app, deal, 0)
    assert 'id="failed-throw"' in html
    prev = html[html.index('id="previous"') :]
    assert f"P{rec.seat} tried" in prev and cost in prev
    # once the next trick is complete too, the felt no longer announces it
    while len(deal.tricks) == tricks + 1 and deal.outcome is None:
        _step(deal, bot)
    if deal.outcome is None and not deal.failed_throws[1:]:
        assert 'id="failed-throw"' not in _table_html(app, deal, 0)


def test_the_kitty_is_turned_face_up_but_does_not_count_when_the_declarers_win(
    app: Flask,
) -> None:
    deal = _find(
        "tractor-4p", lambda d: d.outcome == "played" and d.kitty_bonus is None and bool(d.buried)
    )
    assert not deal.kitty_revealed and deal.kitty_owner is not None
    labels = {faces_module.card_face(c)["label"] for c in deal.buried}
    sm, html = _summary_html(app, deal)  # one summary for every seat and spectator
    assert {c["label"] for c in sm["kitty"]} == labels
    assert 'id="kitty"' in html and "The kitty, face up" in html
    assert sm["kitty_bonus"] == 0
    assert "the kitty does not count" in html
    assert "stays face down" not in html
