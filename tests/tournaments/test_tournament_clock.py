"""Time rules (定时定副): the round clock on a frozen time (start, pause, resume, last deal), a
paper sheet refusing a deal after the last-deal call, the tie-breaks in the standings, and bad
input on the clock refused with a sentence and nothing saved."""

from __future__ import annotations

from datetime import datetime, timedelta

from markupsafe import escape
from sqlalchemy import func, select
from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world

from app.extensions import db
from app.models import AuditEntry, Deal, Round, Table, Tournament

T0 = datetime(2026, 12, 4, 19, 0, 0)


class FrozenClock:
    """The clock the app reads (``CLOCK_NOW``): moved on by hand, never slept on."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> datetime:
        return self.at

    def move(self, **delta: float) -> None:
        self.at += timedelta(**delta)


def _timed(client, app, minutes: int = 90, **fields):  # type: ignore[no-untyped-def]
    clock = FrozenClock()
    app.config["CLOCK_NOW"] = clock
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_kind="minutes", match_value=minutes, **fields)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    return w, t, rnd, clock


def _clock(client, w, t, rnd, action: str):  # type: ignore[no-untyped-def]
    url = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}/clock"
    return client.post(url, data={"action": action}, follow_redirects=True)


def _round_page(client, w, t, rnd) -> str:  # type: ignore[no-untyped-def]
    return client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}").get_data(
        as_text=True
    )


def test_the_round_clock_on_a_frozen_time(client, app):
    w, t, rnd, clock = _timed(client, app)
    page = _round_page(client, w, t, rnd)
    assert "1:30:00" in page and "not started (90 minutes)" in page and "Start the clock" in page
    assert 'data-running="0"' in page
    r = _clock(client, w, t, rnd, "start")
    assert "The clock of round 1 runs." in r.get_data(as_text=True)
    clock.move(minutes=20, seconds=15)
    page = _round_page(client, w, t, rnd)
    assert "1:09:45" in page and 'data-remaining="4185"' in page and 'data-running="1"' in page
    # the projector (the public standings) shows the same clock
    projector = client.get(f"/standings/{t.id}?projector=1").get_data(as_text=True)
    assert "1:09:45" in projector and "Round 1 clock" in projector
    assert "Pause the clock" in page
    _clock(client, w, t, rnd, "pause")
    clock.move(minutes=10)  # a pause does not count
    page = _round_page(client, w, t, rnd)
    assert "1:09:45" in page and "paused" in page and 'data-running="0"' in page
    _clock(client, w, t, rnd, "resume")
    clock.move(minutes=5)
    assert "1:04:45" in _round_page(client, w, t, rnd)
    clock.move(minutes=70)
    page = _round_page(client, w, t, rnd)
    assert "0:00" in page and "Time is up." in page and "Call the last deal" in page
    r = _clock(client, w, t, rnd, "last_deal")
    assert "Last deal called" in r.get_data(as_text=True)
    db.session.expire_all()
    row = db.session.get(Round, rnd.id)
    assert row is not None
    assert row.clock_started_at == T0 and row.clock_paused_seconds == 600
    assert row.last_deal_at == clock.at
    actions = set(db.session.scalars(select(AuditEntry.action)))
    assert {"clock_start", "clock_pause", "clock_resume", "last_deal"} <= actions


def test_clock_refusals_say_why_and_change_nothing(client, app):
    w, t, rnd, clock = _timed(client, app)
    before = db.session.scalar(select(Tournament.version).where(Tournament.id == t.id))
    cases = [
        ("pause", "The round&#39;s clock has not started yet."),
        ("resume", "The round&#39;s clock is not paused."),
        ("last_deal", "The round&#39;s clock has not started yet."),
        ("explode", "Please choose what to do with the clock"),
        ("", "Please choose what to do with the clock"),
    ]
    for action, words in cases:
        html = _clock(client, w, t, rnd, action).get_data(as_text=True)
        assert words in html, (action, html[:2000])
    db.session.expire_all()
    row = db.session.get(Round, rnd.id)
    assert row is not None and row.clock_started_at is None and row.last_deal_at is None
    assert db.session.scalar(select(Tournament.version).where(Tournament.id == t.id)) == before
    _clock(client, w, t, rnd, "start")
    assert "already started" in _clock(client, w, t, rnd, "start").get_data(as_text=True)
    client.post("/lang", data={"lang": "zh", "next": "/"})
    html = _clock(client, w, t, rnd, "resume").get_data(as_text=True)
    assert "本轮计时没有暂停" in html


def test_a_match_by_deals_has_no_clock(client, app):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    assert "round-clock" not in _round_page(client, w, t, rnd)
    html = _clock(client, w, t, rnd, "start").get_data(as_text=True)
    assert "not played by time" in html
    db.session.expire_all()
    assert db.session.get(Round, rnd.id).clock_started_at is None  # type: ignore[union-attr]


def test_a_paper_sheet_refuses_a_deal_after_the_last_deal_call(client, app):
    w, t, rnd, clock = _timed(client, app)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    _clock(client, w, t, rnd, "start")
    assert client.post(url, data=fixed_deal(0, 85)).status_code == 303  # side 1 takes over
    clock.move(minutes=91)
    _clock(client, w, t, rnd, "last_deal")
    db.session.expire_all()
    assert db.session.get(Table, tab.id).last_deal == 2  # type: ignore[union-attr]
    page = client.get(url).get_data(as_text=True)
    assert "Round 1 clock" in page and "this table plays 2 deals in all" in page
    # the deal being played when the call came is still written
    assert client.post(url, data=fixed_deal(1, 35)).status_code == 303
    r = client.post(url, data=fixed_deal(0, 35))
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "Time is up: the director called the last deal" in html, html
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab.id)) == 2
    # the match is complete at its limit: it counts in the standings without a "finished" mark
    standings = client.get(f"/standings/{t.id}").get_data(as_text=True)
    assert "playing" in standings  # the other table has not played its last deal
    client.post("/lang", data={"lang": "zh", "next": "/"})
    html = client.post(url, data=fixed_deal(0, 35)).get_data(as_text=True)
    assert "裁判已宣布最后一局" in html


def test_on_stage_tie_break_wins_equal_levels(client, app):
    w, t, rnd, clock = _timed(client, app, tie_break="on_stage")
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    names = [s.entrant.name for s in tab.seats]
    assert names[0] < names[1]  # a draw would list side 0 first (by name)
    _clock(client, w, t, rnd, "start")
    # side 0 holds (3:2), side 1 takes over (no gain), side 1 holds (3:3): side 1 on stage
    client.post(url, data=fixed_deal(0, 65))  # 0 holds: 0 → 3 (65 points: +1)
    client.post(url, data=fixed_deal(0, 85))  # attackers 85: side 1 takes over, no gain
    client.post(url, data=fixed_deal(1, 65))  # side 1 holds at 2 → 3
    clock.move(minutes=95)
    _clock(client, w, t, rnd, "last_deal")
    db.session.expire_all()
    table = db.session.get(Table, tab.id)
    assert table is not None and table.last_deal == 4
    client.post(f"{url}/finish")  # the table was between deals: the director ends its match
    rows = client.get(f"/standings/{t.id}").get_data(as_text=True)
    # side 1 declared the last deal: on stage, it wins the match with equal levels (级差 0)
    pos = {n: rows.find(str(escape(n))) for n in names}
    assert pos[names[1]] < pos[names[0]]
    history = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    assert "equal levels: the side on stage" in history
    assert "B wins on equal levels: on stage (台上)" in _round_page(client, w, t, rnd)
    # the Chinese sentence names the rule that decided, not the extra deal (加赛)
    client.post("/lang", data={"lang": "zh", "next": "/"})
    page = _round_page(client, w, t, rnd)
    assert "B 方台上胜（级数相同）" in page and "加赛" not in page


def test_extra_deal_decides_a_match_by_deals(client, app):
    w = world()
    login(client, w.director)
    t = create(client, w.club, match_value=2, tie_break="extra_deal")
    assert t.match == {"deals": 2, "tie_break": "extra_deal"}
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    names = [s.entrant.name for s in tab.seats]
    assert names[0] < names[1]  # a draw would list side 0 first (by name)
    client.post(url, data=fixed_deal(0, 85))  # attackers 85: side 1 takes over, no gain
    client.post(url, data=fixed_deal(1, 85))  # side 0 takes over, no gain
    # 2:2 after the match's 2 deals: one extra deal is played, and only one
    assert "This match is complete." not in client.get(url).get_data(as_text=True)
    assert client.post(url, data=fixed_deal(0, 85)).status_code == 303  # side 1 takes it over
    r = client.post(url, data=fixed_deal(1, 65))
    assert r.status_code == 422
    assert "The match is complete: no more deals." in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab.id)) == 3
    rows = client.get(f"/standings/{t.id}").get_data(as_text=True)
    pos = {n: rows.find(str(escape(n))) for n in names}
    assert pos[names[1]] < pos[names[0]]  # the extra deal's winner wins at equal levels


def test_bad_tie_break_and_target_are_refused(client, app):
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new"
    from tests.tournaments.test_tournament_setup import BASE

    for change, words in [
        ({"tie_break": "coin"}, "Please choose one of the listed values."),
        ({"match_kind": "to_a", "target": "Z"}, "Please choose one of the listed values."),
        (
            {
                "variant": "red-five-5p",
                "options_variant": "red-five-5p",
                "pairing": "reseat",
                "opt_score_table": "units60",
                "tie_break": "on_stage",
            },
            "Red five has no tie-break",
        ),
        ({"preset": "nope"}, "This rule preset does not exist for this game."),
        (
            {
                "preset": "competition-red-five",
            },
            "This rule preset does not exist for this game.",
        ),
    ]:
        r = client.post(url, data={**BASE, **change})
        assert r.status_code == 422, change
        assert words in r.get_data(as_text=True), (change, words)
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Tournament.id))) == 0
