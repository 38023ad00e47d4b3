"""Load benchmark of `ragaudit serve` on 127.0.0.1: sustained sync audits, and an async burst
across a kill and restart of the server (no audit may be lost).

    python benchmarks/load.py [--seconds 20] [--connections 4] [--db sqlite|postgresql] [--burst 200]

Needs Debian's wrk (apt-get install wrk). Every loop is bounded in time and count, and all
traffic goes to 127.0.0.1. Prints a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load import Server, database_url, lua_script, require_wrk, run_wrk

REQUEST = {
    "question": "When did the plant open and how many people work there?",
    "answer": "The Lakeside plant opened in 2010. It employs about 1,200 people, most of them on two shifts. "
    "The plant was built by Norsk Hydro.",
    "sources": [
        {"id": "1", "text": "The Lakeside aluminium plant opened in 2012 after three years of construction."},
        {"id": "2", "text": "Today the plant employs 1200 people. Most of them work on one of two shifts."},
    ],
}


def wrk(url: str, key: str, seconds: int, connections: int, workdir: Path) -> dict[str, Any]:
    """Sustained sync audits of ``REQUEST`` for ``seconds``."""
    script = workdir / "post.lua"
    lua_script([REQUEST], key, script)
    return run_wrk(url, script, seconds, connections)


def burst(server: Server, n: int, log: Path, db: str) -> dict[str, int]:
    """Submit n async audits, kill the server half-way, restart it, and count what got recorded."""
    ids = []
    with server.client() as c:
        for i in range(n):
            r = c.post("/v1/audits?mode=async", json={**REQUEST, "trace_id": f"burst-{i}"})
            r.raise_for_status()
            ids.append(r.json()["id"])
            if i == n // 2:
                server.kill()
                server = Server(db, log=log).start()
                c.base_url = server.url  # type: ignore[assignment]
    deadline = time.monotonic() + 120
    with server.client() as c:
        pending = set(ids)
        while pending and time.monotonic() < deadline:
            pending = {i for i in pending if c.get(f"/v1/audits/{i}").json()["state"] != "done"}
            time.sleep(0.5)
    server.stop()
    return {"submitted": n, "recorded": n - len(pending), "lost": len(pending)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--burst", type=int, default=200)
    args = parser.parse_args()
    require_wrk()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        db = database_url(args.db, workdir)
        server = Server(db, log=workdir / "serve.log").start()
        sync = wrk(server.url, server.admin_key, args.seconds, args.connections, workdir)
        lost = burst(server, args.burst, workdir / "serve.log", db)
    print(
        json.dumps(
            {
                "database": args.db,
                "seconds": args.seconds,
                "connections": args.connections,
                "sync": sync,
                "async_burst_with_kill": lost,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
