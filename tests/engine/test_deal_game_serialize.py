"""Games to A, JSON snapshots, replay of self-play logs, and bad input everywhere."""

import json

import pytest

from engine.bots import RandomBot, make_bots, play_deal
from engine.deal import Deal, DealSetup, Record, new_deal
from engine.errors import EngineError, IllegalAction, OptionError
from engine.game import Game
from engine.scoring import level_index
from engine.selfplay import main as selfplay_main
from engine.serialize import dumps, from_json, replay, replay_setup, to_json
from engine.views import seat_view, spectator_view


@pytest.mark.parametrize("variant", ["tractor-4p", "one-twenty-6p"])
def test_game_to_a(variant):
    game = Game(variant, seed=3)
    prev = ("2", "2")
    for _ in range(300):
        if game.over:
            break
        deal = game.next_deal()
        play_deal(deal, make_bots("random", deal.n, deal.setup.seed))
        s = game.record(deal)
        assert all(
            level_index(a) >= level_index(b) for a, b in zip(s.levels_after, prev, strict=True)
        )
        prev = s.levels_after
        if s.outcome == "played":
            assert deal.dealer is not None and deal.level == game.history[-1].level
    assert game.over and game.passed_by in (0, 1)
    assert game.levels[game.passed_by] == "A"
    with pytest.raises(IllegalAction, match="over"):
        game.next_deal()


def test_game_dealer_rotation_and_redeal():
    game = Game("tractor-4p", seed=11)
    for _ in range(12):
        deal = game.next_deal()
        play_deal(deal, make_bots("random", 4, deal.setup.seed))
        before_dealer = deal.dealer
        s = game.record(deal)
        if s.outcome == "redeal":
            assert game.dealer == before_dealer
        elif s.winner == "declarer":
            assert game.dealer == (before_dealer + 2) % 4
        else:
            assert game.dealer == (before_dealer + 1) % 4
        assert not game.first


def test_one_twenty_misplays_skip_levels():
    game = Game("one-twenty-6p", seed=5)
    found = False
    for _ in range(60):
        deal = game.next_deal()
        bots = [RandomBot(deal.setup.seed + s, throw_rate=0.5) for s in range(6)]
        play_deal(deal, bots)
        before = game.levels
        s = game.record(deal)
        if s.outcome == "played" and s.misplays and not game.over:
            side = deal.dealer % 2
            gains = [0, 0]
            gains[side if s.winner == "declarer" else 1 - side] += s.gain
            for m in s.misplays:
                gains[1 - m] += 1
            for k in (0, 1):
                expect = min(level_index(before[k]) + gains[k], 12)
                stops = [i for i in (12,) if level_index(before[k]) < i <= expect]
                assert level_index(game.levels[k]) == (stops[0] if stops else expect)
            found = True
        if game.over:
            break
    assert found


def test_red_five_game_scores_add_up():
    game = Game("red-five-5p", seed=2)
    for _ in range(5):
        deal = game.next_deal()
        prev = deal.prev_dealer
        play_deal(deal, make_bots("heuristic", 5, deal.setup.seed))
        game.record(deal)
        if deal.first_to_call is None:
            assert deal.dealer == prev
    assert sum(game.scores) == 0
    assert game.scores == [sum(h.scores[i] for h in game.history) for i in range(5)]


def test_snapshot_roundtrip_and_tamper():
    deal = new_deal("red-five-5p", seed=9)
    play_deal(deal, make_bots("random", 5, 9))
    text = dumps(deal)
    assert json.loads(text)["schema"] == 1
    assert from_json(text).state_dict() == deal.state_dict()
    data = to_json(deal)
    data["state"]["won"][0] += 5
    with pytest.raises(EngineError, match="does not match"):
        from_json(data)
    data = to_json(deal)
    data["schema"] = 2
    with pytest.raises(EngineError, match="schema"):
        from_json(data)
    with pytest.raises(EngineError, match="not JSON"):
        from_json("{nope")


def test_replay_mid_deal_and_bad_logs():
    deal = new_deal("tractor-4p", seed=4)
    bots = make_bots("random", 4, 4)
    while deal.phase != "play" and deal.outcome is None:
        if deal.phase == "draw":
            deal.draw()
        else:
            seat = deal.to_act
            from engine.bots import perform

            perform(deal, bots[seat].act(deal, seat))
    log = [r.to_json() for r in deal.log]
    again = replay("tractor-4p", {}, 4, log)
    assert again.state_dict() == deal.state_dict()
    with pytest.raises(EngineError, match="does not match the seed"):
        replay("tractor-4p", {}, 5, log)
    bad = list(log) + [{"kind": "play", "seat": 9, "cards": ["AS"]}]
    with pytest.raises(EngineError, match="action"):
        replay("tractor-4p", {}, 4, bad)
    with pytest.raises(EngineError, match="unknown action kind"):
        Record.from_json({"kind": "cheat", "seat": 0})
    with pytest.raises(EngineError):
        Record.from_json({"kind": "play", "seat": 0, "cards": ["ZZ"]})
    with pytest.raises(EngineError):
        replay_setup(DealSetup("tractor-4p"), "not a list")


def test_selfplay_log_replays(tmp_path, capsys):
    path = tmp_path / "log.jsonl"
    for variant in ("tractor-4p", "red-five-5p", "one-twenty-6p"):
        assert (
            selfplay_main(
                [
                    "--variant",
                    variant,
                    "--deals",
                    "3",
                    "--seed",
                    "7",
                    "--log",
                    str(path),
                    "--bots",
                    "heuristic",
                ]
            )
            == 0
        )
        out = capsys.readouterr().out
        assert "total: 3 deals" in out
        lines = path.read_text().splitlines()
        assert len(lines) == 3
        for line in lines:
            rec = json.loads(line)
            deal = replay_setup(DealSetup.from_json(rec["setup"]), rec["log"])
            assert deal.outcome is not None
            assert f"seed {deal.setup.seed}" in out
    assert selfplay_main(["--variant", "tractor-4p", "--deals", "4", "--game"]) == 0
    assert "levels" in capsys.readouterr().out


def test_views_are_json_and_redacted():
    deal = new_deal("one-twenty-6p", seed=3)
    play_deal(deal, make_bots("random", 6, 3))
    for seat in range(6):
        json.dumps(seat_view(deal, seat))
    spec = spectator_view(deal)
    assert spec["hand"] is None and "hands" not in spec
    with pytest.raises(IllegalAction):
        seat_view(deal, 6)


def test_bad_setups():
    with pytest.raises(OptionError):
        new_deal("bridge")
    with pytest.raises(EngineError, match="seed"):
        new_deal("tractor-4p", seed="x")
    with pytest.raises(EngineError, match="dealer"):
        new_deal("tractor-4p", dealer=4)
    with pytest.raises(EngineError, match="later deal needs its dealer"):
        new_deal("tractor-4p", first=False)
    with pytest.raises(EngineError, match="level"):
        new_deal("tractor-4p", levels=("1", "2"))
    with pytest.raises(EngineError, match="level 2"):
        new_deal("red-five-5p", levels=("3", "2"))
    with pytest.raises(EngineError, match="race"):
        new_deal("tractor-4p", race=True)
    with pytest.raises(EngineError, match="stacked pack"):
        Deal(DealSetup("tractor-4p", pack=(1, 2, 3)))
    with pytest.raises(EngineError, match="unknown deal setup"):
        DealSetup.from_json({"variant": "tractor-4p", "colour": 1})


def test_bad_actions_change_nothing():
    deal = new_deal("tractor-4p", seed=1)
    before = deal.state_dict()
    for bad in (
        lambda: deal.play(0, ["AS"]),
        lambda: deal.bury(0, []),
        lambda: deal.call(0, ["XX"]),
        lambda: deal.call(7, ["HJ", "HJ"]),
        lambda: deal.call(0, "HJ HJ"),
        lambda: deal.call_friend(0, "AS"),
        lambda: deal.redeal(1),
        lambda: deal.pass_(0),
    ):
        with pytest.raises(EngineError):
            bad()
    assert deal.state_dict() == before and deal.log == []
    assert deal.can_draw() and not deal.can_play(0, ["AS"])


def test_heuristic_dealer_side_concedes_fewer_points_than_random():
    from statistics import mean

    from engine.bots import HeuristicBot

    def conceded(heuristic_dealer: bool) -> float:
        totals = []
        for seed in range(30):
            bots = [
                (HeuristicBot if (s % 2 == 0) == heuristic_dealer else RandomBot)(seed * 10 + s)
                for s in range(4)
            ]
            d = new_deal("tractor-4p", seed=seed, dealer=0, first=False)
            play_deal(d, bots)
            if d.outcome == "played" and d.dealer % 2 == 0:
                totals.append(d.result.total)
        return mean(totals)

    assert conceded(True) + 20 < conceded(False)


def test_bad_setup_shapes():
    with pytest.raises(EngineError, match="levels"):
        Deal(DealSetup("tractor-4p", levels=5))  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="options"):
        Deal(DealSetup("tractor-4p", options=[1]))  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="options"):
        DealSetup.from_json({"variant": "tractor-4p", "options": [1]})


@pytest.mark.parametrize("variant", ["tractor-4p", "red-five-5p", "one-twenty-6p"])
def test_game_snapshot_replays(variant):
    from engine.bots import perform
    from engine.serialize import game_from_json, game_to_json

    game = Game(variant, seed=8)
    for _ in range(3):
        deal = game.next_deal()
        play_deal(deal, make_bots("random", deal.n, deal.setup.seed))
        game.record(deal)
    deal = game.next_deal()
    while deal.outcome is None and deal.version < 150:  # stop in the middle of a deal
        if deal.phase == "draw":
            deal.draw()
        else:
            perform(deal, make_bots("random", deal.n, 1)[deal.to_act].act(deal, deal.to_act))
    text = json.dumps(game_to_json(game))
    again = game_from_json(text)
    assert again.state_dict() == game.state_dict()
    assert again.current.state_dict() == deal.state_dict()
    assert again.current.version == deal.version == len(deal.log)
    data = game_to_json(game)
    data["state"]["levels"] = ["A", "A"]
    with pytest.raises(EngineError, match="does not match"):
        game_from_json(data)


def test_game_refuses_a_double_record():
    game = Game("tractor-4p", seed=1)
    deal = game.next_deal()
    with pytest.raises(IllegalAction, match="not finished"):
        game.record(deal)
    play_deal(deal, make_bots("random", 4, 1))
    game.record(deal)
    with pytest.raises(IllegalAction, match="already recorded"):
        game.record(deal)


def test_random_bot_follows_legally_without_play_internals(monkeypatch):
    import types

    import engine.bots as bots_mod
    import engine.play as play_mod

    public = types.SimpleNamespace(
        **{k: getattr(play_mod, k) for k in dir(play_mod) if not k.startswith("_")}
    )
    monkeypatch.setattr(bots_mod, "rules", public)
    for seed in range(3):
        deal = new_deal("one-twenty-6p", seed=seed)
        play_deal(deal, make_bots("random", 6, seed))
        assert deal.outcome is not None
