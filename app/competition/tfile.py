"""The tournament file (``shared/formats/TOURNAMENT.md``): load with full validation, dump.

``load(doc)`` checks everything and collects every error with its JSON path and field
(``played[0].tables[1].deals[3].points: 87 is not a multiple of 5``), then raises one
``TournamentFileError`` carrying them all — so an import is all or nothing. ``dump(t)`` writes the
keys in the documented order and omits optional fields at their defaults, so a dump loads back
into an equal tournament and dumps again identically.

Decisions where the format leaves room: ``trump`` is required in every deal (null = no trump),
and so is ``friend`` in red five (null = alone); ``options`` is kept as written (only the
options given); ``points`` may be omitted on import (2/1/0) but is always written; a red five
entrant's ``players`` may be omitted on import (it is then the entrant's name alone) and is
always written.

争上游 (``climbing``, ``shared/rules/CLIMBING.md``): ``shared/formats/TOURNAMENT.md`` is silent
on it (its variants are the three trick games), so this module decides, in the format's style
(seats 0 … n − 1, a deal one row of the paper sheet), and ``docs/TOURNAMENT_EXTENSIONS.md``
repeats it:

* ``variant: "climbing"`` with its options (``players`` 3 … 6, ``decks``, ``tribute``,
  ``place_points``); ``pairing`` must be ``reseat`` (individuals re-seated as in red five);
  ``match`` is ``deals`` or ``minutes`` (no ``to_a``, no ``tie_break``: there are no levels);
  entrants are single players (``players`` may be omitted, as in red five).
* A table lists its ``players`` by seat, as many as the ``players`` option says; its ``mode``
  is ``paper`` or ``online`` (played in the browser: its rows are the ones the game recorded).
* A deal is ``{"places": [2, 1, 4, 3], "tribute": {"from": 2, "to": 1, "card": "2S"}}``:
  ``places`` each seat's place by seat (1 = 上游, first out … n = 下游, last), required;
  ``tribute`` optional: the 进贡 paid before this deal, from the seat that came last in the deal
  before to the seat that came first, ``card`` a card code (``2S``, ``10H``, ``AD``, ``LJ``,
  ``HJ``; written back in that form). It is absent in a first deal, with ``tribute: false`` and
  on 抗贡. ``penalties`` (only ``takeback``, by ``seat``) and ``warnings`` as in red five. The
  trick fields (``declarer``, ``dealer``, ``friend``, ``trump``, ``points``, ``kitty``,
  ``multiplier``, ``failed_throws``, ``friend_grabbed``, ``misplays``, ``level``) are refused.
  Errors name ``…deals[3].places[2]`` and ``…deals[3].tribute.from`` / ``.to`` / ``.card``.
* Standings (``standings_json``) are red five's objects with ``score`` the points by place and
  ``wins`` (deals won, 上游) in place of ``dealer_wins``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from engine.errors import EngineError
from engine.variants import CLIMBING, RED_FIVE, TRACTOR, VARIANT_IDS, Variant, make_variant

from .climbing import TRIBUTE_CARD, TRIBUTE_FROM, TRIBUTE_TO, derive_climbing, normal_tribute
from .matches import DealIssue, deal_issues, derive_fixed, derive_red_five
from .model import (
    FORMAT_ID,
    MODES,
    PAIRINGS,
    TIE_BREAKS,
    Deal,
    Entrant,
    FailedThrows,
    MatchSpec,
    PointsSpec,
    Round,
    Substitute,
    Table,
    Tournament,
    Tribute,
)
from .names import has_invisible, name_match_key, normalize_name
from .presets import PRESETS
from .standings import standings_json

__all__ = ["FileError", "TournamentFileError", "dump", "load", "standings_json"]

TOP_KEYS = (
    "format",
    "club",
    "name",
    "date",
    "venue",
    "season",
    "division",
    "variant",
    "options",
    "pairing",
    "rounds",
    "match",
    "points",
    "preset",
    "entrants",
    "played",
)
POINTS_KEYS = ("win", "draw", "loss", "bye", "forfeit_level_diff")
ENTRANT_KEYS = ("name", "players", "withdrawn_after", "substitutes")
SUBSTITUTE_KEYS = ("seat", "from_round", "name", "reason")
ROUND_KEYS = ("round", "tables")
TABLE_KEYS = (
    "table",
    "sides",
    "players",
    "bye",
    "forfeit",
    "mode",
    "finished",
    "end_reason",
    "last_deal",
    "deals",
)
# a match to a level: the level whose passing ends it (A, or lower for "first past 10")
TARGET_LEVELS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DEAL_KEYS = (
    "declarer",
    "dealer",
    "friend",
    "trump",
    "points",
    "kitty",
    "multiplier",
    "failed_throws",
    "friend_grabbed",
    "misplays",
    "level",
    "places",
    "tribute",
    "penalties",
    "warnings",
)
# a 争上游 row: places and tribute; the trick fields are refused
CLIMBING_KEYS = ("places", "tribute", "penalties", "warnings")
TRIBUTE_KEYS = ("from", "to", "card")
PENALTY_KINDS = ("revoke", "miscount", "wrong_kitty", "takeback")
SIDE_SIZE = {TRACTOR: 2, "one-twenty-6p": 3, RED_FIVE: 1, CLIMBING: 1}
TABLE_SIZE = {TRACTOR: 2, "one-twenty-6p": 2, RED_FIVE: 5}
# the variants a file may hold, and those of individuals re-seated each round
FILE_VARIANTS = (*VARIANT_IDS, CLIMBING)
INDIVIDUALS = (RED_FIVE, CLIMBING)

# 打百分's variants: a file of one is read by ``hundred_file.HundredLoader``
HUNDRED_VARIANTS = ("hundred-4p", "forty-4p", "hundred-3p")


@dataclass(frozen=True)
class FileError:
    path: str  # JSON path of the field, e.g. "played[0].tables[1].deals[3].points"
    message: str
    # the engine's refusal when the message is the engine's sentence: a page words it for its
    # reader (``app.services.online.refusals``)
    refusal: EngineError | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class TournamentFileError(ValueError):
    """Every error found in a tournament file; ``errors`` lists them in file order."""

    def __init__(self, errors: list[FileError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


def _iso_date(text: str) -> bool:
    if len(text) != 10:
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(v: object) -> bool:
    return isinstance(v, str) and v.strip() != ""


# Bounds no real tournament reaches: they keep hostile files from the database and the printer
# (names as long as the columns that store them; numbers that fit any integer column).
MAX_NUMBER = 10_000
MAX_TEXT = {"club": 80, "players": 80, "reason": 200}  # by the key; other texts at most 120
MAX_TEXT_DEFAULT = 120
MAX_DEPTH = 12


def _bounds(doc: object) -> list[FileError]:
    """Every number beyond ``MAX_NUMBER``, text beyond its length and nesting deeper than any
    field of the format, by JSON path (iterative: a hostile file cannot exhaust the stack)."""
    errors: list[FileError] = []
    stack: list[tuple[object, str, str, int]] = [(doc, "", "", 0)]
    while stack:
        v, path, key, depth = stack.pop()
        if depth > MAX_DEPTH:
            errors.append(FileError(path, "nested too deeply for a tournament file"))
        elif isinstance(v, Mapping):
            for k, item in reversed(list(v.items())):
                stack.append((item, _join(path, str(k)), str(k), depth + 1))
        elif isinstance(v, list):
            for i, item in reversed(list(enumerate(v))):
                stack.append((item, f"{path}[{i}]", key, depth + 1))
        elif isinstance(v, float) and v != v:
            errors.append(FileError(path, "NaN is not a number"))
        elif isinstance(v, int | float) and not isinstance(v, bool) and abs(v) > MAX_NUMBER:
            errors.append(FileError(path, f"{_show(v)} is too large (at most {MAX_NUMBER})"))
        elif isinstance(v, str) and len(v) > MAX_TEXT.get(key, MAX_TEXT_DEFAULT):
            limit = MAX_TEXT.get(key, MAX_TEXT_DEFAULT)
            errors.append(FileError(path, f"{len(v)} characters: at most {limit}, please"))
    return errors


class _Loader:
    def __init__(self) -> None:
        self.errors: list[FileError] = []
        # Entrants named in the file whose own entry has an error (reported there): tables that
        # seat them by name skip them quietly instead of adding "… is not an entrant".
        self.flawed_entrants: set[str] = set()

    def err(self, path: str, message: str, refusal: EngineError | None = None) -> None:
        self.errors.append(FileError(path, message, refusal))

    def unknown(self, obj: Mapping[str, Any], known: tuple[str, ...], path: str) -> None:
        for key in obj:
            if key not in known:
                self.err(_join(path, str(key)), f"unknown field (known: {', '.join(known)})")

    def obj(self, v: object, path: str, what: str) -> Mapping[str, Any] | None:
        if not isinstance(v, Mapping):
            self.err(path, f"must be an object ({what}), not {_show(v)}")
            return None
        return v

    def record(
        self, v: object, path: str, what: str, known: tuple[str, ...]
    ) -> Mapping[str, Any] | None:
        """An object (``what`` says which) whose fields should all be ``known``: an unknown
        field is an error, and the object is read all the same."""
        o = self.obj(v, path, what)
        if o is not None:
            self.unknown(o, known, path)
        return o

    def records(
        self, arr: list[Any], path: str, what: str, known: tuple[str, ...]
    ) -> Iterator[tuple[int, str, Mapping[str, Any]]]:
        """The objects of a list, each with its index and path (``path[i]``); an item that is
        not an object is an error, and skipped."""
        for i, item in enumerate(arr):
            ipath = f"{path}[{i}]"
            o = self.record(item, ipath, what, known)
            if o is not None:
                yield i, ipath, o

    def name(self, v: object, path: str, what: str = "text") -> str | None:
        """A name cleaned as the forms clean it (``names.normalize_name``), or None with the
        reason: not a text, empty, or holding invisible characters."""
        if not _text(v):
            self.err(path, f"must be a non-empty {what}, not {_show(v)}")
            return None
        assert isinstance(v, str)
        name = normalize_name(v)
        if has_invisible(name):
            bad = next(ch for ch in name if has_invisible(ch))
            self.err(
                path,
                f"contains invisible characters (control, direction or zero-width: "
                f"U+{ord(bad):04X}); a name may not hold them",
            )
            return None
        return name

    def array(self, v: object, path: str, what: str) -> list[Any] | None:
        if not isinstance(v, list):
            self.err(path, f"must be a list ({what}), not {_show(v)}")
            return None
        return v

    # --- the document ------------------------------------------------------------------------

    def load(self, doc: object) -> Tournament | None:
        d = self.obj(doc, "", "a tournament file")
        if d is None:
            return None
        if "duplicate" in d:  # the optional duplicate part (docs/TOURNAMENT_EXTENSIONS.md)
            self.err(
                "duplicate",
                "this file holds a duplicate event (复式), not a tournament: import it on the "
                "club's duplicate events page or with flask duplicate import",
            )
            return None
        self.errors += _bounds(d)
        if any(e.message.startswith("nested too deeply") for e in self.errors):
            return None
        self.unknown(d, TOP_KEYS, "")
        for key in ("format", "club", "name", "variant", "pairing", "rounds", "match", "entrants"):
            if key not in d:
                self.err(key, "is missing")
        fmt = d.get("format")
        if "format" in d and fmt != FORMAT_ID:
            self.err("format", f"{_show(fmt)} is not {FORMAT_ID!r}")
        names = {key: self.name(d[key], key) for key in ("club", "name") if key in d}
        variant_id = d.get("variant")
        variant: Variant | None = None
        if "variant" in d and variant_id not in FILE_VARIANTS:
            known = ", ".join((*FILE_VARIANTS, *HUNDRED_VARIANTS))  # 打百分: hundred_file
            self.err("variant", f"{_show(variant_id)} is not one of {known}")
            variant_id = None
        options: dict[str, Any] = {}
        if "options" in d:
            o = self.obj(d["options"], "options", "option names to values")
            if o is not None:
                options = dict(o)
        if variant_id is not None:
            variant = self.variant(variant_id, options)
        pairing = d.get("pairing")
        if "pairing" in d:
            if pairing not in PAIRINGS:
                self.err("pairing", f"{_show(pairing)} is not one of {', '.join(PAIRINGS)}")
            elif variant_id == RED_FIVE and pairing != "reseat":
                self.err("pairing", "red five re-seats individuals: use reseat")
            elif variant_id == CLIMBING and pairing != "reseat":
                self.err("pairing", "争上游 re-seats individuals: use reseat")
            elif variant_id is not None and variant_id not in INDIVIDUALS and pairing == "reseat":
                self.err("pairing", "reseat is for red five; fixed sides use round-robin or swiss")
        rounds = d.get("rounds")
        if "rounds" in d and (not _is_int(rounds) or rounds < 1):
            self.err("rounds", f"must be a number of rounds, 1 or more, not {_show(rounds)}")
            rounds = None
        match = self.match(d["match"], variant_id) if "match" in d else None
        points = self.points(d["points"]) if "points" in d else PointsSpec()
        entrants = self.entrants(d["entrants"], variant_id, rounds) if "entrants" in d else None
        played: list[Round] = []
        if "played" in d:
            arr = self.array(d["played"], "played", "the rounds played")
            if arr is not None and entrants is not None:
                played = self.played(arr, variant, match, entrants, rounds)
        night = self.night(d)
        preset = d.get("preset")
        if "preset" in d:
            fits = preset in PRESETS and (variant_id is None or PRESETS[preset].fits(variant_id))
            if not fits:
                known = ", ".join(
                    p.id for p in PRESETS.values() if variant_id is None or p.fits(variant_id)
                )
                self.err("preset", f"{_show(preset)} is not a rule preset of this game ({known})")
        if self.errors:
            return None
        assert variant is not None and match is not None and entrants is not None
        club, name = names["club"], names["name"]
        assert club is not None and name is not None
        assert isinstance(pairing, str) and isinstance(rounds, int)
        return Tournament(
            club=club,
            name=name,
            variant=variant.id,
            pairing=pairing,
            rounds=rounds,
            match=match,
            points=points,
            options=options,
            entrants=tuple(entrants),
            played=tuple(played),
            date=night.get("date"),
            venue=night.get("venue"),
            season=night.get("season"),
            division=night.get("division"),
            preset=preset if isinstance(preset, str) else None,
        )

    def night(self, d: Mapping[str, Any]) -> dict[str, str]:
        """The optional ``date`` (ISO 8601), ``venue``, ``season`` and ``division`` (only with
        ``season``) of a league night."""
        out: dict[str, str] = {}
        if "date" in d:
            v = d["date"]
            if not isinstance(v, str) or not _iso_date(v):
                self.err("date", f"must be a date written YYYY-MM-DD, not {_show(v)}")
            else:
                out["date"] = v
        for key in ("venue", "season", "division"):  # lengths are checked with every text
            if key in d:
                v = d[key]
                if not _text(v):
                    self.err(key, f"must be a non-empty text, not {_show(v)}")
                else:
                    out[key] = v
        if "division" in d and "season" not in d:
            self.err("division", "is given only with season (a division is part of a season)")
        return out

    def variant(self, variant_id: str, options: dict[str, Any]) -> Variant | None:
        ok = True
        for name, value in options.items():
            try:
                make_variant(variant_id, {name: value})
            except EngineError as e:
                self.err(_join("options", name), str(e), e)
                ok = False
        if not ok:
            return None
        try:
            return make_variant(variant_id, options)
        except EngineError as e:  # pragma: no cover - each option passed alone
            self.err("options", str(e), e)
            return None

    def match(self, v: object, variant_id: object) -> MatchSpec | None:
        m = self.record(
            v,
            "match",
            '{"deals": n}, {"minutes": n} or {"to_a": true}',
            ("deals", "minutes", "to_a", "tie_break", "target"),
        )
        if m is None:
            return None
        given = [k for k in ("deals", "minutes", "to_a") if k in m]
        if len(given) != 1:
            self.err("match", 'must hold exactly one of "deals", "minutes" or "to_a"')
            return None
        key = given[0]
        value = m[key]
        tie = m.get("tie_break", "draw")
        if tie not in TIE_BREAKS:
            self.err("match.tie_break", f"must be one of {', '.join(TIE_BREAKS)}, not {_show(tie)}")
            return None
        if tie != "draw" and variant_id == RED_FIVE:
            self.err("match.tie_break", "red five has no tie-break: its seats score 积分 alone")
            return None
        if tie != "draw" and variant_id == CLIMBING:
            self.err("match.tie_break", "争上游 has no tie-break: its seats score points by place")
            return None
        if "target" in m and key != "to_a":
            self.err("match.target", "belongs to a match to a level (to_a)")
            return None
        if key == "to_a":
            if value is not True:
                self.err("match.to_a", f"must be true, not {_show(value)}")
                return None
            if variant_id == RED_FIVE:
                self.err("match.to_a", "red five stays at level 2: use deals or minutes")
                return None
            if variant_id == CLIMBING:
                self.err("match.to_a", "争上游 has no levels: use deals or minutes")
                return None
            target = m.get("target", "A")
            if target not in TARGET_LEVELS:
                self.err(
                    "match.target", f"must be a level 3 … 10, J, Q, K or A, not {_show(target)}"
                )
                return None
            return MatchSpec(to_a=True, tie_break=tie, target=target)
        if not _is_int(value) or value < 1:
            self.err(_join("match", key), f"must be a whole number 1 or more, not {_show(value)}")
            return None
        if key == "deals":
            return MatchSpec(deals=value, tie_break=tie)
        return MatchSpec(minutes=value, tie_break=tie)

    def points(self, v: object) -> PointsSpec:
        p = self.record(v, "points", "match points: win, draw, loss", POINTS_KEYS)
        if p is None:
            return PointsSpec()
        values: dict[str, Any] = {}
        for key in POINTS_KEYS:
            if key not in p:
                if key in ("win", "draw", "loss"):
                    self.err(_join("points", key), "is missing")
                continue
            if not _is_int(p[key]) or p[key] < 0:
                self.err(
                    _join("points", key), f"must be a whole number 0 or more, not {_show(p[key])}"
                )
                continue
            values[key] = p[key]
        return PointsSpec(**values)

    def entrants(self, v: object, variant_id: object, rounds: object) -> list[Entrant] | None:
        arr = self.array(v, "entrants", "the pairs, trios or players")
        if arr is None:
            return None
        size = SIDE_SIZE.get(variant_id) if isinstance(variant_id, str) else None
        out: list[Entrant] = []
        names: set[str] = set()
        player_of: dict[str, str] = {}
        sub_paths: dict[tuple[str, int, int], str] = {}
        for _i, path, e in self.records(
            arr, "entrants", "an entrant with name and players", ENTRANT_KEYS
        ):
            raw = e.get("name")
            name = self.name(raw, _join(path, "name"))
            if name is None:
                if isinstance(raw, str) and raw.strip():  # tables that seat it say nothing more
                    self.flawed_entrants.add(normalize_name(raw))
                continue
            if name_match_key(name) in names:  # "王 伟" is 王伟, as the forms compare them
                self.err(_join(path, "name"), f"{name!r} is already an entrant: names are unique")
                continue
            names.add(name_match_key(name))
            players: tuple[str, ...] | None = None
            if "players" not in e:
                if variant_id in INDIVIDUALS:
                    players = (name,)
                else:
                    self.err(_join(path, "players"), "is missing")
            else:
                players = self.players(e["players"], _join(path, "players"), size, player_of, name)
            withdrawn = e.get("withdrawn_after")
            if "withdrawn_after" in e and (not _is_int(withdrawn) or withdrawn < 0):
                self.err(
                    _join(path, "withdrawn_after"),
                    f"must be a round number (0 or more), not {_show(withdrawn)}",
                )
                withdrawn = None
            subs: tuple[Substitute, ...] = ()
            if "substitutes" in e and players is not None:
                subs = self.substitutes(
                    e["substitutes"], _join(path, "substitutes"), players, rounds, name, sub_paths
                )
            if players is not None:
                out.append(Entrant(name, players, withdrawn, subs))
            else:
                self.flawed_entrants.add(name)
        if _is_int(rounds):
            self.substitutes_play_once(out, sub_paths, rounds)
        return out

    def substitutes(
        self,
        v: object,
        path: str,
        players: tuple[str, ...],
        rounds: object,
        entrant: str,
        paths: dict[tuple[str, int, int], str],
    ) -> tuple[Substitute, ...]:
        """``[{"seat", "from_round", "name", "reason"}]``: who took a seat of the entrant from a
        round on (docs/TOURNAMENT_EXTENSIONS.md); the rounds they play are checked with the whole
        field (``substitutes_play_once``)."""
        arr = self.array(v, path, 'substitutes such as {"seat": 0, "from_round": 2, "name": …}')
        if arr is None:
            return ()
        out: list[Substitute] = []
        taken: set[tuple[int, int]] = set()
        last = rounds if _is_int(rounds) and rounds >= 1 else None
        for _i, ipath, o in self.records(
            arr, path, "a substitute: seat, from_round and name", SUBSTITUTE_KEYS
        ):
            before = len(self.errors)
            seat, from_round = o.get("seat"), o.get("from_round")
            if "seat" not in o:
                self.err(_join(ipath, "seat"), "is missing")
            elif not _is_int(seat) or not 0 <= seat < len(players):
                self.err(
                    _join(ipath, "seat"),
                    f"must be the index of one of the entrant's players, 0 … {len(players) - 1}, "
                    f"not {_show(seat)}",
                )
            if "from_round" not in o:
                self.err(_join(ipath, "from_round"), "is missing")
            elif not _is_int(from_round) or from_round < 1 or (last and from_round > last):
                upto = f" … {last}" if last else " or more"
                self.err(
                    _join(ipath, "from_round"),
                    f"must be a round of the tournament, 1{upto}, not {_show(from_round)}",
                )
            name = None
            if "name" not in o:
                self.err(_join(ipath, "name"), "is missing")
            else:
                name = self.name(o["name"], _join(ipath, "name"), "name")
                if name is not None and len(name) > MAX_TEXT["players"]:
                    limit = MAX_TEXT["players"]
                    self.err(
                        _join(ipath, "name"), f"{len(name)} characters: at most {limit}, please"
                    )
            reason = o.get("reason")
            if "reason" in o and not _text(reason):
                self.err(_join(ipath, "reason"), f"must be a non-empty text, not {_show(reason)}")
            if len(self.errors) > before:
                continue
            assert _is_int(seat) and _is_int(from_round) and name is not None
            if (seat, from_round) in taken:
                self.err(
                    _join(ipath, "from_round"),
                    f"seat {seat} already has a substitute from round {from_round}",
                )
                continue
            taken.add((seat, from_round))
            paths[(entrant, seat, from_round)] = ipath
            before_sub = Entrant("", players, None, tuple(out)).players_in(from_round)[seat]
            if name_match_key(before_sub) == name_match_key(name):
                self.err(
                    _join(ipath, "name"),
                    f"{name!r} already plays seat {seat} in round {from_round}",
                )
                continue
            why = " ".join(reason.split()) if isinstance(reason, str) else None
            out.append(Substitute(seat, from_round, name, why))
        return tuple(sorted(out, key=lambda s: (s.from_round, s.seat)))

    def substitutes_play_once(
        self, entrants: list[Entrant], paths: dict[tuple[str, int, int], str], rounds: int
    ) -> None:
        """No one plays twice in a round: a substitute is not also a player of the field (the
        entrant's own or another's) in a round they substitute in."""
        reported: set[str] = set()
        # who plays changes only where a substitute starts or an entrant has withdrawn: checking
        # those rounds checks them all (and a file's huge round count costs nothing)
        starts = {s.from_round for e in entrants for s in e.substitutes}
        if not starts:
            return
        starts |= {e.withdrawn_after + 1 for e in entrants if e.withdrawn_after is not None}
        for r in sorted(x for x in starts if 1 <= x <= rounds):
            playing: dict[str, tuple[str, str | None]] = {}  # key: (entrant, substitute's path)
            for e in entrants:
                if not e.active_in(r):
                    continue
                for seat, p in enumerate(e.players_in(r)):
                    latest = [s for s in e.substitutes if s.seat == seat and s.from_round <= r]
                    here = paths[(e.name, seat, latest[-1].from_round)] if latest else None
                    key = name_match_key(p)
                    if key not in playing:
                        playing[key] = (e.name, here)
                        continue
                    other, there = playing[key]
                    at = here or there
                    if at is None or at in reported:
                        continue
                    reported.add(at)
                    where = "for the same entrant" if other == e.name else f"for {other!r}"
                    if here is None:
                        where = f"for {e.name!r}" if other != e.name else where
                    self.err(
                        _join(at, "name"),
                        f"{p!r} would play twice in round {r}: as this substitute and {where}",
                    )

    def players(
        self, v: object, path: str, size: int | None, player_of: dict[str, str], entrant: str
    ) -> tuple[str, ...] | None:
        arr = self.array(v, path, "player names in seat order")
        if arr is None:
            return None
        ok = True
        if size is not None and len(arr) != size:
            what = {1: "one player", 2: "a pair: 2 players", 3: "a trio: 3 players"}[size]
            self.err(path, f"has {len(arr)} players; an entrant here is {what}")
            ok = False
        seen: set[str] = set()
        cleaned: list[str] = []
        for j, raw in enumerate(arr):
            p = self.name(raw, f"{path}[{j}]", "name")
            key = name_match_key(p) if p is not None else ""  # "王 伟" is 王伟
            if p is None:
                ok = False
            elif key in seen:
                self.err(f"{path}[{j}]", f"{p!r} is listed twice")
                ok = False
            elif key in player_of:
                self.err(f"{path}[{j}]", f"{p!r} already plays for {player_of[key]!r}")
                ok = False
            else:
                seen.add(key)
                player_of[key] = entrant
                cleaned.append(p)
        return tuple(cleaned) if ok else None

    # --- rounds, tables and deals --------------------------------------------------------------

    def played(
        self,
        arr: list[Any],
        variant: Variant | None,
        match: MatchSpec | None,
        entrants: list[Entrant],
        rounds: int | None,
    ) -> list[Round]:
        by_name = {e.name: e for e in entrants}
        out: list[Round] = []
        if rounds is not None and len(arr) > rounds:
            self.err(f"played[{rounds}]", f"the tournament has {rounds} rounds")
        for i, path, r in self.records(arr, "played", "a round with round and tables", ROUND_KEYS):
            number = r.get("round")
            if number != i + 1 or not _is_int(number):
                self.err(
                    _join(path, "round"),
                    f"{_show(number)}: rounds are numbered 1, 2, … in order; expected {i + 1}",
                )
            tables_v = r.get("tables", [])
            tables = self.array(tables_v, _join(path, "tables"), "the tables of the round")
            if tables is None:
                continue
            out.append(
                Round(i + 1, tuple(self.tables(tables, path, i + 1, variant, match, by_name)))
            )
        return out

    def tables(
        self,
        arr: list[Any],
        rpath: str,
        round_no: int,
        variant: Variant | None,
        match: MatchSpec | None,
        by_name: dict[str, Entrant],
    ) -> list[Table]:
        out: list[Table] = []
        numbers: set[int] = set()
        seated: dict[str, str] = {}
        for _k, path, t in self.records(arr, f"{rpath}.tables", "a table", TABLE_KEYS):
            number = t.get("table")
            if not _is_int(number) or number < 1:
                self.err(
                    _join(path, "table"), f"must be a table number 1 or more, not {_show(number)}"
                )
                number = None
            elif number in numbers:
                self.err(_join(path, "table"), f"table {number} is already in this round")
            else:
                numbers.add(number)
            kinds = [key for key in ("sides", "players", "bye") if key in t]
            if len(kinds) != 1:
                self.err(path, 'must hold exactly one of "sides", "players" or "bye"')
                continue
            kind = kinds[0]
            table = self.table(t, path, kind, round_no, variant, match, by_name, seated)
            if table is not None and number is not None:
                out.append(table)
        return out

    def seat_entrant(
        self,
        name: object,
        path: str,
        round_no: int,
        by_name: dict[str, Entrant],
        seated: dict[str, str],
    ) -> str | None:
        if isinstance(name, str):
            name = normalize_name(name)  # as the entrant's own name was cleaned
        if isinstance(name, str) and name in self.flawed_entrants:
            return None  # its entry's error is already reported
        if not isinstance(name, str) or name not in by_name:
            self.err(path, f"{_show(name)} is not an entrant")
            return None
        if name in seated:
            self.err(path, f"{name!r} is already at {seated[name]} in this round")
            return None
        e = by_name[name]
        if not e.active_in(round_no):
            self.err(path, f"{name!r} withdrew after round {e.withdrawn_after}")
            return None
        seated[name] = path.rsplit(".", 1)[0]
        return name

    def table(
        self,
        t: Mapping[str, Any],
        path: str,
        kind: str,
        round_no: int,
        variant: Variant | None,
        match: MatchSpec | None,
        by_name: dict[str, Entrant],
        seated: dict[str, str],
    ) -> Table | None:
        number: int = t.get("table", 0)
        if kind == "bye":
            for key in t:
                if key not in ("table", "bye"):
                    self.err(_join(path, key), "a bye has only table and bye")
            name = self.seat_entrant(t["bye"], _join(path, "bye"), round_no, by_name, seated)
            return Table(number, bye=name) if name is not None else None
        fixed = variant is None or variant.fixed_sides
        climbing = variant is not None and variant.id == CLIMBING
        if variant is not None:
            if kind == "sides" and climbing:
                self.err(
                    _join(path, "sides"), f"争上游 tables list their {variant.players} players"
                )
                return None
            if kind == "sides" and not fixed:
                self.err(_join(path, "sides"), "red five tables list their five players")
                return None
            if kind == "players" and fixed:
                self.err(_join(path, "players"), "fixed-side tables list their two sides")
                return None
        want = 2 if kind == "sides" else variant.players if variant is not None else 5
        arr = self.array(t[kind], _join(path, kind), f"{want} entrant names")
        names: list[str] = []
        ok = arr is not None
        if arr is not None:
            if len(arr) != want:
                self.err(_join(path, kind), f"must name {want} entrants, not {len(arr)}")
                ok = False
            for j, n in enumerate(arr):
                got = self.seat_entrant(n, f"{path}.{kind}[{j}]", round_no, by_name, seated)
                if got is None:
                    ok = False
                else:
                    names.append(got)
        forfeit = t.get("forfeit")
        if "forfeit" in t:
            if kind != "sides":
                self.err(_join(path, "forfeit"), "forfeits are for fixed-side tables only")
                ok = False
            elif not _is_int(forfeit) or forfeit not in (0, 1):
                self.err(
                    _join(path, "forfeit"), f"must be the absent side, 0 or 1, not {_show(forfeit)}"
                )
                ok = False
        mode = t.get("mode", "paper")
        if mode not in MODES:
            self.err(_join(path, "mode"), f"{_show(mode)} is not one of {', '.join(MODES)}")
            ok = False
        finished = t.get("finished", False)
        if not isinstance(finished, bool):
            self.err(_join(path, "finished"), f"must be true or false, not {_show(finished)}")
            ok = False
        end_reason = t.get("end_reason")
        if "end_reason" in t:
            if match is not None and match.deals is None:
                self.err(_join(path, "end_reason"), "belongs to a match of a number of deals")
                ok = False
            elif not isinstance(end_reason, str) or not end_reason.strip():
                self.err(_join(path, "end_reason"), f"must be a text, not {_show(end_reason)}")
                ok = False
            elif finished is not True:
                self.err(_join(path, "end_reason"), "belongs to a finished table")
                ok = False
        last_deal = t.get("last_deal")
        if "last_deal" in t:
            if match is not None and match.minutes is None:
                self.err(_join(path, "last_deal"), "belongs to a match by time (minutes)")
                ok = False
            elif not _is_int(last_deal) or last_deal < 1:
                self.err(
                    _join(path, "last_deal"),
                    f"must be a number of deals 1 or more, not {_show(last_deal)}",
                )
                ok = False
        deals_v = t.get("deals", [])
        deals_arr = self.array(deals_v, _join(path, "deals"), "the deals")
        if deals_arr is None:
            return None
        if forfeit is not None and deals_arr:
            self.err(_join(path, "deals"), "a forfeited table has no deals")
            ok = False
        parsed = [self.deal(d, f"{path}.deals[{i}]", variant) for i, d in enumerate(deals_arr)]
        if variant is None or match is None:
            return None
        # value checks and the level derivation: up to the first deal that could not be read
        first_bad = next((i for i, d in enumerate(parsed) if d is None), len(parsed))
        prefix = tuple(d for d in parsed[:first_bad] if d is not None)
        probe = Table(
            number,
            finished=bool(finished),
            deals=prefix,
            last_deal=last_deal if _is_int(last_deal) else None,
        )
        issues: list[DealIssue] = []
        if forfeit is None or not ok:  # a valid forfeit has no deals to derive
            if fixed:
                issues = list(derive_fixed(variant, match, probe).errors)
            elif climbing:
                issues = list(derive_climbing(variant, match, probe).errors)
            else:
                issues = list(derive_red_five(variant, match, probe).errors)
        for i in range(first_bad + 1, len(parsed)):
            d = parsed[i]
            if d is not None:
                issues += [DealIssue.of(i, x) for x in deal_issues(variant, d)]
        for issue in sorted(issues, key=lambda x: x.index):
            dpath = f"{path}.deals[{issue.index}]"
            field = _file_field(issue.field)
            self.err(_join(dpath, field) if field else dpath, issue.message)
        if not ok or issues or first_bad < len(parsed):
            return None
        return Table(
            number,
            sides=(names[0], names[1]) if kind == "sides" else None,
            players=tuple(names) if kind == "players" else None,
            forfeit=forfeit,
            mode=mode,
            finished=finished,
            deals=prefix,
            last_deal=last_deal,
            end_reason=end_reason.strip() if isinstance(end_reason, str) else None,
        )

    def deal(self, v: object, path: str, variant: Variant | None) -> Deal | None:
        d = self.record(v, path, "a deal", DEAL_KEYS)
        if d is None:
            return None
        if variant is not None and variant.id == CLIMBING:
            return self.climbing_deal(d, path, variant)
        before = len(self.errors)
        for key in ("places", "tribute"):
            if key in d:
                self.err(_join(path, key), "belongs to 争上游 deals only")
        red = variant is not None and variant.id == RED_FIVE
        required = ["trump", "points", "kitty"]
        if variant is not None:
            required = (["dealer", "friend"] if red else ["declarer"]) + required
        for key in required:
            if key not in d:
                self.err(_join(path, key), "is missing")
        for key in ("declarer", "dealer", "friend", "points", "kitty", "multiplier"):
            if key in d and d[key] is not None and not _is_int(d[key]):
                self.err(_join(path, key), f"must be a whole number, not {_show(d[key])}")
        for key in ("declarer", "dealer", "points", "kitty", "multiplier"):
            if key in d and d[key] is None and key != "multiplier":
                self.err(_join(path, key), "must be a whole number, not null")
        trump = d.get("trump")
        if trump is not None and not isinstance(trump, str):
            self.err(_join(path, "trump"), f"must be a suit S, H, D, C or null, not {_show(trump)}")
        if "friend_grabbed" in d and not isinstance(d["friend_grabbed"], bool):
            self.err(
                _join(path, "friend_grabbed"),
                f"must be true or false, not {_show(d['friend_grabbed'])}",
            )
        level = d.get("level")
        if "level" in d and not isinstance(level, str):
            self.err(
                _join(path, "level"),
                f'must be a level written as text, e.g. "7", not {_show(level)}',
            )
        misplays: tuple[int, ...] = ()
        if "misplays" in d:
            arr = d["misplays"]
            if not isinstance(arr, list) or not all(_is_int(x) for x in arr):
                self.err(
                    _join(path, "misplays"), f"must be a list of side indexes, not {_show(arr)}"
                )
            else:
                misplays = tuple(arr)
        ft: FailedThrows | tuple[int, ...] | None = None
        if "failed_throws" in d:
            ft = self.failed_throws(d["failed_throws"], _join(path, "failed_throws"), variant)
        penalties: tuple[tuple[str, str | int], ...] = ()
        if "penalties" in d:
            penalties = self.penalties(d["penalties"], _join(path, "penalties"), variant)
        warnings: tuple[tuple[int, str], ...] = ()
        if "warnings" in d:
            warnings = self.warnings(d["warnings"], _join(path, "warnings"))
        if len(self.errors) > before or variant is None:
            return None
        mult = d.get("multiplier")
        return Deal(
            points=d["points"],
            kitty=d["kitty"],
            trump=trump,
            declarer=d.get("declarer"),
            dealer=d.get("dealer"),
            friend=d.get("friend"),
            multiplier=0 if mult is None else mult,
            failed_throws=ft,
            friend_grabbed=d.get("friend_grabbed", False),
            misplays=misplays,
            level=level,
            penalties=penalties,
            warnings=warnings,
        )

    def climbing_deal(self, d: Mapping[str, Any], path: str, variant: Variant) -> Deal | None:
        """A 争上游 row: ``places`` by seat and the optional ``tribute`` (see the module's
        docstring); the values are checked with the deal (``climbing.place_issues``)."""
        before = len(self.errors)
        for key in d:
            if key in DEAL_KEYS and key not in CLIMBING_KEYS:
                self.err(
                    _join(path, key),
                    "is not used in 争上游: a row has each seat's places and the tribute",
                )
        places: tuple[int | None, ...] = ()
        if "places" not in d:
            self.err(_join(path, "places"), "is missing")
        else:
            arr = self.array(d["places"], _join(path, "places"), "each seat's place, by seat")
            if arr is not None:
                for j, x in enumerate(arr):
                    if x is not None and not _is_int(x):
                        self.err(f"{path}.places[{j}]", f"must be a place number, not {_show(x)}")
                places = tuple(arr)
        tribute: Tribute | None = None
        if "tribute" in d:
            tpath = _join(path, "tribute")
            o = self.record(d["tribute"], tpath, 'a tribute {"from", "to", "card"}', TRIBUTE_KEYS)
            if o is not None:
                for key in TRIBUTE_KEYS:
                    if key not in o:
                        self.err(_join(tpath, key), "is missing")
                for key in ("from", "to"):
                    if key in o and not _is_int(o[key]):
                        self.err(_join(tpath, key), f"must be a seat number, not {_show(o[key])}")
                if "card" in o and not isinstance(o["card"], str):
                    self.err(
                        _join(tpath, "card"),
                        f"must be a card written as text, not {_show(o['card'])}",
                    )
                if len(self.errors) == before:
                    tribute = normal_tribute(Tribute(o["from"], o["to"], o["card"]))
        penalties: tuple[tuple[str, str | int], ...] = ()
        if "penalties" in d:
            penalties = self.penalties(d["penalties"], _join(path, "penalties"), variant)
        warnings: tuple[tuple[int, str], ...] = ()
        if "warnings" in d:
            warnings = self.warnings(d["warnings"], _join(path, "warnings"))
        if len(self.errors) > before:
            return None
        return Deal(
            points=0,
            kitty=0,
            places=places,
            tribute=tribute,
            penalties=penalties,
            warnings=warnings,
        )

    def warnings(self, v: object, path: str) -> tuple[tuple[int, str], ...]:
        """``[{"seat", "reason"}]``: the director's conduct warnings (警告), which count for
        nothing; the seat is checked with the deal (``matches.deal_issues``)."""
        arr = self.array(v, path, 'warnings such as {"seat": 2, "reason": "slow play"}')
        if arr is None:
            return ()
        out: list[tuple[int, str]] = []
        for _i, ipath, o in self.records(
            arr, path, "a warning: seat and reason", ("seat", "reason")
        ):
            seat, reason = o.get("seat"), o.get("reason")
            if not _is_int(seat):
                self.err(_join(ipath, "seat"), f"must be a seat number, not {_show(seat)}")
            elif not isinstance(reason, str):
                self.err(_join(ipath, "reason"), f"must be text, not {_show(reason)}")
            else:
                out.append((seat, reason))
        return tuple(out)

    def penalties(
        self, v: object, path: str, variant: Variant | None
    ) -> tuple[tuple[str, str | int], ...]:
        """``[{"kind", "side"}]`` for fixed sides, ``[{"kind", "seat"}]`` in red five (RULES §7);
        the values are checked with the deal (``matches.deal_issues``)."""
        arr = self.array(v, path, 'penalties such as {"kind": "revoke", "side": "declarer"}')
        if arr is None:
            return ()
        red = variant is not None and variant.id in INDIVIDUALS
        who_key = "seat" if red else "side"
        out: list[tuple[str, str | int]] = []
        for _i, ipath, o in self.records(
            arr, path, f"a penalty: kind and {who_key}", ("kind", who_key)
        ):
            kind = o.get("kind")
            if "kind" not in o:
                self.err(_join(ipath, "kind"), "is missing")
            elif kind not in PENALTY_KINDS:
                self.err(
                    _join(ipath, "kind"),
                    f"{_show(kind)} is not one of {', '.join(PENALTY_KINDS)}",
                )
            who = o.get(who_key)
            if who_key not in o:
                self.err(_join(ipath, who_key), "is missing")
            elif red and not _is_int(who):
                self.err(_join(ipath, "seat"), f"must be a seat number, not {_show(who)}")
            elif not red and who not in ("declarer", "attackers"):
                self.err(_join(ipath, "side"), f"must be declarer or attackers, not {_show(who)}")
            elif isinstance(kind, str) and isinstance(who, str | int):
                out.append((kind, who))
        return tuple(out)

    def failed_throws(
        self, v: object, path: str, variant: Variant | None
    ) -> FailedThrows | tuple[int, ...] | None:
        if variant is None:
            return None
        if variant.id == TRACTOR:
            o = self.record(v, path, '{"declarer": n, "attackers": m}', ("declarer", "attackers"))
            if o is None:
                return None
            counts = []
            lists: list[tuple[int, ...]] = []
            for side in ("declarer", "attackers"):
                n = o.get(side, 0)
                if isinstance(n, list):  # ten_per_card: the cards each failed throw took back
                    if not all(_is_int(k) and k >= 1 for k in n):
                        self.err(
                            _join(path, side),
                            f"must list the cards each failed throw took back (1 or more), "
                            f"not {_show(n)}",
                        )
                        return None
                    lists.append(tuple(n))
                    counts.append(len(n))
                    continue
                if not _is_int(n) or n < 0:
                    self.err(_join(path, side), f"must be a count 0 or more, not {_show(n)}")
                    return None
                if n and variant.options.get("throw_penalty") == "ten_per_card":
                    self.err(
                        _join(path, side),
                        "with throw_penalty ten_per_card, list the cards each failed throw took "
                        f"back, e.g. [2, 3], not the count {n}",
                    )
                    return None
                lists.append((1,) * n if n else ())
                counts.append(n)
            if any(isinstance(o.get(side), list) for side in ("declarer", "attackers")):
                return FailedThrows.per_card(lists[0], lists[1])
            return FailedThrows(counts[0], counts[1])
        if variant.id == RED_FIVE:
            arr = self.array(v, path, "the throwers' seats, one per failure")
            if arr is None:
                return None
            if not all(_is_int(x) for x in arr):
                self.err(path, f"must list seats as whole numbers, not {_show(arr)}")
                return None
            return tuple(arr)
        self.err(path, "is not used in 120分: a failed throw is a misplay (list it in misplays)")
        return None


# a 争上游 issue's field as the file names it
_FILE_FIELDS = {
    TRIBUTE_FROM: "tribute.from",
    TRIBUTE_TO: "tribute.to",
    TRIBUTE_CARD: "tribute.card",
}


def _file_field(field: str) -> str:
    """``place_2`` is ``places[2]`` in the file, ``tribute_from`` ``tribute.from``…"""
    if field.startswith("place_") and field[6:].isdigit():
        return f"places[{field[6:]}]"
    return _FILE_FIELDS.get(field, field)


def _join(path: str, key: str) -> str:

    return f"{path}.{key}" if path else key


def _show(v: object) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "…"


def load(doc: object) -> Tournament:
    """Read a parsed tournament file; raise ``TournamentFileError`` listing every error."""
    loader = _Loader()
    if isinstance(doc, Mapping) and doc.get("variant") in HUNDRED_VARIANTS:  # 打百分
        from .hundred_file import HundredLoader

        loader = HundredLoader()
    t = loader.load(doc)
    if loader.errors or t is None:
        raise TournamentFileError(loader.errors or [FileError("", "the file could not be read")])
    return t


def load_deal(doc: object, variant: Variant) -> Deal:
    """Read one deal as ``dump_deal`` wrote it (a removed deal kept in the audit trail, to
    restore); raise ``TournamentFileError`` if it cannot be read."""
    loader = _Loader()
    deal = loader.deal(doc, "deal", variant)
    if loader.errors or deal is None:
        raise TournamentFileError(
            loader.errors or [FileError("deal", "the deal could not be read")]
        )
    return deal


# --- writing --------------------------------------------------------------------------------


def dump(t: Tournament) -> dict[str, Any]:
    """The tournament as a file document: keys in the documented order, defaults omitted."""
    doc: dict[str, Any] = {
        "format": FORMAT_ID,
        "club": t.club,
        "name": t.name,
    }
    for key in ("date", "venue", "season", "division"):
        value = getattr(t, key)
        if value is not None:
            doc[key] = value
    doc["variant"] = t.variant
    if t.options:
        doc["options"] = dict(t.options)
    doc["pairing"] = t.pairing
    doc["rounds"] = t.rounds
    doc["match"] = t.match.as_json()
    points: dict[str, Any] = {"win": t.points.win, "draw": t.points.draw, "loss": t.points.loss}
    if t.points.bye is not None:
        points["bye"] = t.points.bye
    if t.points.forfeit_level_diff != 3:
        points["forfeit_level_diff"] = t.points.forfeit_level_diff
    doc["points"] = points
    if t.preset is not None:
        doc["preset"] = t.preset
    doc["entrants"] = [_dump_entrant(e) for e in t.entrants]
    doc["played"] = [
        {"round": r.round, "tables": [_dump_table(tab) for tab in r.tables]} for r in t.played
    ]
    return doc


def _dump_entrant(e: Entrant) -> dict[str, Any]:
    out: dict[str, Any] = {"name": e.name, "players": list(e.players)}
    if e.withdrawn_after is not None:
        out["withdrawn_after"] = e.withdrawn_after
    if e.substitutes:
        out["substitutes"] = [_dump_substitute(s) for s in e.substitutes]
    return out


def _dump_substitute(s: Substitute) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": s.seat, "from_round": s.from_round, "name": s.name}
    if s.reason:
        out["reason"] = s.reason
    return out


def _dump_table(tab: Table) -> dict[str, Any]:
    out: dict[str, Any] = {"table": tab.table}
    if tab.bye is not None:
        out["bye"] = tab.bye
        return out
    if tab.sides is not None:
        out["sides"] = list(tab.sides)
    if tab.players is not None:
        out["players"] = list(tab.players)
    if tab.forfeit is not None:
        out["forfeit"] = tab.forfeit
    if tab.mode != "paper":
        out["mode"] = tab.mode
    if tab.finished:
        out["finished"] = True
    if tab.end_reason:
        out["end_reason"] = tab.end_reason
    if tab.last_deal is not None:
        out["last_deal"] = tab.last_deal
    if tab.forfeit is None:
        out["deals"] = [dump_deal(d) for d in tab.deals]
    return out


def dump_deal(d: Deal) -> dict[str, Any]:
    from .hundred import HundredDeal, row_json  # 打百分's sheet row (hundred_file)

    if isinstance(d, HundredDeal):
        return row_json(d)
    out: dict[str, Any] = {}
    if d.places is not None:  # 争上游: places, the tribute, and take-backs or warnings
        out["places"] = list(d.places)
        if d.tribute is not None:
            out["tribute"] = d.tribute.as_json()
        if d.penalties:
            out["penalties"] = d.engine_penalties()
        if d.warnings:
            out["warnings"] = [{"seat": seat, "reason": reason} for seat, reason in d.warnings]
        return out
    if d.dealer is not None:
        out["dealer"] = d.dealer
        out["friend"] = d.friend
    else:
        out["declarer"] = d.declarer
    out["trump"] = d.trump
    out["points"] = d.points
    out["kitty"] = d.kitty
    if d.multiplier:
        out["multiplier"] = d.multiplier
    ft = d.failed_throws
    if isinstance(ft, FailedThrows):
        if ft:
            out["failed_throws"] = ft.as_json()
    elif ft:
        out["failed_throws"] = list(ft)
    if d.friend_grabbed:
        out["friend_grabbed"] = True
    if d.misplays:
        out["misplays"] = list(d.misplays)
    if d.level is not None:
        out["level"] = d.level
    if d.penalties:
        out["penalties"] = d.engine_penalties()
    if d.warnings:
        out["warnings"] = [{"seat": seat, "reason": reason} for seat, reason in d.warnings]
    return out
