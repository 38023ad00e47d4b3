"""Numeric record fields (JSON leaves) that a claim names and gives another figure for.

``"deductible_usd": 500`` against "a $1,000 deductible": the claim names the field ("deductible")
and states one figure, which is not the field's. Whether $1,000 appears elsewhere in the record (a
``limit_usd`` of another coverage) does not matter: the field the claim names says 500.
"""

from __future__ import annotations

import re

from ragaudit._slot_data import UNIT_WORDS
from ragaudit._text import analyze, is_year
from ragaudit.align import Alignment, SourceIndex, Unit
from ragaudit.slots import extract

_FIELD_RE = re.compile(r'"([^"\n]{1,80})"\s*:\s*(-?\d{1,15}(?:\.\d{1,6})?)\s*,?')
_KEY_WORD_RE = re.compile(r"[A-Za-z][a-z]*")
"""Words of a field name: snake_case and camelCase both ("review_count", "reviewCount")."""

Field = tuple[Unit, frozenset[str], str]


def _fields(index: SourceIndex) -> list[Field]:
    """The record's numeric fields: (unit, the name's words as keys, the value as a key), built once per index."""
    found: list[Field] | None = index.__dict__.get("_numeric_fields")
    if found is None:
        found = []
        for unit in index.units:
            m = _FIELD_RE.fullmatch(unit.text.strip()) if unit.leaf else None
            if m is None or abs(float(m[2])) < 1:  # a fraction may be a rate the claim gives as a percentage
                continue
            words = [w for w in _KEY_WORD_RE.findall(m[1]) if w.lower() not in UNIT_WORDS]
            keys = frozenset(t.key for t in analyze(" ".join(words)) if t.kind == "word")
            value = next((t.key for t in analyze(m[2]) if t.kind == "num"), None)
            if keys and value:
                found.append((unit, keys, value))
        index.__dict__["_numeric_fields"] = found
    return found


def field_number_clash(alignment: Alignment, index: SourceIndex) -> tuple[Unit, str] | None:
    """The one numeric field whose name the claim uses, uniquely named in the record, where the claim's
    one figure (stated plainly, not "over 100") is another; with what to say of it."""
    figures = [k for k in alignment.keys if k[:1] == "#" and not is_year(k)]
    fields = _fields(index) if len(figures) == 1 else []
    keys = set(alignment.keys)
    named = [f for f in fields if f[1] <= keys]
    if len(named) != 1:
        return None
    unit, words, value = named[0]
    stated = extract(alignment.claim.text).quantities
    if value == figures[0] or sum(1 for f in fields if f[1] & words) > 1 or any(q.approx for q in stated):
        # The field's own figure; a name that shares a word with another field's ("limit_usd" of each
        # coverage, "business_stars" beside "review_stars": which one the claim means is not said); a bound.
        return None
    field = unit.text.strip().split(":", 1)[0]
    return unit, f"'{figures[0][1:]}' where the record's {field} is {value[1:]}"


def record_cover(alignment: Alignment, index: SourceIndex, candidates: list[int], most: int = 6) -> tuple[int, ...]:
    """Fields of one JSON record that together hold the claim's terms, by position, greedily (each
    adds the most weight not yet held; at most ``most``); empty when the best candidate is no field."""
    leaves = [i for i in dict.fromkeys(candidates) if index.units[i].leaf]
    if not leaves:
        return ()
    source = index.units[leaves[0]].source_id
    pool = [i for i in leaves if index.units[i].source_id == source]
    chosen: list[int] = []
    held: set[str] = set()
    while len(chosen) < most:
        gains = [(sum(w for k, w in alignment.weights.items() if k in index.units[i].keys - held), -i) for i in pool]
        gain, best = max(gains, default=(0.0, 0))
        if gain <= 0:
            break
        chosen.append(-best)
        pool.remove(-best)
        held |= index.units[-best].keys
    return tuple(sorted(chosen))
