"""The guardrail service: FastAPI app with sync and async audits, the review queue, keys, metrics.

``create_app(settings)`` builds the app; ``ragaudit serve`` runs it with uvicorn. Every endpoint
but ``/healthz`` and ``/readyz`` (and the static review page shell) needs
``Authorization: Bearer <key>`` with a role that may use it: ``auditor`` submits audits and reads
their results, ``reviewer`` reads audits and reviews them, ``admin`` may do everything and manages
keys. 401 without a valid key, 403 for the wrong role.
"""

from __future__ import annotations

from ragaudit.service.app import create_app
from ragaudit.service.settings import ServiceSettings

__all__ = ["ServiceSettings", "create_app"]
