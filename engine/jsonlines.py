"""The JSON-lines runner of the query commands (``python -m engine.conformance`` and
``python -m app.competition.duplicate``): one case a line in, one answer a line out, in order.

A line that is not JSON stops the run (exit 2, the line's number on standard error); a line that is
JSON but cannot be read as a case (it nests too deeply, or holds a number too long to convert)
gets an error answer of its own, so the answers still line up with the cases.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

Answer = Callable[[Any], dict[str, Any]]


class _Unreadable:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def run(stream: TextIO, out: TextIO, answer: Answer) -> int:
    """Answer every case of ``stream`` on ``out``; 0, or 2 when a line is not JSON."""
    cases: list[Any] = []
    for lineno, line in enumerate(stream, 1):
        if lineno == 1:
            line = line.removeprefix("\ufeff")  # a byte order mark some editors write
        if not line.strip():
            continue
        try:
            cases.append(json.loads(line))
        except json.JSONDecodeError as e:
            print(f"line {lineno} is not JSON: {e}", file=sys.stderr)
            return 2
        except RecursionError:
            cases.append(_Unreadable("the line nests too deeply to be a case"))
        except ValueError as e:  # e.g. an integer longer than Python converts
            cases.append(_Unreadable(f"the line cannot be read as a case: {e}"))
    for case in cases:
        reply = (
            {"id": None, "error": case.reason} if isinstance(case, _Unreadable) else answer(case)
        )
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
    out.flush()
    return 0


def main(argv: Sequence[str] | None, prog: str, answer: Answer) -> int:
    """The command line: one argument, a file of cases or ``-`` for standard input."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(f"usage: python -m {prog} FILE.jsonl   (or - for standard input)", file=sys.stderr)
        return 2
    if args[0] == "-":
        try:
            return run(sys.stdin, sys.stdout, answer)
        except UnicodeDecodeError as e:
            print(f"standard input is not UTF-8 text: {e}", file=sys.stderr)
            return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            return run(f, sys.stdout, answer)
    except OSError as e:
        print(f"cannot read {args[0]}: {e}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as e:
        print(f"{args[0]} is not UTF-8 text: {e}", file=sys.stderr)
        return 2
