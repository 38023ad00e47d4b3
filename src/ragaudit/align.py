"""Stage 2: index the sources and find each claim's best verbatim evidence.

Sources are cut into units with exact offsets: sentences of prose, rows of a table (read with
their header), leaves of a JSON record (read with their key path, so ``"OutdoorSeating": false``
reads as "outdoor seating" negated). Claims and units meet through the normalised terms of
:mod:`ragaudit._text`; units are ranked by the weighted share of the claim's terms they hold,
alone or with their neighbour, and the best few that together cover the claim become evidence.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from rapidfuzz import fuzz
from rapidfuzz import process as rf_process

from ragaudit._budget import EVERYTHING, Focus, focus_ranges
from ragaudit._text import (
    CERTAINTY,
    HEDGES,
    LIGHT_WORDS,
    QUANTIFIERS,
    Term,
    analyze,
    content_keys,
    name_keys,
    split_camel,
)
from ragaudit.models import Claim, Evidence, Source
from ragaudit.segment import sentence_spans

_FALSE_VALUES = frozenset({"false", "no", "none", "null", "0", "n/a"})
_LONG_STRING = 160
"""JSON string values longer than this are split into sentences."""


_SCOPE = 4
"""How many content terms after a negation or quantifier it governs."""


@dataclass(frozen=True, slots=True)
class Cues:
    """Polarity, quantifier and certainty cues of a piece of text, with what they govern."""

    negated: bool
    negated_keys: frozenset[str]
    """Content keys within the scope of a negation ("not *open on Sundays*")."""
    negated_heads: frozenset[str]
    """The first content key after each negation: the word it denies ("not *open*")."""
    quantified: frozenset[tuple[str, str]]
    """(quantifier class, the content key it applies to), e.g. ("all", "patient")."""
    hedged: bool
    certain: bool

    @staticmethod
    def of(terms: Sequence[Term], text: str) -> Cues:
        """Read the cues off ``terms`` (and the raw ``text`` for hedges)."""
        lowered = set(re.findall(r"[a-z']+", text.lower()))
        negated_keys: set[str] = set()
        negated_heads: set[str] = set()
        quantified: set[tuple[str, str]] = set()
        for i, term in enumerate(terms):
            word = text[term.start : term.end].lower()
            if term.kind == "neg" or word in QUANTIFIERS:
                following = [t.key for t in terms[i + 1 : i + 1 + 2 * _SCOPE] if t.kind in ("word", "num", "time")]
                if term.kind == "neg":
                    negated_keys.update(following[:_SCOPE])
                    negated_heads.update(following[:1])
                if word in QUANTIFIERS and following and word != "no":
                    quantified.add((QUANTIFIERS[word], following[0]))
        return Cues(
            negated=sum(1 for t in terms if t.kind == "neg") % 2 == 1,
            negated_keys=frozenset(negated_keys),
            negated_heads=frozenset(negated_heads),
            quantified=frozenset(quantified),
            hedged=bool(lowered & HEDGES),
            certain=bool(lowered & CERTAINTY),
        )


@dataclass(frozen=True, slots=True)
class Unit:
    """One retrievable piece of a source with exact offsets."""

    source_id: str
    start: int
    end: int
    keys: frozenset[str]
    """Normalised content terms, including any key path or table header it is read with."""
    numbers: frozenset[str]
    entities: frozenset[str]
    cues: Cues
    index: int
    """Position among its source's units (neighbours are ``index ± 1``)."""
    leaf: bool = False
    """A single field of a structured record (claims often combine several)."""
    text: str = ""
    """The unit's own text (``source.text[start:end]``)."""


@dataclass
class SourceIndex:
    """All units of a request's sources, with an inverted index for retrieval."""

    sources: list[Source]
    units: list[Unit] = field(default_factory=list)
    postings: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    vocabulary: set[str] = field(default_factory=set)
    bigrams: set[tuple[str, str]] = field(default_factory=set)
    numbers: set[str] = field(default_factory=set)
    examined: int = 0
    """Source characters indexed: all of them unless the request was over the indexing budget."""

    @cached_property
    def word_vocabulary(self) -> list[str]:
        """Word keys (no numbers or times), sorted, for fuzzy look-ups."""
        return sorted(k for k in self.vocabulary if k[0] not in "#@" and len(k) >= 4)

    @cached_property
    def entities(self) -> frozenset[str]:
        """Keys written capitalised mid-sentence somewhere in the sources (names)."""
        return frozenset().union(*(u.entities for u in self.units))

    @cached_property
    def lowercase_keys(self) -> frozenset[str]:
        """Keys the sources write in lower case somewhere (so they are not names)."""
        return frozenset(
            t.key for s in self.sources for t in analyze(s.text) if t.kind == "word" and s.text[t.start].islower()
        )

    @cached_property
    def by_id(self) -> dict[str, Source]:
        """Sources keyed by id."""
        return {s.id: s for s in self.sources}

    def weight(self, key: str) -> float:
        """Inverse document frequency of ``key`` over units; numbers count more, generic words less."""
        df = len(self.postings.get(key, ()))
        idf = math.log((len(self.units) + 1) / (df + 1)) + 1.0
        if key[0] in "#@":
            return idf * 1.5
        return idf * (0.25 if key in LIGHT_WORDS else 1.0)


def _unit(source_id: str, text: str, start: int, end: int, index: int, context: str = "") -> Unit:
    body = text[start:end]
    terms = analyze(body)
    ctx_terms = analyze(context) if context else []
    keys = content_keys(terms) + content_keys(ctx_terms)
    cues = Cues.of(terms, body)
    return Unit(
        source_id=source_id,
        start=start,
        end=end,
        keys=frozenset(keys),
        numbers=frozenset(k for k in keys if k[0] in "#@"),
        entities=frozenset(name_keys(terms, body)),
        cues=cues,
        index=index,
        text=body,
    )


MAX_UNIT_CHARS = 2_000
"""A longer sentence (no full stop in kilobytes of text) is cut at spaces into pieces this long."""


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` cut at the last space before every :data:`MAX_UNIT_CHARS` characters."""
    while end - start > MAX_UNIT_CHARS:
        cut = text.rfind(" ", start + MAX_UNIT_CHARS // 2, start + MAX_UNIT_CHARS)
        cut = cut if cut > start else start + MAX_UNIT_CHARS
        yield start, cut
        start = cut
    yield start, end


def _prose_units(source: Source, focus: Focus = EVERYTHING) -> list[Unit]:
    text = source.text
    spans = [
        piece
        for a, b in focus.clip(0, len(text))
        for s, e in sentence_spans(text[a:b], base=a)
        for piece in _pieces(text, s, e)
    ]
    return [_unit(source.id, text, s, e, i) for i, (s, e) in enumerate(spans)]


def _table_units(source: Source, focus: Focus = EVERYTHING) -> list[Unit] | None:
    """Rows of a pipe or tab table, each read with the header row."""
    lines = [m for m in re.finditer(r"[^\n]+", source.text) if m.group().strip()]
    sep = "|" if sum("|" in m.group() for m in lines) >= max(2, len(lines) * 0.6) else None
    if sep is None and sum("\t" in m.group() for m in lines) >= max(2, len(lines) * 0.6):
        sep = "\t"
    if sep is None:
        return None
    header = " ".join(c.strip() for c in lines[0].group().split(sep))
    units: list[Unit] = []
    rows = 0
    for i, m in enumerate(lines):
        inside = focus.overlaps(m.start(), m.end())
        if (rows and not inside) or re.fullmatch(r"[\s|:+-]*", m.group()):
            continue  # a row not read counts only until the table is known to have rows
        rows += 1
        if not inside:
            continue
        # Each row is read with the header row, so "Price | 5" reads as "price 5".
        context = header if i else ""
        units.append(_unit(source.id, source.text, m.start(), m.end(), len(units), context))
    return units if rows else None


def _json_leaves(value: object, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], object]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_leaves(v, (*path, str(k)))
    elif isinstance(value, list):
        for v in value:
            yield from _json_leaves(v, path)
    else:
        yield path, value


def _json_units(source: Source, focus: Focus = EVERYTHING) -> list[Unit] | None:
    """Leaves of a JSON record, located in the raw text, each read with its key path."""
    text = source.text
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        data = json.loads(text)
        leaves = list(_json_leaves(data))
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to walk: read it as text
        return None
    units: list[Unit] = []
    cursor = 0
    located = 0
    for path, leaf in leaves:
        if path:
            found = text.find(json.dumps(path[-1]), cursor)
            if found < 0:
                found = text.find(json.dumps(path[-1], ensure_ascii=False), cursor)
            key_pos = found if found >= 0 else cursor
        else:
            key_pos = cursor
        candidates = [json.dumps(leaf), json.dumps(leaf, ensure_ascii=False)]
        if isinstance(leaf, bool) or leaf is None:
            candidates = ["true" if leaf else "false" if leaf is not None else "null"]
        pos, raw = -1, ""
        for candidate in candidates:
            pos = text.find(candidate, key_pos)
            if pos >= 0:
                raw = candidate
                break
        if pos < 0:
            continue
        cursor = value_end = pos + len(raw)
        located += 1
        long_text = isinstance(leaf, str) and len(leaf) > _LONG_STRING
        if not long_text and not focus.overlaps(key_pos, value_end):
            continue  # located (the next key is looked for after it), not read
        # "RestaurantsTakeOut" reads as "restaurants take out" and also "takeout".
        parts = split_camel(path[-1]).split() if path else []
        key_words = (
            f"{' '.join(split_camel(p) for p in path[-2:])} {' '.join(a + b for a, b in itertools.pairwise(parts))}"
        )
        value_text = "" if isinstance(leaf, bool) or leaf is None else str(leaf)
        negated = leaf is False or (isinstance(leaf, str) and leaf.strip().lower() in _FALSE_VALUES)
        if long_text:
            # A long text field (a review, a description): one unit per sentence inside the string.
            for a, b in focus.clip(pos + 1, value_end - 1):
                for s, e in sentence_spans(text[a:b], base=a):
                    for piece in _pieces(text, s, e):
                        units.append(_unit(source.id, text, *piece, len(units), key_words))
            continue
        context = f"{key_words} {value_text}".strip()
        unit = _unit(source.id, text, key_pos, value_end, len(units), context)
        if negated:
            # "OutdoorSeating": false states that the whole attribute does not hold.
            keys = unit.keys - {"fals", "null", "none"}
            attribute = frozenset(content_keys(analyze(split_camel(path[-1])))) if path else frozenset()
            cues = Cues(True, keys, attribute, unit.cues.quantified, unit.cues.hedged, unit.cues.certain)
            unit = dataclasses.replace(unit, keys=keys, cues=cues)
        units.append(dataclasses.replace(unit, leaf=True))
    return units if located else None


def _units(source: Source, focus: Focus = EVERYTHING) -> list[Unit]:
    """A JSON record's leaves, else a table's rows, else sentences (only those ``focus`` keeps)."""
    units = _json_units(source, focus)
    if units is None:
        units = _table_units(source, focus)
    return _prose_units(source, focus) if units is None else units


def build_index(sources: Sequence[Source], *, focus: str = "", max_chars: int | None = None) -> SourceIndex:
    """Cut every source into units and index their terms.

    With ``max_chars`` below the sources' length, only passages of at most that many characters
    together are read (those sharing most rare words with ``focus``, the answer: see
    :func:`ragaudit._budget.focus_ranges`); ``index.sources`` then holds the sources with every
    other character blanked (offsets unchanged), and ``index.examined`` counts what was read.
    """
    total = sum(len(s.text) for s in sources)
    if max_chars is None or total <= max_chars:
        index = SourceIndex(sources=list(sources), examined=total)
        for source in sources:
            index.units.extend(_units(source))
    else:
        focuses = focus_ranges([s.text for s in sources], focus, max_chars)
        index = SourceIndex(
            sources=[
                Source.model_construct(id=s.id, text=f.mask(s.text)) for s, f in zip(sources, focuses, strict=True)
            ]
        )
        for source, part in zip(sources, focuses, strict=True):
            if part.ranges:
                index.units.extend(_units(source, part))
        index.examined = sum(f.chars for f in focuses)
    for i, unit in enumerate(index.units):
        for key in unit.keys:
            index.postings[key].append(i)
        index.vocabulary.update(unit.keys)
        index.numbers.update(unit.numbers)
    # Past the budget, only what was read counts (analysing the blanked megabytes costs as much as reading them).
    groups = itertools.groupby(index.units, key=lambda u: u.source_id)
    read = [" ".join(u.text for u in g) for _, g in groups] if index.examined < total else [s.text for s in sources]
    for text in read:
        index.bigrams.update(itertools.pairwise(content_keys(analyze(text))))
    return index


@dataclass(slots=True)
class Alignment:
    """A claim's terms and the units that best cover them."""

    claim: Claim
    keys: list[str]
    """The claim's content keys, in order, duplicates removed."""
    weights: dict[str, float]
    best: list[Unit]
    """Best unit first, then a neighbour and other units that add coverage."""
    best_coverage: float
    """Weighted share of claim keys in the best unit (with its best neighbour)."""
    union_coverage: float
    """Weighted share of claim keys in all chosen units together."""
    global_coverage: float
    """Weighted share of claim keys found anywhere in the sources."""
    missing: list[str]
    """Claim keys found in no chosen unit."""
    terms: list[Term]
    cues: Cues
    ranked: tuple[int, ...] = ()
    """Positions in the index of the units sharing most of the claim's weight, best first (at most 20)."""

    def evidence(self, index: SourceIndex, relation: str = "supports") -> list[Evidence]:
        """The chosen units as verbatim evidence spans."""
        spans = []
        for unit in self.best:
            text = index.by_id[unit.source_id].text
            spans.append(
                Evidence(
                    source_id=unit.source_id,
                    start=unit.start,
                    end=unit.end,
                    quote=text[unit.start : unit.end],
                    relation=relation,
                )
            )
        return spans


def _coverage(keys: set[str] | frozenset[str], claim_keys: list[str], weights: dict[str, float]) -> float:
    total = sum(weights.values()) or 1.0
    return sum(weights[k] for k in claim_keys if k in keys) / total


def _spelling_variant(key: str, index: SourceIndex) -> str:
    """A source key that is a spelling variant of ``key`` (ambiance/ambience, wifi/wi-fi), else ``key``."""
    if key in index.vocabulary or len(key) < 5 or key[0] in "#@":
        return key
    match = rf_process.extractOne(key, index.word_vocabulary, scorer=fuzz.ratio, score_cutoff=84)
    return str(match[0]) if match else key


def align(
    claim: Claim, index: SourceIndex, *, max_units: int = 3, presupposed: frozenset[str] = frozenset()
) -> Alignment:
    """Find the units of ``index`` that best support ``claim`` (twice as many for record fields).

    ``presupposed`` keys (the question's words) are not counted against the claim when no
    source has them: restating the question adds no new fact.
    """
    terms = analyze(claim.text)
    terms = [
        t if t.kind != "word" else Term(_spelling_variant(t.key, index), t.kind, t.start, t.end, t.capital)
        for t in terms
    ]
    keys = [k for k in dict.fromkeys(content_keys(terms)) if k in index.vocabulary or k not in presupposed]
    weights = {k: index.weight(k) for k in keys}
    cues = Cues.of(terms, claim.text)
    candidate_hits: dict[int, float] = defaultdict(float)
    for k in keys:
        for i in index.postings.get(k, ()):
            candidate_hits[i] += weights[k]
    total = sum(weights.values()) or 1.0
    if not candidate_hits:
        return Alignment(claim, keys, weights, [], 0.0, 0.0, 0.0, list(keys), terms, cues)
    ranked = sorted(candidate_hits, key=lambda i: (-candidate_hits[i], i))[:20]
    best_i = ranked[0]
    best_score = candidate_hits[best_i] / total
    chosen = [index.units[best_i]]
    covered = set(index.units[best_i].keys)
    # A claim often spans a sentence and its neighbour; take the neighbour that adds the most.
    neighbours = [
        index.units[j]
        for j in (best_i - 1, best_i + 1)
        if 0 <= j < len(index.units) and index.units[j].source_id == chosen[0].source_id
    ]
    pair_best = best_score
    for unit in neighbours:
        gain = _coverage(covered | unit.keys, keys, weights)
        if gain > pair_best + 0.1:
            pair_best = gain
            chosen.append(unit)
            covered |= unit.keys
            break
    # Then other units anywhere that cover what is still missing (multi-source claims).
    limit = max_units * 2 if chosen[0].leaf else max_units
    for i in ranked[1:]:
        if len(chosen) >= limit:
            break
        unit = index.units[i]
        if unit in chosen:
            continue
        gain = _coverage(covered | unit.keys, keys, weights) - _coverage(covered, keys, weights)
        if gain >= 0.08:
            chosen.append(unit)
            covered |= unit.keys
    union = _coverage(covered, keys, weights)
    global_cov = _coverage(index.vocabulary, keys, weights)
    missing = [k for k in keys if k not in covered]
    return Alignment(claim, keys, weights, chosen, pair_best, union, global_cov, missing, terms, cues, tuple(ranked))
