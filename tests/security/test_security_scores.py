"""Out-of-range score entry: a deal with points, kitty, multiplier, counts, declarer, trump or
level outside what the cards and the sheet allow is refused with a sentence on the field (422),
on the director's sheet, on the correction form and on the sheet opened with the table's code,
in English and in Chinese, and not a single row changes. A resubmitted form (its ``seen`` count
is old) records nothing either. The edges themselves are accepted (a positive control)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.security.db_snapshot import unchanged
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    fixed_deal,
    login,
    seat,
    sheet_url,
    world,
)

# (field values over a valid deal, the words the page must show). Two decks: 200 points in the
# cards, a kitty of 8 cards (at most 80 points, and never more than the points left).
OUT_OF_RANGE: list[tuple[dict[str, Any], str]] = [
    ({"points": -5}, "Between 0 and 200 points"),
    ({"points": 205}, "Between 0 and 200 points"),
    ({"points": 2**40}, "Between 0 and 200 points"),
    ({"points": 87}, "steps of 5"),
    ({"points": "eighty"}, "Not a valid integer value"),
    ({"points": ""}, "Please write the attackers' points"),
    ({"kitty": -10}, "Kitty points come in steps of 5"),
    ({"kitty": 7}, "Kitty points come in steps of 5"),
    ({"kitty": 500}, "holds at most"),
    ({"points": 180, "kitty": 40}, "more than the 200 points"),
    ({"multiplier": 3}, "Not a valid choice"),
    ({"multiplier": 99}, "Not a valid choice"),
    ({"declarer": 2}, "Not a valid choice"),
    ({"declarer": -1}, "Not a valid choice"),
    ({"trump": "X"}, "Not a valid choice"),
    ({"level": "1"}, "Not a valid choice"),
    ({"ft_declarer": 21}, "A count from 0 to 20"),
    ({"ft_attackers": -1}, "A count from 0 to 20"),
]


def _night(client: FlaskClient) -> tuple[str, str]:
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=8)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = min((x for x in rnd.tables if x.kind == "sides"), key=lambda x: x.number)
    url = sheet_url(w.club, t, rnd, tab)
    assert client.post(url, data={**fixed_deal(0, 60), "seen": 0}).status_code == 303
    return url, f"/table/{tab.code}"


def _post(client: FlaskClient, url: str, change: dict[str, Any], seen: int, lang: str = "en"):
    data = {**fixed_deal(1, 80), "ft_declarer": 0, "ft_attackers": 0, "seen": seen, **change}
    return client.post(url, data=data, headers={"Accept-Language": lang})


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> tuple[FlaskClient, str, str]:
    director_url, code_url = _night(client)
    return client, director_url, code_url


def test_out_of_range_deals_are_refused_on_every_sheet(
    app: Flask, night: tuple[FlaskClient, str, str]
) -> None:
    director, director_url, code_url = night
    guest = app.test_client()  # the table's code, no account
    forms = [
        (director, director_url),  # a new deal
        (director, director_url + "/deals/1"),  # correcting deal 1
        (guest, code_url),
        (guest, code_url + "/deals/1"),
    ]
    with unchanged():
        for client, url in forms:
            # every value on the director's new deal; on the other forms (the same form
            # class and checks) one of each kind: the sheet's bounds, a choice, a count
            cases = OUT_OF_RANGE if url == director_url else OUT_OF_RANGE[1::6]
            for change, words in cases:
                r = _post(client, url, change, seen=1)
                body = r.get_data(as_text=True)
                assert r.status_code == 422, (url, change, r.status_code)
                assert words in body, (url, change)


def test_the_refusal_reads_in_chinese(app: Flask, night: tuple[FlaskClient, str, str]) -> None:
    director, director_url, _code = night
    with unchanged():
        r = _post(director, director_url, {"points": 205}, seen=1, lang="zh")
        assert r.status_code == 422
        body = r.get_data(as_text=True)
        assert "Between 0 and 200" not in body and "200" in body


def test_a_resubmitted_form_records_nothing(
    app: Flask, night: tuple[FlaskClient, str, str]
) -> None:
    director, director_url, code_url = night
    with unchanged():
        for url in (director_url, code_url):
            r = _post(director if url == director_url else app.test_client(), url, {}, seen=0)
            assert r.status_code == 422, r.status_code


def test_the_edges_are_accepted(app: Flask, night: tuple[FlaskClient, str, str]) -> None:
    director, director_url, _code = night
    for seen, change in enumerate(
        [{"points": 0}, {"points": 200}, {"points": 120, "kitty": 80}, {"ft_declarer": 20}],
        start=1,
    ):
        r = _post(director, director_url, change, seen=seen)
        assert r.status_code == 303, (change, r.get_data(as_text=True)[-2000:])
