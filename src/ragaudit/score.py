"""Stage 5: count claim statuses and compute the faithfulness score."""

from __future__ import annotations

from collections.abc import Sequence

from ragaudit._vocab import Label
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


def misattributed(claims: Sequence[ClaimResult]) -> bool:
    """Whether an inline citation names no source, or a source that does not hold the claim it cites."""
    return any(c.citation_check is not None and not c.citation_check.valid for c in claims)


def label(claims: Sequence[ClaimResult]) -> Label:
    """``hallucinated`` when a claim is not supported or a citation attributes a claim to the wrong source."""
    return "hallucinated" if misattributed(claims) or any(c.status != "supported" for c in claims) else "faithful"


def hallucination_score(claims: Sequence[ClaimResult]) -> float:
    """How likely the answer holds an unsupported claim, in [0, 1]: the worst claim's chance of
    not being supported (its confidence when it is flagged, one minus it when supported); 0 with no claims.
    """
    return round(max((c.confidence if c.status != "supported" else 1.0 - c.confidence for c in claims), default=0.0), 6)
