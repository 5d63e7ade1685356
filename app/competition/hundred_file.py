"""The tournament file of an 打百分 event (``shared/formats/TOURNAMENT.md``, ``rules/HUNDRED.md``
§8): ``tfile.load`` reads a file whose ``variant`` is ``hundred-4p``, ``forty-4p`` or
``hundred-3p`` with ``HundredLoader``, and ``tfile.dump`` writes its rows with
``hundred.row_json``. Everything else — the top-level keys, ``points``, entrants, substitutes,
rounds, tables, byes, ``date`` / ``venue`` / ``season`` / ``division`` — is read and written as
for the other games.

TOURNAMENT.md does not describe 打百分 (its ``variant`` list predates it); this module decides:

- ``variant``: ``hundred-4p``, ``forty-4p``, ``hundred-3p``; ``options`` as HUNDRED.md names them
  (``friend``: ``fixed`` / ``shown`` / ``hidden`` (default) / ``blind``; ``open_kitty``;
  ``stakes``: ``bid`` / ``flat``), checked by the engine.
- Individual events (``hundred-4p`` shown / hidden / blind, ``hundred-3p``): ``pairing`` is
  ``reseat``; entrants are single players (``players`` optional, as red five's); a table lists
  ``players`` by seat: 4, or 3 in ``hundred-3p``.
- Pair events (``hundred-4p`` fixed, ``forty-4p``): ``pairing`` is ``round-robin`` or ``swiss``;
  entrants are pairs; a table lists its two ``sides`` (side 0 in seats 0, 2, side 1 in 1, 3) and
  may be a ``forfeit`` (then 分差 ±``points.forfeit_level_diff``).
- A table's ``mode`` is ``paper`` or ``online`` (played in the browser: its rows are the ones
  the game recorded).
- ``match``: ``{"deals": n}`` or ``{"minutes": n}``; ``to_a`` (there are no levels) and a
  ``tie_break`` other than ``draw`` are refused. ``level`` and ``multiplier`` do not exist.

A **deal** (a row of HUNDRED §8's score sheet), keys written in this order:

| field | meaning |
|---|---|
| `declarer` | the declarer's (庄家's) **seat**, 0 … 3 (0 … 2 in `hundred-3p`); required |
| `bid` | the winning bid, 60 … 100 in steps of 5; required except in `forty-4p`, where it is refused |
| `turned` | `forty-4p` only, required: the turned card (`"7H"`, never a joker); `trump` must be its suit |
| `trump` | `S`, `H`, `D` or `C`; required (打百分 always has a trump suit) |
| `friend_card` | the card the declarer called, e.g. `"AS"`, `"HJ"`; required with friend `shown`, `hidden`, `blind`, refused otherwise |
| `friend` | the seat that held the friend card; required with a friend card (`null` only with `blind`: the card lay in the kitty, the declarer played alone); in pair events optional, and only the declarer's partner opposite; refused in `hundred-3p` |
| `points` | the attackers' points won in tricks, 0 … 100 in steps of 5; required |
| `kou_di` | optional, default `false`: 抠底 yes/no — an attacker won the last trick (the attackers win the deal whatever their points) |
| `kitty` | optional: the buried cards' points, for the record (as the other games' `kitty`): 0 … 60 in steps of 5 (six cards of one deck), `points` plus it at most 100; added to the attackers' printed total on 抠底, never to the result. The buried cards themselves are not on the sheet (HUNDRED §8) |
| `penalties` | optional: `[{"kind": "revoke" \\| "miscount" \\| "takeback", "side": "declarer" \\| "attackers"}]`; the first revoke or miscount ends the deal for the other side |
| `warnings` | optional: `[{"seat": n, "reason": text}]`, as for the other games |

The deal's result and each seat's units are derived (``engine.hundred_rules.deal_outcome``), never
written. Errors name the field: ``played[0].tables[0].deals[2].bid: 62 is not a bid: 60 … 100 in
steps of 5``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import EngineError
from engine.hundred_rules import HundredVariant, make_hundred_variant
from engine.variants import RED_FIVE, TRACTOR

from .hundred import HundredDeal, derive_hundred, sheet_issues, table_size
from .matches import DealIssue
from .model import FORMAT_ID, MODES, Entrant, MatchSpec, PointsSpec, Round, Table, Tournament
from .presets import PRESETS
from .tfile import (
    ROUND_KEYS,
    TABLE_KEYS,
    TOP_KEYS,
    FileError,
    TournamentFileError,
    _bounds,
    _is_int,
    _join,
    _Loader,
    _show,
)

DEAL_KEYS = (
    "declarer",
    "bid",
    "turned",
    "trump",
    "friend_card",
    "friend",
    "points",
    "kou_di",
    "kitty",
    "penalties",
    "warnings",
)


class HundredLoader(_Loader):
    """``tfile``'s loader for an 打百分 file: the same checks, 打百分's tables and rows."""

    def load(self, doc: object) -> Tournament | None:
        d = self.obj(doc, "", "a tournament file")
        if d is None:
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
        variant_id = str(d["variant"])
        options: dict[str, Any] = {}
        if "options" in d:
            o = self.obj(d["options"], "options", "option names to values")
            if o is not None:
                options = dict(o)
        variant = self.hundred_rules(variant_id, options)
        individual = variant is not None and not variant.fixed_pairs
        pairing = d.get("pairing")
        if "pairing" in d and variant is not None:
            if individual and pairing != "reseat":
                self.err(
                    "pairing",
                    f"{_show(pairing)}: an individual 打百分 event re-seats its players: use reseat",
                )
            elif not individual and pairing not in ("round-robin", "swiss"):
                self.err(
                    "pairing", f"{_show(pairing)}: a pair event is paired round-robin or swiss"
                )
        rounds = d.get("rounds")
        if "rounds" in d and (not _is_int(rounds) or rounds < 1):
            self.err("rounds", f"must be a number of rounds, 1 or more, not {_show(rounds)}")
            rounds = None
        match = self.hundred_match(d["match"]) if "match" in d else None
        points = self.points(d["points"]) if "points" in d else PointsSpec()
        entrants = None
        if "entrants" in d:
            # single players as red five's, pairs as 升级's (sizes and optional players alike)
            kind = None if variant is None else (RED_FIVE if individual else TRACTOR)
            entrants = self.entrants(d["entrants"], kind, rounds)
        played: list[Round] = []
        if "played" in d:
            arr = self.array(d["played"], "played", "the rounds played")
            if arr is not None and entrants is not None:
                played = self.hundred_played(arr, variant, match, entrants, rounds)
        night = self.night(d)
        preset = d.get("preset")
        if "preset" in d and not (preset in PRESETS and PRESETS[preset].fits(variant_id)):
            known = ", ".join(p.id for p in PRESETS.values() if p.fits(variant_id))
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

    def hundred_rules(self, variant_id: str, options: dict[str, Any]) -> HundredVariant | None:
        ok = True
        for name, value in options.items():
            try:
                make_hundred_variant(variant_id, {name: value})
            except EngineError as e:
                self.err(_join("options", str(name)), str(e), e)
                ok = False
        if not ok:
            return None
        try:
            return make_hundred_variant(variant_id, options)
        except EngineError as e:  # pragma: no cover - each option passed alone
            self.err("options", str(e), e)
            return None

    def hundred_match(self, v: object) -> MatchSpec | None:
        m = self.record(
            v, "match", '{"deals": n} or {"minutes": n}', ("deals", "minutes", "to_a", "tie_break")
        )
        if m is None:
            return None
        if "to_a" in m:
            self.err("match.to_a", "打百分 has no levels: use deals or minutes")
            return None
        if m.get("tie_break", "draw") != "draw":
            self.err(
                "match.tie_break",
                "打百分 has no tie-break: equal units draw, and 分差 ranks the standings",
            )
            return None
        return self.match(m, RED_FIVE)  # red five's reading: deals or minutes, nothing else

    def hundred_played(
        self,
        arr: list[Any],
        variant: HundredVariant | None,
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
            tables = self.array(r.get("tables", []), _join(path, "tables"), "the round's tables")
            if tables is None:
                continue
            seated: dict[str, str] = {}
            got: list[Table] = []
            numbers: set[int] = set()
            for _k, tpath, t in self.records(tables, f"{path}.tables", "a table", TABLE_KEYS):
                tn = t.get("table")
                if not _is_int(tn) or tn < 1:
                    self.err(
                        _join(tpath, "table"), f"must be a table number 1 or more, not {_show(tn)}"
                    )
                    continue
                if tn in numbers:
                    self.err(_join(tpath, "table"), f"table {tn} is already in this round")
                    continue
                numbers.add(tn)
                table = self.hundred_table(t, tpath, i + 1, variant, match, by_name, seated)
                if table is not None:
                    got.append(table)
            out.append(Round(i + 1, tuple(got)))
        return out

    def hundred_table(
        self,
        t: Mapping[str, Any],
        path: str,
        round_no: int,
        variant: HundredVariant | None,
        match: MatchSpec | None,
        by_name: dict[str, Entrant],
        seated: dict[str, str],
    ) -> Table | None:
        number: int = t["table"]
        kinds = [key for key in ("sides", "players", "bye") if key in t]
        if len(kinds) != 1:
            self.err(path, 'must hold exactly one of "sides", "players" or "bye"')
            return None
        kind = kinds[0]
        if kind == "bye":
            for key in t:
                if key not in ("table", "bye"):
                    self.err(_join(path, key), "a bye has only table and bye")
            name = self.seat_entrant(t["bye"], _join(path, "bye"), round_no, by_name, seated)
            return Table(number, bye=name) if name is not None else None
        if variant is None or match is None:
            return None
        if variant.fixed_pairs and kind == "players":
            self.err(_join(path, "players"), "a pair event's tables list their two sides")
            return None
        if not variant.fixed_pairs and kind == "sides":
            want = table_size(variant.id)
            self.err(_join(path, "sides"), f"an individual event's tables list {want} players")
            return None
        want = 2 if kind == "sides" else table_size(variant.id)
        arr = self.array(t[kind], _join(path, kind), f"{want} entrant names")
        ok = arr is not None
        names: list[str] = []
        if arr is not None:
            if len(arr) != want:
                self.err(_join(path, kind), f"must name {want} entrants, not {len(arr)}")
                ok = False
            for j, n in enumerate(arr):
                got = self.seat_entrant(n, f"{path}.{kind}[{j}]", round_no, by_name, seated)
                ok = ok and got is not None
                if got is not None:
                    names.append(got)
        forfeit = t.get("forfeit")
        if "forfeit" in t and (kind != "sides" or not _is_int(forfeit) or forfeit not in (0, 1)):
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
        if "end_reason" in t and (
            match.deals is None
            or finished is not True
            or not isinstance(end_reason, str)
            or not end_reason.strip()
        ):
            self.err(
                _join(path, "end_reason"),
                "is a text, on a finished table of a match of a number of deals",
            )
            ok = False
        last_deal = t.get("last_deal")
        if "last_deal" in t and (match.minutes is None or not _is_int(last_deal) or last_deal < 1):
            self.err(
                _join(path, "last_deal"),
                "is a number of deals 1 or more, on a table of a match by time (minutes)",
            )
            ok = False
        deals_arr = self.array(t.get("deals", []), _join(path, "deals"), "the deals")
        if deals_arr is None:
            return None
        if forfeit is not None and deals_arr:
            self.err(_join(path, "deals"), "a forfeited table has no deals")
            ok = False
        parsed = [
            self.hundred_deal(x, f"{path}.deals[{i}]", variant) for i, x in enumerate(deals_arr)
        ]
        # the sheet up to the first row that could not be read; the rows after it alone
        first_bad = next((i for i, x in enumerate(parsed) if x is None), len(parsed))
        deals = tuple(x for x in parsed[:first_bad] if x is not None)
        probe = Table(
            number,
            finished=bool(finished),
            deals=deals,
            last_deal=last_deal if _is_int(last_deal) else None,
        )
        issues: list[DealIssue] = list(derive_hundred(variant, match, probe).errors)
        for i in range(first_bad + 1, len(parsed)):
            row = parsed[i]
            if row is not None:
                issues += [x.at(i) for x in sheet_issues(variant, row)]
        for issue in sorted(issues, key=lambda x: x.index):
            dpath = f"{path}.deals[{issue.index}]"
            self.err(_join(dpath, issue.field) if issue.field else dpath, issue.message)
        if not ok or issues or first_bad < len(parsed):
            return None
        return Table(
            number,
            sides=(names[0], names[1]) if kind == "sides" else None,
            players=tuple(names) if kind == "players" else None,
            forfeit=forfeit,
            mode=mode,
            finished=finished,
            deals=deals,
            last_deal=last_deal,
            end_reason=end_reason.strip() if isinstance(end_reason, str) else None,
        )

    def hundred_deal(self, v: object, path: str, variant: HundredVariant) -> HundredDeal | None:
        """A row read as written; its values are checked with the table (``derive_hundred``)."""
        d = self.record(v, path, "a deal", DEAL_KEYS)
        if d is None:
            return None
        before = len(self.errors)
        required = ["declarer", "trump", "points", "bid" if variant.bidding else "turned"]
        if variant.friend_mode not in ("fixed", "dummy"):
            required += ["friend_card", "friend"]
        for key in required:
            if key not in d:
                self.err(_join(path, key), "is missing")
        penalties: tuple[tuple[str, str | int], ...] = ()
        if "penalties" in d:
            penalties = self.penalties(d["penalties"], _join(path, "penalties"), None)
        warnings: tuple[tuple[int, str], ...] = ()
        if "warnings" in d:
            warnings = self.warnings(d["warnings"], _join(path, "warnings"))
        if len(self.errors) > before:
            return None
        return HundredDeal(
            points=d["points"],
            kitty=0,
            trump=d["trump"],
            declarer=d["declarer"],
            friend=d.get("friend"),
            penalties=penalties,
            warnings=warnings,
            bid=d.get("bid"),
            turned=d.get("turned"),
            friend_card=d.get("friend_card"),
            kou_di=d.get("kou_di", False),
            kitty_points=d.get("kitty"),
        )


def load_hundred_deal(doc: object, variant: HundredVariant) -> HundredDeal:
    """Read one 打百分 row as ``tfile.dump_deal`` wrote it (a removed deal kept in the audit
    trail, to restore), as ``tfile.load_deal`` does for the other games; raise
    ``TournamentFileError`` if it cannot be read."""
    loader = HundredLoader()
    deal = loader.hundred_deal(doc, "deal", variant)
    if loader.errors or deal is None:
        raise TournamentFileError(
            loader.errors or [FileError("deal", "the deal could not be read")]
        )
    return deal
