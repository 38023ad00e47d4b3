"""The four report views users parse (``../shared/spec/FORMATS.md``), rendered from the canonical report.

Every view is a pure function of one :class:`~ragaudit.models.Report`; none re-audits. Status
mappings, where a view has fewer statuses than the report:

* ``source_by_source``: contradicted and synthesis_error → ``unsupported``.
* ``factual_audit``: partially_supported → ``UNSUPPORTED``; synthesis_error → ``CONTRADICTED``.
  ``overall_score = max(0, (supported − 2 × contradicted) / claims)`` (contradicted includes
  synthesis errors; 1.0 with no claims). FAIL iff any CRITICAL or MAJOR issue is flagged.
* ``classification``: supported → faithful_synthesis; partially_supported, or unsupported but
  derivable by arithmetic from stated figures → unsupported_inference; anything else
  (unsupported, contradicted, synthesis_error) → fabrication. Confidence: ≥ 0.8 high, ≥ 0.6
  medium, else low.
* ``discrepancy``: partially_supported → ``UNSUPPORTED``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ragaudit._vocab import VIEW_NAMES as VIEW_NAMES
from ragaudit._vocab import ClaimType, Severity
from ragaudit._vocab import ViewName as ViewName
from ragaudit.models import ClaimResult, Evidence, Report


class _View(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- 1. source_by_source -----------------------------------------------------------------
class SourceClaim(_View):
    claim_id: str
    claim_text: str
    claim_type: ClaimType
    support_status: Literal["supported", "unsupported", "partially_supported"]
    supporting_source_ids: list[str]
    supporting_evidence_spans: list[str]
    auditor_notes: str


class AuditReportBody(_View):
    total_claims_found: int
    supported_claims: int
    unsupported_claims: int
    partially_supported_claims: int
    claims: list[SourceClaim]
    unsupported_claim_summary: str
    overall_faithfulness_score: float


class SourceBySourceView(_View):
    """Claim-to-evidence audit."""

    audit_report: AuditReportBody


# --- 2. factual_audit ----------------------------------------------------------------------
class FactualClaim(_View):
    claim_text: str
    verdict: Literal["SUPPORTED", "UNSUPPORTED", "CONTRADICTED"]
    source_evidence: str | None
    citation_valid: bool | Literal["N/A"]


class FlaggedIssue(_View):
    severity: Severity
    type: Literal["UNSUPPORTED_CLAIM", "CONTRADICTION", "CITATION_FABRICATION", "MISSING_ABSTENTION"]
    description: str


class AbstentionView(_View):
    query_has_gap: bool
    answer_abstained_correctly: bool | Literal["N/A"]
    explanation: str


class FactualAuditView(_View):
    """Pass/fail release gate."""

    audit_result: Literal["PASS", "FAIL"]
    overall_score: float
    claims_audit: list[FactualClaim]
    flagged_issues: list[FlaggedIssue]
    abstention_check: AbstentionView


# --- 3. classification ---------------------------------------------------------------------
class Segment(_View):
    segment_text: str
    segment_start_char: int
    segment_end_char: int
    classification: Literal["faithful_synthesis", "unsupported_inference", "fabrication"]
    rationale: str
    supporting_source_spans: list[str]
    confidence: Literal["high", "medium", "low"]


class ClassificationSummary(_View):
    total_segments: int
    faithful_synthesis_count: int
    unsupported_inference_count: int
    fabrication_count: int
    overall_faithfulness_score: float


class ClassificationView(_View):
    """Faithful synthesis vs unsupported inference vs fabrication, per segment."""

    classifications: list[Segment]
    summary: ClassificationSummary


# --- 4. discrepancy ------------------------------------------------------------------------
class DiscrepancyClaim(_View):
    claim_text: str
    status: Literal["SUPPORTED", "UNSUPPORTED", "CONTRADICTED", "SYNTHESIS_ERROR"]
    source_ids: list[str]
    explanation: str


class DiscrepancyView(_View):
    """Evidence discrepancies, including sources that disagree."""

    overall_grounding_status: Literal["FULLY_GROUNDED", "DISCREPANCY_FOUND"]
    claims: list[DiscrepancyClaim]


VIEW_MODELS: dict[str, type[BaseModel]] = {
    "source_by_source": SourceBySourceView,
    "factual_audit": FactualAuditView,
    "classification": ClassificationView,
    "discrepancy": DiscrepancyView,
    "canonical": Report,
}


def _supporting(claim: ClaimResult) -> list[Evidence]:
    return [e for e in claim.evidence if e.relation == "supports"]


def source_by_source(report: Report) -> SourceBySourceView:
    """Render the claim-to-evidence audit."""
    claims = []
    for c in report.claims:
        status = c.status if c.status in ("supported", "partially_supported") else "unsupported"
        evidence = _supporting(c) if status != "unsupported" else []
        claims.append(
            SourceClaim(
                claim_id=c.id,
                claim_text=c.text,
                claim_type=c.type,
                support_status=status,
                supporting_source_ids=list(dict.fromkeys(e.source_id for e in evidence)),
                supporting_evidence_spans=[e.quote for e in evidence],
                auditor_notes=c.explanation,
            )
        )
    supported = sum(1 for c in claims if c.support_status == "supported")
    partial = sum(1 for c in claims if c.support_status == "partially_supported")
    unsupported = [c for c in claims if c.support_status == "unsupported"]
    total = len(claims)
    if not total:
        summary = report.note or "No claims were found."
    elif unsupported:
        summary = f"{len(unsupported)} of {total} claims have no support: " + "; ".join(
            f"'{c.claim_text}'" for c in unsupported
        )
    else:
        summary = "No unsupported claims."
    score = 1.0 if not total else round((supported + 0.5 * partial) / total, 6)
    return SourceBySourceView(
        audit_report=AuditReportBody(
            total_claims_found=total,
            supported_claims=supported,
            unsupported_claims=len(unsupported),
            partially_supported_claims=partial,
            claims=claims,
            unsupported_claim_summary=summary,
            overall_faithfulness_score=score,
        )
    )


_FLAGGED_TYPE = {
    "CONTRADICTION": "CONTRADICTION",
    "SYNTHESIS_ERROR": "CONTRADICTION",
    "CITATION_FABRICATION": "CITATION_FABRICATION",
    "INVALID_CITATION": "CITATION_FABRICATION",
    "UNSUPPORTED_CLAIM": "UNSUPPORTED_CLAIM",
    "PARTIAL_SUPPORT": "UNSUPPORTED_CLAIM",
    "MISSING_ABSTENTION": "MISSING_ABSTENTION",
}


def factual_audit(report: Report) -> FactualAuditView:
    """Render the pass/fail release gate."""
    rows = []
    for c in report.claims:
        verdict = {"supported": "SUPPORTED", "contradicted": "CONTRADICTED", "synthesis_error": "CONTRADICTED"}.get(
            c.status, "UNSUPPORTED"
        )
        evidence = c.evidence if verdict != "UNSUPPORTED" else _supporting(c)
        rows.append(
            FactualClaim(
                claim_text=c.text,
                verdict=verdict,
                source_evidence=" … ".join(f"[{e.source_id}] {e.quote}" for e in evidence) or None,
                citation_valid="N/A" if c.citation_check is None else c.citation_check.valid,
            )
        )
    issues = report.decision.issues
    flagged = [
        FlaggedIssue(severity=i.severity, type=_FLAGGED_TYPE[i.type], description=i.description)
        for i in issues
        if i.type in _FLAGGED_TYPE
    ]
    total = len(rows)
    supported = sum(1 for r in rows if r.verdict == "SUPPORTED")
    contradicted = sum(1 for r in rows if r.verdict == "CONTRADICTED")
    score = 1.0 if not total else round(max(0.0, (supported - 2 * contradicted) / total), 6)
    ab = report.abstention
    abstention = AbstentionView(
        query_has_gap=bool(ab and ab.query_has_gap),
        answer_abstained_correctly="N/A"
        if ab is None or ab.answer_abstained_correctly is None
        else ab.answer_abstained_correctly,
        explanation=ab.explanation if ab else "No question was given, so there is nothing to abstain on.",
    )
    fail = any(f.severity in ("CRITICAL", "MAJOR") for f in flagged)
    return FactualAuditView(
        audit_result="FAIL" if fail else "PASS",
        overall_score=score,
        claims_audit=rows,
        flagged_issues=flagged,
        abstention_check=abstention,
    )


def _confidence_band(value: float) -> Literal["high", "medium", "low"]:
    return "high" if value >= 0.8 else "medium" if value >= 0.6 else "low"


def classification(report: Report) -> ClassificationView:
    """Render faithful synthesis / unsupported inference / fabrication per segment."""
    segments = []
    for c in report.claims:
        if c.status == "supported":
            kind, rationale = "faithful_synthesis", c.explanation
        elif c.status == "partially_supported" or (c.status == "unsupported" and c.inferable):
            kind = "unsupported_inference"
            rationale = c.explanation + (
                " The figure follows by arithmetic from stated figures." if c.inferable else ""
            )
        else:
            kind, rationale = "fabrication", c.explanation
        spans = [e.quote for e in _supporting(c)] if kind != "fabrication" else []
        segments.append(
            Segment(
                segment_text=c.text,
                segment_start_char=c.start,
                segment_end_char=c.end,
                classification=kind,
                rationale=rationale,
                supporting_source_spans=spans,
                confidence=_confidence_band(c.confidence),
            )
        )
    total = len(segments)
    faithful = sum(1 for s in segments if s.classification == "faithful_synthesis")
    inference = sum(1 for s in segments if s.classification == "unsupported_inference")
    return ClassificationView(
        classifications=segments,
        summary=ClassificationSummary(
            total_segments=total,
            faithful_synthesis_count=faithful,
            unsupported_inference_count=inference,
            fabrication_count=total - faithful - inference,
            overall_faithfulness_score=1.0 if not total else round((faithful + inference) / total, 6),
        ),
    )


def discrepancy(report: Report) -> DiscrepancyView:
    """Render the discrepancy audit, naming sources that disagree."""
    conflicts_by_claim: dict[str, list[str]] = {}
    for conflict in report.conflicts:
        genuine = (
            "a genuine source conflict"
            if conflict.answer_handling != "answer_error"
            else "the answer's own error (it matches neither source)"
        )
        ids = " and ".join(s.source_id for s in conflict.sides)
        values = " vs ".join(f"'{s.value}'" for s in conflict.sides)
        conflicts_by_claim.setdefault(conflict.claim_id, []).append(f"Sources {ids} disagree ({values}): {genuine}.")
    claims = []
    for c in report.claims:
        status = {
            "supported": "SUPPORTED",
            "contradicted": "CONTRADICTED",
            "synthesis_error": "SYNTHESIS_ERROR",
        }.get(c.status, "UNSUPPORTED")
        source_ids = c.involved_sources or list(dict.fromkeys(e.source_id for e in c.evidence))
        explanation = " ".join([c.explanation, *conflicts_by_claim.get(c.id, [])])
        claims.append(
            DiscrepancyClaim(claim_text=c.text, status=status, source_ids=source_ids, explanation=explanation)
        )
    grounded = all(c.status == "SUPPORTED" for c in claims) and not report.conflicts
    return DiscrepancyView(
        overall_grounding_status="FULLY_GROUNDED" if grounded else "DISCREPANCY_FOUND", claims=claims
    )


_RENDERERS = {
    "source_by_source": source_by_source,
    "factual_audit": factual_audit,
    "classification": classification,
    "discrepancy": discrepancy,
}


def render_view(report: Report, name: str) -> dict[str, Any]:
    """Render ``report`` as the view ``name`` (one of :data:`VIEW_NAMES`), as JSON-ready data."""
    if name == "canonical":
        return report.model_dump(mode="json")
    renderer = _RENDERERS.get(name)
    if renderer is None:
        from ragaudit.errors import ConfigError

        raise ConfigError(f"unknown view {name!r}: choose one of {', '.join(VIEW_NAMES)}")
    return renderer(report).model_dump(mode="json")


def view_schema(name: str) -> dict[str, Any]:
    """The shipped JSON Schema of view ``name`` (``canonical`` is the report's schema)."""
    filename = "report.schema.json" if name == "canonical" else f"{name}.schema.json"
    return json.loads(resources.files("ragaudit.schemas").joinpath(filename).read_text())  # type: ignore[no-any-return]


def generate_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas generated from the models, keyed by file name (what ships in ``ragaudit/schemas``)."""
    return {
        ("report" if name == "canonical" else name) + ".schema.json": model.model_json_schema()
        for name, model in VIEW_MODELS.items()
    }
