"""Seat links: each seat of an online table has a secret token; its link shows that seat's view
and accepts that seat's moves, nothing else."""

from __future__ import annotations

import secrets

from sqlalchemy import select

from ...extensions import db
from ...models import OnlineSeat, Table

TOKEN_BYTES = 18  # 144 bits: a seat's link cannot be guessed


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def seats_of(tab: Table) -> list[OnlineSeat]:
    return list(
        db.session.scalars(
            select(OnlineSeat).where(OnlineSeat.table_id == tab.id).order_by(OnlineSeat.seat)
        )
    )


def seat_by_token(token: str) -> OnlineSeat | None:
    if not token or len(token) > 40:
        return None
    return db.session.scalar(select(OnlineSeat).where(OnlineSeat.token == token))
