"""What the service exposes about itself: Prometheus metrics and one-JSON-object-per-line logs."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("ragaudit.service")


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
        # Whether an audit went to a process that had indexed its sources recently (see service/_dispatch.py).
        self.dispatch = Counter(
            "ragaudit_audit_dispatch_total", "Audits by where they ran", ["sources"], registry=self.registry
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


def configure_logging() -> None:
    """Send the service's log records to stderr as JSON lines (once per process)."""
    if not any(isinstance(h.formatter, JsonFormatter) for h in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


def event(message: str, **fields: Any) -> None:
    """Log one event with structured fields."""
    log.info(message, extra={"fields": fields})


class AccessLog:
    """ASGI middleware: one ``http`` log event and one latency observation per HTTP request.

    Plain ASGI rather than ``@app.middleware("http")``: Starlette's ``BaseHTTPMiddleware`` wraps
    every response in a stream and a task group, which costs the HTTP process CPU on each request.
    The time runs until the response is sent.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; when it has answered, observe and log it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status: list[int] = []

        async def sent(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        await self.app(scope, receive, sent)
        if not status:  # nothing was answered (the server's error handler answers an exception)
            return
        elapsed = time.perf_counter() - t0
        method, path = scope["method"], getattr(scope.get("route"), "path", "unmatched")
        service = getattr(scope["app"].state, "service", None)
        if service is not None:
            service.metrics.http.labels(method, path, str(status[0])).observe(elapsed)
        event("http", method=method, route=path, status=status[0], ms=round(elapsed * 1000, 2))
