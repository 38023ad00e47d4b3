"""A least-recently-used cache of a function of one text, bounded by the characters it keeps.

``functools.lru_cache`` bounds entries, not size: keyed by whole source texts (up to 2,000,000
characters each), a few hundred entries held gigabytes (issue 11). Here the keys' characters are
counted, a text longer than the whole bound is computed and not kept, and the least recently used
entries leave once the bound is passed. Values are assumed to grow with their text (slots, word sets).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")


class CacheInfo(NamedTuple):
    """What a :class:`TextCache` holds (``currsize`` as in ``functools.lru_cache``)."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    chars: int
    max_chars: int


class TextCache(Generic[T]):
    """``function(text)``, cached: at most ``max_entries`` texts and ``max_chars`` characters of them."""

    def __init__(self, function: Callable[[str], T], *, max_chars: int, max_entries: int) -> None:
        self.function = function
        self.max_chars = max_chars
        self.max_entries = max_entries
        self._entries: OrderedDict[str, T] = OrderedDict()
        self._chars = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()
        functools.update_wrapper(self, function)

    def __call__(self, text: str) -> T:
        with self._lock:
            if text in self._entries:
                self._entries.move_to_end(text)
                self._hits += 1
                return self._entries[text]
            self._misses += 1
        value = self.function(text)
        if len(text) > self.max_chars:
            return value
        with self._lock:
            if text not in self._entries:
                self._entries[text] = value
                self._chars += len(text)
            while self._chars > self.max_chars or len(self._entries) > self.max_entries:
                dropped, _ = self._entries.popitem(last=False)
                self._chars -= len(dropped)
        return value

    def cache_clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()
            self._chars = 0

    def cache_info(self) -> CacheInfo:
        """Hits, misses, bounds and what is held now."""
        with self._lock:
            return CacheInfo(
                self._hits, self._misses, self.max_entries, len(self._entries), self._chars, self.max_chars
            )


def text_cache(*, max_chars: int, max_entries: int) -> Callable[[Callable[[str], T]], TextCache[T]]:
    """Decorator: cache a function of one text within ``max_chars`` characters and ``max_entries`` texts."""

    def wrap(function: Callable[[str], T]) -> TextCache[T]:
        return TextCache(function, max_chars=max_chars, max_entries=max_entries)

    return wrap
