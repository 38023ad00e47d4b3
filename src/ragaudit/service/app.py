"""The app factory: lifespan (store, first admin key, workers), request limits and logs, error mapping."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from sqlalchemy.exc import SQLAlchemyError

from ragaudit.config import AuditorConfig
from ragaudit.errors import (
    ConfigError,
    InputError,
    JudgeError,
    LimitError,
    MissingExtraError,
    RagAuditError,
    StorageError,
)
from ragaudit.service._limits import BodyLimit
from ragaudit.service._observe import AccessLog, configure_logging, event, log
from ragaudit.service.auth import ensure_admin
from ragaudit.service.routes import router
from ragaudit.service.settings import ServiceSettings, check_settings
from ragaudit.service.store import Store, open_store
from ragaudit.service.worker import Service

# Each error family has its own status, so a client knows whether to fix the request, shrink it, or retry.
_STATUS: tuple[tuple[type[RagAuditError], int, str], ...] = (
    (LimitError, 413, "too_large"),
    (InputError, 422, "bad_request"),
    (StorageError, 503, "storage"),
    (JudgeError, 502, "judge"),
    (MissingExtraError, 500, "missing_extra"),
    (ConfigError, 500, "config"),
)


def error_status(exc: RagAuditError) -> tuple[int, str]:
    """The HTTP status and the metrics label of a library error."""
    for family, status, kind in _STATUS:
        if isinstance(exc, family):
            return status, kind
    return 500, "internal"


def create_app(
    settings: ServiceSettings | None = None, store: Store | None = None, config: AuditorConfig | None = None
) -> FastAPI:
    """Build the service app; ``store`` defaults to ``open_store(settings.database_url)``, ``config`` (how to
    audit) to ``settings.auditor_config()``; it must pickle (a judge spec, not a judge object)."""
    settings = settings or ServiceSettings()
    check_settings(settings)
    configure_logging()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        the_store = store or open_store(settings.database_url)
        the_store.key_secret = settings.key_secret or the_store.key_secret
        service = Service(settings, the_store, config)
        app.state.service = service
        ensure_admin(the_store, settings)
        requeued = the_store.requeue_running()
        if requeued:
            event("requeued unfinished async audits", count=requeued)
        await service.pool.start()  # every audit process up, its auditor built, before the first request
        service.tasks = [asyncio.create_task(service.worker()) for _ in range(max(1, settings.workers))]
        event(
            "ragaudit service started",
            database=the_store.engine.dialect.name,
            workers=settings.workers,
            audit_processes=service.pool.processes,
        )
        try:
            yield
        finally:
            for task in service.tasks:
                task.cancel()
            await asyncio.gather(*service.tasks, return_exceptions=True)
            await asyncio.to_thread(service.pool.close)
            if store is None:
                the_store.close()

    # The API docs' JavaScript and CSS are served by the app itself: no CDN, so a deployment without
    # internet access still gets working /docs and /redoc pages.
    app = FastAPIOffline(
        title="ragaudit",
        version="0.1.0",
        description="Audit RAG answers against their sources; gate them; review them.",
        lifespan=lifespan,
    )

    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    app.add_middleware(AccessLog)  # outermost: times and logs what the limit answers too

    @app.exception_handler(RagAuditError)
    async def library_error(request: Request, exc: RagAuditError) -> JSONResponse:
        status, kind = error_status(exc)
        service: Service = request.app.state.service
        service.metrics.errors.labels(kind).inc()
        if status >= 500:
            log.error("request failed", extra={"fields": {"kind": kind, "error": str(exc)}})
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        # A query that failed mid-way (table gone, connection dropped, database locked): the database's
        # own message names tables and SQL, so it goes to the log and the client gets the family only.
        service: Service = request.app.state.service
        service.metrics.errors.labels("storage").inc()
        log.error("storage failed", extra={"fields": {"error": f"{exc.__class__.__name__}: {exc}"}})
        return JSONResponse({"detail": "the audit trail is unavailable; try again later"}, status_code=503)

    app.include_router(router)
    return app
