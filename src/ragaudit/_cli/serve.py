"""``ragaudit serve``: run the HTTP service."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ragaudit._cli._common import RiskChoice


def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind.", envvar="RAGAUDIT_HOST")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port.", envvar="RAGAUDIT_PORT")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option("--db", help="Database URL (default sqlite:///ragaudit.db).", envvar="RAGAUDIT_DATABASE_URL"),
    ] = None,
    workers: Annotated[int, typer.Option("--async-workers", help="Background workers for async audits.")] = 1,
    judge: Annotated[
        str | None, typer.Option("--judge", "-j", help="Judge spec (default: RAGAUDIT_JUDGE, offline).")
    ] = None,
    policy: Annotated[
        Path | None, typer.Option("--policy", "-p", help="Policy file (default: RAGAUDIT_POLICY, the shipped one).")
    ] = None,
    risk_level: Annotated[
        RiskChoice | None,
        typer.Option(
            "--risk-level", help="Risk level of requests that name none (default: RAGAUDIT_RISK_LEVEL, medium)."
        ),
    ] = None,
) -> None:
    """Run the HTTP service (audits, review queue, review page at /review, metrics, OpenAPI at /docs)."""
    from ragaudit.errors import require_extra
    from ragaudit.service import ServiceSettings, create_app
    from ragaudit.service.settings import check_settings

    require_extra("uvicorn", what="ragaudit serve", extra="service")
    import uvicorn

    overrides: dict[str, Any] = {"workers": workers}
    given = {
        "database_url": database_url,
        "judge": judge,
        "policy": policy and str(policy),
        "risk_level": risk_level and risk_level.value,
    }
    overrides.update({name: value for name, value in given.items() if value})
    settings = ServiceSettings(**overrides)
    check_settings(settings)  # one clear line and exit 2, before the server starts
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning", access_log=False)
