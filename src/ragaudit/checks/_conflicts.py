"""Source conflicts: two sources disagree on a number or date that a claim states or depends on."""

from __future__ import annotations

import re

from ragaudit._text import LIGHT_WORDS, analyze, is_year
from ragaudit.align import SourceIndex, Unit
from ragaudit.models import ClaimResult, ConflictSide, SourceConflict
from ragaudit.segment import Segmentation

_REPORTED_RE = re.compile(
    r"\b(?:conflict\w*|disagree\w*|differ\w*|inconsistent|discrepan\w*|contradict\w*|"
    r"(?:another|other|one|a second) (?:source|passage|document|report)s?|"
    r"while (?:source|passage|document)|whereas|sources? (?:vary|say different))\b",
    re.IGNORECASE,
)


_MAX_CONFLICT_SOURCES = 16
"""Sources compared per claim (the best-matching ones); pairs grow with its square."""


def _raw_value(unit: Unit, key: str) -> str:
    for t in analyze(unit.text):
        if t.key == key:
            return unit.text[t.start : t.end]
    return key.lstrip("#@")


def find_source_conflicts(
    claim: ClaimResult, answer: str, segmentation: Segmentation, index: SourceIndex
) -> list[SourceConflict]:
    """Pairs of sources that state different numbers about what ``claim`` talks about."""
    claim_terms = analyze(claim.text)
    words = {
        t.key
        for t in claim_terms
        if t.kind == "word" and t.key not in LIGHT_WORDS and not _REPORTED_RE.fullmatch(claim.text[t.start : t.end])
    }
    numbers = {t.key for t in claim_terms if t.kind in ("num", "time")}
    if len(words) < 2:
        return []
    best_by_source: dict[str, tuple[float, Unit]] = {}
    for unit in index.units:
        if not unit.numbers:
            continue
        shared = len(words & unit.keys)
        share = shared / len(words)
        if shared >= 2 and share >= 0.4 and share > best_by_source.get(unit.source_id, (0.0, unit))[0]:
            best_by_source[unit.source_id] = (share, unit)
    # Pairs are quadratic in sources: with hundreds of matching sources (2 M characters of them) this
    # loop took tens of seconds per answer. The best-matching few, in source order, decide it.
    ranked = sorted(best_by_source.items(), key=lambda item: -item[1][0])[:_MAX_CONFLICT_SOURCES]
    keep = {source_id for source_id, _ in ranked}
    units = [u for source_id, (_, u) in best_by_source.items() if source_id in keep]
    conflicts: list[SourceConflict] = []
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            only_a, only_b = a.numbers - b.numbers, b.numbers - a.numbers
            # Compare like with like: years with years, other figures with other figures.
            for want_year in (True, False):
                va = sorted(k for k in only_a if is_year(k) == want_year)
                vb = sorted(k for k in only_b if is_year(k) == want_year)
                if not va or not vb:
                    continue
                kind = "date" if want_year or va[0][0] == "@" else "number"
                value_a, value_b = _raw_value(a, va[0]), _raw_value(b, vb[0])
                sentence = next(
                    (answer[s:e] for s, e in _sentences_around(segmentation, claim) if s <= claim.start < e),
                    claim.text,
                )
                mentions_both = va[0] in numbers and vb[0] in numbers
                if mentions_both or _REPORTED_RE.search(answer):
                    handling = "reported_conflict"
                elif va[0] in numbers or vb[0] in numbers:
                    handling = "took_side_silently"
                else:
                    handling = "answer_error"
                said = {
                    "reported_conflict": "the answer reports the disagreement",
                    "took_side_silently": "the answer states one value without saying the sources disagree",
                    "answer_error": "the answer's own value matches neither source",
                }[handling]
                conflicts.append(
                    SourceConflict(
                        claim_id=claim.id,
                        kind=kind,
                        sides=[
                            ConflictSide(source_id=a.source_id, start=a.start, end=a.end, quote=a.text, value=value_a),
                            ConflictSide(source_id=b.source_id, start=b.start, end=b.end, quote=b.text, value=value_b),
                        ],
                        answer_handling=handling,
                        explanation=(
                            f"{a.source_id} says {value_a} and {b.source_id} says {value_b} about "
                            f"'{sentence.strip()[:80]}'; {said}."
                        ),
                    )
                )
                break
    return conflicts


def _sentences_around(segmentation: Segmentation, claim: ClaimResult) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in segmentation.claims if c.id == claim.id]
