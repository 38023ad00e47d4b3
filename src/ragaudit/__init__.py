"""ragaudit: audit a RAG answer against the exact sources it was generated from."""

from ragaudit._cache import IndexCache
from ragaudit._pipeline import Auditor, audit
from ragaudit.errors import ConfigError, InputError, JudgeError, RagAuditError
from ragaudit.models import AuditRequest, Claim, ClaimResult, Evidence, Report, Source, Verdict

__version__ = "0.1.0"

__all__ = [
    "AuditRequest",
    "Auditor",
    "Claim",
    "ClaimResult",
    "ConfigError",
    "Evidence",
    "IndexCache",
    "InputError",
    "JudgeError",
    "RagAuditError",
    "Report",
    "Source",
    "Verdict",
    "__version__",
    "audit",
]
