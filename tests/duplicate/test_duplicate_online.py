"""Duplicate boards played online: a director plays a team match's round online; every online
table of board k deals the board's own draw (the same cards to the same seats, and other cards
for another board); played out by bots, each table's result becomes its traveller line, and the
event page's IMPs and VPs follow — for players only once every table has played the board."""

from __future__ import annotations

from sqlalchemy import select

from app.competition.boards import paper_deal
from app.competition.duplicate import vp
from app.extensions import db
from app.models import (
    DuplicateEvent,
    DuplicateOnlineTable,
    DuplicateResult,
    OnlineDeal,
    OnlineSeat,
    Table,
)
from app.services.duplicate import events as svc
from app.services.online import advance, bridge
from engine.cards import card_str
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.tournaments.tournament_helpers import login, world


def _links(did: int) -> list[DuplicateOnlineTable]:
    db.session.expire_all()
    return list(
        db.session.scalars(
            select(DuplicateOnlineTable)
            .where(DuplicateOnlineTable.event_id == did)
            .order_by(DuplicateOnlineTable.table_no, DuplicateOnlineTable.board)
        )
    )


def _play_by_bots(link: DuplicateOnlineTable) -> None:
    tab = db.session.get(Table, link.table_id)
    assert tab is not None
    for s in db.session.scalars(select(OnlineSeat).where(OnlineSeat.table_id == tab.id)):
        s.bot = True
    db.session.flush()
    advance.advance(bridge.tournament_of(tab), tab)
    db.session.commit()


def _deal_row(link: DuplicateOnlineTable) -> OnlineDeal:
    rows = list(db.session.scalars(select(OnlineDeal).where(OnlineDeal.table_id == link.table_id)))
    assert len(rows) == 1  # one board, one deal
    return rows[0]


def test_a_team_match_played_online_by_bots(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(
        _create(
            client, w, name="Online teams", kind="teams", entrants="红队\n蓝队", boards_per_round=2
        )
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    assert "Play round 1 online" in client.get(base).get_data(as_text=True)
    r = client.post(base + "/rounds/1/online")
    assert r.status_code == 303
    assert "at 4 tables" in client.get(base).get_data(as_text=True)
    links = _links(did)
    assert [(x.table_no, x.board) for x in links] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    # twice is refused, and changes nothing
    client.post(base + "/rounds/1/online")
    assert len(_links(did)) == 4
    page = client.get(base).get_data(as_text=True)
    assert "Table 2, board 1 online" in page and "Play round 1 online" not in page

    # a seat's page says which board it plays
    seat = db.session.scalars(
        select(OnlineSeat).where(OnlineSeat.table_id == links[2].table_id, OnlineSeat.seat == 0)
    ).one()
    assert "Board 1" in client.get(f"/play/{seat.token}").get_data(as_text=True)

    for link in links:
        _play_by_bots(link)
    replays = {(x.table_no, x.board): bridge.replay(_deal_row(x)) for x in links}
    # board k: the same cards to the same seats at both tables (the board's own draw) …
    for b in (1, 2):
        one, two = replays[(1, b)], replays[(2, b)]
        assert one.dealt == two.dealt and one.deal.setup.seed == two.deal.setup.seed
        ev = db.session.get(DuplicateEvent, did)
        pd = paper_deal(svc.boards_of(ev)[b - 1])
        for s in range(4):
            assert sorted(card_str(c) for c in one.dealt[s]) == sorted(pd.hands[s])
    # … and another board's cards at board 2
    assert replays[(1, 1)].dealt != replays[(1, 2)].dealt

    # every table's result is its traveller line, from the engine's result
    db.session.expire_all()
    results = {
        (x.board, x.table_no): x
        for x in db.session.scalars(select(DuplicateResult).where(DuplicateResult.event_id == did))
    }
    assert len(results) == 4
    for (tno, b), rep in replays.items():
        row = results[(b, tno)]
        assert rep.deal.result is not None and rep.deal.dealer is not None
        assert (row.declarer, row.total) == (rep.deal.dealer % 2, rep.deal.result.total)

    # the event page compares them: the match's IMPs and VPs
    ev = db.session.get(DuplicateEvent, did)
    standings = svc.standings_page(ev, director=False)
    (match,) = standings["matches"]
    imps = match["imps"]
    page = client.get(base).get_data(as_text=True)
    assert f"IMPs {imps[0]}:{imps[1]}" in page
    vps = vp(2, imps[0] - imps[1])
    assert f"VPs {vps[0]:.2f}:{vps[1]:.2f}" in page


def test_no_peeking_while_a_board_is_played_online(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(
        _create(client, w, name="Peek", kind="teams", entrants="红队\n蓝队", boards_per_round=1)
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    assert client.post(base + "/rounds/1/online").status_code == 303
    first, second = _links(did)
    _play_by_bots(first)
    assert "1 of 2 tables" in client.get(base).get_data(as_text=True)  # the director sees it
    tab = db.session.get(Table, first.table_id)
    t_url = f"/clubs/{w.club.slug}/tournaments/{tab.round.tournament_id}"
    sheet_url = f"{t_url}/rounds/1/tables/{tab.number}"
    assert client.get(t_url).status_code == 200
    assert client.get(sheet_url).status_code == 200
    assert client.get(f"{sheet_url}/watch").status_code == 200
    login(client, w.player)
    # the online tournament's sheets would show the other table's result: not for players
    assert client.get(t_url).status_code == 404
    assert client.get(f"{sheet_url}/watch").status_code == 404  # nor its live view
    page = client.get(base).get_data(as_text=True)
    assert "Team matches" not in page  # no comparison before every table has played the board
    _play_by_bots(second)
    page = client.get(base).get_data(as_text=True)
    assert "Team matches" in page and "2 of 2 tables" in page


def test_a_red_five_board_online_writes_each_seats_score(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    names = "\n".join(f"选手{i}" for i in range(10))
    did = _event_id(
        _create(client, w, name="Red", variant="red-five-5p", kind="individuals", entrants=names)
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    # board 1's two tables (in whichever rounds the movement puts them), both played online
    sheet = svc.board_sheet(db.session.get(DuplicateEvent, did), 1)
    for rnd in sorted({row.round for row in sheet}):
        assert client.post(base + f"/rounds/{rnd}/online").status_code == 303
    links = [x for x in _links(did) if x.board == 1]
    assert len(links) == 2
    for link in links:
        _play_by_bots(link)
    one, two = (bridge.replay(_deal_row(x)) for x in links)
    assert one.dealt == two.dealt and len(one.dealt) == 5
    db.session.expire_all()
    for link, rep in zip(links, (one, two), strict=True):
        row = db.session.scalars(
            select(DuplicateResult).where(
                DuplicateResult.event_id == did,
                DuplicateResult.board == 1,
                DuplicateResult.table_no == link.table_no,
            )
        ).one()
        assert rep.deal.result is not None and rep.deal.result.scores is not None
        assert row.scores == list(rep.deal.result.scores) and sum(row.scores) == 0
    assert "2 of 2 tables" in client.get(base).get_data(as_text=True)
