"""A director records a substitute for one player of an entrant from a round on: the entrant's
results stand, ratings, player pages and season lines credit each round to whoever played it;
score sheets of those rounds name the substitute; bad input is refused on its field and nothing
is saved; a substitution changes the entrant (a form shown before it is refused); removing it
credits the rounds to the player again; both are in the audit trail with their reason."""

from __future__ import annotations

import re

from tournament_helpers import (
    add_entrants,
    audit_rows,
    create,
    login,
    play_round_out,
    seat,
    sheet_url,
    world,
)

from app.extensions import db
from app.models import Member, Season, Substitution, Tournament
from tests.forms import form_fields, submit


def _night(client, rounds_played: int = 2):  # type: ignore[no-untyped-def]
    """A round robin of 3 rounds: Olga Owner & Gus Guest against three pairs, ``rounds_played``
    rounds played out."""
    w = world()
    login(client, w.owner)
    t = create(client, w.club, name="Friday Night", rounds=3, pairing="round-robin")
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    r = client.post(f"{base}/entrants", data={"player_0": "Olga Owner", "player_1": "Gus Guest"})
    assert r.status_code == 303
    add_entrants(client, w.club, t, 3, 2)
    rounds = []
    for _ in range(rounds_played):
        rnd = seat(client, w.club, t)
        play_round_out(t, rnd, w.owner, seed=7)
        rounds.append(rnd)
    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    return w, t, base, t.entrants[0].id, rounds


def _into_season(client, club, t) -> int:  # type: ignore[no-untyped-def]
    """Puts the night into a new season "Winter" (total of match points) on its pages."""
    r = client.post(
        f"/clubs/{club.slug}/seasons",
        data={"name": "Winter", "rule": "total", "best": 5, "min_nights": 1, "places": ""},
    )
    sid = int(re.search(r"/seasons/(\d+)", r.headers["Location"]).group(1))  # type: ignore[union-attr]
    r = client.post(
        f"/clubs/{club.slug}/seasons/{sid}/nights",
        data={"tournament": t.id, "date": "2026-12-04", "venue": "", "division": 0},
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    return sid


def _substitute(client, base, eid, **changes):  # type: ignore[no-untyped-def]
    data = {"seat": "0", "from_round": "2", "name": "Pete Player", "reason": ""}
    data.update(changes)
    return submit(client, f"{base}/entrants/{eid}/substitute", data)


def _subs() -> list[tuple[int, int, str, int | None]]:
    db.session.expire_all()
    return [
        (s.seat, s.from_round, s.name, s.member_id)
        for s in db.session.query(Substitution).order_by(Substitution.id)
    ]


def test_a_substitute_is_recorded_shown_and_in_the_trail(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, rounds = _night(client)
    page = client.get(base).get_data(as_text=True)
    assert f"{base}/entrants/{eid}/substitute" in page
    r = _substitute(client, base, eid, reason="Olga left at the break")
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    pete = db.session.query(Member).filter_by(club_id=w.club.id, display_name="Pete Player").one()
    assert _subs() == [(0, 2, "Pete Player", pete.id)]  # a club member: linked
    page = client.get(base).get_data(as_text=True)
    assert "from round 2: Pete Player for Olga Owner" in page
    # the entrant and its results are unchanged
    db.session.expire_all()
    e = db.session.get(Tournament, t.id).entrants[0]
    assert e.name == "Olga Owner & Gus Guest" and [p.name for p in e.players][0] == "Olga Owner"
    # the score sheet of round 2 names the substitute, round 1's the player
    tab2 = next(
        x for x in rounds[1].tables if x.seats[0].entrant_id == eid or x.seats[1].entrant_id == eid
    )
    tab1 = next(
        x for x in rounds[0].tables if x.seats[0].entrant_id == eid or x.seats[1].entrant_id == eid
    )
    sheet2 = client.get(sheet_url(w.club, t, rounds[1], tab2)).get_data(as_text=True)
    sheet1 = client.get(sheet_url(w.club, t, rounds[0], tab1)).get_data(as_text=True)
    assert "Seats: 1·Pete Player (A), 2·P00a (B), 3·Gus Guest (A)" in sheet2
    assert "Seats: 1·Olga Owner (A)" in sheet1 and "Pete Player" not in sheet1
    rows = audit_rows(client.get(f"{base}/audit").get_data(as_text=True))
    assert rows[0][2].startswith("substitute recorded · Olga Owner & Gus Guest")
    assert "Reason: Olga left at the break" in rows[0][2]
    assert "Olga Owner" in rows[0][3]
    assert "Pete Player" in rows[0][4] and "from round: 2" in rows[0][4]


def test_ratings_player_pages_and_season_lines_credit_whoever_played(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, _rounds = _night(client)
    assert _substitute(client, base, eid).status_code == 303
    from app.services.ratings.club import rated
    from app.services.tournaments.rows import load

    db.session.expire_all()
    club = w.club
    ratings = rated(club)
    assert ratings["Pete Player"].matches == 1 and ratings["Olga Owner"].matches == 1
    assert ratings["Gus Guest"].matches == 2
    pete = db.session.query(Member).filter_by(club_id=club.id, display_name="Pete Player").one()
    olga = db.session.query(Member).filter_by(club_id=club.id, display_name="Olga Owner").one()
    mine = client.get(f"/clubs/{club.slug}/members/{pete.id}/player").get_data(as_text=True)
    assert "Friday Night" in mine and "Round 2:" in mine and "Round 1:" not in mine
    hers = client.get(f"/clubs/{club.slug}/members/{olga.id}/player").get_data(as_text=True)
    assert "Friday Night" in hers and "Round 1:" in hers and "Round 2:" not in hers
    # the season lines: each one gets the match points of the rounds they played
    sid = _into_season(client, club, t)
    from app.competition.standings import entrant_history
    from app.services.seasons.standings import standings

    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    points = {
        h.round: h.match_points for h in entrant_history(load(t).tournament, t.entrants[0].name)
    }
    season = db.session.get(Season, sid)
    lines = {row.player: row.score for row in standings(season)}
    assert lines["Olga Owner"] == points[1]
    assert lines["Pete Player"] == points[2]
    assert lines["Gus Guest"] == points[1] + points[2]
    page = client.get(f"/clubs/{club.slug}/seasons/{sid}").get_data(as_text=True)
    assert "Pete Player" in page


def test_bad_input_is_refused_on_its_field_and_nothing_is_saved(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, _rounds = _night(client, rounds_played=1)
    cases = [
        ({"from_round": "0"}, "Please choose a round from 1 to 3."),
        ({"from_round": "4"}, "Please choose a round from 1 to 3."),
        ({"from_round": "x"}, "Please choose a round from 1 to 3."),
        ({"seat": "5"}, "Please choose one of the entrant&#39;s players."),
        ({"name": "  "}, "Please enter a name."),
        ({"name": "P00a"}, "P00a already plays for P00a &amp; P00b in round 2."),
        (
            {"name": "Gus  Guest"},
            "Gus Guest already plays for Olga Owner &amp; Gus Guest in round 2.",
        ),
        ({"name": "Olga Owner"}, "Olga Owner already plays this seat in round 2."),
    ]
    for change, message in cases:
        r = _substitute(client, base, eid, **change)
        assert r.status_code == 422, change
        assert message in r.get_data(as_text=True), (change, r.get_data(as_text=True)[:4000])
    assert _subs() == []
    # once Pete takes Olga's seat from round 2 on, he cannot also take another entrant's seat
    assert _substitute(client, base, eid).status_code == 303
    other = t.entrants[1].id
    r = _substitute(client, base, other, from_round="3")
    assert "Pete Player already plays for Olga Owner &amp; Gus Guest in round 3." in r.get_data(
        as_text=True
    )
    # in the reader's language
    client.post("/lang", data={"lang": "zh"})
    r = _substitute(client, base, eid, from_round="9")
    assert r.status_code == 422
    assert "请选择第 1 到第 3 轮。" in r.get_data(as_text=True)
    assert len(_subs()) == 1


def test_a_substitution_makes_an_older_entrant_form_stale(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, _rounds = _night(client, rounds_played=1)
    edit = f"{base}/entrants/{eid}/edit"
    old_edit = form_fields(client.get(edit).get_data(as_text=True), action=edit)
    old_list = client.get(base).get_data(as_text=True)
    assert _substitute(client, base, eid).status_code == 303
    r = client.post(edit, data={**old_edit, "player_1": "Gus Gustafson"}, follow_redirects=True)
    assert "was changed by someone else since you opened this page (substitutes)" in r.get_data(
        as_text=True
    )
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).entrants[0].players[1].name == "Gus Guest"
    withdraw = form_fields(old_list, action=f"/entrants/{eid}/withdraw")
    r = client.post(f"{base}/entrants/{eid}/withdraw", data=withdraw, follow_redirects=True)
    assert "was changed by someone else" in r.get_data(as_text=True)
    # a substitute form shown before another substitution is refused too
    form = f"{base}/entrants/{eid}/substitute"
    stale = form_fields(client.get(form).get_data(as_text=True), action=form)
    assert _substitute(client, base, eid, seat="1", name="Dora Director").status_code == 303
    r = client.post(
        form,
        data={**stale, "seat": "1", "from_round": "3", "name": "Zoë Zhang"},
        follow_redirects=True,
    )
    page = r.get_data(as_text=True)
    assert "was changed by someone else" in page and "You had typed: Zoë Zhang" in page
    assert [s[2] for s in _subs()] == ["Pete Player", "Dora Director"]


def test_a_substitute_is_removed_and_the_rounds_go_back_to_the_player(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, _rounds = _night(client)
    assert _substitute(client, base, eid).status_code == 303
    sid = db.session.query(Substitution).one().id
    action = f"/entrants/{eid}/substitutes/{sid}/remove"
    old_page = client.get(base).get_data(as_text=True)
    fields = form_fields(old_page, action=action)
    r = client.post(
        f"{base}{action}",
        data={**fields, "reason": "recorded on the wrong pair"},
        follow_redirects=True,
    )
    assert "Substitute Pete Player removed." in r.get_data(as_text=True)
    assert _subs() == []
    assert "from round 2: Pete Player" not in client.get(base).get_data(as_text=True)
    rows = audit_rows(client.get(f"{base}/audit").get_data(as_text=True))
    assert rows[0][2].startswith("substitute removed · Olga Owner & Gus Guest")
    assert "Reason: recorded on the wrong pair" in rows[0][2]
    assert "Pete Player" in rows[0][3] and "Olga Owner" in rows[0][4]
    from app.services.ratings.club import rated

    db.session.expire_all()
    ratings = rated(w.club)
    assert ratings["Olga Owner"].matches == 2 and "Pete Player" not in ratings
    # the page shown before the removal posts it again: already gone, said so
    r = client.post(f"{base}{action}", data=fields, follow_redirects=True)
    assert "was changed by someone else" in r.get_data(as_text=True)


def test_a_red_five_players_substitute_is_named_at_the_seat_and_rated(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.owner)
    t = create(client, w.club, variant="red-five-5p", pairing="reseat", rounds=2, match_value=2)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    add_entrants(client, w.club, t, 5, 1)
    r1 = seat(client, w.club, t)
    play_round_out(t, r1, w.owner, seed=3)
    db.session.expire_all()
    eid = db.session.get(Tournament, t.id).entrants[0].id  # P00a
    assert _substitute(client, base, eid, name="Pete Player").status_code == 303
    r2 = seat(client, w.club, t)
    play_round_out(t, r2, w.owner, seed=4)
    tab2 = next(x for x in r2.tables if x.kind == "players")
    sheet = client.get(sheet_url(w.club, t, r2, tab2)).get_data(as_text=True)
    assert "<strong>1</strong> Pete Player</span>" in sheet and 'title="P00a"' not in sheet
    from app.services.ratings.club import rated

    db.session.expire_all()
    ratings = rated(w.club)
    # each red five deal is a game: Pete has round 2's deals, P00a round 1's, as P01a has each
    assert ratings["Pete Player"].games == 2 and ratings["P00a"].games == 2
    assert ratings["P01a"].games == 4


def test_a_substitute_is_not_entered_again_and_takes_the_online_seat(app, client) -> None:  # type: ignore[no-untyped-def]
    w, t, base, eid, rounds = _night(client, rounds_played=1)
    assert _substitute(client, base, eid, name="Zoë Zhang").status_code == 303
    r = client.post(f"{base}/entrants", data={"player_0": "Zoë Zhang", "player_1": "Quinn"})
    assert r.status_code == 422
    assert "Zoë Zhang already plays for Olga Owner &amp; Gus Guest." in r.get_data(as_text=True)
    # an online table of round 2 seats the substitute, round 1's the player
    from app.models import Table
    from app.services.online.seats import seat_players

    rnd2 = seat(client, w.club, t)
    db.session.expire_all()

    def names(rnd):  # type: ignore[no-untyped-def]
        tabs = db.session.query(Table).filter_by(round_id=rnd.id).all()
        tab = next(x for x in tabs if eid in [s.entrant_id for s in x.seats])
        return [p.name for p in seat_players(tab) if p is not None]

    assert "Zoë Zhang" in names(rnd2) and "Olga Owner" not in names(rnd2)
    assert "Olga Owner" in names(rounds[0]) and "Zoë Zhang" not in names(rounds[0])
