"""Stage 5: count claim statuses and compute the faithfulness score."""

from __future__ import annotations

from collections.abc import Sequence

from ragaudit.models import ClaimResult, Counts

NO_CLAIMS_NOTE = "No checkable claims were found in the answer; the score is 1.0 by definition."


def count(claims: Sequence[ClaimResult]) -> Counts:
    """Count the claims of each status."""
    counts = Counts(total=len(claims))
    for claim in claims:
        setattr(counts, claim.status, getattr(counts, claim.status) + 1)
    return counts


def faithfulness(counts: Counts) -> float:
    """``(supported + 0.5 × partially_supported) / claims``, or 1.0 with no claims.

    >>> faithfulness(Counts(total=4, supported=2, partially_supported=1, unsupported=1))
    0.625
    """
    if counts.total == 0:
        return 1.0
    return round((counts.supported + 0.5 * counts.partially_supported) / counts.total, 6)
