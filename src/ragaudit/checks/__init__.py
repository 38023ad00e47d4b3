"""Stage 4: checks that read the whole request: citations, abstention, source conflicts, synthesis.

Each check is a pure function in :mod:`ragaudit.checks._*`; :func:`run_checks` applies them in
order (synthesis and inference first, since they can change a claim's status, then citations,
which depend on statuses, then the request-level abstention and conflict findings).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ragaudit.align import Alignment, SourceIndex
from ragaudit.checks._abstention import check_abstention
from ragaudit.checks._citations import check_citations
from ragaudit.checks._conflicts import find_source_conflicts
from ragaudit.checks._synthesis import find_synthesis_error, is_inferable
from ragaudit.models import AbstentionCheck, AuditRequest, ClaimResult, SourceConflict
from ragaudit.segment import Segmentation


@dataclass(slots=True)
class CheckOutcome:
    """Claims as amended by the checks, plus the request-level findings."""

    claims: list[ClaimResult]
    abstention: AbstentionCheck | None = None
    conflicts: list[SourceConflict] = field(default_factory=list)


def run_checks(
    request: AuditRequest,
    segmentation: Segmentation,
    alignments: Sequence[Alignment],
    claims: list[ClaimResult],
    index: SourceIndex,
) -> CheckOutcome:
    """Run every check over one audited request."""
    amended: list[ClaimResult] = []
    for claim, alignment in zip(claims, alignments, strict=True):
        synthesis = find_synthesis_error(alignment, index) if claim.status != "unsupported" else None
        if synthesis is not None:
            claim = claim.model_copy(
                update={
                    "status": "synthesis_error",
                    "explanation": synthesis.explanation,
                    "involved_sources": synthesis.sources,
                    "evidence": synthesis.evidence,
                    "confidence": 0.75,
                }
            )
        elif claim.status in ("unsupported", "partially_supported", "contradicted") and is_inferable(alignment, index):
            # A figure that differs from every stated one but follows from them by arithmetic
            # is an unstated inference, not a contradiction.
            update: dict[str, object] = {"inferable": True}
            if claim.status == "contradicted":
                update |= {
                    "status": "unsupported",
                    "explanation": "Not stated in the sources, but the figures follow by arithmetic from stated ones.",
                    "evidence": [e.model_copy(update={"relation": "related"}) for e in claim.evidence],
                }
            claim = claim.model_copy(update=update)
        if claim.citations:
            claim = claim.model_copy(update={"citation_check": check_citations(claim, request.sources)})
        amended.append(claim)
    conflicts = [c for claim in amended for c in find_source_conflicts(claim, request.answer, segmentation, index)]
    abstention = check_abstention(request, segmentation, amended, index) if request.question else None
    return CheckOutcome(claims=amended, abstention=abstention, conflicts=conflicts)


__all__ = [
    "CheckOutcome",
    "check_abstention",
    "check_citations",
    "find_source_conflicts",
    "find_synthesis_error",
    "is_inferable",
    "run_checks",
]
