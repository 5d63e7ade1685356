"""Set up: the variant's options in plain words, bad input on its field with nothing saved,
member links, and online tables recording their deals through the same path."""

from __future__ import annotations

import json

from flask import current_app
from sqlalchemy import func, select
from tournament_helpers import actor, create, login, setup_form, world

from app.competition.model import Deal as CDeal
from app.extensions import db
from app.models import Deal, EntrantPlayer, Table, Tournament
from app.services import ServiceError
from app.services.tournaments.audit import Actor
from app.services.tournaments.sheets import record_deal


def _count() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count(Tournament.id))) or 0


BASE = setup_form(name="Cup", match_value=4)


def test_options_in_plain_words_and_defaults(client):
    w = world()
    login(client, w.director)
    html = client.get(f"/clubs/{w.club.slug}/tournaments/new").get_data(as_text=True)
    assert "Kitty bonus (抠底) when the attackers win the last trick" in html
    assert "Levels (级) a gain may never skip" in html
    part = client.get(
        f"/clubs/{w.club.slug}/tournaments/new/options?variant=one-twenty-6p"
    ).get_data(as_text=True)
    assert "Opponents may refuse a deal" in part and "Number of decks" not in part
    client.post("/lang", data={"lang": "zh", "next": "/"})
    html = client.get(f"/clubs/{w.club.slug}/tournaments/new").get_data(as_text=True)
    assert "闲家末轮取胜时的抠底倍数" in html and "升级时不能跳过的级" in html


def test_only_changed_options_are_stored(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club, opt_must_play_levels="5, 10, K", opt_kitty_multiplier="power")
    assert t.options == {"must_play_levels": ["5", "10", "K", "A"], "kitty_multiplier": "power"}


def test_bad_set_up_input_is_shown_on_the_field(client):
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new"
    cases = [
        ({"name": ""}, "Please fill this in"),
        ({"rounds": 0}, "Between 1 and 50"),
        ({"match_value": ""}, "Please give the number of deals."),
        ({"match_value": "", "match_kind": "minutes"}, "Please give the time limit in minutes."),
        ({"opt_must_play_levels": "5, Z"}, "Levels such as"),
        ({"opt_redeal_below": "12"}, "steps of 5"),
        ({"pairing": "reseat"}, "round robin or Swiss"),
        (
            {
                "variant": "red-five-5p",
                "options_variant": "red-five-5p",
                "opt_score_table": "units60",
            },
            "choose re-seating",
        ),
        (
            {
                "opt_score_table": "x",
                "variant": "red-five-5p",
                "options_variant": "red-five-5p",
                "pairing": "reseat",
            },
            "choose one of the listed values",
        ),
        ({"variant": "bogus"}, "Not a valid choice"),
    ]
    for change, words in cases:
        data = {**BASE, **change}
        r = client.post(url, data=data)
        assert r.status_code == 422, change
        assert words in r.get_data(as_text=True), (change, words)
    assert _count() == 0
    # options shown for another game: shown again for the chosen game, nothing saved
    r = client.post(url, data={**BASE, "variant": "one-twenty-6p"})
    assert r.status_code == 422 and "Check the rule options" in r.get_data(as_text=True)
    assert _count() == 0
    create(client, w.club, name="Cup")
    r = client.post(url, data={**BASE, "name": "Cup"})
    assert r.status_code == 422 and "already exists" in r.get_data(as_text=True)
    assert _count() == 1


def test_entrants_link_members_and_refuse_duplicates(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants"
    r = client.post(base, data={"player_0": "Pete Player", "player_1": "Guest Gao"})
    assert r.status_code == 303
    db.session.expire_all()
    links = dict(db.session.execute(select(EntrantPlayer.name, EntrantPlayer.member_id)).all())
    assert links["Pete Player"] is not None and links["Guest Gao"] is None
    for data, words in (
        ({"player_0": "Pete Player", "player_1": "Other"}, "already plays for"),
        ({"player_0": "X", "player_1": "X"}, "listed twice"),
        ({"player_0": "X", "player_1": ""}, "Please enter a name"),
        (
            {"name": "Pete Player & Guest Gao", "player_0": "Y", "player_1": "Z"},
            "already in the tournament",
        ),
    ):
        r = client.post(base, data=data)
        assert r.status_code == 422 and words in r.get_data(as_text=True), words
    r = client.post(base, data={"player_0": "X", "player_1": "X"}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and "listed twice" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(EntrantPlayer.id))) == 2


def test_online_table_deals_arrive_through_the_same_path(client, runner, tmp_path):
    doc = {
        "format": "shengji-tournament/1",
        "club": "Net Club",
        "name": "Net Cup",
        "variant": "tractor-4p",
        "pairing": "swiss",
        "rounds": 1,
        "match": {"deals": 2},
        "entrants": [
            {"name": "A", "players": ["a1", "a2"]},
            {"name": "B", "players": ["b1", "b2"]},
        ],
        "played": [{"round": 1, "tables": [{"table": 1, "sides": ["A", "B"], "mode": "online"}]}],
    }
    path = tmp_path / "net.json"
    path.write_text(json.dumps(doc))
    assert runner.invoke(args=["tournament", "import", str(path)]).exit_code == 0
    t = db.session.scalar(select(Tournament).where(Tournament.name == "Net Cup"))
    tab = db.session.scalar(select(Table))
    assert t is not None and tab is not None and tab.mode == "online"
    u = world().director
    with current_app.test_request_context():
        deal = CDeal(points=40, kitty=0, trump="S", declarer=0)
        try:
            record_deal(t, tab, deal, actor(u))
        except ServiceError as error:
            assert "online" in error.message
        else:  # pragma: no cover
            raise AssertionError("a typed deal was accepted at an online table")
        record_deal(t, tab, deal, Actor("engine"), source="online")
        db.session.commit()
    assert db.session.scalar(select(Deal.source)) == "online"
    out = json.loads(runner.invoke(args=["tournament", "export", "Net Cup"]).stdout)
    assert out["played"][0]["tables"][0]["mode"] == "online"
    assert out["played"][0]["tables"][0]["deals"] == [
        {"declarer": 0, "trump": "S", "points": 40, "kitty": 0}
    ]
