"""A director chooses how strong each bot seat plays (easy = random, normal = heuristic,
strong = the mc search with a short time box); a request's strong bots stop searching once the
request has thought long enough; ``run-bots --bots mc`` plays a round with the search bot."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from app.extensions import db
from app.models import AuditEntry, Table
from app.services.online import botchoice
from app.services.tournaments.sheets import sheet
from engine.bots import HeuristicBot, RandomBot
from engine.mcbot import MCBot
from tests.online.online_helpers import online_world


def test_each_strength_is_its_engine_bot() -> None:
    assert type(botchoice.make_seat_bot("easy", 1)) is RandomBot
    assert type(botchoice.make_seat_bot("normal", 1)) is HeuristicBot
    assert type(botchoice.make_seat_bot(None, 1)) is HeuristicBot
    strong = botchoice.make_seat_bot("strong", 1)
    assert isinstance(strong, MCBot) and strong.time_per_move == botchoice.STRONG_MS / 1000
    token = botchoice.FORCED_KIND.set("random")
    try:  # run-bots' kind plays every seat, whatever its strength
        assert type(botchoice.make_seat_bot("strong", 1)) is RandomBot
    finally:
        botchoice.FORCED_KIND.reset(token)


def test_director_chooses_a_seats_strength(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    page = client.get(ow.table_url).get_data(as_text=True)
    assert page.count('name="level"') == 4
    assert "strong (searches ahead)" in page and "easy (random moves)" in page
    assert [s.bot_level for s in ow.seats()] == ["normal"] * 4

    r = client.post(ow.table_url + "/bots", data={"seat": "2", "level": "strong"})
    assert r.status_code == 303
    page = client.get(ow.table_url).get_data(as_text=True)
    assert "Seat 3&#39;s bot plays strong (searches ahead)." in page
    assert [s.bot_level for s in ow.seats()] == ["normal", "normal", "strong", "normal"]
    assert '<option value="strong" selected>' in page
    entry = db.session.scalars(
        select(AuditEntry).where(AuditEntry.action == "online_bot_level")
    ).one()
    assert "strong" in str(entry.after)
    audit = client.get(f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/audit")
    text = audit.get_data(as_text=True)
    assert audit.status_code == 200 and "bot strength changed" in text
    assert "normal (rules of thumb)" in text and "strong (searches ahead)" in text

    # a strength that does not exist is refused in words and saves nothing
    client.post(ow.table_url + "/bots", data={"seat": "1", "level": "genius"})
    page = client.get(ow.table_url).get_data(as_text=True)
    assert "Choose easy, normal or strong." in page
    assert [s.bot_level for s in ow.seats()] == ["normal", "normal", "strong", "normal"]


def test_strong_bots_search_within_the_requests_budget(
    app: Flask, client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 10 ms a search, 0.1 s a request: about ten full searches, then the heuristic (at 0.5 s,
    # a deal whose many forced or one-candidate plays searched in no time fitted all 50)
    monkeypatch.setattr(botchoice, "STRONG_MS", 10)
    monkeypatch.setattr(botchoice, "REQUEST_THINK_S", 0.1)
    searched: list[int] = []
    real = MCBot.choose_from_view

    def spy(self: MCBot, view: dict) -> list[int]:
        searched.append(view["seat"])
        return real(self, view)

    monkeypatch.setattr(MCBot, "choose_from_view", spy)
    ow = online_world(client, "tractor-4p", deals=1)
    for s in (1, 3):
        client.post(ow.table_url + "/bots", data={"seat": str(s), "level": "strong"})
    ow.bots(0, 1, 2, 3)  # the last switch plays the whole deal in that one request
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None and len(tab.deals) == 1
    # the strong seats searched, and only they; after 0.1 s they played by heuristic
    assert searched and set(searched) <= {1, 3}
    assert len(searched) < 50  # a deal has 50 plays at seats 1 and 3


def test_run_bots_with_the_search_bot(
    app: Flask, client, runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(botchoice, "STRONG_MS", 2)
    ow = online_world(client, "tractor-4p", deals=1)
    result = runner.invoke(args=["tournament", "run-bots", ow.t.name, "--bots", "mc"])
    assert result.exit_code == 0, result.output
    db.session.expire_all()
    tab = db.session.get(Table, ow.tab.id)
    assert tab is not None
    assert sheet(ow.t, tab).counts and len(tab.deals) == 1
    bad = runner.invoke(args=["tournament", "run-bots", ow.t.name, "--bots", "genius"])
    assert bad.exit_code != 0 and "mc" in bad.output


def test_the_bot_menu_shows_the_measured_strength_table(app: Flask, client) -> None:
    ow = online_world(client, "tractor-4p")
    page = client.get(ow.table_url).get_data(as_text=True)
    assert "How strong are the bots?" in page
    for m in botchoice.strength_table("tractor-4p"):
        assert f"{m.diff:+.2f} levels" in page and f"[{m.low:+.2f}, {m.high:+.2f}]" in page
        assert m.command in page
    assert "--a mc --b heuristic" in page  # strong is measured against normal
    # every figure is for the game of this table, and every game has its normal-vs-easy line
    for variant in ("tractor-4p", "red-five-5p", "one-twenty-6p"):
        rows = botchoice.strength_table(variant)
        assert rows and {m.variant for m in rows} == {variant}
        assert all(m.low <= m.diff <= m.high for m in rows)
        assert any((m.level, m.against) == ("normal", "easy") for m in rows)
