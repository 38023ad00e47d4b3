"""Abstention check: which asks of the question no source answers, and what the answer did about them.

The question is split into its asks (:mod:`ragaudit.checks._needs`). An ask is a gap when

* the answer itself says the documents do not cover it (an abstention sentence that names the
  documents or the answerer's inability, close in meaning to the ask), or
* no source is about it (a word of the ask's own is in no source, or a year it names is not)
  and the claim of the answer that answers it is not supported: the answer invented it.

``answer_abstained_correctly`` is true when every gap is acknowledged and no claim fills one;
claims that answer an unanswerable ask become ``unsupported`` (a recorded step).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ragaudit._budget import EmbeddingBudget
from ragaudit._source_talk import REFERRAL_RE
from ragaudit._text import ASK_FRAME_WORDS, ASK_TARGET_WORDS, LIGHT_WORDS, analyze
from ragaudit.align import SourceIndex
from ragaudit.checks._needs import Need, need_relevance, split_needs
from ragaudit.checks._support import ClaimEvidence
from ragaudit.embed import embed
from ragaudit.matching import quantity_supported
from ragaudit.models import AbstentionCheck, AuditRequest, ClaimResult
from ragaudit.segment import Segmentation
from ragaudit.slots import Quantity, extract

_DOCS = (
    r"(?:sources?|passages?|documents?|docs|pages?|documentation|guide|guidance|polic(?:y|ies)|reports?|handbook|"
    r"account|table|schedule|records?|materials?|information|text|key\ features|leaflet|notes?|results|they|it|"
    r"neither|none\ of\ (?:them|these)|either)"
)
_SILENT = (
    r"(?:(?:do(?:es)?\ not|don't|doesn't|did\ not|didn't|never)\s+(?:\w+\s+)?(?:say|state|mention|specify|give|include|"
    r"cover|provide|list|contain|address|discuss|indicate|report|show|publish|quote|confirm|tell|break)"
    r"|neither\ (?:\w+\ )?(?:says?|states?|mentions?|gives?|lists?|covers?|specif(?:y|ies))|says?\ nothing|(?:is|are)\ silent|makes?\ no\ mention|no\ mention|(?:is|are)n't\ (?:stated|given|covered|mentioned|listed)"
    r"|(?:is|are)\ not\ (?:stated|given|covered|mentioned|listed))"
)
_ABSTAIN_RE = re.compile(
    rf"\b{_DOCS}\b[^.;]{{0,80}}?\b{_SILENT}\b"
    r"|\bneither\s+(?:\w+\s+)?(?:says|states|mentions|gives|lists|covers|specifies)\b"
    r"|\b(?:I|we)\s+(?:can't|cannot|can\ not|couldn't|am\ unable\ to|was\ unable\ to)\s+(?:find|say|tell|confirm|see|give)\b"
    r"|\bcan(?:'t|not)\ be\ (?:answered|worked\ out|determined|confirmed|found)\b"
    r"|\bno\ (?:figures?|information|data|details?|numbers?|prices?|fares?)\b[^.;]{0,40}?\b(?:given|provided|stated|available|published)\b",
    re.IGNORECASE | re.VERBOSE,
)
_SENTENCE_RE = re.compile(r"[^.!?;]+(?:[.!?;]+|$)")

NEED_CLAIM_SIMILARITY = 0.55
"""A claim this close in meaning to an ask (cosine) is taken as answering it."""
MISSING_SHARE = 0.4
"""An ask is beyond the sources when at least this share of its own words is in no source."""


@dataclass(frozen=True, slots=True)
class Gap:
    """One ask the sources do not answer."""

    need: Need
    acknowledged: bool
    filled_by: tuple[str, ...]
    """Ids of the claims that answer it anyway."""


def abstention_spans(answer: str, segmentation: Segmentation) -> list[tuple[int, int]]:
    """Sentences (or clauses) where the answer says the documents do not cover something."""
    spans = [s for s in segmentation.abstentions if _ABSTAIN_RE.search(answer[s[0] : s[1]])]
    for m in _SENTENCE_RE.finditer(answer):
        if _ABSTAIN_RE.search(m.group()) and not any(a < m.end() and m.start() < b for a, b in spans):
            spans.append(m.span())
    return sorted(spans)


def _prefixes(index: SourceIndex) -> set[str]:
    """The five-letter prefixes of the sources' words, once per index (not once per ask)."""
    found: set[str] | None = index.__dict__.get("_prefixes")
    if found is None:
        found = index.__dict__["_prefixes"] = {k[:5] for k in index.vocabulary if len(k) >= 5}
    return found


def _own_words(need: Need, subject: frozenset[str], typed: bool) -> set[str]:
    """The ask's own words (not its subject's, nor its form's): those a source must hold to be about it.

    Where the sources hold a figure of the kind the ask wants, the words naming that kind ("cost",
    "how many") are answered by it, whatever the source calls it.
    """
    frame = ASK_FRAME_WORDS | (ASK_TARGET_WORDS.get(need.target or "", frozenset()) if typed else frozenset())
    return {
        k
        for k in need.keys
        if k not in subject and k not in LIGHT_WORDS and k not in frame and not k.startswith(("#", "@"))
    }


def _missing_words(need: Need, index: SourceIndex, own: set[str]) -> list[str]:
    """The ask's own words that no source has, as written."""
    # "probation" and "probationary", "hire" and "hired" meet on a five-letter prefix.
    prefixes = _prefixes(index)
    missing = [k for k in own if k not in index.vocabulary and not (len(k) >= 5 and k[:5] in prefixes)]
    shown = [need.text[t.start : t.end] for t in analyze(need.text) if t.key in missing]
    return list(dict.fromkeys(shown))


def _novel_value(text: str, need: Need, pool: list[Quantity]) -> bool:
    """The claim gives the figure the ask wants, and no source states that figure."""
    if need.target not in ("amount", "number"):
        return False
    return any(not quantity_supported(q, pool) for q in extract(text).quantities)


def _uses_missing(text: str, missing_keys: set[str], need: Need, index: SourceIndex) -> bool:
    """The claim states a word of the ask that no source has, or a year of the ask no source names."""
    keys = {t.key for t in analyze(text)}
    years = [y for y in need.years if f"#{y}" not in index.numbers]
    return bool(keys & missing_keys) or any(f"#{y}" in keys for y in years)


def _about_anything(claim_id: str, claims: Sequence[ClaimResult], evidence: Sequence[ClaimEvidence] | None) -> bool:
    if evidence is None:
        return False
    i = next(k for k, c in enumerate(claims) if c.id == claim_id)
    best = evidence[i].by_source[0] if evidence[i].by_source else None
    return best is not None and best.about


def find_gaps(
    request: AuditRequest,
    segmentation: Segmentation,
    claims: Sequence[ClaimResult],
    index: SourceIndex,
    evidence: Sequence[ClaimEvidence] | None = None,
    *,
    embeddings: bool = True,
    tokens: EmbeddingBudget | None = None,
) -> tuple[list[Gap], bool]:
    """The question's unanswered asks, and whether the answer abstains anywhere (``tokens``: what is
    left of the request's embedding budget; a text past it is read from its words)."""
    assert request.question is not None
    needs = split_needs(request.question)
    if not needs:
        return [], False
    subject = frozenset.intersection(*(n.keys for n in needs)) if len(needs) > 1 else frozenset()
    spans = abstention_spans(request.answer, segmentation)

    def vectors(texts: list[str], *, claims: bool = False) -> np.ndarray:
        # Without embeddings, meaning is read from the words (the fit below and the missing words).
        out = np.zeros((len(texts), 384), dtype=np.float32)
        if texts and embeddings:
            admitted = (tokens or EmbeddingBudget()).admit(texts, claims=claims)
            out[admitted] = embed([texts[i] for i in admitted])
        return out

    need_vectors = vectors([n.text for n in needs])
    span_vectors = vectors([request.answer[a:b] for a, b in spans])
    claim_vectors = vectors([c.text for c in claims], claims=True)
    span_sims = span_vectors @ need_vectors.T
    claim_sims = claim_vectors @ need_vectors.T
    # Each abstention goes to the ask it is closest to, in meaning and in the ask's own words.
    span_keys = [{t.key for t in analyze(request.answer[a:b])} for a, b in spans]
    own_keys = [need.keys - subject or need.keys for need in needs]
    fit = np.array(
        [
            [
                span_sims[i, j] + 0.5 * len(own_keys[j] & span_keys[i]) / max(1, len(own_keys[j]))
                for j in range(len(needs))
            ]
            for i in range(len(spans))
        ]
    ).reshape(len(spans), len(needs))
    assigned = {int(fit[i].argmax()) for i in range(len(spans))}
    # The figures of what the audit read (past the reading budget the rest is blanked), not of every
    # source as sent: 2,000,000 characters read again for a question's sake.
    pool = [q for s in index.sources for q in extract(s.text).quantities]
    gaps: list[Gap] = []
    for j, need in enumerate(needs):
        acknowledged = j in assigned
        relevance = need_relevance(need, index, subject, embeddings=embeddings, tokens=tokens)
        own = _own_words(need, subject, relevance.typed)
        missing = _missing_words(need, index, own)
        missing_keys = {t.key for w in missing for t in analyze(w)}
        # A claim answers the ask it is closest to, when close in meaning or using the very words
        # of the ask that no source has ("who owns it?" … "owned by").
        answering = [
            c
            for i, c in enumerate(claims)
            if (
                (claim_sims[i, j] >= NEED_CLAIM_SIMILARITY and claim_sims[i, j] >= claim_sims[i].max() - 1e-6)
                or missing_keys & {t.key for t in analyze(c.text)}
            )
            and not any(a <= c.start < b for a, b in spans)
            and not REFERRAL_RE.search(c.text)
        ]
        # "Does it cost anything?" of sources that name no price: the word for what is wanted is in none, and
        # no figure of its kind stands where they speak of the ask's matter.
        kind_missing = not relevance.typed and bool(missing_keys & ASK_TARGET_WORDS.get(need.target or "", frozenset()))
        unanswered = len(missing) >= MISSING_SHARE * max(1, len(own)) or not relevance.years_found or kind_missing
        # Invented: not supported, and either the ask is beyond the sources, or no source window is
        # even about the claim, or it gives a figure no source states.
        # An answer echoes its question's words, so only an ask far beyond the sources (a year or
        # half its own words in none) overrides a judge's "supported".
        far = not relevance.years_found or (len(missing) >= 2 and len(missing) >= 0.5 * max(1, len(own)))
        # Whatever the judge said, a claim that answers an ask beyond the sources with the very
        # words or year no source has is invented.
        # A claim the sources contradict (or that combines what they say) is about what they say: it
        # answers no ask beyond them, and its finding is the sharper one.
        invented = tuple(
            c.id
            for c in answering
            if c.status not in ("contradicted", "synthesis_error")
            and (
                (
                    c.status in ("unsupported", "partially_supported")
                    and (unanswered or not _about_anything(c.id, claims, evidence) or _novel_value(c.text, need, pool))
                )
                # … unless the verifier found the claim's evidence: then the sources say it in their own
                # words ("poultry" for the ask's "chicken") and the ask is not beyond them.
                or (
                    far
                    and _uses_missing(c.text, missing_keys, need, index)
                    # … or worked its figures out from theirs ("£26 per kilo" of "£6.50 for 250 g").
                    and not (
                        c.status == "supported"
                        and (_about_anything(c.id, claims, evidence) or c.decided_by == "detector:figures")
                    )
                )
            )
        )
        if acknowledged:
            gaps.append(Gap(need, True, invented if unanswered else ()))
        elif unanswered and invented:
            gaps.append(Gap(need, False, invented))
    return gaps, bool(spans)


def check_abstention(
    request: AuditRequest,
    segmentation: Segmentation,
    claims: Sequence[ClaimResult],
    index: SourceIndex,
    evidence: Sequence[ClaimEvidence] | None = None,
    *,
    embeddings: bool = True,
    tokens: EmbeddingBudget | None = None,
) -> tuple[AbstentionCheck, list[str]]:
    """The abstention finding, and the ids of claims that answer an unanswerable ask."""
    gaps, abstained = find_gaps(request, segmentation, claims, index, evidence, embeddings=embeddings, tokens=tokens)
    if not gaps:
        return (
            AbstentionCheck(
                query_has_gap=False,
                gaps=[],
                answer_abstained=abstained,
                answer_abstained_correctly=None,
                explanation="Every part of the question is answered by some source.",
            ),
            [],
        )
    filled = [cid for g in gaps for cid in g.filled_by]
    shown = "; ".join(f"'{g.need.text.rstrip('?')}'" for g in gaps)
    correct = all(g.acknowledged for g in gaps) and not filled
    if correct:
        explanation = f"No source answers {shown}; the answer says so instead of filling the gap."
    elif all(g.acknowledged for g in gaps):
        explanation = f"No source answers {shown}; the answer says so but still answers it ({', '.join(filled)})."
    else:
        explanation = f"No source answers {shown}, and the answer invents an answer ({', '.join(filled)})."
    check = AbstentionCheck(
        query_has_gap=True,
        gaps=[g.need.text for g in gaps],
        answer_abstained=abstained,
        answer_abstained_correctly=correct,
        explanation=explanation,
    )
    return check, filled
