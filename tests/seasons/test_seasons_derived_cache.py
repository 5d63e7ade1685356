"""The season table, its night-by-night chart and the club's ratings are kept per process and
re-derived only from the first night that changed: after a change on the first night, on the
last night, or a member's rename, what the pages show equals a derivation from nothing."""

from __future__ import annotations

import re

from flask import current_app
from sqlalchemy import select

from app.competition.ratings import rate, table
from app.extensions import db
from app.models import Club, Member, Round, Season, Table, Tournament
from app.services.ratings import club as ratings_cache
from app.services.seasons import standings as season_cache
from app.services.tournaments import rows
from tests.tournaments.tournament_helpers import (
    actor,
    add_entrants,
    create,
    login,
    play_round_out,
    seat,
    world,
)


def _fresh() -> None:
    rows._LOAD_CACHE.clear()
    ratings_cache._CACHE.clear()
    season_cache._LINES.clear()
    season_cache._PREFIXES.clear()


def _derived(club: Club, season: Season):  # type: ignore[no-untyped-def]
    """(ratings, season rows, the chart's labels, series and order) as the pages get them."""
    ratings = [(r.player, r.display, r.games, r.award) for r in ratings_cache.club_ratings(club)]
    standing = [r.as_json() for r in season_cache.standings(season)]
    return ratings, standing, season_cache.over_nights(season)


def _from_nothing(club: Club, season: Season):  # type: ignore[no-untyped-def]
    _fresh()
    full = table(rate(ratings_cache.club_games(club)))
    ratings = [(r.player, r.display, r.games, r.award) for r in full]
    standing = [r.as_json() for r in season_cache.standings(season)]
    out = (ratings, standing, season_cache.over_nights(season))
    _fresh()
    return out


def test_what_is_kept_equals_a_derivation_from_nothing(client):
    w = world()
    login(client, w.owner)
    nights = []
    for k, name in enumerate(("Night A", "Night B", "Night C")):
        t = create(client, w.club, name=name, rounds=1, pairing="round-robin")
        members = {"player_0": "Pete Player", "player_1": "Dora Director"}  # linked members
        assert client.post(f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants", data=members)
        add_entrants(client, w.club, t, 3, 2)
        play_round_out(t, seat(client, w.club, t), w.owner, seed=k)
        nights.append(t)
    r = client.post(f"/clubs/{w.club.slug}/seasons", data={"name": "League", "rule": "total"})
    sid = int(re.search(r"/seasons/(\d+)", r.headers["Location"]).group(1))
    for t, day in zip(nights, ("2026-01-06", "2026-01-13", "2026-01-20"), strict=True):
        client.post(
            f"/clubs/{w.club.slug}/seasons/{sid}/nights",
            data={"tournament": t.id, "date": day, "division": 0},
        )
    season = db.session.get(Season, sid)
    assert season is not None
    page = client.get(f"/clubs/{w.club.slug}/seasons/{sid}")
    assert page.status_code == 200
    before = _derived(w.club, season)
    assert before == _from_nothing(w.club, season)
    _derived(w.club, season)  # kept again

    from dataclasses import replace

    from app.services.tournaments.sheets import record_deal

    for t in (nights[0], nights[-1]):  # the first night changes, then the last
        t = db.session.get(Tournament, t.id)
        tab = db.session.scalars(
            select(Table).join(Round).where(Round.tournament_id == t.id, Table.kind == "sides")
        ).first()
        first = rows.deal_from_row(tab.deals[0])
        fixed = replace(first, points=0 if first.points >= 80 else 150)  # the other side wins
        with current_app.test_request_context():
            record_deal(t, tab, fixed, actor(w.owner, "owner"), index=0)  # the owner corrects
        db.session.commit()
        now = _derived(w.club, season)
        assert now != before
        assert now == _from_nothing(w.club, season)
        _derived(w.club, season)
        before = now

    # a member renamed: the season lines and ratings use the new name at once
    member = db.session.scalar(
        select(Member).where(Member.club_id == w.club.id, Member.display_name == "Pete Player")
    )
    assert member is not None
    assert "Pete Player" in [p for p, *_ in before[0]] + [r["player"] for r in before[1]]
    member.display_name = "Peter Player"
    db.session.commit()
    now = _derived(w.club, season)
    assert now == _from_nothing(w.club, season)
    players = [p for p, *_ in now[0]] + [r["player"] for r in now[1]] + list(now[2][1])
    assert "Peter Player" in players and "Pete Player" not in players
    html = client.get(f"/clubs/{w.club.slug}/seasons/{sid}").get_data(as_text=True)
    assert html.count('class="num rank"') == len(now[1])
