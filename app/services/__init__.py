"""Business operations. Views validate input shape with forms, call a service, then commit once.

Services never commit: they add and flush, and raise ``ServiceError`` (with an already
translated message and, when it belongs to one, the form field's name) when an operation is
refused. The view shows the message on the field and the request's transaction is rolled back,
so nothing is half-saved.
"""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class StaleError(ServiceError):
    """Refused because what the form showed has changed since (another director, a second
    device, an online table): nothing was saved; the page should show what is stored now."""


__all__ = ["ServiceError", "StaleError"]
