"""Helpers for the online table tests: a seated round whose table 1 is switched online."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Club, OnlineDeal, OnlineSeat, Round, Table, Tournament
from engine.deal import Deal, DealSetup, Record, apply
from tests.tournaments.tournament_helpers import add_entrants, create, login, seat, world


@dataclass
class OnlineWorld:
    club: Club
    t: Tournament
    rnd: Round
    tab: Table
    director: FlaskClient

    @property
    def table_url(self) -> str:
        return (
            f"/clubs/{self.club.slug}/tournaments/{self.t.id}/rounds/{self.rnd.number}"
            f"/tables/{self.tab.number}/online"
        )

    def seats(self) -> list[OnlineSeat]:
        db.session.expire_all()
        return list(
            db.session.scalars(
                select(OnlineSeat)
                .where(OnlineSeat.table_id == self.tab.id)
                .order_by(OnlineSeat.seat)
            )
        )

    def bots(self, *seats: int) -> None:
        for s in seats:
            r = self.director.post(self.table_url + "/bots", data={"seat": str(s), "bot": "1"})
            assert r.status_code == 303, r.status_code

    def deals(self) -> list[OnlineDeal]:
        db.session.expire_all()
        return list(
            db.session.scalars(
                select(OnlineDeal)
                .where(OnlineDeal.table_id == self.tab.id)
                .order_by(OnlineDeal.number)
            )
        )


def online_world(
    client: FlaskClient,
    variant: str = "tractor-4p",
    deals: int = 1,
    tables: int = 1,
    kind: str = "deals",
    options: dict[str, Any] | None = None,
) -> OnlineWorld:
    w = world()
    login(client, w.director)
    size = {"tractor-4p": 2, "red-five-5p": 1, "one-twenty-6p": 3}[variant]
    n = {"tractor-4p": 2, "red-five-5p": 5, "one-twenty-6p": 2}[variant] * tables
    pairing = "reseat" if variant == "red-five-5p" else "swiss"
    t = create(client, w.club, variant=variant, match_kind=kind, match_value=deals, pairing=pairing)
    add_entrants(client, w.club, t, n, size)
    rnd = seat(client, w.club, t)
    tab = min((x for x in rnd.tables if x.kind != "bye"), key=lambda x: x.number)
    ow = OnlineWorld(w.club, t, rnd, tab, client)
    if options:  # rule options the set-up form does not offer, before the first deal
        t.options = {**t.options, **options}
        db.session.commit()
    r = client.post(ow.table_url)
    assert r.status_code == 303
    db.session.expire_all()
    assert db.session.get(Table, tab.id).mode == "online"  # type: ignore[union-attr]
    return ow


CLIMB = {
    "variant": "climbing",
    "pairing": "reseat",
    "match_value": 3,
    "opt_players": "4",
    "opt_decks": "1",
    "opt_tribute": "true",
    "opt_place_points": "",
}


def climbing_world(
    client: FlaskClient, deals: int = 3, players: int = 4, decks: int = 1
) -> OnlineWorld:
    """A 争上游 night of two tables of ``players`` (one deck or two), table 1 sent online."""
    w = world()
    login(client, w.director)
    fields = {"match_value": deals, "opt_players": str(players), "opt_decks": str(decks)}
    t = create(client, w.club, **{**CLIMB, **fields})
    add_entrants(client, w.club, t, 2 * players, 1)
    rnd = seat(client, w.club, t)
    tab = min((x for x in rnd.tables if x.kind != "bye"), key=lambda x: x.number)
    ow = OnlineWorld(w.club, t, rnd, tab, client)
    r = client.post(ow.table_url)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    db.session.expire_all()
    assert db.session.get(Table, tab.id).mode == "online"  # type: ignore[union-attr]
    return ow


def replay_row(row: OnlineDeal) -> Deal:
    """The engine deal an online deal's log replays to (the test's own replay)."""
    deal = Deal(DealSetup.from_json(row.setup))
    # a play a take-back accepted later is skipped, as are the entries for people only
    cancelled = {a.record["of"] for a in row.actions if a.record["kind"] == "takeback"}
    people = ("continue", "ready", "takeback_ask", "takeback", "takeback_refused")
    for a in row.actions:
        if a.record["kind"] not in people and a.seq not in cancelled:
            apply(deal, Record.from_json(a.record))
    return deal


def page_token(html: str) -> str:
    m = re.search(r'data-token="([^"]+)"', html)
    assert m, html[:2000]
    return m.group(1)


def moves(html: str) -> set[str]:
    return set(re.findall(r'data-move="([a-z]+)"', html))


def enabled_cards(html: str) -> list[str]:
    return re.findall(r'<input type="checkbox" name="cards" value="([^"]+)">', html)


def disabled_cards(html: str) -> list[str]:
    return re.findall(r'<input type="checkbox" name="cards" value="([^"]+)" disabled>', html)


def form(v: str, kind: str, cards: Any = ()) -> dict[str, Any]:
    return {"v": v, "kind": kind, "cards": list(cards)}
