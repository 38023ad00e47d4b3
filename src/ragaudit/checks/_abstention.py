"""Abstention check: which parts of the question no source addresses, and did the answer say so."""

from __future__ import annotations

from collections.abc import Sequence

from ragaudit._text import LIGHT_WORDS, analyze
from ragaudit.align import SourceIndex
from ragaudit.models import AbstentionCheck, AuditRequest, ClaimResult
from ragaudit.segment import Segmentation

_QUESTION_WORDS = frozenset(
    [
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "how",
        "many",
        "much",
        "long",
        "tell",
        "explain",
        "describe",
        "list",
    ]
)


def question_gaps(question: str, index: SourceIndex) -> list[str]:
    """Content words of the question that appear in no source (as written in the question)."""
    gaps = []
    for term in analyze(question):
        word = question[term.start : term.end]
        if term.kind not in ("word", "num", "time") or word.lower() in _QUESTION_WORDS or term.key in LIGHT_WORDS:
            continue
        if term.key not in index.vocabulary and word not in gaps:
            gaps.append(word)
    return gaps


def check_abstention(
    request: AuditRequest, segmentation: Segmentation, claims: Sequence[ClaimResult], index: SourceIndex
) -> AbstentionCheck:
    """Compare the question's coverage by the sources with what the answer did about any gap."""
    assert request.question is not None
    gaps = question_gaps(request.question, index)
    abstained = bool(segmentation.abstentions)
    if not gaps:
        return AbstentionCheck(
            query_has_gap=False,
            gaps=[],
            answer_abstained=abstained,
            answer_abstained_correctly=None,
            explanation="Every part of the question is addressed by the sources.",
        )
    gap_keys = {t.key for g in gaps for t in analyze(g)}
    filled = [c.id for c in claims if c.status != "supported" and gap_keys & {t.key for t in analyze(c.text)}]
    shown = ", ".join(f"'{g}'" for g in gaps)
    if abstained and not filled:
        explanation = f"No source addresses {shown}; the answer says so instead of filling the gap."
    elif abstained:
        explanation = f"No source addresses {shown}; the answer says so but still makes unsupported claims about it ({', '.join(filled)})."
    else:
        explanation = f"No source addresses {shown}, and the answer does not acknowledge the gap."
    return AbstentionCheck(
        query_has_gap=True,
        gaps=gaps,
        answer_abstained=abstained,
        answer_abstained_correctly=abstained and not filled,
        explanation=explanation,
    )
