"""Reading one answer against a few source texts, as the hand-written reading-rule tests do."""

from __future__ import annotations

import ragaudit


def flagged(answer: str, *sources: str, question: str | None = None) -> bool:
    """Whether the audit finds a claim of ``answer`` not supported (sources ``S1``, ``S2`` … in order)."""
    report = ragaudit.audit(answer, [{"id": f"S{i}", "text": t} for i, t in enumerate(sources, 1)], question)
    return any(c.status != "supported" for c in report.claims)
