"""A duplicate event: creating it, its movement and boards (derived, never stored), a board's
traveller typed in (every table's result on that board at once, all or nothing), the standings
and the printed paper.

A Swiss of teams is the exception: each round is paired (``pair_next_round``, round 1 at
creation from the entrant order) from the VPs of the rounds so far, only once they are
complete, and stored (``DuplicateRound``); the movement is then built from the stored pairings,
so a correction of an earlier result changes scores and standings but never a paired round. A
bye scores as in the round robin: the team sits out, no match, no VPs and no IMPs (it goes to
the lowest-ranked team without a bye).

No peeking: a board's results and comparisons count on the club's pages only once every table
that plays the board has its result; directors see everything as it comes in.

Every change is in the event's audit trail (``audit``: created, each traveller line typed,
corrected or removed, each Swiss round paired); a correction changes only stored results, and
every comparison is derived from them again.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from engine.errors import EngineError
from engine.variants import RED_FIVE, TRACTOR, VARIANT_IDS, make_variant

from ...competition import duplicate_file as df
from ...competition.boards import Board, event_boards, paper_deal, par
from ...competition.duplicate import imps_for, value
from ...competition.duplicate_event import (
    TableResult,
    board_scores,
    field_standings,
    match_scores,
    table_imps,
    team_standings,
)
from ...competition.movements import (
    Movement,
    MovementError,
    Sitting,
    event_movement,
    swiss_max_rounds,
    team_pairs,
    team_swiss_round,
)
from ...competition.names import name_match_key, normalize_name
from ...db import lock_for_update
from ...extensions import db
from ...models import Club, DuplicateEvent, DuplicateResult, DuplicateRound, User, utcnow
from ...printing import (
    BoardResult,
    HandRecord,
    HandRecords,
    ScorecardBoard,
    TeamScorecard,
    TeamScorecards,
    TravellerRow,
    Travellers,
    hand_records,
    team_scorecards,
    travellers,
)
from .. import ServiceError, StaleError, trash
from ..text import clean_name
from ..tournaments.audit import Actor
from ..tournaments.setup import clean_reason
from . import audit as trail

MAX_ENTRANTS = {"pairs": 60, "teams": 20, "individuals": 40}
MIN_ENTRANTS = {"pairs": 4, "teams": 2, "individuals": 5}
MAX_BOARDS_PER_ROUND = 8
VP_FACTOR, VP_FACTOR_RANGE = df.VP_FACTOR, df.VP_FACTOR_RANGE  # the VP scale's B = f × √N
PAIRINGS = ("round-robin", "swiss")
SEED_BITS = 48


def events_of(club: Club) -> list[DuplicateEvent]:
    return list(
        db.session.scalars(
            select(DuplicateEvent)
            .where(DuplicateEvent.club_id == club.id, trash.live(DuplicateEvent))
            .order_by(DuplicateEvent.created_at.desc(), DuplicateEvent.id.desc())
        )
    )


def name_taken(club: Club, name: str) -> str | None:
    """Why ``name`` cannot name a new event of the club (a deleted event keeps its name until
    it is purged), or None."""
    found = db.session.scalar(
        select(DuplicateEvent).where(DuplicateEvent.club_id == club.id, DuplicateEvent.name == name)
    )
    if found is None:
        return None
    if found.deleted_at is not None:
        return _(
            "The duplicate event %(name)s was deleted: restore it from the club's page, or "
            "choose another name.",
            name=name,
        )
    return _("The club already has a duplicate event of that name.")


def is_swiss(ev: DuplicateEvent) -> bool:
    return ev.kind == "teams" and ev.pairing == "swiss"


def movement_of(ev: DuplicateEvent) -> Movement:
    swiss = (
        [([(a, b) for a, b in x.pairs], x.bye) for x in ev.paired_rounds] if is_swiss(ev) else None
    )
    return event_movement(ev.kind, len(ev.entrants), ev.boards_per_round, ev.rounds, swiss)


def boards_of(ev: DuplicateEvent, m: Movement | None = None) -> list[Board]:
    m = m or movement_of(ev)
    return event_boards(ev.variant, ev.options, ev.seed, m.boards)


def match_boards(m: Movement) -> dict[tuple[int, int], int]:
    """Each team match's boards ``N`` by (round, match): its VPs are on this scale however
    many of its boards are in (DUPLICATE.md)."""
    return {(s.round, s.match): len(s.boards) for s in m.sittings if s.match is not None}


def vp_factor(ev: DuplicateEvent) -> float:
    return float(ev.vp_factor if ev.vp_factor is not None else VP_FACTOR)


def entrant_label(ev: DuplicateEvent, e: int) -> str:
    """The name of entrant ``e`` in the movement (teams: the team's half 1 or 2)."""
    if ev.kind == "teams":
        return f"{ev.entrants[e // 2]} · {e % 2 + 1}"
    return ev.entrants[e]


def create_event(
    club: Club,
    user: User | None,
    name: str,
    variant: str,
    kind: str,
    entrants_text: str,
    boards_per_round: int,
    seed: int | None = None,
    rounds: int | None = None,
    pairing: str = "round-robin",
    actor_label: str = "",
    options: Mapping[str, Any] | None = None,
    vp_scale: float | None = None,
) -> DuplicateEvent:
    """A new event; a Swiss of teams has its round 1 paired at once (from the entrant order:
    the first half of the list meets the second half). ``options``: the variant's rule options
    the boards are dealt and scored with (e.g. 升级 with 4 decks); ``vp_scale``: a team
    event's VP scale factor (``B = factor × √N``, default 10)."""
    name = clean_name(name, "name", 120)
    taken = name_taken(club, name)
    if taken:
        raise ServiceError(taken, "name")
    if variant not in VARIANT_IDS:
        raise ServiceError(_("Choose one of the games."), "variant")
    if kind not in MAX_ENTRANTS:
        raise ServiceError(_("Choose how the event is played."), "kind")
    options = dict(options or {})
    if "decks" in options and variant != TRACTOR:
        raise ServiceError(_("Only 升级 is played with 2 or 4 decks."), "decks")
    try:
        make_variant(variant, options)
    except EngineError:
        raise ServiceError(_("Please choose one of the listed values."), "decks") from None
    if options.get("decks") == 2:
        del options["decks"]  # the default, kept out of the stored options
    if vp_scale is None:
        vp_scale = VP_FACTOR
    low_f, high_f = VP_FACTOR_RANGE
    if not low_f <= vp_scale <= high_f:
        raise ServiceError(
            _("The VP scale's factor: a number from %(low)g to %(high)g.", low=low_f, high=high_f),
            "vp_factor",
        )
    if kind != "teams" and vp_scale != VP_FACTOR:
        raise ServiceError(_("Only team events are scored in VPs."), "vp_factor")
    if (variant == RED_FIVE) != (kind == "individuals"):
        raise ServiceError(
            _("Red five is played by individuals; 升级 and 120分 by pairs or trios, or teams."),
            "kind",
        )
    names = [normalize_name(line) for line in (entrants_text or "").splitlines()]
    names = [n for n in names if n]
    for n in names:
        clean_name(n, "entrants", 120)
    if len({name_match_key(n) for n in names}) != len(names):  # "王 伟" is 王伟
        raise ServiceError(_("Each entrant's name must be different."), "entrants")
    low, high = MIN_ENTRANTS[kind], MAX_ENTRANTS[kind]
    if not low <= len(names) <= high:
        raise ServiceError(
            _(
                "Type between %(low)d and %(high)d entrants, one a line (you typed %(n)d).",
                low=low,
                high=high,
                n=len(names),
            ),
            "entrants",
        )
    if not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise ServiceError(
            _("Boards per round: from 1 to %(n)d.", n=MAX_BOARDS_PER_ROUND), "boards_per_round"
        )
    if seed is not None and not 0 <= seed < 2**SEED_BITS:
        raise ServiceError(_("The seed must be a whole number from 0 to 2⁴⁸ − 1."), "seed")
    try:
        event_movement(kind, len(names), boards_per_round)
    except MovementError:
        raise ServiceError(_("No movement fits that many entrants."), "entrants") from None
    if pairing not in PAIRINGS:
        raise ServiceError(_("Choose a round robin or a Swiss."), "pairing")
    if pairing == "swiss":
        if kind != "teams":
            raise ServiceError(
                _("Only team events are played as a Swiss; pairs and individuals move."),
                "pairing",
            )
        most = swiss_max_rounds(len(names))
        full = event_movement(kind, len(names), boards_per_round).rounds
        if most < 1:
            raise ServiceError(
                _("Two teams play one match: choose a round robin."),
                "pairing",
            )
        if rounds is None or not 1 <= rounds <= most:
            raise ServiceError(
                _(
                    "A Swiss of %(n)d teams plays from 1 to %(most)d rounds, fewer than the "
                    "round robin's %(full)d: type the number of rounds, or choose a round robin.",
                    n=len(names),
                    most=most,
                    full=full,
                ),
                "rounds",
            )
    elif rounds is not None:
        try:
            event_movement(kind, len(names), boards_per_round, rounds)
        except MovementError:
            full = event_movement(kind, len(names), boards_per_round).rounds
            tables = (len(names) + 1) // 2
            raise ServiceError(
                _(
                    "With %(t)d tables the pairs play a number of rounds that divides %(t)d "
                    "(at most %(t)d), or leave it empty.",
                    t=tables,
                )
                if kind == "pairs"
                else ngettext(
                    "At most %(num)d round, or leave it empty.",
                    "At most %(num)d rounds, or leave it empty.",
                    full,
                ),
                "rounds",
            ) from None
    ev = DuplicateEvent(
        club_id=club.id,
        name=name,
        variant=variant,
        options=options,
        vp_factor=round(float(vp_scale), 2),
        kind=kind,
        entrants=names,
        boards_per_round=boards_per_round,
        rounds=rounds,
        pairing=pairing if kind == "teams" else "round-robin",
        seed=secrets.randbits(SEED_BITS) if seed is None else seed,
        version=1,
        created_by_id=user.id if user else None,
    )
    db.session.add(ev)
    db.session.flush()
    trail.created(ev, trail.actor_of(user, actor_label), movement_of(ev).rounds)
    if is_swiss(ev):
        _pair(ev, user, actor_label)
    return ev


# --- a Swiss of teams: pairing the next round ----------------------------------------------------


def missing_results(ev: DuplicateEvent, m: Movement | None = None) -> list[tuple[int, int, int]]:
    """(round, table, board) of every paired table still without its result."""
    m = m or movement_of(ev)
    rows = _rows(ev)
    return [
        (s.round, s.table, b)
        for s in m.sittings
        for b in s.boards
        if (b, s.round, s.table) not in rows
    ]


def _pair(ev: DuplicateEvent, user: User | None, actor_label: str) -> DuplicateRound:
    """Pair the next round from the VPs so far (every result recorded, the director's view)."""
    m = movement_of(ev)
    teams = len(ev.entrants)
    rnd = len(ev.paired_rounds) + 1
    v = make_variant(ev.variant, ev.options)
    vps = [0.0] * teams
    for standing in team_standings(
        v, table_results(ev, m), range(teams), vp_factor(ev), match_boards(m)
    ):
        vps[standing.team] = standing.vp
    met = [(a, b) for x in ev.paired_rounds for a, b in x.pairs]
    byes = [0] * teams
    for x in ev.paired_rounds:
        if x.bye is not None:
            byes[x.bye] += 1
    n = ev.boards_per_round
    assert ev.rounds is not None
    try:
        sittings, out = team_swiss_round(
            teams,
            vps,
            met,
            byes,
            rnd,
            range((rnd - 1) * n + 1, rnd * n + 1),
            rounds_after=ev.rounds - rnd,
        )
    except MovementError:  # pragma: no cover - a Swiss of 3 or more teams always pairs
        raise ServiceError(_("Round %(n)d cannot be paired.", n=rnd)) from None
    row = DuplicateRound(
        event_id=ev.id,
        round=rnd,
        pairs=[list(p) for p in team_pairs(sittings)],
        bye=out[0] // 2 if out else None,
        vps=vps,
        paired_at=utcnow(),
        paired_by_id=user.id if user else None,
        paired_by=(actor_label or (user.display_name if user else ""))[:120],
    )
    ev.paired_rounds.append(row)
    db.session.flush()
    trail.paired(ev, row, trail.actor_of(user, actor_label))
    return row


def pair_next_round(ev: DuplicateEvent, user: User | None, actor_label: str) -> DuplicateRound:
    """The director's "pair the next round": only in a Swiss, only while rounds remain, and
    only once every board of every match paired so far has its result."""
    if not is_swiss(ev):
        raise ServiceError(_("Only a Swiss of teams is paired round by round."))
    # a second director pressing at the same time waits, then sees this round paired
    lock_for_update(ev, "paired_rounds", "results", "version")
    assert ev.rounds is not None
    done = len(ev.paired_rounds)
    if done >= ev.rounds:
        raise ServiceError(
            ngettext(
                "The round is paired already.", "All %(num)d rounds are paired already.", ev.rounds
            )
        )
    missing = missing_results(ev)
    if missing:
        r, t, b = missing[0]
        raise ServiceError(
            ngettext(
                "Round %(r)d is not complete: %(num)d result is still missing (board %(b)d at "
                "table %(t)d). Round %(next)d is paired once every board of every match is in.",
                "Round %(r)d is not complete: %(num)d results are still missing (the first: "
                "board %(b)d at table %(t)d). Round %(next)d is paired once every board of "
                "every match is in.",
                len(missing),
                r=r,
                b=b,
                t=t,
                next=done + 1,
            )
        )
    row = _pair(ev, user, actor_label)
    ev.bump()
    return row


# --- results ------------------------------------------------------------------------------------


def _rows(ev: DuplicateEvent) -> dict[tuple[int, int, int], DuplicateResult]:
    return {(r.board, r.round, r.table_no): r for r in ev.results}


def table_results(ev: DuplicateEvent, m: Movement | None = None) -> list[TableResult]:
    """Every recorded result as ``app.competition`` data, in the movement's places."""
    m = m or movement_of(ev)
    v = make_variant(ev.variant, ev.options)
    rows = _rows(ev)
    out: list[TableResult] = []
    for s in m.sittings:
        for b in s.boards:
            r = rows.get((b, s.round, s.table))
            if r is None:
                continue
            if ev.variant == RED_FIVE:
                out.append(TableResult(b, s.table, s.round, s.seats, scores=tuple(r.scores or ())))
            else:
                assert r.declarer is not None and r.total is not None
                v0 = value(v, r.declarer, r.total)[0]
                out.append(TableResult(b, s.table, s.round, s.seats, value0=v0, match=s.match))
    return out


def complete_boards(ev: DuplicateEvent, m: Movement | None = None) -> set[int]:
    """The boards every scheduled table has a result on (their comparisons may be shown)."""
    m = m or movement_of(ev)
    rows = _rows(ev)
    done: set[int] = set()
    for b in range(1, m.boards + 1):
        sittings = m.board_tables(b)
        if sittings and all((b, s.round, s.table) in rows for s in sittings):
            done.add(b)
    return done


@dataclass(frozen=True)
class SheetRow:
    """One table's line of a board's traveller form."""

    key: str  # the form fields' prefix
    round: int
    table: int
    names: tuple[str, ...]
    declarer: str
    total: str
    scores: tuple[str, ...]
    # the line as stored when the form was made ("" for none): the form sends it back as
    # ``<key>_shown``, so a save from a page that is out of date is refused (``save_board``)
    shown: str


def _key(s: Sitting) -> str:
    return f"r{s.round}t{s.table}"


Line = tuple[int, int] | tuple[int, ...] | None  # fixed sides: (declarer, total); red five: scores


def _line_text(line: Line) -> str:
    """A traveller line as one comparable text: "0:40" (declaring side, attackers' points),
    "3,-1,…" (red five), "" (no result)."""
    if line is None:
        return ""
    if len(line) == 5:  # red five: each seat's 积分 change
        return ",".join(str(x) for x in line)
    return f"{line[0]}:{line[1]}"


def _stored(ev: DuplicateEvent, r: DuplicateResult | None) -> Line:
    if r is None:
        return None
    if ev.variant == RED_FIVE:
        return tuple(r.scores or ())
    assert r.declarer is not None and r.total is not None
    return (r.declarer, r.total)


def board_sheet(ev: DuplicateEvent, board: int, m: Movement | None = None) -> list[SheetRow]:
    m = m or movement_of(ev)
    rows = _rows(ev)
    out = []
    for s in m.board_tables(board):
        r = rows.get((board, s.round, s.table))
        n = 5 if ev.variant == RED_FIVE else 0
        out.append(
            SheetRow(
                _key(s),
                s.round,
                s.table,
                tuple(entrant_label(ev, e) for e in s.seats),
                "" if r is None or r.declarer is None else str(r.declarer),
                "" if r is None or r.total is None else str(r.total),
                tuple("" if r is None or r.scores is None else str(r.scores[i]) for i in range(n)),
                _line_text(_stored(ev, r)),
            )
        )
    return out


def _int(text: str) -> int | None:
    t = text.strip().replace("−", "-").replace("＋", "+")
    if t.startswith("+"):
        t = t[1:]
    body = t[1:] if t.startswith("-") else t
    if not body.isdigit() or not body.isascii() or len(body) > 6:
        return None
    return int(t)


def typed_over(ev: DuplicateEvent, row: SheetRow, form: Mapping[str, str]) -> bool:
    """Whether ``form`` typed something on ``row``'s line other than what it showed there."""
    was = str(form.get(f"{row.key}_shown", ""))
    if ev.variant == RED_FIVE:
        shown = was.split(",") if was else [""] * 5
        typed = [str(form.get(f"{row.key}_s{i}", "")).strip() for i in range(5)]
        return typed != shown
    shown = was.split(":") if was else ["", ""]
    typed = [str(form.get(f"{row.key}_{f}", "")).strip() for f in ("declarer", "total")]
    return typed != shown


def line_fields(ev: DuplicateEvent, row: SheetRow) -> dict[str, str]:
    """The form fields of ``row``'s line as stored now (its ``_shown`` included)."""
    out = {f"{row.key}_shown": row.shown}
    if ev.variant == RED_FIVE:
        out |= {f"{row.key}_s{i}": x for i, x in enumerate(row.scores)}
    else:
        out |= {f"{row.key}_declarer": row.declarer, f"{row.key}_total": row.total}
    return out


def typed_words(ev: DuplicateEvent, row: SheetRow, form: Mapping[str, str]) -> str:
    """What a refused form had typed on ``row``'s line, in words, to show beside the line as
    it is stored now (so nothing typed is lost)."""
    if ev.variant == RED_FIVE:
        texts = [str(form.get(f"{row.key}_s{i}", "")).strip() for i in range(5)]
        return ", ".join(t or "—" for t in texts) if any(texts) else _("empty")
    dec = str(form.get(f"{row.key}_declarer", "")).strip()
    tot = str(form.get(f"{row.key}_total", "")).strip()
    if not dec and not tot:
        return _("empty")
    side = {"0": _("Side A"), "1": _("Side B")}.get(dec, "—")
    return f"{side} · {tot or '—'}"


class StaleBoard(StaleError):
    """A traveller saved from a page made before the board changed: nothing is saved.
    ``changed`` maps (round, table) to the line stored now, for the page to show."""

    def __init__(self, message: str, changed: dict[tuple[int, int], str]) -> None:
        super().__init__(message)
        self.changed = changed


_LINE_FIELD = re.compile(r"r(\d{1,4})t(\d{1,4})_")


def _parse_line(ev: DuplicateEvent, s: Sitting, form: Mapping[str, str], top: int) -> Line:
    """The line typed for table ``s`` (None: left empty), or a ServiceError saying why not."""
    k = _key(s)
    if ev.variant == RED_FIVE:
        texts = [str(form.get(f"{k}_s{i}", "")).strip() for i in range(5)]
        if not any(texts):
            return None
        nums = [_int(t) for t in texts]
        if any(x is None or abs(x) > 99 for x in nums):
            raise ServiceError(
                _(
                    "Table %(t)d: type each seat's 积分 change as a whole number from −99 to 99.",
                    t=s.table,
                )
            )
        scores = tuple(x for x in nums if x is not None)
        if sum(scores) != 0:
            raise ServiceError(_("Table %(t)d: the five 积分 changes must add up to 0.", t=s.table))
        return scores
    dec = str(form.get(f"{k}_declarer", "")).strip()
    tot = str(form.get(f"{k}_total", "")).strip()
    if not dec and not tot:
        return None
    if dec not in ("0", "1") or not tot:
        raise ServiceError(
            _(
                "Table %(t)d: choose the declaring side and type the attackers' points, "
                "or leave both empty.",
                t=s.table,
            )
        )
    total = _int(tot)
    if total is None or not 0 <= total <= top or total % 5:
        raise ServiceError(
            _(
                "Table %(t)d: the attackers' points must be a multiple of 5 from 0 to %(top)d.",
                t=s.table,
                top=top,
            )
        )
    return (int(dec), total)


def _stale_message(shown: dict[tuple[int, int], str], now: dict[tuple[int, int], str]) -> str:
    added = sum(1 for k, was in shown.items() if not was and now[k])
    removed = sum(1 for k, was in shown.items() if was and not now[k])
    corrected = len(shown) - added - removed
    parts = [
        ngettext("%(num)d result was added", "%(num)d results were added", added),
        ngettext("%(num)d result was corrected", "%(num)d results were corrected", corrected),
        ngettext("%(num)d result was removed", "%(num)d results were removed", removed),
    ]
    counts = (added, corrected, removed)
    said = _(", ").join(p for p, n in zip(parts, counts, strict=True) if n)
    return _(
        "This board changed since you opened it: %(what)s. Look again: nothing was saved.",
        what=said,
    )


def save_board(
    ev: DuplicateEvent,
    board: int,
    form: Mapping[str, str],
    actor: Actor | None = None,
    reason: str | None = None,
) -> int:
    """Every table's result on ``board`` from the traveller form, checked in full before
    anything is written (one bad line saves nothing). Returns the number of results the board
    now has; each table's line typed, corrected or removed is in the audit trail (by ``actor``).

    No lost updates: the form sends back each line as it was shown (``<key>_shown``). If any
    line has changed since (another director, an online table), nothing is saved
    (``StaleBoard``). Only the lines the form changes are written: a line typed as it was shown
    is left alone, and an empty line removes a result only when the form showed it filled. A
    line the form did not show (no ``_shown``: a script, a page of an older version) may add a
    result but never remove or overwrite one. A field of a table that does not play the board
    is refused. ``reason`` (optional): why lines are corrected or removed, in their trail
    entries."""
    why = clean_reason(reason)
    m = movement_of(ev)
    if not 1 <= board <= m.boards:
        raise ServiceError(_("There is no board %(n)d in this event.", n=board))
    sittings = m.board_tables(board)
    if not sittings:
        raise ServiceError(
            _(
                "No table plays board %(n)d yet: a Swiss round's boards get their tables when "
                "the round is paired.",
                n=board,
            )
        )
    playing = {(s.round, s.table) for s in sittings}
    keys = {_key(s) for s in sittings}
    for name in form:
        hit = _LINE_FIELD.match(name)
        # a line is known by its exact key: "r01t1_total" is no line of round 1 table 1
        if hit and hit[0][:-1] not in keys:
            raise ServiceError(
                _(
                    "Round %(r)s table %(t)s does not play board %(b)d: its line was not saved, "
                    "nor anything else.",
                    r=hit[1],
                    t=hit[2],
                    b=board,
                )
            )
    v = make_variant(ev.variant, ev.options)
    top = v.total_points * 4  # card points with the biggest kitty bonus and penalties
    typed = {(s.round, s.table): _parse_line(ev, s, form, top) for s in sittings}
    # saves of one event go one after the other; each then sees what the one before wrote
    lock_for_update(ev, "results", "version")
    rows = _rows(ev)
    now = {k: _line_text(_stored(ev, rows.get((board, *k)))) for k in playing}
    shown = {
        k: str(form[f"r{k[0]}t{k[1]}_shown"]) for k in playing if f"r{k[0]}t{k[1]}_shown" in form
    }
    stale = {k: was for k, was in shown.items() if was != now[k]}
    if stale:
        raise StaleBoard(_stale_message(stale, now), {k: now[k] for k in stale})
    wanted: dict[tuple[int, int], Line] = {}
    for k, line in typed.items():
        text = _line_text(line)
        if k in shown:
            if text != shown[k]:
                wanted[k] = line
        elif line is not None and text != now[k]:
            if now[k]:
                raise StaleBoard(
                    _(
                        "Table %(t)d already has a result on this board: open the board again "
                        "to correct it. Nothing was saved.",
                        t=k[1],
                    ),
                    {k: now[k]},
                )
            wanted[k] = line
    if wanted:
        _write_lines(ev, board, wanted, actor, why)
    return sum(1 for k in playing if (_line_text(wanted[k]) if k in wanted else now[k]))


def _write_lines(
    ev: DuplicateEvent,
    board: int,
    wanted: dict[tuple[int, int], Line],
    actor: Actor | None,
    reason: str | None = None,
) -> None:
    """Write (or, for None, remove) these lines of ``board``; one audit entry each."""
    rows = _rows(ev)
    before = trail.snapshot(ev, board)
    for (rnd, tno), got in wanted.items():
        row = rows.get((board, rnd, tno))
        if got is None:
            if row is not None:
                db.session.delete(row)
                ev.results.remove(row)
            continue
        if row is None:
            row = DuplicateResult(event_id=ev.id, board=board, round=rnd, table_no=tno)
            ev.results.append(row)
        if ev.variant == RED_FIVE:
            row.declarer, row.total, row.scores = None, None, list(got)
        else:
            row.declarer, row.total, row.scores = got[0], got[1], None
        row.updated_at = utcnow()
    ev.bump()
    trail.traveller(ev, board, before, actor, reason)
    db.session.flush()


def save_table_result(
    ev: DuplicateEvent,
    board: int,
    rnd: int,
    table: int,
    declarer: int | None = None,
    total: int | None = None,
    scores: list[int] | None = None,
    actor: Actor | None = None,
) -> bool:
    """One table's line of a board's traveller (an online table's result); the board's other
    lines stay as they are. A line typed in meanwhile by a director is never overwritten: if
    it differs, it stands and the trail says what the online table played (False)."""
    m = movement_of(ev)
    if (rnd, table) not in {(s.round, s.table) for s in m.board_tables(board)}:
        raise ServiceError(
            _("Table %(t)d does not play board %(b)d in round %(r)d.", t=table, b=board, r=rnd)
        )
    lock_for_update(ev, "results", "version")
    line: Line
    if ev.variant == RED_FIVE:
        line = tuple(scores or ())
    else:
        assert declarer is not None and total is not None
        line = (declarer, total)
    stored = _stored(ev, _rows(ev).get((board, rnd, table)))
    if stored == line:
        return True
    if stored is not None:
        trail.online_differs(ev, board, rnd, table, stored, line)
        return False
    _write_lines(ev, board, {(rnd, table): line}, actor)
    return True


# --- standings ----------------------------------------------------------------------------------


def _bye_names(ev: DuplicateEvent, byes: tuple[int, ...]) -> list[str]:
    """Who sits out: a team by its name (both its halves sit out), others by their label."""
    if ev.kind == "teams":
        return list(dict.fromkeys(ev.entrants[e // 2] for e in byes))
    return [entrant_label(ev, e) for e in byes]


def shown_results(
    ev: DuplicateEvent,
    director: bool,
    m: Movement | None = None,
    results: list[TableResult] | None = None,
    done: set[int] | None = None,
) -> list[TableResult]:
    """The results a viewer may see (no peeking): a director every one, anyone else those of
    complete boards only. The event page and its CSV files both ask this."""
    m = m or movement_of(ev)
    results = table_results(ev, m) if results is None else results
    if director:
        return results
    done = complete_boards(ev, m) if done is None else done
    return [x for x in results if x.board in done]


def standings_page(ev: DuplicateEvent, director: bool) -> dict[str, Any]:
    """What the event page shows: the movement, each board's state, and the standings over the
    boards the viewer may see (directors: every result; others: complete boards only)."""
    m = movement_of(ev)
    done = complete_boards(ev, m)
    results = table_results(ev, m)
    shown = shown_results(ev, director, m, results, done)
    counts: dict[int, int] = {}
    for x in results:
        counts[x.board] = counts.get(x.board, 0) + 1
    boards = [
        {
            "number": b,
            "tables": len(m.board_tables(b)),
            "results": counts.get(b, 0),
            "complete": b in done,
        }
        for b in range(1, m.boards + 1)
    ]
    rounds = []
    paired = {x.round: x for x in ev.paired_rounds} if is_swiss(ev) else {}
    for r in range(1, m.rounds + 1):
        rounds.append(
            {
                "number": r,
                "paired": not is_swiss(ev) or r in paired,
                "pairing": paired.get(r),
                "tables": [
                    {
                        "table": s.table,
                        "boards": s.boards,
                        "names": [entrant_label(ev, e) for e in s.seats],
                    }
                    for s in m.round_sittings(r)
                ],
                "byes": _bye_names(ev, m.byes[r - 1] if m.byes else ()),
            }
        )
    page: dict[str, Any] = {
        "movement": m,
        "boards": boards,
        "rounds": rounds,
        "complete": len(done) == m.boards,
        "shown_boards": sorted({r.board for r in shown}),
        "swiss": None,
    }
    if is_swiss(ev):
        page["swiss"] = {
            "paired": len(ev.paired_rounds),
            "next": len(ev.paired_rounds) + 1 if len(ev.paired_rounds) < m.rounds else None,
            "missing": len(missing_results(ev, m)),
        }
    if ev.kind == "teams":
        v = make_variant(ev.variant, ev.options)
        per_match = match_boards(m)
        rows = team_standings(v, shown, range(len(ev.entrants)), vp_factor(ev), per_match)
        page["team_rows"] = [
            {
                "rank": row.rank,
                "name": ev.entrants[row.team],
                "vp": row.vp,
                "won": row.imps_won,
                "lost": row.imps_lost,
                "quotient": row.quotient,
                "matches": row.matches,
                "provisional": row.provisional,
            }
            for row in rows
        ]
        page["matches"] = [
            {
                "round": ms.round,
                "a": ev.entrants[ms.teams[0]],
                "b": ev.entrants[ms.teams[1]],
                "imps": ms.imps,
                "vp": ms.vp,
                "boards": ms.boards,
                "of": ms.of,
                "provisional": ms.provisional,
            }
            for ms in match_scores(v, shown, vp_factor(ev), per_match)
        ]
    else:
        page["field_rows"] = [
            {
                "rank": row.rank,
                "name": entrant_label(ev, row.entrant),
                "pct": row.pct,
                "mp": row.mp,
                "top": row.top,
                "boards": row.boards,
            }
            for row in field_standings(shown)
        ]
    return page


# --- paper --------------------------------------------------------------------------------------


def hand_records_pdf(ev: DuplicateEvent, with_results: bool, draws: bool = False) -> bytes:
    """The boards' hand records; ``with_results``: after the session, with every table's result,
    its comparison (across the field: its matchpoints and percentage; a team event: the IMPs
    of its match's two tables) and the bots' par."""
    m = movement_of(ev)
    results = table_results(ev, m) if with_results else []
    teams = ev.kind == "teams"
    scores = {(s.board, s.table): s for s in board_scores(results)} if results and not teams else {}
    imps = table_imps(make_variant(ev.variant, ev.options), results) if teams else {}
    recs = []
    for b in boards_of(ev, m):
        pd = paper_deal(b)
        pr = par(b) if with_results else None
        res = []
        for r in results:
            if r.board != b.number:
                continue
            sc = scores.get((r.board, r.table))
            names = tuple(entrant_label(ev, e) for e in r.seats)
            if ev.variant == RED_FIVE:
                note = "" if sc is None else " ".join(f"{p:.0f}%" for p in sc.pct)
                res.append(BoardResult(r.table, names, scores=r.scores, note=note))
            else:
                row = next(
                    x
                    for x in ev.results
                    if (x.board, x.round, x.table_no) == (b.number, r.round, r.table)
                )
                if teams:
                    i = imps.get((r.board, r.round, r.table))
                    note = "" if i is None else f"IMP {max(i, 0)}:{max(-i, 0)}"
                else:
                    note = "" if sc is None else f"MP {sc.mp[0]}:{sc.mp[1]} · {sc.pct[0]:.2f}%"
                res.append(
                    BoardResult(
                        r.table,
                        names,
                        declarer=row.declarer,
                        total=row.total,
                        value0=r.value0,
                        note=note,
                    )
                )
        recs.append(
            HandRecord(
                b.number,
                pd.hands,
                pd.kitty,
                pd.first_drawer,
                level=b.level,
                cut_card=pd.cut_card,
                draws=tuple(c for _, c in pd.draws),
                par=None if pr is None else pr.value0,
                par_scores=None if pr is None else pr.seat_scores,
                par_plays=0 if pr is None else pr.plays,
                results=tuple(res),
            )
        )
    return hand_records(HandRecords(ev.name, ev.variant, tuple(recs), show_draws=draws))


def travellers_pdf(ev: DuplicateEvent) -> bytes:
    m = movement_of(ev)
    boards = []
    for b in range(1, m.boards + 1):
        rows = tuple(
            TravellerRow(s.table, s.round, tuple(entrant_label(ev, e) for e in s.seats))
            for s in m.board_tables(b)
        )
        if rows:  # a Swiss round's boards have their tables once the round is paired
            boards.append((b, rows))
    return travellers(Travellers(ev.name, ev.variant, tuple(boards)))


def scorecards_pdf(ev: DuplicateEvent) -> bytes:
    """A team event's match scorecards: a card per match of every round paired so far (a
    round robin: every round), filled with the results recorded so far (directors' paper)."""
    m = movement_of(ev)
    v = make_variant(ev.variant, ev.options)
    results = table_results(ev, m)
    values = {(x.board, x.round, x.table): x.value0 for x in results}
    scores = {
        (ms.round, ms.match): ms for ms in match_scores(v, results, vp_factor(ev), match_boards(m))
    }
    by_match: dict[tuple[int, int], list[Sitting]] = {}
    for s in m.sittings:
        assert s.match is not None
        by_match.setdefault((s.round, s.match), []).append(s)
    cards = []
    for (rnd, match), two in sorted(by_match.items()):
        first, second = sorted(two, key=lambda s: s.table)
        boards = []
        for b in first.boards:
            v1 = values.get((b, rnd, first.table))
            v2 = values.get((b, rnd, second.table))
            imps = None
            if v1 is not None and v2 is not None:
                i = imps_for(v, v1 - v2)
                imps = (max(i, 0), max(-i, 0))
            boards.append(ScorecardBoard(b, (v1, v2), imps))
        ms = scores.get((rnd, match))
        cards.append(
            TeamScorecard(
                rnd,
                match,
                (ev.entrants[first.seats[0] // 2], ev.entrants[first.seats[1] // 2]),
                (first.table, second.table),
                (
                    (entrant_label(ev, first.seats[0]), entrant_label(ev, first.seats[1])),
                    (entrant_label(ev, second.seats[0]), entrant_label(ev, second.seats[1])),
                ),
                tuple(boards),
                None if ms is None else ms.imps,
                None if ms is None or ms.provisional else ms.vp,
            )
        )
    return team_scorecards(TeamScorecards(ev.name, ev.variant, tuple(cards)))
