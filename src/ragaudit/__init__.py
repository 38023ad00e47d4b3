"""ragaudit: audit a RAG answer against the exact sources it was generated from.

The public names load on first use (PEP 562), so ``import ragaudit`` stays cheap for tools that
only register it (the pytest plugin, integrations) and the pipeline loads when it is called.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ragaudit.errors import ConfigError, InputError, JudgeError, MissingExtraError, RagAuditError

if TYPE_CHECKING:
    from ragaudit._cache import IndexCache
    from ragaudit._pipeline import Auditor, audit
    from ragaudit.config import AuditorConfig, Limits
    from ragaudit.models import AuditRequest, Claim, ClaimResult, Evidence, Report, Source, Verdict

__version__ = "0.1.0"

_LAZY = {
    "IndexCache": "ragaudit._cache",
    "Auditor": "ragaudit._pipeline",
    "audit": "ragaudit._pipeline",
    "AuditorConfig": "ragaudit.config",
    "Limits": "ragaudit.config",
    "AuditRequest": "ragaudit.models",
    "Claim": "ragaudit.models",
    "ClaimResult": "ragaudit.models",
    "Evidence": "ragaudit.models",
    "Report": "ragaudit.models",
    "Source": "ragaudit.models",
    "Verdict": "ragaudit.models",
}

__all__ = [
    "AuditRequest",
    "Auditor",
    "AuditorConfig",
    "Claim",
    "ClaimResult",
    "ConfigError",
    "Evidence",
    "IndexCache",
    "InputError",
    "JudgeError",
    "Limits",
    "MissingExtraError",
    "RagAuditError",
    "Report",
    "Source",
    "Verdict",
    "__version__",
    "audit",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ragaudit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
