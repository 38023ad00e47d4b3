"""The HTTP routes: audits (sync and async), the review queue, keys, ops endpoints and the review page."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import re
import uuid
from datetime import datetime, timedelta
from importlib import resources
from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from sqlalchemy.exc import SQLAlchemyError

from ragaudit._vocab import ROLES, RiskLevel, Role
from ragaudit.errors import StorageError
from ragaudit.models import Report
from ragaudit.render.views import VIEW_NAMES, render_view
from ragaudit.requests import check_request
from ragaudit.service._callbacks import CallbackURLError, check_callback_url
from ragaudit.service._observe import event
from ragaudit.service.auth import require
from ragaudit.service.bodies import AuditBody, KeyBody, ReviewBody
from ragaudit.service.store import KeyNameTaken
from ragaudit.service.worker import Service

router = APIRouter()


def _view_or_400(view: str) -> str:
    if view not in VIEW_NAMES:
        raise HTTPException(400, f"unknown view {view!r}: choose one of {', '.join(VIEW_NAMES)}")
    return view


@router.get("/healthz", tags=["ops"])
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get("/readyz", tags=["ops"])
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the database answers."""
    ok = await asyncio.to_thread(request.app.state.service.store.ping)
    return JSONResponse({"status": "ready" if ok else "database unavailable"}, status_code=200 if ok else 503)


@router.get("/metrics", tags=["ops"])
async def metrics(request: Request, _: tuple[str, Role] = Depends(require(*ROLES))) -> Response:
    """Prometheus metrics."""
    service: Service = request.app.state.service
    with contextlib.suppress(StorageError, SQLAlchemyError):  # a failing database keeps the last figure
        counts = await asyncio.to_thread(service.store.job_counts)
        service.metrics.queued.set(counts.get("queued", 0))
    return Response(generate_latest(service.metrics.registry), media_type=CONTENT_TYPE_LATEST)


@router.post("/v1/audits", tags=["audits"], status_code=200, response_model=dict[str, Any])
async def submit_audit(
    body: AuditBody,
    request: Request,
    response: Response,
    mode: Literal["sync", "async"] = "sync",
    view: str = "canonical",
    _: tuple[str, Role] = Depends(require("auditor")),
) -> Any:
    """Audit and gate a request: at once (``mode=sync``) or in the background (``mode=async``, 202)."""
    service: Service = request.app.state.service
    _view_or_400(view)
    check_request(body.request(), service.config.limits)
    if body.callback_url is not None and mode == "async":
        try:
            await asyncio.to_thread(check_callback_url, body.callback_url, service.callbacks)
        except CallbackURLError as exc:
            raise HTTPException(422, str(exc)) from None
    audit_id = str(uuid.uuid4())
    if mode == "async":
        options = body.model_dump(include={"trace_id", "answer_version", "risk_level", "claim_types"})
        req = body.model_dump(include={"id", "question", "answer", "sources"})
        await asyncio.to_thread(service.store.enqueue, audit_id, req, options, body.callback_url)
        response.status_code = 202
        return {"id": audit_id, "state": "queued", "links": {"self": f"/v1/audits/{audit_id}"}}
    done = await service.run_audit(body, audit_id, "sync")

    def respond() -> JSONResponse:
        request_json = done["request"].model_dump(mode="json")
        return JSONResponse(_done_payload(audit_id, done["created_at"], done["report"], request_json, view))

    # Megabytes of request and report are encoded in a thread: /healthz keeps answering meanwhile.
    return await asyncio.to_thread(respond)


@router.get("/v1/audits/{audit_id}", tags=["audits"])
async def get_audit(
    audit_id: str,
    request: Request,
    view: str = "canonical",
    _: tuple[str, Role] = Depends(require("auditor", "reviewer")),
) -> dict[str, Any]:
    """An audit's state and, when done, its report in the chosen view."""
    return await _audit_payload(request.app.state.service, audit_id, _view_or_400(view))


@router.get("/v1/audits", tags=["audits"])
async def list_audits(
    request: Request,
    decision: str | None = None,
    limit: int = Query(50, ge=1, le=500),
    _: tuple[str, Role] = Depends(require("reviewer")),
) -> list[dict[str, Any]]:
    """Recent audits, newest first (summaries)."""
    service: Service = request.app.state.service
    records = await asyncio.to_thread(service.store.list_audits, decision=decision, limit=limit)
    return [_summary(r) for r in records]


@router.get("/v1/reviews", tags=["reviews"])
async def review_queue(
    request: Request,
    state: Literal["open"] = "open",
    decision: str = "human_review",
    risk: RiskLevel | None = None,
    min_age_minutes: int | None = Query(None, ge=0, le=10_000_000),
    _: tuple[str, Role] = Depends(require("reviewer")),
) -> list[dict[str, Any]]:
    """Audits waiting for a human (oldest first), filtered by decision, risk and age."""
    service: Service = request.app.state.service
    age = timedelta(minutes=min_age_minutes) if min_age_minutes else None
    records = await asyncio.to_thread(service.store.open_reviews, decision=decision, risk=risk, older_than=age)
    return [_summary(r) for r in records]


@router.post("/v1/reviews/{audit_id}", tags=["reviews"], status_code=201)
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
    event("review recorded", audit_id=audit_id, review_id=review_id, reviewer=who[0], decision=body.decision)
    return {"id": review_id, "audit_id": audit_id, "reviewer": who[0], "decision": body.decision}


@router.get("/v1/reviews/{audit_id}", tags=["reviews"])
async def get_reviews(
    audit_id: str, request: Request, _: tuple[str, Role] = Depends(require("reviewer"))
) -> list[dict[str, Any]]:
    """Every review of an audit."""
    return await asyncio.to_thread(request.app.state.service.store.reviews_for, audit_id)


@router.post("/v1/keys", tags=["keys"], status_code=201)
async def create_key(
    body: KeyBody, request: Request, _: tuple[str, Role] = Depends(require("admin"))
) -> dict[str, str]:
    """Create an API key (returned once; stored hashed). Names are unique among active keys (409)."""
    try:
        key = await asyncio.to_thread(request.app.state.service.store.create_key, body.name, body.role)
    except KeyNameTaken as exc:
        raise HTTPException(409, str(exc)) from None
    return {"name": body.name, "role": body.role, "key": key}


@router.post("/v1/keys/{name}/rotate", tags=["keys"], status_code=201)
async def rotate_key(name: str, request: Request, _: tuple[str, Role] = Depends(require("admin"))) -> dict[str, str]:
    """Replace a key by a new one with the same name and role (the old one stops working at once)."""
    key = await asyncio.to_thread(request.app.state.service.store.rotate_key, name)
    if key is None:
        raise HTTPException(404, f"no active key named {name!r}")
    return {"name": name, "key": key}


@router.delete("/v1/keys/{name}", tags=["keys"], status_code=204)
async def revoke_key(name: str, request: Request, who: tuple[str, Role] = Depends(require("admin"))) -> Response:
    """Revoke a key: it stops working at once (its reviews keep its name and id)."""
    if not await asyncio.to_thread(request.app.state.service.store.revoke_key, name):
        raise HTTPException(404, f"no active key named {name!r}")
    event("key revoked", name=name, by=who[0])
    return Response(status_code=204)


@router.get("/v1/keys", tags=["keys"])
async def list_keys(request: Request, _: tuple[str, Role] = Depends(require("admin"))) -> list[dict[str, Any]]:
    """Key names, roles, creation and revocation times (never the keys)."""
    return await asyncio.to_thread(request.app.state.service.store.list_keys)


@functools.cache
def _review_page() -> tuple[str, dict[str, str]]:
    """The page and its security headers: only its own inline script and style may run (by hash)."""
    html = resources.files("ragaudit.service").joinpath("review.html").read_text(encoding="utf-8")

    def digest(tag: str) -> str:
        found = re.search(rf"<{tag}>(.*?)</{tag}>", html, re.DOTALL)
        assert found is not None, f"review.html has no <{tag}>"
        return "'sha256-" + base64.b64encode(hashlib.sha256(found[1].encode()).digest()).decode() + "'"

    headers = {
        # Audited text is shown in this page; even if some of it slipped past escaping, no other
        # script could run, nothing could be sent elsewhere, and no other site may frame the page.
        "Content-Security-Policy": (
            f"default-src 'none'; script-src {digest('script')}; style-src {digest('style')}; "
            "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    return html, headers


@router.get("/review", response_class=HTMLResponse, include_in_schema=False)
async def review_page() -> HTMLResponse:
    """The reviewer's page (its data comes from the API with the reviewer's key)."""
    html, headers = _review_page()
    return HTMLResponse(html, headers=headers)


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


def _done_payload(
    audit_id: str, created_at: datetime, report: Report, request: dict[str, Any], view: str
) -> dict[str, Any]:
    return {
        "id": audit_id,
        "state": "done",
        "created_at": created_at.isoformat(),
        "decision": report.decision.model_dump(mode="json"),
        "request": request,
        "report": render_view(report, view),
    }


async def _audit_payload(service: Service, audit_id: str, view: str) -> dict[str, Any]:
    record = await asyncio.to_thread(service.store.get_audit, audit_id)
    if record is not None:
        report = Report.model_validate(record.report)
        return _done_payload(audit_id, record.created_at, report, record.row["request"], view)
    job = await asyncio.to_thread(service.store.job, audit_id)
    if job is None:
        raise HTTPException(404, f"no audit {audit_id}")
    return {"id": audit_id, "state": job["state"], "error": job["error"]}
