"""A duplicate event in the tournament file (``docs/TOURNAMENT_EXTENSIONS.md``, "Duplicate
events"): read with full validation, and written. Pure: no Flask, no database.

The file is a ``shengji-tournament/1`` document whose tournament part is the envelope
(``format``, ``club``, ``name``, ``variant``, ``options``) and whose optional top-level
``duplicate`` object holds the event: its kind and pairing, the boards per round and rounds, the
seed, the entrants, a Swiss's stored pairings, the boards by seed (each board's seed, first drawer
and level, as the event derives them) and every table's result per board.

``load(doc, limits)`` checks everything against the movement and boards the event derives and
collects every problem with its JSON path, then raises one ``DuplicateFileError`` — so an import
is all or nothing. A problem is a stable ``code`` with parameters (never a sentence): the app words
it in the reader's language (``app.services.duplicate.files``). ``dump(event)`` writes the keys in
the documented order; a dump loads back into an equal event and dumps again identically.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeGuard

from engine.errors import EngineError
from engine.variants import RED_FIVE, VARIANT_IDS, make_variant

from .boards import Board, event_boards
from .duplicate import DEFAULT_B_FACTOR, DuplicateError
from .model import FORMAT_ID
from .movements import (
    Movement,
    MovementError,
    check_movement,
    event_movement,
    swiss_max_rounds,
    team_swiss_movement,
)
from .names import has_invisible, name_match_key, normalize_name

KINDS = ("pairs", "teams", "individuals")
PAIRINGS = ("round-robin", "swiss")
TOP_KEYS = ("format", "club", "name", "variant", "options", "duplicate")
EVENT_KEYS = (
    "kind",
    "pairing",
    "boards_per_round",
    "rounds",
    "vp_factor",
    "seed",
    "entrants",
    "paired",
    "boards",
    "results",
)
PAIRED_KEYS = ("round", "matches", "bye", "vps", "paired_by", "paired_at")
BOARD_KEYS = ("board", "seed", "first_drawer", "level")
RESULT_KEYS = ("board", "round", "table", "sides", "players", "declarer", "total", "scores")
SEED_LIMIT = 2**48
MAX_TEXT = 120
MAX_SCORE = 99  # a red five seat's 积分 change on one board, as the traveller form takes it
VP_FACTOR = float(
    DEFAULT_B_FACTOR
)  # DUPLICATE.md: the VP scale's B = factor × √N, 10 unless the event says
VP_FACTOR_RANGE = (1.0, 100.0)


@dataclass(frozen=True)
class Limits:
    """What the app accepts (``app.services.duplicate.events``): entrants per kind and boards
    per round."""

    min_entrants: Mapping[str, int] = field(default_factory=dict)
    max_entrants: Mapping[str, int] = field(default_factory=dict)
    max_boards_per_round: int = 8


@dataclass(frozen=True)
class Problem:
    path: str  # JSON path, e.g. "duplicate.results[3].total"
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    refusal: EngineError | None = field(default=None, compare=False)  # a bad option

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.path}: {self.code}" + (f" ({args})" if args else "")


class DuplicateFileError(ValueError):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class PairedRound:
    """A Swiss round as it was paired: matches (team A, team B) by entrant index, the bye."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    vps: tuple[float, ...] = ()
    paired_by: str = ""
    paired_at: datetime | None = None


@dataclass(frozen=True)
class Result:
    """One table's result on one board: fixed sides ``declarer`` and ``total`` (the attackers'
    total), red five ``scores`` (each seat's 积分 change)."""

    board: int
    round: int
    table: int
    declarer: int | None = None
    total: int | None = None
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True)
class EventFile:
    club: str
    name: str
    variant: str
    options: Mapping[str, Any]
    kind: str
    pairing: str
    boards_per_round: int
    rounds: int | None
    seed: int
    entrants: tuple[str, ...]
    paired: tuple[PairedRound, ...] = ()
    results: tuple[Result, ...] = ()
    vp_factor: float = VP_FACTOR  # teams: the VP scale's factor

    @property
    def swiss(self) -> bool:
        return self.kind == "teams" and self.pairing == "swiss"


def movement(e: EventFile) -> Movement:
    """The event's movement (``movements.event_movement``, as the app's events derive it)."""
    swiss = [(list(p.pairs), p.bye) for p in e.paired] if e.swiss else None
    return event_movement(e.kind, len(e.entrants), e.boards_per_round, e.rounds, swiss)


def boards(e: EventFile, m: Movement | None = None) -> list[Board]:
    m = m or movement(e)
    return event_boards(e.variant, e.options, e.seed, m.boards)


def label(e: EventFile, entrant: int) -> str:
    """An entrant of the movement by name (teams: the team's half, ``Name · 1``)."""
    if e.kind == "teams":
        return f"{e.entrants[entrant // 2]} · {entrant % 2 + 1}"
    return e.entrants[entrant]


def max_total(variant: str, options: Mapping[str, Any]) -> int:
    """The highest attackers' total a traveller takes (card points with the biggest kitty
    bonus and penalties, as the traveller form bounds it)."""
    return make_variant(variant, dict(options)).total_points * 4


# --- reading ------------------------------------------------------------------------------------


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _same_names(given: object, names: list[str]) -> bool:
    """A result's players or sides as the file wrote them are the seated ones, names compared
    as ``name_match_key`` ("王 伟" is 王伟)."""
    return (
        isinstance(given, list)
        and len(given) == len(names)
        and all(
            isinstance(g, str) and name_match_key(g) == name_match_key(n)
            for g, n in zip(given, names, strict=True)
        )
    )


def _show(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "…"


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _Loader:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.problems: list[Problem] = []

    def err(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(path, code, params))

    def unknown(self, obj: Mapping[str, Any], known: tuple[str, ...], path: str) -> None:
        for key in obj:
            if key not in known:
                self.err(_join(path, str(key)), "unknown_field", known=", ".join(known))

    def obj(self, v: object, path: str) -> Mapping[str, Any] | None:
        if not isinstance(v, Mapping):
            self.err(path, "not_object", got=_show(v))
            return None
        return v

    def array(self, v: object, path: str, most: int) -> list[Any] | None:
        if not isinstance(v, list):
            self.err(path, "not_list", got=_show(v))
            return None
        if len(v) > most:
            self.err(path, "too_many", n=len(v), most=most)
            return None
        return v

    def text(self, v: object, path: str) -> str | None:
        if not isinstance(v, str) or not v.strip():
            self.err(path, "not_text", got=_show(v))
            return None
        name = normalize_name(v)
        if len(name) > MAX_TEXT:
            self.err(path, "too_long", n=len(name), most=MAX_TEXT)
            return None
        if has_invisible(name):
            self.err(path, "invisible")
            return None
        return name

    def whole(self, v: object, path: str, low: int, high: int) -> int | None:
        if not _is_int(v) or not low <= v <= high:
            self.err(path, "whole", low=low, high=high, got=_show(v))
            return None
        return v

    # --- the document -------------------------------------------------------------------------

    def load(self, doc: object) -> EventFile | None:
        d = self.obj(doc, "")
        if d is None:
            return None
        if "duplicate" not in d:
            self.err("duplicate", "no_event")
            return None
        self.unknown(d, TOP_KEYS, "")
        for key in ("format", "club", "name", "variant"):
            if key not in d:
                self.err(key, "missing")
        if "format" in d and d["format"] != FORMAT_ID:
            self.err("format", "format", got=_show(d["format"]), want=FORMAT_ID)
        club = self.text(d["club"], "club") if "club" in d else None
        name = self.text(d["name"], "name") if "name" in d else None
        variant = d.get("variant")
        if "variant" in d and variant not in VARIANT_IDS:
            self.err("variant", "variant", got=_show(variant), known=", ".join(VARIANT_IDS))
            variant = None
        options: dict[str, Any] = {}
        if "options" in d:
            o = self.obj(d["options"], "options")
            options = dict(o) if o is not None else {}
        if isinstance(variant, str):
            try:
                make_variant(variant, options)
            except EngineError as e:
                self.problems.append(Problem("options", "option", {"why": str(e)}, e))
                variant = None
        ev = self.obj(d["duplicate"], "duplicate")
        if ev is None or self.problems or club is None or name is None:
            return None
        assert isinstance(variant, str)
        return self.event(ev, club, name, variant, options)

    def event(
        self, d: Mapping[str, Any], club: str, name: str, variant: str, options: dict[str, Any]
    ) -> EventFile | None:
        p = "duplicate"
        self.unknown(d, EVENT_KEYS, p)
        for key in ("kind", "boards_per_round", "seed", "entrants"):
            if key not in d:
                self.err(_join(p, key), "missing")
        kind = d.get("kind")
        if "kind" in d:
            if kind not in KINDS:
                self.err(f"{p}.kind", "kind", got=_show(kind), known=", ".join(KINDS))
                kind = None
            elif (variant == RED_FIVE) != (kind == "individuals"):
                self.err(f"{p}.kind", "kind_variant")
                kind = None
        pairing = d.get("pairing", "round-robin")
        if pairing not in PAIRINGS:
            self.err(f"{p}.pairing", "pairing", got=_show(pairing), known=", ".join(PAIRINGS))
            pairing = None
        elif pairing == "swiss" and kind is not None and kind != "teams":
            self.err(f"{p}.pairing", "swiss_teams")
            pairing = None
        per_round = None
        if "boards_per_round" in d:
            per_round = self.whole(
                d["boards_per_round"], f"{p}.boards_per_round", 1, self.limits.max_boards_per_round
            )
        rounds = d.get("rounds")
        if rounds is not None:
            rounds = self.whole(rounds, f"{p}.rounds", 1, 60)
            if rounds is None:
                return None
        seed = self.whole(d["seed"], f"{p}.seed", 0, SEED_LIMIT - 1) if "seed" in d else None
        vp_factor = VP_FACTOR
        if "vp_factor" in d:
            f = d["vp_factor"]
            low, high = VP_FACTOR_RANGE
            if not (_is_int(f) or isinstance(f, float)) or not low <= f <= high:
                self.err(f"{p}.vp_factor", "vp_factor", low=low, high=high, got=_show(f))
            elif kind is not None and kind != "teams" and f != VP_FACTOR:
                self.err(f"{p}.vp_factor", "vp_factor_teams")
            else:
                vp_factor = round(float(f), 2)
        entrants = self.entrants(d["entrants"], f"{p}.entrants", kind) if "entrants" in d else None
        if self.problems:
            return None
        assert isinstance(kind, str) and isinstance(pairing, str)
        assert per_round is not None and seed is not None and entrants is not None
        e = EventFile(
            club,
            name,
            variant,
            options,
            kind,
            pairing if kind == "teams" else "round-robin",
            per_round,
            rounds,
            seed,
            tuple(entrants),
            vp_factor=vp_factor,
        )
        if e.swiss:
            most = swiss_max_rounds(len(entrants)) if len(entrants) >= 2 else 0
            if most < 1:
                self.err(f"{p}.pairing", "swiss_two")
                return None
            if rounds is None or not 1 <= rounds <= most:
                self.err(f"{p}.rounds", "swiss_rounds", most=most, got=_show(rounds))
                return None
        elif "paired" in d:
            self.err(f"{p}.paired", "not_swiss")
            return None
        try:
            movement(e)
        except MovementError:
            self.err(f"{p}.rounds" if rounds else f"{p}.entrants", "movement")
            return None
        if e.swiss:
            paired = self.paired(d.get("paired", []), f"{p}.paired", e)
            if paired is None:
                return None
            e = replace(e, paired=tuple(paired))
        m = movement(e)
        if "boards" in d:
            self.boards(d["boards"], f"{p}.boards", e, m)
        results = self.results(d.get("results", []), f"{p}.results", e, m)
        if self.problems or results is None:
            return None
        e = replace(e, results=tuple(results))
        if e.swiss:
            self.swiss_order(e, m, f"{p}.paired")
        return None if self.problems else e

    def entrants(self, v: object, path: str, kind: object) -> list[str] | None:
        arr = self.array(v, path, 200)
        if arr is None:
            return None
        names: list[str] = []
        for i, x in enumerate(arr):
            n = self.text(x, f"{path}[{i}]")
            if n is None:
                continue
            if name_match_key(n) in {name_match_key(x) for x in names}:  # "王 伟" is 王伟
                self.err(f"{path}[{i}]", "entrant_twice", name=n)
            names.append(n)
        if isinstance(kind, str):
            low = self.limits.min_entrants.get(kind, 2)
            high = self.limits.max_entrants.get(kind, 200)
            if not low <= len(arr) <= high:
                self.err(path, "entrants_count", low=low, high=high, n=len(arr))
        return names

    def team(self, v: object, path: str, e: EventFile) -> int | None:
        if v not in e.entrants:
            self.err(path, "not_team", got=_show(v))
            return None
        return e.entrants.index(v)  # type: ignore[arg-type]

    def paired(self, v: object, path: str, e: EventFile) -> list[PairedRound] | None:
        assert e.rounds is not None
        arr = self.array(v, path, e.rounds)
        if arr is None:
            return None
        n = len(e.entrants)
        out: list[PairedRound] = []
        for i, x in enumerate(arr):
            ip = f"{path}[{i}]"
            o = self.obj(x, ip)
            if o is None:
                continue
            self.unknown(o, PAIRED_KEYS, ip)
            if o.get("round") != i + 1:
                self.err(f"{ip}.round", "paired_round", want=i + 1, got=_show(o.get("round")))
            matches = self.array(o.get("matches"), f"{ip}.matches", n)
            pairs: list[tuple[int, int]] = []
            seen: list[int] = []
            for j, mt in enumerate(matches or []):
                mp = f"{ip}.matches[{j}]"
                if not isinstance(mt, list) or len(mt) != 2:
                    self.err(mp, "match_two", got=_show(mt))
                    continue
                a, b = (self.team(t, f"{mp}[{k}]", e) for k, t in enumerate(mt))
                if a is None or b is None:
                    continue
                for t in (a, b):
                    if t in seen:
                        self.err(mp, "team_twice", name=e.entrants[t])
                    seen.append(t)
                pairs.append((a, b))
            bye = None if o.get("bye") is None else self.team(o["bye"], f"{ip}.bye", e)
            if matches is not None and len(pairs) == len(matches):
                rest = [t for t in range(n) if t not in seen]
                if rest != ([] if bye is None else [bye]) or len(seen) != len(set(seen)):
                    self.err(f"{ip}.bye", "bye", want=_show([e.entrants[t] for t in rest]))
            vps: tuple[float, ...] = ()
            if "vps" in o:
                raw = o["vps"]
                if (
                    not isinstance(raw, list)
                    or len(raw) != n
                    or not all(
                        isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= 10**4
                        for x in raw
                    )
                ):
                    self.err(f"{ip}.vps", "vps", n=n)
                else:
                    vps = tuple(float(x) for x in raw)
            by = ""
            if o.get("paired_by") not in (None, ""):
                by = self.text(o["paired_by"], f"{ip}.paired_by") or ""
            at = None
            if o.get("paired_at") is not None:
                at = self.when(o["paired_at"], f"{ip}.paired_at")
            out.append(PairedRound(i + 1, tuple(pairs), bye, vps, by, at))
        if not out and not self.problems:
            self.err(path, "paired_missing")
        if self.problems:
            return None
        try:
            # the rounds paired so far (a round not paired yet seats nobody)
            check_movement(
                team_swiss_movement(
                    n, e.boards_per_round, len(out), [(list(x.pairs), x.bye) for x in out]
                )
            )
        except MovementError:  # pragma: no cover - the checks above cover a round's seating
            self.err(path, "movement")
            return None
        return out

    def when(self, raw: object, path: str) -> datetime | None:
        """A UTC time written ``2026-12-01T15:04:05Z``."""
        at = None
        if isinstance(raw, str) and raw.endswith("Z"):
            try:
                at = datetime.fromisoformat(raw.removesuffix("Z"))
            except ValueError:
                at = None
        if at is None or at.tzinfo is not None:
            self.err(path, "when", got=_show(raw))
            return None
        return at

    def boards(self, v: object, path: str, e: EventFile, m: Movement) -> None:
        arr = self.array(v, path, max(m.boards, 1))
        if arr is None:
            return
        if len(arr) != m.boards:
            self.err(path, "boards_count", n=m.boards, got=len(arr))
            return
        try:
            derived = boards(e, m)
        except DuplicateError:  # pragma: no cover - the options were checked with the variant
            self.err(path, "movement")
            return
        for i, (x, b) in enumerate(zip(arr, derived, strict=True)):
            ip = f"{path}[{i}]"
            o = self.obj(x, ip)
            if o is None:
                continue
            self.unknown(o, BOARD_KEYS, ip)
            want = board_json(b)
            for key in BOARD_KEYS:
                if key in o and o[key] != want[key]:
                    self.err(
                        f"{ip}.{key}", "board_differs", got=_show(o[key]), want=_show(want[key])
                    )

    def results(self, v: object, path: str, e: EventFile, m: Movement) -> list[Result] | None:
        places = {(b, s.round, s.table): s for s in m.sittings for b in s.boards}
        arr = self.array(v, path, max(len(places), 1))
        if arr is None:
            return None
        top = max_total(e.variant, e.options)
        out: list[Result] = []
        seen: set[tuple[int, int, int]] = set()
        red = e.variant == RED_FIVE
        for i, x in enumerate(arr):
            ip = f"{path}[{i}]"
            o = self.obj(x, ip)
            if o is None:
                continue
            self.unknown(o, RESULT_KEYS, ip)
            key = tuple(o.get(k) for k in ("board", "round", "table"))
            if not all(_is_int(k) for k in key):
                self.err(ip, "result_where")
                continue
            b, r, t = key
            s = places.get((b, r, t))  # type: ignore[arg-type]
            if s is None:
                self.err(ip, "no_table", board=b, round=r, table=t)
                continue
            if (b, r, t) in seen:
                self.err(ip, "result_twice", board=b, round=r, table=t)
                continue
            seen.add((b, r, t))  # type: ignore[arg-type]
            names = [label(e, x) for x in s.seats]
            seats_key = "players" if red else "sides"
            other = "sides" if red else "players"
            if other in o:
                self.err(f"{ip}.{other}", "wrong_seats", use=seats_key)
            if seats_key in o and not _same_names(o[seats_key], names):
                self.err(f"{ip}.{seats_key}", "seats_differ", want=" – ".join(names))
            if red:
                for k in ("declarer", "total"):
                    if k in o:
                        self.err(f"{ip}.{k}", "red_five_scores")
                sc = o.get("scores")
                if (
                    not isinstance(sc, list)
                    or len(sc) != len(s.seats)
                    or not all(_is_int(y) and abs(y) <= MAX_SCORE for y in sc)
                ):
                    self.err(f"{ip}.scores", "scores", n=len(s.seats), most=MAX_SCORE)
                    continue
                if sum(sc) != 0:
                    self.err(f"{ip}.scores", "scores_sum")
                    continue
                out.append(Result(b, r, t, scores=tuple(sc)))  # type: ignore[arg-type]
                continue
            if "scores" in o:
                self.err(f"{ip}.scores", "fixed_sides_result")
            dec, tot = o.get("declarer"), o.get("total")
            ok = True
            if dec not in (0, 1) or isinstance(dec, bool):
                self.err(f"{ip}.declarer", "declarer", got=_show(dec))
                ok = False
            if not _is_int(tot) or not 0 <= tot <= top or tot % 5:
                self.err(f"{ip}.total", "total", top=top, got=_show(tot))
                ok = False
            if ok:
                out.append(Result(b, r, t, declarer=dec, total=tot))  # type: ignore[arg-type]
        return None if self.problems else out

    def swiss_order(self, e: EventFile, m: Movement, path: str) -> None:
        """A Swiss round is paired only once every board of the rounds before it is in."""
        have = {(x.board, x.round, x.table) for x in e.results}
        for p in e.paired[1:]:
            missing = [
                (b, s.table)
                for s in m.sittings
                if s.round < p.round
                for b in s.boards
                if (b, s.round, s.table) not in have
            ]
            if missing:
                b, t = missing[0]
                self.err(f"{path}[{p.round - 1}]", "paired_early", round=p.round, board=b, table=t)
                return


def load(doc: object, limits: Limits | None = None) -> EventFile:
    """Read a parsed file holding a duplicate event; raise ``DuplicateFileError`` listing every
    problem."""
    loader = _Loader(limits or Limits())
    e = loader.load(doc)
    if loader.problems or e is None:
        raise DuplicateFileError(loader.problems or [Problem("", "unreadable")])
    return e


# --- writing ------------------------------------------------------------------------------------


def board_json(b: Board) -> dict[str, Any]:
    """A board as the file lists it: its own seed, the seat that draws first, the level."""
    return {
        "board": b.number,
        "seed": b.seed,
        "first_drawer": b.deal().first_drawer,
        "level": b.level,
    }


def _when(at: datetime) -> str:
    return at.replace(microsecond=0).isoformat() + "Z"


def dump(e: EventFile) -> dict[str, Any]:
    """The event as a file document: keys in the documented order, defaults omitted."""
    m = movement(e)
    ev: dict[str, Any] = {"kind": e.kind}
    if e.kind == "teams":
        ev["pairing"] = e.pairing
    ev["boards_per_round"] = e.boards_per_round
    if e.rounds is not None:
        ev["rounds"] = e.rounds
    if e.vp_factor != VP_FACTOR:
        ev["vp_factor"] = e.vp_factor
    ev["seed"] = e.seed
    ev["entrants"] = list(e.entrants)
    if e.swiss:
        rows = []
        for p in e.paired:
            row: dict[str, Any] = {
                "round": p.round,
                "matches": [[e.entrants[a], e.entrants[b]] for a, b in p.pairs],
                "bye": None if p.bye is None else e.entrants[p.bye],
            }
            if p.vps:
                row["vps"] = list(p.vps)
            if p.paired_by:
                row["paired_by"] = p.paired_by
            if p.paired_at is not None:
                row["paired_at"] = _when(p.paired_at)
            rows.append(row)
        ev["paired"] = rows
    ev["boards"] = [board_json(b) for b in boards(e, m)]
    seats = {(s.round, s.table): s for s in m.sittings}
    results = []
    for r in sorted(e.results, key=lambda x: (x.board, x.round, x.table)):
        out: dict[str, Any] = {"board": r.board, "round": r.round, "table": r.table}
        names = [label(e, x) for x in seats[(r.round, r.table)].seats]
        if r.scores is not None:
            out["players"] = names
            out["scores"] = list(r.scores)
        else:
            out["sides"] = names
            out["declarer"] = r.declarer
            out["total"] = r.total
        results.append(out)
    ev["results"] = results
    doc: dict[str, Any] = {"format": FORMAT_ID, "club": e.club, "name": e.name}
    doc["variant"] = e.variant
    if e.options:
        doc["options"] = dict(e.options)
    doc["duplicate"] = ev
    return doc


__all__ = [
    "DuplicateFileError",
    "EventFile",
    "Limits",
    "PairedRound",
    "Problem",
    "Result",
    "dump",
    "load",
    "movement",
]
