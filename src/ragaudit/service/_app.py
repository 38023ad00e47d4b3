"""App factory, settings, auth, the async worker, metrics and JSON logs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import timedelta
from importlib import resources
from typing import Any, Literal

import httpx
from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from ragaudit import Auditor
from ragaudit.errors import RagAuditError
from ragaudit.models import AuditRequest, ClaimType, RiskLevel, Source
from ragaudit.requests import check_request
from ragaudit.store import ROLES, Role, Store, open_store
from ragaudit.views import VIEW_NAMES, render_view

log = logging.getLogger("ragaudit.service")


class ServiceSettings(BaseSettings):
    """Service configuration, read from ``RAGAUDIT_*`` environment variables (and ``.env``)."""

    model_config = SettingsConfigDict(env_prefix="RAGAUDIT_", env_file=".env", extra="ignore")

    database_url: str = "sqlite:///ragaudit.db"
    """Audit trail: ``sqlite:///file.db`` (default) or ``postgresql+psycopg://user@host/db``."""
    admin_key: str | None = None
    """First admin key, for automation; without it, one is created on first start and printed once."""
    judge: str = "offline"
    policy: str | None = None
    """Gate policy file (TOML/YAML); default: the shipped policy."""
    max_request_bytes: int = 4_000_000
    """Larger request bodies get 413."""
    log_text: bool = False
    """Log answer and source text (off: logs carry ids, hashes, decisions and timings only)."""
    workers: int = 1
    """Background workers for async audits in this process."""
    poll_interval: float = 0.2


class AuditBody(BaseModel):
    """``POST /v1/audits`` body: a request plus tracing and options."""

    id: str | None = None
    question: str | None = None
    answer: str
    sources: list[Source]
    trace_id: str | None = Field(None, max_length=200)
    """The caller's trace id."""
    answer_version: str | None = Field(None, max_length=200)
    risk_level: RiskLevel = "medium"
    claim_types: list[ClaimType] | None = None
    callback_url: str | None = None
    """Async only: POSTed ``{"id", "state", "decision"}`` when the audit is done."""

    def request(self) -> AuditRequest:
        """The audit request part."""
        return AuditRequest(id=self.id, question=self.question, answer=self.answer, sources=self.sources)


class ReviewBody(BaseModel):
    """``POST /v1/reviews/{id}`` body."""

    decision: Literal["approve", "reject", "edit_and_approve"]
    claim_labels: dict[
        str, Literal["supported", "partially_supported", "unsupported", "contradicted", "synthesis_error"]
    ] = {}
    edited_answer: str | None = None
    comment: str | None = None


class KeyBody(BaseModel):
    """``POST /v1/keys`` body."""

    name: str = Field(min_length=1, max_length=200)
    role: Literal["auditor", "reviewer", "admin"]


class Metrics:
    """Prometheus metrics of one app (own registry, so several apps can live in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.audits = Counter("ragaudit_audits_total", "Audits completed", ["mode", "decision"], registry=self.registry)
        self.latency = Histogram(
            "ragaudit_audit_seconds",
            "Audit latency",
            ["mode"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )
        self.judge_calls = Counter("ragaudit_judge_calls_total", "Judge invocations", ["judge"], registry=self.registry)
        self.errors = Counter("ragaudit_errors_total", "Errors", ["kind"], registry=self.registry)
        self.http = Histogram(
            "ragaudit_http_seconds", "HTTP request latency", ["method", "route", "status"], registry=self.registry
        )
        self.queued = Gauge("ragaudit_jobs_queued", "Async audits waiting", registry=self.registry)


class JsonFormatter(logging.Formatter):
    """One JSON object per log line."""

    def format(self, record: logging.LogRecord) -> str:
        """Render the record and its ``extra`` fields as JSON."""
        data: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "msg": record.getMessage(),
        }
        data.update(getattr(record, "fields", {}))
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


def _configure_logging() -> None:
    if not any(isinstance(h.formatter, JsonFormatter) for h in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


def _event(message: str, **fields: Any) -> None:
    log.info(message, extra={"fields": fields})


class Service:
    """What the routes share: settings, store, auditors, metrics, worker tasks."""

    def __init__(self, settings: ServiceSettings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.metrics = Metrics()
        self._auditors: dict[tuple[str, tuple[str, ...] | None], Auditor] = {}
        self.tasks: list[asyncio.Task[None]] = []

    def auditor(self, risk_level: RiskLevel, claim_types: Sequence[ClaimType] | None) -> Auditor:
        """A cached auditor per option set (they reuse source indexes)."""
        key = (risk_level, tuple(claim_types) if claim_types else None)
        if key not in self._auditors:
            self._auditors[key] = Auditor(
                self.settings.judge,
                risk_level=risk_level,
                claim_types=claim_types,
                policy=self.settings.policy,
            )
        return self._auditors[key]

    def run_audit(self, body: AuditBody, audit_id: str, mode: str) -> dict[str, Any]:
        """Audit, gate and record one request (blocking: call it in a thread)."""
        request = body.request()
        t0 = time.perf_counter()
        auditor = self.auditor(body.risk_level, body.claim_types)
        report = auditor.audit(request)
        latency = time.perf_counter() - t0
        self.store.record_audit(
            report,
            request,
            audit_id=audit_id,
            trace_id=body.trace_id,
            answer_version=body.answer_version,
            latency_ms=latency * 1000,
        )
        decision = report.decision.action if report.decision else "deliver"
        self.metrics.audits.labels(mode, decision).inc()
        self.metrics.latency.labels(mode).observe(latency)
        self.metrics.judge_calls.labels(auditor.judge.name).inc()
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
        _event("audit recorded", **fields)
        return {"id": audit_id, "decision": decision}

    async def worker(self) -> None:
        """Run queued async audits until cancelled."""
        while True:
            job = await asyncio.to_thread(self.store.claim_job)
            if job is None:
                self.metrics.queued.set(self.store.job_counts().get("queued", 0))
                await asyncio.sleep(self.settings.poll_interval)
                continue
            body = AuditBody.model_validate({**job["request"], **job["options"]})
            try:
                if await asyncio.to_thread(self.store.get_audit, job["id"]) is None:  # a restart may have recorded it
                    await asyncio.to_thread(self.run_audit, body, job["id"], "async")
                await asyncio.to_thread(self.store.finish_job, job["id"])
                state = "done"
            except Exception as exc:  # one bad job must not stop the worker
                self.metrics.errors.labels("async_audit").inc()
                log.exception("async audit failed", extra={"fields": {"audit_id": job["id"]}})
                await asyncio.to_thread(self.store.finish_job, job["id"], error=f"{exc.__class__.__name__}: {exc}")
                state = "failed"
            if job["callback_url"]:
                await self.notify(job["callback_url"], job["id"], state)

    async def notify(self, url: str, audit_id: str, state: str) -> None:
        """POST the outcome to the caller's callback URL (best effort, two tries)."""
        record = await asyncio.to_thread(self.store.get_audit, audit_id)
        payload = {"id": audit_id, "state": state, "decision": record.decision if record else None}
        async with httpx.AsyncClient(timeout=5.0) as client:
            for _ in range(2):
                try:
                    await client.post(url, json=payload)
                    return
                except httpx.HTTPError:
                    self.metrics.errors.labels("callback").inc()
                    await asyncio.sleep(0.5)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require(*roles: Role) -> Callable[[Request], Awaitable[tuple[str, Role]]]:
    """Dependency: a valid key whose role is one of ``roles`` (admin always passes)."""

    async def check(request: Request) -> tuple[str, Role]:
        service: Service = request.app.state.service
        key = _bearer(request)
        found = await asyncio.to_thread(service.store.lookup_key, key) if key else None
        if found is None:
            raise HTTPException(
                401,
                "missing or invalid API key: send Authorization: Bearer <key>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if found[1] != "admin" and found[1] not in roles:
            raise HTTPException(403, f"role {found[1]!r} may not do this; needs one of {', '.join(roles)}")
        return found

    return check


def _ensure_admin(store: Store, settings: ServiceSettings) -> None:
    if store.has_admin():
        return
    if settings.admin_key:
        store.create_key("admin", "admin", settings.admin_key)
        _event("admin key taken from RAGAUDIT_ADMIN_KEY")
        return
    key = store.create_key("admin", "admin")
    # Shown once, on first start, to whoever started the server; stored only hashed.
    print(f"ragaudit: created the first admin API key (shown once, store it now): {key}", file=sys.stderr, flush=True)


def _view_or_400(view: str) -> str:
    if view not in VIEW_NAMES:
        raise HTTPException(400, f"unknown view {view!r}: choose one of {', '.join(VIEW_NAMES)}")
    return view


def create_app(settings: ServiceSettings | None = None, store: Store | None = None) -> FastAPI:
    """Build the service app; ``store`` defaults to ``open_store(settings.database_url)``."""
    settings = settings or ServiceSettings()
    _configure_logging()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        the_store = store or open_store(settings.database_url)
        service = Service(settings, the_store)
        app.state.service = service
        _ensure_admin(the_store, settings)
        requeued = the_store.requeue_running()
        if requeued:
            _event("requeued unfinished async audits", count=requeued)
        service.tasks = [asyncio.create_task(service.worker()) for _ in range(max(1, settings.workers))]
        _event("ragaudit service started", database=the_store.engine.dialect.name, workers=settings.workers)
        try:
            yield
        finally:
            for task in service.tasks:
                task.cancel()
            await asyncio.gather(*service.tasks, return_exceptions=True)
            if store is None:
                the_store.close()

    app = FastAPI(
        title="ragaudit",
        version="0.1.0",
        description="Audit RAG answers against their sources; gate them; review them.",
        lifespan=lifespan,
    )

    @app.middleware("http")
    async def limits_and_logs(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        t0 = time.perf_counter()
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > settings.max_request_bytes:
            return JSONResponse({"detail": f"request body over {settings.max_request_bytes} bytes"}, status_code=413)
        response = await call_next(request)
        route = request.scope.get("route")
        path = getattr(route, "path", "unmatched")
        elapsed = time.perf_counter() - t0
        service: Service | None = getattr(request.app.state, "service", None)
        if service is not None:
            service.metrics.http.labels(request.method, path, str(response.status_code)).observe(elapsed)
        _event("http", method=request.method, route=path, status=response.status_code, ms=round(elapsed * 1000, 2))
        return response

    @app.exception_handler(RagAuditError)
    async def bad_input(request: Request, exc: RagAuditError) -> JSONResponse:
        service: Service = request.app.state.service
        service.metrics.errors.labels("bad_request").inc()
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["ops"])
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: the database answers."""
        ok = await asyncio.to_thread(request.app.state.service.store.ping)
        return JSONResponse({"status": "ready" if ok else "database unavailable"}, status_code=200 if ok else 503)

    @app.get("/metrics", tags=["ops"])
    async def metrics(request: Request, _: tuple[str, Role] = Depends(require(*ROLES))) -> Response:
        """Prometheus metrics."""
        service: Service = request.app.state.service
        return Response(generate_latest(service.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.post("/v1/audits", tags=["audits"], status_code=200)
    async def submit_audit(
        body: AuditBody,
        request: Request,
        response: Response,
        mode: Literal["sync", "async"] = "sync",
        view: str = "canonical",
        _: tuple[str, Role] = Depends(require("auditor")),
    ) -> dict[str, Any]:
        """Audit and gate a request: at once (``mode=sync``) or in the background (``mode=async``, 202)."""
        service: Service = request.app.state.service
        _view_or_400(view)
        check_request(body.request())
        audit_id = str(uuid.uuid4())
        if mode == "async":
            options = body.model_dump(include={"trace_id", "answer_version", "risk_level", "claim_types"})
            req = body.model_dump(include={"id", "question", "answer", "sources"})
            await asyncio.to_thread(service.store.enqueue, audit_id, req, options, body.callback_url)
            response.status_code = 202
            return {"id": audit_id, "state": "queued", "links": {"self": f"/v1/audits/{audit_id}"}}
        await asyncio.to_thread(service.run_audit, body, audit_id, "sync")
        return await _audit_payload(service, audit_id, view)

    @app.get("/v1/audits/{audit_id}", tags=["audits"])
    async def get_audit(
        audit_id: str,
        request: Request,
        view: str = "canonical",
        _: tuple[str, Role] = Depends(require("auditor", "reviewer")),
    ) -> dict[str, Any]:
        """An audit's state and, when done, its report in the chosen view."""
        return await _audit_payload(request.app.state.service, audit_id, _view_or_400(view))

    @app.get("/v1/audits", tags=["audits"])
    async def list_audits(
        request: Request,
        decision: str | None = None,
        limit: int = Query(50, le=500),
        _: tuple[str, Role] = Depends(require("reviewer")),
    ) -> list[dict[str, Any]]:
        """Recent audits, newest first (summaries)."""
        service: Service = request.app.state.service
        records = await asyncio.to_thread(service.store.list_audits, decision=decision, limit=limit)
        return [_summary(r) for r in records]

    @app.get("/v1/reviews", tags=["reviews"])
    async def review_queue(
        request: Request,
        state: Literal["open"] = "open",
        decision: str = "human_review",
        risk: RiskLevel | None = None,
        min_age_minutes: int | None = None,
        _: tuple[str, Role] = Depends(require("reviewer")),
    ) -> list[dict[str, Any]]:
        """Audits waiting for a human (oldest first), filtered by decision, risk and age."""
        service: Service = request.app.state.service
        age = timedelta(minutes=min_age_minutes) if min_age_minutes else None
        records = await asyncio.to_thread(service.store.open_reviews, decision=decision, risk=risk, older_than=age)
        return [_summary(r) for r in records]

    @app.post("/v1/reviews/{audit_id}", tags=["reviews"], status_code=201)
    async def post_review(
        audit_id: str,
        body: ReviewBody,
        request: Request,
        who: tuple[str, Role] = Depends(require("reviewer")),
    ) -> dict[str, Any]:
        """Record a reviewer's per-claim labels and decision."""
        service: Service = request.app.state.service
        record = await asyncio.to_thread(service.store.get_audit, audit_id)
        if record is None:
            raise HTTPException(404, f"no audit {audit_id}")
        known = {c["id"] for c in record.report["claims"]}
        unknown = sorted(set(body.claim_labels) - known)
        if unknown:
            raise HTTPException(422, f"claim ids {unknown} are not in audit {audit_id} (its claims: {sorted(known)})")
        if body.decision == "edit_and_approve" and not body.edited_answer:
            raise HTTPException(422, "edit_and_approve needs the edited answer in 'edited_answer'")
        review_id = await asyncio.to_thread(
            service.store.add_review,
            audit_id,
            reviewer=who[0],
            decision=body.decision,
            claim_labels=dict(body.claim_labels),
            edited_answer=body.edited_answer,
            comment=body.comment,
        )
        _event("review recorded", audit_id=audit_id, review_id=review_id, reviewer=who[0], decision=body.decision)
        return {"id": review_id, "audit_id": audit_id, "reviewer": who[0], "decision": body.decision}

    @app.get("/v1/reviews/{audit_id}", tags=["reviews"])
    async def get_reviews(
        audit_id: str, request: Request, _: tuple[str, Role] = Depends(require("reviewer"))
    ) -> list[dict[str, Any]]:
        """Every review of an audit."""
        return await asyncio.to_thread(request.app.state.service.store.reviews_for, audit_id)

    @app.post("/v1/keys", tags=["keys"], status_code=201)
    async def create_key(
        body: KeyBody, request: Request, _: tuple[str, Role] = Depends(require("admin"))
    ) -> dict[str, str]:
        """Create an API key (returned once; stored hashed)."""
        key = await asyncio.to_thread(request.app.state.service.store.create_key, body.name, body.role)
        return {"name": body.name, "role": body.role, "key": key}

    @app.get("/v1/keys", tags=["keys"])
    async def list_keys(request: Request, _: tuple[str, Role] = Depends(require("admin"))) -> list[dict[str, Any]]:
        """Key names and roles (never the keys)."""
        return await asyncio.to_thread(request.app.state.service.store.list_keys)

    @app.get("/review", response_class=HTMLResponse, include_in_schema=False)
    async def review_page() -> HTMLResponse:
        """The reviewer's page (its data comes from the API with the reviewer's key)."""
        return HTMLResponse(resources.files("ragaudit.service").joinpath("review.html").read_text(encoding="utf-8"))

    return app


def _summary(record: Any) -> dict[str, Any]:
    report = record.report
    return {
        "id": record.id,
        "created_at": record.created_at.isoformat(),
        "decision": record.decision,
        "label": record.label,
        "faithfulness": record.faithfulness,
        "risk_level": record.risk_level,
        "trace_id": record.trace_id,
        "claims": report["counts"]["total"],
        "answer_preview": (record.row["request"]["answer"][:140]),
    }


async def _audit_payload(service: Service, audit_id: str, view: str) -> dict[str, Any]:
    record = await asyncio.to_thread(service.store.get_audit, audit_id)
    if record is not None:
        from ragaudit.models import Report

        report = Report.model_validate(record.report)
        return {
            "id": audit_id,
            "state": "done",
            "created_at": record.created_at.isoformat(),
            "decision": report.decision.model_dump(mode="json") if report.decision else None,
            "request": record.row["request"],
            "report": render_view(report, view),
        }
    job = await asyncio.to_thread(service.store.job, audit_id)
    if job is None:
        raise HTTPException(404, f"no audit {audit_id}")
    return {"id": audit_id, "state": job["state"], "error": job["error"]}
