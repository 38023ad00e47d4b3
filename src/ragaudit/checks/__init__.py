"""Stage 4: checks that read the whole request: citations, abstention, source conflicts, synthesis."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ragaudit.align import Alignment, SourceIndex
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
    return CheckOutcome(claims=claims)
