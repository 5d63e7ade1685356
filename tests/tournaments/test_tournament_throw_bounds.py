"""Red five failed throws (甩牌) per seat are counts from 0 to 20, like 升级's per side: on the
director's score sheet and on the table-code page a larger or negative count is refused with a
sentence on the field, in the reader's language, and nothing is saved."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select
from tournament_helpers import add_entrants, create, login, seat, sheet_url, world

from app.extensions import db
from app.models import AuditEntry, Deal, Table, Tournament

MESSAGES = {"en": "A count from 0 to 20, please.", "zh": "请填写 0 到 20 的次数。"}


def _red_deal(**kw: object) -> dict[str, object]:
    d: dict[str, object] = {
        "dealer": 0,
        "friend": 2,
        "trump": "H",
        "points": 60,
        "kitty": 0,
        "multiplier": 0,
    }
    d.update(kw)
    return d


def _red_table(client):  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, variant="red-five-5p", pairing="reseat", match_value=4)
    add_entrants(client, w.club, t, 5, 1)
    rnd = seat(client, w.club, t)
    tab = next(x for x in rnd.tables if x.kind != "bye")
    return w, t, rnd, tab


def _state(t_id: int, tab_id: int) -> tuple[int, int, int]:
    """Deals at the table, the tournament's version, audit entries: all unchanged on refusal."""
    db.session.expire_all()
    deals = db.session.scalar(select(func.count(Deal.id)).where(Deal.table_id == tab_id)) or 0
    version = db.session.get(Tournament, t_id).version  # type: ignore[union-attr]
    audits = db.session.scalar(select(func.count(AuditEntry.id))) or 0
    return deals, version, audits


def _seat_errors(html: str) -> str:
    m = re.search(r'<fieldset class="field has-error">.*?</fieldset>', html, re.S)
    assert m, "no error on the failed throws"
    return " ".join(re.findall(r'<p class="error">(.*?)</p>', m.group(0)))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", ["director", "code"])
@pytest.mark.parametrize(
    "change",
    [{"ft_seat_4": 1000000}, {"ft_seat_0": -1}, {"ft_seat_2": 21}, {"ft_seat_1": -100}],
)
def test_out_of_range_counts_are_refused(client, lang, where, change):
    w, t, rnd, tab = _red_table(client)
    if where == "director":
        url = sheet_url(w.club, t, rnd, tab)
    else:
        code = db.session.get(Table, tab.id).code  # type: ignore[union-attr]
        client.post("/account/logout")
        url = f"/table/{code}"
    client.post("/lang", data={"lang": lang})
    before = _state(t.id, tab.id)
    r = client.post(url, data=_red_deal(**change))
    assert r.status_code == 422
    assert MESSAGES[lang] in _seat_errors(r.get_data(as_text=True))
    assert _state(t.id, tab.id) == before


def test_counts_within_the_range_are_saved(client):
    w, t, rnd, tab = _red_table(client)
    url = sheet_url(w.club, t, rnd, tab)
    r = client.post(url, data=_red_deal(ft_seat_4=20, ft_seat_1=0, ft_seat_0=2))
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    db.session.expire_all()
    deal = db.session.scalar(select(Deal).where(Deal.table_id == tab.id))
    assert deal is not None and sorted(deal.failed_throws) == [0, 0] + [4] * 20
