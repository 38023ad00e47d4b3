"""Audits off the event loop and off the GIL: a pool of processes sized to the cores.

The HTTP process parses requests, writes the audit trail and answers ``/healthz``; the CPU-bound
audit runs in a worker process that built its auditors once (a judge may load a model) and keeps
them, like the batch kernel's workers. It is the equivalent of several uvicorn workers without
several copies of the database pool and the async job worker. A worker that dies (killed, out of
memory) breaks the pool; the next audit builds a new pool and is retried once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ragaudit._cache import shared_index_cache
from ragaudit.batch import default_workers
from ragaudit.config import AuditorConfig
from ragaudit.kernel import worker_auditor
from ragaudit.models import AuditRequest, ClaimType, Report, RiskLevel

_config = AuditorConfig()


def _init_worker(config: AuditorConfig, index_cache_chars: int | None) -> None:
    global _config
    _config = config
    if index_cache_chars is not None:  # this process's one source-index cache, bounded as configured
        shared_index_cache().max_chars = index_cache_chars
    # The common case is built, and its models loaded, before the first request reaches this process.
    worker_auditor(config).audit(
        {"answer": "The plant opened in 2012.", "sources": [{"id": "1", "text": "The plant opened in 2012."}]}
    )


def request_config(
    config: AuditorConfig, risk_level: RiskLevel | None, claim_types: Sequence[ClaimType] | None
) -> AuditorConfig:
    """``config`` with a request's own risk level and claim types (``None``: the configured ones)."""
    return config.replace(risk_level=risk_level, claim_types=tuple(claim_types) if claim_types else None)


def _audit_in_worker(
    request: AuditRequest, risk_level: RiskLevel | None, claim_types: tuple[ClaimType, ...] | None
) -> str:
    return worker_auditor(request_config(_config, risk_level, claim_types)).audit(request).to_json()


class AuditPool:
    """``await pool.audit(request, …)`` runs the audit in a worker process and returns the report.

    Args:
        config: The auditor configuration every worker builds (shipped to each, so it must pickle:
            a judge spec, not a judge object); a request may set its own risk level and claim types.
        processes: Worker processes; default one per core. ``0`` audits in a thread of this process
            (for embedding the app where processes cannot be started).
        index_cache_chars: Bound of each worker's source-index cache (characters); default: the library's.
    """

    def __init__(
        self, config: AuditorConfig, processes: int | None = None, *, index_cache_chars: int | None = None
    ) -> None:
        self.config = config
        self.index_cache_chars = index_cache_chars
        self.processes = default_workers() if processes is None else processes
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                # spawn, not fork: the server process has threads (event loop helpers, DB pool) by now
                self._executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_init_worker,
                    initargs=(self.config, self.index_cache_chars),
                )
            return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def start(self) -> None:
        """Start every worker and build its auditor now, so the first requests do not pay for it."""
        if self.processes <= 0:
            return
        loop = asyncio.get_running_loop()
        pool = self._pool()
        # A worker that is up answers at once and can take every call while another still loads its
        # models, so ask until each process has answered: otherwise the first requests all queue on one.
        ready: set[int] = set()
        while True:
            ready.update(await asyncio.gather(*(loop.run_in_executor(pool, os.getpid) for _ in range(self.processes))))
            if len(ready) >= self.processes:
                return
            await asyncio.sleep(0.05)

    async def audit(
        self,
        request: AuditRequest,
        risk_level: RiskLevel | None = None,
        claim_types: Sequence[ClaimType] | None = None,
    ) -> Report:
        """Audit ``request`` in a worker (or a thread when ``processes`` is 0) under the pool's config,
        with the request's own risk level and claim types where given."""
        types = tuple(claim_types) if claim_types else None
        if self.processes <= 0:
            auditor = worker_auditor(request_config(self.config, risk_level, types))
            return await asyncio.to_thread(auditor.audit, request)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._pool()
            try:
                text = await loop.run_in_executor(pool, _audit_in_worker, request, risk_level, types)
                return Report.model_validate_json(text)
            except BrokenProcessPool:
                self._replace(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the workers."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
