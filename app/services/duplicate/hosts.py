"""The tournaments that host a duplicate event's online tables (``online.py`` makes one per
event played online): their sheets would show a board's results at other tables, so they are
the event's machinery, not club tournaments. Hidden everywhere a club's tournaments are read:
not in the club's tournament list, not on member pages, not a night a season may take, not in
the ratings (a duplicate board is scored against the field on the event's page, not as a match
won or lost); only the club's directors open their pages (``tournaments.lookup.tournament``).
A member bound to a seat of one still finds the table on the home page.

``is_host(tid)`` is a correlated SQL condition (no statement of its own), to put in the query
that reads the tournaments anyway.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, exists, select

from ...models import DuplicateOnlineTable, Round, Table


def is_host(tournament_id: Any) -> ColumnElement[bool]:
    """True for a tournament (its id column or value) hosting a duplicate event's tables."""
    return exists(
        select(DuplicateOnlineTable.id)
        .join(Table, Table.id == DuplicateOnlineTable.table_id)
        .join(Round, Round.id == Table.round_id)
        .where(Round.tournament_id == tournament_id)
    )


def not_host(tournament_id: Any) -> ColumnElement[bool]:
    return ~is_host(tournament_id)
