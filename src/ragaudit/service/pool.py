"""Audits off the event loop and off the GIL: a pool of processes sized to the cores.

The HTTP process parses requests, writes the audit trail and answers ``/healthz``; the CPU-bound
audit runs in a worker process that built its auditors once (a judge may load a model) and keeps
them, like the batch kernel's workers. It is the equivalent of several uvicorn workers without
several copies of the database pool and the async job worker.

Each process is its own one-process executor and the requests wait here, in the HTTP process, so
that the next one a process takes can be chosen (``_dispatch``): a request goes where its sources
were indexed last when such a process is free, and no process idles while a request waits. One
shared queue instead spreads consecutive answers about the same passages over every process, and
each then builds the same source index and embeds the same windows again. When two processes do
take answers about the same passages at once (a client sending them one after another), they split
the embedding of those passages through a table of vectors in shared memory (``_shared_vectors``):
each claims the texts of its next model run, skips those the other claimed, and reads them after
(embedding is most of an audit's cost). A worker that dies
(killed, out of memory) fails only the audit it was running; its process is replaced and that audit
is retried once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.context
import os
import threading
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, TypeVar

from ragaudit._cache import shared_index_cache
from ragaudit._shared_vectors import Handle, SharedVectors
from ragaudit.batch import default_workers
from ragaudit.config import AuditorConfig
from ragaudit.embed import share_vectors
from ragaudit.kernel import worker_auditor
from ragaudit.models import AuditRequest, ClaimType, Report, RiskLevel
from ragaudit.service._dispatch import Scheduler, Waiting

T = TypeVar("T")
logger = logging.getLogger(__name__)

_config = AuditorConfig()


def _init_worker(config: AuditorConfig, index_cache_chars: int | None, vectors: Handle | None) -> None:
    global _config
    _config = config
    if vectors is not None:
        share_vectors(SharedVectors.attach(vectors))
    if index_cache_chars is not None:  # this process's one source-index cache, bounded as configured
        shared_index_cache().max_chars = index_cache_chars
    # The common case is built, and its models loaded, before the first request reaches this process.
    worker_auditor(config).audit(
        {"answer": "The plant opened in 2012.", "sources": [{"id": "1", "text": "The plant opened in 2012."}]}
    )


def _shared_table(context: multiprocessing.context.SpawnContext) -> SharedVectors | None:
    """The vectors the pool's processes share, or ``None`` where shared memory cannot be had (each then
    embeds alone)."""
    try:
        return SharedVectors.create(context)
    except OSError as exc:
        logger.warning("audit processes embed alone: no shared memory for their vectors (%s)", exc)
        return None


def request_config(
    config: AuditorConfig, risk_level: RiskLevel | None, claim_types: Sequence[ClaimType] | None
) -> AuditorConfig:
    """``config`` with a request's own risk level and claim types (``None``: the configured ones)."""
    return config.replace(risk_level=risk_level, claim_types=tuple(claim_types) if claim_types else None)


def _audit_in_worker(
    request: AuditRequest, risk_level: RiskLevel | None, claim_types: tuple[ClaimType, ...] | None
) -> str:
    return worker_auditor(request_config(_config, risk_level, claim_types)).audit(request).to_json()


def sources_affinity(request: AuditRequest) -> int:
    """What identifies a request's sources to the dispatcher (the index cache's key, cheaper: it never
    leaves this process, and a collision only sends a request where its index is not)."""
    return hash(tuple((s.id, s.text) for s in request.sources))


class AuditPool:
    """``await pool.audit(request, …)`` runs the audit in a worker process and returns the report.

    Args:
        config: The auditor configuration every worker builds (shipped to each, so it must pickle:
            a judge spec, not a judge object); a request may set its own risk level and claim types.
        processes: Worker processes; default one per core. ``0`` audits in a thread of this process
            (for embedding the app where processes cannot be started).
        index_cache_chars: Bound of each worker's source-index cache (characters); default: the library's.
        on_dispatch: Called with ``True`` when a request goes to a process that had its sources among
            those it indexed recently, ``False`` otherwise (the service counts them).
        shared_vectors: Let the processes share the vectors they embed (off: each embeds alone, as for
            measuring what sharing saves).
    """

    def __init__(
        self,
        config: AuditorConfig,
        processes: int | None = None,
        *,
        index_cache_chars: int | None = None,
        on_dispatch: Callable[[bool], None] | None = None,
        shared_vectors: bool = True,
    ) -> None:
        self.config = config
        self.index_cache_chars = index_cache_chars
        self.processes = default_workers() if processes is None else processes
        self.on_dispatch = on_dispatch
        self.scheduler = Scheduler(max(0, self.processes))
        self._executors: list[ProcessPoolExecutor | None] = [None] * max(0, self.processes)
        self._lock = threading.Lock()
        self._vectors: SharedVectors | None = None
        self.shared_vectors = shared_vectors

    def _executor(self, slot: int) -> ProcessPoolExecutor:
        with self._lock:
            executor = self._executors[slot]
            if executor is None:
                # spawn, not fork: the server process has threads (event loop helpers, DB pool) by now
                context = multiprocessing.get_context("spawn")
                if self._vectors is None and self.processes > 1 and self.shared_vectors:
                    self._vectors = _shared_table(context)
                handle = self._vectors.handle if self._vectors is not None else None
                executor = self._executors[slot] = ProcessPoolExecutor(
                    1,
                    mp_context=context,
                    initializer=_init_worker,
                    initargs=(self.config, self.index_cache_chars, handle),
                )
            return executor

    def _drop(self, slot: int, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executors[slot] is broken:
                self._executors[slot] = None
                self.scheduler.slots[slot].recent.clear()  # its indexes died with it
        broken.shutdown(wait=False, cancel_futures=True)

    async def start(self) -> None:
        """Start every worker and build its auditor now, so the first requests do not pay for it."""
        if self.processes <= 0:
            return
        # Each executor is one process, and it answers only once its initializer has built the auditor.
        calls = [self._executor(slot).submit(os.getpid) for slot in range(self.processes)]
        await asyncio.gather(*(asyncio.wrap_future(call) for call in calls))

    def pids(self) -> list[int | None]:
        """The id of each slot's worker process (``None`` where none runs now)."""
        with self._lock:
            executors = list(self._executors)
        out: list[int | None] = []
        for executor in executors:
            running = list((getattr(executor, "_processes", None) or {}).keys())
            out.append(running[0] if running else None)
        return out

    async def run(self, key: Hashable | None, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker process chosen by the dispatcher for sources ``key`` (in a thread
        when ``processes`` is 0)."""
        if self.processes <= 0:
            return await asyncio.to_thread(fn, *args)
        outer: Future[T] = Future()
        item = Waiting(key, (fn, args, outer))
        outer.add_done_callback(partial(self._forget, item))
        with self._lock:
            slot = self.scheduler.arrive(item)
        if slot is not None:
            self._dispatched(item)
            if not self._start(slot, item):
                self._next(slot)
        return await asyncio.wrap_future(outer)

    def _forget(self, item: Waiting, outer: Future[Any]) -> None:
        if outer.cancelled():  # its caller gave up before a process took it
            with self._lock:
                self.scheduler.remove(item)

    def _dispatched(self, item: Waiting) -> None:
        if self.on_dispatch is not None and item.key is not None:
            self.on_dispatch(item.seen)

    def _start(self, slot: int, item: Waiting) -> bool:
        """Submit ``item`` to ``slot``'s process; False when it did not start (cancelled, or failed)."""
        fn, args, outer = item.payload
        if not outer.set_running_or_notify_cancel():
            return False
        for attempt in (1, 2):
            executor = self._executor(slot)
            try:
                call = executor.submit(fn, *args)
            except BrokenProcessPool as exc:  # the process died while idle: start another once
                self._drop(slot, executor)
                if attempt == 2:
                    outer.set_exception(exc)
                    return False
                continue
            except RuntimeError as exc:  # closed meanwhile
                outer.set_exception(exc)
                return False
            call.add_done_callback(partial(self._finished, slot, executor, outer))
            return True
        return False

    def _finished(self, slot: int, executor: ProcessPoolExecutor, outer: Future[Any], call: Future[Any]) -> None:
        if isinstance(call.exception() if not call.cancelled() else None, BrokenProcessPool):
            self._drop(slot, executor)
        # The slot is freed before the caller hears back: a caller that sends its next request at
        # once must find this process idle (and with its sources), not still marked busy.
        with self._lock:
            item = self.scheduler.release(slot)
        if call.cancelled():  # close() cancelled it before the process took it
            outer.set_exception(CancelledError())
        elif call.exception() is not None:
            outer.set_exception(call.exception())
        else:
            outer.set_result(call.result())
        if item is not None:
            self._run_next(slot, item)

    def _next(self, slot: int) -> None:
        """``slot`` is free: start the waiting request the dispatcher gives it, if any."""
        with self._lock:
            item = self.scheduler.release(slot)
        if item is not None:
            self._run_next(slot, item)

    def _run_next(self, slot: int, item: Waiting) -> None:
        """Start ``item`` on ``slot``; if it does not start (cancelled meanwhile), the slot takes the next."""
        self._dispatched(item)
        if not self._start(slot, item):
            self._next(slot)

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
        key = sources_affinity(request)
        for attempt in (1, 2):
            try:
                text = await self.run(key, _audit_in_worker, request, risk_level, types)
                return Report.model_validate_json(text)
            except BrokenProcessPool:  # its process died; _finished has replaced it
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the workers; requests still waiting for one are cancelled (a later call starts new ones)."""
        with self._lock:
            waiting = list(self.scheduler.waiting)
            self.scheduler.waiting.clear()
            executors, self._executors = self._executors, [None] * len(self._executors)
            # Taken with the executors: a process started after this gets a table of its own, never this one.
            vectors, self._vectors = self._vectors, None
        for item in waiting:
            item.payload[2].cancel()
        for executor in executors:
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
        if vectors is not None:
            vectors.unlink()
