"""The engine is pure Python: importing it loads no web framework, database or app module."""

import json
import subprocess
import sys


def test_engine_imports_no_app_framework():
    code = (
        "import sys, json, engine, engine.cards, engine.variants; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    forbidden = [
        m for m in loaded if m.split(".")[0] in {"flask", "sqlalchemy", "werkzeug", "app", "jinja2"}
    ]
    assert forbidden == []
