"""The allowed values, declared once: every ``Literal`` type and its tuple of values live here.

Other modules import these names (``models`` re-exports the report's own); nothing re-declares them.
"""

from __future__ import annotations

from typing import Literal, get_args

ClaimStatus = Literal["supported", "partially_supported", "unsupported", "contradicted", "synthesis_error"]
"""A claim's verdict. ``synthesis_error``: true parts from different sources combined falsely."""
CLAIM_STATUSES: tuple[ClaimStatus, ...] = get_args(ClaimStatus)

ClaimType = Literal["factual", "interpretive", "quantitative", "temporal", "attribution"]
CLAIM_TYPES: tuple[ClaimType, ...] = get_args(ClaimType)

RiskLevel = Literal["high", "medium", "low"]
RISK_LEVELS: tuple[RiskLevel, ...] = get_args(RiskLevel)

Severity = Literal["CRITICAL", "MAJOR", "MINOR"]
SEVERITIES: tuple[Severity, ...] = get_args(Severity)

GateAction = Literal["deliver", "deliver_with_caveat", "regenerate", "human_review", "block"]
"""What the gate decides, from least to most severe."""
GATE_ACTIONS: tuple[GateAction, ...] = get_args(GateAction)

EvidenceRelation = Literal["supports", "contradicts", "related"]

Label = Literal["faithful", "hallucinated"]

IssueType = Literal[
    "CONTRADICTION",
    "SYNTHESIS_ERROR",
    "CITATION_FABRICATION",
    "INVALID_CITATION",
    "UNSUPPORTED_CLAIM",
    "PARTIAL_SUPPORT",
    "MISSING_ABSTENTION",
    "SOURCE_CONFLICT",
    "JUDGE_ESCALATION",
]

CalibrationMethod = Literal["platt", "isotonic"]

ViewName = Literal["source_by_source", "factual_audit", "classification", "discrepancy", "canonical"]
VIEW_NAMES: tuple[ViewName, ...] = get_args(ViewName)

Role = Literal["auditor", "reviewer", "admin"]
"""API key roles (admin may do everything)."""
ROLES: tuple[Role, ...] = get_args(Role)

ReviewDecision = Literal["approve", "reject", "edit_and_approve"]
REVIEW_DECISIONS: tuple[ReviewDecision, ...] = get_args(ReviewDecision)
