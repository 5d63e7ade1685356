"""Duplicate details (issue 22): a part-played team match is scored on its full N boards and
shown provisional on the page and in the CSV; a team event's hand records compare the two
tables of each match in IMPs; a board played once shows 0 MP at 50 % on the page as in the
CSV; an event is created with the variant's options (4 decks) and the VP scale's factor, which
the boards, the scoring, the event page and the event file use."""

from __future__ import annotations

import re

from app.competition.duplicate import vp
from app.extensions import db
from app.models import DuplicateEvent
from app.services.duplicate import events as svc
from tests.duplicate.test_duplicate_files import _fill, _round_trip, _rows
from tests.duplicate.test_duplicate_pages import _create, _event_id, _text
from tests.forms import submit
from tests.tournaments.tournament_helpers import login, world


def _teams(client, w, **extra):  # type: ignore[no-untyped-def]
    fields = {"name": "Teams", "kind": "teams", "entrants": "红队\n蓝队", "boards_per_round": 2}
    return _event_id(_create(client, w, **{**fields, **extra}))


def _words(page: str) -> str:
    """The page's text as read: tags out, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def _team_rows(page: str) -> list[str]:
    standings = page.split('<table class="list standings', 1)[1].split("</table>", 1)[0]
    return [re.sub(r"\s+", " ", x) for x in re.findall(r"<tr><td>\d+</td><td>.*?</tr>", standings)]


def test_a_part_played_team_match_is_provisional_on_its_full_boards(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _teams(client, w)
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 1, [("0", "40"), ("0", "90")])  # d = 50: 红队 +4 IMPs
    page = client.get(base).get_data(as_text=True)
    # the VPs of a 4 IMP margin over the match's 2 boards, not over the 1 board in so far
    part = vp(2, 4)
    assert part != vp(1, 4)
    assert f"VPs {part[0]:.2f}:{part[1]:.2f} (provisional: 1 of 2 boards)" in _words(page)
    rows = _team_rows(page)
    assert rows[0].startswith(f"<tr><td>1</td><td>红队</td><td>{part[0]:.2f}</td>")
    assert all("(provisional)" in r for r in rows)
    assert "Provisional: a match still has boards to come." in page
    csv_rows = _rows(client.get(base + "/standings.csv").get_data(as_text=True))
    assert csv_rows[0][-1] == "provisional"
    assert [(r[1], r[2], r[-1]) for r in csv_rows[1:]] == [
        ("红队", f"{part[0]}", "1"),
        ("蓝队", f"{part[1]}", "1"),
    ]
    # players see board 1 (complete): the same provisional match
    client.post("/account/logout")
    login(client, w.player)
    assert "(provisional: 1 of 2 boards)" in _words(client.get(base).get_data(as_text=True))
    client.post("/account/logout")
    login(client, w.director)
    # the last board in: the match is final, the same scale
    _fill(client, base, did, 2, [("1", "60"), ("1", "60")])
    page = client.get(base).get_data(as_text=True)
    assert "provisional" not in page.lower()
    assert f"VPs {part[0]:.2f}:{part[1]:.2f} (2 boards)" in _words(page)
    csv_rows = _rows(client.get(base + "/standings.csv").get_data(as_text=True))
    assert [r[-1] for r in csv_rows[1:]] == ["0", "0"]


def test_team_hand_records_compare_the_two_tables_in_imps(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _teams(client, w)
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 1, [("0", "40"), ("0", "90")])  # +40 and -10: 红队 +4 IMPs
    _fill(client, base, did, 2, [("1", "60")])  # one table only: no comparison yet
    text = _text(client.get(base + "/hand-records.pdf?results=1").data)
    # table 1: side 0 is 红队 (4 IMPs won); table 2: side 0 is 蓝队 (4 lost)
    assert "IMP 4:0" in text and "IMP 0:4" in text
    # no matchpoints across the field
    assert not re.search(r"(?<!I)MP ", text) and "%" not in text
    assert text.count("IMP ") == 2


def test_a_board_played_once_shows_0_mp_at_50_percent(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    base = f"/clubs/{w.club.slug}/duplicate/{did}"
    _fill(client, base, did, 2, [("0", "40")])  # board 2 at one of its three tables
    page = client.get(base).get_data(as_text=True)
    rows = re.findall(r"<tr><td>\d+</td><td>([^<]+)</td><td>([\d.]+)%</td><td>([^<]+)</td>", page)
    assert len(rows) == 2
    assert [(pct, mp) for _, pct, mp in rows] == [("50.00", "0 / 0"), ("50.00", "0 / 0")]
    boards = _rows(client.get(base + "/boards.csv").get_data(as_text=True))
    assert boards[0][-4:] == ["mp_side0", "mp_side1", "percent_side0", "percent_side1"]
    assert boards[1][-4:] == ["0", "0", "50.0", "50.0"]
    standings = _rows(client.get(base + "/standings.csv").get_data(as_text=True))
    assert [(r[2], r[3], r[4]) for r in standings[1:]] == [("50.0", "0", "0")] * 2


def test_an_event_with_4_decks_and_its_own_vp_factor(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/duplicate"
    form = client.get(url).get_data(as_text=True)
    assert 'name="decks"' in form and 'name="vp_factor"' in form
    fields = {
        "name": "Four decks",
        "variant": "tractor-4p",
        "kind": "teams",
        "entrants": "红队\n蓝队",
        "boards_per_round": "2",
        "seed": "5",
        "decks": "4",
        "vp_factor": "12.5",
    }
    did = _event_id(submit(client, url, fields))
    ev = db.session.get(DuplicateEvent, did)
    assert ev.options == {"decks": 4} and ev.vp_factor == 12.5
    assert all(b.options.get("decks") == 4 for b in svc.boards_of(ev))
    base = f"{url}/{did}"
    page = client.get(base).get_data(as_text=True)
    assert "Number of decks (4 decks: no kitty, hidden calls): 4 decks" in _words(page)
    assert "VP scale factor: 12.5" in _words(page)
    # 4 decks: H = 160 and 400 card points; 1000 is a total only 4 decks allow
    _fill(client, base, did, 1, [("0", "100"), ("0", "200")])  # 60 and -40: d = 100 -> n = 50
    _fill(client, base, did, 2, [("1", "1000"), ("1", "1000")])
    page = client.get(base).get_data(as_text=True)
    got = vp(2, 4, 12.5)
    assert got != vp(2, 4)
    assert f"IMPs 4:0, VPs {got[0]:.2f}:{got[1]:.2f} (2 boards)" in _words(page)
    doc, new = _round_trip(client, w, did)
    assert doc["options"] == {"decks": 4} and doc["duplicate"]["vp_factor"] == 12.5
    copy = db.session.get(DuplicateEvent, new)
    assert copy.options == {"decks": 4} and copy.vp_factor == 12.5


def test_bad_options_are_refused_on_their_field(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    r = _create(client, w, kind="teams", entrants="A\nB", vp_factor="0")
    assert r.status_code == 422 and "Number must be between 1 and 100." in r.get_data(as_text=True)
    r = _create(client, w, vp_factor="12")  # a pairs event
    assert r.status_code == 422 and "Only team events are scored in VPs." in r.get_data(
        as_text=True
    )
    r = _create(client, w, decks="3")
    assert r.status_code == 422 and "Not a valid choice" in r.get_data(as_text=True)
    assert db.session.query(DuplicateEvent).count() == 0
    # 120分 has no choice of decks: the field is left alone
    did = _event_id(_create(client, w, variant="one-twenty-6p", decks="4"))
    assert db.session.get(DuplicateEvent, did).options == {}


def test_a_line_under_another_name_is_refused_not_ignored(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    did = _event_id(_create(client, w))
    url = f"/clubs/{w.club.slug}/duplicate/{did}/boards/1"
    key = svc.board_sheet(db.session.get(DuplicateEvent, did), 1)[0].key  # e.g. r1t1
    odd = re.sub(r"r(\d+)t(\d+)", r"r0\1t0\2", key)  # r01t01: no table's line
    r = submit(client, url, {f"{odd}_declarer": "0", f"{odd}_total": "40"})
    assert r.status_code == 422
    assert "does not play board 1: its line was not saved" in r.get_data(as_text=True)
    assert not db.session.get(DuplicateEvent, did).results
