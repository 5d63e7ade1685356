"""Property tests over random self-play in all three variants: invariants after every action."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bots, perform
from engine.cards import full_pack, points_of
from engine.deal import DONE, DRAW, Deal, DealSetup
from engine.errors import EngineError
from engine.serialize import from_json, replay_setup, to_json
from engine.views import seat_view, spectator_view

SETUPS = [
    ("tractor-4p", {}, {}),
    ("tractor-4p", {}, {"levels": ("7", "J"), "dealer": 1, "first": False, "deal_no": 4}),
    ("tractor-4p", {"decks": 4}, {}),
    ("red-five-5p", {}, {"dealer": 2}),
    ("one-twenty-6p", {}, {}),
    ("one-twenty-6p", {}, {"levels": ("5", "9"), "dealer": 3, "first": False, "deal_no": 2}),
    ("one-twenty-6p", {}, {"levels": ("9", "4"), "dealer": 1, "race": True}),
    ("tractor-4p", {"decks": 4}, {"levels": ("3", "Q"), "dealer": 3, "first": False}),
    (
        "tractor-4p",
        {"triple_tractors": False, "kitty_multiplier": "power", "redeal_below": None},
        {"levels": ("A", "K"), "dealer": 2, "first": False},
    ),
    ("red-five-5p", {"kitty_multiplier": "double"}, {"dealer": 4}),
]


def accounted(deal: Deal) -> Counter:
    c: Counter = Counter()
    for h in deal.hands:
        c.update(h)
    c.update(deal.undealt())
    c.update(deal.buried)
    c.update(deal.played_cards())
    return c


def check_invariants(deal: Deal) -> None:
    v = deal.variant
    assert accounted(deal) == Counter(full_pack(v.decks))
    in_play = sum(points_of(h) for h in deal.hands) + points_of(deal.undealt())
    in_play += points_of(deal.buried) + sum(deal.won)
    if deal.trick is not None:
        in_play += sum(points_of(p) for _, p in deal.trick.plays)
    assert in_play == 100 * v.decks
    if deal.phase == DRAW or deal.phase == DONE:
        assert deal.to_act is None
    else:
        assert deal.to_act is not None and 0 <= deal.to_act < deal.n


def check_views(deal: Deal) -> None:
    spec = spectator_view(deal)
    assert spec["hand"] is None
    assert spectator_view(deal, log=False) == {**spec, "log": None}
    check_no_hidden_cards(deal, spec, None)
    for seat in range(deal.n):
        view = seat_view(deal, seat)
        check_no_hidden_cards(deal, view, seat)
        assert sorted(view["hand"]) == sorted(seat_view(deal, seat)["hand"])
        assert Counter(view["hand"]) == Counter(to_json_cards(deal.hands[seat]))
        assert "hands" not in view
        if deal.kitty_owner != seat and not deal.kitty_revealed:
            assert view["kitty"]["cards"] is None
        assert seat_view(deal, seat, log=False) == {**view, "log": None}  # the app's view
        for entry in view["log"]:
            if entry["seat"] != seat:
                if entry["kind"] == "draw":
                    assert "cards" not in entry
                if entry["kind"] == "bury" and not deal.kitty_revealed:
                    assert entry["cards"] == []
        if deal.book.hidden and deal.phase == DRAW:
            assert all(c["seat"] == seat for c in view["calls"])
        if not deal.friend_revealed and deal.phase != DONE:
            assert view["friend"] is None


def card_lists(node, path=""):
    """Every list of card strings inside a view, with its path (indices written as *)."""
    from engine.cards import parse_card

    if isinstance(node, dict):
        for k, v in node.items():
            yield from card_lists(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list):
        if node and all(isinstance(x, str) for x in node):
            try:
                [parse_card(x) for x in node]
            except Exception:
                return
            yield path, node
        else:
            for x in node:
                yield from card_lists(x, path + "[*]")


def check_no_hidden_cards(deal: Deal, view: dict, seat) -> None:
    allowed = {
        "hand",
        "playable",
        "calls[*].cards",
        "tricks[*].plays[*].cards",
        "trick.plays[*].cards",
        "legal_calls[*]",  # built from the seat's own hand
    }
    if deal.kitty_revealed or deal.kitty_owner == seat:
        allowed.add("kitty.cards")
    if deal.trump_source == "kitty":
        allowed.add("kitty.turned")  # turned face up for everyone to name trump
    for path, _cards in card_lists(view):
        if path in ("log[*].cards", "log[*].played"):
            continue  # checked entry by entry below (plays and forced plays are public)
        assert path in allowed, path
    if seat is None:
        assert view["hand"] is None
    else:
        from collections import Counter as C

        for call in view["legal_calls"]:
            assert not C(call) - C(view["hand"])
    for entry in view["log"]:
        if entry["seat"] == seat:
            continue
        if entry["kind"] == "draw":
            assert "cards" not in entry
        hidden_bury = entry["kind"] == "bury" and not deal.kitty_revealed
        hidden_call = entry["kind"] == "call" and deal.book.hidden and deal.phase == DRAW
        if hidden_bury or hidden_call:
            assert entry["cards"] == []


def to_json_cards(cards):
    from engine.cards import cards_str

    return cards_str(cards)


def try_illegal(deal: Deal) -> None:
    """An out-of-turn or malformed action raises and changes nothing."""
    before = deal.state_dict()
    n_log = len(deal.log)
    wrong = 0 if deal.to_act != 0 else 1
    attempts = [
        lambda: deal.play(wrong, deal.hands[wrong][:1]),
        lambda: deal.bury(wrong, deal.hands[wrong][:1]),
        lambda: deal.pass_(wrong),
        lambda: deal.call(wrong, ["HJ", "HJ", "HJ", "HJ", "HJ"]),
        lambda: deal.play(deal.n, []),
    ]
    if deal.phase != DRAW:
        attempts.append(deal.draw)
    me = deal.to_act
    if me is not None:
        hand = deal.hands[me]
        attempts.append(lambda: deal.redeal(me) if not deal.can_redeal(me) else deal.play(me, []))
        if deal.phase == "bury":
            attempts.append(lambda: deal.bury(me, hand[: deal.kitty_size - 1]))
        if deal.phase == "play" and deal.trick is not None and deal.trick.plays:
            n = len(deal.trick.plays[0][1])
            if len(hand) > n:
                attempts.append(lambda: deal.play(me, hand[: n + 1]))
            # a card of another suit while holding enough of the led suit
            ctx = deal.ctx
            led = ctx.suit_index(deal.trick.plays[0][1][0])
            same = [c for c in hand if ctx.suit_index(c) == led]
            off = [c for c in hand if ctx.suit_index(c) != led]
            if len(same) >= n and off:
                attempts.append(lambda: deal.play(me, same[: n - 1] + off[:1]))
    for k, attempt in enumerate(attempts):
        try:
            attempt()
        except EngineError:
            pass
        else:  # pragma: no cover - would be a bug
            raise AssertionError(
                f"illegal action {k} was accepted: {deal.log[-1]} phase {deal.phase}"
            )
    assert deal.state_dict() == before
    assert len(deal.log) == n_log


def run(idx: int, seed: int, bots_kind: str) -> None:
    variant, options, extra = SETUPS[idx]
    setup = DealSetup(variant, options, seed, **extra)
    deal = Deal(setup)
    bots = make_bots(bots_kind, deal.n, seed)
    step = 0
    checkpoints = {40, 130, 200}
    while deal.outcome is None:
        step += 1
        if deal.phase == DRAW:
            seat = deal.draw().seat
            if deal.can_call_now(seat):
                call = bots[seat].on_draw(deal, seat)
                if call is not None:
                    deal.call(seat, call)
        else:
            seat = deal.to_act
            assert seat is not None
            perform(deal, bots[seat].act(deal, seat))
        check_invariants(deal)
        if step % 23 == 0:
            try_illegal(deal)
            check_views(deal)
        if step in checkpoints:
            again = replay_setup(setup, list(deal.log))
            assert again.state_dict() == deal.state_dict()
    check_views(deal)
    if deal.setup.first and not deal.setup.race and not deal.book.hidden and deal.call_seq:
        # the state machine and the conformance query agree on the calls it accepted
        from engine.calls import replay_calls

        calls = [(s, list(c)) for s, c, _k in deal.call_seq]
        level = deal.levels[0]
        accepted, caller, trump = replay_calls(deal.variant, level, calls)
        assert all(accepted) and caller == deal.book.caller and trump == deal.book.trump
    loaded = from_json(to_json(deal))
    assert loaded.state_dict() == deal.state_dict()
    if deal.outcome == "played":
        assert deal.result is not None
        assert deal.attackers_points() <= 100 * deal.variant.decks


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    idx=st.integers(0, len(SETUPS) - 1),
    seed=st.integers(0, 2**40),
    bots_kind=st.sampled_from(["random", "heuristic"]),
)
def test_selfplay_invariants(idx, seed, bots_kind):
    run(idx, seed, bots_kind)


def test_every_setup_once():
    for idx in range(len(SETUPS)):
        run(idx, 1000 + idx, "random")
