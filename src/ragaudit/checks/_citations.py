"""Citation check: does each inline marker name a real source that holds the claims it cites?

A marker cites every clause before it back to the previous marker or the sentence start (the
segmenter gives each of those claims the marker's refs). A cited source is *unsupportive*
(a fabricated attribution) when, for each of those clauses, another source has a window about
it that scores clearly better than the cited source's best, or when the claim answers something no source
covers (an invented answer carries no real citation). A marker on the right passage whose
content the answer misstates is not fabricated: the claim's status carries that error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragaudit.checks._support import ClaimEvidence
from ragaudit.models import CitationCheck, ClaimResult, Source

MARGIN = 0.25
"""Another source must be about the claim and score this much above the cited one."""
OWN_SHARE = 0.1
"""A marker naming several sources holds for one that alone holds this (weighted) share of a cited claim's terms,
a figure among them: each supplies its part ("12 lengths [S2] where 10 are required [S1]", cited "[S1][S2]")."""


def resolve_ref(ref: str, sources: Sequence[Source]) -> str | None:
    """Map a written reference to a source id: an exact id, a prefixed id, or a 1-based position.

    >>> resolve_ref("2", [Source(id="a", text=""), Source(id="b", text="")])
    'b'
    >>> resolve_ref("S1", [Source(id="S1", text="")])
    'S1'
    """
    ids = [s.id for s in sources]
    if ref in ids:
        return ref
    lowered = {i.lower(): i for i in ids}
    if ref.lower() in lowered:
        return lowered[ref.lower()]
    digits = re.sub(r"\D", "", ref)
    if digits:
        # "[S2]" for a source "2", "[2]" for "passage 2" or "doc-2", then position 2.
        for sid in ids:
            if re.sub(r"\D", "", sid) == digits and re.fullmatch(r"[A-Za-z _-]*\d+", sid):
                return sid
        if re.fullmatch(r"(?i)[a-z _-]*\d+", ref):
            position = int(digits)
            if 1 <= position <= len(ids):
                return ids[position - 1]
    return None


def _about(evidence: ClaimEvidence, source_id: str) -> tuple[bool, float]:
    support = evidence.get(source_id)
    return (support.about, support.score) if support is not None else (False, 0.0)


def _own_part(evidence: ClaimEvidence, source_id: str, others: Sequence[str]) -> bool:
    """Whether the cited source's window alone holds a part of the claim (a figure among it) no other cited one does."""
    mine = evidence.get(source_id)
    if mine is None:
        return False
    theirs: set[str] = set()
    for other in others:
        support = evidence.get(other)
        if support is not None:
            theirs.update(*(u.keys for u in support.window.units))
    keys = set().union(*(u.keys for u in mine.window.units)) - theirs
    weights = evidence.alignment.weights
    own = [k for k in weights if k in keys]
    total = sum(weights.values()) or 1.0
    return any(k.startswith("#") for k in own) and sum(weights[k] for k in own) / total >= OWN_SHARE


def check_citations(
    claim: ClaimResult,
    group: Sequence[ClaimEvidence],
    sources: Sequence[Source],
    *,
    invented: bool = False,
) -> CitationCheck:
    """Judge each of ``claim.citations`` against the clauses its marker cites (``group``, this claim included)."""
    cited: list[str] = []
    unknown: list[str] = []
    for ref in claim.citations:
        sid = resolve_ref(ref, sources)
        if sid is None:
            unknown.append(ref)
        elif sid not in cited:
            cited.append(sid)
    unsupportive: list[str] = []
    for sid in cited:
        if invented:
            unsupportive.append(sid)
            continue
        # The marker holds when, for some clause it cites, no other source is clearly better.
        holds = False
        for evidence in group:
            _, score = _about(evidence, sid)
            rival = next((s for s in evidence.by_source if s.source_id != sid and s.about), None)
            holds = holds or rival is None or rival.score - score < MARGIN
            holds = holds or (len(cited) > 1 and _own_part(evidence, sid, [c for c in cited if c != sid]))
        if not holds:
            unsupportive.append(sid)
    own = group[0] if len(group) == 1 else next((g for g in group if g.alignment.claim.id == claim.id), group[0])
    best = max((s.score for s in own.by_source if s.supports), default=0.0)
    supporting = [s.source_id for s in own.by_source if s.supports and best - s.score < MARGIN] if not invented else []
    order = [s.id for s in sources]
    return CitationCheck(
        cited=cited,
        unknown=unknown,
        unsupportive=unsupportive,
        supporting_sources=sorted(supporting, key=order.index),
        valid=not unknown and not unsupportive,
    )
