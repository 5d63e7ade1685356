"""Bilingual UI: language from the browser, switchable, remembered; catalogs complete."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "app/translations/zh/LC_MESSAGES/messages.po"
MO = ROOT / "app/translations/zh/LC_MESSAGES/messages.mo"


def test_browser_language_chinese(client):
    page = client.get("/", headers={"Accept-Language": "zh-CN"})
    text = page.get_data(as_text=True)
    assert "注册" in text and "升级俱乐部" in text
    assert 'lang="zh-Hans"' in text


def test_browser_language_english_default(client):
    text = client.get("/", headers={"Accept-Language": "fr-FR"}).get_data(as_text=True)
    assert "Register" in text and "注册" not in text


def test_switch_language_is_remembered_and_redirects_safely(client):
    response = client.post("/lang", data={"lang": "zh", "next": "/account/login"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/account/login")
    text = client.get("/account/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "登录名" in text
    back = client.post("/lang", data={"lang": "en", "next": "https://evil.example/"})
    assert back.headers["Location"] in ("/", "http://localhost/")
    assert "Login name" in client.get("/account/login").get_data(as_text=True)


def test_unknown_language_is_ignored(client):
    client.post("/lang", data={"lang": "xx"})
    assert "Register" in client.get("/").get_data(as_text=True)


def test_every_message_has_a_chinese_translation(tmp_path):
    """Extract from the sources now; every msgid must be translated in zh and compiled."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "_l",
            "-k",
            "lazy_gettext",
            "-k",
            "ngettext:1,2",
            "--no-location",
            "-o",
            str(pot),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    with pot.open("rb") as fh:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}
    with PO.open("rb") as fh:
        po = read_po(fh)
    translated = {
        (m.id if isinstance(m.id, str) else m.id[0])
        for m in po
        if m.id
        and m.string
        and "fuzzy" not in m.flags
        and all(m.string if isinstance(m.string, tuple) else [m.string])
    }
    missing = sorted(wanted - translated)
    assert not missing, f"untranslated (run `make i18n` and translate): {missing}"
    with MO.open("rb") as fh:
        mo = read_mo(fh)
    compiled = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in mo if m.id}
    stale = sorted(k for k in translated if k not in compiled)
    assert not stale, f"messages.mo is stale (run `make i18n`): {stale}"
    for m in po:
        if m.id and isinstance(m.id, str) and m.id in compiled:
            assert compiled[m.id] == m.string, f"messages.mo is stale for {m.id!r}"


def test_every_page_renders_in_chinese(app, client, make_user, make_club, make_member, login):
    """Placeholders in translations must match: render each page and a few messages in zh."""
    owner = make_user("zhowner", "主人")
    club = make_club(owner=owner, name="中文俱乐部")
    make_member(club, "王伟")
    login(client, owner)
    client.post("/lang", data={"lang": "zh"})
    s = club.slug
    for url in [
        "/",
        f"/clubs/{s}",
        f"/clubs/{s}/members",
        f"/clubs/{s}/invites",
        "/clubs/new",
        "/account/password",
        "/clubs/nope",
    ]:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        assert "升级俱乐部" in response.get_data(as_text=True), url
    texts = [
        client.post(f"/clubs/{s}/members", data={"display_name": "x" * 81}).get_data(as_text=True),
        client.post(f"/clubs/{s}/members", data={"display_name": "王伟"}).get_data(as_text=True),
        client.post("/clubs/new", data={"name": "中文俱乐部"}).get_data(as_text=True),
        client.get(f"/clubs/{s}", follow_redirects=True).get_data(as_text=True),
    ]
    assert "最多 80 个字符。" in texts[0]
    assert "本俱乐部已有成员使用这个名字。" in texts[1]
    assert "已有同名的俱乐部。" in texts[2]
    assert "你的角色：负责人" in texts[3] and "2 名成员" in texts[3]


def test_templates_gettext_answers_as_jinjas_own_newstyle_gettext(app):
    """app.web's faster template ``_()`` renders exactly what Jinja's newstyle gettext does:
    the translation, Markup while autoescaping (variables escaped, the text not), a format
    string even without variables, plain text with autoescape off, in either language."""
    from flask_babel import force_locale, get_translations
    from jinja2 import Environment

    sources = [
        '{{ _("Your turn.") }}',
        '{{ _("Log in") }} {{ gettext("Log out") }}',
        '{{ _("%(name)s <b>%(n)s</b> 100%%", name="<i>A & B</i>", n=3) }}',
        '{% autoescape false %}{{ _("%(name)s x", name="<i>") }}{% endautoescape %}',
        "{% trans %}Log in{% endtrans %}",
        '{% trans who="<i>" %}Hello {{ who }}{% endtrans %}',
    ]
    for lang in ("zh", "en"):
        with app.test_request_context("/"), force_locale(lang):
            reference = Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
            reference.install_gettext_callables(  # type: ignore[attr-defined]
                gettext=lambda s: get_translations().ugettext(s),
                ngettext=lambda s, p, n: get_translations().ungettext(s, p, n),
                newstyle=True,
            )
            for source in sources:
                ours = app.jinja_env.from_string(source).render()
                theirs = reference.from_string(source).render()
                assert ours == theirs, (lang, source, ours, theirs)
            if lang == "zh":  # the comparison is of translated text, not of the English
                assert app.jinja_env.from_string('{{ _("Log in") }}').render() != "Log in"


def test_templates_read_a_dicts_keys_and_attributes_as_jinja_does(app):
    """app.web's TemplateEnvironment reads ``d.name`` on a plain dict as its key at once; what
    every template sees stays exactly Jinja's: keys, missing keys, dict methods (also when a
    key shadows one), dict subclasses, objects and nested reads."""
    from collections import OrderedDict
    from types import SimpleNamespace

    from jinja2 import Environment

    data = {
        "d": {"a": 1, "items": "a key", "b": {"c": "<x>"}, "none": None},
        "o": OrderedDict(a=2),
        "n": SimpleNamespace(a=3, d={"a": 4}),
    }
    sources = [
        "{{ d.a }} {{ d.b.c }} {{ d['a'] }} {{ d.none }}",
        "{{ d.missing is defined }} {{ d.b.missing is defined }} [{{ d.missing }}]",
        "{{ d.items()|list|length }} {{ d.keys()|list }} {{ d.get('a') }} {{ d.items is callable }}",
        "{{ o.a }} {{ o.keys()|list }} {{ n.a }} {{ n.d.a }} {{ n.missing is defined }}",
        "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}",
    ]
    reference = Environment(autoescape=True)
    with app.test_request_context("/"):
        for source in sources:
            ours = app.jinja_env.from_string(source).render(**data)
            theirs = reference.from_string(source).render(**data)
            assert ours == theirs, (source, ours, theirs)
    assert type(app.jinja_env).__name__ == "TemplateEnvironment"
