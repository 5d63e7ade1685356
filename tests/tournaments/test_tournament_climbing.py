"""A 争上游 tournament in the app: created with its rule options, its players re-seated at tables
of four, its paper sheet typed row by row (each seat's place, the tribute) through the score
sheet form, each refusal on its field in the reader's language with nothing saved, and the
standings, the export and its import agreeing."""

from __future__ import annotations

import io
import json
import re

import pypdf
import pytest
from sqlalchemy import func, select
from tournament_helpers import add_entrants, create, login, seat, sheet_url, world

from app.competition import tfile
from app.extensions import db
from app.models import AuditEntry, Deal, Table, Tournament

CLIMB = {
    "variant": "climbing",
    "pairing": "reseat",
    "match_value": 3,
    "opt_players": "4",
    "opt_decks": "1",
    "opt_tribute": "true",
    "opt_place_points": "",
}


def _places(*places: int | str, **extra: object) -> dict[str, object]:
    data: dict[str, object] = {f"place_{i}": p for i, p in enumerate(places)}
    data.update(extra)
    return data


def _climbing_table(client, **fields):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, **{**CLIMB, **fields})
    add_entrants(client, w.club, t, 8, 1)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    return w, t, rnd, tab, sheet_url(w.club, t, rnd, tab)


def _state(t_id: int, tab_id: int) -> tuple[int, int, int]:
    db.session.expire_all()
    deals = db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab_id)) or 0
    version = db.session.get(Tournament, t_id).version  # type: ignore[union-attr]
    audits = db.session.scalar(select(func.count(AuditEntry.id))) or 0
    return deals, version, audits


def _pdf_text(r) -> str:  # type: ignore[no-untyped-def]
    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    assert r.mimetype == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(r.data))
    return "\n".join(page.extract_text() for page in reader.pages)


def _field_errors(html: str, field: str) -> str:
    """The messages inside the wrapper of ``field`` (a field, or the places' fieldset)."""
    if field.startswith("place_"):
        m = re.search(r'<fieldset class="field places has-error">.*?</fieldset>', html, re.S)
    else:
        m = re.search(
            rf'<div class="field has-error">\s*<label for="{field}">.*?</div>', html, re.S
        )
    assert m, f"no error on {field}"
    return " ".join(re.findall(r'<p class="error">(.*?)</p>', m.group(0)))


def test_a_climbing_tournament_seats_four_a_table_and_its_sheet_is_typed(client):
    w, t, rnd, tab, url = _climbing_table(client)
    db.session.expire_all()
    rnd_tables = db.session.scalars(select(Table).where(Table.round_id == rnd.id)).all()
    assert sorted(len(x.seats) for x in rnd_tables) == [4, 4]
    page = client.get(url).get_data(as_text=True)
    assert 'name="place_3"' in page and 'name="place_4"' not in page
    assert 'name="tribute_card"' in page and 'name="points"' not in page
    assert client.post(url, data=_places(2, 1, 4, 3)).status_code == 303
    # the deal before: seat 2 came last, seat 1 first; the card is written as its code
    r = client.post(url, data=_places(1, 3, 2, 4, tribute_from=2, tribute_to=1, tribute_card="hj"))
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    assert client.post(url, data=_places(3, 2, 1, 4)).status_code == 303  # 抗贡: no tribute
    db.session.expire_all()
    rows = db.session.scalars(select(Deal).where(Deal.table_id == tab.id).order_by(Deal.index))
    stored = [(d.places, d.tribute) for d in rows]
    assert stored == [
        ([2, 1, 4, 3], None),
        ([1, 3, 2, 4], {"from": 2, "to": 1, "card": "HJ"}),
        ([3, 2, 1, 4], None),
    ]
    page = client.get(url).get_data(as_text=True)
    assert "This match is complete." in page
    assert "3 → 2 · HJ" in page  # the tribute, seats counted from 1
    # points by place 3, 2, 1, 0: seat 0 2+3+1 = 6, seat 1 3+1+2 = 6, seat 2 0+2+3 = 5, seat 3 1
    names = [s.entrant.name for s in db.session.get(Table, tab.id).seats]  # type: ignore[union-attr]
    doc = json.loads(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/export.json").data)
    assert doc["variant"] == "climbing" and "options" not in doc  # the defaults: 4 players
    table_doc = next(x for x in doc["played"][0]["tables"] if x.get("players") == names)
    assert table_doc["deals"][1] == {
        "places": [1, 3, 2, 4],
        "tribute": {"from": 2, "to": 1, "card": "HJ"},
    }
    comp = tfile.load(doc)
    rows_json = {r["entrant"]: (r["score"], r["wins"]) for r in tfile.standings_json(comp)}
    assert [rows_json[n] for n in names] == [(6, 1), (6, 1), (5, 1), (1, 0)]
    standings = client.get(f"/standings/{t.id}").get_data(as_text=True)
    assert "Deals won (上游)" in standings
    # the export imports back as a new tournament with the same standings
    doc["name"] = "争上游 again"
    body = json.dumps(doc, ensure_ascii=False).encode()
    r = client.post(
        f"/clubs/{w.club.slug}/tournaments/import", data={"file": (io.BytesIO(body), "t.json")}
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    again = db.session.scalar(select(Tournament).where(Tournament.name == "争上游 again"))
    assert again is not None
    again_doc = json.loads(
        client.get(f"/clubs/{w.club.slug}/tournaments/{again.id}/export.json").data
    )
    assert tfile.standings_json(tfile.load(again_doc)) == tfile.standings_json(comp)


# each refusal: the deals typed before it, the row, the field and its words in English and Chinese
REFUSALS = [
    ([], _places(1, 1, 3, 4), "place_1", ("Place 1 is written twice", "第 1 名写了两次")),
    ([], _places(1, 2, "", 4), "place_2", ("Please choose this player's place.", "名次")),
    ([], _places(1, 2, 9, 4), "place_2", ("A place is 1 to 4.", "名次是 1 到 4")),
    (
        [],
        _places(1, 2, 3, 4, tribute_from=3, tribute_to=0, tribute_card="2S"),
        "tribute_from",
        ("A first deal has no tribute", "第一副牌没有进贡"),
    ),
    (
        [_places(2, 1, 4, 3)],
        _places(1, 2, 3, 4, tribute_from=3, tribute_to=1, tribute_card="2S"),
        "tribute_from",
        ("paid by the player who came last", "上一副牌的下游"),
    ),
    (
        [_places(2, 1, 4, 3)],
        _places(1, 2, 3, 4, tribute_from=2, tribute_to=0, tribute_card="2S"),
        "tribute_to",
        ("goes to the player who came first", "上一副牌的上游"),
    ),
    (
        [_places(2, 1, 4, 3)],
        _places(1, 2, 3, 4, tribute_from=2, tribute_to=1, tribute_card="ZZ"),
        "tribute_card",
        ("ZZ is not a card", "ZZ 不是一张牌"),
    ),
    (
        [_places(2, 1, 4, 3)],
        _places(1, 2, 3, 4, tribute_from=2, tribute_to=1),
        "tribute_card",
        ("Please write the card given", "请写"),
    ),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("before", "row", "field", "words"), REFUSALS)
def test_each_refusal_is_on_its_field_in_the_readers_language(
    client, lang, before, row, field, words
):
    w, t, rnd, tab, url = _climbing_table(client)
    for d in before:
        assert client.post(url, data=d).status_code == 303
    client.post("/lang", data={"lang": lang})
    state = _state(t.id, tab.id)
    r = client.post(url, data=row)
    assert r.status_code == 422
    assert words[0 if lang == "en" else 1] in _field_errors(r.get_data(as_text=True), field)
    assert _state(t.id, tab.id) == state


def test_tribute_off_refuses_a_tribute(client):
    w, t, rnd, tab, url = _climbing_table(client, opt_tribute="false")
    assert client.post(url, data=_places(2, 1, 4, 3)).status_code == 303
    r = client.post(url, data=_places(1, 2, 3, 4, tribute_from=2, tribute_to=1, tribute_card="AS"))
    assert r.status_code == 422
    assert "These rules pay no tribute" in _field_errors(r.get_data(as_text=True), "tribute_from")


def test_a_correction_shows_the_row_and_takes_a_take_back(client):
    w, t, rnd, tab, url = _climbing_table(client, opt_place_points="5, 2, 1, 0")
    assert client.post(url, data=_places(2, 1, 4, 3)).status_code == 303
    page = client.get(f"{url}/deals/1").get_data(as_text=True)
    assert re.search(r'<option selected value="4">4</option>|<option value="4" selected>', page)
    r = client.post(
        f"{url}/deals/1",
        data=_places(2, 1, 4, 3, pen_kind_0="takeback", pen_who_0="1", seen=1),
    )
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    t_doc = json.loads(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/export.json").data)
    table_doc = next(x for x in t_doc["played"][0]["tables"] if x.get("deals"))
    assert table_doc["deals"] == [
        {"places": [2, 1, 4, 3], "penalties": [{"kind": "takeback", "seat": 1}]}
    ]


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"pairing": "swiss"}, "pairing", "re-seats individuals"),
        ({"match_kind": "to_a"}, "match_kind", "no levels"),
        ({"opt_place_points": "1, 2, 3, 4"}, "place_points", "each at most the one before"),
        ({"opt_place_points": "3, 2, 1"}, "place_points", "as many as players"),
        ({"opt_place_points": "a, b"}, "place_points", "Whole numbers separated by commas"),
    ],
)
def test_setup_refusals(client, fields, field, words):
    w = world()
    login(client, w.director)
    from tournament_helpers import setup_form

    r = client.post(f"/clubs/{w.club.slug}/tournaments/new", data=setup_form(**{**CLIMB, **fields}))
    assert r.status_code == 422
    assert words in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Tournament.id))) == 0


def test_the_tournaments_pages_and_files_show_a_climbing_night(client):
    w, t, rnd, tab, url = _climbing_table(client)
    for row in (
        _places(2, 1, 4, 3),
        _places(1, 3, 2, 4, tribute_from=2, tribute_to=1, tribute_card="HJ"),
    ):
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
        f"{base}/standings.pdf",
    ):
        r = client.get(page)
        assert r.status_code == 200, (page, r.get_data(as_text=True)[:2000])
    history = client.get(f"/standings/{t.id}/entrants/{entrant_id}").get_data(as_text=True)
    assert "points by place" in history
    deals_csv = client.get(f"{base}/deals.csv").get_data(as_text=True)
    assert ",1 3 2 4,2>1 HJ,3 1 2 0,5 4 2 1," in deals_csv  # places, tribute, scores, totals
    # the printed sheet: blank for the table, filled with the places, the tribute, the points
    sheet_pdf = f"{base}/rounds/1/tables/{tab.number}/sheet.pdf"
    blank = _pdf_text(client.get(sheet_pdf))
    names = [s.entrant.name for s in db.session.get(Table, tab.id).seats]  # type: ignore[union-attr]
    assert "争上游 Climbing" in blank and "座4 名次" in blank and names[3] in blank
    assert "大王 HJ" not in blank
    filled = _pdf_text(client.get(sheet_pdf + "?filled=1"))
    # deal 2: places 1 3 2 4, tribute seat 3 → seat 2, HJ; points 3 1 2 0
    assert "\n1\n3\n2\n4\n3\n2\n大王 HJ\n3\n1\n2\n0\n" in filled
    assert "\n5\n4\n2\n1\n得分合计 Points total" in filled  # the totals after two deals
    for kind in ("cards", "pairings", "sheets", "pack"):
        text = _pdf_text(client.get(f"{base}/rounds/1/{kind}.pdf"))
        assert names[0] in text, kind
    # a climbing table may go online (issue 25), but not once its deals are typed on paper
    r = client.post(f"{base}/rounds/1/tables/{tab.number}/online", follow_redirects=True)
    assert "it can only go online before them" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Table, tab.id).mode == "paper"  # type: ignore[union-attr]


def test_the_tables_code_types_the_sheet_too(client):
    w, t, rnd, tab, url = _climbing_table(client)
    code = db.session.get(Table, tab.id).code  # type: ignore[union-attr]
    client.post("/account/logout")
    r = client.post(f"/table/{code}", data=_places(4, 3, 2, 1))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    r = client.post(f"/table/{code}", data=_places(4, 3, 2, 1, tribute_from=0, tribute_to=0))
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "Please write the card given" in _field_errors(html, "tribute_card")
    db.session.expire_all()
    assert [d.places for d in db.session.get(Table, tab.id).deals] == [[4, 3, 2, 1]]  # type: ignore[union-attr]


def test_a_climbing_season_takes_climbing_nights_only(client, runner):  # type: ignore[no-untyped-def]
    import copy

    from tests.competition.test_competition_tfile_climbing import CLIMB as NIGHT
    from tests.competition.tfile_examples import EXAMPLE

    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/import"

    def post(doc: dict[str, object]):  # type: ignore[no-untyped-def]
        body = json.dumps(doc, ensure_ascii=False).encode()
        return client.post(url, data={"file": (io.BytesIO(body), "t.json")})

    one = copy.deepcopy(NIGHT)
    one["club"] = w.club.name
    assert post(one).status_code == 303
    two = copy.deepcopy(one)
    two["name"] = "争上游 night 2"
    two["played"] = two["played"][:1]
    two["played"][0]["tables"][0]["players"] = ["Liu", "Wang", "Zhao", "Chen"]
    two["played"][0]["tables"][1]["bye"] = "Li"
    assert post(two).status_code == 303
    tractor = copy.deepcopy(EXAMPLE)
    tractor.update(club=w.club.name, name="Tractor night", season=one["season"])
    r = post(tractor)
    assert r.status_code == 422
    assert "Winter climb is a season of 争上游 (climbing, 3 to 6 players) nights" in r.get_data(
        as_text=True
    )
    result = runner.invoke(args=["season", "standings", w.club.name, "Winter climb", "--json"])
    assert result.exit_code == 0, result.output
    got = {row["player"]: (row["nights"], row["score"]) for row in json.loads(result.stdout)}
    assert got == {"Wang": (2, 12), "Zhao": (2, 10), "Li": (2, 5), "Liu": (2, 5), "Chen": (2, 2)}
    # the season page's ratings: every deal rated (a table in progress its deals so far), with
    # the deals each played and the deals won (上游) as league points
    from app.models import Season

    season = db.session.query(Season).filter_by(club_id=w.club.id, name="Winter climb").one()
    page = client.get(f"/clubs/{w.club.slug}/seasons/{season.id}").get_data(as_text=True)
    ratings = page[page.index('<table class="list ratings">') :]
    ratings = ratings[: ratings.index("</table>")]
    assert re.findall(r"<th[^>]*>([^<]*)</th>", ratings) == [
        "Player",
        "Rating",
        "Matches",
        "Deals",
        "League points",
    ]
    cells = re.findall(
        r'<tr><td>([^<]*)</td><td class="num"><strong>\d+</strong></td>'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td></tr>',
        ratings,
    )
    assert sorted(cells) == [
        ("Chen", "0", "7", "0"),
        ("Li", "0", "4", "1"),
        ("Liu", "0", "4", "2"),
        ("Wang", "0", "6", "2"),
        ("Zhao", "0", "7", "2"),
    ]


@pytest.mark.parametrize(
    ("lang", "words", "red_five_words"),
    [
        ("en", ("Points by place", "Deals won (上游)"), ("积分", "Dealer side wins")),
        ("zh", ("名次分", "上游次数"), ("积分", "坐庄胜局")),
    ],
)
def test_the_player_page_and_the_standings_picture_say_climbings_words(
    client, monkeypatch, lang, words, red_five_words
):
    from app.models import EntrantPlayer, Member
    from app.services.tournaments import images

    w, t, rnd, tab, url = _climbing_table(client)
    for row in (
        _places(2, 1, 4, 3),
        _places(1, 3, 2, 4, tribute_from=2, tribute_to=1, tribute_card="HJ"),
        _places(3, 2, 1, 4),  # the match of three deals is over
    ):
        assert client.post(url, data=row).status_code == 303
    client.post("/lang", data={"lang": lang})
    # the group-chat picture: its column heads, then the points by place and the deals won
    drawn = []
    monkeypatch.setattr(images, "standings_png", lambda img: drawn.append(img) or b"\x89PNG")
    r = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/standings.png")
    assert r.status_code == 200
    (img,) = drawn
    assert img.head[2:] == words and not set(img.head) & set(red_five_words)
    seat0 = db.session.get(Table, tab.id).seats[0].entrant.name  # type: ignore[union-attr]
    row = next(x for x in img.rows if x.name == seat0)
    assert (row.value, row.extra) == ("6", "1")  # seat 0: 2 + 3 + 1 points, won deal 2
    # the player page of the member who played seat 0
    pete = db.session.query(Member).filter_by(club_id=w.club.id, display_name="Pete Player").one()
    db.session.query(EntrantPlayer).filter_by(name=seat0).one().member_id = pete.id
    db.session.commit()
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").get_data(as_text=True)
    said = {
        "en": "6 points by place, 1 deal won (上游)",
        "zh": "名次分 6，上游 1 次",
    }[lang]
    nights = page[page.index('<section class="night">') :]  # the rating line says 联赛积分
    assert said in page and "积分" not in nights


def _player_line(page: str) -> tuple[int, str]:
    """The rating on a player page and the words after it, up to the paragraph's end."""
    m = re.search(r'<strong class="rating">(\d+)</strong>\s*\(([^)]*)\)', page)
    assert m, "no rating on the page"
    return int(m.group(1)), m.group(2)


def test_a_climbing_nights_players_are_rated_deal_by_deal_on_their_player_pages(client, runner):
    from app.models import EntrantPlayer, Member

    w, t, rnd, tab, url = _climbing_table(client)
    for row in (
        _places(1, 2, 3, 4),
        _places(1, 2, 4, 3, tribute_from=3, tribute_to=0, tribute_card="2S"),
        _places(1, 3, 2, 4, tribute_from=2, tribute_to=0, tribute_card="2S"),
    ):
        assert client.post(url, data=row).status_code == 303
    seats = [s.entrant.name for s in db.session.get(Table, tab.id).seats]  # type: ignore[union-attr]
    members = {}
    for seat_no, who in ((0, "Pete Player"), (3, "Dora Director")):
        m = db.session.query(Member).filter_by(club_id=w.club.id, display_name=who).one()
        db.session.query(EntrantPlayer).filter_by(name=seats[seat_no]).one().member_id = m.id
        members[seat_no] = m
    db.session.commit()
    lines = {}
    for seat_no, m in members.items():
        r = client.get(f"/clubs/{w.club.slug}/members/{m.id}/player")
        assert r.status_code == 200
        lines[seat_no] = _player_line(r.get_data(as_text=True))
    # seat 0 went out first in all three deals, seat 3 came last twice and third once
    assert lines[0][0] > 1000 > lines[3][0]
    assert lines[0][1] == "3 deals, league points 3"  # each deal won (上游) earns its point
    assert lines[3][1] == "3 deals, league points 0"
    result = runner.invoke(args=["season", "ratings", w.club.name, "--json"])
    assert result.exit_code == 0, result.output
    rated = {row["player"]: row for row in json.loads(result.stdout)}
    assert set(rated) == {"Pete Player", seats[1], seats[2], "Dora Director"}  # one table played
    assert [rated[p]["games"] for p in rated] == [3, 3, 3, 3]
    assert rated["Pete Player"]["rating"] == lines[0][0]
    assert (
        rated["Pete Player"]["rating"]
        > rated[seats[1]]["rating"]
        > rated["Dora Director"]["rating"]
    )
    client.post("/lang", data={"lang": "zh"})
    page = client.get(f"/clubs/{w.club.slug}/members/{members[0].id}/player").get_data(as_text=True)
    assert _player_line(page) == (lines[0][0], "3 局, 联赛积分 3")


def _selected(html: str, name: str) -> str | None:
    """The value of the option chosen in the select ``name`` (None: none chosen)."""
    m = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert m, name
    chosen = re.search(r'<option selected value="([^"]*)"', m.group(1))
    return chosen.group(1) if chosen else None


@pytest.mark.parametrize(
    ("lang", "hint"),
    [
        ("en", "Filled in from deal 1: its last pays its first."),
        ("zh", "按第 1 副牌填写：下游向上游进贡。"),
    ],
)
def test_the_next_deals_tribute_is_filled_in_from_the_places_before(client, lang, hint):
    w, t, rnd, tab, url = _climbing_table(client)
    client.post("/lang", data={"lang": lang})
    first = client.get(url).get_data(as_text=True)  # a first deal: no tribute
    assert _selected(first, "tribute_from") in (None, "") and hint not in first
    assert client.post(url, data=_places(2, 1, 4, 3)).status_code == 303
    page = client.get(url).get_data(as_text=True)
    # deal 1: seat 2 (counted from 0) came last, seat 1 first; the card is left to write
    assert (_selected(page, "tribute_from"), _selected(page, "tribute_to")) == ("2", "1")
    assert re.search(r'<input[^>]*name="tribute_card"[^>]*value=""', page)
    assert hint in page
    # a correction form keeps the row's own tribute (none), not the next deal's
    edit = client.get(f"{url}/deals/1").get_data(as_text=True)
    assert _selected(edit, "tribute_from") in (None, "")
    # the filled-in tribute with its card is taken as it stands
    r = client.post(url, data=_places(1, 3, 2, 4, tribute_from=2, tribute_to=1, tribute_card="2S"))
    assert r.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert (_selected(page, "tribute_from"), _selected(page, "tribute_to")) == ("3", "0")


def test_no_tribute_filled_in_when_the_rules_pay_none(client):
    w, t, rnd, tab, url = _climbing_table(client, opt_tribute="false")
    assert client.post(url, data=_places(2, 1, 4, 3)).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert _selected(page, "tribute_from") in (None, "") and "Filled in from deal" not in page
