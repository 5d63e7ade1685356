"""争上游 played by the bots: no illegal move in hundreds of deals (every move proved through
the public ``verify_…`` before it is made), and properties over random deals: every play offered
is accepted and every other set of cards refused, a replayed log gives the same state, the
points of a deal sum to the place points' total."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import full_pack
from engine.climbing import _CRANK, INVALID, _beats, _shape, place_points
from engine.climbing_bots import (
    ClimbingHeuristicBot,
    ClimbingRandomBot,
    make_bots,
    perform,
    play_deal,
    units,
)
from engine.climbing_deal import ClimbingDeal, ClimbingSetup, apply, replay
from engine.climbing_selfplay import LEGALITY_OPTIONS, legality
from engine.errors import EngineError

OPTIONS = LEGALITY_OPTIONS


def _check_finished(deal: ClimbingDeal) -> None:
    r = deal.result
    assert r is not None and deal.phase == "done"
    assert sorted(r.out_order) == list(range(deal.n))
    assert sum(r.points) == sum(place_points(deal.variant))
    assert sorted(r.places) == list(range(1, deal.n + 1))
    played = Counter(c for rec in deal.log if rec.kind == "play" for c in rec.cards)
    held = Counter(c for h in deal.hands for c in h)
    assert played + held == Counter(full_pack(deal.variant.decks))
    assert [len(h) > 0 for h in deal.hands].count(True) == 1  # the loser holds cards
    assert deal.hands[r.loser]


def test_the_bots_make_no_illegal_move_in_300_deals():
    # 27 matches of 12 deals at one table (every option set × bot mix; tribute from the second)
    tally = legality(324, match=12, seed=1000, each=_check_finished)
    assert tally.deals == 324 and tally.moves > 20_000
    assert tally.tributes > 200 and tally.refused > 0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    options=st.sampled_from(OPTIONS),
    later=st.booleans(),
    probes=st.integers(0, 10**6),
)
def test_every_offered_play_is_accepted_and_nothing_else(seed, options, later, probes):
    """At every decision, each play ``legal_plays`` offers is accepted, pass is accepted exactly
    when there is a standing play, and random sets of the hand's cards are accepted exactly
    when their ranks are those of an offered play."""
    rng = random.Random(probes)
    n = options["players"]
    setup = ClimbingSetup("climbing", options, seed, 2 if later else 1)
    if later:
        setup = ClimbingSetup("climbing", options, seed, 2, seed % n, (seed + 1) % n)
    deal = ClimbingDeal(setup)
    bots = make_bots("random", n, seed)
    while deal.outcome is None:
        if deal.phase == "draw":
            deal.draw()
            continue
        seat = deal.to_act
        assert seat is not None
        if deal.phase == "play":
            offered = deal.legal_plays(seat)
            for p in offered:
                assert deal.can_play(seat, p), p
            assert deal.can_pass(seat) == (deal.standing is not None)
            sigs = {tuple(sorted(_CRANK[c] for c in p)) for p in offered}
            hand = deal.hands[seat]
            for _ in range(6):
                k = rng.randint(1, min(len(hand), 6))
                cards = rng.sample(hand, k)
                want = tuple(sorted(_CRANK[c] for c in cards)) in sigs
                assert deal.can_play(seat, cards) == want, cards
            playable = set(deal.playable_cards(seat))
            assert playable == {
                c for p in offered for c in hand if _CRANK[c] in {_CRANK[x] for x in p}
            }
        else:
            assert deal.actions(seat) == [deal.phase]
        for other in range(n):
            if other != seat:
                assert deal.actions(other) == []
        perform(deal, bots[seat].act(deal, seat))
    _check_finished(deal)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    options=st.sampled_from(OPTIONS),
    kind=st.sampled_from(("random", "heuristic")),
)
def test_a_replayed_log_gives_the_same_state(seed, options, kind):
    n = options["players"]
    deal = ClimbingDeal(ClimbingSetup("climbing", options, seed, 3, (seed + 2) % n, seed % n))
    play_deal(deal, make_bots(kind, n, seed))
    data = json.loads(
        json.dumps({"setup": deal.setup.to_json(), "log": [r.to_json() for r in deal.log]})
    )
    again = replay(data["setup"], data["log"])
    assert again.state_dict() == deal.state_dict()
    # and half way through
    half = len(deal.log) // 2
    part = replay(deal.setup, deal.log[:half])
    assert part.version == half
    for rec in deal.log[half:]:
        assert part.to_act == rec.seat or rec.kind == "draw"
        apply(part, rec.to_json())
    assert part.state_dict() == deal.state_dict()


CARDS = st.lists(st.integers(0, 53), min_size=1, max_size=10)


@settings(max_examples=300, deadline=None)
@given(a=CARDS, b=CARDS)
def test_beating_is_a_strict_order_within_a_kind_and_size(a, b):
    sa, sb = _shape(a), _shape(b)
    assert not _beats(sa, sa)
    assert not (_beats(sa, sb) and _beats(sb, sa))
    if _beats(sa, sb):
        assert sb.kind == sa.kind != INVALID and sb.size == sa.size and sb.top > sa.top
    if sa.kind == "straight":
        ranks = sorted(_CRANK[c] for c in a)
        assert ranks == list(range(ranks[0], ranks[0] + len(a))) and ranks[-1] <= 11
        assert len(a) >= 3


@settings(max_examples=100, deadline=None)
@given(hand=st.lists(st.integers(0, 53), min_size=1, max_size=30))
def test_the_heuristic_units_cover_the_hand_with_plays(hand):
    cut = units(hand)
    assert Counter(c for u in cut for c in u) == Counter(hand)
    for u in cut:
        assert _shape(u).kind != INVALID or len(u) > 8


def test_the_heuristic_bot_climbs_better_than_random():
    """One heuristic seat among random ones, rotated through the seats on the same cards: its
    mean place is better than a random seat's (2.5 of 4)."""
    places = []
    for seed in range(60):
        for hero in range(4):
            deal = ClimbingDeal(ClimbingSetup("climbing", {}, seed))
            bots: list[ClimbingRandomBot] = make_bots("random", 4, seed)
            bots[hero] = ClimbingHeuristicBot(seed)
            play_deal(deal, bots)
            assert deal.result is not None
            places.append(deal.result.places[hero])
    assert sum(places) / len(places) < 2.2


def test_bots_refuse_junk():
    deal = ClimbingDeal(ClimbingSetup("climbing", {}, 1))
    for bad in ((0, 0), ("x", 0)):
        try:
            ClimbingRandomBot().act(*bad)  # type: ignore[arg-type]
        except EngineError:
            pass
        else:  # pragma: no cover
            raise AssertionError(bad)
    try:
        ClimbingRandomBot().act(deal, 0)  # the draw: nobody acts
    except EngineError as e:
        assert e.code == "bots.not_turn"
    for bad_kind in ("mc", 3):
        try:
            make_bots(bad_kind, 4)  # type: ignore[arg-type]
        except EngineError as e:
            assert e.code == "bots.kind"


def test_the_selfplay_command_plays_a_match_and_its_log_replays(tmp_path, capsys):
    from engine.selfplay import main

    log = tmp_path / "deals.jsonl"
    code = main(
        ["--variant", "climbing", "--deals", "6", "--seed", "4", "--game", "--log", str(log)]
        + ["--bots", "heuristic", "--options", '{"players": 5}']
    )
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and lines[-1].startswith("total: 6 deals")
    assert "turned" in lines[0] and ("tribute" in lines[1] or "抗贡" in lines[1])
    saved = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(saved) == 6
    previous = None
    for i, line in enumerate(saved):
        deal = replay(line["setup"], line["log"])
        assert (
            deal.result is not None
            and f"out {' '.join(map(str, deal.result.out_order))}" in (lines[i])
        )
        if previous is not None:  # the match passes the winner and the loser on
            assert (deal.setup.winner, deal.setup.loser) == (previous.winner, previous.loser)
        previous = deal.result
