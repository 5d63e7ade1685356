"""Errors the engine raises. Every message says in plain words what is wrong."""


class EngineError(ValueError):
    """Base class: bad input or an illegal action. Never a crash, never a guess."""


class CardError(EngineError):
    """An unknown card, or more copies of a card than the decks hold."""


class OptionError(EngineError):
    """An unknown variant, an unknown option, or a value the option does not allow."""


class IllegalAction(EngineError):
    """An action the rules do not allow at this moment (out of turn, wrong cards, wrong phase)."""
