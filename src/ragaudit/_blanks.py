"""Texts with long runs of spaces: what a source past the reading budget becomes (the passages not
read are blanked, offsets kept). Scanning megabytes of spaces with a token pattern or a phrase
search cost more than the words read (issue 11); these helpers skip the runs with the same result.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

BLANKS = " " * 64
"""A run this long holds no token and is part of no phrase the readers look for."""
_SPACES_RE = re.compile(r" +")


def finditer(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, skipping runs of 64 or more spaces.

    Exact for a pattern no match of which starts with a space or holds two in a row (a token, a
    clock time): no match starts in a run, and one that ends where a run starts ends there anyway.
    """
    return _skipping(pattern, text) if BLANKS in text else pattern.finditer(text)


def _skipping(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    pos = 0
    while pos < len(text):
        gap = text.find(BLANKS, pos)
        end = len(text) if gap < 0 else gap
        yield from pattern.finditer(text, pos, end)
        if gap < 0:
            return
        found = _SPACES_RE.match(text, gap)
        pos = found.end() if found else end + 1


def compact(text: str) -> str:
    """``text`` with every run of more than 64 spaces cut to 64 (a phrase search finds the same)."""
    parts: list[str] = []
    pos = 0
    while (gap := text.find(BLANKS, pos)) >= 0:
        found = _SPACES_RE.match(text, gap)
        parts += [text[pos:gap], BLANKS]
        pos = found.end() if found else gap + len(BLANKS)
    return "".join(parts) + text[pos:] if parts else text
