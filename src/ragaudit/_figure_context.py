"""Which of a window's figures measures the same thing as a claim's figure: the words right after each
("a £3.50 *transfer fee*", "a 3.5% *transfer fee*"; "24 hours *before arrival*"). A short claim shares few
of its other words with the window (its subject is a pronoun, "each one carries …"), so these pair a figure
with the window's figure for the same thing where the claim as a whole would not count as about the window.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence

from ragaudit._text import LIGHT_WORDS, analyze
from ragaudit.slots import Quantity, Slots

MAX_FIGURES = 64
"""Figures of a claim or a window compared at most (bounded work: at most 64 × 64 pairs)."""
_CONTEXT_WORDS = 3
"""Content words after a figure that say what it measures ("£3.50 *transfer fee*", "24 hours *before arrival*")."""


def _figure_contexts(text: str, quantities: Sequence[Quantity]) -> list[set[str]]:
    """For each figure, the stems of the first content words after it (up to the next figure)."""
    terms = analyze(text)
    starts = [t.start for t in terms]
    out: list[set[str]] = []
    for q in quantities[:MAX_FIGURES]:
        words: set[str] = set()
        k = bisect.bisect_left(starts, q.end)
        while k < len(terms) and len(words) < _CONTEXT_WORDS and terms[k].kind != "num":
            if terms[k].kind == "word" and terms[k].key not in LIGHT_WORDS:
                words.add(terms[k].key)
            k += 1
        out.append(words)
    return out


def figure_words(text: str, quantities: Sequence[Quantity]) -> list[tuple[frozenset[str], frozenset[str]]]:
    """For each figure, the stems of the content words after it (what it counts: "84 *regular weekly classes*") and
    of those either side of it ("*hire income totalled* £31,460, *up*"), a few each way, never past another figure."""
    terms = analyze(text)
    starts = [t.start for t in terms]
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    for q in quantities[:MAX_FIGURES]:
        sides: list[frozenset[str]] = []
        for i, step, stop in (
            (bisect.bisect_left(starts, q.end), 1, len(terms)),
            (bisect.bisect_left(starts, q.start) - 1, -1, -1),
        ):
            words: list[str] = []
            while i != stop and len(words) < _CONTEXT_WORDS and terms[i].kind != "num":
                if terms[i].kind == "word" and terms[i].key not in LIGHT_WORDS:
                    words.append(terms[i].key)
                i += step
            sides.append(frozenset(words))
        out.append((sides[0], sides[0] | sides[1]))
    return out


def same_things(
    claim_text: str, claim: Sequence[Quantity], window_text: str, window: Sequence[Quantity]
) -> Iterator[tuple[Quantity, Quantity]]:
    """Pairs of a claim figure and a window figure that measure the same thing: two of the content words after
    each alike ("a £3.50 *transfer fee*", "a 3.5% *transfer fee*")."""
    if not claim or not window:
        return
    mine, theirs = _figure_contexts(claim_text, claim), _figure_contexts(window_text, window)
    for q, a in zip(claim[:MAX_FIGURES], mine, strict=False):
        for p, b in zip(window[:MAX_FIGURES], theirs, strict=False):
            if len(a & b) >= 2:
                yield q, p


def about_the_same_figure(claim_text: str, claim: Slots, window_text: str, window: Slots) -> bool:
    """Whether the window gives a figure of the claim's kind, or the claim's number, for the same thing as one of
    the claim's figures (a short claim whose other words the window does not share: "each carries a £3.50
    transfer fee" against "with a 3.5% transfer fee")."""
    return any(
        q.dimension == p.dimension or q.raw == p.raw
        for q, p in same_things(claim_text, claim.quantities, window_text, window.quantities)
    )
