"""Benchmark: the public standings page (its public link) of a 200-entrant, 9-round Swiss tractor-4p tournament
with 8 deals per match, rendered through the Flask test client from a SQLite database, and
seating its next round through the app's service (pairing + writing the round).

Prints one line per figure (medians). Targets: page < 100 ms, next round < 1 s.

    .venv/bin/python bench/standings_render.py [--entrants 200] [--rounds 9] [--deals 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from standings_pairing import build, median_ms  # noqa: E402

from app import create_app  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Tournament  # noqa: E402
from app.services import tournaments as svc  # noqa: E402
from app.services.visibility import set_visibility  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entrants", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    comp = build(args.entrants, args.rounds, args.deals, args.seed)
    comp = replace(comp, rounds=args.rounds + 1)
    n_deals = sum(len(tab.deals) for r in comp.played for tab in r.tables)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
                "SERVER_NAME": "localhost",
            }
        )
        with app.app_context():
            db.create_all()
            with app.test_request_context():
                t = svc.import_tournament(comp)
                set_visibility(t, "public")  # the public link's page, as a phone opens it
                db.session.commit()
            tid, link = t.id, t.public_token
            print(
                f"tournament: {args.entrants} entrants × {args.rounds} rounds, {n_deals} deals "
                "in the database"
            )
            client = app.test_client()

            def page() -> None:
                r = client.get(f"/p/{link}")
                assert r.status_code == 200, r.status_code

            def cold() -> None:
                row = db.session.get(Tournament, tid)
                assert row is not None
                row.bump()  # a new version: nothing cached
                db.session.commit()
                page()

            version = db.session.get(Tournament, tid).version  # type: ignore[union-attr]

            def poll() -> None:
                r = client.get(f"/p/{link}/live?v={version}")
                assert r.status_code in (200, 204)

            page()
            print(
                f"standings page, after a change (nothing cached): {median_ms(cold, args.runs):.1f} ms"
            )
            page()
            version = db.session.get(Tournament, tid).version  # type: ignore[union-attr]
            print(
                f"standings page, unchanged (cached by version): {median_ms(page, args.runs):.1f} ms"
            )
            print(f"live poll, unchanged (204): {median_ms(poll, args.runs):.1f} ms")

            def seat() -> None:
                with app.test_request_context():
                    row = db.session.get(Tournament, tid)
                    assert row is not None
                    svc.seat_next_round(row, svc.Actor("bench"))
                    db.session.rollback()  # measure again from the same state

            print(f"seat next round (pairing + writing it): {median_ms(seat, 3):.1f} ms")


if __name__ == "__main__":
    main()
