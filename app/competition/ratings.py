"""Club ratings: every member's strength across every recorded match, re-derived from results
(never stored as counters). Pure: no Flask, no database; the rating maths is OpenSkill's
(Plackett–Luce, the ``openskill`` package), which rates partnerships and teams natively.

* A fixed-side match (升级 pairs, 120分 trios) is one game between two teams: the side with the
  higher final level wins, equal levels draw.
* A red five deal is one game of the dealer's side (dealer and friend, or the dealer alone)
  against the attackers (the other seats): the side that won the deal wins.
* 争上游 (climbing) tables are not rated: a deal of individuals by place is no game of two
  teams; they earn no award either.

Games are applied in time order; games with the same time keep the order they were given in
(their recorded order), so the result is stable. The rating shown is OpenSkill's conservative
*ordinal* (μ − 3σ) scaled to a familiar range: ``DISPLAY_BASE + DISPLAY_SCALE × ordinal``, so a
new player (μ 25, σ 25/3, ordinal 0) shows 1000 and the number rises as results confirm strength.

A bridge-style cumulative award (league points, 积分榜) is kept beside it: each match won earns
``AWARD_WIN`` points, a draw ``AWARD_DRAW``, each red five deal won ``AWARD_DEAL_WIN``; points
never go down.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from openskill.models import PlackettLuce

from engine.variants import CLIMBING

from .matches import derive_fixed, derive_red_five
from .model import Tournament
from .names import name_match_key, name_sort_key

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
AWARD_WIN = 3
AWARD_DRAW = 1
AWARD_DEAL_WIN = 1


@dataclass(frozen=True)
class Game:
    """One rated game: two teams of player names; ``winner`` 0, 1, or None for a draw."""

    when: str  # ISO date-time (or date) of the match; ties keep the given order
    teams: tuple[tuple[str, ...], tuple[str, ...]]
    winner: int | None
    label: str = ""  # what the game was (tournament, round, table, deal)
    kind: str = "match"  # "match" (fixed sides) or "deal" (red five)


@dataclass
class PlayerRating:
    player: str
    mu: float
    sigma: float
    games: int = 0
    matches: int = 0
    award: int = 0
    history: list[tuple[str, int]] = field(default_factory=list)  # (when, display) after each

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> int:
    """The single conservative number shown to people."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def rate(
    games: Sequence[Game], start: Mapping[str, PlayerRating] | None = None
) -> dict[str, PlayerRating]:
    """Every player's rating after ``games`` (applied in time order, stable for equal times),
    from ``start`` (the ratings after earlier games, left unchanged; none: everyone new). Rating
    the games of two nights one after the other from the first's result gives the same as
    rating them together, so a change on the last night re-rates that night only."""
    model = PlackettLuce()
    ratings: dict[str, PlayerRating] = {
        name: replace(r, history=list(r.history)) for name, r in (start or {}).items()
    }
    ordered = sorted(enumerate(games), key=lambda ig: (ig[1].when, ig[0]))
    # one rating per player however the name was typed ("王 伟" is 王伟): the first spelling met
    spelling = {name_match_key(name): name for name in ratings}

    def get(name: str) -> PlayerRating:
        name = spelling.setdefault(name_match_key(name), name)
        if name not in ratings:
            ratings[name] = PlayerRating(name, model.mu, model.sigma)
        return ratings[name]

    for _i, game in ordered:
        a, b = game.teams
        if not a or not b or {name_match_key(p) for p in a} & {name_match_key(p) for p in b}:
            continue  # not a game between two sides (bad data): rates nobody
        team_a = [model.create_rating([get(p).mu, get(p).sigma], name=p) for p in a]
        team_b = [model.create_rating([get(p).mu, get(p).sigma], name=p) for p in b]
        ranks: list[float] = (
            [0.0, 0.0] if game.winner is None else ([0.0, 1.0] if game.winner == 0 else [1.0, 0.0])
        )
        new_a, new_b = model.rate([team_a, team_b], ranks=ranks)
        for side, new in ((0, new_a), (1, new_b)):
            names = (a, b)[side]
            for name, r in zip(names, new, strict=True):
                pr = get(name)
                pr.mu, pr.sigma = float(r.mu), float(r.sigma)
                pr.games += 1
                if game.kind == "match":
                    pr.matches += 1
                    if game.winner == side:
                        pr.award += AWARD_WIN
                    elif game.winner is None:
                        pr.award += AWARD_DRAW
                elif game.winner == side:
                    pr.award += AWARD_DEAL_WIN
                pr.history.append((game.when, pr.display))
    return ratings


def table(ratings: dict[str, PlayerRating]) -> list[PlayerRating]:
    """Best first: the displayed rating, then more games, then the name (``name_sort_key``)."""
    return sorted(ratings.values(), key=lambda r: (-r.display, -r.games, name_sort_key(r.player)))


def games_of(t: Tournament, when: str, player_names: Mapping[str, str] | None = None) -> list[Game]:
    """The rated games of one tournament night: each counted fixed-side match (forfeits rate
    nobody: nothing was played), each red five deal. ``when`` orders nights (ISO date or time);
    within a night, rounds then tables then deals keep their recorded order."""
    rename = player_names or {}
    variant = t.rules
    entrants = t.entrant_map

    def players(name: str, round_no: int) -> tuple[str, ...]:
        e = entrants.get(name)
        names = e.players_in(round_no) if e is not None and e.players else (name,)
        return tuple(rename.get(p, p) for p in names)

    out: list[Game] = []
    for rnd in t.played:
        for tab in rnd.tables:
            label = f"{t.name} · R{rnd.round} · T{tab.table}"
            stamp = f"{when}#{rnd.round:04d}.{tab.table:04d}"
            if tab.sides is not None:
                if tab.forfeit is not None:
                    continue
                m = derive_fixed(variant, t.match, tab)
                if not m.counts:
                    continue
                diff = m.level_diff(0)
                winner = None if diff == 0 else (0 if diff > 0 else 1)
                teams = (players(tab.sides[0], rnd.round), players(tab.sides[1], rnd.round))
                out.append(Game(stamp, teams, winner, label, "match"))
            elif tab.players is not None and variant.id != CLIMBING:
                seats = [players(p, rnd.round)[0] for p in tab.players]
                red = derive_red_five(variant, t.match, tab)
                for row in red.rows:
                    dealer_side = {row.dealer} | ({row.friend} if row.friend is not None else set())
                    a = tuple(seats[s] for s in sorted(dealer_side))
                    b = tuple(seats[s] for s in range(len(seats)) if s not in dealer_side)
                    winner = 0 if row.winner == "declarer" else 1
                    out.append(Game(f"{stamp}.{row.number:04d}", (a, b), winner, label, "deal"))
    return out
