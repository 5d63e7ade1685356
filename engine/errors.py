"""Errors the engine raises. Every message says in plain words what is wrong.

Every error carries a stable dotted ``code`` (``follow.count``) and its ``params`` (JSON values:
whole numbers, text, lists of card strings such as ``["10H", "HJ"]``, or a nested error
``{"code": …, "params": …}`` under ``cause``) besides its English sentence, so that an
application can word every refusal in its reader's language. ``CODES`` is the one place that
defines each code: code → English template with ``{param}`` placeholders. Raising with a code
that is not registered fails (``LookupError``), so every refusal has a template.

A reason that is returned rather than raised (``CallBook.why_not``) is a ``Reason``: a ``str``
(the same English sentence) that also carries its code and parameters.
"""

from __future__ import annotations

from typing import Any, Self

from .codes import CODES

__all__ = [
    "CODES",
    "CardError",
    "EngineError",
    "IllegalAction",
    "OptionError",
    "Reason",
    "render",
]


def _english(value: Any) -> Any:
    if isinstance(value, dict) and "code" in value:
        return render(value["code"], value.get("params") or {})
    if isinstance(value, list | tuple):  # cards with spaces between, numbers (seats) with commas
        sep = ", " if all(type(v) is int for v in value) else " "
        return sep.join(str(v) for v in value)
    return value


def render(code: str, params: dict[str, Any]) -> str:
    """The English sentence of ``code`` with ``params`` (a nested ``cause`` is worded too)."""
    try:
        template = CODES[code]
    except KeyError:
        raise LookupError(f"{code!r} is not a registered engine error code") from None
    return template.format_map({k: _english(v) for k, v in params.items()})


class Reason(str):
    """A refusal's English sentence, returned rather than raised, with its code and parameters."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, /, **params: Any) -> Reason:
        obj = super().__new__(cls, render(code, params))
        obj.code = code
        obj.params = params
        return obj


def _rebuild(cls: type[EngineError], code: str, params: dict[str, Any]) -> EngineError:
    return cls(code, **params)


class EngineError(ValueError):
    """Base class: bad input or an illegal action. Never a crash, never a guess.

    ``EngineError(code, **params)``: ``code`` must be registered in ``CODES``; ``str(e)`` is its
    English sentence."""

    code: str
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        text = render(code, params)
        super().__init__(text)
        self.code = code
        self.params = params

    @classmethod
    def because(cls, reason: Reason | EngineError) -> Self:
        """The error that says ``reason``: a returned ``Reason``, or another error's code and
        parameters (an error re-raised as another class)."""
        return cls(reason.code, **reason.params)

    def as_dict(self) -> dict[str, Any]:
        """``{"code": …, "params": …}``: JSON, and the ``cause`` of an error that wraps this one."""
        return {"code": self.code, "params": self.params}

    def __reduce__(self) -> Any:
        return (_rebuild, (type(self), self.code, self.params))


class CardError(EngineError):
    """An unknown card, or more copies of a card than the decks hold."""


class OptionError(EngineError):
    """An unknown variant, an unknown option, or a value the option does not allow."""


class IllegalAction(EngineError):
    """An action the rules do not allow at this moment (out of turn, wrong cards, wrong phase)."""
