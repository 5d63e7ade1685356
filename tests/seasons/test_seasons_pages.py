"""The season pages: an owner creates a season, puts two nights in it and reads the table under
each rule; a player reads it; other clubs get a 404; bad input is refused on its field and
nothing is saved; divisions and the end-of-season movement seed the next season."""

from __future__ import annotations

import re

from app.extensions import db
from app.models import Division, Season, Tournament
from tests.conftest import _make_member
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    login,
    play_round_out,
    seat,
    world,
)


def _night(client, w, name):
    t = create(client, w.club, name=name, rounds=1, pairing="round-robin")
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    play_round_out(t, rnd, w.owner, seed=len(name))
    return t


def _season(client, w, **extra):
    data = {
        "name": "Winter League",
        "rule": "total",
        "best": 5,
        "min_nights": 1,
        "places": "10, 7, 5",
    }
    data.update(extra)
    r = client.post(f"/clubs/{w.club.slug}/seasons", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    sid = int(re.search(r"/seasons/(\d+)", r.headers["Location"]).group(1))
    return db.session.get(Season, sid)


def test_owner_builds_a_season_of_two_nights_and_reads_it_under_each_rule(app, client):
    w = world()
    login(client, w.owner)
    n1, n2 = _night(client, w, "Night One"), _night(client, w, "Night Two")
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    for t, day in ((n1, "2026-12-04"), (n2, "2026-12-11")):
        r = client.post(
            base + "/nights", data={"tournament": t.id, "date": day, "venue": "Hall", "division": 0}
        )
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    db.session.expire_all()
    assert db.session.get(Tournament, n1.id).season_id == s.id
    page = client.get(base).get_data(as_text=True)
    assert "Night One" in page and "Night Two" in page and "2026-12-04" in page
    # every player of both nights has one line (4 pairs × 2 players, same names both nights)
    assert page.count('class="num rank"') == 8
    from app.services.seasons.standings import standings

    rows = standings(s)
    assert rows[0].nights == 2 and rows[0].score >= rows[-1].score
    best = client.get(base + "?rule=best:1").get_data(as_text=True)
    assert "Best N nights" in best
    places = client.get(base + "?rule=places").get_data(as_text=True)
    assert "League points per finishing place" in places
    assert client.get(base + "?view=projector").status_code == 200
    # the owner changes the rule afterwards: re-derived, nothing stored
    r = client.post(
        base + "/rule", data={"rule": "average", "best": 5, "min_nights": 3, "places": ""}
    )
    assert r.status_code == 303
    db.session.refresh(s)
    assert (s.rule, s.min_nights) == ("average", 3)
    assert "listed unranked" in client.get(base).get_data(as_text=True)


def test_a_player_reads_but_cannot_change_and_other_clubs_get_404(app, client):
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    client.post("/account/logout")
    login(client, w.player)
    assert client.get(base).status_code == 200
    assert client.post(base + "/rule", data={"rule": "total"}).status_code == 403
    r = client.post(f"/clubs/{w.club.slug}/seasons", data={"name": "Mine", "rule": "total"})
    assert r.status_code == 403
    client.post("/account/logout")
    login(client, w.outsider)
    assert client.get(base).status_code == 404
    assert client.get(f"/clubs/{w.other_club.slug}/seasons/{s.id}").status_code == 404


def test_bad_input_is_refused_on_its_field_and_nothing_is_saved(app, client):
    w = world()
    login(client, w.owner)
    r = client.post(
        f"/clubs/{w.club.slug}/seasons",
        data={"name": "X", "rule": "places", "places": "10, seven", "best": 5, "min_nights": 1},
    )
    assert r.status_code == 422
    assert "Whole numbers separated by commas" in r.get_data(as_text=True)
    r = client.post(
        f"/clubs/{w.club.slug}/seasons",
        data={"name": "Y", "rule": "total", "starts_on": "2026-12-10", "ends_on": "2026-12-01"},
    )
    assert r.status_code == 422 and "cannot end before it starts" in r.get_data(as_text=True)
    zh = client.post(
        f"/clubs/{w.club.slug}/seasons",
        data={"name": "Z", "rule": "places", "places": "", "best": 5, "min_nights": 1},
        headers={"Accept-Language": "zh"},
    )
    assert zh.status_code == 422 and "联赛积分" in zh.get_data(as_text=True)
    assert db.session.query(Season).count() == 0
    s = _season(client, w)
    _season(client, w, name="Other")
    r = client.post(
        f"/clubs/{w.club.slug}/seasons", data={"name": "Winter League", "rule": "total"}
    )
    assert r.status_code == 422 and "already has a season" in r.get_data(as_text=True)
    assert db.session.query(Season).filter_by(club_id=w.club.id).count() == 2
    assert s is not None


def test_divisions_and_promotion_relegation_seed_the_next_season(app, client):
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    nxt = _season(client, w, name="Spring League")
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    for name in ("A1", "A2", "A3", "B1", "B2", "B3"):
        _make_member(w.club, name)
    for name, players, factor in (("甲级", "A1\nA2\nA3", "1.15"), ("乙级", "B1\nB2\nB3", "0.9")):
        r = client.post(
            base + "/divisions", data={"name": name, "players": players, "carry_factor": factor}
        )
        assert r.status_code == 303, r.get_data(as_text=True)[:1500]
    r = client.post(base + "/movement", data={"k": 1, "next_season": nxt.id})
    assert r.status_code == 303, r.get_data(as_text=True)[:1500]
    divs = db.session.query(Division).filter_by(season_id=nxt.id).order_by(Division.position).all()
    # nobody played: the seeding order stands, the bottom of 甲级 and the top of 乙级 swap
    assert [d.players for d in divs] == [["A1", "A2", "B1"], ["A3", "B2", "B3"]]
    assert [d.carry_factor for d in divs] == [1.15, 0.9]
    again = client.post(base + "/movement", data={"k": 1, "next_season": nxt.id})
    assert again.status_code == 422 and "already has its divisions" in again.get_data(as_text=True)


def _divisions(s):
    return db.session.query(Division).filter_by(season_id=s.id).order_by(Division.position).all()


def test_divisions_are_renamed_reordered_and_refuse_strangers_doubles_and_stale_pages(app, client):
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    for name in ("王伟", "李娜", "Emma"):
        _make_member(w.club, name)
    r = client.post(base + "/divisions", data={"name": "甲级", "players": "王 伟\nEmma"})
    assert r.status_code == 303
    # a name that is no member, and a member already in 甲级, are refused on the field
    r = client.post(base + "/divisions", data={"name": "乙级", "players": "张三"})
    assert r.status_code == 422 and "not a member of the club" in r.get_data(as_text=True)
    r = client.post(base + "/divisions", data={"name": "乙级", "players": "李娜\nemma"})
    assert r.status_code == 422 and "already in the division 甲级" in r.get_data(as_text=True)
    assert client.post(base + "/divisions", data={"name": "乙级", "players": "李娜"}).status_code
    a, b = _divisions(s)
    assert a.players == ["王伟", "Emma"]  # "王 伟" is the member 王伟
    page = client.get(base).get_data(as_text=True)
    seen_a = re.search(rf'name="d{a.id}-seen"[^>]*value="([^"]+)"', page) or re.search(
        rf'value="([^"]+)"[^>]*name="d{a.id}-seen"', page
    )
    assert seen_a, "the edit form carries the division's version"
    seen = seen_a.group(1)
    r = client.post(
        base + f"/divisions/{a.id}",
        data={f"d{a.id}-name": "A 组", f"d{a.id}-players": "王伟", f"d{a.id}-seen": seen},
    )
    assert r.status_code == 303 and r.headers["Location"].endswith("#divisions")
    db.session.expire_all()
    assert [d.name for d in _divisions(s)] == ["A 组", "乙级"]
    assert _divisions(s)[0].players == ["王伟"]
    # the same page saved again is stale: refused, nothing changes; back at the top of the
    # page, where the refusal is shown (not down at the divisions, off a phone's screen)
    stale = {f"d{a.id}-name": "Top", f"d{a.id}-players": "", f"d{a.id}-seen": seen}
    r = client.post(base + f"/divisions/{a.id}", data=stale)
    assert r.status_code == 303 and "#" not in r.headers["Location"]
    r = client.get(r.headers["Location"])
    assert (
        "The division A 组 was changed by someone else since you opened this page "
        "(name, players): look again. Nothing was saved."
    ) in r.get_data(as_text=True)
    db.session.expire_all()
    assert _divisions(s)[0].name == "A 组" and _divisions(s)[0].players == ["王伟"]
    # 乙级 moves up
    r = client.post(base + f"/divisions/{b.id}/move", data={"step": "up"})
    assert r.status_code == 303
    db.session.expire_all()
    assert [d.name for d in _divisions(s)] == ["乙级", "A 组"]


def test_a_night_in_the_wrong_division_is_moved(app, client):
    w = world()
    login(client, w.owner)
    s = _season(client, w)
    base = f"/clubs/{w.club.slug}/seasons/{s.id}"
    client.post(base + "/divisions", data={"name": "甲级"})
    client.post(base + "/divisions", data={"name": "乙级"})
    a, b = _divisions(s)
    t = _night(client, w, "Night 1")
    r = client.post(base + "/nights", data={"tournament": t.id, "division": a.id})
    assert r.status_code == 303
    r = client.post(base + f"/nights/{t.id}/division", data={"division": b.id})
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).division_id == b.id
    page = client.get(base, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Night 1" in page
