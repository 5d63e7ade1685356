"""The tournament that hosts a duplicate event's online tables is the event's machinery: it is
not in the club's tournament list, not on a member's page, not in the ratings, not a night a
season may take (nor in the season's files); a member bound to one of its seats still finds the
table on the home page, named by the event and the board. Its pages cost one statement less:
the tournament and whether it hosts a duplicate event come in one query."""

from __future__ import annotations

from sqlalchemy import select

from app.extensions import db
from app.models import Entrant, EntrantPlayer, Member, OnlineSeat, Table, Tournament
from app.services.online import bridge, seats
from app.services.ratings.club import club_ratings, ratings_json
from app.services.seasons import manage
from app.services.tournaments.audit import Actor
from tests.duplicate.test_duplicate_online import _links, _play_by_bots
from tests.duplicate.test_duplicate_pages import _create, _event_id
from tests.online.test_online_queries import counting
from tests.tournaments.tournament_helpers import create, login, world


def test_the_host_tournament_stays_hidden(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    cup = create(client, w.club)
    did = _event_id(
        _create(
            client, w, name="Hidden Teams", kind="teams", entrants="红队\n蓝队", boards_per_round=1
        )
    )
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    assert client.post(base + "/rounds/1/online").status_code == 303
    first, second = _links(did)
    tab = db.session.get(Table, first.table_id)
    assert tab is not None
    host = bridge.tournament_of(tab)
    pete = db.session.scalars(
        select(Member).where(Member.club_id == w.club.id, Member.user_id == w.player.id)
    ).one()
    # the director binds Pete to seat 1 of table 1, and links him to its player
    director = Actor(label="Dora Director", director=True)
    with app.test_request_context():
        seats.bind(host, tab, 0, pete.id, director)
    player = db.session.scalars(
        select(EntrantPlayer)
        .join(Entrant, Entrant.id == EntrantPlayer.entrant_id)
        .where(Entrant.id == tab.seats[0].entrant_id)
        .order_by(EntrantPlayer.id)
    ).first()
    assert player is not None
    player.member_id = pete.id
    db.session.commit()

    # Pete's home page: his table is ready, named by the event and its board
    login(client, w.player)
    home = client.get("/").get_data(as_text=True)
    assert "Your table is ready" in home
    assert "Hidden Teams</strong> · Board 1" in home and host.name not in home
    seat = db.session.scalars(
        select(OnlineSeat).where(OnlineSeat.table_id == tab.id, OnlineSeat.seat == 0)
    ).one()
    mine = f"/clubs/{w.club.slug}/my-table/{seat.id}"
    assert f'href="{mine}"' in home  # "Play at your table"
    page = client.get(mine)
    assert page.status_code == 200 and "Board 1" in page.get_data(as_text=True)

    for link in (first, second):
        _play_by_bots(link)
    assert "Your table is ready" not in client.get("/").get_data(as_text=True)  # played

    # not a tournament of the club's: its list and its page's section, for directors too
    for who in (w.player, w.director):
        login(client, who)
        for url in (f"/clubs/{w.club.slug}/tournaments", f"/clubs/{w.club.slug}"):
            page = client.get(url).get_data(as_text=True)
            assert cup.name in page and host.name not in page, url
    # its standings are the director's only (they would show the other table's result)
    assert client.get(f"/standings/{cup.id}").status_code == 200
    assert client.get(f"/standings/{host.id}").status_code == 200  # the director's
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/{host.id}/visibility",
        data={"visibility": "public"},
        follow_redirects=True,
    )
    assert "The event&#39;s page is the one to share." in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, host.id).public_token is None
    login(client, w.player)
    for url in (f"/standings/{host.id}", f"/standings/{host.id}/live"):
        assert client.get(url).status_code == 404
    # not on Pete's page (he played in it, linked), and it rates nobody
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").get_data(as_text=True)
    assert host.name not in page
    assert club_ratings(w.club) == []  # the cup has no deal played; the event's boards count not
    assert ratings_json(w.club) == []

    # not a night a season may take
    login(client, w.director)
    season = manage.create_season(w.club, "Autumn season")
    db.session.commit()
    s_url = f"/clubs/{w.club.slug}/seasons/{season.id}"
    page = client.get(s_url).get_data(as_text=True)
    assert cup.name in page and host.name not in page
    r = client.post(s_url + "/nights", data={"tournament": host.id, "division": 0})
    assert r.status_code == 422
    db.session.expire_all()
    assert db.session.get(Tournament, host.id).season_id is None
    assert host.name not in client.get(s_url + "/standings.csv").get_data(as_text=True)


def test_a_tournament_page_reads_the_tournament_in_one_statement(app, client) -> None:  # type: ignore[no-untyped-def]
    """The page's lookup asks whether it hosts a duplicate event within the tournament's query."""
    w = world()
    login(client, w.director)
    cup = create(client, w.club)
    url = f"/clubs/{w.club.slug}/tournaments/{cup.id}/standings.csv"
    client.get(url)
    with counting() as sql:
        assert client.get(url).status_code == 200
    hosts = [q for q in sql if "duplicate_online_tables" in q]
    assert len(hosts) == 1 and "FROM tournaments" in hosts[0], sql
