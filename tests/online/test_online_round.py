"""A whole round online in one post from the round page: the chosen tables go online with their
seat links, the seats of members with an account bound to them, and the bots of the previous
round carried by player; what cannot go online is refused with a sentence and nothing changes. A
member without an account is shown as a member. ``flask tournament run-bots`` starts the tables
of a round imported from a tournament file with ``"mode": "online"`` and plays them out."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import AuditEntry, OnlineDeal, OnlineSeat, Round, Table, Tournament
from app.services.online.seats import seat_players
from app.services.tournaments.sheets import sheet
from tests.conftest import _make_member
from tests.tournaments.tournament_helpers import (
    World,
    create,
    fixed_deal,
    login,
    member,
    seat,
    world,
)

PAIRS = [("Pete Player", "Mia Member"), ("Gus A", "Gus B"), ("Hal A", "Hal B"), ("Ivy A", "Ivy B")]


def _setup(client: FlaskClient) -> tuple[World, Tournament, Round]:
    """Two tables of tractor: Pete Player has an account, Mia Member is a member without one,
    the rest are names only; round 1 seated, every table on paper."""
    w = world()
    _make_member(w.club, "Mia Member")
    login(client, w.director)
    t = create(client, w.club, variant="tractor-4p", match_kind="deals", match_value=1, rounds=2)
    for a, b in PAIRS:
        r = client.post(
            f"/clubs/{w.club.slug}/tournaments/{t.id}/entrants",
            data={"player_0": a, "player_1": b},
        )
        assert r.status_code == 303
    return w, t, seat(client, w.club, t)


def _round_url(w: World, t: Tournament, n: int) -> str:
    return f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{n}"


def _seen(html: str) -> str:
    m = re.search(r'name="seen" value="([0-9a-f]+)"', html)
    assert m, html[:3000]
    return m.group(1)


def _send(client: FlaskClient, w: World, t: Tournament, n: int, tables: list[int]) -> str:
    """Post the round page's form as shown (its ``seen``) with ``tables`` ticked; the page after."""
    seen = _seen(client.get(_round_url(w, t, n)).get_data(as_text=True))
    r = client.post(
        _round_url(w, t, n) + "/online",
        data={"seen": seen, "tables": [str(x) for x in tables]},
    )
    assert r.status_code == 303
    return unescape(client.get(r.headers["Location"]).get_data(as_text=True))


def _tables(rnd_id: int) -> list[Table]:
    db.session.expire_all()
    rnd = db.session.get(Round, rnd_id)
    assert rnd is not None
    return [tab for tab in rnd.tables if tab.kind != "bye"]


def _seats(tab: Table) -> list[OnlineSeat]:
    return list(
        db.session.scalars(
            select(OnlineSeat).where(OnlineSeat.table_id == tab.id).order_by(OnlineSeat.seat)
        )
    )


def _by_player(tables: list[Table]) -> dict[str, OnlineSeat]:
    out = {}
    for tab in tables:
        for row, p in zip(_seats(tab), seat_players(tab), strict=True):
            assert p is not None
            out[p.name] = row
    return out


def test_a_round_goes_online_in_one_post_with_bindings_and_bots_carried(
    client: FlaskClient, runner
) -> None:
    w, t, rnd = _setup(client)
    page = unescape(client.get(_round_url(w, t, 1)).get_data(as_text=True))
    assert "Play this round online" in page
    assert len(re.findall(r'<input type="checkbox" name="tables" value="\d" checked>', page)) == 2

    after = _send(client, w, t, 1, [1, 2])
    assert "2 tables are played online. 1 seat is bound to a member's account;" in after
    assert "0 bots are carried from the previous round." in after
    tables = _tables(rnd.id)
    assert all(tab.mode == "online" for tab in tables)
    for tab in tables:
        assert len(_seats(tab)) == 4
        assert db.session.scalar(select(OnlineDeal.id).where(OnlineDeal.table_id == tab.id))
    seats = _by_player(tables)
    pete = member(w.club, "Pete Player")
    assert pete is not None
    assert seats["Pete Player"].member_id == pete.id
    assert all(s.member_id is None for name, s in seats.items() if name != "Pete Player")
    # the form is gone: nothing is left to send online
    assert 'name="tables"' not in after

    # Mia is a member without an account: a member on the table's page, with the guest link
    mia_tab = next(tab for tab in tables if any(p.name == "Mia Member" for p in seat_players(tab)))
    mia_no = next(i for i, p in enumerate(seat_players(mia_tab)) if p and p.name == "Mia Member")
    table_page = unescape(
        client.get(f"{_round_url(w, t, 1)}/tables/{mia_tab.number}/online").get_data(as_text=True)
    )
    block = table_page.split(f'id="seat-{mia_no + 1}"')[1].split("</li>")[0]
    assert '<span class="badge ok">member</span>' in block
    assert "Mia Member is a member of the club without an account: send them this link" in block
    assert "guest</span>" not in block
    # a name-only player is still a guest
    other = next(i for i in range(4) if i != mia_no)
    other_block = table_page.split(f'id="seat-{other + 1}"')[1].split("</li>")[0]
    if seat_players(mia_tab)[other].name != "Pete Player":  # type: ignore[union-attr]
        assert '<span class="badge">guest</span>' in other_block

    # bots for Mia (strong) and Gus B in round 1; bots play round 1 out, round 2 is seated
    for name, level in (("Mia Member", "strong"), ("Gus B", "normal")):
        row = seats[name]
        tab = db.session.get(Table, row.table_id)
        assert tab is not None
        url = f"{_round_url(w, t, 1)}/tables/{tab.number}/online/bots"
        assert client.post(url, data={"seat": str(row.seat), "level": level}).status_code == 303
        assert client.post(url, data={"seat": str(row.seat), "bot": "1"}).status_code == 303
    result = runner.invoke(args=["tournament", "run-bots", t.name])
    assert result.exit_code == 0, result.output
    assert client.post(_round_url(w, t, 1) + "/close").status_code == 303
    rnd2 = seat(client, w.club, t)
    assert rnd2.number == 2

    after = _send(client, w, t, 2, [1, 2])
    assert "2 bots are carried from the previous round." in after
    seats2 = _by_player(_tables(rnd2.id))
    assert {name for name, s in seats2.items() if s.bot} == {"Mia Member", "Gus B"}
    assert seats2["Mia Member"].bot_level == "strong"
    assert seats2["Pete Player"].member_id == pete.id
    # the trail says who made each seat a bot in round 2
    db.session.expire_all()
    bots = db.session.scalars(
        select(AuditEntry).where(
            AuditEntry.action == "online_bot", AuditEntry.tournament_id == t.id
        )
    ).all()
    assert len(bots) == 4  # two in round 1 by hand, two carried into round 2


def test_what_cannot_go_online_is_refused_and_nothing_changes(client: FlaskClient) -> None:
    w, t, rnd = _setup(client)
    tables = _tables(rnd.id)
    # table 2 has a result on paper: excluded, with the reason
    r = client.post(f"{_round_url(w, t, 1)}/tables/2", data=fixed_deal(0, 85, kitty=10))
    assert r.status_code == 303, r.status_code
    assert len(_tables(rnd.id)[1].deals) == 1
    page = unescape(client.get(_round_url(w, t, 1)).get_data(as_text=True))
    assert re.search(r"Table 2: .* — Results are entered at this table on paper\.", page)
    assert len(re.findall(r'name="tables" value="\d"', page)) == 1
    seen = _seen(page)

    def post(tables_: list[str], seen_: str) -> str:
        r = client.post(_round_url(w, t, 1) + "/online", data={"seen": seen_, "tables": tables_})
        assert r.status_code == 303
        return unescape(client.get(r.headers["Location"]).get_data(as_text=True))

    said = post(["1", "2"], seen)
    assert "Table 2: Results are entered at this table on paper." in said
    assert post([], seen).count("Choose at least one table to play online.") == 1
    assert "There is no table 7 in this round." in post(["7"], seen)
    assert "Round 1 changed since you opened this page" in post(["1"], "0" * 16)
    assert all(tab.mode == "paper" for tab in _tables(rnd.id))

    # one table at a time from its own page, then the round form offers only the rest
    assert client.post(f"{_round_url(w, t, 1)}/tables/1/online").status_code == 303
    assert "Round 1 changed since you opened this page" in post(["1"], seen)
    page = unescape(client.get(_round_url(w, t, 1)).get_data(as_text=True))
    assert 'name="tables"' not in page  # table 1 online, table 2 on paper: nothing to send

    # a closed round (closing needs every match over: the test closes it in the database)
    db.session.expire_all()
    round_row = db.session.get(Round, rnd.id)
    assert round_row is not None
    round_row.status = "closed"
    db.session.commit()
    said = post(["2"], seen)
    assert "The round is closed: its tables play no more." in said
    assert [tab.mode for tab in _tables(rnd.id)] == ["online", "paper"]
    assert tables  # the same two tables throughout


def _imported_file(path: Path, deals_at_2: list[dict]) -> Path:
    doc = {
        "format": "shengji-tournament/1",
        "club": "Online Import Club",
        "name": "Imported Online Night",
        "variant": "tractor-4p",
        "pairing": "swiss",
        "rounds": 1,
        "match": {"deals": 2},
        "points": {"win": 2, "draw": 1, "loss": 0},
        "entrants": [{"name": f"E{i}", "players": [f"E{i}a", f"E{i}b"]} for i in range(1, 5)],
        "played": [
            {
                "round": 1,
                "tables": [
                    {"table": 1, "sides": ["E1", "E2"], "mode": "online", "deals": []},
                    {"table": 2, "sides": ["E3", "E4"], "mode": "online", "deals": deals_at_2},
                ],
            }
        ],
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_run_bots_starts_an_imported_online_round_and_plays_it_out(
    app, runner, tmp_path: Path
) -> None:
    f = _imported_file(tmp_path / "night.json", [])
    result = runner.invoke(args=["tournament", "import", str(f)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["tournament", "run-bots", "Imported Online Night"])
    assert result.exit_code == 0, result.output
    assert "no online deal to play" not in result.output
    t = db.session.scalar(select(Tournament).where(Tournament.name == "Imported Online Night"))
    assert t is not None
    db.session.expire_all()
    rnd = db.session.scalar(select(Round).where(Round.tournament_id == t.id))
    assert rnd is not None
    for tab in _tables(rnd.id):
        assert len(_seats(tab)) == 4
        derived = sheet(t, tab)
        assert derived.counts and len(derived.rows) == 2
        assert all(d.source == "online" for d in tab.deals)
        assert f"Table {tab.number} (" in result.stdout


def test_run_bots_refuses_an_imported_online_table_with_deals_but_no_game(
    app, runner, tmp_path: Path
) -> None:
    deal = {"declarer": 0, "trump": "S", "points": 85, "kitty": 10, "multiplier": 4}
    f = _imported_file(tmp_path / "night.json", [deal])
    assert runner.invoke(args=["tournament", "import", str(f)]).exit_code == 0
    result = runner.invoke(args=["tournament", "run-bots", "Imported Online Night"])
    assert result.exit_code == 1
    assert (
        "Table 2 has 1 deal on its sheet but no online game to go on from: enter its next "
        "deals on paper." in result.output
    )
    db.session.expire_all()
    assert db.session.scalar(select(OnlineDeal.id)) is None  # nothing started


def test_a_duplicate_events_round_is_refused(client: FlaskClient) -> None:
    from tests.duplicate.test_duplicate_online import _links
    from tests.duplicate.test_duplicate_online_boards import _one_twenty_event

    w = world()
    did, _base = _one_twenty_event(client, w, "120分 online")
    tab = db.session.get(Table, _links(did)[0].table_id)
    assert tab is not None
    t = db.session.get(Tournament, tab.round.tournament_id)
    assert t is not None
    url = _round_url(w, t, 1)
    page = unescape(client.get(url).get_data(as_text=True))
    assert 'name="tables"' not in page  # its tables are online already
    seen = "0" * 16
    r = client.post(url + "/online", data={"seen": seen, "tables": ["1"]})
    said = unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert (
        "This round deals a duplicate event's boards: play it online from the event's page." in said
    )
