"""A bounded, size-aware cache of source indexes, shareable between auditors and threads."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from ragaudit.align import SourceIndex
from ragaudit.models import Source

DEFAULT_MAX_CHARS = 4_000_000
"""Source characters kept indexed (an index costs roughly 80 bytes of memory per character)."""
DEFAULT_MAX_ENTRIES = 256


_shared: IndexCache | None = None
_shared_lock = threading.Lock()


def shared_index_cache() -> IndexCache:
    """The process-wide cache every :class:`~ragaudit.Auditor` uses unless given its own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = IndexCache()
        return _shared


def sources_key(sources: Sequence[Source]) -> str:
    """A digest of the ids and texts, in order (the cache holds no second copy of the texts)."""
    digest = hashlib.sha256()
    for s in sources:
        for part in (s.id, s.text):
            data = part.encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)
    return digest.hexdigest()


class IndexCache:
    """Least-recently-used source indexes, bounded by total source characters and by count.

    Args:
        max_chars: Most source characters indexed at once; an index larger than this is built and
            used but not kept.
        max_entries: Most indexes kept.

    Example:
        >>> cache = IndexCache(max_chars=1_000)
        >>> index = cache.get([Source(id="1", text="Paris is in France.")])
        >>> cache.chars, len(cache)
        (19, 1)
    """

    def __init__(self, *, max_chars: int = DEFAULT_MAX_CHARS, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self.max_chars = max_chars
        self.max_entries = max_entries
        self.chars = 0
        self._entries: OrderedDict[str, tuple[SourceIndex, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(
        self, sources: Sequence[Source], build: Callable[[Sequence[Source]], SourceIndex] | None = None
    ) -> SourceIndex:
        """The index of ``sources``, from the cache or built (and kept when it fits)."""
        from ragaudit.align import build_index

        key = sources_key(sources)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found[0]
        index = (build or build_index)(sources)
        size = sum(len(s.text) for s in sources)
        if size > self.max_chars:
            return index
        with self._lock:
            if key not in self._entries:
                self._entries[key] = (index, size)
                self.chars += size
            while self.chars > self.max_chars or len(self._entries) > self.max_entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.chars -= dropped
        return index
