"""Whether SQLite's write lock of a database file is held by another connection right now (the
tests of ``app.db``'s BEGIN IMMEDIATE and of the online bridge's read-then-write requests)."""

from __future__ import annotations

import sqlite3


def write_lock_held(path: str) -> bool:
    """Can another connection take the write lock right now? False if it can, True if the lock
    is held (a ``database is locked`` refusal)."""
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
        return True
    finally:
        other.close()
