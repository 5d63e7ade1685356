"""Demo data for ``make run``: a club with members with and without accounts.

Other features add their demo data with the ``demo_step`` decorator (the tournaments feature adds
one tournament per variant)::

    from app.demo import DemoData, demo_step

    @demo_step
    def demo_tournaments(data: DemoData) -> None:
        ...  # data.club, data.owner, data.members; add objects to db.session, do not commit

Steps run in registration order inside one transaction; ``load_demo`` commits once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import func, select

from .db import write_transaction
from .extensions import db
from .models import Club, Member, User
from .passwords import hash_password
from .services import ServiceError
from .services import clubs as club_services

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "shengji-demo"
DEMO_CLUB = "Demo Shengji Club 升级俱乐部"

# (login name or None, display name, role)
DEMO_PEOPLE: tuple[tuple[str | None, str, str], ...] = (
    ("lihua", "李华", "director"),
    ("emma", "Emma Chen", "player"),
    (None, "王伟", "player"),
    (None, "张敏", "player"),
    (None, "刘洋", "player"),
    (None, "Tom Baker", "player"),
    (None, "陈静", "player"),
    (None, "杨帆", "player"),
    (None, "赵磊", "player"),
    (None, "Sofia Rossi", "player"),
    (None, "黄蕾", "player"),
)


@dataclass
class DemoData:
    owner: User
    club: Club
    members: list[Member] = field(default_factory=list)


DemoStep = Callable[[DemoData], None]
DEMO_STEPS: list[DemoStep] = []


def demo_step(step: DemoStep) -> DemoStep:
    """Register a function that adds more demo data (see module doc)."""
    if step not in DEMO_STEPS:
        DEMO_STEPS.append(step)
    return step


def database_is_empty() -> bool:
    users = db.session.scalar(select(func.count(User.id))) or 0
    clubs = db.session.scalar(select(func.count(Club.id))) or 0
    return users == 0 and clubs == 0


def load_demo(if_empty: bool = True) -> DemoData | None:
    """Create the demo club and run every demo step; None when skipped (database not empty)."""
    with write_transaction():
        if if_empty and not database_is_empty():
            db.session.rollback()
            return None
        if db.session.scalar(select(User.id).where(User.username == DEMO_USERNAME)) is not None:
            db.session.rollback()
            raise ServiceError(f"The demo account '{DEMO_USERNAME}' exists already.")
        password_hash = hash_password(DEMO_PASSWORD)
        owner = User(username=DEMO_USERNAME, display_name="Demo Owner", password_hash=password_hash)
        db.session.add(owner)
        db.session.flush()
        club = club_services.create_club(owner, DEMO_CLUB)
        data = DemoData(owner=owner, club=club)
        for username, name, role in DEMO_PEOPLE:
            if username is None:
                data.members.append(club_services.add_member(club, name, role))
            else:
                user = User(username=username, display_name=name, password_hash=password_hash)
                db.session.add(user)
                member = Member(club=club, user=user, display_name=name, role=role)
                db.session.add(member)
                data.members.append(member)
        db.session.flush()
        for step in DEMO_STEPS:
            step(data)
        db.session.commit()
    return data
