"""Synthesis errors: true parts combined falsely (an attribute of one row, item or subject given to another)."""

from __future__ import annotations

import bisect
import itertools
import math
import re
from dataclasses import dataclass

from ragaudit._text import LIGHT_WORDS, STOPWORDS, analyze
from ragaudit.align import SourceIndex, Unit
from ragaudit.checks._conflicts import Value, same, values
from ragaudit.models import Evidence, EvidenceRelation
from ragaudit.slots import extract


@dataclass(frozen=True, slots=True)
class SynthesisError:
    """An attribute the sources state about one subject, given by the claim to another."""

    explanation: str
    sources: list[str]
    evidence: list[Evidence]


_ITEM_RE = re.compile(r"\s*(?:[-*•]\s|\d+[.)]\s|\|)")
_ADDITIVE_NAMES = frozenset({"the", "a", "an"})


@dataclass(frozen=True, slots=True)
class Record:
    """One row of a table or one item of a list (with the sentences that follow it)."""

    source_id: str
    collection: int
    """Records of one table or list share this number."""
    units: tuple[Unit, ...]
    text: str
    keys: frozenset[str]


def records(index: SourceIndex) -> list[Record]:
    """The rows and list items of every source (header rows left out); prose is not a record."""
    out: list[Record] = []
    collection = 0
    current: list[Unit] = []
    previous_item = False

    def close() -> None:
        if current:
            text = " ".join(u.text for u in current)
            keys = frozenset().union(*(u.keys for u in current))
            out.append(Record(current[0].source_id, collection, tuple(current), text, keys))
            current.clear()

    for i, unit in enumerate(index.units):
        same_source = i > 0 and index.units[i - 1].source_id == unit.source_id
        item = bool(_ITEM_RE.match(unit.text))
        if item:
            close()
            if not (previous_item and same_source):
                collection += 1
                if unit.text.lstrip().startswith("|"):
                    previous_item = True
                    continue  # the header row names the columns, not an entity
            current.append(unit)
        elif current and same_source and not unit.text.lstrip().startswith("|") and not _row(current[0]):
            current.append(unit)  # a list item's further sentences (a table's notes after it are no row's)
        else:
            close()
        previous_item = item or (previous_item and same_source and bool(current))
    close()
    return out


def _row(unit: Unit) -> bool:
    return unit.text.lstrip().startswith("|")


def _plain(text: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


class _Texts:
    """Plain forms of some texts, joined once, so "which texts name X" is one substring search."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = [_plain(t) for t in texts]
        self.starts = list(itertools.accumulate((len(t) + 3 for t in self.texts), initial=0))[:-1]
        self.joined = "".join(f" {t} \n" for t in self.texts)

    def holding(self, name: str, most: int | None = None) -> list[int]:
        """Positions of the texts that name ``name`` (a plain form), in order; ``most`` at most."""
        found: list[int] = []
        needle = f" {name} "
        at = self.joined.find(needle)
        while at >= 0 and (most is None or len(found) < most):
            k = bisect.bisect_right(self.starts, at) - 1
            if not found or found[-1] != k:
                found.append(k)
            at = self.joined.find(needle, self.starts[k] + len(self.texts[k]) + 2)
        return found

    def any(self, name: str) -> bool:
        """Whether some text names ``name``."""
        return f" {name} " in self.joined


def _per_index(index: SourceIndex) -> tuple[list[Record], _Texts, _Texts]:
    """The records and the plain texts of records and units of ``index``, built once per index."""
    cached = index.__dict__.get("_synthesis")
    if cached is None:
        recs = records(index)
        cached = (recs, _Texts([r.text for r in recs]), _Texts([u.text for u in index.units]))
        index.__dict__["_synthesis"] = cached
    return cached


def _unit_values(index: SourceIndex, i: int, *, record: bool = False) -> tuple[Value, ...]:
    """The values unit ``i`` (or record ``i``) states, years included (:func:`values` caches them)."""
    return values(_per_index(index)[0][i].text if record else index.units[i].text, years=True)


def _mentions(context: str, record_texts: _Texts, *, first_word: bool = False) -> list[tuple[int, str]]:
    """Names in ``context`` (position, plain form) that some record also names."""
    found: list[tuple[int, str]] = []
    written_names = list(extract(context).names.values())
    # A capitalised first word alone ("Acme was founded …") is a name when the records have it.
    first = re.match(r"\s*([A-Z][\w'-]+)", context)
    if first_word and first and first.group(1).lower() not in STOPWORDS | LIGHT_WORDS:
        written_names.append(first.group(1))
    for written in written_names:
        words = written.split()
        # "the Italianate Corn Exchange": try the longest tail the records name.
        for k in range(len(words)):
            tail = _plain(" ".join(words[k:]))
            if tail and tail not in _ADDITIVE_NAMES and record_texts.any(tail):
                found.append((context.find(written) + len(" ".join(words[:k])), tail))
                break
    return sorted(found)


def find_synthesis_error(claim_text: str, context: str, offset: int, index: SourceIndex) -> SynthesisError | None:
    """An attribute of one row or item of a table or list given in the claim to another row's subject.

    ``context`` is the answer's sentence up to the claim's end (a clause's subject may sit in an
    earlier clause); the claim starts at ``offset`` in it. An attribute is a value (figure, date,
    year) or a word; the subject is the name the context gives last before it. The error: the
    subject's record does not state the attribute but states another value of its kind (or lacks
    the word), while a sibling record of the same table or list, about another subject, states it.
    """
    recs, plain_texts, unit_texts = _per_index(index)
    if len(recs) < 2:
        return _prose_error(claim_text, context, offset, index, unit_texts)
    cell = _table_cell_error(claim_text, recs, index, plain_texts)
    if cell is not None:
        return cell
    names = _mentions(context, plain_texts)
    rows = _rows_named(context, recs)
    if not names and not rows:
        return None

    def subject_at(position: int) -> int | None:
        before = [n for p, n in names if p < position]
        if not before:
            # One row named, or by codes only, the one named last before the value ("Flat 5C … is free from
            # 1 May. 7B is let": 5C's); rows named by their words are too loosely named to tell apart.
            named = [r for r in rows if r[1] <= position] if len(rows) == 1 or all(r[2] for r in rows) else []
            latest = [r for r in named if r[1] == max(r[1] for r in named)]
            return latest[0][0] if len(latest) == 1 else None
        holders = plain_texts.holding(before[-1], most=2)
        return holders[0] if len(holders) == 1 else None

    claim_values = [(v, offset + v.start) for v in values(claim_text, years=True)]
    # Values listed after several named rows go to them in turn ("cases TP-1 to TP-4, weighing 96, 84, 71 and
    # 60 kg"): none is the last-named row's alone.
    for value, position in claim_values:
        if value.kind == "clock":
            continue  # opening hours and timetables list many times per row
        named_before = {n for p, n in names if p < position} | {f"row {r[0]}" for r in rows if r[1] <= position}
        if _in_turn(claim_text, value, named_before):
            continue
        own = subject_at(position)
        if own is None:
            continue
        record = recs[own]
        stated = [v for v in _unit_values(index, own, record=True) if v.kind == value.kind]
        if any(same(value, v) for v in stated) or not stated:
            continue
        siblings = [
            r
            for i, r in enumerate(recs)
            if i != own
            and r.collection == record.collection
            and any(same(value, v) for v in _unit_values(index, i, record=True))
        ]
        if siblings:
            return _error(value.text, record, siblings[0], index)
    # Words: "the triple jump" where the subject's item says "long jump" and a sibling's "triple jump".
    terms = [t for t in analyze(claim_text) if t.kind in ("word", "num")]
    for term, nxt in itertools.pairwise(terms):
        if term.kind != "word" or nxt.kind != "word" or term.key in LIGHT_WORDS or term.capital:
            continue
        own = subject_at(offset + term.start)
        if own is None:
            continue
        record = recs[own]
        if term.key in record.keys:
            continue
        own_pairs = _pairs(record.text)
        rivals = {a for a, b in own_pairs if b == nxt.key and a != term.key}
        if not rivals:
            continue
        having = [
            r
            for i, r in enumerate(recs)
            if i != own and r.collection == record.collection and (term.key, nxt.key) in _pairs(r.text)
        ]
        if having:
            return _error(claim_text[term.start : nxt.end], record, having[0], index)
    return _prose_error(claim_text, context, offset, index, unit_texts)


_LIST_GAP_RE = re.compile(r"\d\s*+(?:,\s*+(?:and\s++|or\s++)?|and\s++|or\s++)\d")


def _in_turn(text: str, value: Value, named_before: set[str]) -> bool:
    """Whether ``value`` is one of a list of figures ("96, 84, 71 and 60 kg") after several named subjects
    ("cases TP-1 to TP-4, weighing …"): the figures go to them in turn, none to the last-named alone."""
    around = text[max(0, value.start - 12) : value.start + len(value.text) + 12]
    return len(named_before) >= 2 and _LIST_GAP_RE.search(around) is not None


def _rows_named(context: str, recs: list[Record]) -> list[tuple[int, int, bool]]:
    """The table rows the context names, each with where its name is complete in the context (a figure before it
    is not the row's) and whether a code named it: by its first cell word for word ("the engine fire extinguisher bottles" for the row
    "| Engine fire extinguisher bottle | …"), by a code in it ("Flat 5C" for "| 5C | …"), or, after a code or
    number, by most words of the next cell ("parts and accessories" for "| 8714 | Parts and accessories of cycles |")."""
    ends: dict[str, int] = {}
    for t in analyze(context):
        ends.setdefault(t.key, t.end)
    named: list[tuple[int, int, bool]] = []
    for i, r in enumerate(recs):
        cells = _cells(r.text) if r.text.lstrip().startswith("|") else []
        first = _cell_keys(cells[0]) if cells else set()
        code = _CODE_RE.fullmatch(cells[0]) if cells else None
        words = _cell_keys(cells[1]) - STOPWORDS if len(cells) > 1 and (code or cells[0].isdigit()) else set()
        label = words & ends.keys()
        if code and (m := re.search(rf"(?<![\w-]){re.escape(cells[0])}(?![\w-])", context, re.IGNORECASE)):
            named.append((i, m.end(), True))
        elif not code and len(first) >= 2 and first <= ends.keys():
            named.append((i, max(ends[k] for k in first), False))
        elif len(label) >= 2 and 3 * len(label) >= 2 * len(words):
            named.append((i, max(ends[k] for k in label), False))
    return named


_CODE_RE = re.compile(r"(?=[A-Za-z-]{0,6}\d)(?=\d{0,6}[A-Za-z])[A-Za-z\d-]{2,8}")
"""A row's code of letters and digits ("5C", "B12", "LX-7"), which names the row wherever it is written."""


def _cells(text: str) -> list[str]:
    return [c.strip() for c in text.strip().strip("|").split("|")]


def _cell_keys(cell: str) -> set[str]:
    return {t.key for t in analyze(cell) if t.key not in LIGHT_WORDS}


def _table_cell_error(claim_text: str, recs: list[Record], index: SourceIndex, texts: _Texts) -> SynthesisError | None:
    """A table column the claim names ("yellow rust rating"), for the one row it names, given another
    row's cell ("resistant", Corbel's) and none of the row's own ("3 (susceptible)", Mallory's)."""
    named_rows = {k for _, name in _mentions(claim_text, texts, first_word=True) for k in texts.holding(name, most=2)}
    if len(named_rows) != 1:
        return None
    record = recs[named_rows.pop()]
    rows = [r for r in recs if r.collection == record.collection and r.text.lstrip().startswith("|")]
    if record not in rows or rows[0].units[0] not in index.units:
        return None
    header = index.units[max(0, index.units.index(rows[0].units[0]) - 1)]
    if header is rows[0].units[0] or not header.text.lstrip().startswith("|"):
        return None
    words = {t.key: claim_text[t.start : t.end] for t in analyze(claim_text)}
    claim_keys = set(words)
    own_cells = _cells(record.text)
    for column, title in enumerate(_cells(header.text)[1:], start=1):
        named = _cell_keys(re.sub(r"\(.*?\)", " ", title))
        if column >= len(own_cells) or not named or len(named & claim_keys) < math.ceil(0.6 * len(named)):
            continue
        mine = _cell_keys(own_cells[column]) - named
        if mine & claim_keys:
            continue
        for other in rows:
            cells = _cells(other.text)
            theirs = _cell_keys(cells[column]) - named - mine if column < len(cells) else set()
            if other is not record and theirs & claim_keys:
                return _error(words[sorted(theirs & claim_keys)[0]], record, other, index)
    return None


def _names_someone(text: str) -> bool:
    first = re.match(r"\s*([A-Z][\w'-]+)", text)
    return bool(extract(text).names) or bool(first and first.group(1).lower() not in STOPWORDS | LIGHT_WORDS)


def _relation_units(relation: set[str], index: SourceIndex) -> list[int]:
    """Positions of the units holding at least 60% of ``relation``'s keys, in order.

    Such a unit holds one of the rarest ``len - need + 1`` keys, so only their postings are read.
    """
    need = math.ceil(0.6 * len(relation))
    rarest = sorted(relation, key=lambda k: (len(index.postings.get(k, ())), k))[: len(relation) - need + 1]
    candidates = sorted({i for k in rarest for i in index.postings.get(k, ())})
    return [i for i in candidates if len(relation & index.units[i].keys) >= 0.6 * len(relation)]


def _prose_error(
    claim_text: str, context: str, offset: int, index: SourceIndex, texts: _Texts
) -> SynthesisError | None:
    """Across sentences: the subject's own sentence states the claim's relation with another
    value, and a sentence about another named subject states the relation with the claim's value
    ("Acme was founded in 1985" from "Acme was founded in 1990" and "Beta was founded in 1985")."""
    names = _mentions(context, texts, first_word=True)
    name_keys = {t.key for _, n in names for t in analyze(n)}
    relation = {
        t.key
        for t in analyze(claim_text)
        if t.kind == "word" and t.key not in LIGHT_WORDS and not t.capital and t.key not in name_keys
    }
    if not names or not relation:
        return None

    stating: list[int] | None = None
    for value in values(claim_text, years=True):
        if value.kind == "clock":
            continue
        before = [n for p, n in names if p < offset + value.start]
        if not before or _in_turn(claim_text, value, set(before)):
            continue
        named = texts.holding(before[-1])
        if any(map(_Reader(index, value, many=len(named) > _MANY_UNITS).states, named)):
            continue
        stating = _relation_units(relation, index) if stating is None else stating
        read = _Reader(index, value, many=len(stating) > _MANY_UNITS)
        own = [index.units[i] for i in sorted(set(named) & set(stating)) if read.differs(i)]
        if not own:
            continue
        named_set = set(named)
        for i in stating:
            unit = index.units[i]
            if i in named_set or not read.states(i):
                continue
            if _names_someone(unit.text):
                holder = Record(unit.source_id, 0, (unit,), unit.text, unit.keys)
                mine = Record(own[0].source_id, 0, (own[0],), own[0].text, own[0].keys)
                return _error(value.text, mine, holder, index)
    return None


_MANY_UNITS = 400
"""Past this many units stating a relation, which of them state a value is looked up, not read one by one."""


class _Reader:
    """Which units state ``value`` (a :func:`same` one) or another of its kind: read off each unit,
    or, for ``many`` units, looked up among the index's values sorted by kind and number (the same
    answers, without reading thousands of rows per claim)."""

    def __init__(self, index: SourceIndex, value: Value, *, many: bool) -> None:
        self.index, self.value = index, value
        self.holders: set[int] | None = None
        self.kind_units: set[int] = set()
        if many:
            numbers, positions, odd = _value_table(index).get(value.kind, ([], [], []))
            candidates = positions + odd  # dates agree on day and month, whatever their number
            if value.kind != "date" and math.isfinite(value.number):
                # Times and years agree when equal; figures within a tenth of the larger (0.12 of this one).
                exact = value.kind in ("clock", "stamp", "year")
                width = (1e-9 if exact else 0.12) * abs(value.number) + 1e-9
                lo = bisect.bisect_left(numbers, value.number - width)
                candidates = positions[lo : bisect.bisect_right(numbers, value.number + width)] + odd
            self.holders = {i for i in candidates if self._same(i)}
            self.kind_units = _kind_units(index, value.kind)

    def _same(self, i: int) -> bool:
        return any(same(self.value, v) for v in _unit_values(self.index, i))

    def states(self, i: int) -> bool:
        """Whether unit ``i`` states the value."""
        return self._same(i) if self.holders is None else i in self.holders

    def differs(self, i: int) -> bool:
        """Whether unit ``i`` states another value of the same kind."""
        if self.holders is not None and (i not in self.kind_units or i not in self.holders):
            return i in self.kind_units  # none of its kind, or every one of its kind differs
        return any(v.kind == self.value.kind and not same(self.value, v) for v in _unit_values(self.index, i))


def _kind_units(index: SourceIndex, kind: str) -> set[int]:
    """The units stating some value of ``kind``, once per index and kind."""
    memo: dict[str, set[int]] = index.__dict__.setdefault("_kind_units", {})
    if kind not in memo:
        _, positions, odd = _value_table(index).get(kind, ([], [], []))
        memo[kind] = set(positions) | set(odd)
    return memo[kind]


def _value_table(index: SourceIndex) -> dict[str, tuple[list[float], list[int], list[int]]]:
    """The index's values by kind: numbers sorted, their units, and units whose number is not finite."""
    table: dict[str, tuple[list[float], list[int], list[int]]] | None = index.__dict__.get("_value_table")
    if table is None:
        pairs: dict[str, list[tuple[float, int]]] = {}
        for i in range(len(index.units)):
            for v in _unit_values(index, i):
                pairs.setdefault(v.kind, []).append((v.number, i))
        table = {}
        for kind, found in pairs.items():
            ordered = sorted(p for p in found if math.isfinite(p[0]))
            odd = [i for n, i in found if not math.isfinite(n)]
            table[kind] = ([n for n, _ in ordered], [i for _, i in ordered], odd)
        index.__dict__["_value_table"] = table
    return table


def _pairs(text: str) -> set[tuple[str, str]]:
    """Adjacent content terms of ``text`` (stop words skipped)."""
    keys = [t.key for t in analyze(text) if t.kind in ("word", "num")]
    return set(itertools.pairwise(keys))


def _evidence(unit: Unit, relation: EvidenceRelation) -> Evidence:
    return Evidence(source_id=unit.source_id, start=unit.start, end=unit.end, quote=unit.text, relation=relation)


def _error(attribute: str, own: Record, other: Record, index: SourceIndex) -> SynthesisError:
    own_name = own.units[0].text.strip(" |-*•")[:40].split("|")[0].strip()
    other_name = other.units[0].text.strip(" |-*•")[:40].split("|")[0].strip()
    return SynthesisError(
        explanation=(
            f"'{attribute}' belongs to '{other_name}' in {other.source_id}, not to '{own_name}' "
            f"({own.source_id}): true parts combined into a false claim."
        ),
        sources=sorted({own.source_id, other.source_id}),
        evidence=[_evidence(other.units[0], "related"), _evidence(own.units[0], "contradicts")],
    )
