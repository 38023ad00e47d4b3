"""Audit many requests on several cores, yielding reports in input order."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ragaudit._pipeline import Auditor
from ragaudit.config import AuditorConfig
from ragaudit.gate import Policy
from ragaudit.judges import Judge
from ragaudit.models import AuditRequest, ClaimType, Report, RiskLevel

_worker_auditor: Auditor | None = None


def _init_worker(config: AuditorConfig) -> None:
    global _worker_auditor
    _worker_auditor = Auditor(config)


def _audit_in_worker(request: AuditRequest) -> Report:
    assert _worker_auditor is not None, "worker was not initialised"
    return _worker_auditor.audit(request)


def default_workers() -> int:
    """One worker per available core."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def audit_stream(
    requests: Iterable[AuditRequest],
    config: AuditorConfig | None = None,
    *,
    workers: int | None = None,
    judge: str | Judge | None = None,
    policy: Policy | Path | str | None = None,
    risk_level: RiskLevel | None = None,
    claim_types: Sequence[ClaimType] | None = None,
) -> Iterator[Report]:
    """Audit ``requests`` under ``config`` (fields overridable by keyword) with ``workers`` processes
    (default: all cores); reports keep input order."""
    config = (config or AuditorConfig()).replace(
        judge=judge, policy=policy, risk_level=risk_level, claim_types=claim_types
    )
    workers = workers or default_workers()
    with Auditor(config) as auditor:  # in this process; also fails fast on bad options
        if workers <= 1:
            for request in requests:
                yield auditor.audit(request)
            return
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(config,)) as pool:
        yield from pool.imap(_audit_in_worker, requests, chunksize=4)
