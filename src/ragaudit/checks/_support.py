"""Per-source evidence for one claim: each source's best window about it, and where they disagree.

The verifier (:mod:`ragaudit.verify`) looks for the best windows over all sources; the checks
need the best window *of each source* (is the cited passage about the claim? do two sources
say different things about it?). Windows are one unit or two adjacent units, scored like the
verifier's: half meaning similarity (MiniLM cosine), half rarity-weighted lexical coverage.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ragaudit._budget import EmbeddingBudget
from ragaudit._verifier_model import load_model
from ragaudit._windows import Window, unit_vectors
from ragaudit.align import Alignment, SourceIndex
from ragaudit.embed import embed
from ragaudit.matching import Mismatch, compare
from ragaudit.slots import Slots, extract

MAX_UNITS = 400
"""Requests with more source units than this compare only each claim's lexical candidates …"""
CANDIDATES = 96
"""… this many of them."""
PAIR_PENALTY = 0.04
"""A two-unit window must beat its better half by this much (as in the verifier)."""
SOURCES_COMPARED = 16
"""Per claim, the sources whose best windows are read slot by slot: the best this many (as many as
the conflict check compares), and every source the claim cites (a request may have 500 sources;
each comparison reads its window's slots)."""
EMBED_BUDGET = 32
"""Texts the checks embed per request beyond those already embedded (claims first, at most half):
past it, a window's meaning is read from its words, as in the verifier."""


@dataclass(frozen=True, slots=True)
class SourceSupport:
    """One source's best window for a claim."""

    source_id: str
    window: Window
    about: bool
    """Close in meaning or covering most of the claim's words (the verifier's thresholds)."""
    mismatches: tuple[Mismatch, ...]
    """Slots on which the window disagrees with the claim (numbers, dates, units, times)."""

    @property
    def score(self) -> float:
        """How much the window is about the claim."""
        return self.window.score

    @property
    def supports(self) -> bool:
        """About the claim and disagreeing on nothing."""
        return self.about and not self.mismatches


@dataclass(slots=True)
class ClaimEvidence:
    """Every source's best window for one claim, best first."""

    alignment: Alignment
    slots: Slots
    """The claim's slots."""
    by_source: list[SourceSupport] = field(default_factory=list)

    def get(self, source_id: str) -> SourceSupport | None:
        """The support of one source, if it has any text."""
        return next((s for s in self.by_source if s.source_id == source_id), None)


def _coverage(keys: set[str], weights: dict[str, float]) -> float:
    """Weighted share of ``weights``' keys (a claim's) that ``keys`` holds."""
    total = sum(weights.values()) or 1.0
    return sum(w for k, w in weights.items() if k in keys) / total


def candidate_units(weights: dict[str, float], index: SourceIndex) -> list[int]:
    """Positions of the units worth comparing: all of them, or past :data:`MAX_UNITS` the
    :data:`CANDIDATES` that share most of the weighted words (huge requests stay linear)."""
    if len(index.units) <= MAX_UNITS:
        return list(range(len(index.units)))
    score: dict[int, float] = {}
    for key, weight in weights.items():
        for i in index.postings.get(key, ()):
            score[i] = score.get(i, 0.0) + weight
    return sorted(sorted(score, key=lambda i: -score[i])[:CANDIDATES])


def _word_weights(alignment: Alignment) -> dict[str, float]:
    """The claim's weights of words only: meaning read from words alone (a window or claim not embedded)."""
    return {k: w for k, w in alignment.weights.items() if k[:1] not in "#@"}


def source_windows(
    alignment: Alignment,
    index: SourceIndex,
    vector: np.ndarray,
    budget: list[int] | None = None,
    embedded: np.ndarray | None = None,
    tokens: EmbeddingBudget | None = None,
) -> dict[str, Window]:
    """The best window of each source for the claim (one unit or two adjacent ones).

    ``budget`` (a one-item list, spent in place) bounds the units embedded here; ``None``: no bound;
    ``tokens`` bounds their tokens, shared with the rest of the request.
    ``embedded`` (a mask, filled in place) holds the units this request embedded: vectors earlier
    requests left on a shared index neither count nor spare the budget, so verdicts do not depend
    on what was audited before.
    """
    if not index.units:
        return {}
    units = index.units
    chosen_units = candidate_units(alignment.weights, index)
    wanted = sorted({j for i in chosen_units for j in (i, i + 1) if j < len(units)})
    mine = np.zeros(len(units), dtype=bool) if embedded is None else embedded
    if vector.any():
        todo = [i for i in wanted if not mine[i]][: None if budget is None else max(0, budget[0])]
        if tokens is not None:  # the texts budget is charged for what the token budget lets through
            todo = [todo[k] for k in tokens.admit([units[i].text or " " for i in todo])]
        if budget is not None:
            budget[0] -= len(todo)
        vectors, _ = unit_vectors(index, todo)
        mine[todo] = True
        known = mine
    else:
        vectors, _ = unit_vectors(index, [])
        known = np.zeros(len(units), dtype=bool)
    sims = vectors @ vector
    word_weights = _word_weights(alignment)  # once per claim, not once per window
    best: dict[str, tuple[float, Window]] = {}
    for i in chosen_units:
        unit = units[i]
        spans = [(i, i)]
        if i + 1 < len(units) and units[i + 1].source_id == unit.source_id:
            spans.append((i, i + 1))
        for a, b in spans:
            chosen = units[a : b + 1]
            keys: set[str] = set().union(*(u.keys for u in chosen))
            if not known[a : b + 1].all():
                similarity = _coverage(keys, word_weights)
            elif a == b:
                similarity = float(sims[a])
            else:
                summed = vectors[a : b + 1].sum(axis=0)
                similarity = float(summed @ vector / max(float(np.linalg.norm(summed)), 1e-9))
            text = index.by_id[unit.source_id].text
            window = Window(
                unit.source_id,
                chosen[0].start,
                chosen[-1].end,
                text[chosen[0].start : chosen[-1].end],
                tuple(chosen),
                similarity,
                _coverage(keys, alignment.weights),
            )
            rank = window.score - PAIR_PENALTY * (b - a)
            if unit.source_id not in best or rank > best[unit.source_id][0]:
                best[unit.source_id] = (rank, window)
    return {sid: w for sid, (_, w) in best.items()}


def claim_evidence(
    alignments: list[Alignment],
    index: SourceIndex,
    *,
    embeddings: bool = True,
    tokens: EmbeddingBudget | None = None,
) -> list[ClaimEvidence]:
    """Per-source evidence for each claim, in order (``embeddings=False``: windows found by words alone;
    ``tokens``: the request's embedding budget, shared with the verifier)."""
    if not alignments:
        return []
    model = load_model()
    vectors = np.zeros((len(alignments), 384), dtype=np.float32)
    tokens = tokens or EmbeddingBudget()
    texts = [a.claim.text for a in alignments[: EMBED_BUDGET // 2 if embeddings else 0]]
    admitted = tokens.admit(texts, claims=True)
    vectors[admitted] = embed([texts[i] for i in admitted])
    budget = [EMBED_BUDGET - len(admitted)]
    mine = np.zeros(len(index.units), dtype=bool)
    out: list[ClaimEvidence] = []
    for alignment, vector in zip(alignments, vectors, strict=True):
        evidence = ClaimEvidence(alignment, extract(alignment.claim.text))
        claim_slots = evidence.slots
        windows = source_windows(alignment, index, vector, budget, mine, tokens)
        cited = set(alignment.claim.citations)
        ranked = sorted(windows, key=lambda sid: -windows[sid].score)
        for sid in [sid for k, sid in enumerate(ranked) if k < SOURCES_COMPARED or sid in cited]:
            window = windows[sid]
            about = window.similarity >= model.about_similarity or window.coverage >= model.about_coverage
            found = tuple(compare(claim_slots, extract(window.text), [])) if about else ()
            evidence.by_source.append(SourceSupport(sid, window, about, found))
        evidence.by_source.sort(key=lambda s: -s.score)
        out.append(evidence)
    return out
