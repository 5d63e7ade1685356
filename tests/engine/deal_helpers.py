"""Stacked packs for deal scenario tests (imported by tests/engine/test_deal_*.py)."""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import card_points, full_pack, parse_cards
from engine.deal import Deal, DealSetup
from engine.variants import make_variant


def cards(text: str) -> list[int]:
    return parse_cards(text.split())


def stack(
    variant: str,
    front: dict[int, str] | None = None,
    late: dict[int, str] | None = None,
    kitty: str = "",
    drawer: int = 0,
    options: dict | None = None,
    weak: tuple[int, ...] = (),
    seed: int = 1,
    **setup,
) -> Deal:
    """A deal whose seat ``s`` draws ``front[s]`` first and ``late[s]`` last, the kitty starting
    with ``kitty``; seat ``drawer`` draws first (120分: the cut card is chosen to make it so).
    Seats in ``weak`` get no point cards from the filler."""
    v = make_variant(variant, options or {})
    n, h = v.players, v.hand
    remaining = Counter(full_pack(v.decks))
    seqs: list[list[int | None]] = [[None] * h for _ in range(n)]

    def take(c: int) -> int:
        assert remaining[c] > 0, f"too many copies of {c}"
        remaining[c] -= 1
        return c

    for seat, text in (front or {}).items():
        skip = 1 if variant == "one-twenty-6p" and seat == drawer else 0  # the cut card
        for i, c in enumerate(cards(text)):
            seqs[seat][i + skip] = take(c)
    for seat, text in (late or {}).items():
        cs = cards(text)
        for i, c in enumerate(cs):
            seqs[seat][h - len(cs) + i] = take(c)
    kit = [take(c) for c in cards(kitty)]
    rest = list(remaining.elements())
    random.Random(seed).shuffle(rest)
    shuffler = setup.get("dealer") if setup.get("dealer") is not None else 0
    if variant == "one-twenty-6p" and seqs[drawer][0] is None:
        want = (drawer - shuffler) % 6 + 1  # the number counted from the shuffler
        for i, c in enumerate(rest):
            if c < 52 and (c % 13 + 2 if c % 13 != 12 else 1) % 6 == want % 6:
                seqs[drawer][0] = rest.pop(i)
                break
    plain = [c for c in rest if card_points(c) == 0]
    pointy = [c for c in rest if card_points(c) > 0]
    for seat in weak:
        for i in range(h):
            if seqs[seat][i] is None:
                seqs[seat][i] = plain.pop()
    rest = plain + pointy
    random.Random(seed + 1).shuffle(rest)
    for seat in range(n):
        for i in range(h):
            if seqs[seat][i] is None:
                seqs[seat][i] = rest.pop()
    kit += rest
    assert len(kit) == v.kitty
    pack = [seqs[(drawer + i) % n][i // n] for i in range(n * h)] + kit
    deal = Deal(DealSetup(variant, dict(options or {}), seed, pack=tuple(pack), **setup))  # type: ignore[arg-type]
    assert deal.first_drawer == drawer, (deal.first_drawer, drawer)
    return deal


def draw_all(deal: Deal) -> None:
    while deal.phase == "draw":
        deal.draw()


def draw_until(deal: Deal, count: int) -> None:
    while deal.drawn < count:
        deal.draw()
