"""A season holds nights of one variant: a night of another is refused, on the page and on
import (the web form and the CLI), with a sentence that names both, and nothing is saved."""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from sqlalchemy import func, select

from app.extensions import db
from app.models import Season, Tournament
from app.services import ServiceError
from app.services.seasons.manage import ensure_season, set_night
from tests.competition.tfile_examples import EXAMPLE, RED_FIVE
from tests.tournaments.tournament_helpers import add_entrants, create, login, world


def _season(client, w) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    r = client.post(
        f"/clubs/{w.club.slug}/seasons",
        data={"name": "Winter League", "rule": "total", "best": 5, "min_nights": 1, "places": ""},
    )
    assert r.status_code == 303
    sid = int(re.search(r"/seasons/(\d+)", r.headers["Location"]).group(1))  # type: ignore[union-attr]
    return sid, f"/clubs/{w.club.slug}/seasons/{sid}"


def test_a_night_of_another_variant_is_refused_on_the_page(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.owner)
    sid, base = _season(client, w)
    tractor = create(client, w.club, name="Tractor Night")
    add_entrants(client, w.club, tractor, 4, 2)
    red = create(client, w.club, name="Red Night", variant="red-five-5p", pairing="reseat")
    r = client.post(base + "/nights", data={"tournament": tractor.id, "division": 0})
    assert r.status_code == 303
    r = client.post(
        base + "/nights", data={"tournament": red.id, "date": "2026-12-10", "division": 0}
    )
    page = r.get_data(as_text=True)
    assert (
        "Winter League is a season of 升级 (tractor, 4 players) nights; Red Night is a 红五 "
        "(red five, 5 players) night and cannot count in it. Nothing was saved."
    ) in page
    db.session.expire_all()
    night = db.session.get(Tournament, red.id)
    assert night is not None and night.season_id is None and night.date is None
    # in Chinese too
    client.post("/lang", data={"lang": "zh", "next": "/"})
    r = client.post(base + "/nights", data={"tournament": red.id, "division": 0})
    assert "不能计入" in r.get_data(as_text=True)
    # once the season has no 升级 night, a 红五 night may start it
    client.post(f"{base}/nights/{tractor.id}/remove")
    r = client.post(base + "/nights", data={"tournament": red.id, "division": 0})
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Tournament, red.id).season_id == sid  # type: ignore[union-attr]


def test_a_night_of_another_variant_is_refused_on_import(app, client, runner, tmp_path) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    first = copy.deepcopy(EXAMPLE)
    first.update(club=w.club.name, name="Night 1", season="Autumn League")
    url = f"/clubs/{w.club.slug}/tournaments/import"
    body = json.dumps(first, ensure_ascii=False).encode()
    r = client.post(url, data={"file": (io.BytesIO(body), "t.json")})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    red = copy.deepcopy(RED_FIVE)
    red.update(club=w.club.name, name="Night 2", season="Autumn League")
    body = json.dumps(red, ensure_ascii=False).encode()
    r = client.post(url, data={"file": (io.BytesIO(body), "t.json")})
    assert r.status_code == 422
    assert "Autumn League is a season of 升级 (tractor, 4 players) nights" in r.get_data(
        as_text=True
    )
    path = tmp_path / "red.json"
    path.write_text(json.dumps(red, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(args=["tournament", "import", str(path)])
    assert result.exit_code == 1 and "红五 (red five, 5 players) night" in result.output
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Tournament.id))) == 1
    assert db.session.scalar(select(func.count(Season.id))) == 1


def test_a_season_keeps_the_hundred_friend_modes_apart(app) -> None:  # type: ignore[no-untyped-def]
    """The app compares nights as the competition layer's ``season_variant`` does: 打百分's
    fixed-pair nights (match points, 分差) and its 积分 nights never share a season, while two
    nights of one friend mode, or of a level game, do; the refusal names both games in words."""
    w = world()
    season = ensure_season(w.club, "Hundred League")

    def night(name: str, variant: str, options: dict[str, str]) -> Tournament:
        t = Tournament(
            club_id=w.club.id,
            name=name,
            variant=variant,
            options=options,
            pairing="swiss" if options.get("friend") == "fixed" else "reseat",
            rounds=3,
            match={"deals": 8},
            points={"win": 2, "draw": 1, "loss": 0},
        )
        db.session.add(t)
        db.session.flush()
        return t

    with app.test_request_context():  # the refusal is a translated sentence
        fixed = night("Fixed 1", "hundred-4p", {"friend": "fixed"})
        set_night(fixed, season)
        set_night(night("Fixed 2", "hundred-4p", {"friend": "fixed"}), season)
        hidden = night("Hidden", "hundred-4p", {})  # friend hidden, the default
        with pytest.raises(ServiceError) as e:
            set_night(hidden, season)
        assert str(e.value) == (
            "Hundred League is a season of 打百分 with fixed partners (pairs) nights; Hidden is a "
            "打百分 with a hidden friend (暗朋友) night and cannot count in it. Nothing was saved."
        )
        assert hidden.season_id is None
        # a season of 积分 nights: hidden (written or by default) counts, fixed does not
        other = ensure_season(w.club, "Hundred Individuals")
        set_night(hidden, other)
        set_night(night("Hidden 2", "hundred-4p", {"friend": "hidden"}), other)
        with pytest.raises(ServiceError):
            set_night(fixed, other)
        assert fixed.season_id == season.id
