"""``ragaudit serve``: run the HTTP service."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind.", envvar="RAGAUDIT_HOST")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port.", envvar="RAGAUDIT_PORT")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option("--db", help="Database URL (default sqlite:///ragaudit.db).", envvar="RAGAUDIT_DATABASE_URL"),
    ] = None,
    workers: Annotated[int, typer.Option("--async-workers", help="Background workers for async audits.")] = 1,
) -> None:
    """Run the HTTP service (audits, review queue, review page at /review, metrics, OpenAPI at /docs)."""
    from ragaudit.errors import require_extra
    from ragaudit.service import ServiceSettings, create_app
    from ragaudit.service.settings import check_settings

    require_extra("uvicorn", what="ragaudit serve", extra="service")
    import uvicorn

    overrides: dict[str, Any] = {"workers": workers}
    if database_url:
        overrides["database_url"] = database_url
    settings = ServiceSettings(**overrides)
    check_settings(settings)  # one clear line and exit 2, before the server starts
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning", access_log=False)
