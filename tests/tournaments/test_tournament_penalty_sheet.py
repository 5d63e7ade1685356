"""Competition penalties (RULES §7) and conduct warnings on the score sheet: the director's form
and the table-code page record them, the engine's scoring gives their effect, each row shows a
badge per penalty, bad input is refused on its field with nothing saved, and the printed sheet,
the CSV and the audit trail carry them."""

from __future__ import annotations

import csv
import io
import re

import pypdf
import pytest
from sqlalchemy import func, select
from tournament_helpers import actor, add_entrants, create, fixed_deal, login, seat, world

from app.competition import model as cm
from app.extensions import db
from app.models import AuditEntry, Deal, Table, Tournament
from app.services.tournaments.sheets import DealErrors, record_deal, sheet


def _table(client, variant="tractor-4p", size=2, entrants=4, **kw):
    w = world()
    login(client, w.director)
    kw.setdefault("match_value", 8)
    t = create(client, w.club, variant=variant, **kw)
    add_entrants(client, w.club, t, entrants, size)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    url = f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}/tables/{tab.number}"
    return w, t, rnd, tab, url


def _fresh(tab_id: int) -> Table:
    db.session.expire_all()
    tab = db.session.get(Table, tab_id)
    assert tab is not None
    return tab


def _count(tab_id: int) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab_id)) or 0


def _by_service(app, w, t, tab, deals) -> None:
    """Earlier deals of the match, entered through the sheet service (not what is tested)."""
    with app.test_request_context():
        for d in deals:
            record_deal(t, _fresh(tab.id), d, actor(w.director))
        db.session.commit()


def _derived(t_id: int, tab_id: int):
    db.session.expire_all()
    t = db.session.get(Tournament, t_id)
    return sheet(t, _fresh(tab_id))


def _field_error(html: str, field: str) -> str:
    m = re.search(rf'<div class="field has-error">\s*<label for="{field}">.*?</div>', html, re.S)
    assert m, f"no error on {field}"
    return " ".join(re.findall(r'<p class="error">(.*?)</p>', m.group(0)))


def _row_badges(html: str) -> list[str]:
    return re.findall(r'<span class="badge penalty[^"]*">(.*?)</span>', html)


# --- tractor-4p -------------------------------------------------------------------------------


def test_a_revoke_by_the_declarer_side_at_a_ends_the_deal(app, client):
    w, t, rnd, tab, url = _table(client)
    # side A declares four shutouts: 2 → 5 → 8 → J → A
    _by_service(app, w, t, tab, [cm.Deal(points=0, kitty=0, trump="S", declarer=0)] * 4)
    assert _derived(t.id, tab.id).levels == ("A", "2")
    # a revoke by the declarer side: the deal ends, its points do not count (none written)
    data = fixed_deal(0, 0, pen_kind_0="revoke", pen_who_0="declarer", level="A")
    data["points"] = ""
    r = client.post(url, data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    m = _derived(t.id, tab.id)
    row = m.rows[-1]
    assert (row.result.ended_by, row.total, row.winner) == ("revoke", None, "attackers")
    assert m.levels == ("A", "2") and m.passed_side is None and m.next_declarer == 1
    html = client.get(url).get_data(as_text=True)
    assert _row_badges(html) == ["Revoke (出错牌) · the declarer side (庄家方)"]
    assert "ended by the penalty: Revoke (出错牌)" in html
    assert "attackers take over" in html
    # in Chinese the badge reads in Chinese
    client.post("/lang", data={"lang": "zh"})
    zh = client.get(url).get_data(as_text=True)
    assert _row_badges(zh) == ["出错牌 · 庄家方"]
    assert "因罚则结束：出错牌" in zh


def test_a_revoke_by_the_attackers_at_a_passes_a(app, client):
    w, t, rnd, tab, url = _table(client)
    _by_service(app, w, t, tab, [cm.Deal(points=0, kitty=0, trump="S", declarer=0)] * 4)
    data = fixed_deal(0, 120, pen_kind_0="revoke", pen_who_0="attackers")
    assert client.post(url, data=data).status_code == 303
    m = _derived(t.id, tab.id)
    assert m.rows[-1].winner == "declarer" and m.rows[-1].gain == 1
    assert m.passed_side == 0 and m.counts  # the match ends there
    assert "This match is complete." in client.get(url).get_data(as_text=True)


def test_a_take_back_at_level_2_never_goes_below_2(app, client):
    w, t, rnd, tab, url = _table(client)
    # the declarers win +1 (60 points) and take back a card: 2 → 3 → 2
    data = fixed_deal(0, 60, pen_kind_0="takeback", pen_who_0="declarer")
    assert client.post(url, data=data).status_code == 303
    assert _derived(t.id, tab.id).levels == ("2", "2")
    # the attackers (at 2) take back a card: they stay at 2, the declarers still go up
    data = fixed_deal(0, 60, pen_kind_0="takeback", pen_who_0="attackers")
    assert client.post(url, data=data).status_code == 303
    m = _derived(t.id, tab.id)
    assert m.levels == ("3", "2") and m.rows[-1].total == 60
    html = client.get(url).get_data(as_text=True)
    assert _row_badges(html) == [
        "Take-back (悔牌) · the declarer side (庄家方)",
        "Take-back (悔牌) · the attackers (闲家)",
    ]


def test_three_strikes_end_the_match_as_a_forfeit_loss(app, client):
    w, t, rnd, tab, url = _table(client, opt_strikes_lose_match="3")
    # side B (the attackers of deal 1) is at fault twice, then once more in deal 2
    data = fixed_deal(
        0,
        60,
        pen_kind_0="takeback",
        pen_who_0="attackers",
        pen_kind_1="takeback",
        pen_who_1="attackers",
    )
    assert client.post(url, data=data).status_code == 303
    assert not _derived(t.id, tab.id).counts
    data = fixed_deal(0, 40, pen_kind_0="revoke", pen_who_0="attackers")
    assert client.post(url, data=data).status_code == 303
    m = _derived(t.id, tab.id)
    assert m.struck == 1 and m.counts and m.outcome(0) == "win" and m.outcome(1) == "loss"
    assert m.level_diff(1) == -3  # as a forfeit
    html = client.get(url).get_data(as_text=True)
    assert "This match is complete." in html
    # a fourth deal is refused: the match is over
    before = _count(tab.id)
    with app.test_request_context():
        with pytest.raises(DealErrors, match="lost it by penalties"):
            record_deal(
                t, _fresh(tab.id), cm.Deal(points=0, kitty=0, declarer=0), actor(w.director)
            )
        db.session.rollback()
    assert _count(tab.id) == before


def test_ten_per_card_counts_the_first_three_throws_of_a_side(app, client):
    w, t, rnd, tab, url = _table(client, opt_throw_penalty="ten_per_card")
    html = client.get(url).get_data(as_text=True)
    assert 'name="ftc_declarer"' in html and 'name="ft_declarer"' not in html
    # four failed throws by the declarers: only 2 + 3 + 4 cards count, 10 × 9 = 90
    data = fixed_deal(0, 40, ftc_declarer="2 3 4 5", ftc_attackers="1")
    assert client.post(url, data=data).status_code == 303
    row = _derived(t.id, tab.id).rows[-1]
    assert row.total == 40 + 90 - 10
    assert "(2+3+4+5 / 1)" in client.get(url).get_data(as_text=True)
    r = client.post(url, data=fixed_deal(1, 40, ftc_declarer="2 x"))
    assert r.status_code == 422
    assert "per failed throw" in _field_error(r.get_data(as_text=True), "ftc_declarer")
    assert _count(tab.id) == 1


def test_a_miscount_ends_the_deal_and_a_wrong_kitty_is_the_declarers(app, client):
    w, t, rnd, tab, url = _table(client)
    r = client.post(url, data=fixed_deal(0, 80, pen_kind_0="wrong_kitty", pen_who_0="attackers"))
    assert r.status_code == 422
    assert "a wrong kitty (扣底张数错) is theirs" in _field_error(
        r.get_data(as_text=True), "pen_who_0"
    )
    assert _count(tab.id) == 0
    data = fixed_deal(0, 80, pen_kind_0="miscount", pen_who_0="attackers")
    assert client.post(url, data=data).status_code == 303
    row = _derived(t.id, tab.id).rows[-1]
    assert (row.result.ended_by, row.winner, row.gain) == ("miscount", "declarer", 1)


# --- bad input: a sentence on the field, nothing saved ------------------------------------------


def test_bad_penalties_are_refused_on_their_field(app, client):
    w, t, rnd, tab, url = _table(client)
    version = db.session.get(Tournament, t.id).version  # type: ignore[union-attr]
    cases = [
        ({"pen_kind_0": "bogus", "pen_who_0": "declarer"}, "pen_kind_0", "Please choose a penalty"),
        ({"pen_kind_1": "revoke", "pen_who_1": "north"}, "pen_who_1", "the declarer side or"),
        ({"points": ""}, "points", "attackers' points"),  # no penalty ends the deal
        ({"pen_kind_0": "takeback", "points": ""}, "points", "attackers' points"),
        ({"warn_seat_0": "1", "warn_reason_0": "  "}, "warn_seat_0", "reason for the warning"),
        ({"warn_seat_0": "9", "warn_reason_0": "loud"}, "warn_seat_0", "seat that is warned"),
        ({"warn_reason_1": "loud"}, "warn_seat_1", "seat that is warned"),
        ({"warn_seat_0": "0", "warn_reason_0": "x" * 201}, "warn_seat_0", "At most 200"),
    ]
    for change, field, words in cases:
        data = fixed_deal(0, 60, **{"pen_who_0": "declarer"})
        data.update(change)
        r = client.post(url, data=data)
        assert r.status_code == 422, change
        assert words in _field_error(r.get_data(as_text=True), field), change
    assert _count(tab.id) == 0
    db.session.expire_all()
    assert db.session.get(Tournament, t.id).version == version  # type: ignore[union-attr]
    assert db.session.scalar(select(AuditEntry).where(AuditEntry.action == "deal")) is None


def test_no_wrong_kitty_with_four_decks(app, client):
    w, t, rnd, tab, url = _table(client, opt_decks="4")
    assert 'value="wrong_kitty"' not in client.get(url).get_data(as_text=True)
    r = client.post(url, data=fixed_deal(0, 120, pen_kind_0="wrong_kitty", pen_who_0="declarer"))
    assert r.status_code == 422
    assert "no wrong kitty" in _field_error(r.get_data(as_text=True), "pen_kind_0")
    assert _count(tab.id) == 0


# --- 120分 and red five -------------------------------------------------------------------------


def test_one_twenty_revoke_gives_the_other_side_one_more_level(app, client):
    w, t, rnd, tab, url = _table(client, variant="one-twenty-6p", size=3)
    # 60 points: the declarers keep, +1; their opponents' revoke (吃苍蝇) adds one more
    data = fixed_deal(0, 60, pen_kind_0="revoke", pen_who_0="attackers")
    assert client.post(url, data=data).status_code == 303
    m = _derived(t.id, tab.id)
    assert m.levels == ("4", "2") and m.rows[-1].total == 60 and m.rows[-1].result.ended_by is None


def _red_five(client, **kw):
    return _table(client, variant="red-five-5p", size=1, entrants=5, pairing="reseat", **kw)


def _red_deal(**extra):
    d = {"dealer": 0, "friend": 1, "trump": "H", "points": 120, "kitty": 0, "multiplier": 0}
    d.update(extra)
    return d


def test_red_five_penalties_cost_the_seat_4_and_give_the_others_1(app, client):
    w, t, rnd, tab, url = _red_five(client)
    # 120 points: the attackers win 1 unit (dealer −2, friend −1, the others +1 each);
    # seat 3's revoke: −4 for it, +1 for each other seat
    r = client.post(url, data=_red_deal(pen_kind_0="revoke", pen_who_0="2"))
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    assert _derived(t.id, tab.id).totals == (-1, 0, -3, 2, 2)
    # each kind the variant has, by its seat (a wrong kitty is the dealer's)
    for kind, seat_ in (("miscount", "4"), ("wrong_kitty", "0"), ("takeback", "1")):
        r = client.post(url, data=_red_deal(pen_kind_0=kind, pen_who_0=seat_))
        assert r.status_code == 303, kind
    assert len(_derived(t.id, tab.id).rows) == 4
    html = client.get(url).get_data(as_text=True)
    badges = _row_badges(html)
    assert len(badges) == 4 and badges[0].startswith("Revoke (出错牌) · 3·")
    # refused: a seat out of range, a wrong kitty by another seat than the dealer
    r = client.post(url, data=_red_deal(pen_kind_0="revoke", pen_who_0="7"))
    assert r.status_code == 422
    assert "seat at fault, 1 to 5" in _field_error(r.get_data(as_text=True), "pen_who_0")
    r = client.post(url, data=_red_deal(pen_kind_0="wrong_kitty", pen_who_0="3"))
    assert "the dealer's" in _field_error(r.get_data(as_text=True), "pen_who_0")
    assert _count(tab.id) == 4


def test_red_five_take_back_as_a_warning_costs_nothing(app, client):
    w, t, rnd, tab, url = _red_five(client, opt_takeback_effect="warning")
    assert client.post(url, data=_red_deal(pen_kind_0="takeback", pen_who_0="2")).status_code == 303
    assert _derived(t.id, tab.id).totals == (-2, -1, 1, 1, 1)


# --- the table-code page ------------------------------------------------------------------------


def test_the_table_code_page_records_penalties_but_not_warnings(app, client):
    w, t, rnd, tab, url = _table(client)
    # the director warns a seat on deal 1
    data = fixed_deal(0, 60, warn_seat_0="1", warn_reason_0="slow play")
    assert client.post(url, data=data).status_code == 303
    client.post("/account/logout")
    code = f"/table/{tab.code}"
    page = client.get(code).get_data(as_text=True)
    assert 'name="pen_kind_0"' in page and 'name="warn_seat_0"' not in page
    assert "Warning (警告) · 2·" in page and "slow play" in page
    # deal 2 with a revoke by the attackers, from the code page
    data = fixed_deal(1, 0, pen_kind_0="revoke", pen_who_0="attackers")
    data["points"] = ""
    r = client.post(code, data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    m = _derived(t.id, tab.id)
    assert m.rows[-1].result.ended_by == "revoke" and m.levels == ("3", "3")
    # correcting deal 1 from the code page keeps the director's warning
    fix = fixed_deal(0, 65)
    assert client.post(f"{code}/deals/1", data=fix).status_code == 303
    deal = _fresh(tab.id).deals[0]
    assert deal.points == 65
    assert deal.penalties == [{"kind": "warning", "seat": 1, "reason": "slow play"}]
    # bad input from the code page is refused too, with nothing saved
    r = client.post(code, data=fixed_deal(0, 60, pen_kind_0="revoke", pen_who_0="seat 9"))
    assert r.status_code == 422 and _count(tab.id) == 2


# --- warnings, the audit trail, the CSV and the printed sheet -----------------------------------


def test_warnings_penalties_in_the_audit_trail_csv_and_print(app, client):
    w, t, rnd, tab, url = _table(client)
    data = fixed_deal(0, 60, warn_seat_0="2", warn_reason_0="=talking", level="2")
    assert client.post(url, data=data).status_code == 303
    # a correction that only adds a penalty has its own words in the trail
    data = fixed_deal(0, 60, warn_seat_0="2", warn_reason_0="=talking", level="2")
    data.update(pen_kind_0="takeback", pen_who_0="attackers")
    assert client.post(f"{url}/deals/1", data=data).status_code == 303
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    audit = client.get(f"{base}/audit").get_data(as_text=True)
    assert "penalties corrected" in audit, audit[audit.find("<tbody") :][:1500]
    assert "take-back (悔牌) by the attackers" in audit
    assert "warning (警告) to P" in audit and "=talking" in audit
    # the CSV: the penalty, the warning (its seat 0-based, as the CSV's seats), the ending
    text = client.get(f"{base}/deals.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["penalties"] == "takeback attackers"
    assert rows[0]["warnings"] == "2: =talking"
    assert rows[0]["ended_by"] == ""
    # the printed sheet: the penalties column, the warning and the catalogue on the rules line
    pdf = client.get(f"{url}/sheet.pdf?filled=1").data
    printed = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "罚则" in printed and "Penalties" in printed
    assert "悔牌闲 警3" in printed  # the take-back by the attackers, the warning to seat 3
    assert "出错牌 Revoke: 本局结束" in printed
    assert "悔牌 Take-back: 犯规方降 1 级" in printed
    assert "Warnings (警告) count for nothing" in printed
    assert "revoke_effect" not in printed  # every option in words


def test_a_deal_ended_by_a_penalty_in_the_csv_and_the_printed_catalogue(app, client):
    w, t, rnd, tab, url = _table(
        client, opt_revoke_effect="extra_level", opt_strikes_lose_match="3"
    )
    data = fixed_deal(0, 0, pen_kind_0="miscount", pen_who_0="declarer")
    assert client.post(url, data=data).status_code == 303
    base = f"/clubs/{w.club.slug}/tournaments/{t.id}"
    text = client.get(f"{base}/deals.csv").get_data(as_text=True).lstrip("\ufeff")
    row = next(csv.DictReader(io.StringIO(text)))
    assert (row["ended_by"], row["total"], row["penalties"]) == (
        "miscount",
        "",
        "miscount declarer",
    )
    pdf = client.get(f"{url}/sheet.pdf").data
    printed = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "出错牌 Revoke: 打完计分后对方多升 1 级" in printed
    assert "一场犯规满 3 次判负" in printed


# --- an online table: a take-back or a warning by the director ------------------------------------


def test_the_director_records_a_take_back_and_a_warning_on_an_online_deal(app, client):
    from tests.online.online_helpers import online_world

    ow = online_world(client, "tractor-4p", deals=1)
    ow.bots(0, 1, 2, 3)  # the bots play the whole match
    tab = _fresh(ow.tab.id)
    assert len(tab.deals) == 1
    before = _derived(ow.t.id, tab.id)
    url = f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/rounds/{ow.rnd.number}/tables/{tab.number}"
    assert "Record a penalty or a warning" in client.get(ow.table_url).get_data(as_text=True)
    page = client.get(url).get_data(as_text=True)
    assert "Penalty or warning" in page and 'id="penalty"' in page
    # refused: a revoke (the engine prevents it online), a warning without its reason
    r = client.post(f"{url}/penalty", data={"deal": "1", "kind": "revoke", "seat": "0"})
    assert r.status_code == 422 and "only a take-back" in r.get_data(as_text=True)
    r = client.post(f"{url}/penalty", data={"deal": "1", "kind": "warning", "seat": "0"})
    assert r.status_code == 422 and "reason for the warning" in r.get_data(as_text=True)
    r = client.post(f"{url}/penalty", data={"deal": "2", "kind": "warning", "seat": "0"})
    assert r.status_code == 422
    assert _fresh(tab.id).deals[0].penalties is None
    # a take-back by the declarer's seat: the side loses one level after the result
    row0 = before.rows[0]
    decl_seat = row0.declarer  # seats alternate sides: the declaring side's first seat
    r = client.post(f"{url}/penalty", data={"deal": "1", "kind": "takeback", "seat": decl_seat})
    assert r.status_code == 303
    after = _derived(ow.t.id, tab.id)
    assert after.rows[0].result.lost == (1, 0)
    assert after.rows[0].total == row0.total  # the card points still count
    r = client.post(
        f"{url}/penalty", data={"deal": "1", "kind": "warning", "seat": "3", "reason": "chat"}
    )
    assert r.status_code == 303
    html = client.get(url).get_data(as_text=True)
    assert "Take-back (悔牌) · the declarer side (庄家方)" in html and "chat" in html
    actions = set(db.session.scalars(select(AuditEntry.action)))
    assert {"penalty", "warning"} <= actions


SEED_BASE = 1000


def test_an_online_take_back_waits_while_the_next_deal_is_played(app, client, monkeypatch):
    from app.services.online import advance
    from tests.online.online_helpers import online_world

    monkeypatch.setitem(app.config, "ONLINE_SEED_BASE", SEED_BASE)  # the same deals each run
    ow = online_world(client, "tractor-4p", deals=2)
    with monkeypatch.context() as m:
        m.setattr(advance, "DEAL_BUDGET", 0)  # stop once deal 1 is recorded
        ow.bots(0, 1, 2, 3)
    t = db.session.get(Tournament, ow.t.id)
    assert t is not None and len(_fresh(ow.tab.id).deals) == 1
    levels = _derived(t.id, ow.tab.id).levels
    up = next(side for side in (0, 1) if levels[side] != "2")  # a take-back would lower it
    t.online_pause = 0  # no time to read the summary: deal 2 is dealt at once
    db.session.commit()
    r = client.post(ow.table_url + "/bots", data={"seat": "0", "bot": "0"})  # seat 0: a person
    assert r.status_code == 303
    assert ow.deals()[-1].outcome is None  # deal 2 is being played
    url = f"/clubs/{ow.club.slug}/tournaments/{ow.t.id}/rounds/{ow.rnd.number}/tables/1"
    r = client.post(f"{url}/penalty", data={"deal": "1", "kind": "takeback", "seat": str(up)})
    assert r.status_code == 422
    assert "already being played" in r.get_data(as_text=True)
    assert _fresh(ow.tab.id).deals[0].penalties is None
    # a warning changes no level: it is recorded at once
    data = {"deal": "1", "kind": "warning", "seat": "1", "reason": "rude"}
    assert client.post(f"{url}/penalty", data=data).status_code == 303
