"""What one move costs the server, in one process: its POST, then the table's four seat streams
woken and drawn — bench/push.py's work per move without the machine around it.

bench/push.py's latency depends on everything else the shared cores run, and so does its CPU
per move once the machine is saturated (page loads and open streams cost the same while fewer
moves get made). Here T online tables of four human seats (bench/load.py's set-up) are played
in this one process through Flask's test client: every seat opens its page and its live stream
(the real generator of app/services/live/streams.py, each in a context of its own as a gevent
worker's greenlet has), and moves are made one after the other as bench/load.py's seats decide
them, each POST sent as static/live.js sends it with the stream open (answered 204); after each,
the table's four streams are read until each has drawn its event, woken as in a server (on
PostgreSQL by the LISTEN connection's announcement, on SQLite in-process). The thread's CPU time
(``time.thread_time``: not the time spent waiting for the database) is counted for the POSTs and
for the stream draws. Run it for the code before and after a change, one after the other, a few
times: the figures move with the machine's load by some 10 %.

    .venv/bin/python bench/push_cpu.py --db postgresql --moves 300
"""

from __future__ import annotations

import argparse
import contextvars
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402
from bench.push import event_data  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="postgresql")
    ap.add_argument("--moves", type=int, default=300)
    # 3 × 4 streams each hold a pooled connection while their event is read here (a server
    # writes it out at once and lets the connection go): within SQLAlchemy's default 5 + 10
    ap.add_argument("--tables", type=int, default=3)
    args = ap.parse_args()
    play = load.Play("tractor-4p", load.default_options("tractor-4p"), (0.0, 0.0))
    with (
        tempfile.TemporaryDirectory(prefix="shengji-push-cpu-") as tmpdir,
        load.database(args.db, Path(tmpdir)) as (url, _pg),
    ):
        load.migrate(url)
        _standings, tokens = load.set_up(url, args.tables, "tractor-4p", 8, "push cpu")
        run(url, tokens, args.moves, play)


def run(url: str, tokens: list[str], moves: int, play: load.Play) -> None:
    from app import create_app

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "LIVE_STREAMS": True, "SERVER_NAME": load.HOST}
    )
    client = app.test_client()
    seats: dict[str, load.Seat] = {}
    streams = {}
    for token in tokens:
        seat = load.Seat(token)
        page = client.get(f"/play/{token}")
        m = load.CSRF_RE.search(page.text)
        assert page.status_code == 200 and m, page.status_code
        seat.csrf = m.group(1)
        seat.read(page.text)
        seats[token] = seat
        ctx = contextvars.Context()  # the stream's own request context, as a greenlet's
        answer = ctx.run(client.get, f"/play/{token}/stream?v={seat.v}")
        events = cast(Iterator[bytes], iter(answer.response))  # the stream's chunks
        assert ctx.run(next, events).startswith(b"retry")
        streams[token] = (ctx, events)
    tables = [tokens[i : i + 4] for i in range(0, len(tokens), 4)]
    rng = random.Random(1)
    post = draw = 0.0
    made = drawn = 0
    headers = {**load.HTMX, "X-Live-Stream": "open"}
    try:
        while made < moves:
            progressed = False
            for table in tables:
                for token in table:
                    seat = seats[token]
                    want = seat.wants_to_act()
                    if want is None:
                        continue
                    if want == "ready":
                        form = {"csrf_token": seat.csrf, "v": seat.v}
                        path = f"/play/{token}/ready"
                    else:
                        state = load.page_state(seat.html, play.variant, play.options)
                        move = load.choose(state, rng)
                        if move is None:
                            continue
                        form = {"csrf_token": seat.csrf, "v": state["token"], **move}
                        path = f"/play/{token}"
                    c0 = time.thread_time()
                    answer = client.post(path, data=form, headers=headers)
                    spent = time.thread_time() - c0
                    assert answer.status_code == 204, (answer.status_code, answer.text[:300])
                    if want == "move":
                        post += spent
                        made += 1
                    for other in table:  # each of the table's streams draws the new state
                        ctx, events = streams[other]
                        c0 = time.thread_time()
                        while True:
                            got = ctx.run(next, events).decode()
                            if got.startswith("event: seat"):
                                break
                        draw += time.thread_time() - c0
                        drawn += 1
                        seats[other].read(event_data(got.strip()))
                    progressed = True
                    break
            if not progressed:
                raise SystemExit("no seat can move: the tables' matches are over")
    finally:
        for ctx, events in streams.values():
            close = getattr(events, "close", None)
            if close is not None:
                ctx.run(close)
    db = url.split(":", 1)[0].split("+", 1)[0]
    print(
        f"moves {made} (their POST answered 204), stream draws {drawn}, load {load.loadavg()}\n"
        f"CPU per move: POST {post / made * 1000:.2f} ms + draws "
        f"{(draw / made) * 1000:.2f} ms ({draw / drawn * 1000:.2f} ms each)"
    )
    print(f"push_cpu_ms_per_move={(post + draw) / made * 1000:.2f} db={db}")


if __name__ == "__main__":
    main()
