"""Benchmark: a club season of 30 nights × 40 members × 6 rounds (升级, pairs, Swiss, 8 deals a
match), built through the services (the tournament-file import, the bulk path: each night is a
seeded Swiss event of the club's 40 members in new pairs, linked to their member records, dated
and put in the season), then

* the season standings page (``/clubs/<slug>/seasons/<id>``, the owner logged in) in a new
  process (nothing derived yet), after a change (the last night's version bumped, as recording
  a deal does; the commit itself is not timed) and unchanged;
* the ratings of the whole club (``club_ratings``) re-derived from nothing, and after a change.

Each figure is the median of a few runs, wall time and CPU time (``time.process_time``: this
machine is shared, the wall clock is noisy). Goals: page < 150 ms, ratings < 2 s. The last line
is ``season_page_ms=X ratings_s=Y`` (wall, medians: the page after a change, the whole club's
ratings from nothing).

    .venv/bin/python bench/season.py [--nights 30] [--members 40] [--rounds 6] [--deals 8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy import func, select  # noqa: E402
from standings_pairing import random_match  # noqa: E402

from app import create_app  # noqa: E402
from app.competition import model as cm  # noqa: E402
from app.competition.pairing import pair_next_round  # noqa: E402
from app.extensions import db  # noqa: E402
from app.models import Club, Deal, Tournament, User  # noqa: E402
from app.passwords import hash_password  # noqa: E402
from app.services import clubs as club_svc  # noqa: E402
from app.services import tournaments as svc  # noqa: E402
from app.services.ratings import club as club_cache  # noqa: E402
from app.services.ratings.club import club_ratings  # noqa: E402
from app.services.seasons import standings as season_cache  # noqa: E402
from app.services.seasons.manage import season_by_name  # noqa: E402
from app.services.tournaments import rows  # noqa: E402

PASSWORD = "bench-season-password-9"
SEASON = "Bench League"


def night(names: list[str], k: int, rounds: int, deals: int, rng: random.Random) -> cm.Tournament:
    """Night ``k``: the members in new pairs, ``rounds`` Swiss rounds of ``deals`` deals."""
    order = names[:]
    rng.shuffle(order)
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    t = cm.Tournament(
        club="Bench Club",
        name=f"Night {k + 1:02d}",
        variant="tractor-4p",
        pairing="swiss",
        rounds=rounds,
        match=cm.MatchSpec(deals=deals),
        entrants=tuple(cm.Entrant(f"{a} & {b}", (a, b)) for a, b in pairs),
        date=(date(2026, 1, 6) + timedelta(weeks=k)).isoformat(),
        season=SEASON,
    )
    for _ in range(rounds):
        plan = pair_next_round(t)
        tables = tuple(
            tab if tab.bye else replace(tab, deals=random_match(rng, deals)) for tab in plan.tables
        )
        t = replace(t, played=(*t.played, cm.Round(plan.round, tables)))
    return t


def median(
    fn: Callable[[], object], runs: int, before: Callable[[], object] | None = None
) -> tuple[float, float]:
    """Median wall and CPU seconds of ``runs`` calls (each after ``before``, not timed)."""
    walls, cpus = [], []
    for _ in range(runs):
        if before is not None:
            before()
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, default=30)
    ap.add_argument("--members", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
                "SERVER_NAME": "localhost",
                "WTF_CSRF_ENABLED": False,
                "PASSWORD_HASH_PROFILE": "fast",
            }
        )
        with app.app_context():
            db.create_all()
            w, c = time.perf_counter(), time.process_time()
            with app.test_request_context():
                owner = User(
                    username="owner",
                    display_name="Member 00",
                    password_hash=hash_password(PASSWORD),
                )
                db.session.add(owner)
                db.session.flush()
                club = club_svc.create_club(owner, "Bench Club")
                lines = club_svc.parse_member_list(
                    club, "\n".join(f"Member {i:02d}" for i in range(1, args.members))
                )
                club_svc.add_members(club, lines)
                db.session.commit()
                names = [f"Member {i:02d}" for i in range(args.members)]
                for k in range(args.nights):
                    svc.import_tournament(night(names, k, args.rounds, args.deals, rng), club=club)
                    db.session.commit()
            season = season_by_name(club, SEASON)
            assert season is not None
            n_deals = db.session.scalar(select(func.count()).select_from(Deal))
            print(
                f"season: {args.nights} nights × {args.members} members × {args.rounds} rounds, "
                f"built in {time.perf_counter() - w:.1f} s (CPU {time.process_time() - c:.1f} s)"
                + f", {n_deals} deals"
            )
            slug, sid, club_id = club.slug, season.id, club.id
            nights = db.session.scalars(select(Tournament).where(Tournament.season_id == sid))
            last = max(nights, key=lambda t: (t.date, t.id))
            last_id = last.id
            client = app.test_client()
            r = client.post("/account/login", data={"username": "owner", "password": PASSWORD})
            assert r.status_code == 302, r.status_code
            url = f"/clubs/{slug}/seasons/{sid}"

            def page() -> None:
                r = client.get(url)
                assert r.status_code == 200, r.status_code
                assert b"Member 07" in r.data

            def change() -> None:
                """What recording a deal on the last night does to its row: a new version."""
                t = db.session.get(Tournament, last_id)
                assert t is not None
                t.bump()
                db.session.commit()

            def ratings() -> None:
                c = db.session.get(Club, club_id)
                assert c is not None
                assert len(club_ratings(c)) == args.members

            def forget() -> None:
                """A new process: nothing derived is kept (the whole club re-derived)."""
                rows._LOAD_CACHE.clear()
                club_cache._CACHE.clear()
                season_cache._LINES.clear()
                season_cache._PREFIXES.clear()

            page()  # warm the process (imports, templates)
            cw, cc = median(page, max(1, args.runs // 2), forget)
            pw, pc = median(page, args.runs, change)
            uw, uc = median(page, args.runs)
            fw, fc = median(ratings, max(1, args.runs // 2), forget)
            rw, rc = median(ratings, args.runs, change)
            print(f"season page, new process: {cw * 1000:.0f} ms (CPU {cc * 1000:.0f} ms)")
            print(f"season page after a change: {pw * 1000:.0f} ms (CPU {pc * 1000:.0f} ms)")
            print(f"season page unchanged: {uw * 1000:.0f} ms (CPU {uc * 1000:.0f} ms)")
            print(f"club ratings, whole club from nothing: {fw:.2f} s (CPU {fc:.2f} s)")
            print(f"club ratings after a change: {rw:.3f} s (CPU {rc:.3f} s)")
            print(f"season_page_ms={pw * 1000:.0f} ratings_s={fw:.2f}")


if __name__ == "__main__":
    main()
