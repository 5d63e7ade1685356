"""争上游 (climbing) on paper: a deal row's checks and a table's derivation (CLIMBING.md §4).

A row holds each seat's place 1 … n and the tribute (进贡) paid before the deal: from the
previous deal's last (下游) to its first (上游), with the card given. The tribute is absent in a
first deal, when the ``tribute`` option is off, and on 抗贡 (the loser held both jokers). Points
by place are the engine's (``engine.climbing.points_by_place``); a take-back (悔牌) costs the seat
one place point (RULES.md §7). A table's players are ranked over the match by points, then by
deals won (上游), as red five's are by 积分 and deals won.

Checks return issues keyed by field (``place_2``, ``tribute_from``…); nothing here raises for bad
deal data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from engine.cards import card_str, parse_card
from engine.climbing import points_by_place
from engine.errors import EngineError
from engine.scoring import TAKEBACK
from engine.variants import Variant

from .matches import DealIssue, beyond_the_table, deal_issues
from .model import Deal, MatchSpec, Table, Tribute


def _is_int(v: object) -> TypeGuard[int]:
    return type(v) is int


def place_field(seat: int) -> str:
    """The field of a seat's place on the sheet (and in an issue)."""
    return f"place_{seat}"


TRIBUTE_FROM, TRIBUTE_TO, TRIBUTE_CARD = "tribute_from", "tribute_to", "tribute_card"


def card_code(text: str) -> str | None:
    """A card as written (``"2s"``, ``" hj"``) in its code (``"2S"``, ``"HJ"``); None if it is
    not a card."""
    try:
        return card_str(parse_card(text))
    except (EngineError, ValueError):
        return None


def place_issues(variant: Variant, deal: Deal) -> list[tuple[str, str, dict[str, object]]]:
    """The problems of a climbing row that do not depend on the deals before it, each
    ``(field, code, params)``: at most one per field."""
    n = variant.players
    out: dict[str, tuple[str, str, dict[str, object]]] = {}

    def add(field: str, code: str, **params: object) -> None:
        out.setdefault(field, (field, code, params))

    for name in ("declarer", "dealer", "friend", "level"):
        if getattr(deal, name) is not None:
            add(name, "not_climbing")
    if deal.failed_throws or deal.misplays or deal.friend_grabbed:
        add("failed_throws" if deal.failed_throws else "misplays", "not_climbing")
    if deal.trump is not None:
        add("trump", "not_climbing")
    for name in ("points", "kitty", "multiplier"):  # no trick points: 0 stands for "none"
        if getattr(deal, name) != 0:
            add(name, "not_climbing")
    places = deal.places
    if places is None or not isinstance(places, tuple):
        add("places", "places_missing", players=n)
    elif len(places) != n:
        add("places", "places_count", players=n, got=len(places))
    else:
        first_at: dict[int, int] = {}
        for seat, place in enumerate(places):
            if place is None:
                add(place_field(seat), "place_missing", seat=seat)
            elif not _is_int(place) or not 1 <= place <= n:
                add(place_field(seat), "place_out_of_range", value=place, players=n)
            elif place in first_at:
                add(
                    place_field(seat),
                    "place_twice",
                    place=place,
                    seat=seat,
                    other=first_at[place],
                )
            else:
                first_at[place] = seat
    tr = deal.tribute
    if tr is not None:
        if not variant.options.get("tribute", True):
            add(TRIBUTE_FROM, "tribute_off")
        else:
            for field, seat in ((TRIBUTE_FROM, tr.giver), (TRIBUTE_TO, tr.receiver)):
                if not _is_int(seat) or not 0 <= seat < n:
                    add(field, "seat_out_of_range", value=seat, last=n - 1)
            if TRIBUTE_TO not in out and tr.giver == tr.receiver:
                add(TRIBUTE_TO, "tribute_same_seat")
            if not isinstance(tr.card, str) or card_code(tr.card) is None:
                add(TRIBUTE_CARD, "tribute_not_card", value=tr.card)
    for kind, who in deal.penalties:
        if kind != TAKEBACK:
            add("penalties", "climbing_penalty", value=kind)
        elif not _is_int(who) or not 0 <= who < n:
            add("penalties", "penalty_seat", value=who, last=n - 1)
    return list(out.values())


def tribute_issues(
    variant: Variant, deal: Deal, before: Deal | None
) -> list[tuple[str, str, dict[str, object]]]:
    """The tribute against the deal before (``before`` None: this is the first deal): paid by
    its last to its first, never before a first deal."""
    tr = deal.tribute
    if tr is None:
        return []
    if before is None:
        return [(TRIBUTE_FROM, "tribute_first_deal", {})]
    assert before.places is not None
    n = variant.players
    loser = before.places.index(n)
    winner = before.places.index(1)
    out: list[tuple[str, str, dict[str, object]]] = []
    if tr.giver != loser:
        out.append((TRIBUTE_FROM, "tribute_not_loser", {"value": tr.giver, "seat": loser}))
    if tr.receiver != winner:
        out.append((TRIBUTE_TO, "tribute_not_winner", {"value": tr.receiver, "seat": winner}))
    return out


def out_order(places: tuple[int | None, ...]) -> list[int]:
    """The seats in the order they went out (first place first)."""
    return sorted(range(len(places)), key=lambda s: places[s] or 0)


def deal_points(variant: Variant, deal: Deal) -> tuple[int, ...]:
    """Each seat's points for a checked row: the engine's points by place, less one for each
    take-back (悔牌) of the seat."""
    assert deal.places is not None
    pts = points_by_place(variant, out_order(deal.places))
    for kind, who in deal.penalties:
        if kind == TAKEBACK and _is_int(who):
            pts[who] -= 1
    return tuple(pts)


def normal_tribute(tr: Tribute) -> Tribute:
    """The tribute with its card in its code (``"2s"`` → ``"2S"``) when it is a card."""
    code = card_code(tr.card) if isinstance(tr.card, str) else None
    return tr if code is None or code == tr.card else Tribute(tr.giver, tr.receiver, code)


@dataclass(frozen=True)
class ClimbingRow:
    number: int
    places: tuple[int, ...]
    tribute: Tribute | None
    scores: tuple[int, ...]  # this deal's points per seat
    totals: tuple[int, ...]  # running points per seat after this deal
    winner: int  # the seat that went out first (上游)
    loser: int  # the seat left last (下游)


@dataclass(frozen=True)
class ClimbingTable:
    rows: tuple[ClimbingRow, ...]
    totals: tuple[int, ...]
    wins: tuple[int, ...]  # deals won (上游) per seat
    counts: bool
    errors: tuple[DealIssue, ...]

    @property
    def deals(self) -> int:
        return len(self.rows)

    @property
    def dealer_wins(self) -> tuple[int, ...]:
        """The tie-break after points, named as red five's (deals won) for shared pages."""
        return self.wins


def derive_climbing(variant: Variant, spec: MatchSpec, table: Table) -> ClimbingTable:
    """The running sheet of a climbing table: each row's points and the running totals, the
    deals each seat won; ``counts`` when the match is over (its number of deals, the director's
    last deal, or ended) with no row in error. A row in error stops the sheet there."""
    n = variant.players
    totals = [0] * n
    wins = [0] * n
    rows: list[ClimbingRow] = []
    errors: list[DealIssue] = []
    broken = False
    before: Deal | None = None
    for i, deal in enumerate(table.deals):
        field_errors = deal_issues(variant, deal)
        if field_errors:
            errors += [DealIssue.of(i, issue) for issue in field_errors]
            broken = True
            continue
        if broken:
            continue
        beyond = beyond_the_table(spec, table, i)
        if beyond is not None:
            errors.append(beyond)
            broken = True
            continue
        context = tribute_issues(variant, deal, before)
        if context:
            errors += [DealIssue.make(i, f, code, **params) for f, code, params in context]
            broken = True
            continue
        assert deal.places is not None
        places = tuple(p or 0 for p in deal.places)
        scores = deal_points(variant, deal)
        for s in range(n):
            totals[s] += scores[s]
        winner, loser = places.index(1), places.index(n)
        wins[winner] += 1
        rows.append(ClimbingRow(i + 1, places, deal.tribute, scores, tuple(totals), winner, loser))
        before = deal
    length = spec.deals if spec.deals is not None else table.last_deal
    counts = not broken and (table.finished or (length is not None and len(rows) >= length))
    return ClimbingTable(tuple(rows), tuple(totals), tuple(wins), counts, tuple(errors))
