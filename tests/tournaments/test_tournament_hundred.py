"""打百分 tournaments in the app (HUNDRED.md §8): created with their options and club-night
presets, individuals re-seated at tables of 4 (3 in 3人百分) and pairs paired as sides, the paper
sheet typed row by row (bid and declarer or the turned card, trump, friend card and friend,
points, 抠底, penalties) with the result and each seat's units shown, each refusal on its field
in the reader's language with nothing saved, and the standings, the export and its import
agreeing."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from sqlalchemy import func, select
from tournament_helpers import add_entrants, create, login, seat, setup_form, sheet_url, world

from app.competition import tfile
from app.extensions import db
from app.models import AuditEntry, Deal, Entrant, Table, Tournament

HIDDEN = {
    "variant": "hundred-4p",
    "pairing": "reseat",
    "match_value": 2,
    "preset": "club-hundred",
    "opt_friend": "hidden",
}
PAIRS = {
    "variant": "hundred-4p",
    "pairing": "swiss",
    "match_value": 2,
    "preset": "club-hundred-pairs",
    "opt_friend": "fixed",
}
FORTY = {"variant": "forty-4p", "pairing": "swiss", "match_value": 2, "preset": "club-forty"}
THREE = {
    "variant": "hundred-3p",
    "pairing": "reseat",
    "match_value": 2,
    "preset": "club-hundred-3p",
}


def _row(declarer: int, points: int, **extra: object) -> dict[str, object]:
    data: dict[str, object] = {"declarer": declarer, "points": points, "trump": "H"}
    data.update(extra)
    return data


def _table(client, fields, entrants, size):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, **fields)
    add_entrants(client, w.club, t, entrants, size)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    return w, t, rnd, tab, sheet_url(w.club, t, rnd, tab)


def _state(t_id: int, tab_id: int) -> tuple[int, int, int]:
    db.session.expire_all()
    deals = db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab_id)) or 0
    version = db.session.get(Tournament, t_id).version  # type: ignore[union-attr]
    audits = db.session.scalar(select(func.count(AuditEntry.id))) or 0
    return deals, version, audits


def _field_errors(html: str, field: str) -> str:
    m = re.search(
        rf'<div class="field has-error">\s*(<label for="{field}"|<label for="{field}" class="check").*?</div>',
        html,
        re.S,
    )
    assert m, f"no error on {field}"
    return " ".join(re.findall(r'<p class="error">(.*?)</p>', m.group(0)))


def _names(tab_id: int) -> list[str]:
    db.session.expire_all()
    return [s.entrant.name for s in db.session.get(Table, tab_id).seats]  # type: ignore[union-attr]


def test_a_hidden_friend_night_seats_four_a_table_and_its_sheet_gives_units(client):
    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    assert t.preset == "club-hundred" and t.pairing == "reseat"
    db.session.expire_all()
    tables = db.session.scalars(select(Table).where(Table.round_id == rnd.id)).all()
    assert sorted(len(x.seats) for x in tables) == [4, 4]
    page = client.get(url).get_data(as_text=True)
    for name in ("declarer", "bid", "trump", "friend_card", "friend", "points", "kou_di", "kitty"):
        assert f'name="{name}"' in page, name
    assert 'name="turned"' not in page and 'name="multiplier"' not in page
    # bid 80: the attackers need more than 20; 25 wins them 5 units, against declarer and friend
    r = client.post(url, data=_row(0, 25, bid=80, friend_card="as", friend=2))
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    # bid 60, 30 points: the declarer side keeps it, 1 unit each to seats 1 and 3
    assert client.post(url, data=_row(1, 30, bid=60, friend_card="HJ", friend=3)).status_code == 303
    db.session.expire_all()
    rows = db.session.scalars(select(Deal).where(Deal.table_id == tab.id).order_by(Deal.index))
    assert [(d.declarer, d.friend, d.trump, d.points, d.hundred) for d in rows] == [
        (0, 2, "H", 25, {"kou_di": False, "bid": 80, "friend_card": "AS"}),
        (1, 3, "H", 30, {"kou_di": False, "bid": 60, "friend_card": "HJ"}),
    ]
    page = client.get(url).get_data(as_text=True)
    assert "This match is complete." in page
    assert "attackers win, 5 units" in page and "declarer side wins, 1 unit" in page
    names = _names(tab.id)
    doc = json.loads(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/export.json").data)
    assert doc["variant"] == "hundred-4p" and doc["preset"] == "club-hundred"
    table_doc = next(x for x in doc["played"][0]["tables"] if x.get("players") == names)
    assert table_doc["deals"][0] == {
        "declarer": 0,
        "bid": 80,
        "trump": "H",
        "friend_card": "AS",
        "friend": 2,
        "points": 25,
    }
    comp = tfile.load(doc)
    scores = {r["entrant"]: r["score"] for r in tfile.standings_json(comp)}
    assert [scores[n] for n in names] == [-6, 6, -6, 6]
    standings = client.get(f"/standings/{t.id}").get_data(as_text=True)
    assert "积分" in standings and "Declarer side wins" in standings
    # the entrant's history: the deals of the table, with this seat's units
    show = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    assert "a friend card, its holder known when it is played (暗朋友)" in show
    eid = db.session.scalar(select(Entrant.id).where(Entrant.name == names[1]))
    hist = client.get(f"/standings/{t.id}/entrants/{eid}")
    assert hist.status_code == 200, hist.get_data(as_text=True)[:2000]
    assert "attackers win, 5 units" in hist.get_data(as_text=True)
    # the export imports back as a new tournament with the same standings
    doc["name"] = "打百分 again"
    body = json.dumps(doc, ensure_ascii=False).encode()
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/import", data={"file": (io.BytesIO(body), "t.json")}
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    again = db.session.scalar(select(Tournament).where(Tournament.name == "打百分 again"))
    assert again is not None
    again_doc = json.loads(
        client.get(f"/clubs/{w.club.slug}/tournaments/{again.id}/export.json").data
    )
    assert tfile.standings_json(tfile.load(again_doc)) == tfile.standings_json(comp)
    # the deals CSV has the row as typed and each seat's units
    csv_text = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/deals.csv").get_data(
        as_text=True
    )
    assert "80" in csv_text and "-5 5 -5 5" in csv_text


# each refusal: the row, the field and its words in English and Chinese
REFUSALS = [
    (_row(0, 25, bid=62, friend_card="AS", friend=2), "bid", ("62 is not a bid", "不是叫分")),
    (_row(0, 25, friend_card="AS", friend=2), "bid", ("Please choose the winning bid", "请选择")),
    (_row(0, 105, bid=80, friend_card="AS", friend=2), "points", ("not 105", "105")),
    (_row(0, 27, bid=80, friend_card="AS", friend=2), "points", ("not 27", "27")),
    (
        _row(0, 25, bid=80, friend_card="AS", friend=0),
        "friend",
        ("The friend is not the declarer", "朋友不是庄家"),
    ),
    (
        _row(0, 25, bid=80, friend_card="AS"),
        "friend",
        ("Please choose the seat that held the friend card", "请选择"),
    ),
    (_row(0, 25, bid=80, friend=2), "friend_card", ("Please write the card", "请写")),
    (_row(0, 25, bid=80, friend_card="ZZ", friend=2), "friend_card", ("ZZ is not a card", "ZZ")),
    (_row(0, 25, bid=80, friend_card="AS", friend=2, trump=""), "trump", ("trump", "主")),
    (
        {**_row(0, 25, bid=80, friend_card="AS", friend=2), "declarer": ""},
        "declarer",
        ("declarer", "庄家"),
    ),
    (_row(0, 95, bid=80, friend_card="AS", friend=2, kitty=10), "kitty", ("100", "100")),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("row", "field", "words"), REFUSALS)
def test_each_refusal_is_on_its_field_in_the_readers_language(client, lang, row, field, words):
    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    client.post("/lang", data={"lang": lang})
    state = _state(t.id, tab.id)
    r = client.post(url, data=row)
    assert r.status_code == 422
    assert words[0 if lang == "en" else 1] in _field_errors(r.get_data(as_text=True), field)
    assert _state(t.id, tab.id) == state


def test_a_fixed_pair_match_is_won_on_units_with_fen_cha(client):
    w, t, rnd, tab, url = _table(client, PAIRS, 4, 2)
    db.session.expire_all()
    assert db.session.get(Table, tab.id).kind == "sides"  # type: ignore[union-attr]
    page = client.get(url).get_data(as_text=True)
    assert 'name="friend_card"' not in page and 'name="bid"' in page
    # side A (seats 0, 2) declares 70 and keeps it (20 ≤ 30): +3; side B declares 100, 抠底: −9
    assert client.post(url, data=_row(0, 20, bid=70)).status_code == 303
    r = client.post(url, data=_row(1, 0, bid=100, kou_di="y", kitty=15))
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    page = client.get(url).get_data(as_text=True)
    assert "抠底" in page and "This match is complete." in page
    db.session.expire_all()
    doc = json.loads(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/export.json").data)
    rows = tfile.standings_json(tfile.load(doc))
    sides = doc["played"][0]["tables"][0]["sides"]
    by = {r["entrant"]: r for r in rows}
    assert by[sides[0]]["match_points"] == 2 and by[sides[0]]["level_diff"] == 12
    assert by[sides[1]]["match_points"] == 0 and by[sides[1]]["level_diff"] == -12
    standings = client.get(f"/standings/{t.id}").get_data(as_text=True)
    assert "分差" in standings
    csv_text = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/standings.csv").get_data(
        as_text=True
    )
    assert csv_text.lstrip("\ufeff").startswith(
        "rank,entrant,players,played,match_points,unit_diff,"
    )
    # the file imports back as a new pair event with the same standings
    doc["name"] = "打百分 pairs again"
    body = json.dumps(doc, ensure_ascii=False).encode()
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/import", data={"file": (io.BytesIO(body), "t.json")}
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    again = db.session.scalar(select(Tournament).where(Tournament.name == "打百分 pairs again"))
    assert again is not None and again.pairing == "swiss"
    again_doc = json.loads(
        client.get(f"/clubs/{w.club.slug}/tournaments/{again.id}/export.json").data
    )
    assert tfile.standings_json(tfile.load(again_doc)) == rows


def test_fixed_pairs_read_no_friend(client):
    """Partners are fixed: the form has no friend field, and a posted one is not read."""
    w, t, rnd, tab, url = _table(client, PAIRS, 4, 2)
    r = client.post(url, data=_row(0, 20, bid=70, friend=1, friend_card="AS"))
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    db.session.expire_all()
    d = db.session.scalar(select(Deal).where(Deal.table_id == tab.id))
    assert d is not None and d.friend is None and d.hundred == {"kou_di": False, "bid": 70}


def test_forty_takes_the_turned_card_and_refuses_a_trump_of_another_suit(client):
    w, t, rnd, tab, url = _table(client, FORTY, 4, 2)
    page = client.get(url).get_data(as_text=True)
    assert 'name="turned"' in page and 'name="bid"' not in page
    r = client.post(url, data=_row(0, 40, turned="7S"))
    assert r.status_code == 422
    assert "Trump is the turned card" in _field_errors(r.get_data(as_text=True), "trump")
    r = client.post(url, data=_row(0, 40, turned="HJ", trump="S"))
    assert r.status_code == 422
    assert "HJ is not a suited card" in _field_errors(r.get_data(as_text=True), "turned")
    # the attackers reach 40: they win one unit; trump left at — is the turned card's suit
    assert "Leave it at — for the turned card" in client.get(url).get_data(as_text=True)
    r = client.post(url, data={**_row(0, 40, turned="7h"), "trump": ""})
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    db.session.expire_all()
    d = db.session.scalar(select(Deal).where(Deal.table_id == tab.id))
    assert d is not None and d.hundred == {"kou_di": False, "turned": "7H"} and d.trump == "H"
    assert "attackers win, 1 unit" in client.get(url).get_data(as_text=True)


def test_three_player_hundred_seats_threes_and_has_no_friend(client):
    w, t, rnd, tab, url = _table(client, THREE, 6, 1)
    db.session.expire_all()
    tables = db.session.scalars(select(Table).where(Table.round_id == rnd.id)).all()
    assert sorted(len(x.seats) for x in tables) == [3, 3]
    page = client.get(url).get_data(as_text=True)
    assert 'name="friend"' not in page and 'name="bid"' in page
    # bid 75 (4 units), 30 points ≤ 25? no: 30 > 25, the attackers win: declarer −8, each +4
    assert client.post(url, data=_row(2, 30, bid=75)).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "attackers win, 4 units" in page
    assert re.search(
        r"4 <small>\(\+4\)</small>.*4 <small>\(\+4\)</small>.*-8 <small>\(-8\)</small>", page, re.S
    )


def test_a_revoke_ends_the_deal_without_points(client):
    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    row = _row(0, "", bid=90, friend_card="AS", friend=1, pen_kind_0="revoke", pen_who_0="declarer")
    r = client.post(url, data=row)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    page = client.get(url).get_data(as_text=True)
    assert "attackers win, 7 units" in page and "ended by the penalty" in page


def test_a_correction_shows_the_row(client):
    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    assert client.post(url, data=_row(0, 25, bid=80, friend_card="AS", friend=2)).status_code == 303
    page = client.get(f"{url}/deals/1").get_data(as_text=True)
    assert 'value="AS"' in page
    assert re.search(r'<option selected value="80">80</option>|<option value="80" selected>', page)
    r = client.post(
        f"{url}/deals/1", data={**_row(0, 15, bid=80, friend_card="AS", friend=2), "seen": 1}
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    assert "declarer side wins, 5 units" in client.get(url).get_data(as_text=True)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({**HIDDEN, "pairing": "swiss"}, "pairing", "re-seat individuals"),
        ({**PAIRS, "pairing": "reseat"}, "pairing", "pair sides"),
        ({**FORTY, "pairing": "reseat"}, "pairing", "pair sides"),
        ({**HIDDEN, "match_kind": "to_a"}, "match_kind", "no levels"),
        ({**HIDDEN, "preset": "club"}, "preset", "does not exist for this game"),
    ],
)
def test_setup_refusals(client, fields, field, words):
    w = world()
    login(client, w.director)
    r = client.post(f"/clubs/{w.club.slug}/tournaments/new", data=setup_form(**fields))
    assert r.status_code == 422
    assert words in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Tournament.id))) == 0


def test_the_new_page_starts_from_the_games_club_night(client):
    w = world()
    login(client, w.director)
    page = client.get(f"/clubs/{w.club.slug}/tournaments/new?variant=forty-4p").get_data(
        as_text=True
    )
    assert 'value="club-forty"' in page
    page = client.get(f"/clubs/{w.club.slug}/tournaments/new?preset=club-hundred-pairs").get_data(
        as_text=True
    )
    assert re.search(r'<option (selected )?value="fixed"( selected)?', page)
    assert re.search(r'<option (selected )?value="swiss"( selected)?>|value="swiss" selected', page)


def _player_line(page: str) -> tuple[int, str]:
    m = re.search(r'<strong class="rating">(\d+)</strong>\s*\(([^)]*)\)', page)
    assert m, "no rating on the page"
    return int(m.group(1)), m.group(2)


def _link(w, name: str, who: str):  # type: ignore[no-untyped-def]
    """Bind the player ``name`` of the night to the club member ``who``."""
    from app.models import EntrantPlayer, Member

    m = db.session.query(Member).filter_by(club_id=w.club.id, display_name=who).one()
    db.session.query(EntrantPlayer).filter_by(name=name).one().member_id = m.id
    db.session.commit()
    return m


def test_a_friend_nights_players_are_rated_deal_by_deal_as_red_fives(client, runner):
    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    # deal 1: seats 1 and 3 attack and win; deal 2: seat 1 declares with seat 3 and wins
    assert client.post(url, data=_row(0, 25, bid=80, friend_card="AS", friend=2)).status_code == 303
    assert client.post(url, data=_row(1, 30, bid=60, friend_card="HJ", friend=3)).status_code == 303
    seats = _names(tab.id)
    pete = _link(w, seats[1], "Pete Player")
    dora = _link(w, seats[0], "Dora Director")
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").get_data(as_text=True)
    won, lost = _player_line(page), None
    assert won[1] == "2 deals, league points 2"  # each deal won earns its point
    assert "6 积分 · 1 deal won on the declarer's side" in page
    lost = _player_line(
        client.get(f"/clubs/{w.club.slug}/members/{dora.id}/player").get_data(as_text=True)
    )
    assert won[0] > 1000 > lost[0] and lost[1] == "2 deals, league points 0"
    result = runner.invoke(args=["season", "ratings", w.club.name, "--json"])
    assert result.exit_code == 0, result.output
    rated = {row["player"]: row for row in json.loads(result.stdout)}
    assert set(rated) == {"Pete Player", "Dora Director", seats[2], seats[3]}
    assert rated[seats[3]]["rating"] == won[0] and rated[seats[2]]["rating"] == lost[0]
    client.post("/lang", data={"lang": "zh"})
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").get_data(as_text=True)
    assert "6 积分 · 庄家方胜 1 局" in page


def test_a_pair_nights_match_is_rated_as_fixed_sides(client):
    w, t, rnd, tab, url = _table(client, PAIRS, 4, 2)
    assert client.post(url, data=_row(0, 20, bid=70)).status_code == 303
    assert client.post(url, data=_row(1, 0, bid=100, kou_di="y")).status_code == 303
    seats = _names(tab.id)  # the two pairs, side A first
    players = db.session.get(Table, tab.id).seats[0].entrant.players  # type: ignore[union-attr]
    pete = _link(w, players[0].name, "Pete Player")
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").get_data(as_text=True)
    rating, words = _player_line(page)
    assert rating > 1000 and "league points 3" in words  # a match won
    assert "units +12" in page and f"against {seats[1]}" in unescape(page)


def _pdf_text(r) -> str:  # type: ignore[no-untyped-def]
    import pypdf

    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    assert r.mimetype == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(r.data))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.parametrize("fields", [HIDDEN, PAIRS])
def test_the_pages_and_printouts_of_a_hundred_night(client, fields):
    pairs = fields is PAIRS
    w, t, rnd, tab, url = _table(client, fields, 4 if pairs else 8, 2 if pairs else 1)
    row = _row(0, 20, bid=70) if pairs else _row(0, 25, bid=80, friend_card="AS", friend=2)
    assert client.post(url, data=row).status_code == 303
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    entrant_id = db.session.get(Table, tab.id).seats[0].entrant_id  # type: ignore[union-attr]
    for page in (
        base,
        f"{base}/rounds/1",
        f"/standings/{t.id}",
        f"/standings/{t.id}/entrants/{entrant_id}",
        f"{base}/standings.csv",
        f"{base}/deals.csv",
        f"{base}/standings.png",
        f"{base}/audit",
    ):
        r = client.get(page)
        assert r.status_code == 200, (page, r.get_data(as_text=True)[:2000])
    round_page = client.get(f"{base}/rounds/1").get_data(as_text=True)
    if pairs:
        assert "units A +3 : -3 B" in round_page
    sheet_pdf = f"{base}/rounds/1/tables/{tab.number}/sheet.pdf"
    blank = _pdf_text(client.get(sheet_pdf))
    assert "打百分 Hundred, 4 players" in blank and "叫分" in blank and "起始级" not in blank
    filled = _pdf_text(client.get(sheet_pdf + "?filled=1"))
    if pairs:  # side A kept 70: 3 units
        assert "\n1\n70\n♥\n20\n" in filled and "\n+3\n-3\n分数合计 Units total" in filled
    else:  # the attackers' 5 units against the declarer (seat 1) and the friend (seat 3)
        assert "\n1\n80\n♥\nA♠\n3\n25\n" in filled and "\n闲 5\n-5\n+5\n-5\n+5\n" in filled
    names = [s.entrant.name for s in db.session.get(Table, tab.id).seats]  # type: ignore[union-attr]
    for kind in ("cards", "pairings", "sheets", "pack"):
        text = _pdf_text(client.get(f"{base}/rounds/1/{kind}.pdf"))
        assert names[0] in text, kind
    standings = _pdf_text(client.get(f"{base}/standings.pdf"))
    assert ("分差" if pairs else "庄家方胜") in standings and "级差" not in standings
    # a 打百分 table may go online (issue 24), but not once its deals are typed on paper
    r = client.post(f"{base}/rounds/1/tables/{tab.number}/online", follow_redirects=True)
    assert "it can only go online before them" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Table, tab.id).mode == "paper"  # type: ignore[union-attr]


def test_the_tables_code_types_the_sheet_too(client):
    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    code = db.session.get(Table, tab.id).code  # type: ignore[union-attr]
    client.post("/account/logout")
    r = client.post(f"/table/{code}", data=_row(0, 25, bid=80, friend_card="AS", friend=2))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    r = client.post(f"/table/{code}", data=_row(1, 25, bid=80, friend_card="AS", friend=1))
    assert r.status_code == 422
    assert "The friend is not the declarer" in _field_errors(r.get_data(as_text=True), "friend")
    db.session.expire_all()
    assert [d.hundred for d in db.session.get(Table, tab.id).deals] == [  # type: ignore[union-attr]
        {"kou_di": False, "bid": 80, "friend_card": "AS"}
    ]


def test_switching_the_game_to_hundred_brings_its_club_night_preset(client):
    """The game select swaps in its options; a preset of another game (the generic ``club``
    does not fit 打百分) is replaced out of band by the game's club night, so the hidden preset
    field never refuses a form its user cannot correct."""
    w = world()
    login(client, w.director)
    base = f"/clubs/{w.club.slug}/tournaments/new/options"
    page = client.get(f"{base}?variant=hundred-4p&preset=club&pairing=swiss").get_data(as_text=True)
    assert re.search(r'id="preset" name="preset" value="club-hundred" hx-swap-oob="true"', page)
    assert re.search(r'<option (selected )?value="reseat"( selected)?', page)
    page = client.get(f"{base}?variant=hundred-4p&preset=club-hundred-pairs").get_data(as_text=True)
    assert 'value="club-hundred-pairs" hx-swap-oob="true"' in page
    assert re.search(r'<option (selected )?value="fixed"( selected)?', page)
    page = client.get(f"{base}?variant=red-five-5p&preset=competition-tractor").get_data(
        as_text=True
    )
    assert 'value="club" hx-swap-oob="true"' in page


def test_a_removed_hundred_deal_is_restored_as_it_was(client):
    from tests.forms import form_fields

    w, t, rnd, tab, url = _table(client, HIDDEN, 8, 1)
    row = _row(2, 0, bid=100, friend_card="HJ", friend=1, kou_di="y", kitty=20)
    row["points"] = 10
    assert client.post(url, data=row).status_code == 303
    db.session.expire_all()
    before = [
        (d.declarer, d.friend, d.points, d.hundred) for d in db.session.get(Table, tab.id).deals
    ]  # type: ignore[union-attr]
    assert before == [(2, 1, 10, {"kou_di": True, "bid": 100, "friend_card": "HJ", "kitty": 20})]
    fields = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/undo")
    assert client.post(f"{url}/undo", data=fields).status_code == 303
    db.session.expire_all()
    assert db.session.get(Table, tab.id).deals == []  # type: ignore[union-attr]
    fields = form_fields(client.get(url).get_data(as_text=True), action=f"{url}/restore")
    r = client.post(f"{url}/restore", data=fields)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    db.session.expire_all()
    after = [
        (d.declarer, d.friend, d.points, d.hundred) for d in db.session.get(Table, tab.id).deals
    ]  # type: ignore[union-attr]
    assert after == before
    # 抠底: the attackers win the bid of 100's 9 units whatever their points; 10 + 20 printed
    page = client.get(url).get_data(as_text=True)
    assert "attackers win, 9 units" in page and "30 <small>(10 + 20)</small>" in page


def test_a_hundred_season_takes_nights_of_one_kind_only(client, runner):  # type: ignore[no-untyped-def]
    """Imported nights with a season: two hidden-friend nights count together; a fixed-pair
    night of the same game is refused with both games named in words, nothing imported."""
    from tests.competition.test_competition_hundred import individual_doc, pair_doc

    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/import"

    def post(doc: dict[str, object]):  # type: ignore[no-untyped-def]
        body = json.dumps(doc, ensure_ascii=False).encode()
        return client.post(url, data={"file": (io.BytesIO(body), "t.json")})

    for name in ("百分 night 1", "百分 night 2"):
        doc = individual_doc()
        doc.update(club=w.club.name, name=name, season="Winter hundred")
        r = post(doc)
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    pairs = pair_doc()
    pairs.update(club=w.club.name, season="Winter hundred")
    r = post(pairs)
    assert r.status_code == 422
    assert (
        "Winter hundred is a season of 打百分 with a hidden friend (暗朋友) nights; 固定朋友 cup is a "
        "打百分 with fixed partners (pairs) night and cannot count in it."
    ) in unescape(r.get_data(as_text=True))
    assert db.session.scalar(select(func.count(Tournament.id))) == 2
    result = runner.invoke(args=["season", "standings", w.club.name, "Winter hundred", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    # the same night twice: each player's season score is twice the night's 积分
    night = {r["entrant"]: r["score"] for r in tfile.standings_json(tfile.load(individual_doc()))}
    assert {r["player"]: (r["nights"], r["score"]) for r in rows} == {
        p: (2, 2 * score) for p, score in night.items()
    }
    assert any(score for score in night.values())
