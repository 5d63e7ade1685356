"""A Swiss of teams in the app: round 1 from the entrant order (with a bye for five teams), the
next round paired only once the round before is complete and then from the VPs (equal VPs
meet, no rematch, the bye to the lowest team without one), a correction of round 1 changes the
standings but never round 2's pairing; the form's bad Swiss refused with a sentence; a Swiss
round played online only once it is paired; the travellers and team match scorecards of the
rounds paired so far."""

from __future__ import annotations

import re

from sqlalchemy import select

from app.extensions import db
from app.models import DuplicateEvent, DuplicateOnlineTable, DuplicateResult, DuplicateRound
from app.services.duplicate import events as svc
from tests.duplicate.test_duplicate_pages import _create, _event_id, _text
from tests.forms import submit
from tests.tournaments.tournament_helpers import login, world

TEAMS = ["红队", "蓝队", "黄队", "绿队", "白队"]
WIN = ("0", "0")  # side 0 declares and holds the attackers to 0
LOSE = ("0", "40")


def _swiss(client, w, **extra):  # type: ignore[no-untyped-def]
    data = {
        "name": "Swiss teams",
        "kind": "teams",
        "pairing": "swiss",
        "entrants": "\n".join(TEAMS),
        "boards_per_round": 1,
        "rounds": 3,
    }
    data.update(extra)
    return _create(client, w, **data)


def _enter(client, base: str, did: int, board: int, by_table: dict[int, tuple[str, str]]):  # type: ignore[no-untyped-def]
    """Type board ``board``'s traveller: ``by_table[t]`` = (declaring side, attackers' points)."""
    db.session.expire_all()
    data = {}
    for row in svc.board_sheet(db.session.get(DuplicateEvent, did), board):
        if row.table in by_table:
            data[f"{row.key}_declarer"], data[f"{row.key}_total"] = by_table[row.table]
    return submit(client, f"{base}/boards/{board}", data)


def _standings(page: str) -> dict[str, str]:
    return dict(re.findall(r"<tr><td>\d+</td><td>([^<]+)</td><td>([\d.]+)</td>", page))


def _pairings(did: int) -> list[tuple[int, list[list[int]], int | None]]:
    db.session.expire_all()
    rows = db.session.scalars(
        select(DuplicateRound).where(DuplicateRound.event_id == did).order_by(DuplicateRound.round)
    )
    return [(x.round, x.pairs, x.bye) for x in rows]


def test_a_swiss_of_five_teams_round_by_round(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_swiss(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    page = client.get(base).get_data(as_text=True)
    # round 1 from the entrant order: first half against second half, the last team's bye
    assert re.search(r"VPs\) · Swiss ·\s+3 boards ·\s+3 rounds", page)
    assert "<td>1</td><td>1</td><td>红队 · 1 – 黄队 · 1</td>" in page
    assert "<td>3</td><td>1</td><td>蓝队 · 1 – 绿队 · 1</td>" in page
    assert "Sitting out: 白队" in page and "Paired by Dora Director" in page
    assert page.count("Not paired yet") == 2 and page.count("its round is not paired yet") == 2
    assert "never a round already paired" in page and "Pair round 2" in page
    assert _pairings(did) == [(1, [[0, 2], [1, 3]], 4)]
    listing = client.get(f"/clubs/{w.club.slug}/duplicate").get_data(as_text=True)
    assert "(IMPs and VPs) · Swiss</span>" in listing
    zh = client.get(base, headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "瑞士制" in zh and "编排第 2 轮" in zh and "尚未编排" in zh

    # round 2 is refused until every board of every match of round 1 is in
    assert _enter(client, base, did, 1, {1: WIN, 2: LOSE, 3: WIN}).status_code == 303
    r = client.post(base + "/pair", follow_redirects=True)
    assert "Round 1 is not complete: 1 result is still missing (board 1 at table 4)" in (
        r.get_data(as_text=True)
    )
    assert len(_pairings(did)) == 1
    # round 2's board has no table yet: nothing to type in
    assert "No table plays this board yet" in client.get(base + "/boards/2").get_data(as_text=True)
    r = client.post(base + "/boards/2", data={"r2t1_declarer": "0", "r2t1_total": "40"})
    assert r.status_code == 422 and "No table plays board 2 yet" in r.get_data(as_text=True)
    assert _enter(client, base, did, 1, {1: WIN, 2: LOSE, 3: WIN, 4: LOSE}).status_code == 303
    page = client.get(base).get_data(as_text=True)
    # both matches won by the same margin: 红队 and 蓝队 level, 黄队 and 绿队 level, 白队 0 (bye)
    vps = _standings(page)
    assert vps["红队"] == vps["蓝队"] and vps["黄队"] == vps["绿队"] and vps["白队"] == "0.00"
    assert float(vps["红队"]) > 10 > float(vps["黄队"])
    assert "<td>白队</td><td>0.00</td><td>0</td><td>0</td><td>—</td><td>0</td>" in page

    # round 2: the two leaders meet, no rematch, the bye to the lowest team without one
    r = client.post(base + "/pair", follow_redirects=True)
    assert "Round 2 is paired." in r.get_data(as_text=True)
    (_, p1, b1), (_, p2, b2) = _pairings(did)
    assert sorted(map(sorted, p2)) == [[0, 1], [2, 4]] and b2 == 3
    assert not {frozenset(p) for p in p1} & {frozenset(p) for p in p2}
    page = client.get(base).get_data(as_text=True)
    assert "Sitting out: 绿队" in page and page.count("Not paired yet") == 1
    assert client.post(base + "/pair", follow_redirects=True).status_code == 200
    assert len(_pairings(did)) == 2  # round 2 has no result yet: round 3 waits
    # the travellers hold the paired rounds' boards only; the hand records every board
    tr = _text(client.get(base + "/travellers.pdf").data)
    assert "第 2 副  Board 2" in tr and "第 3 副  Board 3" not in tr
    assert "第 3 副  Board 3" in _text(client.get(base + "/hand-records.pdf").data)
    # the team match scorecards: the paired rounds' matches, round 1's filled in with its VPs
    sc = _text(client.get(base + "/scorecards.pdf").data)
    assert "Round 1, match 2" in sc and "Round 2, match 2" in sc and "Round 3" not in sc
    assert "A: 蓝队  —  B: 绿队" in sc and f"{float(vps['蓝队']):.2f}" in sc

    # a correction of round 1: 绿队 beats 蓝队 after all; the standings follow, round 2 stays
    assert _enter(client, base, did, 1, {1: WIN, 2: LOSE, 3: LOSE, 4: WIN}).status_code == 303
    after = _standings(client.get(base).get_data(as_text=True))
    assert after["绿队"] == vps["红队"] and after["蓝队"] == vps["黄队"]
    assert _pairings(did)[1] == (2, p2, b2)
    page = client.get(base).get_data(as_text=True)
    assert "Sitting out: 绿队" in page

    # round 2's results (a board each match), then round 3 from the VPs so far
    db.session.expire_all()
    ev = db.session.get(DuplicateEvent, did)
    tables = {s.table for s in svc.movement_of(ev).round_sittings(2)}
    assert _enter(client, base, did, 2, {t: WIN for t in tables}).status_code == 303
    assert "Round 3 is paired." in client.post(base + "/pair", follow_redirects=True).get_data(
        as_text=True
    )
    rounds = _pairings(did)
    met = [frozenset(p) for _, pairs, _ in rounds for p in pairs]
    assert len(met) == len(set(met)) == 6  # three rounds, no rematch
    byes = [b for _, _, b in rounds]
    assert len(set(byes)) == 3  # nobody sits out twice
    page = client.get(base).get_data(as_text=True)
    assert "Every round is paired." in page and "Not paired yet" not in page
    r = client.post(base + "/pair", follow_redirects=True)
    assert "All 3 rounds are paired already." in r.get_data(as_text=True)
    # rounds 1 and 2 scored (round 3 not typed in): 20 VPs a match, two matches a round
    total = sum(float(x) for x in _standings(page).values())
    assert abs(total - 20 * 4) < 0.02


def test_bad_swiss_events_are_refused_and_nothing_saved(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    r = _swiss(client, w, rounds="")
    assert r.status_code == 422
    assert "A Swiss of 5 teams plays from 1 to 4 rounds, fewer than the round robin&#39;s 5" in (
        r.get_data(as_text=True)
    )
    r = _swiss(client, w, rounds=5)
    assert r.status_code == 422 and "type the number of rounds, or choose a round robin" in (
        r.get_data(as_text=True)
    )
    r = _swiss(client, w, entrants="红队\n蓝队", rounds=1)
    assert r.status_code == 422 and "Two teams play one match: choose a round robin." in (
        r.get_data(as_text=True)
    )
    r = _swiss(client, w, kind="pairs", entrants="A\nB\nC\nD")
    assert r.status_code == 422 and "Only team events are played as a Swiss" in r.get_data(
        as_text=True
    )
    r = _swiss(client, w, pairing="knockout")
    assert r.status_code == 422 and "Not a valid choice" in r.get_data(as_text=True)
    assert db.session.query(DuplicateEvent).count() == 0
    assert db.session.query(DuplicateRound).count() == 0
    # a round robin is not paired round by round
    did = _event_id(_swiss(client, w, pairing="round-robin", rounds=""))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    page = client.get(base).get_data(as_text=True)
    assert re.search(r"VPs\) · Round robin ·\s+5 boards ·\s+5 rounds", page)
    assert "Pair round" not in page
    r = client.post(base + "/pair", follow_redirects=True)
    assert "Only a Swiss of teams is paired round by round." in r.get_data(as_text=True)
    assert "Round 5, match 2" in _text(client.get(base + "/scorecards.pdf").data)
    assert db.session.query(DuplicateRound).count() == 0


def test_a_swiss_round_is_played_online_once_it_is_paired(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_swiss(client, w, entrants="红队\n蓝队\n黄队", rounds=2))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    page = client.get(base).get_data(as_text=True)
    assert "Play round 1 online" in page and "Play round 2 online" not in page
    r = client.post(base + "/rounds/2/online", follow_redirects=True)
    assert "Round 2 is not paired yet: pair it first." in r.get_data(as_text=True)
    assert client.post(base + "/rounds/1/online").status_code == 303
    # round 1's results typed over the online tables' lines, then round 2 (黄队 had the bye)
    assert _enter(client, base, did, 1, {1: WIN, 2: LOSE}).status_code == 303
    assert "Round 2 is paired." in client.post(base + "/pair", follow_redirects=True).get_data(
        as_text=True
    )
    r = client.post(base + "/rounds/2/online", follow_redirects=True)
    assert "Round 2 is played online at 2 tables" in r.get_data(as_text=True)
    db.session.expire_all()
    links = db.session.scalars(
        select(DuplicateOnlineTable).where(
            DuplicateOnlineTable.event_id == did, DuplicateOnlineTable.round == 2
        )
    ).all()
    assert sorted((x.table_no, x.board) for x in links) == [(1, 2), (2, 2)]
    names = {s.entrant.name for x in links for s in x.table.seats}
    assert "黄队 · 1" in names and "黄队 · 2" in names
    assert db.session.query(DuplicateResult).filter_by(event_id=did).count() == 2
