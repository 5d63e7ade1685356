"""Forms of the online tables' pages. Every move and director button posts with the CSRF token;
the move's own fields (``v``, ``kind``, ``cards``, ``card``) are read by the bridge, which refuses
anything it does not understand."""

from __future__ import annotations

from ..tournaments.forms import ConfirmForm


class MoveForm(ConfirmForm):
    """A seat's move (its fields are checked by the engine, not by the form)."""


class SeatControlForm(ConfirmForm):
    """A director's button on one seat: bot or player, who plays it (a member or a guest's
    link), a new link. ``seat`` and ``member`` are checked by the services."""


class PauseForm(ConfirmForm):
    """The director's pause / resume button of an online table."""
