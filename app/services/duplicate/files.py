"""A duplicate event's files: the event file (a tournament file with the optional ``duplicate``
part, ``docs/TOURNAMENT_EXTENSIONS.md``) exported and imported, and the CSV files (standings;
board by board, every table's result with its value and matchpoints or IMPs).

Reading and checking the file is ``app.competition.duplicate_file``'s; its problems come as codes
and are worded here in the reader's language. An import writes the event, its paired rounds and
its results in the request's one transaction: a refused file saves nothing.

No peeking: the CSV files show a player what the event page shows (``events.shown_results``:
boards not complete are left out); a director gets everything.
"""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from engine.variants import RED_FIVE, make_variant

from ...competition import duplicate_file as df
from ...competition.duplicate_event import board_scores, table_imps
from ...extensions import db
from ...models import Club, DuplicateEvent, DuplicateResult, DuplicateRound, User
from ..online.refusals import refusal_text
from ..tournaments.csv_export import _csv
from . import audit as trail
from . import events as svc

LIMITS = df.Limits(svc.MIN_ENTRANTS, svc.MAX_ENTRANTS, svc.MAX_BOARDS_PER_ROUND)
MAX_UPLOAD = 5 * 1024 * 1024


class FileRefused(Exception):
    """A file that cannot be imported: every reason, each a sentence in the reader's
    language."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__("\n".join(reasons))
        self.reasons = reasons


# --- the event file ------------------------------------------------------------------------------


def event_file(ev: DuplicateEvent, club_name: str = "") -> df.EventFile:
    return df.EventFile(
        club=club_name,
        name=ev.name,
        variant=ev.variant,
        options=dict(ev.options or {}),
        kind=ev.kind,
        pairing=ev.pairing,
        boards_per_round=ev.boards_per_round,
        rounds=ev.rounds,
        seed=ev.seed,
        vp_factor=svc.vp_factor(ev),
        entrants=tuple(ev.entrants),
        paired=tuple(
            df.PairedRound(
                x.round,
                tuple((int(a), int(b)) for a, b in x.pairs),
                x.bye,
                tuple(float(v) for v in x.vps or ()),
                x.paired_by or "",
                x.paired_at,
            )
            for x in ev.paired_rounds
        )
        if svc.is_swiss(ev)
        else (),
        results=tuple(
            df.Result(
                r.board,
                r.round,
                r.table_no,
                r.declarer,
                r.total,
                None if r.scores is None else tuple(r.scores),
            )
            for r in ev.results
        ),
    )


def export_json(ev: DuplicateEvent) -> str:
    club = db.session.get(Club, ev.club_id)
    doc = df.dump(event_file(ev, club.name if club else ""))
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


PROBLEMS: dict[str, Any] = {
    "not_object": _l("must be an object, not %(got)s."),
    "not_list": _l("must be a list, not %(got)s."),
    "too_many": _l("has %(n)d entries, at most %(most)d."),
    "not_text": _l("must be a name (text that is not empty), not %(got)s."),
    "too_long": _l("has %(n)d characters: at most %(most)d, please."),
    "invisible": _l("contains invisible control characters; a name may not hold them."),
    "whole": _l("must be a whole number from %(low)d to %(high)d, not %(got)s."),
    "missing": _l("is missing."),
    "unknown_field": _l("is not a field of the file (known: %(known)s)."),
    "no_event": _l(
        "This file holds no duplicate event (it has no duplicate part): a tournament file is "
        "imported on the tournaments page."
    ),
    "format": _l("%(got)s is not %(want)s."),
    "variant": _l("%(got)s is not one of the games (%(known)s)."),
    "kind": _l("%(got)s is not one of the formats (%(known)s)."),
    "kind_variant": _l(
        "Red five is played by individuals; 升级 and 120分 by pairs or trios, or teams."
    ),
    "pairing": _l("%(got)s is not one of %(known)s."),
    "swiss_teams": _l("Only team events are played as a Swiss; pairs and individuals move."),
    "swiss_two": _l("Two teams play one match: a Swiss needs three teams or more."),
    "swiss_rounds": _l("A Swiss of these teams plays from 1 to %(most)d rounds, not %(got)s."),
    "vp_factor": _l("The VP scale's factor is a number from %(low)g to %(high)g, not %(got)s."),
    "vp_factor_teams": _l("Only team events are scored in VPs: leave the VP scale's factor out."),
    "not_swiss": _l("Only a Swiss of teams has paired rounds."),
    "movement": _l("No movement fits that many entrants and rounds."),
    "entrant_twice": _l("%(name)s is listed twice: each entrant's name must be different."),
    "entrants_count": _l("The event needs from %(low)d to %(high)d entrants; the file has %(n)d."),
    "not_team": _l("%(got)s is not one of the event's teams."),
    "paired_round": _l("should be round %(want)d (the rounds in order), not %(got)s."),
    "match_two": _l("A match is two teams, not %(got)s."),
    "team_twice": _l("%(name)s plays two matches in one round."),
    "bye": _l("The team sitting out is the one without a match: %(want)s."),
    "vps": _l("must list one number of VPs per team (%(n)d)."),
    "when": _l("%(got)s is not a UTC time such as 2026-12-01T19:30:00Z."),
    "paired_missing": _l("A Swiss has at least its round 1 paired."),
    "paired_early": _l(
        "Round %(round)d is paired although board %(board)d at table %(table)d of an earlier "
        "round has no result: a Swiss round is paired once the rounds before it are complete."
    ),
    "boards_count": _l("The event has %(n)d boards; the file lists %(got)d."),
    "board_differs": _l(
        "The event deals %(want)s here, not %(got)s: this file's boards are not the cards this "
        "event's seed gives, so its results would be compared on other cards."
    ),
    "result_where": _l("A result names its board, round and table by number."),
    "no_table": _l("No table plays board %(board)d at table %(table)d in round %(round)d."),
    "result_twice": _l(
        "Board %(board)d at table %(table)d in round %(round)d has a second result."
    ),
    "wrong_seats": _l("This game's results name their seats in %(use)s."),
    "seats_differ": _l("The movement seats %(want)s there."),
    "red_five_scores": _l("A red five result is each seat's 积分 change (scores)."),
    "fixed_sides_result": _l(
        "A result of this game is the declaring side and the attackers' points."
    ),
    "scores": _l("must list %(n)d whole numbers from −%(most)d to %(most)d."),
    "scores_sum": _l("The five 积分 changes must add up to 0."),
    "declarer": _l("The declaring side is 0 or 1, not %(got)s."),
    "total": _l("The attackers' points must be a multiple of 5 from 0 to %(top)d, not %(got)s."),
    "unreadable": _l("The file could not be read."),
}


def problem_text(p: df.Problem) -> str:
    """A problem of the file as a sentence in the reader's language, after its JSON path."""
    if p.refusal is not None:
        text = refusal_text(p.refusal)
    else:
        words = PROBLEMS.get(p.code)
        text = str(words) % dict(p.params) if words is not None else p.code
    return f"{p.path}: {text}" if p.path else text


def read_file(raw: bytes | str) -> df.EventFile:
    """The event of an uploaded file, read and checked; ``FileRefused`` with every reason."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_UPLOAD:
            raise FileRefused([_("The file is too large.")])
        try:
            raw = raw.decode("utf-8-sig")  # a byte order mark is not part of the text
        except UnicodeDecodeError:
            raise FileRefused([_("The file is not UTF-8 text.")]) from None
    try:
        doc = json.loads(raw.removeprefix("\ufeff"))
    except (ValueError, RecursionError) as error:
        why = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise FileRefused([_("This is not a JSON file: %(why)s", why=why)]) from None
    try:
        return df.load(doc, LIMITS)
    except df.DuplicateFileError as error:
        raise FileRefused([problem_text(p) for p in error.problems]) from None


def import_event(
    club: Club, user: User | None, e: df.EventFile, name: str | None = None, by: str = ""
) -> DuplicateEvent:
    """The event of a checked file as a new event of ``club`` (its name, or ``name``): the
    event, its paired rounds and every result, added and flushed (the caller commits once),
    with the import in the event's audit trail (by ``user``, or ``by`` for the command line)."""
    name = name or e.name
    taken = svc.name_taken(club, name)
    if taken:
        raise FileRefused([taken])
    ev = DuplicateEvent(
        club_id=club.id,
        name=name,
        variant=e.variant,
        options=dict(e.options),
        kind=e.kind,
        entrants=list(e.entrants),
        boards_per_round=e.boards_per_round,
        rounds=e.rounds,
        pairing=e.pairing,
        seed=e.seed,
        vp_factor=e.vp_factor,
        version=1,
        created_by_id=user.id if user else None,
    )
    db.session.add(ev)
    db.session.flush()
    for p in e.paired:
        ev.paired_rounds.append(
            DuplicateRound(
                event_id=ev.id,
                round=p.round,
                pairs=[list(x) for x in p.pairs],
                bye=p.bye,
                vps=list(p.vps),
                paired_by=p.paired_by,
                **({"paired_at": p.paired_at} if p.paired_at is not None else {}),
            )
        )
    for r in e.results:
        ev.results.append(
            DuplicateResult(
                event_id=ev.id,
                board=r.board,
                round=r.round,
                table_no=r.table,
                declarer=r.declarer,
                total=r.total,
                scores=None if r.scores is None else list(r.scores),
            )
        )
    db.session.flush()
    trail.imported(ev, trail.actor_of(user, by), len(e.paired), len(e.results))
    return ev


# --- CSV ------------------------------------------------------------------------------------------


def standings_csv(ev: DuplicateEvent, director: bool) -> str:
    """The standings the event page shows this viewer, as CSV."""
    page = svc.standings_page(ev, director)
    rows: list[list[object]] = []
    if ev.kind == "teams":
        header = ["rank", "team", "vp", "imps_won", "imps_lost", "imp_quotient", "matches"]
        rows.append([*header, "provisional"])
        for r in page["team_rows"]:
            rows.append(
                [r["rank"], r["name"], r["vp"], r["won"], r["lost"], r["quotient"], r["matches"]]
                + [1 if r["provisional"] else 0]
            )
    else:
        rows.append(["rank", "entrant", "percent", "matchpoints", "top", "boards"])
        for r in page["field_rows"]:
            rows.append([r["rank"], r["name"], r["pct"], r["mp"], r["top"], r["boards"]])
    return _csv(rows)


def boards_csv(ev: DuplicateEvent, director: bool) -> str:
    """Board by board, each table's result: who sat where, the result and its value for side 0,
    and the matchpoints and percentages per place (teams: the IMPs of each side's team once
    both tables of the match have the board). Players get the complete boards only."""
    m = svc.movement_of(ev)
    shown = svc.shown_results(ev, director, m)
    rows_of = {(r.board, r.round, r.table_no): r for r in ev.results}
    red = ev.variant == RED_FIVE
    header: list[str]
    if red:
        header = ["board", "round", "table"]
        for what in ("seat", "score", "mp", "percent"):
            header += [f"{what}{i + 1}" for i in range(5)]
    elif ev.kind == "teams":
        header = ["board", "round", "table", "match", "side0", "side1", "declarer", "total"]
        header += ["value0", "imps_side0", "imps_side1"]
    else:
        header = ["board", "round", "table", "side0", "side1", "declarer", "total", "value0"]
        header += ["mp_side0", "mp_side1", "percent_side0", "percent_side1"]
    out: list[list[object]] = [list(header)]
    ordered = sorted(shown, key=lambda t: (t.board, t.round, t.table))
    # board_scores gives each result's matchpoints board by board, in (round, table) order
    scores = dict(zip(ordered, board_scores(shown), strict=True)) if ev.kind != "teams" else {}
    v = make_variant(ev.variant, ev.options)
    imps = table_imps(v, shown) if ev.kind == "teams" else {}
    for x in ordered:
        names = [svc.entrant_label(ev, e) for e in x.seats]
        if red:
            sc = scores.get(x)
            out.append(
                [x.board, x.round, x.table, *names, *(x.scores or ())]
                + list(sc.mp if sc else ())
                + list(sc.pct if sc else ())
            )
            continue
        row = rows_of[(x.board, x.round, x.table)]
        line: list[object] = [x.board, x.round, x.table]
        if ev.kind == "teams":
            line.append(x.match)
        line += [*names, row.declarer, row.total, x.value0]
        if ev.kind == "teams":
            mine = imps.get((x.board, x.round, x.table))
            line += ["", ""] if mine is None else [mine, -mine]
        else:
            sc = scores.get(x)
            line += [sc.mp[0], sc.mp[1], sc.pct[0], sc.pct[1]] if sc else ["", "", "", ""]
        out.append(line)
    return _csv(out)
