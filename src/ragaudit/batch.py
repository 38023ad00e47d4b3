"""Audit many requests on several cores, yielding reports in input order."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator, Sequence

from ragaudit._pipeline import Auditor
from ragaudit.models import AuditRequest, ClaimType, Report, RiskLevel

_worker_auditor: Auditor | None = None


def _init_worker(judge: str, risk_level: RiskLevel, claim_types: Sequence[ClaimType] | None) -> None:
    global _worker_auditor
    _worker_auditor = Auditor(judge, risk_level=risk_level, claim_types=claim_types)


def _audit_in_worker(request: AuditRequest) -> Report:
    assert _worker_auditor is not None, "worker was not initialised"
    return _worker_auditor.audit(request)


def default_workers() -> int:
    """One worker per available core."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def audit_stream(
    requests: Iterable[AuditRequest],
    *,
    judge: str = "offline",
    risk_level: RiskLevel = "medium",
    claim_types: Sequence[ClaimType] | None = None,
    workers: int | None = None,
) -> Iterator[Report]:
    """Audit ``requests`` with ``workers`` processes (default: all cores); reports keep input order."""
    workers = workers or default_workers()
    if workers <= 1:
        auditor = Auditor(judge, risk_level=risk_level, claim_types=claim_types)
        for request in requests:
            yield auditor.audit(request)
        return
    Auditor(judge, risk_level=risk_level, claim_types=claim_types)  # fail fast on bad options
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(judge, risk_level, claim_types)) as pool:
        yield from pool.imap(_audit_in_worker, requests, chunksize=4)
