"""Inline citation markers in an answer ("[1]", "[S2][S3]", "(Source 1)", a footnote "¹"), with the source
references each one names: the segmenter cuts them out of claim texts and gives each claim its references."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Every part below is unambiguous (no two quantifiers can share a character) and wrapped in an
# atomic group, so a marker that never closes ("[1, 1, 1, …") fails in one linear pass instead of
# backtracking exponentially. tests/test_hostile.py checks every pattern of the package for this.
_REF = r"(?:(?:S|doc|source|passage|ref|src)[-_ ]?)?\d{1,6}+"  # "[1234567]" is no citation
_SEP = r"\s*+(?:,|;|–|-|and)\s*+"
_CITATION_RE = re.compile(
    rf"""
    \[\^?\s*+(?P<bracket>(?>{_REF}(?:{_SEP}{_REF})*+))\]                  # [1] [1, 3] [1-3] [S2] [doc-3] [^1]
  | \((?P<paren>(?>(?:according\ to\ )?(?:source|passage|document|doc|ref)s?\s*+\d{{1,6}}+
        (?:\s*+(?:,|;|–|-|and|&)\s*+(?:(?:source|passage|document|doc)s?\s*+)?\d{{1,6}}+)*+))\)  # (Source 2)
  | \^(?P<caret>\d{{1,6}}+(?:,\d{{1,6}}+)*+)(?!\d)                                   # ^2
  | (?<![\d\s]m)(?<![\d\s][kcmd]m)(?<![\d\s]ft)(?P<sup>[¹²³⁴⁵⁶⁷⁸⁹⁰]++)  # superscript digits, not "4 m²", "5km²", "3 ft³"
  | (?<=[a-z0-9][.,)])(?P<foot>\d{{1,2}})(?=\s|$)                          # footnote: "tall.2 It", "1990.3"
    """,
    re.VERBOSE | re.IGNORECASE,
)
_SUPERSCRIPT = str.maketrans("¹²³⁴⁵⁶⁷⁸⁹⁰", "1234567890")


@dataclass(frozen=True, slots=True)
class CitationMarker:
    """An inline citation marker and the references it names, as written."""

    start: int
    end: int
    refs: tuple[str, ...]


# (?<!\s): a whitespace run is entered once, at its start (else a long run is scanned from every
# one of its positions: quadratic).
_REF_SPLIT_RE = re.compile(r"(?<!\s)\s*+(?:,|;|&|\band\b)\s*+")


def _expand_refs(body: str) -> tuple[str, ...]:
    """``"1-3"`` → 1, 2, 3; ``"S2, S4"`` → S2, S4; ``"Source 2"`` → 2."""
    refs: list[str] = []
    body = re.sub(r"(?i)^according to\s+", "", body.strip())
    for part in _REF_SPLIT_RE.split(body):
        if not part:
            continue
        rng = re.fullmatch(r"(?i)([a-z]*[-_ ]?)(\d+)\s*[–-]\s*(?:[a-z]*[-_ ]?)?(\d+)", part)
        if rng and not re.fullmatch(r"(?i)[a-z]+-\d+", part):
            prefix, lo, hi = rng[1], int(rng[2]), int(rng[3])
            if 0 < hi - lo < 50:
                refs.extend(f"{prefix}{i}" for i in range(lo, hi + 1))
                continue
        refs.append(re.sub(r"(?i)^(?:source|passage|document)s?\s*", "", part).strip())
    return tuple(r for r in refs if r)


_FOOT_AFTER_WORD_RE = re.compile(r"(?<![A-Za-z])([a-z]{1,12})[.,)]$")
_FOOT_AFTER_YEAR_RE = re.compile(r"(?<![\d.,])(?:1[5-9]\d\d|20\d\d)\.$")
_NOT_FOOTNOTE_WORDS = frozenset({"no", "nr", "p", "pp", "vol", "fig", "sec", "ch", "art", "para", "op", "v", "vs"})


def _is_footnote(answer: str, start: int, end: int) -> bool:
    """A bare number after sentence punctuation is a footnote ("tall.2 It"), not a decimal ("3.5")."""
    prev = answer[max(0, start - 14) : start]
    word = _FOOT_AFTER_WORD_RE.search(prev)
    if word:
        return word[1] not in _NOT_FOOTNOTE_WORDS
    # "It opened in 1990.3": a year, a full stop, then the end or a new sentence.
    rest = answer[end : end + 3]
    return bool(_FOOT_AFTER_YEAR_RE.search(prev)) and (not rest.strip() or rest.lstrip()[:1].isupper())


def find_citations(answer: str) -> list[CitationMarker]:
    """Find inline citation markers in ``answer``.

    >>> [m.refs for m in find_citations("Paris is big [1, 3]. It rains (Source 2).")]
    [('1', '3'), ('2',)]
    """
    markers: list[CitationMarker] = []
    for m in _CITATION_RE.finditer(answer):
        group = m.lastgroup
        body = m.group(group) if group else ""
        if group == "foot" and not _is_footnote(answer, m.start(), m.end()):
            continue
        if group == "sup":
            body = body.translate(_SUPERSCRIPT)
            refs: tuple[str, ...] = tuple(body)
        else:
            refs = _expand_refs(body)
        markers.append(CitationMarker(m.start(), m.end(), refs))
    return markers
