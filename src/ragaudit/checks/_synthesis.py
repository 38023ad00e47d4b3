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


def _capitalized(text: str, common: frozenset[str], entities: frozenset[str], before: int | None = None) -> set[str]:
    """Keys of names in ``text`` (up to offset ``before``): capitalised and never written in
    lower case in the sources.
    """
    return {
        t.key
        for t in analyze(text)
        if t.kind == "word" and text[t.start].isupper() and t.key not in common and (before is None or t.start < before)
    }


def _specific(key: str) -> bool:
    """A figure specific enough to identify a fact: not a small count like 1 or 3."""
    value = float(key[1:]) if key[0] == "#" else 10.0
    return value >= 10 or value != int(value)


def _evidence(unit: Unit, relation: str) -> Evidence:
    return Evidence(source_id=unit.source_id, start=unit.start, end=unit.end, quote=unit.text, relation=relation)


def find_synthesis_error(alignment: Alignment, index: SourceIndex) -> SynthesisError | None:
    """Find an attribute (a figure or a date) bound in the claim to a subject the sources never bind it to.

    Every part of the claim must be found somewhere in the sources; the error is in the
    combination: the sources state the attribute only next to another named subject.
    """
    if alignment.global_coverage < 0.9:
        return None
    claim_text = alignment.claim.text
    common, entities = index.lowercase_keys, index.entities
    names = _capitalized(claim_text, common, entities)
    if not names:
        return None
    # Figures and dates are the attributes that travel wrongly between subjects.
    attributes = [t for t in alignment.terms if t.kind in ("num", "time") and _specific(t.key)]
    for term in attributes:
        attribute = term.key
        holders = [index.units[i] for i in index.postings.get(attribute, ())]
        # The subject a figure is given to is named before it ("Acme was founded in 1985").
        subjects = _capitalized(claim_text, common, entities, before=term.start)
        # The attribute must be stated only about other subjects: no unit that holds it names
        # any subject of the claim.
        if not holders or not subjects or any(subjects & u.keys for u in holders):
            continue
        for name in sorted(subjects):
            name_units = [index.units[i] for i in index.postings.get(name, ())]
            if not name_units:
                continue
            # A holder states the claim's very relation (the same words but the names) about
            # another named subject, in another source than the one naming the claim's subject.
            relation = [k for k in alignment.keys if k not in names]
            owned = [
                (u, _capitalized(u.text, common, entities) - names)
                for u in holders
                if sum(1 for k in relation if k in u.keys) >= 0.7 * len(relation)
            ]
            holder, owners = next(((u, o) for u, o in owned if o), (holders[0], set()))
            other = name_units[0]
            if not owners or holder.source_id == other.source_id:
                continue
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
