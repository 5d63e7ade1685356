"""A tournament file with competition penalties (RULES §7) and ten_per_card failed throws goes
through the database unchanged: import, export, standings (a match lost by strikes counted as a
forfeit loss)."""

from __future__ import annotations

import json

from app.competition import tfile
from tests.competition.test_competition_penalties import doc, fixed, red_doc


def _round_trip(runner, tmp_path, document) -> None:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    r = runner.invoke(args=["tournament", "import", str(path)])
    assert r.exit_code == 0, r.output
    out = runner.invoke(args=["tournament", "export", document["name"]])
    assert json.loads(out.stdout) == tfile.dump(tfile.load(document))
    s = runner.invoke(args=["tournament", "standings", document["name"], "--json"])
    assert json.loads(s.stdout) == tfile.standings_json(tfile.load(document))


def test_penalties_and_strikes_survive_the_database(runner, tmp_path):
    deals = [
        fixed(0, 60, ("takeback", "attackers")),
        fixed(0, 60, ("revoke", "declarer"), failed_throws={"declarer": [2], "attackers": []}),
        fixed(1, 0, ("miscount", "declarer"), ("takeback", "declarer")),
    ]
    document = doc({"strikes_lose_match": 3, "throw_penalty": "ten_per_card"}, deals, match=6)
    _round_trip(runner, tmp_path, document)
    s = runner.invoke(args=["tournament", "standings", document["name"], "--json"])
    rows = {r["entrant"]: r for r in json.loads(s.stdout)}
    assert rows["South"]["match_points"] == 0 and rows["South"]["level_diff"] == -3
    assert rows["North"]["match_points"] == 2 and rows["North"]["rank"] == 1
    out = json.loads(runner.invoke(args=["tournament", "export", document["name"]]).stdout)
    kept = out["played"][0]["tables"][0]["deals"]
    assert kept[2]["penalties"] == [
        {"kind": "miscount", "side": "declarer"},
        {"kind": "takeback", "side": "declarer"},
    ]
    assert kept[1]["failed_throws"] == {"declarer": [2], "attackers": []}


def test_red_five_penalties_survive_the_database(runner, tmp_path):
    deals = [
        {
            "dealer": 0,
            "friend": 2,
            "trump": "S",
            "points": 130,
            "kitty": 0,
            "penalties": [{"kind": "revoke", "seat": 3}],
        }
    ]
    _round_trip(runner, tmp_path, red_doc(deals))


def test_the_audit_trail_words_penalties_in_both_languages(app):
    from flask_babel import force_locale

    from app.services.tournaments.audit import _words

    recorded = [{"kind": "revoke", "side": "declarer"}, {"kind": "takeback", "seat": 2}]
    names = (["North", "South"], ["张三", "李四", "王五", "赵六", "钱七"])
    with app.test_request_context():
        with force_locale("en"):
            assert _words("penalties", recorded, names) == (
                "revoke (出错牌) by the declarer side, take-back (悔牌) by 王五"
            )
        with force_locale("zh"):
            assert _words("penalties", recorded, names) == "庄家方出错牌, 王五悔牌"


def test_warnings_survive_the_database_and_bad_ones_are_named(runner, tmp_path):
    deals = [fixed(0, 60), fixed(0, 40, ("takeback", "attackers"))]
    deals[0]["warnings"] = [{"seat": 3, "reason": "slow play"}]
    document = doc({}, deals, match=4)
    _round_trip(runner, tmp_path, document)
    out = json.loads(runner.invoke(args=["tournament", "export", document["name"]]).stdout)
    kept = out["played"][0]["tables"][0]["deals"]
    assert kept[0]["warnings"] == [{"seat": 3, "reason": "slow play"}]
    assert "warnings" not in kept[1]
    # a warning counts for nothing: the standings are those of the file without it
    plain = json.loads(json.dumps(document))
    del plain["played"][0]["tables"][0]["deals"][0]["warnings"]
    assert tfile.standings_json(tfile.load(plain)) == tfile.standings_json(tfile.load(document))
    # a reason that is not text, a field of its own; a seat that is not at the table
    text = _errors(document, [{"seat": 1, "reason": 5}, {"seat": 1, "reason": "x", "points": 10}])
    assert "deals[0].warnings[0].reason: must be text, not 5" in text, text
    assert "deals[0].warnings[1].points: unknown field" in text, text
    text = _errors(document, [{"seat": 7, "reason": "x"}])
    assert "deals[0].warnings: 7 is not the seat warned 0 … 3" in text, text


def _errors(document, warnings) -> str:
    bad = json.loads(json.dumps(document))
    bad["played"][0]["tables"][0]["deals"][0]["warnings"] = warnings
    try:
        tfile.load(bad)
    except tfile.TournamentFileError as exc:
        return str(exc)
    raise AssertionError("bad warnings were read")
