"""Inferable claims: a figure no source states that follows by arithmetic from two that they do."""

from __future__ import annotations

import itertools

from ragaudit.align import Alignment, SourceIndex

_MAX_NUMBERS = 60
"""Arithmetic inference looks at pairs of at most this many source numbers."""


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= max(0.005 * abs(y), 0.01) or round(x) == y or round(x, 1) == y


def is_inferable(alignment: Alignment, index: SourceIndex) -> bool:
    """True when every number the sources lack follows by arithmetic from two source numbers.

    >>> from ragaudit.align import build_index, align
    >>> from ragaudit.models import Claim, Source
    >>> idx = build_index([Source(id="1", text="Sales were 40 units in May and 60 units in June.")])
    >>> is_inferable(align(Claim(id="c1", text="Sales totalled 100 units.", start=0, end=25, type="quantitative"), idx), idx)
    True
    """
    novel = [k for k in alignment.keys if k.startswith("#") and k not in index.numbers]
    # Years are not computed from other figures; a changed year is a wrong year.
    if not novel or any(k[1:].isdecimal() and 1500 <= int(k[1:]) <= 2100 for k in novel):
        return False
    # Only figures of the evidence the claim aligns to (the same topic) may be combined.
    evidence_numbers = set().union(*(u.numbers for u in alignment.best)) if alignment.best else set()
    known = sorted({float(k[1:]) for k in evidence_numbers if k.startswith("#")})[:_MAX_NUMBERS]
    for key in novel:
        target = float(key[1:])
        derived = False
        for a, b in itertools.permutations(known, 2):
            candidates = [a + b, a - b, a * b]
            if b:
                candidates += [a / b, 100 * a / b, 100 * (a - b) / b]
            if any(_close(c, target) for c in candidates):
                derived = True
                break
        if not derived:
            return False
    return True
