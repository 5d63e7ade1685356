"""Demo tournaments for ``flask demo``: one per variant in the demo club, round 1 seated and a
few deals entered, so the standings page shows something; they are public, so their standings'
links open without logging in."""

from __future__ import annotations

from contextlib import nullcontext

from flask import current_app, has_request_context

from ..competition.model import Deal, FailedThrows
from ..demo import DemoData, demo_step
from ..services import tournaments as svc
from ..services.visibility import set_visibility

WIN_DRAW_LOSS = {"win": 2, "draw": 1, "loss": 0}


@demo_step
def demo_tournaments(data: DemoData) -> None:
    ctx = nullcontext() if has_request_context() else current_app.test_request_context()
    with ctx:
        _build(data)


def _build(data: DemoData) -> None:
    club = data.club
    actor = svc.Actor(label=data.owner.display_name, user=data.owner, owner=True, director=True)
    people = [data.owner.display_name] + [m.display_name for m in data.members]

    # 升级: four pairs, 4 deals a match
    t = svc.create_tournament(
        club,
        data.owner,
        "Demo 升级 Swiss",
        "tractor-4p",
        {},
        "swiss",
        3,
        {"deals": 4},
        dict(WIN_DRAW_LOSS),
    )
    for i in range(4):
        svc.add_entrant(club, t, None, people[2 * i : 2 * i + 2], actor)
    rnd = svc.seat_next_round(t, actor)
    first, second = [tab for tab in rnd.tables if tab.kind == "sides"][:2]
    for d in (
        Deal(points=85, kitty=10, trump="S", declarer=0, multiplier=4),
        Deal(points=35, kitty=0, trump=None, declarer=1, failed_throws=FailedThrows(1, 0)),
        Deal(points=0, kitty=0, trump="H", declarer=1),
        Deal(points=60, kitty=5, trump="C", declarer=1, level="7"),
    ):
        svc.record_deal(t, first, d, actor)
    svc.record_deal(t, second, Deal(points=120, kitty=15, trump="D", declarer=0), actor)

    # 红五: ten individuals, 4 deals a table
    t5 = svc.create_tournament(
        club,
        data.owner,
        "Demo 红五 Re-seat",
        "red-five-5p",
        {},
        "reseat",
        3,
        {"deals": 4},
        dict(WIN_DRAW_LOSS),
    )
    for name in people[:10]:
        svc.add_entrant(club, t5, name, [name], actor)
    rnd5 = svc.seat_next_round(t5, actor)
    tab5 = rnd5.tables[0]
    for d in (
        Deal(points=45, kitty=10, trump="H", dealer=0, friend=2),
        Deal(points=150, kitty=20, trump="S", dealer=0, friend=3, multiplier=4),
        Deal(points=0, kitty=0, trump="C", dealer=4, friend=None),
        Deal(points=95, kitty=5, trump="D", dealer=4, friend=1, failed_throws=(2,)),
    ):
        svc.record_deal(t5, tab5, d, actor)

    # 120分: four trios play to A
    t6 = svc.create_tournament(
        club,
        data.owner,
        "Demo 120分 Round robin",
        "one-twenty-6p",
        {},
        "round-robin",
        3,
        {"to_a": True},
        dict(WIN_DRAW_LOSS),
    )
    for i in range(4):
        svc.add_entrant(club, t6, None, people[3 * i : 3 * i + 3], actor)
    rnd6 = svc.seat_next_round(t6, actor)
    tab6 = [tab for tab in rnd6.tables if tab.kind == "sides"][0]
    for d in (
        Deal(points=50, kitty=10, trump="S", declarer=0),
        Deal(points=130, kitty=0, trump=None, declarer=0, misplays=(0,)),
    ):
        svc.record_deal(t6, tab6, d, actor)
    # the demo's nights are public, so their standings open by their link without logging in
    for night in (t, t5, t6):
        set_visibility(night, "public")
