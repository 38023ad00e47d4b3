"""Citation check: do a claim's inline citations name real sources that support it?"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragaudit.models import CitationCheck, ClaimResult, Source

_SUPPORTIVE = ("supported", "partially_supported")


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


def check_citations(claim: ClaimResult, sources: Sequence[Source]) -> CitationCheck:
    """Check ``claim.citations`` against the sources and the claim's own evidence."""
    cited: list[str] = []
    unknown: list[str] = []
    for ref in claim.citations:
        sid = resolve_ref(ref, sources)
        if sid is None:
            unknown.append(ref)
        elif sid not in cited:
            cited.append(sid)
    supporting = (
        sorted({e.source_id for e in claim.evidence if e.relation == "supports"}, key=[s.id for s in sources].index)
        if claim.status in _SUPPORTIVE
        else []
    )
    unsupportive = [sid for sid in cited if sid not in supporting]
    return CitationCheck(
        cited=cited,
        unknown=unknown,
        unsupportive=unsupportive,
        supporting_sources=supporting,
        valid=not unknown and not unsupportive,
    )
