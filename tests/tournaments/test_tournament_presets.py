"""Rule presets on the set-up form: chosen, the form filled (options, match length, tie-break),
then changed before saving; the preset's name on the tournament, in its file and on the printed
score sheet."""

from __future__ import annotations

import io
import json
import re

import pypdf
from tournament_helpers import add_entrants, login, seat, world

from app.extensions import db
from app.models import Tournament
from tests.tournaments.test_tournament_setup import BASE


def _selected(html: str, name: str) -> str:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    for option in re.findall(r"<option[^>]*>", select.group(1)):
        if re.search(r"\sselected", option):
            value = re.search(r'value="([^"]*)"', option)
            assert value, option
            return value.group(1)
    raise AssertionError(f"nothing selected in {name}")


def _value(html: str, name: str) -> str:
    m = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html
    )
    assert m, name
    return m.group(1)


def test_a_preset_fills_the_form_and_every_option_stays_editable(client):
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new"
    html = client.get(url).get_data(as_text=True)
    assert "Competition 升级" in html and "First past 10" in html
    assert "three penalties lose the match" in html  # the preset's words
    html = client.get(url, query_string={"preset": "competition-tractor"}).get_data(as_text=True)
    assert _selected(html, "opt_throw_penalty") == "ten_per_card"
    assert _selected(html, "opt_revoke_effect") == "ends_deal"
    assert _value(html, "opt_strikes_lose_match") == "3"
    assert _selected(html, "match_kind") == "minutes" and _value(html, "match_value") == "90"
    assert _selected(html, "tie_break") == "on_stage"
    assert _value(html, "preset") == "competition-tractor"
    # the director changes two things before saving: 2 strikes, 60 minutes
    form = {
        **BASE,
        "name": "Club Open",
        "preset": "competition-tractor",
        "match_kind": "minutes",
        "match_value": 60,
        "tie_break": "on_stage",
        "opt_throw_penalty": "ten_per_card",
        "opt_revoke_effect": "ends_deal",
        "opt_takeback_effect": "level",
        "opt_strikes_lose_match": "2",
    }
    r = client.post(url, data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[:3000]
    t = db.session.query(Tournament).filter_by(name="Club Open").one()
    assert t.preset == "competition-tractor"
    assert t.options == {"throw_penalty": "ten_per_card", "strikes_lose_match": 2}
    assert t.match == {"minutes": 60, "tie_break": "on_stage"}
    page = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    assert "60 minutes; equal levels: the side on stage" in page
    assert "Preset: Competition 升级" in page
    # Chinese words of the presets
    client.post("/lang", data={"lang": "zh", "next": "/"})
    html = client.get(url, query_string={"preset": "first-past-10"}).get_data(as_text=True)
    assert "升级比赛" in html and "打过 10" in html and "规则预设：打过 10" in html
    assert _selected(html, "match_kind") == "to_a" and _selected(html, "target") == "10"


def test_a_preset_of_another_game_switches_the_game(client):
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new"
    html = client.get(url, query_string={"preset": "competition-one-twenty"}).get_data(as_text=True)
    assert _selected(html, "variant") == "one-twenty-6p"
    assert _selected(html, "tie_break") == "extra_deal" and _value(html, "match_value") == "60"
    html = client.get(url, query_string={"preset": "competition-red-five"}).get_data(as_text=True)
    assert _selected(html, "variant") == "red-five-5p" and _value(html, "match_value") == "10"
    # an unknown preset on the address: the plain form
    html = client.get(url, query_string={"preset": "nope"}).get_data(as_text=True)
    assert _value(html, "preset") == "club"


def test_the_preset_travels_in_the_file_and_on_the_printed_sheet(client, runner, tmp_path):
    w = world()
    login(client, w.director)
    url = f"/clubs/{w.club.slug}/tournaments/new"
    form = {
        **BASE,
        "name": "Open",
        "preset": "first-past-10",
        "match_kind": "to_a",
        "target": "10",
        "tie_break": "draw",
        "opt_must_play_levels": "10, A",
    }
    assert client.post(url, data=form).status_code == 303
    t = db.session.query(Tournament).filter_by(name="Open").one()
    assert t.match == {"to_a": True, "target": "10"} and t.preset == "first-past-10"
    add_entrants(client, w.club, t, 4, 2)
    rnd = seat(client, w.club, t)
    out = runner.invoke(args=["tournament", "export", "Open"])
    doc = json.loads(out.stdout)
    assert doc["preset"] == "first-past-10" and doc["match"] == {"to_a": True, "target": "10"}
    doc["name"] = "Open again"
    path = tmp_path / "again.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert runner.invoke(args=["tournament", "import", str(path)]).exit_code == 0
    again = json.loads(runner.invoke(args=["tournament", "export", "Open again"]).stdout)
    assert {k: v for k, v in again.items() if k != "name"} == {
        k: v for k, v in doc.items() if k != "name"
    }
    pdf = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}/rounds/{rnd.number}/sheets.pdf").data
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "规则预设 Rule preset: 打过 10 First past 10" in text.replace("\n", " ")
