"""Property-based fuzz (Hypothesis) of the two endpoints players hit all evening, on each
database: the score sheet form (every field of a deal, with values in range, out of range,
of the wrong type or missing, and the ``seen`` count right or wrong) and an online seat's move
(any kind, any list of cards — from the hand, from elsewhere, not cards at all — any version).
Never a server error; a refusal leaves every row as it was; an acceptance records exactly one
deal that is within the rules (the sheet) or appends a move that the rules engine, replaying the
log, accepts as legal for that seat (the online table).

``max_examples`` is kept small (the suite's budget): every run explores new values, and
Hypothesis's database replays a failing one first next time."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.services.online import tokens
from engine.cards import card_str
from engine.deal import Record, apply
from engine.scoring import allowed_multiplier_set, max_kitty_points
from tests.online.online_helpers import page_token, replay_row
from tests.security.db_snapshot import changes, snapshot
from tests.security.online_play import deal_now, human_table, links, play_until
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    fixed_deal,
    login,
    seat,
    sheet_url,
    world,
)

FUZZ = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ANSWERS = {303, 400, 409, 422}

junk = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "-0", "1e9", "NaN", "0x10", "５", "\x00", "9" * 30, "<b>"]),
)


def _int_like(valid: st.SearchStrategy[int]) -> st.SearchStrategy[Any]:
    return st.one_of(valid, st.integers(-(2**70), 2**70), junk)


@st.composite
def sheet_forms(draw: st.DrawFn) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "declarer": draw(st.one_of(st.sampled_from([0, 1]), _int_like(st.integers(-3, 5)))),
        "trump": draw(st.one_of(st.sampled_from(["S", "H", "D", "C", "NT"]), junk)),
        "points": draw(_int_like(st.integers(0, 40).map(lambda n: 5 * n))),
        "kitty": draw(_int_like(st.integers(0, 20).map(lambda n: 5 * n))),
        "multiplier": draw(_int_like(st.sampled_from([0, 2, 4, 8, 16]))),
        "ft_declarer": draw(_int_like(st.integers(0, 3))),
        "ft_attackers": draw(_int_like(st.integers(0, 3))),
        "level": draw(st.one_of(st.sampled_from(["", "2", "5", "10", "K", "A"]), junk)),
    }
    missing = draw(st.sets(st.sampled_from(sorted(fields)), max_size=2))
    return {k: v for k, v in fields.items() if k not in missing}


def _legal_sheet_deal(deal: Any, variant: Any) -> None:
    total = variant.total_points
    assert 0 <= deal.points <= total and deal.points % 5 == 0
    assert 0 <= deal.kitty <= max_kitty_points(variant) and deal.kitty % 5 == 0
    assert deal.points + deal.kitty <= total
    assert deal.multiplier in {0, *allowed_multiplier_set(variant)}
    assert deal.declarer in (0, 1) and deal.trump in ("S", "H", "D", "C", None)


def test_fuzzed_score_entries(app: Flask, client: FlaskClient) -> None:
    from app.extensions import db
    from app.models import Table
    from app.services.tournaments.rows import deal_from_row, variant_of

    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=400)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = min((x for x in rnd.tables if x.kind == "sides"), key=lambda x: x.number)
    url = sheet_url(w.club, t, rnd, tab)
    variant = variant_of(t)
    assert client.post(url, data={**fixed_deal(0, 60), "seen": 0}).status_code == 303
    outcomes: set[int] = set()

    @FUZZ
    @given(form=sheet_forms(), seen_offset=st.sampled_from([0, 0, 0, -1, 1, 99]))
    def entry(form: dict[str, Any], seen_offset: int) -> None:
        db.session.expire_all()
        count = len(db.session.get(Table, tab.id).deals)  # type: ignore[union-attr]
        before = snapshot()
        r = client.post(url, data={**form, "seen": count + seen_offset})
        assert r.status_code in ANSWERS, (form, r.status_code)
        outcomes.add(r.status_code)
        diff = changes(before)
        if r.status_code != 303:
            assert diff == {}, (form, r.status_code, sorted(diff))
            return
        assert seen_offset == 0
        (gone, added) = diff["deals"]
        assert not gone and len(added) == 1
        db.session.expire_all()
        row = max(db.session.get(Table, tab.id).deals, key=lambda d: d.index)  # type: ignore[union-attr]
        _legal_sheet_deal(deal_from_row(row), variant)

    entry()
    assert 422 in outcomes  # the fuzz reached the checks (and, most runs, a 303 too)


@st.composite
def moves(
    draw: st.DrawFn, hand: list[str], playable: list[str], lead: int, v: str
) -> dict[str, Any]:
    """A move form: often cards the seat may play, as many as the trick's lead (such a play
    can be accepted), else anything."""
    kind = draw(
        st.sampled_from(["play"] * 6 + ["bury", "call", "pass", "redeal", "friend", "continue"])
        | junk
    )
    some_cards = st.lists(
        st.one_of(st.sampled_from(hand), st.sampled_from([card_str(c) for c in range(54)]), junk),
        max_size=4,
    )
    likely = st.lists(st.sampled_from(playable or hand), min_size=lead, max_size=lead)
    cards = draw(st.one_of(likely, likely, st.lists(st.sampled_from(hand), max_size=3), some_cards))
    number, version = tokens.deal_part(v).split(".")
    seen = draw(
        st.sampled_from(
            [v, v, v, f"{number}.{int(version) - 1}", f"{int(number) + 1}.{version}", "", "x.y"]
        )
    )
    form: dict[str, Any] = {"v": seen, "kind": kind, "cards": cards}
    if draw(st.booleans()):
        form["card"] = draw(st.one_of(st.sampled_from(hand), junk))
    return form


def test_fuzzed_online_moves(app: Flask, client: FlaskClient) -> None:

    ow = human_table(client, bots=(1, 2, 3))
    play_until(app, ow, lambda d: d.phase == "play" and d.to_act == 0)
    link = links(ow)[0]
    guest = app.test_client()
    outcomes: set[int] = set()

    @FUZZ
    @given(data=st.data())
    def move(data: st.DataObject) -> None:
        deal = deal_now(ow)
        if deal.outcome is not None:
            return
        v = page_token(guest.get(link).get_data(as_text=True))
        hand = [card_str(c) for c in deal.hands[0]] or ["AS"]
        playable = [card_str(c) for c in deal.playable_cards(0)] if deal.to_act == 0 else []
        trick = deal.trick
        lead = len(trick.plays[0][1]) if trick is not None and trick.plays else 1
        form = data.draw(moves(hand, playable, lead, v))
        before = snapshot()
        r = guest.post(link, data=form)
        assert r.status_code in ANSWERS, (form, r.status_code)
        outcomes.add(r.status_code)
        diff = changes(before)
        if r.status_code != 303:
            assert diff == {}, (form, r.status_code, sorted(diff))
            return
        assert form["v"] == v  # only the version the page showed is ever accepted
        number, version = (int(x) for x in tokens.deal_part(v).split("."))
        row = next(d for d in ow.deals() if d.number == number)
        mine = next(a for a in row.actions if a.seq == version + 1)
        assert mine.actor == "seat 0" and mine.record["kind"] == form["kind"]
        apply(deal, Record.from_json(mine.record))  # on the state the seat saw: legal, or raises
        assert replay_row(row).outcome == row.outcome  # the whole log replays

    move()
    print("move outcomes", outcomes)
    assert {409, 422} <= outcomes
