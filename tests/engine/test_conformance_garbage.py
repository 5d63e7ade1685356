"""The conformance command on messy files: a byte order mark, CRLF line endings, blank lines,
a last line without a newline, huge numbers and unicode are answered line by line; only input
that is not JSON lines at all gets exit status 2 (FORMAT.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CASE = (
    '{"id": "a", "variant": "tractor-4p", "level": "7", "trump": "S", "query": "classify", '
    '"cards": ["8D", "8D", "6D", "6D"]}'
)


def _run(path: Path) -> tuple[int, list[dict[str, object]], str]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine.conformance", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, [json.loads(x) for x in proc.stdout.splitlines()], proc.stderr


def test_bom_crlf_blank_lines_and_no_final_newline(tmp_path: Path) -> None:
    huge = (
        '{"id": "h", "variant": "tractor-4p", "query": "advance", "from": "2", '
        '"gain": 100000000000000000000000000000000}'
    )
    uni = (
        '{"id": "五", "variant": "tractor-4p", "level": "2", "trump": "S", '
        '"query": "classify", "cards": ["AS", "五"]}'
    )
    text = "\ufeff" + CASE + "\r\n\r\n   \r\n" + huge + "\r\n" + uni  # no final newline
    f = tmp_path / "messy.jsonl"
    f.write_bytes(text.encode("utf-8"))
    rc, out, err = _run(f)
    assert rc == 0, err
    assert [o["id"] for o in out] == ["a", "h", "五"]
    assert out[0] == {"id": "a", "suit": "D", "combo": "tractor", "width": 2, "length": 2}
    assert out[1] == {"id": "h", "to": "A", "passed": False}
    assert "unknown card '五'" in str(out[2]["error"])


def test_not_json_lines_is_exit_2_with_a_sentence(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text(CASE + "\nnot json\n", encoding="utf-8")
    rc, out, err = _run(f)
    assert rc == 2
    assert "line 2 is not JSON" in err
    g = tmp_path / "binary.jsonl"
    g.write_bytes(b"\xff\xfe\x00")
    rc, out, err = _run(g)
    assert rc == 2 and "not UTF-8" in err
