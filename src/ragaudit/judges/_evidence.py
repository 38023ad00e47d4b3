"""Checking what an LLM quotes: every quote is located in the named source and replaced by its exact text."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from ragaudit._text import analyze, content_keys
from ragaudit.align import Alignment, SourceIndex
from ragaudit.models import ClaimStatus, Evidence, FabricatedEvidence

MIN_SUPPORT_COVERAGE = 0.34
"""A supported verdict needs verified quotes that hold at least this share of the claim's terms."""


# The shape the model must answer in (its JSON Schema is in the prompt); nothing in it is trusted as is.
class _Quote(BaseModel):
    source_id: str
    quote: str


class _Verdict(BaseModel):
    claim_id: str
    status: ClaimStatus
    confidence: float = Field(ge=0.0, le=1.0)
    explanation: str
    evidence: list[_Quote] = Field(default_factory=list)
    inferable: bool = False


class _Answer(BaseModel):
    verdicts: list[_Verdict]


def _normalised(text: str) -> tuple[str, list[int]]:
    """Lower-cased text with punctuation dropped and whitespace collapsed, and each char's origin."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch.isalnum():
            chars.append(ch.lower())
            origin.append(i)
        elif (ch.isspace() or not ch.isalnum()) and chars and chars[-1] != " ":
            chars.append(" ")
            origin.append(i)
    return "".join(chars), origin


def locate_quote(source: str, quote: str) -> tuple[int, int] | None:
    """Offsets of ``quote`` in ``source``: exact first, then tolerant of whitespace, case, punctuation.

    >>> locate_quote("The plant opened in 2012.", "plant  OPENED in 2012")
    (4, 24)
    """
    quote = quote.strip().strip('"“”')
    if not quote:
        return None
    exact = source.find(quote)
    if exact >= 0:
        return exact, exact + len(quote)
    norm_source, origin = _normalised(source)
    norm_quote = _normalised(quote)[0].strip()
    if len(norm_quote) < 4:
        return None
    at = norm_source.find(norm_quote)
    if at < 0:
        return None
    start = origin[at]
    end = origin[at + len(norm_quote) - 1] + 1
    return start, end


def verify_evidence(
    verdict: _Verdict, alignment: Alignment, index: SourceIndex
) -> tuple[list[Evidence], list[FabricatedEvidence]]:
    """Real evidence (exact source text and offsets) and the fabricated rest."""
    real: list[Evidence] = []
    fake: list[FabricatedEvidence] = []
    relation = "contradicts" if verdict.status in ("contradicted", "synthesis_error") else "supports"
    for q in verdict.evidence:
        source = index.by_id.get(q.source_id)
        if source is None:
            fake.append(FabricatedEvidence(source_id=q.source_id, quote=q.quote, reason="unknown source"))
            continue
        span = locate_quote(source.text, q.quote)
        if span is None:
            fake.append(
                FabricatedEvidence(source_id=q.source_id, quote=q.quote, reason="quote not found in the source")
            )
            continue
        real.append(
            Evidence(
                source_id=source.id, start=span[0], end=span[1], quote=source.text[span[0] : span[1]], relation=relation
            )
        )
    return real, fake


def states_claim(claim_text: str, evidence: Sequence[Evidence]) -> bool:
    """Do the verified quotes hold enough of the claim's content terms to count as stating it?"""
    keys = set(content_keys(analyze(claim_text)))
    if not keys:
        return bool(evidence)
    quoted = {k for e in evidence for k in content_keys(analyze(e.quote))}
    return len(keys & quoted) / len(keys) >= MIN_SUPPORT_COVERAGE
