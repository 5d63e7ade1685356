"""Club ratings: every member's strength across every recorded match, re-derived from results
(never stored as counters). Pure: no Flask, no database; the rating maths is OpenSkill's
(Plackett–Luce, the ``openskill`` package), which rates partnerships and teams natively.

* A fixed-side match (升级 pairs, 120分 trios) is one game between two teams: the side with the
  higher final level wins, equal levels draw.
* A red five deal is one game of the dealer's side (dealer and friend, or the dealer alone)
  against the attackers (the other seats): the side that won the deal wins.
* A 争上游 (climbing) deal is one free-for-all game of individuals, each player a team of one
  (OpenSkill rates games of many teams by rank natively), in seat order: the players are ranked
  by the deal's points, the sheet's own (points by place, less a point for each take-back 悔牌,
  ``climbing.deal_points``), so a take-back counts in the rating as a penalty counts in a red
  five deal's winner or a fixed-side match's levels. Equal points (``place_points`` such as
  3, 1, 1, 0, or a first out whose take-back brings him level with the second) share the places
  they span: the deal is rated with each tied player in each of those places once and the
  results averaged (OpenSkill's own ties misrate free-for-alls: ``_rate_sharing``).
  The first out (上游) earns the deal's award, as the standings count deals won by place.
  争上游 joins the one club rating as red five joined 升级's: the club has one number per
  player across all its games (no rating per variant), each deal a game as red five's are.
* 打百分 joins it too: its individual events (a friend mode, 3人百分) deal by deal as red five's
  (the declarer and the friend, or the declarer alone, against the attackers), its pair events
  (fixed partners, 40分下台) match by match as fixed sides', the side with more units winning.

Red five and 争上游 are rated deal by deal, every checked row of the sheet up to the first row
in error (a table in progress rates its deals so far), each seat credited to whoever played it
that round (a substitute's rounds are the substitute's); a fixed-side match is rated once it
counts.

Games are applied in time order; games with the same time keep the order they were given in
(their recorded order), so the result is stable. The rating shown is OpenSkill's conservative
*ordinal* (μ − 3σ) scaled to a familiar range: ``DISPLAY_BASE + DISPLAY_SCALE × ordinal``, so a
new player (μ 25, σ 25/3, ordinal 0) shows 1000 and the number rises as results confirm strength.

A bridge-style cumulative award (league points, 积分榜) is kept beside it: each match won earns
``AWARD_WIN`` points, a draw ``AWARD_DRAW``, each red five deal won and each 争上游 deal won
(上游) ``AWARD_DEAL_WIN``; points never go down.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from openskill.models import PlackettLuce

from engine.variants import CLIMBING

from .climbing import derive_climbing
from .hundred import derive_hundred, hundred_variant, is_hundred
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
    """One rated game between teams of player names. Two teams: ``winner`` 0, 1, or None for a
    draw. More (a 争上游 deal, a team of one per seat): ``ranks`` gives each team's rank, 0
    best, equal ranks shared, and ``winner`` the team that earns the deal's award."""

    when: str  # ISO date-time (or date) of the match; ties keep the given order
    teams: tuple[tuple[str, ...], ...]
    winner: int | None
    label: str = ""  # what the game was (tournament, round, table, deal)
    kind: str = "match"  # "match" (fixed sides) or "deal" (red five, 争上游)
    ranks: tuple[int, ...] | None = None  # None: from ``winner`` (two teams)

    def team_ranks(self) -> tuple[int, ...]:
        if self.ranks is not None:
            return self.ranks
        if self.winner is None:
            return (0,) * len(self.teams)
        return tuple(0 if side == self.winner else 1 for side in range(len(self.teams)))


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
    def deals(self) -> int:
        """The red five and 争上游 deals rated (each a game of its own, not a match)."""
        return self.games - self.matches

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
        keys = [{name_match_key(p) for p in team} for team in game.teams]
        ranks = game.team_ranks()
        if (
            len(game.teams) < 2
            or not all(game.teams)
            or len(ranks) != len(game.teams)
            or len(set().union(*keys)) != sum(len(k) for k in keys)
        ):
            continue  # not a game between sides (bad data: a player on two sides): rates nobody
        teams = [
            [model.create_rating([get(p).mu, get(p).sigma], name=p) for p in team]
            for team in game.teams
        ]
        if game.ranks is None:
            new = model.rate(teams, ranks=[float(r) for r in ranks])
            new_teams = [[(float(r.mu), float(r.sigma)) for r in team] for team in new]
        else:
            new_teams = _rate_sharing(model, teams, ranks)
        for side, (names, new_team) in enumerate(zip(game.teams, new_teams, strict=True)):
            for name, (mu, sigma) in zip(names, new_team, strict=True):
                pr = get(name)
                pr.mu, pr.sigma = mu, sigma
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


def _rate_sharing(
    model: PlackettLuce, teams: list[list[Any]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """Each player's (μ, σ) after a game of many teams whose equal ranks share the places they
    span: each tied team takes each of those places once (the tied group's rotations, every
    group at once), each order is rated, and the results are averaged. OpenSkill's own
    Plackett–Luce ties can leave a team tied for first below the third (openskill.py issue
    #155), so ties are never passed to it; with no tie this is one plain rating."""
    groups = [[i for i, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]
    orders = product(*([g[k:] + g[:k] for k in range(len(g))] for g in groups))
    total = [[(0.0, 0.0) for _ in team] for team in teams]
    count = 0
    for order in orders:
        strict = [0.0] * len(teams)
        for place, i in enumerate(i for group in order for i in group):
            strict[i] = float(place)
        new = model.rate(teams, ranks=strict)
        for side, team in enumerate(new):
            for j, r in enumerate(team):
                mu, sigma = total[side][j]
                total[side][j] = (mu + float(r.mu), sigma + float(r.sigma))
        count += 1
    return [[(mu / count, sigma / count) for mu, sigma in team] for team in total]


def table(ratings: dict[str, PlayerRating]) -> list[PlayerRating]:
    """Best first: the displayed rating, then more games, then the name (``name_sort_key``)."""
    return sorted(ratings.values(), key=lambda r: (-r.display, -r.games, name_sort_key(r.player)))


def points_ranks(scores: Sequence[int]) -> tuple[int, ...]:
    """Each seat's rank by its points in a deal: 0 for the most, equal points one rank (the
    number of seats with more points)."""
    return tuple(sum(1 for o in scores if o > s) for s in scores)


def games_of(t: Tournament, when: str, player_names: Mapping[str, str] | None = None) -> list[Game]:
    """The rated games of one tournament night: each counted fixed-side match (forfeits rate
    nobody: nothing was played), each red five deal, each 争上游 deal. ``when`` orders nights
    (ISO date or time); within a night, rounds then tables then deals keep their recorded
    order."""
    rename = player_names or {}
    entrants = t.entrant_map

    def players(name: str, round_no: int) -> tuple[str, ...]:
        e = entrants.get(name)
        names = e.players_in(round_no) if e is not None and e.players else (name,)
        return tuple(rename.get(p, p) for p in names)

    if is_hundred(t.variant):
        return _hundred_games(t, when, players)
    variant = t.rules
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
            elif tab.players is not None and variant.id == CLIMBING:
                alone = tuple((players(p, rnd.round)[0],) for p in tab.players)  # seat order
                for c in derive_climbing(variant, t.match, tab).rows:
                    ranks = points_ranks(c.scores)
                    out.append(
                        Game(f"{stamp}.{c.number:04d}", alone, c.winner, label, "deal", ranks)
                    )
            elif tab.players is not None:
                seats = [players(p, rnd.round)[0] for p in tab.players]
                red = derive_red_five(variant, t.match, tab)
                for row in red.rows:
                    dealer_side = {row.dealer} | ({row.friend} if row.friend is not None else set())
                    a = tuple(seats[s] for s in sorted(dealer_side))
                    b = tuple(seats[s] for s in range(len(seats)) if s not in dealer_side)
                    winner = 0 if row.winner == "declarer" else 1
                    out.append(Game(f"{stamp}.{row.number:04d}", (a, b), winner, label, "deal"))
    return out


def _hundred_games(
    t: Tournament, when: str, players: Callable[[str, int], tuple[str, ...]]
) -> list[Game]:
    """打百分 (HUNDRED.md §8) as the other games are rated: a pair event's counted match (fixed
    partners, 40分下台) is one game of two teams won by the side with more units, equal units
    a draw (a forfeit rates nobody); an individual event's deal (a friend mode, 3人百分) is one
    game of the declarer's side — the declarer and the friend, or the declarer alone (always
    in 3人百分, whose dummy is no one) — against the attackers, won by the deal's winner."""
    variant = hundred_variant(t.variant, t.options)
    out: list[Game] = []
    for rnd in t.played:
        for tab in rnd.tables:
            label = f"{t.name} · R{rnd.round} · T{tab.table}"
            stamp = f"{when}#{rnd.round:04d}.{tab.table:04d}"
            if tab.sides is not None:
                if tab.forfeit is not None:
                    continue
                m = derive_hundred(variant, t.match, tab)
                if not m.counts:
                    continue
                diff = m.margin(0)
                winner = None if diff == 0 else (0 if diff > 0 else 1)
                teams = (players(tab.sides[0], rnd.round), players(tab.sides[1], rnd.round))
                out.append(Game(stamp, teams, winner, label, "match"))
            elif tab.players is not None:
                seats = [players(p, rnd.round)[0] for p in tab.players]
                for row in derive_hundred(variant, t.match, tab).rows:
                    side = {row.declarer} | ({row.friend} if row.friend is not None else set())
                    a = tuple(seats[s] for s in sorted(side))
                    b = tuple(seats[s] for s in range(len(seats)) if s not in side)
                    won = 0 if row.winner == "declarer" else 1
                    out.append(Game(f"{stamp}.{row.number:04d}", (a, b), won, label, "deal"))
    return out
