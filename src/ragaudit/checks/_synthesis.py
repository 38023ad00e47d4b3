"""Synthesis errors (true parts combined falsely) and inferable claims (derivable, not stated)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ragaudit._text import analyze
from ragaudit.align import Alignment, SourceIndex, Unit
from ragaudit.models import Evidence

_MAX_NUMBERS = 60
"""Arithmetic inference looks at pairs of at most this many source numbers."""


@dataclass(frozen=True, slots=True)
class SynthesisError:
    """An attribute the sources state about one subject, given by the claim to another."""

    explanation: str
    sources: list[str]
    evidence: list[Evidence]


def _capitalized(text: str, common: frozenset[str]) -> set[str]:
    """Keys of names: capitalised words that the sources never write in lower case."""
    return {t.key for t in analyze(text) if t.kind == "word" and text[t.start].isupper() and t.key not in common}


def _evidence(unit: Unit, relation: str) -> Evidence:
    return Evidence(source_id=unit.source_id, start=unit.start, end=unit.end, quote=unit.text, relation=relation)  # type: ignore[arg-type]


def find_synthesis_error(alignment: Alignment, index: SourceIndex) -> SynthesisError | None:
    """Find an attribute (a figure or a date) bound in the claim to a subject the sources never bind it to.

    Every part of the claim must be found somewhere in the sources; the error is in the
    combination: the sources state the attribute only next to another named subject.
    """
    if alignment.global_coverage < 0.9:
        return None
    claim_text = alignment.claim.text
    common = index.lowercase_keys
    names = _capitalized(claim_text, common)
    if not names:
        return None
    # Figures and dates are the attributes that travel wrongly between subjects.
    attributes = [k for k in alignment.keys if k[0] in "#@"]
    for attribute in attributes:
        holders = [index.units[i] for i in index.postings.get(attribute, ())]
        subjects = names - {attribute}
        # The attribute must be stated only about other subjects: no unit that holds it names
        # any subject of the claim.
        if not holders or not subjects or any(subjects & u.keys for u in holders):
            continue
        for name in sorted(subjects):
            name_units = [index.units[i] for i in index.postings.get(name, ())]
            if not name_units:
                continue
            owned = [(u, _capitalized(u.text, common) - names) for u in holders]
            holder, owners = next(((u, o) for u, o in owned if o), (holders[0], set()))
            if not owners:
                continue
            other = name_units[0]
            shown_attr = attribute.lstrip("#@")
            owner = next(t for t in analyze(holder.text) if t.key in owners)
            owner_word = holder.text[owner.start : owner.end]
            name_word = next(claim_text[t.start : t.end] for t in analyze(claim_text) if t.key == name)
            return SynthesisError(
                explanation=(
                    f"Each part is in the sources, but {holder.source_id} gives '{shown_attr}' to "
                    f"{owner_word}, not {name_word} (from {other.source_id}): the combination is false."
                ),
                sources=sorted({holder.source_id, other.source_id}),
                evidence=[_evidence(holder, "contradicts"), _evidence(other, "related")],
            )
    return None


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
    if not novel or any(k[1:].isdigit() and 1500 <= int(k[1:]) <= 2100 for k in novel):
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
