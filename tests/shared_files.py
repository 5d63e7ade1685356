"""Where the tests find the project's shared reference material (``../shared`` beside the
checkout, as laid out for developers and CI; ``SHENGJI_SHARED`` overrides it).

The conformance examples are also kept in ``tests/data`` so the engine's tests run every example
in any checkout; the shared copy wins when present (it may have grown).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    env = os.environ.get("SHENGJI_SHARED")
    return Path(env) if env else ROOT.parent / "shared"


def conformance_examples() -> Path:
    shared = shared_dir() / "conformance" / "examples.jsonl"
    return shared if shared.exists() else ROOT / "tests" / "data" / "conformance_examples.jsonl"


def rules_md() -> Path:
    return shared_dir() / "rules" / "RULES.md"
