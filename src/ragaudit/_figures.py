"""Figures looked up by value: a claim's figure is compared with the sources' figures near it, not
with every one (issue 11: at the size limits that scan was a third of an audit).

:func:`reach` bounds how far apart two figures can be and still match under
:func:`close` (equal, hedged within 10%, or rounded); a lookup returns every
figure within that distance, a superset of those that match, and the caller applies the same test
as before. Verdicts do not change; only the figures that cannot match are no longer visited.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import combinations, islice
from typing import NamedTuple

from ragaudit._slot_data import MONEY
from ragaudit.slots import MAX_CHARS, Quantity, Slots

__all__ = ["FigurePool", "close", "first", "itemised_total", "leading", "reach", "within", "working_days_read"]

_DAY = 86_400.0


def reach(a: float, approx: bool) -> float:
    """A distance from ``a`` beyond which no figure matches it (nor is derived as it), with room to spare.

    Equal means within 1e-9 relative; hedged ("about") within 10% (at most a ninth of ``a``);
    rounded as ``a`` is written: by under one unit, or by half of its trailing zeros' power of ten
    ("2,400" for 2,430).
    """
    slack = 2e-9 * (abs(a) + 1.0)
    width = 1.0
    if a.is_integer() and a:
        digits = str(int(abs(a)))
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros >= 2:
            width += 10.0**zeros
    # A hedged figure may also match as if unhedged (a derivation tries both).
    return max(width, 0.12 * abs(a)) + slack if approx else width + slack


def within(values: Sequence[float], centre: float, width: float) -> tuple[int, int]:
    """The slice of sorted ``values`` that lies within ``width`` of ``centre``."""
    return bisect_left(values, centre - width), bisect_right(values, centre + width)


class _Sorted:
    """Quantities sorted by one number of theirs, for range lookups; non-finite ones always looked at."""

    __slots__ = ("items", "keys", "odd")

    def __init__(self, pairs: list[tuple[float, Quantity]]) -> None:
        ordered = sorted((p for p in pairs if math.isfinite(p[0])), key=lambda p: p[0])
        self.keys = [k for k, _ in ordered]
        self.items = [q for _, q in ordered]
        self.odd = [q for k, q in pairs if not math.isfinite(k)]

    def near(self, centre: float, width: float) -> list[Quantity]:
        if not math.isfinite(centre) or not math.isfinite(width):
            return self.items + self.odd
        lo, hi = within(self.keys, centre, width)
        return self.items[lo:hi] + self.odd


class Described(NamedTuple):
    """A source's figure with the words that say what it is."""

    figure: Quantity
    counts: frozenset[str]
    """Stems of the content words after it: what it counts ("84 *regular weekly classes*")."""
    around: frozenset[str]
    """Stems of the content words either side of it ("*hire income totalled* £31,460, *up*")."""
    passage: int
    after: str
    """The text right after it (whether a change is reckoned from it: "£52,500, *up from* £42,000")."""


class FigurePool(list[Quantity]):
    """The quantities of a request's sources, in order (a list, not to be changed once built), with
    an index by value: :meth:`candidates` gives those a figure could match."""

    def __init__(
        self, quantities: Iterable[Quantity] = (), dated: Iterable[Quantity] = (), date_lengths: Iterable[Quantity] = ()
    ) -> None:
        """``dated``: those of ``quantities`` that are a date's day or year (no measure is stated by one);
        ``date_lengths``: the lengths of time that sit beside a date of their passage (operands of a derived date)."""
        super().__init__(quantities)
        self.dated = frozenset(id(q) for q in dated)
        self.date_lengths = list(date_lengths)
        self.working_days = frozenset(p.raw for p in self if p.dimension == "working_time")
        self.intervals: frozenset[int] = frozenset()
        """The lengths of time a source says something recurs at ("every 3 months"), by ``id`` (see ``read_pool``)."""
        self.described: list[Described] = []
        """The sources' figures with the words that say what each is (see ``read_pool``)."""
        self.money_rates: list[tuple[str, float]] = []
        """Sums of money the sources state per period, as (dimension, amount per second) (see ``read_pool``)."""
        self.lengths = [p for p in self if p.dimension in ("time", "working_time") and id(p) not in self.dated][:12]
        """The first lengths of time stated (a date the answer works out may count on from the question's)."""
        """The numbers of working days the sources state (see :func:`working_days_read`)."""
        dims: dict[str, list[tuple[float, Quantity]]] = {}
        for p in self:
            if p.dimension:
                dims.setdefault(p.dimension, []).append((p.value, p))
        self._by_value = {d: _Sorted(pairs) for d, pairs in dims.items()}
        # Across units the source's figure may be the rounded one ("about 2 stone" for 12.7 kg): matched within its 10%.
        self._hedged_by_value = {d: _Sorted([(v, p) for v, p in pairs if p.approx]) for d, pairs in dims.items()}
        self._by_raw = _Sorted([(p.raw, p) for p in self])
        self._plain_by_raw = _Sorted([(p.raw, p) for p in self if p.dimension is None])
        self.percents = [p.value for p in self if p.dimension == "percent"][:12]
        """The first percentages (a derivation's rates start from these)."""
        self.plain = [p.raw for p in self if p.dimension is None and not p.label][:12]
        """The first plain figures (counts derived from these)."""

    def plus(self, figures: Sequence[Quantity]) -> FigurePool:
        """This pool with ``figures`` counted as stated (an answer's total of its own items, say)."""
        pool = FigurePool([*self, *figures], [q for q in self if id(q) in self.dated], self.date_lengths)
        pool.money_rates, pool.intervals, pool.described = self.money_rates, self.intervals, self.described
        return pool

    def converted(self, q: Quantity) -> bool:
        """Whether ``q`` is stated only in another unit ("2,500 g" for "2.5 kg"): no figure of its kind has its number."""
        return q.dimension is not None and not any(
            p.dimension == q.dimension and math.isclose(p.raw, q.raw) for p in self.candidates(q)
        )

    def candidates(self, q: Quantity) -> list[Quantity]:
        """Every figure that could match ``q`` directly (same unit and value, or plain number and
        raw value): a superset of those :func:`ragaudit.matching.quantity_supported` accepts."""
        if q.dimension is None:
            return self._by_raw.near(q.raw, reach(q.raw, q.approx))
        width = reach(q.value, q.approx)
        if q.dimension == "time":
            width = max(width, 0.03 * abs(q.value) + 1e-9)  # "a month" for 30 days: within 2.5%
        if q.dimension in ("volume", "flow"):
            width = max(width, 0.25 * abs(q.value))  # a gallon of either kind (see ``readings``)
        same = self._by_value.get(q.dimension)
        found = same.near(q.value, width) if same else []
        hedged = self._hedged_by_value.get(q.dimension)
        if hedged and not q.approx:
            found += hedged.near(q.value, reach(q.value, approx=True))
        # A rate is stated by the interval a source says it recurs at ("four times a year" by "every 3 months").
        if q.dimension == "rate/time" and self.intervals and q.value > 0 and "time" in self._by_value:
            near = self._by_value["time"].near(1 / q.value, max(reach(1 / q.value, q.approx), 0.03 / q.value))
            found += [p for p in near if id(p) in self.intervals]
        return found + self._plain_by_raw.near(q.raw, reach(q.raw, q.approx))


def first(values: Iterable[float], n: int = 12) -> list[float]:
    """The first ``n`` of ``values`` (a derivation starts from the first twelve figures of each kind)."""
    return list(islice(values, n))


def first_figures(pool: Iterable[Quantity], n: int = 12) -> list[Quantity]:
    """The first ``n`` figures of ``pool`` that may enter arithmetic (a number that names something may not)."""
    return list(islice((p for p in pool if not p.label), n))


def leading(pool: Sequence[Quantity]) -> tuple[list[float], list[float]]:
    """The first twelve percentages and plain figures of ``pool`` (kept by a :class:`FigurePool`)."""
    if isinstance(pool, FigurePool):
        return pool.percents, pool.plain
    return first(p.value for p in pool if p.dimension == "percent"), first(
        p.raw for p in pool if p.dimension is None and not p.label
    )


_IMPERIAL_PER_US = 4.54609 / 3.78541
_GALLON_RE = re.compile(r"(?i)\bgal(?:lon)?s?\b")
_GALLON_KIND_RE = re.compile(r"(?i)\b(?:us|u\.s\.|imperial|uk)\b")


def readings(q: Quantity) -> tuple[float, ...]:
    """``q``'s value, and for a gallon figure that names neither kind its value in imperial gallons too (a British
    text means those, an American one the US gallon the unit is read as)."""
    if q.dimension in ("volume", "flow") and _GALLON_RE.search(q.text) and not _GALLON_KIND_RE.search(q.text):
        return (q.value, q.value * _IMPERIAL_PER_US)
    return (q.value,)


_ROUNDING = 0.05
"""The most a figure written round ("1,000") may be from the exact one it stands for (1,049)."""


def close(a: float, b: float, approx: bool) -> bool:
    """Whether stated ``a`` says ``b``: equal, within 10% when hedged ("about"), or ``b`` rounded as
    ``a`` is written ("58%" for 58.3%, "2.4 million" for 2,430,000; never a year for another).

    A looser test needs :func:`reach` widened too (``tests/test_figures.py`` checks)."""
    if abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12):  # relative: "100 nm" is 1e-7 m
        return True
    if approx:
        return abs(a - b) <= 0.1 * max(abs(a), abs(b))
    if not a.is_integer():
        decimals = len(repr(a).split(".")[1].rstrip("0")) if "." in repr(a) else 0
        return decimals < 6 and round(b, decimals) == a
    if round(b) == a and not b.is_integer() and abs(a - b) <= 0.1 * abs(a):
        return True  # "58" for 58.3, but not "2" for 1.5
    zeros = len(str(int(abs(a)))) - len(str(int(abs(a))).rstrip("0")) if a else 0
    year_like = 1500 <= abs(a) <= 2100
    # A rounding keeps the figure's size: 2,430,000 is "2.4 million", but 60 is no "100".
    return zeros >= 2 and not year_like and round(b, -zeros) == a and abs(a - b) <= _ROUNDING * abs(a)


_ITEMS = 12
"""An itemised total is looked for among this many of the answer's figures, summed at most :data:`_TERMS` at a time."""
_TERMS = 4


_TOTALLING_RE = re.compile(
    r"\b(?:so|that's|in\s++all|in\s++total|altogether|total|totals|combined|together|between\s++them|add\s++up|"
    r"adds\s++up|use\s++up|uses\s++up|take\s++up|takes\s++up|comes?\s++to|makes?)\b",
    re.IGNORECASE,
)
"""Words of a clause that sums up lengths of time ("so those three stages use up 38 of the 45 minutes")."""


def itemised_total(q: Quantity, figures: Sequence[Quantity], claim_text: str = "") -> bool:
    """Whether sum of money ``q`` is the sum of several of ``figures`` (the answer's other supported ones):
    a total stated before or after its items ("About £187.55 for the quarter. The water costs £72.96, …"); a
    length of time or a bare figure too, where the clause says it sums up (``claim_text``), its items' bare figures
    read in its unit ("10 minutes, the clean at 8 and boarding at 20, so those stages use up 38 of the 45")."""
    timed = q.dimension in ("time", None) and q.raw > 1 and _TOTALLING_RE.search(claim_text[:MAX_CHARS]) is not None
    if q.dimension not in MONEY and not timed:
        return False
    # A bare total ("use up 38 of the 45 minutes") sums its items as written.
    unit = q.value / q.raw if q.dimension == "time" else 1.0
    values = list(
        dict.fromkeys(
            f.value if f.dimension == q.dimension and f.dimension else f.raw * unit
            for f in figures
            # A count in words ("those three stages") counts the items; it is none of them.
            if f is not q
            and (f.dimension == q.dimension or (timed and f.dimension in ("time", None)))
            and not (timed and f.dimension is None and not f.text[:1].isdigit())
        )
    )[:_ITEMS]
    return any(
        close(q.value, sum(terms), q.approx)
        for size in range(2, min(_TERMS, len(values)) + 1)
        for terms in combinations(values, size)
    )


_WORKING_STEMS = frozenset({"busi", "work", "workday"})
"""Stems that make an answer's days working days ("15 business days … from the original 10 days")."""


def working_days_read(claim: Slots, pool: FigurePool, said: frozenset[str]) -> Slots:
    """``claim`` with its days read as working days where the answer has spoken of working days and the
    sources state that many working days but not that many days ("raised this from the original 10 days"
    after "15 business days", for "from 10 to 15 business days"): the word left out once said."""
    if not _WORKING_STEMS & (claim.stems | said):
        return claim

    def read(q: Quantity) -> Quantity:
        days = (
            q.dimension == "time"
            and q.raw in pool.working_days
            and "day" in q.text.lower()
            and math.isclose(q.value, q.raw * _DAY)
        )
        if not days or any(p.dimension == "time" and math.isclose(p.value, q.value) for p in pool.candidates(q)):
            return q
        return replace(q, value=q.raw, dimension="working_time")

    quantities = [read(q) for q in claim.quantities]
    return claim if quantities == claim.quantities else replace(claim, quantities=quantities)
