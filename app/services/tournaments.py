"""Tournament services, one import for scripts and the shell (``bench/``, ``flask shell``).

Each concept has its own module; this one only gathers their public names:

* ``tournament_rows``: database rows ↔ ``app.competition`` data (``load``, deal rows);
* ``tournament_audit``: who acts (``Actor``) and the audit trail;
* ``tournament_setup``: creating a tournament, entrants, withdrawals;
* ``tournament_rounds``: seating, pairing again, swaps, closing, table codes;
* ``tournament_sheets``: recording and correcting deals, finishing and forfeiting tables;
* ``tournament_standings``: what the public standings and history pages show;
* ``tournament_files`` (the JSON tournament file), ``tournament_csv``, ``tournament_printouts``
  (data for ``app.printing``).

Every change bumps ``Tournament.version`` (pages poll with it; ``load`` caches on it). Services
never commit (see ``app.services``); permission checks are the views' job, except that corrections
after a round is closed need an owner (``Actor.owner``).
"""

from __future__ import annotations

from .tournament_audit import Actor, audit, audit_trail
from .tournament_files import export_json, import_tournament
from .tournament_rounds import (
    close_round,
    reopen_round,
    repair_round,
    seat_next_round,
    swap_entrants,
    table_by_code,
)
from .tournament_rows import Loaded, load
from .tournament_setup import (
    add_entrant,
    create_tournament,
    find_by_name,
    reinstate_entrant,
    withdraw_entrant,
)
from .tournament_sheets import (
    DealErrors,
    delete_last_deal,
    record_deal,
    set_finished,
    set_forfeit,
    sheet,
)

__all__ = [
    "Actor",
    "DealErrors",
    "Loaded",
    "add_entrant",
    "audit",
    "audit_trail",
    "close_round",
    "create_tournament",
    "delete_last_deal",
    "export_json",
    "find_by_name",
    "import_tournament",
    "load",
    "record_deal",
    "reinstate_entrant",
    "reopen_round",
    "repair_round",
    "seat_next_round",
    "set_finished",
    "set_forfeit",
    "sheet",
    "swap_entrants",
    "table_by_code",
    "withdraw_entrant",
]
