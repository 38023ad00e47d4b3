"""Request bodies of the HTTP API."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ragaudit._vocab import ClaimStatus, ClaimType, ReviewDecision, RiskLevel, Role
from ragaudit.models import AuditRequest, Source


class AuditBody(BaseModel):
    """``POST /v1/audits`` body: a request plus tracing and options."""

    id: str | None = None
    question: str | None = None
    answer: str
    sources: list[Source]
    trace_id: str | None = Field(None, max_length=200)
    """The caller's trace id."""
    answer_version: str | None = Field(None, max_length=200)
    risk_level: RiskLevel | None = None
    """Default: the service's (``RAGAUDIT_RISK_LEVEL``, else ``medium``)."""
    claim_types: list[ClaimType] | None = None
    callback_url: str | None = None
    """Async only: POSTed ``{"id", "state", "decision"}`` when the audit is done."""

    def request(self) -> AuditRequest:
        """The audit request part."""
        return AuditRequest(id=self.id, question=self.question, answer=self.answer, sources=self.sources)


class ReviewBody(BaseModel):
    """``POST /v1/reviews/{id}`` body."""

    decision: ReviewDecision
    claim_labels: dict[str, ClaimStatus] = {}
    edited_answer: str | None = None
    comment: str | None = None


class KeyBody(BaseModel):
    """``POST /v1/keys`` body."""

    name: str = Field(min_length=1, max_length=200)
    role: Role
