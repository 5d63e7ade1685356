"""The helpers the tournament services share after the split: stored points settings, the seat
order of a table, the status of an imported round, the per-entrant history, and the standings
load (Core queries that must still see this transaction's unflushed changes)."""

from __future__ import annotations

from flask import current_app
from tournament_helpers import (
    actor,
    add_entrants,
    create,
    fixed_deal,
    login,
    seat,
    sheet_url,
    world,
)

from app.competition import model as cm
from app.competition.standings import entrant_history
from app.extensions import db
from app.services.tournaments.files import _imported_status
from app.services.tournaments.rows import load, load_uncached, points_json, points_spec, seat_names
from app.services.tournaments.setup import withdraw_entrant
from app.services.tournaments.standings import entrant_matches


def test_points_json_stores_only_what_differs_from_the_defaults():
    assert points_json(cm.PointsSpec()) == {"win": 2, "draw": 1, "loss": 0}
    spec = cm.PointsSpec(win=3, draw=1, loss=0, bye=1, forfeit_level_diff=5)
    stored = points_json(spec)
    assert stored == {"win": 3, "draw": 1, "loss": 0, "bye": 1, "forfeit_level_diff": 5}
    assert points_spec(stored) == spec
    assert points_spec(points_json(cm.PointsSpec(bye=0))).bye == 0  # a bye of 0 is kept


def test_seat_names_partners_opposite_and_red_five_by_seat(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 2, 2)
    tab = seat(client, w.club, t).tables[0]
    sides, seats = seat_names(tab)
    a, b = (s.entrant for s in tab.seats)
    assert sides == [a.name, b.name]
    pa, pb = [p.name for p in a.players], [p.name for p in b.players]
    assert seats == [pa[0], pb[0], pa[1], pb[1]]  # 升级: partners sit opposite

    t5 = create(client, w.club, name="Red", variant="red-five-5p", pairing="reseat")
    add_entrants(client, w.club, t5, 5, 1)
    tab5 = seat(client, w.club, t5).tables[0]
    assert seat_names(tab5) == ([], [s.entrant.name for s in tab5.seats])


def _table(sides: tuple[str, str], deals: int, forfeit: int | None = None) -> cm.Table:
    deal = cm.Deal(points=40, kitty=0, trump="S", declarer=0)
    return cm.Table(1, sides=sides, forfeit=forfeit, deals=(deal,) * deals)


def test_imported_round_status_from_its_tables():
    entrants = tuple(cm.Entrant(n, (n + "1", n + "2")) for n in "ABC")
    base = cm.Tournament(
        "C", "T", "tractor-4p", "swiss", 2, cm.MatchSpec(deals=2), entrants=entrants
    )
    bye = cm.Table(2, bye="C")

    def status(tab: cm.Table) -> str:
        return _imported_status(base, cm.Round(1, (tab, bye)))

    assert status(_table(("A", "B"), 2)) == "closed"  # the match counts (the bye always does)
    assert status(_table(("A", "B"), 1)) == "started"
    assert status(_table(("A", "B"), 0)) == "seated"
    assert status(_table(("A", "B"), 0, forfeit=1)) == "closed"


def test_entrant_matches_follow_the_competition_history(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, rounds=2)
    names = add_entrants(client, w.club, t, 3, 2)
    rnd = seat(client, w.club, t)
    tab = next(tab for tab in rnd.tables if tab.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    for _ in range(2):  # the second deal completes the match: the side declaring wins
        assert client.post(url, data=fixed_deal(0, 40)).status_code == 303
    db.session.expire_all()
    loaded = load(t)
    for name in names:
        matches = entrant_matches(loaded, name)
        history = entrant_history(loaded.tournament, name)
        assert [(m.round, m.table.table, m.bye) for m in matches] == [
            (h.round, h.table, h.bye) for h in history
        ]
        for m, h in zip(matches, history, strict=True):
            if m.bye:  # the page shows a bye as a bye, nothing more
                assert m.derived is None and h.bye
                continue
            assert (m.outcome, m.level_diff, m.opponent) == (h.outcome, h.level_diff, h.opponent)
            assert m.derived is not None and len(m.derived.rows) == len(m.deals) == 2
    outcomes = {m.outcome for n in names for m in entrant_matches(loaded, n) if not m.bye}
    assert outcomes == {"win", "loss"}


def test_load_sees_this_transactions_unflushed_changes(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    db.session.expire_all()
    e = t.entrants[0]
    with current_app.test_request_context():
        withdraw_entrant(t, e, actor(w.director))  # no flush: the Core queries must flush first
        loaded = load_uncached(t)
        assert loaded.tournament.entrant_map[e.name].withdrawn_after == 0
        db.session.rollback()
    db.session.expire_all()
    assert load_uncached(t).tournament.entrant_map[e.name].withdrawn_after is None
