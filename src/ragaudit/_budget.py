"""Work budgets per request: how much of a huge request is examined, and how the report says so.

Requests within the documented limits can still be large (an answer of 100,000 characters holds
over a thousand claims; sources reach 2,000,000 characters). Past these budgets an audit examines
a bounded part (:attr:`ragaudit.config.Limits.checked_claims`, :attr:`~ragaudit.config.Limits.indexed_chars`),
and embeds a bounded number of texts and tokens (:class:`EmbeddingBudget`); the report's note
names what was left out; nothing left out counts as support.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

from ragaudit._text import STOPWORDS

NOT_CHECKED = "budget"
"""``decided_by`` of a claim the audit did not check."""

_WORD_RE = re.compile(r"[^\W_]+")
_PASSAGE_RE = re.compile(r"[^.!?\n]+[.!?]*")
"""A sentence, roughly (no abbreviations): what the budget chooses among, before real splitting."""
_PASSAGE_CHARS = 2_000


@dataclass(frozen=True, slots=True)
class Focus:
    """The parts of one source an audit reads: sorted, disjoint ``(start, end)`` ranges, or all of it."""

    ranges: tuple[tuple[int, int], ...] | None = None
    """``None``: the whole source."""

    @property
    def chars(self) -> int:
        """Characters read (only for a focus with ranges)."""
        return sum(b - a for a, b in self.ranges or ())

    def clip(self, start: int, end: int) -> list[tuple[int, int]]:
        """The parts of ``[start, end)`` to read."""
        if self.ranges is None:
            return [(start, end)]
        ranges = self.ranges
        out = []
        # Indexed, not sliced: a table's rows ask this of thousands of ranges, row by row.
        for k in range(max(0, bisect.bisect_right(ranges, (start, start)) - 1), len(ranges)):
            a, b = ranges[k]
            if a >= end:
                break
            if b > start:
                out.append((max(a, start), min(b, end)))
        return out

    def overlaps(self, start: int, end: int) -> bool:
        """Whether any of ``[start, end)`` is read."""
        return bool(self.clip(start, end))

    def mask(self, text: str) -> str:
        """``text`` with every character not read replaced by a space (same length, same offsets)."""
        if self.ranges is None:
            return text
        parts, cursor = [], 0
        for a, b in self.ranges:
            parts += [" " * (a - cursor), text[a:b]]
            cursor = b
        parts.append(" " * (len(text) - cursor))
        return "".join(parts)


EVERYTHING = Focus()


def _passages(text: str) -> Iterator[tuple[int, int]]:
    for m in _PASSAGE_RE.finditer(text):
        start, end = m.span()
        while end - start > _PASSAGE_CHARS:
            yield start, start + _PASSAGE_CHARS
            start += _PASSAGE_CHARS
        yield start, end


def focus_ranges(texts: list[str], answer: str, max_chars: int) -> list[Focus]:
    """What to read of each text: passages, best first by the rarity-weighted sum of ``answer``'s
    words they hold, up to ``max_chars`` characters in all; passages sharing none are left out.

    >>> text = "Paris is in France. Cats sleep. Paris has a river."
    >>> focus_ranges([text], "Paris lies in France.", 30)
    [Focus(ranges=((0, 19),))]
    """
    wanted = {w for w in _WORD_RE.findall(answer.lower()) if w not in STOPWORDS}
    spans = [(k, a, b) for k, text in enumerate(texts) for a, b in _passages(text)]
    # An ASCII text lowers letter by letter: lowered once, its passages are read in place (other
    # texts passage by passage: a final sigma, say, lowers by what follows it).
    lowered = [text.lower() if text.isascii() else None for text in texts]
    find = _WORD_RE.findall
    shared = [
        wanted.intersection(find(low, a, b) if (low := lowered[k]) is not None else find(texts[k][a:b].lower()))
        for k, a, b in spans
    ]
    df = Counter(chain.from_iterable(shared))
    idf = {w: math.log((len(spans) + 1) / (n + 1)) + 1.0 for w, n in df.items()}
    scores = [sum(map(idf.__getitem__, words)) for words in shared]
    chosen: list[list[tuple[int, int]]] = [[] for _ in texts]
    used = 0
    for _, j in sorted((-score, j) for j, score in enumerate(scores) if score > 0):
        k, a, b = spans[j]
        if used + b - a <= max_chars:
            chosen[k].append((a, b))
            used += b - a
    return [Focus(_merged(texts[k], sorted(ranges))) for k, ranges in enumerate(chosen)]


def _merged(text: str, ranges: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Ranges with only whitespace between them joined (so sentences are split as in the whole text)."""
    out: list[tuple[int, int]] = []
    for a, b in ranges:
        if out and not text[out[-1][1] : a].strip():
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return tuple(out)


def claims_note(checked: int, total: int) -> str:
    """What the report says when only the first ``checked`` of ``total`` claims were checked."""
    return (
        f"Only the first {checked:,} of {total:,} claims were checked (the per-request budget); "
        f"the other {total - checked:,} are reported unsupported, marked as not checked."
    )


def sources_note(examined: int, total: int) -> str:
    """What the report says when only ``examined`` of ``total`` source characters were indexed."""
    return (
        f"The sources hold {total:,} characters, over the per-request budget: only the passages sharing "
        f"most words with the answer ({examined:,} characters) were examined; a claim supported only "
        "elsewhere is reported unsupported."
    )


class EmbeddingBudget:
    """Model tokens one request may embed (:attr:`ragaudit.config.Limits.embedded_tokens`; ``None``: no
    bound), shared by the verifier and the checks: texts past it are compared by their words.

    A text is paid for once per request, whether or not an earlier request left its vector cached,
    so what fits does not depend on what was audited before.
    """

    def __init__(self, tokens: int | None = None) -> None:
        self.total = tokens if tokens is not None else 1 << 62
        self.left = self.total
        self._claims = 0
        """Tokens spent on claims: at most half the budget, so passages always have room."""
        self._paid: set[str] = set()

    def admit(self, texts: Sequence[str], *, claims: bool = False) -> list[int]:
        """Positions of the ``texts`` that fit in what is left, in order; their tokens are spent. A text
        that does not fit is passed over (a shorter one after it may still fit); one already paid
        for in this request costs nothing; ``claims`` spend at most half of the whole budget."""
        from ragaudit.embed import token_count  # the tokenizer loads only when something is embedded

        cap = min(self.left, self.total // 2 - self._claims) if claims else self.left
        admitted: list[int] = []
        for n, text in enumerate(texts):
            if text not in self._paid:
                cost = token_count(text)
                if cost > cap:
                    continue
                cap -= cost
                self.left -= cost
                self._claims += cost if claims else 0
                self._paid.add(text)
            admitted.append(n)
        return admitted
