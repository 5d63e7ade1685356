"""Each pairing format end to end through the app: Swiss without repeat opponents and with
rotating byes, a complete round robin, red five re-seating; re-pair, swap, late entries."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from flask import current_app
from sqlalchemy import select
from tournament_helpers import actor, add_entrants, create, login, play_round_out, seat, world

from app.extensions import db
from app.models import Round, TableSeat
from app.services.tournaments.sheets import record_deal


def _tables(rnd: Round) -> list[tuple[str, list[str]]]:
    db.session.refresh(rnd)
    return [(tab.kind, [s.entrant.name for s in tab.seats]) for tab in rnd.tables]


def test_swiss_no_repeat_opponents_and_byes_rotate(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, rounds=5)
    add_entrants(client, w.club, t, 7, 2)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for _ in range(5):
        rnd = seat(client, w.club, t)
        for kind, names in _tables(rnd):
            if kind == "bye":
                byes += names
            else:
                pair = frozenset(names)
                assert pair not in met, f"{pair} met twice"
                met.add(pair)
        play_round_out(t, rnd, w.director)
    assert len(byes) == 5 and len(set(byes)) == 5  # nobody had a second bye
    r = client.post(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds", follow_redirects=True)
    assert "all are seated" in r.get_data(as_text=True)


def test_round_robin_is_complete(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, pairing="round-robin", rounds=5)
    names = add_entrants(client, w.club, t, 5, 2)
    met: Counter[frozenset[str]] = Counter()
    byes: list[str] = []
    for _ in range(5):
        rnd = seat(client, w.club, t)
        for kind, seated in _tables(rnd):
            if kind == "bye":
                byes += seated
            else:
                met[frozenset(seated)] += 1
        play_round_out(t, rnd, w.director)
    assert set(met) == {frozenset(p) for p in combinations(names, 2)}
    assert set(met.values()) == {1}
    assert sorted(byes) == sorted(names)
    # a round robin's schedule is fixed: no late entry once seated
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants",
        data={"player_0": "Late", "player_1": "Comer"},
    )
    assert r.status_code == 422 and "schedule is fixed" in r.get_data(as_text=True)


def test_red_five_reseat_new_tablemates(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, variant="red-five-5p", pairing="reseat", rounds=2, match_value=2)
    add_entrants(client, w.club, t, 26, 1)
    rnd = seat(client, w.club, t)
    first = _tables(rnd)
    assert sum(1 for k, _ in first if k == "players") == 5
    assert len([n for k, n in first if k == "bye"]) == 1  # 26 players: 5 tables and one bye
    play_round_out(t, rnd, w.director)
    rnd2 = seat(client, w.club, t)
    second = _tables(rnd2)
    mates = {frozenset(p) for k, n in first if k == "players" for p in combinations(n, 2)}
    for kind, seated in second:
        if kind == "players":
            assert len(seated) == 5
            for p in combinations(seated, 2):
                assert frozenset(p) not in mates
    bye1 = [n[0] for k, n in first if k == "bye"]
    bye2 = [n[0] for k, n in second if k == "bye"]
    assert bye1 != bye2  # byes rotate


def test_repair_until_first_result_swap_late_entry_withdrawal(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, rounds=3)
    add_entrants(client, w.club, t, 4, 2)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    rnd = seat(client, w.club, t)
    play_round_out(t, rnd, w.director)
    # late entry and a withdrawal between rounds
    client.post(f"{base}/entrants", data={"player_0": "Late", "player_1": "Comer"})
    gone = t.entrants[0]
    assert client.post(f"{base}/entrants/{gone.id}/withdraw").status_code == 303
    rnd2 = seat(client, w.club, t)
    seated = [n for _k, names in _tables(rnd2) for n in names]
    assert "Late & Comer" in seated and gone.name not in seated
    # swap two entrants at different tables before the round starts
    tabs = [tab for tab in rnd2.tables if tab.kind == "sides"]
    a, b = tabs[0].seats[0].entrant_id, tabs[1].seats[1].entrant_id
    r = client.post(f"{base}/rounds/2/swap", data={"first": a, "second": b})
    assert r.status_code == 303
    db.session.expire_all()
    assert (
        db.session.scalar(
            select(TableSeat.entrant_id).where(
                TableSeat.table_id == tabs[0].id, TableSeat.position == 0
            )
        )
        == b
    )
    # re-pair works before any result (and undoes the swap), not after
    r = client.post(f"{base}/rounds/2/repair", follow_redirects=True)
    assert "paired again" in r.get_data(as_text=True)
    rnd2 = db.session.scalar(select(Round).where(Round.tournament_id == t.id, Round.number == 2))
    assert rnd2 is not None
    tab = next(x for x in rnd2.tables if x.kind == "sides")
    with current_app.test_request_context():
        from app.competition.model import Deal as CDeal

        record_deal(t, tab, CDeal(points=60, kitty=0, trump="S", declarer=0), actor(w.director))
        db.session.commit()
    r = client.post(f"{base}/rounds/2/repair", follow_redirects=True)
    assert "cannot be paired again" in r.get_data(as_text=True)
    other = next(x for x in rnd2.tables if x.kind == "sides" and x.id != tab.id)
    r = client.post(
        f"{base}/rounds/2/swap",
        data={"first": tab.seats[0].entrant_id, "second": other.seats[0].entrant_id},
        follow_redirects=True,
    )
    assert "can no longer be swapped" in r.get_data(as_text=True)
    # the next round needs this one closed first
    r = client.post(f"{base}/rounds", follow_redirects=True)
    assert "Close round 2" in r.get_data(as_text=True)
