"""The one error of the web table: a bad request, answered with its message and HTTP status.

Defined apart so that every module of :mod:`parlour.apps.web` raises it without importing the
others (the catalog, the replays and the sessions import it from here).
"""

from __future__ import annotations


class WebError(ValueError):
    """A bad request: the message says what was wrong (the HTTP status is ``status``)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
