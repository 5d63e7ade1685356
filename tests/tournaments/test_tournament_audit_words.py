"""The audit trail in words: places worded in the reader's language at display time (stored as
data), sides as the entrants' names, seats as the players, suits as ♠♥♦♣ / 无主; entries written
before (plain text targets) still show."""

from __future__ import annotations

from tournament_helpers import add_entrants, create, fixed_deal, login, seat, sheet_url, world
from tournament_helpers import audit_rows as _rows

from app.extensions import db
from app.models import AuditEntry
from app.services.tournaments.audit import parse_place
from app.services.tournaments.rows import seat_names


def test_fixed_side_deal_in_words_in_both_languages(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind == "sides")
    url = sheet_url(w.club, t, rnd, tab)
    sides, _seats = seat_names(tab)
    assert client.post(url, data=fixed_deal(0, 60, trump="H")).status_code == 303
    data = fixed_deal(1, 60, trump="NT")
    assert client.post(f"{url}/deals/1", data=data).status_code == 303, "no trump is 'NT'?"
    entry = db.session.query(AuditEntry).filter_by(action="correct_deal").one()
    assert parse_place(entry.target) == {"round": 1, "table": tab.number, "deal": 1}

    audit = f"/clubs/{w.club.slug}/tournaments/{t.id}/audit"
    when, who, what, before, after = _rows(client.get(audit).get_data(as_text=True))[0]
    assert what == f"deal corrected · round 1, table {tab.number}, deal 1"
    assert f"Declarer: {sides[0]}" in before and "Trump: ♥" in before
    assert f"Declarer: {sides[1]}" in after and "Trump: No trump" in after

    client.post("/lang", data={"lang": "zh"})
    zh = _rows(client.get(audit).get_data(as_text=True))[0]
    assert zh[2].endswith(f"第 1 轮第 {tab.number} 桌第 1 局")
    assert "♥" in zh[3] and sides[0] in zh[3]
    assert "无主" in zh[4] and sides[1] in zh[4]
    assert "round 1" not in " ".join(zh)


def test_old_text_targets_and_unknown_tables_still_show(client):
    w = world()
    login(client, w.director)
    t = create(client, w.club)
    db.session.add(
        AuditEntry(
            tournament_id=t.id,
            actor="Someone",
            action="deal",
            target="round 1, table 9, deal 2",
            before=None,
            after={"declarer": 1, "trump": "C", "points": 40, "misplays": [0]},
        )
    )
    db.session.add(
        AuditEntry(
            tournament_id=t.id,
            actor="Someone",
            action="forfeit",
            target='{"round":3,"table":4}',  # a table that does not exist (any more)
            before={"forfeit": None},
            after={"forfeit": 0},
        )
    )
    db.session.commit()
    rows = _rows(client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/audit").get_data(True))
    texts = [" | ".join(r) for r in rows]
    old = next(x for x in texts if "table 9" in x)
    assert "round 1, table 9, deal 2" in old
    assert "Declarer: side B" in old and "Trump: ♣" in old and "side A" in old
    gone = next(x for x in texts if "forfeit changed" in x)
    assert "round 3, table 4" in gone and "side A" in gone


def test_places_are_data_worded_when_shown(app):
    from flask_babel import force_locale

    from app.services.tournaments.audit import place, place_text

    with app.test_request_context():
        with force_locale("en"):
            assert place_text(place(2)) == "round 2"
            assert place_text(place(2, 3)) == "round 2, table 3"
            assert place_text(place(2, 3, deal=4)) == "round 2, table 3, deal 4"
            assert place_text(place(2, 3, seat=5)) == "round 2, table 3, seat 5"
            assert place_text("Spring Cup") == "Spring Cup"  # a name stays a name
            assert place_text('{"name": 1}') == '{"name": 1}'
        with force_locale("zh"):
            assert place_text(place(2, 3, deal=4)) == "第 2 轮第 3 桌第 4 局"
