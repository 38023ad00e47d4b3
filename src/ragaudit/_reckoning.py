"""The answer's arithmetic read as a whole: a figure no source states may follow from the sources' figures and
the answer's other grounded ones, stated before it or after ("£119.70 a month … £102.60 … a further £17.10").

A claim's own checks see its windows and the answer before it; here every figure of the answer is looked at
together, in a few passes, so a total given first and worked out later, or a step whose intermediate is
unstated ("two adults at £14.50 each, £91 with the car's £62"), is grounded once its operands are. Every
search is bounded: a few dozen operands per dimension, small counts as multipliers, a fixed number of passes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from ragaudit._calendar import in_date
from ragaudit._figures import FigurePool, itemised_total, reach, within
from ragaudit._slot_data import MONEY, WORKING_OUT
from ragaudit._working import calendar_factors, derives
from ragaudit.matching import quantity_supported
from ragaudit.slots import MAX_CHARS, Quantity, Slots

__all__ = ["WORKED_ACROSS", "itemised", "reckoned"]

WORKED_ACROSS = "worked out from the sources' figures and the answer's"

_STATED = 24
"""Operands of one dimension taken from the sources (and the question), in order of statement."""
_ANSWERED = 16
"""Operands of one dimension taken from the answer's grounded figures."""
_COUNTS = 4
"""A claim's plain counts ("two adults", "ten visits") that may multiply a figure it works out."""
_FACTORS = 6
"""The sources' numbers of each other kind that may multiply or divide a figure worked out."""
_TERMS = 3
"""The most of the answer's grounded figures summed into one total ("€465, €60 and €86.40")."""
_PASSES = 3
_SMALL = 12
"""A plain count up to this follows from too many steps by chance ("3" is 5 − 2): never reckoned."""

_CUE_RE = re.compile(
    r"\b(?:in\s++all|in\s++total|combined|combination|remain|remains|difference|works?\s++out|worked\s++out|"
    r"cheaper|dearer|fewer|short\s++of|adds?\s++up|comes?\s++to|come\s++to|in\s++hand|room\s++for|"
    r"(?:you'd|you'll|you\s++would|you\s++will|we'd|I'd)\s++(?:pay|spend|need|save))\b",
    re.IGNORECASE,
)
"""Words besides :data:`WORKING_OUT` that say a clause works a figure out from stated ones."""


def _cued(text: str) -> bool:
    """Whether a clause says it works a figure out (a figure from the sources' figures alone needs this)."""
    text = text[:MAX_CHARS]
    return bool(WORKING_OUT & {w.strip(",.;:!?()").lower() for w in text.split()}) or _CUE_RE.search(text) is not None


def _value(q: Quantity) -> float:
    return q.value if q.dimension else q.raw


@lru_cache(maxsize=256)
def _steps(
    operands: tuple[float, ...], counts: tuple[float, ...], percents: tuple[float, ...], factors: tuple[float, ...] = ()
) -> list[float]:
    """Every figure one step of arithmetic gives from ``operands`` (of one dimension) or a count times or into one;
    the products of ``counts`` (the clause's) added to or taken from another operand, or to each other ("two adults
    at £12 and three children at £6"); and any of these scaled by a percentage; sorted. ``factors`` (the sources'
    other numbers, the calendar's) only multiply or divide."""
    firsts: set[float] = set()
    for a, b in combinations(operands, 2):
        firsts.update((a + b, abs(a - b)))
    scaled = {k * b for k in counts for b in operands}
    firsts |= (
        scaled | {b / k for k in (*counts, *factors) for b in operands} | {k * b for k in factors for b in operands}
    )
    out = set(firsts)
    for s in scaled:
        out.update(a + s for a in operands)
        out.update(abs(a - s) for a in operands)
    out.update(x + y for x, y in combinations(scaled, 2))
    for pct in percents:
        out.update(x * f for x in (*operands, *firsts) for f in (pct / 100, (100 - pct) / 100, (100 + pct) / 100))
    return sorted(out - set(operands))


@lru_cache(maxsize=256)
def _ratios(numerators: tuple[float, ...], denominators: tuple[float, ...], shares: bool) -> list[float]:
    """Quotients of figures of one dimension: a count of one measure in another, or (``shares``) a percentage
    of one, or the percentage by which one differs from another."""
    out: set[float] = set()
    for a in numerators:
        for b in denominators:
            if a and b and a != b:
                out.update((100 * a / b, 100 * abs(a - b) / b, 100 - 100 * a / b) if shares else (a / b,))
    return sorted(out)


def _found(q: Quantity, candidates: Sequence[float]) -> bool:
    v = _value(q)
    lo, hi = within(candidates, v, reach(v, q.approx))
    return any(derives(v, d, q.approx) for d in candidates[lo:hi])


def _follows(
    q: Quantity,
    mine: dict[str | None, tuple[float, ...]],
    worked: dict[str | None, tuple[float, ...]],
    theirs: dict[str | None, tuple[float, ...]],
    counted: dict[str | None, tuple[float, ...]],
    counts: tuple[float, ...],
    factors: tuple[float, ...],
    cued: bool,
) -> bool:
    """Whether ``q`` follows from the answer's grounded figures (``mine``; ``worked``, those no source states)
    and the sources' (``theirs``): from the sources' alone only where the clause says it works ``q`` out
    (``cued``; its counts then multiply), else only through a figure the answer itself worked out. One slip of a
    stated figure is as often one step from two others ("90 minutes" of 30 and 60): it has to say so."""
    d = q.dimension
    kinds = [e for e in {*mine, *theirs} if e not in ("percent", None)]
    w, m, t = worked.get(d, ()), mine.get(d, ()), theirs.get(d, ())
    if d == "percent" or (d is None and not q.raw.is_integer()):
        # A share of a worked-out figure ("82% of the £582,000 raised"); the sources' own shares are too many.
        return any(
            _found(q, _ratios(worked.get(e, ()), (*mine.get(e, ()), *theirs.get(e, ())), True))
            or _found(q, _ratios((*mine.get(e, ()), *theirs.get(e, ())), worked.get(e, ()), True))
            for e in [*kinds, None]
        )
    if _value(q) in w:
        return True  # a figure the answer worked out, again
    terms = m[:12] if cued else w
    totals = [sum(c) for n in range(2, _TERMS + 1) for c in combinations(m[:12], n) if set(c) & set(terms)]
    if _found(q, sorted(totals)):
        return True  # a total of the answer's items, one of them worked out (or said to be a total)
    rates = (*theirs.get("percent", ()), *mine.get("percent", ())) if d in MONEY or d is None else ()
    # The sources' numbers of other kinds divide or multiply ("£240 for 8 weeks" is £30 a week).
    other = tuple(dict.fromkeys(v for e in kinds if e != d for v in counted.get(e, ())[:_FACTORS]))
    others = (*other[:_FACTORS], *(theirs.get(None, ())[:_FACTORS] if d else ()))
    if cued and _found(q, _steps((*m, *t), counts, rates, (*factors, *others))):
        return True
    # The user's count times a stated measure ("forty lengths" of a 25 m pool is 1 km) is shown working too.
    plain = worked.get(None, ())[:_FACTORS] if d else ()
    shown = w and (_found(q, _steps(w, counts, rates, factors)) or _found(q, _steps((*w, *t), (), rates)))
    if shown or (plain and _found(q, _steps(t, (), rates, plain))):
        return not _found(q, _steps(t, (), rates))
    if d in MONEY and _value(q) < 1 and w:
        # So much in every pound: "about 18p in costs for every pound" of £103,000 in £582,000.
        return _found(q, _ratios((*m, *t), w, False)) or _found(q, _ratios(w, (*m, *t), False))
    # A count of one measure in another: "12.5 hours" of "25-minute sorties" is 30 of them.
    return d is None and any(
        _found(q, _ratios((*mine.get(e, ()), *theirs.get(e, ())), (*mine.get(e, ()), *theirs.get(e, ())), False))
        if cued
        else _found(q, _ratios(worked.get(e, ()), theirs.get(e, ()), False))
        for e in kinds
    )


def _by_kind(figures: Sequence[Quantity], limit: int, raw: bool = False) -> dict[str | None, tuple[float, ...]]:
    out: dict[str | None, list[float]] = {}
    for q in figures:
        if not q.label and q.value:
            out.setdefault(q.dimension, []).append(q.raw if raw else _value(q))
    return {d: tuple(dict.fromkeys(v))[:limit] for d, v in out.items()}


def reckoned(
    claims: Sequence[Slots],
    texts: Sequence[str],
    supported: Sequence[bool],
    pool: FigurePool,
    given: Sequence[Quantity] = (),
) -> list[list[Quantity]]:
    """Per claim, its figures no source states that follow by arithmetic from the sources' figures (``pool``,
    the question's too) and the answer's grounded ones (stated, reckoned, or in a ``supported`` claim), the
    claim's counts as multipliers; the question's figures (``given``) are the user's, as good as worked out.

    A figure worked from the sources' figures alone must be said to be worked out (``texts``, the claims'); one
    the answer shows the working of (an operand is the answer's own) need not. A small plain count never is.
    """
    figures = [[q for q in c.quantities if not in_date(q, c.dates)] for c in claims]
    stated = [[quantity_supported(q, pool, allow_derived=False) for q in row] for row in figures]
    done = [[ok or said for said in row] for ok, row in zip(supported, stated, strict=True)]
    theirs = _by_kind([q for q in pool if id(q) not in pool.dated], _STATED)
    counted = _by_kind([q for q in pool if id(q) not in pool.dated], _STATED, raw=True)
    found: list[list[Quantity]] = [[] for _ in figures]
    for _ in range(_PASSES):
        changed = False
        for i, row in enumerate(figures):
            counts = tuple(q.raw for q in row if q.dimension is None and q.raw.is_integer() and 1 < q.raw <= 100)
            # The calendar's factors of the periods the answer has named so far ("quarterly" of "a year").
            factors = calendar_factors(" ".join(texts[max(0, i - 8) : i + 1]))
            cued = _cued(texts[i])
            for k, q in enumerate(row):
                if done[i][k] or q.label or (q.dimension is None and q.raw.is_integer() and abs(q.raw) <= _SMALL):
                    continue
                grounded = [(p, stated[j][m]) for j, o in enumerate(figures) for m, p in enumerate(o) if done[j][m]]
                mine = _by_kind([p for p, _ in grounded], _ANSWERED)
                worked = _by_kind([*(p for p, said in grounded if not said), *given], _ANSWERED)
                # A length of time is converted by its unit, never by the calendar: "14 weeks" is no 14 days × 7.
                own = factors if q.dimension != "time" else ()
                if _follows(q, mine, worked, theirs, counted, counts[:_COUNTS], own, cued):
                    done[i][k] = changed = True
                    found[i].append(q)
        if not changed:
            break
    return found


_NEAR = 12
"""Claims either side of a total whose supported figures may be its items; figures of a claim read as its own."""


def itemised(i: int, claims: Sequence[Slots], supported: Sequence[bool], text: str) -> list[Quantity]:
    """Claim ``i``'s figures that total the answer's supported items around it, stated before or after them
    ("About £187.55 for the quarter. The water costs £72.96, …"); its own figures may be items too ("with £95 a
    month for the fibre, the bill would be £2,605")."""
    near = range(max(0, i - _NEAR), min(len(claims), i + _NEAR + 1))
    items = [q for j in near if j != i and supported[j] for q in claims[j].quantities]
    own = claims[i].quantities[:_NEAR]
    return [q for q in own if itemised_total(q, [*items, *own], text)]
