"""How often the service's audit processes build the same source index: RAGTruth rows through the
audit pool (no HTTP), a few callers at a time, as wrk sends them to the service.

    python benchmarks/bench_service_dispatch.py [--rows 120] [--callers 2 4] [--interleave 1 4] [--no-shared-vectors]

For each order of the rows (``--interleave 1``: file order, where consecutive rows share their
document; ``4``: the answers of 4 documents dealt in turn, see ``bench_service.interleave``) and each
number of callers, a fresh pool of 2 processes audits every row once, each caller taking the next
row when its last answer came back. Index builds are read from each process's source-index cache
(entries added during the run; the cache is large enough to evict none here), so the count does
not depend on the machine's load, unlike audits/s; worker CPU per audit is printed too. Also runs
against an older pool without ``AuditPool.run`` (commit 924a944: one shared executor). Prints JSON
lines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_service import interleave, rows


def _cache_state() -> tuple[int, int, float]:
    time.sleep(0.2)  # so that the concurrent calls reach every process
    from ragaudit._cache import shared_index_cache

    return os.getpid(), len(shared_index_cache()), time.process_time()


async def replay(n: int, callers: int, streams: int, shared: bool = True) -> dict[str, Any]:
    """Audit the first ``n`` rows (dealt ``streams`` documents at a time) with ``callers`` callers."""
    from ragaudit.config import AuditorConfig
    from ragaudit.models import AuditRequest
    from ragaudit.service.pool import AuditPool

    requests = [AuditRequest.model_validate(r) for r in interleave(rows(n), streams)]
    documents = len({json.dumps([s.model_dump() for s in r.sources]) for r in requests})
    pool = AuditPool(AuditorConfig(), 2, shared_vectors=shared)
    await pool.start()
    call: Callable[[], Awaitable[tuple[int, int, float]]]
    if hasattr(pool, "run"):
        call = lambda: pool.run(None, _cache_state)  # noqa: E731
    else:  # the older pool: one executor shared by the processes
        call = lambda: asyncio.get_running_loop().run_in_executor(pool._pool(), _cache_state)  # type: ignore[attr-defined]  # noqa: E731
    before = {pid: (size, cpu) for pid, size, cpu in await asyncio.gather(*(call() for _ in range(6)))}
    pending = iter(requests)
    started = time.perf_counter()

    async def caller() -> None:
        for request in pending:
            await pool.audit(request)

    await asyncio.gather(*(caller() for _ in range(callers)))
    seconds = time.perf_counter() - started
    after = {pid: (size, cpu) for pid, size, cpu in await asyncio.gather(*(call() for _ in range(6)))}
    pool.close()
    builds = sum(after[p][0] - before[p][0] for p in after)
    cpu = sum(after[p][1] - before[p][1] for p in after)
    return {
        "rows": n,
        "interleave": streams,
        "callers": callers,
        "documents": documents,
        "index_builds": builds,
        "builds_per_document": round(builds / documents, 2),
        "worker_cpu_ms_per_audit": round(1000 * cpu / n, 1),
        "seconds": round(seconds, 2),
        "shared_vectors": shared,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=120)
    parser.add_argument("--callers", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--interleave", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--no-shared-vectors", action="store_true", help="each process embeds alone")
    args = parser.parse_args()
    for streams in args.interleave:
        for callers in args.callers:
            print(json.dumps(asyncio.run(replay(args.rows, callers, streams, not args.no_shared_vectors))), flush=True)


if __name__ == "__main__":
    main()
