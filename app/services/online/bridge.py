"""Online tables: the one app module that drives the rules engine.

A table of a round is played in the browser: each seat has a secret link (``OnlineSeat.token``)
that shows that seat's view and accepts that seat's moves; seats marked as bots are played here,
synchronously, after every change (no thread, no game state in process memory). Every request
rebuilds the current deal by replaying its seed, setup and log (``OnlineDeal``/``OnlineAction``);
a move carries the state token its player saw (``"<deal number>.<version>"``) and a stale or
repeated one changes nothing (``Stale``). The ORM checks the version on write (compare and swap),
so two workers cannot both append to the same version.

A finished deal is written to the score sheet through ``tournament_sheets.record_deal`` — the
same path as a typed paper deal — from the engine's result; the next deal starts with the levels
the sheet derives and the dealer the engine's rules give, until the match is complete.

The draw is the engine's chance step, performed here. When a human seat draws a card that makes
a trump call possible, the deal pauses for that seat: it calls, or continues the draw (a
``{"kind": "continue"}`` entry in the log, which replay skips).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from engine.bots import RandomBot, perform
from engine.cards import HJ, LJ, card_str, parse_card
from engine.deal import DRAW, Deal, DealSetup, Record, apply
from engine.errors import EngineError
from engine.scoring import next_dealer
from engine.variants import ONE_TWENTY, RED_FIVE, TRACTOR
from engine.views import seat_view

from ...competition import model as cm
from ...competition.matches import FixedMatch
from ...extensions import db
from ...models import OnlineAction, OnlineDeal, OnlineSeat, Table, Tournament
from .. import ServiceError
from ..tournament_audit import Actor, audit
from ..tournament_rows import variant_of
from ..tournament_sheets import may_edit, record_deal, sheet
from . import botchoice
from .refusals import refusal_text
from .seats import new_token, seats_of

CONTINUE = "continue"
MAX_STEPS = 20_000  # a safety net for the bot loop (a whole 4-deck deal is ~300 steps)
# A table of bots only would play a timed match forever in one request: after this many steps
# no new deal is started until the next change at the table (a director's action).
DEAL_BUDGET = 6_000
GAME_ACTOR = Actor(label="online game")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Which engine bot plays the bot seats: each seat's strength (botchoice.py); ``flask tournament
# run-bots --bots KIND`` sets one kind for every seat for its run (autoplay.py).
BOT_KIND: ContextVar[str | None] = botchoice.FORCED_KIND


class Stale(ServiceError):
    """The move was made on a state that has changed since (answer 409)."""


class IllegalMove(ServiceError):
    """The engine (or the table) refuses the move; nothing changed (answer 422)."""


# --- loading ---------------------------------------------------------------------------------------


@dataclass
class Live:
    """The current deal of a table rebuilt from its log, plus the entries added meanwhile."""

    row: OnlineDeal
    deal: Deal
    entries: list[dict[str, Any]]
    humans: frozenset[int]
    new: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    levels: dict[int, str] = field(default_factory=dict)  # the bot seats' strengths

    def add(self, entry: dict[str, Any], actor: str) -> None:
        self.entries.append(entry)
        self.new.append((entry, actor))

    def pause(self) -> int | None:
        """The human seat the draw waits for (it may call with the card it just drew)."""
        deal = self.deal
        if deal.phase != DRAW or not self.entries or self.entries[-1]["kind"] != "draw":
            return None
        seat = self.entries[-1]["seat"]
        if seat not in self.humans or not deal.can_call_now(seat):
            return None
        card = deal.log[-1].cards[0]
        return seat if any(card in call for call in deal.legal_calls(seat)) else None

    def waiting_for(self) -> int | None:
        """The seat whose decision the deal waits for (None: the draw goes on, or done)."""
        if self.deal.outcome is not None:
            return None
        if self.deal.phase == DRAW:
            return self.pause()
        return self.deal.to_act


def state_token(tab: Table) -> str:
    """What a seat's page saw: changes with every entry of every deal (cheap: no replay)."""
    row = current_row(tab)
    return "0.0" if row is None else f"{row.number}.{row.version}"


def current_row(tab: Table) -> OnlineDeal | None:
    return db.session.scalar(
        select(OnlineDeal)
        .where(OnlineDeal.table_id == tab.id)
        .order_by(OnlineDeal.number.desc())
        .limit(1)
    )


def _humans(tab: Table) -> frozenset[int]:
    return frozenset(s.seat for s in seats_of(tab) if not s.bot)


def _load(row: OnlineDeal, humans: frozenset[int], levels: dict[int, str] | None = None) -> Live:
    deal = Deal(DealSetup.from_json(row.setup))
    entries: list[dict[str, Any]] = []
    for action in row.actions:
        entry = dict(action.record)
        entries.append(entry)
        if entry["kind"] != CONTINUE:
            apply(deal, Record.from_json(entry))
    return Live(row, deal, entries, humans, levels=dict(levels or {}))


def load(tab: Table) -> Live | None:
    row = current_row(tab)
    levels = {s.seat: s.bot_level for s in seats_of(tab)}
    return None if row is None else _load(row, _humans(tab), levels)


# --- the director's side ----------------------------------------------------------------------


def tournament_of(tab: Table) -> Tournament:
    t = db.session.get(Tournament, tab.round.tournament_id)
    assert t is not None
    return t


def switch_online(t: Tournament, tab: Table, actor: Actor) -> None:
    """Make a table online before its first deal: a secret link per seat, the first deal dealt."""
    if tab.mode == "online":
        raise ServiceError(_("This table is already played online."))
    if tab.kind == "bye":
        raise ServiceError(_("A bye has no deals."))
    if tab.forfeit is not None:
        raise ServiceError(_("This table was forfeited: it has no deals."))
    if tab.deals:
        raise ServiceError(_("Deals are entered at this table: it can only go online before them."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    tab.mode = "online"
    for seat in range(variant_of(t).players):
        db.session.add(OnlineSeat(table_id=tab.id, seat=seat, token=new_token()))
    db.session.flush()
    t.bump()
    audit(t, actor, "online", _where(tab), {"mode": "paper"}, {"mode": "online"})
    _start_next(t, tab, None)
    advance(t, tab)


def start_game(t: Tournament, tab: Table) -> None:
    """Deal an online table's first deal (again, after its game was discarded) and let the
    bots act."""
    _start_next(t, tab, None)
    advance(t, tab)


def set_bot(t: Tournament, tab: Table, seat: int, bot: bool, actor: Actor) -> None:
    """Let the server play a seat (or give it back to its player); bots act at once."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    row = next((s for s in seats_of(tab) if s.seat == seat), None)
    if row is None:
        raise ServiceError(_("There is no such seat at this table."), "seat")
    if row.bot == bot:
        return
    row.bot = bot
    db.session.flush()
    audit(t, actor, "online_bot", _where(tab, seat), {"bot": not bot}, {"bot": bot})
    advance(t, tab)


def set_bot_level(t: Tournament, tab: Table, seat: int, level: str, actor: Actor) -> None:
    """Choose how strong a seat's bot plays: easy, normal or strong (botchoice.py)."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if level not in botchoice.LEVELS:
        raise ServiceError(_("Choose easy, normal or strong."), "level")
    row = next((s for s in seats_of(tab) if s.seat == seat), None)
    if row is None:
        raise ServiceError(_("There is no such seat at this table."), "seat")
    if row.bot_level == level:
        return
    before = row.bot_level
    row.bot_level = level
    db.session.flush()
    audit(t, actor, "online_bot_level", _where(tab, seat), {"level": before}, {"level": level})


def finish(t: Tournament, tab: Table, actor: Actor) -> None:
    """Time is up (a match of a time limit): the table stops; a deal in progress is not
    counted, the deals recorded so far are the match."""
    if tab.mode != "online":
        raise ServiceError(_("This table is not played online."))
    if not may_edit(tab.round, actor):
        raise ServiceError(_("The round is closed: only the club's owner can correct it."))
    if tab.finished:
        return
    tab.finished = True
    if tab.round.status == "seated":
        tab.round.status = "started"
    t.bump()
    audit(t, actor, "finish", _where(tab), {"finished": False}, {"finished": True})


def _where(tab: Table, seat: int | None = None) -> str:
    if seat is None:
        return _("round %(r)d, table %(t)d", r=tab.round.number, t=tab.number)
    return _("round %(r)d, table %(t)d, seat %(s)d", r=tab.round.number, t=tab.number, s=seat + 1)


# --- deals one after another ------------------------------------------------------------------


def _new_seed(tab: Table, number: int) -> int:
    """A fresh unpredictable seed per deal; ``ONLINE_SEED_BASE`` in the config (tests only) makes
    the shuffles repeatable, so a browser test plays the same deal on every run."""
    base = current_app.config.get("ONLINE_SEED_BASE")
    if base is None:
        return secrets.randbits(48)
    return int(base) + tab.id * 1000 + number


def _start_next(t: Tournament, tab: Table, prev: Live | None) -> OnlineDeal | None:
    """Deal the table's next deal, or None when the match is complete."""
    v = variant_of(t)
    number = 1 if prev is None else prev.row.number + 1
    seed = _new_seed(tab, number)
    setup: DealSetup | None
    if prev is None:
        setup = DealSetup(v.id, dict(t.options or {}), seed, ("2", "2"), None, True, False, 1)
    else:
        setup = _next_setup(t, tab, prev.deal, seed, number)
    if setup is None:
        return None
    row = OnlineDeal(table_id=tab.id, number=number, seed=seed, setup=setup.to_json(), version=0)
    db.session.add(row)
    db.session.flush()
    return row


def _next_setup(t: Tournament, tab: Table, deal: Deal, seed: int, number: int) -> DealSetup | None:
    """As ``engine.game.Game.record``: a redeal keeps the dealer, a refused 120分 deal is
    followed by a race, a played deal hands over by the sheet's levels and the rules' dealer."""
    s = deal.setup
    base: dict[str, Any] = {
        "variant": s.variant,
        "options": dict(s.options),
        "seed": seed,
        "deal_no": number,
    }
    if deal.outcome == "redeal":
        if deal.dealer is None:
            return DealSetup(**base, levels=s.levels, dealer=s.dealer, first=s.first, race=s.race)
        return DealSetup(**base, levels=s.levels, dealer=deal.dealer, first=False, race=s.race)
    if deal.outcome == "refused":
        return DealSetup(**base, levels=s.levels, dealer=deal.dealer, first=s.first, race=True)
    derived = sheet(t, tab)
    if derived.counts or derived.errors:
        return None
    assert deal.dealer is not None and deal.result is not None
    if not isinstance(derived, FixedMatch):
        return DealSetup(**base, levels=("2", "2"), dealer=deal.dealer, first=False)
    if derived.passed_side is not None:
        return None
    dealer = next_dealer(deal.variant, deal.dealer, deal.result.winner)
    if dealer % 2 != derived.next_declarer:  # pragma: no cover - the two derivations agree
        raise ServiceError(_("The score sheet and the game disagree about the next dealer."))
    return DealSetup(**base, levels=derived.levels, dealer=dealer, first=False)


def sheet_deal(deal: Deal) -> cm.Deal:
    """The score sheet row of a played deal, computed from the engine's state."""
    assert deal.dealer is not None and deal.result is not None
    kitty, mult = deal.kitty_bonus if deal.kitty_bonus is not None else (0, 0)
    points = deal.attackers_points()
    v = deal.variant
    if v.id == RED_FIVE:
        friend = deal.friend
        return cm.Deal(
            points=points,
            kitty=kitty,
            trump=deal.trump,
            dealer=deal.dealer,
            friend=friend,
            multiplier=mult,
            failed_throws=tuple(deal.failed_throws) or None,
            friend_grabbed=bool(deal.friend_grabbed and friend is not None),
        )
    ft: cm.FailedThrows | None = None
    if v.id == TRACTOR:
        dec = sum(1 for s in deal.failed_throws if s % 2 == deal.dealer % 2)
        ft = cm.FailedThrows(dec, len(deal.failed_throws) - dec)
    return cm.Deal(
        points=points,
        kitty=kitty,
        trump=deal.trump,
        declarer=deal.dealer % 2,
        multiplier=mult,
        failed_throws=ft,
        misplays=tuple(deal.misplays()) if v.id == ONE_TWENTY else (),
        level=deal.level,
    )


def _bot(live: Live, seat: int) -> RandomBot:
    # a fresh bot per decision, seeded by the deal and the moment: replay needs no bot state
    seed = live.row.seed * 4099 + len(live.entries) * 17 + seat
    return botchoice.make_seat_bot(live.levels.get(seat), seed)


def _step(live: Live) -> bool:
    """One automatic step (a draw, a bot's call or move); False when a human must act or the
    deal is over."""
    deal = live.deal
    if deal.outcome is not None:
        return False
    if deal.phase == DRAW:
        if live.pause() is not None:
            return False
        rec = deal.draw()
        live.add(rec.to_json(), "chance")
        drew = rec.seat
        if drew not in live.humans and deal.phase == DRAW and deal.can_call_now(drew):
            call = _bot(live, drew).on_draw(deal, drew)
            if call is not None:
                live.add(deal.call(drew, call).to_json(), "bot")
        return True
    seat = deal.to_act
    if seat is None or seat in live.humans:
        return False
    live.add(perform(deal, _bot(live, seat).act(deal, seat)).to_json(), "bot")
    return True


def _save(live: Live) -> None:
    row = live.row
    start = row.version
    for i, (entry, actor) in enumerate(live.new):
        db.session.add(OnlineAction(deal_id=row.id, seq=start + i + 1, record=entry, actor=actor))
    row.version = start + len(live.new)
    row.outcome = live.deal.outcome
    live.new = []
    try:
        db.session.flush()
    except (StaleDataError, IntegrityError):
        raise Stale(_("The game moved on meanwhile: look again and choose again.")) from None


def advance(t: Tournament, tab: Table, live: Live | None = None) -> Live | None:
    """Run draws and bots until a human must act; record finished deals and deal the next."""
    if tab.mode != "online" or tab.finished:
        return None
    if live is None:
        live = load(tab)
    botchoice.new_request_budget()
    steps = 0
    while live is not None and not tab.finished:
        while _step(live):
            steps += 1
            if steps > MAX_STEPS:  # pragma: no cover - a bug, not a game
                raise ServiceError(_("The game does not progress; tell the director."))
        _save(live)
        if live.deal.outcome is None:
            return live
        if live.row.sheet_index is None and live.deal.outcome == "played":
            written = record_deal(t, tab, sheet_deal(live.deal), GAME_ACTOR, source="online")
            live.row.sheet_index = written.index
            db.session.flush()
        if steps > DEAL_BUDGET:
            return live
        row = _start_next(t, tab, live)
        if row is None:
            return live
        t.bump()
        live = _load(row, live.humans, live.levels)
    return None


# --- a seat's side ----------------------------------------------------------------------------


def act(
    seat_row: OnlineSeat, seen: str, kind: str, cards: Sequence[str] = (), card: str = ""
) -> None:
    """A human seat's move on the state it saw; bots answer at once."""
    tab = db.session.get(Table, seat_row.table_id)
    assert tab is not None
    if tab.mode != "online":
        raise IllegalMove(_("This table is not played online."))
    if seen != state_token(tab):
        raise Stale(_("The game moved on meanwhile: look again and choose again."))
    if seat_row.bot:
        raise IllegalMove(_("A bot plays this seat now."))
    if tab.round.status == "closed":
        raise IllegalMove(_("The round is closed: its tables play no more."))
    if tab.finished:
        raise IllegalMove(_("The match is over."))
    t = tournament_of(tab)
    live = load(tab)
    if live is None or live.deal.outcome is not None:
        raise IllegalMove(_("The match is over."))
    seat = seat_row.seat
    deal = live.deal
    try:
        parsed = [parse_card(c) for c in cards]
        if deal.phase == DRAW:
            if live.pause() != seat:
                raise IllegalMove(_("Wait: the cards are being dealt."))
            if kind == CONTINUE:
                live.add({"kind": CONTINUE, "seat": seat}, f"seat {seat}")
            elif kind == "call":
                live.add(deal.call(seat, parsed).to_json(), f"seat {seat}")
            else:
                raise IllegalMove(_("Call trump or let the deal go on."))
        else:
            action: tuple[Any, ...]
            if kind in ("call", "bury", "play"):
                action = (kind, seat, parsed)
            elif kind in ("pass", "redeal"):
                action = (kind, seat)
            elif kind == "friend":
                action = (kind, seat, parse_card(card) if card else None)
            else:
                raise IllegalMove(_("Unknown move."))
            live.add(perform(deal, action).to_json(), f"seat {seat}")
    except EngineError as e:
        raise IllegalMove(refusal_text(e)) from None
    advance(t, tab, live)


def card_face(card: int) -> dict[str, Any]:
    """How a card shows: 大王/小王, or rank and suit symbol; red suits red."""
    text = card_str(card)
    if card == HJ:
        return {"code": text, "label": "大王", "red": True}
    if card == LJ:
        return {"code": text, "label": "小王", "red": False}
    suit = text[-1]
    return {"code": text, "label": text[:-1] + SUIT_SYMBOLS[suit], "red": suit in ("H", "D")}


def face_of(code: str) -> dict[str, Any]:
    """The face of a card given by its code (``"10H"``)."""
    return card_face(parse_card(code))


def sorted_cards(deal: Deal, cards: list[int]) -> list[int]:
    ctx = deal.ctx
    if ctx is None:
        return sorted(cards, key=lambda c: (c >= LJ, c // 13, c % 13, c))
    return sorted(cards, key=lambda c: (ctx.suit_index(c), ctx.strength(c), c))


def faces(deal: Deal, cards: Sequence[str]) -> list[dict[str, Any]]:
    """Card codes as faces, in the deal's order (trumps grouped once trump is known)."""
    return [card_face(c) for c in sorted_cards(deal, [parse_card(x) for x in cards])]


def view(live: Live, seat: int) -> dict[str, Any]:
    """The engine's view of the deal for one seat: never another seat's hand."""
    return seat_view(live.deal, seat)
