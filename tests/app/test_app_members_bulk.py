"""Adding many members by pasting a list: a preview, bad lines refused with their reason, names
already in the club or repeated refused, nothing saved before the owner confirms; members listed
in one pinyin order, Latin names among them, in either language."""

from __future__ import annotations

from app.competition.names import name_sort_key
from app.extensions import db
from app.models import Member


def _club(make_user, make_club, make_member, login, client):
    owner = make_user("owner", "Olga")
    club = make_club(owner=owner, name="Paste Club")
    make_member(club, "Wang Fang")
    login(client, owner)
    return club


PASTE = "name,contact\n李伟, 13800000000\nZhang Min\n\nwang fang\n李伟\nEvil\u202eName\n刘洋\t微信 liuyang\n"


def test_preview_then_add_refuses_duplicates_and_bad_lines(
    app, client, make_user, make_club, make_member, login
):
    club = _club(make_user, make_club, make_member, login, client)
    url = f"/clubs/{club.slug}/members/bulk"
    r = client.post(url, data={"members": PASTE, "action": "preview"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Already a member of the club." in page  # wang fang (case-blind)
    assert "Twice in this list." in page  # the second 李伟
    assert "invisible control characters" in page  # the bidi override
    assert "3 members will be added" in page
    assert db.session.query(Member).filter_by(club_id=club.id).count() == 2  # nothing yet
    r = client.post(url, data={"members": PASTE, "action": "add"})
    assert r.status_code == 303
    members = {
        m.display_name: m.contact for m in db.session.query(Member).filter_by(club_id=club.id)
    }
    assert members == {
        "Olga": None,
        "Wang Fang": None,
        "李伟": "13800000000",
        "Zhang Min": None,
        "刘洋": "微信 liuyang",
    }
    # the same paste again adds nothing: every name is taken now
    again = client.post(url, data={"members": PASTE, "action": "add"})
    assert again.status_code == 422 and "No line can be added" in again.get_data(as_text=True)
    assert db.session.query(Member).filter_by(club_id=club.id).count() == 5


def test_a_player_cannot_paste_and_the_reasons_speak_chinese(
    app, client, make_user, make_club, make_member, login
):
    club = _club(make_user, make_club, make_member, login, client)
    zh = client.post(
        f"/clubs/{club.slug}/members/bulk",
        data={"members": "Wang Fang", "action": "preview"},
        headers={"Accept-Language": "zh"},
    )
    assert zh.status_code == 422 and "已经是俱乐部成员" in zh.get_data(as_text=True)
    player = make_user("pete", "Pete")
    make_member(club, "Pete", user=player)
    client.post("/account/logout")
    login(client, player)
    assert client.post(f"/clubs/{club.slug}/members/bulk", data={"members": "X"}).status_code == 403


def test_one_pinyin_order_in_both_languages(app, client, make_user, make_club, make_member, login):
    names = ["张敏", "Anna", "李伟", "bob", "陈杰", "Zoe", "王芳"]
    assert sorted(names, key=name_sort_key) == [
        "Anna",
        "bob",
        "陈杰",
        "李伟",
        "王芳",
        "张敏",
        "Zoe",
    ]
    club = _club(make_user, make_club, make_member, login, client)
    for n in ("张敏", "李伟", "陈杰"):
        make_member(club, n)
    for lang in ("zh", "en"):
        page = client.get(f"/clubs/{club.slug}/members", headers={"Accept-Language": lang})
        text = page.get_data(as_text=True).split('<section id="members">')[1]
        order = [text.index(n) for n in ("陈杰", "李伟", "Olga", "Wang Fang", "张敏")]
        assert order == sorted(order), lang
