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
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import combinations, pairwise

from ragaudit._calendar import beside_dates, in_date
from ragaudit._figure_context import figure_words
from ragaudit._figures import Described, FigurePool, itemised_total, reach, within
from ragaudit._slot_data import MONEY, RATE_QUALIFIERS, WORKING_OUT
from ragaudit._text import with_parts
from ragaudit._working import calendar_factors, derives
from ragaudit.matching import quantity_supported, year_like
from ragaudit.slots import MAX_CHARS, Quantity, Slots

__all__ = ["WORKED_ACROSS", "itemised", "read_pool", "reckoned"]

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
_FIGURES = 64
"""The answer's figures reckoned, in order (each pass reads each against the others)."""
_SMALL = 12
"""A plain count up to this follows from too many steps by chance ("3" is 5 − 2): never reckoned."""

_CUE_RE = re.compile(
    r"\b(?:in\s++all|in\s++total|combined|combination|remain|remains|difference|works?\s++out|worked\s++out|"
    r"cheaper|dearer|fewer|short\s++of|adds?\s++up|comes?\s++to|come\s++to|in\s++hand|room\s++for|"
    r"(?:you'd|you'll|you\s++would|you\s++will|we'd|I'd)\s++(?:pay|spend|need|save))\b",
    re.IGNORECASE,
)
"""Words besides :data:`WORKING_OUT` that say a clause works a figure out from stated ones."""


_RATED_RE = re.compile(
    r"\b(?:discount\w*|off|reduc\w+|surcharge\w*|VAT|increase\w*|rise|rises|uplift)\b", re.IGNORECASE
)
"""Words that name a rate applied to a figure ("with your member discount", "plus VAT")."""


def _cued(text: str) -> bool:
    """Whether a clause says it works a figure out (a figure from the sources' figures alone needs this)."""
    text = text[:MAX_CHARS]
    return bool(WORKING_OUT & {w.strip(",.;:!?()").lower() for w in text.split()}) or _CUE_RE.search(text) is not None


def _value(q: Quantity) -> float:
    return q.value if q.dimension else q.raw


@lru_cache(maxsize=32)  # an entry holds up to some 40,000 figures (about a megabyte): few are kept
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
    products = [(k * b, b) for k in counts for b in operands]
    scaled = {p for p, _ in products}
    firsts |= (
        scaled | {b / k for k in (*counts, *factors) for b in operands} | {k * b for k in factors for b in operands}
    )
    out = set(firsts)
    # Another figure, never the one multiplied: "£28 + 3 × £28" is four of it, a count the clause does not give.
    for p, b in products:
        out.update(a + p for a in operands if a != b)
        out.update(abs(a - p) for a in operands if a != b)
    out.update(x + y for (x, b), (y, c) in combinations(products, 2) if b != c)
    # A percentage scales one figure or one product ("10% off the €96", "2 × €48 less 10%"), never a sum it does
    # not name: "(£85 + £68) less 10%" is the slip of a discount that covers only one of them.
    for pct in percents:
        out.update(x * f for x in (*operands, *scaled) for f in (pct / 100, (100 - pct) / 100, (100 + pct) / 100))
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
    rated: bool = False,
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
    # In base units too: "£6.50 for 250 g" is £26 a kilo (a price per unit of measure).
    other = tuple(
        dict.fromkeys(
            v for e in kinds if e != d for v in (*counted.get(e, ())[:_FACTORS], *theirs.get(e, ())[:_FACTORS])
        )
    )
    others = (*other[: 2 * _FACTORS], *(theirs.get(None, ())[:_FACTORS] if d else ()))
    if cued and _found(q, _steps((*m, *t), counts, rates, (*factors, *others))):
        return True
    # A stated rate applied to one stated figure, where the clause names it ("£76.50 with your 10% discount" off
    # £85): unnamed, a figure a stated rate away from another is as often a slip (£0.19 for £0.16, 20% apart).
    if rated and _found(
        q, sorted({a * (100 + sign * p) / 100 for a in t[:12] for p in rates for sign in (-1, 0, 1)} - set(t))
    ):
        return True
    # The user's count times a stated measure ("forty lengths" of a 25 m pool add up to 1 km), said to be worked
    # out: unsaid, "your two dogs cost £52 a night" is as often the slip of a second dog's lower rate.
    plain = worked.get(None, ())[:_FACTORS] if d else ()
    shown = w and (_found(q, _steps(w, counts, rates, factors)) or _found(q, _steps((*w, *t), (), rates)))
    if shown or (plain and cued and _found(q, _steps(t, (), rates, plain))):
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


_PERIOD_SECONDS = {
    "minute": 60.0,
    "hour": 3_600.0,
    "day": 86_400.0,
    "night": 86_400.0,
    "week": 604_800.0,
    "fortnight": 1_209_600.0,
    "month": 2_629_800.0,
    "quarter": 7_889_400.0,
    "year": 31_557_600.0,
}
_ADVERBS = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter"}
_PERIOD_RE = re.compile(
    r"\S++(?:\s++(?:million|thousand|billion|bn|m|k)\b)?\s*+(?:(?:a|an|per|each|every|/)\s*+"
    rf"(?:(\d{{1,4}}(?:\.\d{{1,2}})?)\s*+)?(?:{RATE_QUALIFIERS}\s++)?(minute|hour|day|night|week|fortnight|month|quarter|year)s?\b|"
    r"(hourly|daily|weekly|monthly|quarterly|annually|yearly)\b)",
    re.IGNORECASE,
)


_NAMED_PERIOD_RE = re.compile(r"\b(?:(?:a|an|per|each|every)\s++(week|month|year)|(weekly|monthly))\b", re.IGNORECASE)


def _per_second(q: Quantity, text: str) -> float | None:
    """A sum of money's rate per second where a period follows it ("£1.50 per 30 minutes", "£3 an hour")."""
    if q.dimension not in MONEY:
        return None
    m = _PERIOD_RE.match(text, q.start, min(len(text), q.end + 40))
    if m is None:
        # "Monthly, an en-suite comes to about £728": the one period the clause names, before its figure.
        named = {
            _ADVERBS.get(w.lower(), w.lower()) for pair in _NAMED_PERIOD_RE.findall(text[:MAX_CHARS]) for w in pair if w
        }
        return q.value / _PERIOD_SECONDS[named.pop()] if len(named) == 1 else None
    unit = (m[2] or _ADVERBS.get((m[3] or "").lower(), "year")).lower()
    return q.value / ((float(m[1]) if m[1] else 1.0) * _PERIOD_SECONDS[unit])


def _restated(q: Quantity, rates: Sequence[float]) -> bool:
    """Whether sum ``q`` is one of ``rates`` (a stated rate over ``q``'s period) to the penny, to the pound when
    written whole (£624 a year is £12 a week, though 52 weeks fall short of a year), or within 2.5% when hedged;
    never rounded to its tens (£300 is not £315 a week)."""
    v = q.value
    slack = 0.025 if q.approx else 0.0
    return any(abs(v - d) <= max(slack * abs(d), 0.5 if v.is_integer() else 0.005) for d in rates)


_EVERY_RE = re.compile(r"\b(?:every|each|intervals?\s++of)\s++$", re.IGNORECASE)
_CAPPED_RE = re.compile(
    r"\bmax(?:imum)?\s++(?:(?:daily|day|charge|fee|cost|price|payable|of)\s++){0,3}[£$€]|\bup\s++to\s++[£$€]"
    r"|\bcap(?:ped|s)?\b|\bdaily\s++(?:limit|cap|maximum)\b|\bafter\s++the\s++first\b"
    r"|\bfirst\s++(?:\w+\s++){0,2}(?:free|hours?|minutes?|days?)\b",
    re.IGNORECASE,
)
"""Words beside a rate that stop it scaling with time ("£1.80 an hour, up to a maximum of £6 a day"; "the first hour
free"); a maximum stay does not ("£0.45 per 15 minutes, maximum stay 120 minutes")."""


def read_pool(texts: Sequence[str], read: Sequence[Slots]) -> FigurePool:
    """The figures of a request's texts (its sources', then the question's), with which are a date's parts, the
    lengths of time beside a date, and the sums of money paid per period."""
    pool = FigurePool(
        [q for slots in read for q in slots.quantities],
        [q for slots in read for q in slots.quantities if in_date(q, slots.dates)],
        [q for text, slots in zip(texts, read, strict=True) for q in beside_dates(text, slots.quantities, slots.dates)],
    )
    rates = (
        (q.dimension, _per_second(q, text))
        for text, slots in zip(texts, read, strict=True)
        for q in slots.quantities
        if not _CAPPED_RE.search(text, max(0, q.start - 60), q.end + 80)
    )
    pool.money_rates = [(d, r) for d, r in rates if d and r][:_STATED]
    pool.described = [
        Described(q, counts, around, n, text[q.end : q.end + _SIDE_BY_SIDE])
        for n, (text, slots) in enumerate(zip(texts, read, strict=True))
        for q, (counts, around) in zip(slots.quantities, figure_words(text, slots.quantities), strict=False)
        if not q.label and q.value and not in_date(q, slots.dates) and not year_like(q)
    ][:_FIGURES]
    pool.intervals = frozenset(
        id(q)
        for text, slots in zip(texts, read, strict=True)
        for q in slots.quantities
        if q.dimension == "time" and _EVERY_RE.search(text, max(0, q.start - 24), q.start)
    )
    return pool


def _shares(stems: AbstractSet[str], described: Sequence[Described], *, compared: bool = False) -> list[float]:
    """Percentages of the sources' figures whose words the claim gives: a part of a whole ("35% of bookings" of "84
    regular weekly classes" in "240 bookings"), or a change between two figures of one kind side by side, said to be
    one ("rose by 12.8%" of "hire income totalled £31,460, up from £27,900"). Tied to what each figure counts, so
    the many shares of a source's other figures are never candidates."""
    parts = [d.figure for d in described if len(d.counts & stems) >= 2][:_COUNTS]
    wholes = [d.figure for d in described if d.counts & stems][:_STATED]
    out = {100 * q.value / w.value for q in parts for w in wholes if q.dimension == w.dimension and q.value < w.value}
    if compared:
        # "A studio is about 28% dearer than an en-suite": two figures the claim tells apart by its words, on either.
        named = [(d.figure, d.around & stems) for d in described if d.around & stems and d.figure.value][:_COUNTS]
        out |= {
            100 * abs(a.value - b.value) / b.value
            for a, x in named
            for b, y in named
            if x != y and a.dimension == b.dimension
        }
    for a, b in pairwise(described):
        q, p = a.figure, b.figure
        between = a.after[: p.start - q.end]
        if not (
            a.passage == b.passage
            and q.dimension == p.dimension
            and len((a.around | b.around) & stems) >= 2
            and p.start - q.end < _SIDE_BY_SIDE
            and _CHANGE_RE.search(between)
        ):
            continue
        # The change is reckoned on the figure it is from ("£52,500, up from £42,000"; "from £42,000 to …").
        base = p.value if _FROM_RE.search(between) else q.value
        if base:
            out.add(100 * abs(q.value - p.value) / base)
    return sorted(out)


def _combined(q: Quantity, stems: AbstractSet[str], described: Sequence[Described]) -> list[float]:
    """Sums and differences of two of the sources' figures of ``q``'s kind whose words the claim gives, in a claim
    that counts the things it adds up ("your two dogs cost £44 a night" of "one dog: £26 per night" and "a second
    dog sharing …: £18 per night"); a figure the sources give for one thing is never the sum of two others'."""
    if q.dimension in (None, "percent"):
        return []
    parts = [d.figure.value for d in described if d.figure.dimension == q.dimension and len(d.around & stems) >= 2]
    return sorted({v for a, b in combinations(parts[:_COUNTS], 2) for v in (a + b, abs(a - b))} - set(parts))


def _counts_things(row: Sequence[Quantity], text: str) -> bool:
    """Whether the claim counts things it may add up ("your two dogs"), not a code's number ("Band 2 treatment")."""
    return any(
        q.dimension is None
        and q.noun
        and 1 < q.raw <= 100
        and not _CODE_BEFORE_RE.search(text, max(0, q.start - 24), q.start)
        for q in row
    )


_CODE_BEFORE_RE = re.compile(r"[A-Z][a-z]*+\s*+$")
"""A capitalised word right before a number makes it a code ("Band 2", "Zone 4")."""
_SIDE_BY_SIDE = 60
"""Characters from one figure's end to the next's at most, for the two to be a change ("£31,460, up from £27,900")."""
_FROM_RE = re.compile(r"\bfrom\b", re.IGNORECASE)
_COMPARED_RE = re.compile(r"\b(?:dearer|cheaper|more|less|higher|lower|bigger|smaller|greater)\s++than\b", re.I)
"""A claim comparing two things ("28% dearer than an en-suite")."""
_CHANGE_RE = re.compile(
    r"\b(?:from|to|up|down|rose|rising|fell|falling|increas\w*+|decreas\w*+|compared|against|versus|vs|than)\b",
    re.IGNORECASE,
)
"""Words between two figures that make the second a change from the first, or the first from the second."""


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
    figures: list[list[Quantity]] = []
    left = _FIGURES  # a hostile answer of thousands of figures: only its first few dozen are reckoned
    for c in claims:
        figures.append([q for q in c.quantities if not in_date(q, c.dates)][: max(0, left)])
        left -= len(figures[-1])
    stated = [[quantity_supported(q, pool, allow_derived=False) for q in row] for row in figures]
    done = [[ok or said for said in row] for ok, row in zip(supported, stated, strict=True)]
    undated = [q for q in pool if id(q) not in pool.dated]
    theirs, counted = _by_kind(undated, _STATED), _by_kind(undated, _STATED, raw=True)
    found: list[list[Quantity]] = [[] for _ in figures]
    # The answer's grounded figures as operands (all of them, and those no source states): read again only
    # when a figure has been reckoned since.
    operands: tuple[dict[str | None, tuple[float, ...]], dict[str | None, tuple[float, ...]]] | None = None
    for _ in range(_PASSES):
        changed = False
        for i, row in enumerate(figures):
            counts = tuple(q.raw for q in row if q.dimension is None and q.raw.is_integer() and 1 < q.raw <= 100)
            # The calendar's factors of the periods the answer has named so far ("quarterly" of "a year").
            factors = calendar_factors(" ".join(texts[max(0, i - 8) : i + 1]))
            cued = _cued(texts[i])
            rated = any(q.dimension == "percent" for q in row) or _RATED_RE.search(texts[i][:MAX_CHARS]) is not None
            for k, q in enumerate(row):
                if done[i][k] or q.label or (q.dimension is None and q.raw.is_integer() and abs(q.raw) <= _SMALL):
                    continue
                if operands is None:
                    grounded = [(p, stated[j][m]) for j, o in enumerate(figures) for m, p in enumerate(o) if done[j][m]]
                    operands = (
                        _by_kind([p for p, _ in grounded], _ANSWERED),
                        _by_kind([*(p for p, said in grounded if not said), *given], _ANSWERED),
                    )
                mine, worked = operands
                # A length of time is converted by its unit, never by the calendar: "14 weeks" is no 14 days × 7.
                own = factors if q.dimension != "time" else ()
                # A sum paid per one period restated per another ("£1.50 per 30 minutes" is "£3 an hour").
                rate = _per_second(q, texts[i]) if pool.money_rates else None
                per = sorted(r * q.value / rate for d, r in pool.money_rates if d == q.dimension) if rate else []
                # A stated rate over a length of time the clause gives ("a two-hour stay costs £3.60" at £1.80 an hour):
                # the length is the user's case, an operand of the working like the figure it gives.
                spans = [p for p in row if p.dimension == "time"][:_COUNTS] if rate is None else []
                spent = [
                    t for t in spans if _restated(q, [r * t.value for d, r in pool.money_rates if d == q.dimension])
                ]
                if spent:
                    found[i].extend(t for t in spent[:1] if t not in found[i])
                # A share of two figures the clause itself gives ("66 of the 240 bookings, which is 27.5%").
                told = tuple(_value(p) for m, p in enumerate(row) if done[i][m] and p.dimension != "percent")[:_COUNTS]
                stems = with_parts(claims[i].stems)  # the sources' figures are described by analyze()'s keys
                compared = _COMPARED_RE.search(texts[i][:MAX_CHARS]) is not None
                if (
                    (q.dimension == "percent" and _found(q, _ratios(told, told, True)))
                    or (q.dimension == "percent" and _found(q, _shares(stems, pool.described, compared=compared)))
                    or ((cued or _counts_things(row, texts[i])) and _found(q, _combined(q, stems, pool.described)))
                    or _restated(q, per)
                    or spent
                    or _follows(q, mine, worked, theirs, counted, counts[:_COUNTS], own, cued, rated)
                ):
                    done[i][k] = changed = True
                    found[i].append(q)
                    operands = None
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
