"""Source indexes are cached within a size bound, shared between auditors (issue 11, row 3)."""

from __future__ import annotations

from ragaudit import Auditor, IndexCache, Source
from ragaudit._text import _analyze_cached, analyze


def sources(tag: str, chars: int) -> list[Source]:
    sentence = f"The {tag} plant opened in 2012 and employs many people. "
    return [Source(id="1", text=(sentence * (chars // len(sentence) + 1))[:chars])]


def test_the_cache_is_bounded_by_source_characters() -> None:
    cache = IndexCache(max_chars=2_500)
    for tag in ("north", "south", "east"):
        cache.get(sources(tag, 1_000))
    assert len(cache) == 2 and cache.chars == 2_000
    cache.get(sources("west", 5_000))  # larger than the whole cache: built, used, not kept
    assert len(cache) == 2 and cache.chars <= 2_500


def test_a_cached_index_is_reused() -> None:
    cache = IndexCache()
    first = cache.get(sources("north", 500))
    assert cache.get(sources("north", 500)) is first


def test_auditors_with_different_options_share_one_cache() -> None:
    cache = IndexCache()
    request = {"answer": "The north plant opened in 2012.", "sources": [s.model_dump() for s in sources("north", 800)]}
    Auditor(index_cache=cache).audit(request)
    Auditor(claim_types=["temporal"], index_cache=cache).audit(request)
    Auditor(risk_level="high", index_cache=cache).audit(request)
    assert len(cache) == 1


def test_whole_sources_are_not_kept_by_the_term_cache() -> None:
    """analyze() of a whole 1 MB source used to stay in an unbounded-size LRU cache."""
    before = _analyze_cached.cache_info().currsize
    analyze(sources("big", 50_000)[0].text)
    assert _analyze_cached.cache_info().currsize == before
