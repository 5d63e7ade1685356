"""Every export of a season keeps its divisions apart as the page does: the CSV (a division
column, rows grouped and ranked within), the PDF (a title row before each division's rows), the
group-chat picture."""

from __future__ import annotations

import csv
import io

from pypdf import PdfReader

from app.extensions import db
from app.services.seasons import manage
from tests.seasons.test_seasons_pages import _night, _season
from tests.tournaments.tournament_helpers import login, world


def _two_divisions(client):
    w = world()
    login(client, w.owner)
    n1, n2 = _night(client, w, "Night One"), _night(client, w, "Night Two")
    s = _season(client, w)
    top = manage.add_division(s, "甲级")
    low = manage.add_division(s, "乙级")
    manage.set_night(n1, s, low)
    manage.set_night(n2, s, top)
    db.session.commit()
    return w, s, f"/clubs/{w.club.slug}/seasons/{s.id}"


def test_csv_rows_per_division_in_the_seasons_order(app, client):
    _w, _s, base = _two_divisions(client)
    text = client.get(base + "/standings.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["division", "rank", "player", "nights", "score", "level_diff"]
    assert [r[0] for r in rows[1:]] == ["甲级"] * 8 + ["乙级"] * 8
    assert [r[1] for r in rows[1:9]] == [str(k) for k in range(1, 9)]
    assert [r[1] for r in rows[9:]] == [str(k) for k in range(1, 9)]
    assert all(r[3] == "1" for r in rows[1:])  # each division counts its own night only


def test_pdf_and_page_show_each_division_apart(app, client):
    _w, _s, base = _two_divisions(client)
    pdf = client.get(base + "/standings.pdf")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "【甲级】" in text and "【乙级】" in text
    assert text.index("【甲级】") < text.index("【乙级】")
    page = client.get(base).get_data(as_text=True)
    assert page.index("甲级") < page.index("乙级")


def test_the_picture_has_a_title_row_per_division(app, client):
    from app.models import Club
    from app.services.seasons import files
    from app.services.seasons.standings import rule_of

    w, s, base = _two_divisions(client)
    with app.test_request_context():
        rows = files.image_rows(s, rule_of(s))
        png = files.standings_image(s, db.session.get(Club, w.club.id))
    titles = [r.name for r in rows if not r.rank]
    assert titles == ["【甲级】", "【乙级】"] and len(rows) == 18
    assert rows[1].rank == "1" and rows[10].rank == "1"
    assert png.startswith(b"\x89PNG") and client.get(base + "/standings.png").status_code == 200


def test_the_chart_draws_one_line_per_division(app, client):
    from app.charts import builders
    from app.services.seasons.standings import chart_lines

    _w, s, base = _two_divisions(client)
    labels, lines, order = chart_lines(s)
    assert len(labels) == 2 and len(lines) == 2
    assert [name.split(" · ")[0] for name in order] == ["甲级", "乙级"]
    chart = builders.totals_chart("t", labels, lines, order)
    assert len(chart.series) == 2
    top, low = (lines[n] for n in order)
    assert low[0] > 0 and top[0] == 0.0 and top[1] > 0  # 乙级's night came first
    page = client.get(base).get_data(as_text=True)
    assert order[0] in page and order[1] in page


def test_the_player_page_names_the_place_and_the_division(app, client):
    from app.models import EntrantPlayer, Member

    w, s, base = _two_divisions(client)
    pete = db.session.query(Member).filter_by(club_id=w.club.id, display_name="Pete Player").one()
    for ep in db.session.query(EntrantPlayer).filter_by(name="P00a"):
        ep.member_id = pete.id
    db.session.commit()
    zh = {"Accept-Language": "zh"}
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player", headers=zh)
    text = page.get_data(as_text=True)
    rows = [r for r in client.get(base + "/standings.csv").get_data(as_text=True).splitlines()]
    places = {r.split(",")[0]: r.split(",")[1] for r in rows[1:] if ",Pete Player," in r}
    assert set(places) == {"甲级", "乙级"}  # Pete played a night in each division
    for division, place in places.items():
        assert f"第 {place} 名（共 8） · {division}" in text


def test_the_projector_pages_through_the_divisions(app, client):
    _w, _s, base = _two_divisions(client)
    html = client.get(base + "?view=projector").get_data(as_text=True)
    assert 'class="division-pages" data-every="15"' in html and "projector.js" in html
    assert html.count('class="division-page"') == 2
    assert '甲级 <small class="muted">1/2</small>' in html
    assert '乙级 <small class="muted">2/2</small>' in html
    assert client.get("/static/projector.js").status_code == 200
    plain = client.get(base).get_data(as_text=True)
    assert "division-pages" not in plain and plain.count('class="division-page"') == 2
