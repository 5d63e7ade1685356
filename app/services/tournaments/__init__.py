"""Tournament services, one package: a module per concept, and here one import for scripts and the
shell (``bench/``, ``flask shell``).

Each concept has its own module; this one only gathers their public names:

* ``tournaments.rows``: database rows ↔ ``app.competition`` data (``load``, deal rows);
* ``tournaments.audit``: who acts (``Actor``) and the audit trail (``tournaments.audit.audit``);
* ``tournaments.setup``: creating a tournament, entrants, withdrawals;
* ``tournaments.rounds``: seating, pairing again, swaps, closing, table codes;
* ``tournaments.sheets``: recording and correcting deals (their penalties and warnings too),
  finishing and forfeiting tables;
* ``tournaments.standings``: what the public standings and history pages show;
* ``tournaments.files`` (the JSON tournament file), ``tournaments.csv_export``, ``tournaments.printouts``
  (data for ``app.printing``).

Every change bumps ``Tournament.version`` (pages poll with it; ``load`` caches on it). Services
never commit (see ``app.services``); permission checks are the views' job, except that corrections
after a round is closed need an owner (``Actor.owner``).

No module here imports ``app.services.online``: the online tables import these and listen to
them (``sheets.OnlineTables``, ``sheets.listen``), so tournaments can be read without online.
The public names are loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOME = {
    "Actor": "audit",
    "DealErrors": "sheets",
    "Loaded": "rows",
    "add_entrant": "setup",
    "add_penalty": "sheets",
    "audit_trail": "audit",
    "close_round": "rounds",
    "create_tournament": "setup",
    "delete_last_deal": "sheets",
    "end_early": "sheets",
    "export_json": "files",
    "find_by_name": "setup",
    "import_tournament": "files",
    "load": "rows",
    "record_deal": "sheets",
    "reinstate_entrant": "setup",
    "reopen_round": "rounds",
    "repair_round": "rounds",
    "seat_next_round": "rounds",
    "set_finished": "sheets",
    "set_forfeit": "sheets",
    "sheet": "sheets",
    "swap_entrants": "rounds",
    "table_by_code": "rounds",
    "withdraw_entrant": "setup",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
