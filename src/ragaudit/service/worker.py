"""The service's shared state and the background worker that runs queued (async) audits."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from pydantic import ValidationError

from ragaudit.config import AuditorConfig
from ragaudit.errors import RagAuditError
from ragaudit.service._callbacks import CallbackPolicy, CallbackURLError, check_callback_url
from ragaudit.service._observe import Metrics, event, log
from ragaudit.service.bodies import AuditBody
from ragaudit.service.pool import AuditPool
from ragaudit.service.settings import ServiceSettings
from ragaudit.service.store import Store, now


class Service:
    """What the routes share: settings, store, auditors, metrics, worker tasks."""

    def __init__(self, settings: ServiceSettings, store: Store, config: AuditorConfig | None = None) -> None:
        self.settings = settings
        self.store = store
        self.config = config or settings.auditor_config()
        self.metrics = Metrics()
        # Audits run in worker processes that each built their auditors once and share one bounded
        # source-index cache per process (index_cache_chars).
        self.pool = AuditPool(
            self.config,
            settings.audit_processes,
            index_cache_chars=settings.index_cache_chars,
            on_dispatch=lambda seen: self.metrics.dispatch.labels("indexed" if seen else "new").inc(),
        )
        self.callbacks = CallbackPolicy.parse(settings.callback_allow)
        self.tasks: list[asyncio.Task[None]] = []

    async def run_audit(self, body: AuditBody, audit_id: str, mode: str) -> dict[str, Any]:
        """Audit and gate one request in the pool, then record it (in a thread: the database blocks).

        Returns what was recorded (id, decision, created_at, report, request), so that a sync caller
        answers from it instead of reading the record back.
        """
        request = body.request()
        t0 = time.perf_counter()
        report = await self.pool.audit(request, body.risk_level, body.claim_types)
        latency = time.perf_counter() - t0
        created_at = now()
        await asyncio.to_thread(
            self.store.record_audit,
            report,
            request,
            audit_id=audit_id,
            trace_id=body.trace_id,
            answer_version=body.answer_version,
            latency_ms=latency * 1000,
            created_at=created_at,
        )
        decision = report.decision.action
        self.metrics.audits.labels(mode, decision).inc()
        self.metrics.latency.labels(mode).observe(latency)
        self.metrics.judge_calls.labels(report.judge.name).inc()
        fields: dict[str, Any] = {
            "audit_id": audit_id,
            "mode": mode,
            "decision": decision,
            "label": report.label,
            "faithfulness": report.faithfulness,
            "latency_ms": round(latency * 1000, 2),
            "answer_hash": report.hashes.answer,
            "trace_id": body.trace_id,
        }
        if self.settings.log_text:
            fields.update(answer=request.answer, sources=[s.model_dump() for s in request.sources])
        event("audit recorded", **fields)
        return {"id": audit_id, "decision": decision, "created_at": created_at, "report": report, "request": request}

    async def worker(self) -> None:
        """Run queued async audits until cancelled; no exception of one job stops the loop."""
        while True:
            try:
                job = await asyncio.to_thread(self.store.claim_job)
                if job is None:  # idle: one query per poll (the queued gauge is read when /metrics is scraped)
                    await asyncio.sleep(self.settings.poll_interval)
                    continue
                await self.run_job(job)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database itself failed: log, wait, keep serving
                self.metrics.errors.labels("worker").inc()
                log.exception("async worker error; retrying")
                await asyncio.sleep(max(1.0, self.settings.poll_interval))

    async def run_job(self, job: dict[str, Any]) -> None:
        """Audit one queued job, record done or failed (with a message safe to show), then call back."""
        try:
            body = AuditBody.model_validate({**job["request"], **job["options"]})
            if await asyncio.to_thread(self.store.get_audit, job["id"]) is None:  # a restart may have recorded it
                await self.run_audit(body, job["id"], "async")
            await asyncio.to_thread(self.store.finish_job, job["id"])
            state = "done"
        except Exception as exc:  # one bad job must not stop the worker
            self.metrics.errors.labels("async_audit").inc()
            log.exception("async audit failed", extra={"fields": {"audit_id": job["id"]}})
            await asyncio.to_thread(self.store.finish_job, job["id"], error=public_error(exc))
            state = "failed"
        if job["callback_url"]:
            try:
                await self.notify(job["callback_url"], job["id"], state)
            except Exception:  # a callback can never take the worker down
                self.metrics.errors.labels("callback").inc()
                log.exception("callback failed", extra={"fields": {"audit_id": job["id"]}})

    async def notify(self, url: str, audit_id: str, state: str) -> None:
        """POST the outcome to the caller's callback URL (best effort, two tries; never to a refused host)."""
        try:
            # Checked again now: the host may resolve elsewhere than when the job was submitted.
            await asyncio.to_thread(check_callback_url, url, self.callbacks)
        except CallbackURLError as exc:
            self.metrics.errors.labels("callback_refused").inc()
            event("callback refused", audit_id=audit_id, reason=str(exc))
            return
        record = await asyncio.to_thread(self.store.get_audit, audit_id)
        payload = {"id": audit_id, "state": state, "decision": record.decision if record else None}
        # No redirects (a 30x to a private address would bypass the check) and no environment proxies.
        async with httpx.AsyncClient(timeout=5.0, follow_redirects=False, trust_env=False) as client:
            for _ in range(2):
                try:
                    await client.post(url, json=payload)
                    return
                except httpx.HTTPError:
                    self.metrics.errors.labels("callback").inc()
                    await asyncio.sleep(0.5)


def public_error(exc: BaseException) -> str:
    """A one-line job error safe to show any auditor: no SQL, parameters or request text."""
    if isinstance(exc, RagAuditError):
        return str(exc).splitlines()[0][:500]
    if isinstance(exc, ValidationError):  # a queued job that no longer validates
        first = exc.errors()[0]
        return f"invalid request: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}"[:500]
    return f"internal error ({exc.__class__.__name__}); the server log has the details"
