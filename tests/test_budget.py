"""Work budgets per request (issue 11): bounded work at the size limits, and reports that say what was left out."""

from __future__ import annotations

import functools
import time

import pytest

from hostile_inputs import BASELINE, CASES, NAMES, prose
from ragaudit import Auditor
from ragaudit._budget import Focus, focus_ranges
from ragaudit._cache import IndexCache
from ragaudit.config import Limits

FILLER = "The council approved the annual budget for the river bridge. "


def test_claims_past_the_budget_are_reported_unsupported_and_not_checked() -> None:
    answer = " ".join(f"Paris has {n} bridges." for n in range(5))
    sources = [" ".join(f"Paris has {n} bridges." for n in range(5))]
    report = Auditor(limits=Limits(checked_claims=3)).audit(answer, sources)
    assert [c.status for c in report.claims[:3]] == ["supported"] * 3
    skipped = report.claims[3:]
    assert len(skipped) == 2 and all(c.status == "unsupported" and c.decided_by == "budget" for c in skipped)
    assert all("Not checked" in c.explanation for c in skipped)
    assert report.label == "hallucinated"  # never faithful on claims nobody checked
    assert report.note is not None and "first 3 of 5 claims" in report.note


def test_sources_past_the_budget_are_read_where_the_answer_points() -> None:
    fact = "The Lakeside plant opened in 1990 and employs 1,200 people. "
    text = FILLER * 2_000 + fact + FILLER * 2_000
    report = Auditor(limits=Limits(indexed_chars=5_000), index_cache=IndexCache()).audit(
        "The Lakeside plant opened in 1990.", [text]
    )
    claim = report.claims[0]
    assert claim.status == "supported"
    quote = claim.evidence[0]
    assert text[quote.start : quote.end] == quote.quote and "1990" in quote.quote  # offsets into the real text
    assert report.note is not None and "only the passages" in report.note and f"{len(text):,}" in report.note


def test_a_claim_supported_only_outside_the_budget_is_not_called_supported() -> None:
    text = "The Lakeside plant opened in 1990. " + FILLER * 400
    report = Auditor(limits=Limits(indexed_chars=100), index_cache=IndexCache()).audit(
        "The council approved the annual budget for the river bridge.", [text]
    )
    assert report.note is not None and "only the passages" in report.note
    assert report.claims[0].status in ("supported", "partially_supported")  # the filler itself was read
    report = Auditor(limits=Limits(indexed_chars=40), index_cache=IndexCache()).audit(
        "The Lakeside plant opened in 1990 and the council approved the annual budget for the river bridge.",
        [text],
    )
    assert report.label == "hallucinated" or report.note is not None


def test_focus_prefers_rare_shared_words_and_keeps_offsets() -> None:
    text = FILLER * 50 + "Acme Corp was founded in 1985 in Norwood. " + FILLER * 50
    [focus] = focus_ranges([text], "Acme Corp was founded in 1985.", 200)
    assert focus.ranges is not None and len(focus.ranges) >= 1
    start, end = focus.ranges[0]
    assert "Acme Corp" in text[start:end]
    masked = focus.mask(text)
    assert len(masked) == len(text) and masked[start:end] == text[start:end] and not masked[:start].strip()


def test_focus_clip_reads_the_parts_of_a_span_that_its_ranges_keep() -> None:
    focus = Focus(((0, 5), (10, 20), (30, 31), (40, 60)))
    kept = {i for a, b in focus.ranges or () for i in range(a, b)}
    for start in range(0, 70, 3):
        for end in range(start, 70, 7):
            clipped = focus.clip(start, end)
            assert {i for a, b in clipped for i in range(a, b)} == kept & set(range(start, end))
            assert focus.overlaps(start, end) == bool(clipped)


def test_focus_reads_non_ascii_passages_as_written() -> None:
    # A capital sigma lowers by what follows it: ASCII texts are lowered whole, others passage by passage.
    texts = ["ΟΔΟΣ.Σx is a street. " + FILLER * 5, "Acme was founded in 1985. " + FILLER * 5]
    ranges = [f.ranges for f in focus_ranges(texts, "οδος acme 1985", 60)]
    assert ranges == [((0, 5),), ((0, 25),)]  # "ΟΔΟΣ." read alone ends in a final sigma


def _cpu(request: dict[str, object]) -> float:
    """CPU seconds of one audit by a fresh auditor (other load on the machine does not count)."""
    auditor = Auditor(judge="offline:no-embeddings", index_cache=IndexCache())
    t0 = time.process_time()
    auditor.audit(request)
    return time.process_time() - t0


@functools.cache
def _baseline() -> float:
    Auditor(judge="offline:no-embeddings").audit("Paris is big.", ["Paris is big."])  # warm
    return _cpu(CASES[BASELINE]())


AT_THE_LIMITS = [name for name in CASES if name != BASELINE]


@pytest.mark.slow
@pytest.mark.parametrize("name", AT_THE_LIMITS)
def test_hostile_audits_at_the_size_limits_cost_at_most_four_times_a_tenth_of_them(name: str) -> None:
    """Budgets bound the work: ten times the input must not cost ten times (it cost 10-50x before).

    Measured 0.1-2.1x; 4x leaves room for CPU-time noise on a loaded machine (about ±25%)."""
    took, base = _cpu(CASES[name]()), _baseline()
    assert took <= 4 * base, f"{name}: {took:.2f}s CPU vs {base:.2f}s for a benign tenth of the limits"


def test_text_caches_are_bounded_by_the_characters_they_keep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caches keyed by whole source texts held megabytes per distinct large request (service RSS grew)."""
    from ragaudit import _mentions, slots

    for cache in (slots.extract, _mentions.index_words):
        cache.cache_clear()
        monkeypatch.setattr(cache, "max_chars", 200_000)
    auditor = Auditor(index_cache=IndexCache())
    texts = [prose(150_000, i) for i in range(3)]
    for text in texts:
        auditor.audit("The plant opened in 1900.", [text])
        for cache in (slots.extract, _mentions.index_words):
            assert cache.cache_info().chars <= 200_000
    # The least recently used text leaves; a text over the whole bound is never kept.
    slots.extract.cache_clear()
    slots.extract(texts[0]), slots.extract(texts[1])
    info = slots.extract.cache_info()
    slots.extract(texts[1])
    assert slots.extract.cache_info().hits == info.hits + 1
    slots.extract(texts[0])
    assert slots.extract.cache_info().misses == info.misses + 1
    slots.extract("x" * 200_001)
    assert slots.extract.cache_info().chars <= 200_000


def _embedded(limits: Limits, monkeypatch: pytest.MonkeyPatch) -> int:
    """Texts the verifier embeds for 12 claims against some 200 passages (over a small index's 24)."""
    import ragaudit._windows
    import ragaudit.verify

    seen: list[str] = []
    verifying = [False]
    real, verify = ragaudit.verify.embed, ragaudit.verify.Verifier.verify

    def counting(texts: list[str]) -> object:
        seen.extend(texts if verifying[0] else [])
        return real(texts)

    def verifier(*args: object, **kwargs: object) -> object:
        verifying[0] = True
        try:
            return verify(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            verifying[0] = False

    monkeypatch.setattr(ragaudit.verify, "embed", counting)  # the claims
    monkeypatch.setattr(ragaudit._windows, "embed", counting)  # the passages
    monkeypatch.setattr(ragaudit.verify.Verifier, "verify", verifier)
    sources = [prose(6_000, seed) for seed in range(3)]  # distinct sentences: each claim has its own neighbours
    answer = " ".join(sources[k % 3].split(". ")[k] + "." for k in range(12))
    Auditor(limits=limits, index_cache=IndexCache()).audit(answer, sources)
    return len(seen)


def test_the_embedding_budgets_bound_the_texts_the_verifier_embeds(monkeypatch: pytest.MonkeyPatch) -> None:
    import ragaudit.verify
    from ragaudit.config import SMALL_INDEX_UNITS

    assert ragaudit.verify._ALL_UNITS == SMALL_INDEX_UNITS  # the budget leaves room for a small index
    unbounded = _embedded(Limits(), monkeypatch)
    assert unbounded > 12 * 2 + 24  # 12 claims, then the passages near each
    assert _embedded(Limits(embedded_texts=20), monkeypatch) == 20
    # 12 claims × (1 + 1) + 24: the budget follows the claims checked.
    assert _embedded(Limits(embedded_per_claim=1), monkeypatch) == 12 * 2 + 24


def _tokens_embedded(
    limits: Limits, answer: str, sources: list[str], monkeypatch: pytest.MonkeyPatch, question: str | None = None
) -> int:
    """Model tokens of the distinct texts the verifier and every check embed for one audit."""
    import ragaudit._windows
    import ragaudit.checks._abstention
    import ragaudit.checks._needs
    import ragaudit.checks._support
    import ragaudit.verify
    from ragaudit.embed import token_count

    seen: set[str] = set()
    modules = (ragaudit.verify, ragaudit._windows, ragaudit.checks._support, ragaudit.checks._abstention)
    for module in (*modules, ragaudit.checks._needs):
        real = module.embed

        def counting(texts: list[str], real: object = real) -> object:
            seen.update(texts)
            return real(texts)  # type: ignore[operator]

        monkeypatch.setattr(module, "embed", counting)
    Auditor(limits=limits, index_cache=IndexCache()).audit(answer, sources, question)
    return sum(map(token_count, seen))


def test_the_token_budget_bounds_what_the_verifier_and_the_checks_embed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Long claims (one sentence of coordinated clauses) against long passages: the budget binds.
    sources = [prose(20_000, seed) for seed in range(3)]
    answer = prose(6_000, 1).replace(". ", ", and ")
    # A question of many asks: the abstention check embeds asks, answer spans and passages too.
    question = " ".join(f"When did the {name} plant open, and how many people work there?" for name in NAMES)
    unbounded = _tokens_embedded(Limits(embedded_tokens=10**6), answer, sources, monkeypatch, question)
    assert unbounded > 4_000
    for budget in (300, 1_000):
        assert 0 < _tokens_embedded(Limits(embedded_tokens=budget), answer, sources, monkeypatch, question) <= budget
    # An ordinary answer stays well within the default: its report is the one an unbounded budget gives.
    answer, source = "The plant opened in 1990 and employs 300 people.", prose(3_000, 5)
    default = Auditor(index_cache=IndexCache()).audit(answer, [source], "When did the plant open?")
    free = Auditor(limits=Limits(embedded_tokens=10**6), index_cache=IndexCache()).audit(
        answer, [source], "When did the plant open?"
    )
    assert default.claims == free.claims and default.abstention == free.abstention


def test_the_token_budget_passes_over_a_long_text_and_keeps_half_for_passages() -> None:
    from ragaudit._budget import EmbeddingBudget
    from ragaudit.embed import token_count

    long, short = "word " * 400, "The plant opened in 1990."
    tokens = EmbeddingBudget(2 * token_count(short) + 10)
    # A text that does not fit is passed over; the shorter ones after it still fit.
    assert tokens.admit([long, short, short]) == [1, 2]  # the repeat is paid once
    assert tokens.left == token_count(short) + 10
    claims = EmbeddingBudget(100)
    assert claims.admit(["a " * 30, "b " * 30], claims=True) == [0]  # 32 tokens each: the second passes half
    assert claims.admit(["a " * 30, "c " * 30]) == [0, 1]  # paid before: free; passages use the rest


def test_service_settings_set_the_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragaudit.errors import ConfigError
    from ragaudit.service.settings import ServiceSettings, check_settings

    for name, value in [
        ("CHECKED_CLAIMS", 2),
        ("INDEXED_CHARS", 500),
        ("EMBEDDED_TEXTS", 7),
        ("EMBEDDED_PER_CLAIM", 3),
        ("EMBEDDED_TOKENS", 500),
    ]:
        monkeypatch.setenv(f"RAGAUDIT_{name}", str(value))
    limits = ServiceSettings().auditor_config().limits
    assert (
        limits.checked_claims,
        limits.indexed_chars,
        limits.embedded_texts,
        limits.embedded_per_claim,
        limits.embedded_tokens,
    ) == (2, 500, 7, 3, 500)
    answer = " ".join(f"Paris has {n} bridges." for n in range(4))
    report = Auditor(ServiceSettings().auditor_config(), index_cache=IndexCache()).audit(answer, [FILLER * 20 + answer])
    assert [c.decided_by for c in report.claims].count("budget") == 2
    assert report.note is not None and "first 2 of 4 claims" in report.note and "characters, over the" in report.note
    monkeypatch.setenv("RAGAUDIT_EMBEDDED_TEXTS", "0")
    with pytest.raises(ConfigError, match="embedded_texts"):
        check_settings(ServiceSettings())
