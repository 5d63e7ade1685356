"""Every engine refusal has a stable code registered in ``engine.codes.CODES``.

The scan reads the engine's source: every construction of an ``EngineError`` class (or of a
returned ``Reason``) must name a registered code as a literal, and pass every parameter its
English template needs, so an application can word each refusal in its own language."""

from __future__ import annotations

import ast
import inspect
import json
import pickle
import string
from pathlib import Path

import pytest

import engine
from engine import (
    bots,
    calls,
    cards,
    combos,
    conformance,
    deal,
    game,
    hundred,
    hundred_bots,
    hundred_cases,
    hundred_rules,
    order,
    play,
    scoring,
    serialize,
    variants,
    views,
)
from engine.cards import parse_cards
from engine.codes import CODES
from engine.deal import new_deal
from engine.errors import CardError, EngineError, IllegalAction, Reason, render
from engine.order import TrumpContext
from engine.play import verify_follow
from engine.variants import make_variant

ENGINE = Path(engine.__file__).parent
MODULES = (bots, calls, cards, combos, conformance, deal, game, order, play, scoring)
MODULES += (serialize, variants, views)
MODULES += (hundred, hundred_bots, hundred_cases, hundred_rules)  # 打百分


def _error_classes() -> set[str]:
    names = {"Reason"}
    for module in MODULES:
        for name, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, EngineError):
                names.add(name)
    return names


def _sites() -> list[tuple[str, int, ast.Call]]:
    """Every construction of an engine error class in the engine's source."""
    classes = _error_classes()
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        if path.name in ("errors.py", "codes.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in classes
            ):
                found.append((path.name, node.lineno, node))
    return found


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


SITES = _sites()


def test_the_scan_finds_the_raise_sites():
    files = {f for f, _, _ in SITES}
    assert len(SITES) > 200
    assert {"deal.py", "play.py", "calls.py", "scoring.py", "serialize.py", "bots.py"} <= files
    assert {"combos.py", "order.py", "game.py", "variants.py", "cards.py", "views.py"} <= files
    assert "conformance.py" in files


@pytest.mark.parametrize(("where", "call"), [(f"{f}:{n}", c) for f, n, c in SITES])
def test_every_site_names_a_registered_code_and_its_params(where, call):
    assert call.args, f"{where}: an engine error needs its code"
    first = call.args[0]
    assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
        f"{where}: the code is a literal string, not {ast.unparse(first)}"
    )
    code = first.value
    assert code in CODES, f"{where}: {code!r} is not registered in engine.codes.CODES"
    assert len(call.args) == 1, f"{where}: parameters are passed by name"
    given = {k.arg for k in call.keywords}
    assert None not in given, f"{where}: parameters are named, not **unpacked"
    missing = _placeholders(CODES[code]) - given
    assert not missing, f"{where}: {code} needs {sorted(missing)}"


def test_every_registered_code_is_used():
    used = {c.args[0].value for _, _, c in SITES if c.args and isinstance(c.args[0], ast.Constant)}
    assert set(CODES) - used == set()


def test_codes_are_dotted_and_templates_render():
    for code, template in CODES.items():
        assert code.count(".") == 1 and code == code.lower(), code
        sample = {name: 1 for name in _placeholders(template)}
        assert render(code, sample)


def test_an_unregistered_code_fails():
    with pytest.raises(LookupError, match="not a registered engine error code"):
        EngineError("follow.nonsense")
    with pytest.raises(LookupError):
        IllegalAction("Please follow suit")  # an English sentence is not a code
    with pytest.raises(LookupError):
        Reason("call.nonsense")


def test_a_wrong_size_follow_carries_code_params_and_the_same_sentence():
    ctx = TrumpContext(make_variant("tractor-4p"), "2", "S")
    with pytest.raises(IllegalAction) as info:
        verify_follow(
            parse_cards(["AH", "AH"]), parse_cards(["3H", "4H", "5H"]), parse_cards(["3H"]), ctx
        )
    e = info.value
    assert (e.code, e.params) == ("follow.count", {"lead": 2, "play": 1})
    assert str(e) == "the lead has 2 cards, so play 2, not 1"
    assert json.loads(json.dumps(e.as_dict())) == {"code": "follow.count", "params": e.params}
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is IllegalAction and again.as_dict() == e.as_dict()


def test_follow_suit_names_the_cards_as_card_strings():
    ctx = TrumpContext(make_variant("tractor-4p"), "2", "S")
    hand = parse_cards(["3H", "4H", "6C"])
    with pytest.raises(IllegalAction) as info:
        verify_follow(parse_cards(["AH"]), hand, parse_cards(["6C"]), ctx)
    e = info.value
    assert e.code == "follow.suit"
    assert e.params == {"held": 2, "suit": "H", "lead": 1, "cards": ["6C"]}
    assert str(e) == "you hold 2 cards of H: follow with 1 of them, not 6C"


def test_a_deal_refuses_out_of_turn_and_an_unknown_card_with_codes():
    d = new_deal("tractor-4p", seed=3)
    with pytest.raises(IllegalAction) as info:
        d.pass_(0)
    assert info.value.code == "phase.pass" and info.value.params == {"phase": "draw"}
    with pytest.raises(CardError) as info2:
        d.call(0, ["ZZ"])
    assert info2.value.code == "card.unknown"


def test_a_returned_reason_is_the_sentence_and_raises_with_its_code():
    v = make_variant("tractor-4p")
    reason = calls.call_shape(v, "2", parse_cards(["2H", "LJ"]))
    assert isinstance(reason, Reason)
    assert reason.code == "call.joker_colour" and reason.params == {"suit": "H", "card": "HJ"}
    assert reason == "a call in H needs the joker of its colour (HJ), not the other joker"
    e = IllegalAction.because(reason)
    assert (e.code, e.params, str(e)) == (reason.code, reason.params, str(reason))


def test_a_wrapping_error_keeps_the_cause_as_data():
    d = new_deal("tractor-4p", seed=3)
    log = [{"kind": "pass", "seat": 0}]
    with pytest.raises(EngineError) as info:
        serialize.replay_setup(d.setup, log)
    e = info.value
    assert e.code == "log.action"
    assert e.params["cause"] == {"code": "phase.pass", "params": {"phase": "draw"}}
    assert str(e) == (
        "action 1 of the log (pass by seat 0): there is nothing to pass on in phase draw"
    )


def test_every_refusal_the_junk_fuzz_meets_has_json_params(monkeypatch):
    """The API fuzz (junk to every public function) raises thousands of errors: each one's
    parameters are JSON, so an application can keep and word them."""
    from tests.engine import test_engine_api_fuzz as fuzz

    seen: dict[str, int] = {}
    init = EngineError.__init__

    def checked(self, code, /, **params):
        json.dumps(params)  # raises TypeError for a value that is not JSON
        seen[code] = seen.get(code, 0) + 1
        init(self, code, **params)

    monkeypatch.setattr(EngineError, "__init__", checked)
    fuzz.test_junk_arguments_raise_only_engine_errors(0)
    assert len(seen) >= 60, sorted(seen)
