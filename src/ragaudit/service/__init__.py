"""The guardrail service: FastAPI app with sync and async audits, the review queue, keys, metrics.

``create_app(settings)`` builds the app; ``ragaudit serve`` runs it with uvicorn. Every endpoint
but ``/healthz`` and ``/readyz`` (and the static review page shell) needs
``Authorization: Bearer <key>`` with a role that may use it: ``auditor`` submits audits and reads
their results, ``reviewer`` reads audits and reviews them, ``admin`` may do everything and manages
keys. 401 without a valid key, 403 for the wrong role.
"""

from __future__ import annotations

from ragaudit.errors import require_extra

# Checked before anything imports them, so a missing extra is one line, not a traceback.
for _module, _library in (
    ("fastapi", "fastapi"),
    ("fastapi_offline", "fastapi-offline"),
    ("sqlalchemy", "sqlalchemy"),
    ("alembic", "alembic"),
    ("prometheus_client", "prometheus-client"),
    ("pydantic_settings", "pydantic-settings"),
    ("httpx", "httpx"),
):
    require_extra(_module, what="the ragaudit service and audit trail", extra="service", library=_library)

from ragaudit.service.app import create_app  # noqa: E402
from ragaudit.service.settings import ServiceSettings  # noqa: E402

__all__ = ["ServiceSettings", "create_app"]
