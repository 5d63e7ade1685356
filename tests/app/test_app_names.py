"""One name order on every list a user sees (pinyin, Latin names among them: the members page,
the invite list, the claim list, the entrant picker) and one name comparison wherever a typed
name is matched ("王 伟" is 王伟, "ＷＡＮＧ" is Wang): adding a member, joining by an invitation,
pasting a member list, a player page finding the nights of a player typed another way."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from app.extensions import db
from app.models import EntrantPlayer, Member
from tests.tournaments.tournament_helpers import (
    add_entrants,
    create,
    play_round_out,
    seat,
    world,
)

# in the app's order: chen jing, Emma Chen, liu yang, Olga, wang wei, zeng (曾 as a surname)
NAMES = ["王伟", "Emma Chen", "曾伟", "刘洋", "陈静"]
ORDER = ["陈静", "Emma Chen", "刘洋", "王伟", "曾伟"]


def _club(make_user, make_club, make_member, login, client):
    owner = make_user("olga", "Olga")
    club = make_club(owner=owner, name="Name Club")
    for n in NAMES:
        make_member(club, n)
    login(client, owner)
    return club


def _options(page: str, select_name: str) -> list[str]:
    block = page.split(f'name="{select_name}"', 1)[1].split("</select>", 1)[0]
    return [re.sub(r"<[^>]+>", "", o).strip() for o in re.findall(r"<option[^>]*>[^<]*", block)]


def _invite_link(client, club) -> str:
    r = client.post(f"/clubs/{club.slug}/invites", data={"role": "player", "member_id": "0"})
    found = re.search(r'value="(http://localhost/invite/[^"]+)"', r.get_data(as_text=True))
    assert found
    return found.group(1).removeprefix("http://localhost")


def test_members_invite_and_claim_lists_in_one_name_order(
    app, client, make_user, make_club, make_member, login
):
    club = _club(make_user, make_club, make_member, login, client)
    for lang in ("zh", "en"):
        page = client.get(f"/clubs/{club.slug}/members", headers={"Accept-Language": lang})
        text = page.get_data(as_text=True).split('<section id="members">')[1]
        where = [text.index(n) for n in [*ORDER[:3], "Olga", *ORDER[3:]]]
        assert where == sorted(where), lang
    # the owner's invite list: the members without an account, in the same order
    invites = client.get(f"/clubs/{club.slug}/invites").get_data(as_text=True)
    assert _options(invites, "member_id")[1:] == ORDER
    # the claim list a newcomer sees on an open invitation
    link = _invite_link(client, club)
    joiner = app.test_client()
    login(joiner, make_user("nina", "Nina"))
    claim = joiner.get(link).get_data(as_text=True)
    labels = re.findall(r'name="claim_member_id" type="radio" value="\d+"> ([^<]*)</label>', claim)
    assert labels[1:] == ORDER, claim


def test_the_entrant_picker_suggests_members_in_the_name_order(
    app, client, make_user, make_club, make_member, login
):
    club = _club(make_user, make_club, make_member, login, client)
    t = create(client, club, name="Picker Night", rounds=1, pairing="round-robin")
    page = client.get(f"/clubs/{club.slug}/tournaments/{t.id}").get_data(as_text=True)
    block = page.split('<datalist id="member-names">', 1)[1].split("</datalist>", 1)[0]
    assert re.findall(r'<option value="([^"]+)">', block) == [*ORDER[:3], "Olga", *ORDER[3:]]


def _count() -> int:
    return db.session.scalar(select(func.count(Member.id))) or 0


def test_a_name_typed_with_spaces_or_in_full_width_is_the_members_name(
    app, client, make_user, make_club, make_member, login
):
    club = _club(make_user, make_club, make_member, login, client)
    make_member(club, "Wang")
    before = _count()
    for typed in ("王 伟", "王\u3000伟", "ＷＡＮＧ", "wang"):
        r = client.post(
            f"/clubs/{club.slug}/members", data={"display_name": typed, "role": "player"}
        )
        assert r.status_code == 422, typed
        assert "A member of this club already has this name." in r.get_data(as_text=True)
    assert _count() == before
    # a pasted list: the same names are already members
    r = client.post(
        f"/clubs/{club.slug}/members/bulk",
        data={"members": "王 伟\nＷＡＮＧ\n李 娜\n李娜\n", "action": "preview"},
    )
    page = r.get_data(as_text=True)
    assert page.count("Already a member of the club.") == 2
    assert page.count("Twice in this list.") == 1
    # a newcomer joining by an invitation cannot take 王伟's name by typing "王 伟"
    link = _invite_link(client, club)
    joiner = app.test_client()
    login(joiner, make_user("wei", "Wei"))
    r = joiner.post(link, data={"claim_member_id": "0", "display_name": "王 伟"})
    assert r.status_code == 422
    assert "A member of this club already has this name." in r.get_data(as_text=True)
    assert _count() == before


def test_a_player_page_finds_the_nights_of_the_name_typed_another_way(app, client):
    w = world()
    from tests.tournaments.tournament_helpers import login

    login(client, w.owner)
    t = create(client, w.club, name="Friday Night", rounds=1, pairing="round-robin")
    add_entrants(client, w.club, t, 4, 2)
    # a player written "ＰＥＴＥ  player" and linked to nobody is the member Pete Player
    ep = db.session.query(EntrantPlayer).filter_by(name="P00a").one()
    ep.name = "ＰＥＴＥ  player"
    t.version += 1
    db.session.commit()
    rnd = seat(client, w.club, t)
    play_round_out(t, rnd, w.owner, seed=3)
    pete = db.session.query(Member).filter_by(club_id=w.club.id, display_name="Pete Player").one()
    page = client.get(f"/clubs/{w.club.slug}/members/{pete.id}/player").get_data(as_text=True)
    assert "Friday Night" in page and "P00b" in page  # the night and the partner
    assert 'class="rating"' in page  # rated as the member, not as a stranger
    assert "ＰＥＴＥ" not in page.split("<h2", 1)[1]  # not listed as their own partner


def test_a_duplicate_event_names_each_entrant_once_however_typed(app, client):
    from app.models import DuplicateEvent
    from tests.tournaments.tournament_helpers import login

    w = world()
    login(client, w.director)
    pairs = ["王伟 / 张敏", "Anna / Ben", "王 伟 / 张敏", "Carl / Dana"]
    data = {
        "name": "Pairs",
        "variant": "tractor-4p",
        "kind": "pairs",
        "boards_per_round": 1,
        "seed": 77,
    }
    r = client.post(f"/clubs/{w.club.slug}/duplicate", data={**data, "entrants": "\n".join(pairs)})
    assert r.status_code == 422 and "must be different" in r.get_data(as_text=True)
    r = client.post(
        f"/clubs/{w.club.slug}/duplicate",
        data={
            **data,
            "entrants": "\n".join(["ＡＮＮＡ / Ben" if p == "王 伟 / 张敏" else p for p in pairs]),
        },
    )
    assert r.status_code == 422 and "must be different" in r.get_data(as_text=True)
    assert db.session.query(DuplicateEvent).count() == 0
