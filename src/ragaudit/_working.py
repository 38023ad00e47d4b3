"""Arithmetic a claim shows: a figure worked out in two steps from the claim's own figures, an area from its
sides, the calendar's factors (12 months a year). Every search is bounded: a few operands, cached results."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from ragaudit._figures import close, reach, within
from ragaudit.slots import Quantity

_DERIVED_HEDGE = 0.025
"""How far a hedged figure ("about £2,000") may be from one worked out (£2,004): a rounding, not the tenth
a hedge allows against a stated figure; among the many figures one step of arithmetic gives, some fall
within a tenth of almost anything."""


def derives(a: float, d: float, approx: bool) -> bool:
    """Whether stated ``a`` is derived figure ``d``; a small count must come out exactly (22 / 5 is not "four")."""
    if a.is_integer() and abs(a) <= 10 and not approx:
        return abs(a - d) <= 1e-9
    if approx:
        return abs(a - d) <= _DERIVED_HEDGE * max(abs(a), abs(d))
    return close(a, d, False)


def area_of(q: Quantity, figures: Sequence[Quantity]) -> bool:
    """Whether area ``q`` is the product of two stated lengths ("4.2 by 5.4 metres, about 22.7 m²"); a bare
    number beside a length is read in its unit ("four metres by four")."""
    lengths = [f for f in figures if f.dimension == "length" and f.raw]
    scale = lengths[0].value / lengths[0].raw if lengths else 1.0
    sides = [*lengths, *(f for f in figures if f.dimension is None and not f.label and f.raw > 0)]
    return any(
        derives(q.value, a.value * (b.value if b.dimension else b.raw * scale), q.approx)
        for a in lengths
        for b in sides
        if a is not b
    )


_WORKING_OPERANDS = 8
"""A claim's own figures a shown working may combine (two steps over eight is some 10⁴ results)."""


_PERIODS = re.compile(r"\b(minute|hour|day|week|month|quarter|year|annual|fortnight)(?:s|ly|ally)?\b", re.IGNORECASE)
_PER_PERIOD = {
    frozenset({"minute", "hour"}): 60.0,
    frozenset({"hour", "day"}): 24.0,
    frozenset({"day", "week"}): 7.0,
    frozenset({"day", "fortnight"}): 14.0,
    frozenset({"week", "year"}): 52.0,
    frozenset({"month", "year"}): 12.0,
    frozenset({"quarter", "year"}): 4.0,
    frozenset({"month", "quarter"}): 3.0,
}


def working_voice(word: str) -> bool:
    """Whether a word of a clause that works figures out belongs to the working: a period it converts ("a full
    *year*") or the answer's own voice ("*you're*")."""
    return "'" in word or _PERIODS.fullmatch(word) is not None


def calendar_factors(text: str) -> tuple[float, ...]:
    """How many of one period a claim names make another it names ("£16.50 a month … across a year": 12)."""
    named = {m.group(1).lower().replace("annual", "year") for m in _PERIODS.finditer(text[:2000])}
    return tuple(v for k, v in _PER_PERIOD.items() if k <= named)


def shown_working(
    figures: Sequence[Quantity],
    rejected: Sequence[Quantity],
    rates: Sequence[Quantity] = (),
    constants: Sequence[float] = (),
) -> list[Quantity]:
    """The ``rejected`` figures still unsupported when a claim's working is read: a figure that two steps of
    arithmetic give exactly from the claim's accepted figures ("two adult passes (£126 each) plus a child's
    (£66) add up to £318"; "£3,600 on the band between £180,000 and £300,000" at a stated 3%), repeated while
    one more is accepted ("14.4 kg (60 × 40 × 30 = 72,000, divided by 5,000)"); ``constants``: the calendar's
    (:func:`calendar_factors`). Hedged figures are never read so: among thousands of results, some fall within a
    tenth of almost anything, and "a week" (one) follows from any two equal figures."""
    out = list(rejected)
    if not out or len(figures) + len(constants) < 3:
        return out
    stated = list(dict.fromkeys(r.raw for r in rates if r.dimension == "percent" and 0 < r.raw < 100))[:6]
    factors = {x for r in stated for x in (r / 100, 1 - r / 100, 1 + r / 100)}
    changed = True
    while changed and out:
        changed = False
        novel = {id(q) for q in out}
        accepted = (*constants, *(q.raw for q in figures if id(q) not in novel and q.dimension != "percent"))
        shares = tuple(
            sorted(factors | {q.raw / 100 for q in figures if id(q) not in novel and q.dimension == "percent"})
        )
        results = _two_steps(accepted[:_WORKING_OPERANDS], shares[:24])
        for q in out:
            if not q.approx and q.raw > 1 and any(derives(q.raw, d, False) for d in _near(results, q.raw)):
                out.remove(q)
                changed = True
                break
    return out


def _near(ordered: tuple[float, ...], a: float) -> tuple[float, ...]:
    lo, hi = within(ordered, a, reach(a, False))
    return ordered[lo:hi]


@lru_cache(maxsize=32)  # an entry holds up to some 20,000 figures
def _two_steps(values: tuple[float, ...], shares: tuple[float, ...]) -> tuple[float, ...]:
    """Every figure one or two steps (+, −, ×, ÷, or a share) give from ``values``, each used once, sorted."""

    def step(a: float, b: float) -> set[float]:
        out = {a + b, abs(a - b), a * b}
        if b:
            out.add(a / b)
        if a:
            out.add(b / a)
        return out

    stepped = [(i, j, step(values[i], values[j])) for i, j in combinations(range(len(values)), 2)]
    second: set[float] = {a * f for a in values for f in shares}.union(*(x for _, _, x in stepped))
    for i, j, once in stepped:
        for x in once:
            second.update(x * f for f in shares)
            for k, c in enumerate(values):
                if k not in (i, j):
                    second |= step(x, c)
    for a in values:
        for f in shares:
            for c in values:
                if c != a:
                    second |= step(a * f, c)
    return tuple(sorted(x for x in second if math.isfinite(x) and x > 0))
