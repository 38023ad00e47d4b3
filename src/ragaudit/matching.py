"""Matching a claim's slots against a window's: figures (with what follows from them), dates and
times (denials: :mod:`ragaudit._denials`; quantifiers: :mod:`ragaudit._scope`).

:mod:`ragaudit.slots` reads the slots; this module decides whether two readings agree. Every
comparison is bounded: at most :data:`MAX_SLOTS` slots of a claim, a fixed number of operands per
derivation, and a fixed number of clauses per window.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations

from ragaudit._calendar import beside_dates, date_derived, in_date, same_date
from ragaudit._certainty import modality_clash as modality_clash
from ragaudit._figure_context import same_things
from ragaudit._figures import FigurePool, first, first_figures, leading, reach, readings, within
from ragaudit._figures import close as _close
from ragaudit._mentions import words_around
from ragaudit._rivals import slot_rivals
from ragaudit._slot_data import MONEY, WORKING_OUT
from ragaudit._working import area_of
from ragaudit._working import derives as _derives
from ragaudit.slots import Date, Quantity, Slots

MAX_SLOTS = 64
"""Slots of one claim compared at most (a claim is a clause; more is an attack, not prose)."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One slot on which a claim and its evidence disagree."""

    kind: str
    """number, date, unit, time, name, negation, quantifier, modality or causal."""
    detail: str


def _share_between(q: Quantity, own: Sequence[Quantity], stated: Sequence[Quantity]) -> bool:
    """Whether percentage ``q`` is the share of, or difference between, a measure the claim (or the answer before
    it) gives and a stated one of its kind ("at 410 g … about 7% under the 440 g normal"); measures are no
    operands of a percentage otherwise, and figures the claim makes up cannot vouch for each other."""
    mine = [p for p in own[:12] if p.dimension and p.dimension != "percent" and p.value]
    theirs = [p for p in stated[:12] if p.dimension and p.dimension != "percent" and p.value]

    def rounds_to(share: float) -> bool:  # "about 7%" rounds 6.8% to a whole percent
        return _derives(q.value, share, q.approx) or (q.approx and q.value.is_integer() and abs(q.value - share) < 0.5)

    return any(
        rounds_to(100 * abs(x - y) / y) or rounds_to(100 * x / y)
        for a in mine
        for b in theirs
        if a.dimension == b.dimension and a.value != b.value
        for x, y in ((a.value, b.value), (b.value, a.value))
    )


def derived(
    values: list[float], limit: int = 12, percents: Sequence[float] = (), operands: Sequence[float] = ()
) -> frozenset[float]:
    """Figures that follow from two stated ones by one step of arithmetic (of the first ``limit``);
    with ``percents``, also a figure's share, reduction or increase by each ("60% off £960" is £384);
    ``operands`` (the question's figures, the claim's other ones) enter two-figure steps only."""
    return frozenset(chain(*_derived(tuple(values[:limit]), tuple(percents[:limit]), tuple(operands[:limit]))))


def _derivable(
    a: float,
    approx: bool,
    values: Sequence[float],
    percents: Sequence[float],
    operands: Sequence[float],
    doubling: bool = True,
) -> bool:
    """Whether stated ``a`` is one of the figures :func:`derived` gives (looked up near ``a``, not scanned)."""
    ordered, odd = _derived(tuple(values[:12]), tuple(percents[:12]), tuple(operands[:12]), doubling)
    lo, hi = within(ordered, a, reach(a, approx))
    return any(_derives(a, d, approx) for d in chain(ordered[lo:hi], odd))


@lru_cache(maxsize=1024)
def _derived(
    vals: tuple[float, ...], percents: tuple[float, ...] = (), operands: tuple[float, ...] = (), doubling: bool = True
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The derived figures, sorted (the finite ones) and the rest (a cache entry holds at most a few thousand);
    ``doubling``: also each figure twice over and halved."""
    out: set[float] = set()
    every = tuple(dict.fromkeys(vals + operands))  # a figure stated twice is not two operands
    for a in every:
        for pct in percents:
            if a != pct:
                # "0% for 12 months" leaves every figure as it was: no figure follows from itself.
                out.update({a * pct / 100, a * (100 - pct) / 100, a * (100 + pct) / 100} - {a})
    for a, b in combinations(every, 2):
        step = {a + b, abs(a - b), a * b}
        if b:
            step.add(a / b)
        if a:
            step.add(b / a)
        # A step that gives back an operand (× 1, + 0) derives nothing: "51.2 mph" is not "51.2 km/h × 1".
        out.update(step - {a, b})
    for a in vals:
        out.update({a * 100, a / 100, (a - 1) * 100})
        # "Twice" and "half" of a small count give every small count: no evidence for "four".
        if doubling:
            out.update(x for x in (a * 2, a / 2) if x > 10 or not x.is_integer())
        if 0 < a < 3:
            out.add(round((a - 1) * 100, 6))
    return tuple(sorted(x for x in out if math.isfinite(x))), tuple(x for x in out if not math.isfinite(x))


def unit_converted(q: Quantity, p: Quantity) -> bool:
    """Whether ``q`` and ``p`` are one measure written in two units (their numbers differ, and so do their units'
    factors: "43 minutes" and "about 40 minutes" are no conversion)."""
    same_unit = bool(q.raw and p.raw) and math.isclose(q.value / q.raw, p.value / p.raw)
    return not math.isclose(q.raw, p.raw) and (q.value != q.raw or p.value != p.raw) and not same_unit


def quantity_supported(
    q: Quantity,
    pool: list[Quantity],
    *,
    allow_derived: bool = True,
    times: set[int] | frozenset[int] = frozenset(),
    operands: Sequence[Quantity] = (),
    doubling: bool = True,
    same_dimension: bool = False,
) -> bool:
    """Whether a stated quantity matches (or follows from) one in ``pool`` (or a clock hour in ``times``).

    ``operands`` are figures a derivation may also start from but that never match by themselves
    (the question's, the claim's own others: "0.6 × 55 = 33"). ``doubling=False``: a figure twice
    or half a stated one is not derived (nothing said speaks of a total, a multiple or a share: "up
    to 10 further days" does not follow from "5 days"). ``same_dimension``: a figure with a unit is matched
    only by one in the same unit's dimension, not by a bare number ("12 transits" states no "12 hours").
    """
    operands = [o for o in operands if o is not q and (o.start, o.end, o.text) != (q.start, q.end, q.text)]
    if (
        q.dimension is None
        and q.raw.is_integer()
        and 1 <= q.raw <= 24
        and any(t // 60 in (q.raw, q.raw + 12) for t in times)
    ):
        return True  # "at 11" for 11:00
    percents = pool.percents if isinstance(pool, FigurePool) else [p.value for p in pool if p.dimension == "percent"]
    if q.dimension is None and 0 < q.raw < 1 and any(_close(100 * q.raw, v, q.approx) for v in percents):
        return True  # "half its cost" for "funded at 50%"
    # A pool indexed by value gives only the figures near ``q``: the same answer without the scan.
    for p in pool.candidates(q) if isinstance(pool, FigurePool) else pool:
        if q.dimension == "time" and p.dimension == "time" and abs(q.value - p.value) <= 0.025 * p.value:
            return True  # "a month" for 30 days
        if (
            q.dimension
            and p.dimension
            and q.dimension == p.dimension
            and (
                any(_close(a, b, q.approx) for a in readings(q) for b in readings(p))
                # Across units either side may be the rounded one: "2 stone" (12.70059 kg) for "12.7 kg".
                or (unit_converted(q, p) and _close(p.value, q.value, p.approx))
            )
        ):
            return True
        # "once a week" for "at intervals of 7 days", "every 12 hours" for "twice a day".
        rate = {q.dimension, p.dimension} == {"rate/time", "time"} and q.value and p.value
        if rate and _close(1 / q.value, p.value, q.approx):
            return True
        # ``same_dimension``: a plain count is stated only by a plain count ("5 counts" is not "five minutes").
        bare = (q.dimension is None or p.dimension is None) and not (same_dimension and q.dimension != p.dimension)
        if bare and _close(q.raw, p.raw, q.approx):
            return True
    if not allow_derived:
        return False
    if q.dimension == "time" and times:
        # "four and a half hours" for 9 am until 1:30 pm: the span between two stated clock times.
        spans = {abs(a - b) * 60 for a, b in combinations(sorted(times)[:12], 2)}
        if any(abs(q.value - d) <= 0.025 * d for d in spans):
            return True
    # Derivations start from the first twelve figures of each kind (see :func:`derived`); a number that
    # names something ("Schedule 2") is no operand.
    rates, plain = leading(pool)
    pool = first_figures(pool)
    operands = [o for o in operands if not o.label]
    if q.dimension == "percent" and _share_between(q, operands, pool):
        return True
    if q.dimension == "area" and area_of(q, [*pool[:12], *operands[:12]]):
        return True
    percents = first(chain(rates, (o.raw for o in operands if o.dimension == "percent")))
    if q.dimension is None:
        # A share enters a count as a share ("40% of 600 bikes"), never as a number added to it (110 + 40%).
        values, extra = (
            [p.raw for p in pool[:12] if p.dimension != "percent"],
            [o.raw for o in operands if o.dimension != "percent"],
        )
        return _derivable(q.raw, q.approx, values, percents, extra, doubling)
    # Same-unit figures combine in base units ("1,770 m − 620 m" is 1,150 m, not 1,150 feet); other
    # figures enter as plain counts ("30 days of 47.8p" is £14.34).
    # A measure ("9 litres a second") is worked out from measures of its kind and plain counts, never from
    # another kind's number ("10 metres" less "1 bar" is no flow).
    physical = q.dimension not in MONEY and q.dimension != "time"
    values = [
        p.value if p.dimension == q.dimension else p.raw
        for p in pool[:12]
        if not physical or p.dimension in (None, q.dimension)
    ]
    extra = [
        o.value if o.dimension == q.dimension else o.raw
        for o in operands
        if not physical or o.dimension in (None, q.dimension)
    ]
    if _derivable(q.value, q.approx, values, percents, extra, doubling):
        return True
    # "172 years" between 1612 and 1784: a count from plain figures.
    return _derivable(q.raw, q.approx, plain, (), ())


def unsupported_figures(
    quantities: Sequence[Quantity],
    supported: Callable[[Quantity, list[Quantity]], bool],
    given: Sequence[Quantity] = (),
) -> list[Quantity]:
    """The figures ``supported`` rejects, in order of statement.

    Each accepted figure may be an operand for those after it ("0.4 × 70 + 0.6 × 55 = 28 + 33 = 61"),
    but never for those before: figures the claim makes up cannot vouch for each other.
    """
    known = list(given)
    rejected: list[Quantity] = []
    for q in quantities[:MAX_SLOTS]:
        if q.frequency_word or supported(q, known):
            known.append(q)
        else:
            rejected.append(q)
    return rejected


def worked_from_earlier(q: Quantity) -> bool:
    """Whether ``q`` may be worked out from the answer's earlier figures: a sum of money ("£96 and £48 would
    bring the bill to £144") or a count ("60 mg is two of the 30 mg chews"), not a length of time or a
    measure, where a changed limit is often the sum of two others ("90 minutes" from "30 to 59 minutes")."""
    return q.dimension is None or q.dimension in MONEY


def compare(
    claim: Slots,
    window: Slots,
    sources_pool: list[Quantity],
    given: Sequence[Quantity] = (),
    texts: tuple[str, str] | None = None,
    established: Sequence[Quantity] = (),
    stated_dates: Sequence[Date] = (),
) -> list[Mismatch]:
    """Slots on which ``claim`` disagrees with ``window`` (a window about the same thing).

    ``sources_pool`` holds every quantity of the request's sources: a figure found anywhere is
    not called a mismatch here (synthesis checks look at where it came from). ``texts``, the claim's and
    the window's, let a figure be matched with the window's figure for the same thing. ``established``:
    the answer's earlier supported figures, operands for a sum of money or a count (:func:`worked_from_earlier`);
    ``stated_dates``: the claim's dates a source states in the claim's context (:func:`stated_in_context`), no slips.
    """
    found: list[Mismatch] = []
    times = window.times | claim.times
    # The day of a date is compared as a date (below), never as a count ("22 May" is not "30 people").
    claim_figures = [q for q in claim.quantities if not in_date(q, claim.dates)]
    # The window's number for the same thing, in another unit ("a £3.50 transfer fee" where it gives "a 3.5%
    # transfer fee"): a unit error, whatever arithmetic on the window's other figures might give £3.50.
    swapped: set[int] = set()
    for q, p in same_things(texts[0], claim_figures, texts[1], window.quantities) if texts else ():
        if (
            id(q) not in swapped
            and q.dimension
            and p.dimension
            and p.dimension != q.dimension
            and p.raw == q.raw
            and not quantity_supported(q, window.quantities, allow_derived=False)
            and not quantity_supported(q, sources_pool, allow_derived=False, same_dimension=True)
        ):
            swapped.add(id(q))
            found.append(Mismatch("unit", f"'{_fmt(q)}' in another unit than the source's '{_fmt(p)}'"))
    claim_figures = [q for q in claim_figures if id(q) not in swapped]
    for q, p in miscounted(texts[0] if texts else "", claim_figures, window, sources_pool):
        swapped.add(id(q))
        found.append(Mismatch("number", f"{_fmt(q)} where the source has {_fmt(p)}"))
    claim_figures = [q for q in claim_figures if id(q) not in swapped]
    percents = [p for p in chain(sources_pool[:MAX_SLOTS], given) if p.dimension == "percent"]
    for q, p in slot_rivals(*texts, claim_figures, window.quantities, percents, (sources_pool, given)) if texts else ():
        swapped.add(id(q))
        found.append(Mismatch("number", f"{_fmt(q)} where the source has {_fmt(p)}"))
    claim_figures = [q for q in claim_figures if id(q) not in swapped]
    # Which of the claim's figures state each window figure (only for a claim of few figures: one of dozens,
    # a hostile one, would cost 64 × thousands of comparisons per window).
    few = len(claim_figures) <= _ACCOUNTED_FIGURES
    stating = {id(p): [o for o in claim_figures if _same_figure(o, p)] for p in window.quantities if few}
    for q in unsupported_figures(
        claim_figures,
        lambda q, known: (
            quantity_supported(
                q,
                window.quantities,
                times=times,
                operands=[*known, *established] if worked_from_earlier(q) else known,
                doubling=claim.aggregates or window.aggregates,
            )
            # Stated elsewhere in the same dimension (synthesis checks look at where it came from); a bare
            # number elsewhere does not excuse a figure that differs from the window's own.
            or quantity_supported(q, sources_pool, allow_derived=False, same_dimension=True)
        ),
        given,
    ):
        year = year_like(q)
        # A window figure another of the claim's figures states is accounted for ("after seven years in
        # prison, married for 10 years": the window's seven years are the prison's, not the marriage's).
        stated = [
            p
            for p in window.quantities
            if not p.frequency_word
            and not in_date(p, window.dates)
            and not any(o is not q for o in stating.get(id(p), ()))
        ]
        same_dim = [p for p in stated if p.dimension == q.dimension and year_like(p) == year]
        # The same number in another unit: "51.2 mph" where the source has "51.2 km/h".
        other = [p for p in stated if p.raw == q.raw and p.dimension and p.dimension != q.dimension]
        other += [p for p in same_dim if p.raw == q.raw and p.raw and not math.isclose(p.value, q.value)]
        if q.dimension and other:
            found.append(Mismatch("unit", f"'{_fmt(q)}' in another unit than the source's '{_fmt(other[0])}'"))
            continue
        if q.dimension is None and q.raw.is_integer() and abs(q.raw) <= 10:
            # A small count contradicts only a count of the same thing ("two kinds" is not "2025/26").
            same_dim = [p for p in same_dim if q.noun and p.noun == q.noun]
        if same_dim:
            kind = "date" if year else "number"
            found.append(Mismatch(kind, f"{_fmt(q)} where the source has {_fmt(same_dim[0])}"))
    # A measure only worked out (no source states it) where the window's one figure of its kind that the claim
    # leaves unstated is for the same thing: "barred for 10 days" (30 days / 3) against "a 14-day suspension".
    # Sums of money and totals are worked out often and said to be; a length of time rarely.
    flagged = {m.detail.split(" where")[0] for m in found}
    derived = [
        q
        for q in claim_figures
        if q.dimension not in (None, *MONEY)
        and not q.frequency_word
        and _fmt(q) not in flagged
        and not quantity_supported(q, window.quantities, allow_derived=False)
        and not quantity_supported(q, [*sources_pool, *given], allow_derived=False)
    ]
    if texts and len(derived) == 1 and few and not claim.aggregates and not WORKING_OUT & set(texts[0].lower().split()):
        around = words_around(texts[0], derived[0].text, 3)
        rivals = [
            p
            for p in window.quantities
            if not stating.get(id(p))
            and p.dimension == derived[0].dimension
            and not p.frequency_word
            and not in_date(p, window.dates)
            and around & words_around(texts[1], p.text, 3)
        ]
        # The passage's figure split into the claim's parts ("two hours of performance plus a 20-minute interval"
        # for "2 hours 20 minutes including the interval") is stated, not slipped.
        parts = [o.value for o in claim_figures if o is not derived[0] and o.dimension == derived[0].dimension]
        rivals = [p for p in rivals if not any(math.isclose(derived[0].value + o, p.value) for o in parts)]
        if len(rivals) == 1:
            found.append(Mismatch("number", f"{_fmt(derived[0])} where the source has {_fmt(rivals[0])}"))
    # A date worked out from one the window states ("one month after 10 September") is no slip of it.
    lengths = [*(beside_dates(texts[1], window.quantities, window.dates) if texts else []), *claim.quantities, *given]
    checked = [d for d in claim.dates if not any(d is s for s in stated_dates)]
    found += date_slips([d for d in checked if not date_derived(d, window.dates, lengths)], window.dates)
    if claim.times and window.times and not claim.times & window.times:
        found.append(Mismatch("time", "a different time of day than the source"))
    return found


_ACCOUNTED_FIGURES = 8  # claims with at most this many figures have the window figures they state set aside


_TALLIES = frozenset(WORKING_OUT) | {"altogether", "combined", "overall", "sum", "total", "totalled", "totalling"}
"""Words of a clause that works a count out ("850 *in total*"), unlike "each" or "both", which only distribute."""


_COMPARED_RE = re.compile(
    r"\s*+(?:[^\W\d_]++\s++)?(?:lower|higher|more|fewer|less|above|below|over|under|short|behind|ahead|extra)\b",
    re.IGNORECASE,
)
"""Words after a count (and its noun) that make it a difference ("16 points lower", "three more staff")."""


def miscounted(
    claim_text: str, figures: Sequence[Quantity], window: Slots, sources_pool: Sequence[Quantity]
) -> Iterator[tuple[Quantity, Quantity]]:
    """A count of a noun the window counts too, equal to none of its counts ("a cap of 28 children" where it
    gives "maximum 24 children"), stated of that noun nowhere in the sources: whatever arithmetic might give 28,
    a clause that speaks of no total, share or working states the count, and states it wrong."""
    if not claim_text or _TALLIES & {w.strip(",.;:!?()").lower() for w in claim_text.split()}:
        return
    stated = [p for p in window.quantities[:MAX_SLOTS] if not p.label and not in_date(p, window.dates)]
    counts: dict[str, list[Quantity]] = {}
    for p in stated:
        if p.dimension is None and p.noun and not year_like(p):
            counts.setdefault(p.noun, []).append(p)
    for q in figures[:MAX_SLOTS]:
        if _COMPARED_RE.match(claim_text, q.end, q.end + 40):
            continue  # "16 points lower at 112": a difference between counts, not a count
        theirs = counts.get(q.noun, []) if q.dimension is None and q.noun and not q.label else []
        # A number the window states at all is stated (the noun after a figure is often a heading's).
        # The sources' figures near this one's value (indexed when the pool is a FigurePool): no scan of thousands.
        near = sources_pool.candidates(q) if isinstance(sources_pool, FigurePool) else sources_pool[:MAX_SLOTS]
        if theirs and not any(
            _close(q.raw, p.raw, q.approx) for p in chain(stated, (s for s in near if s.noun == q.noun))
        ):
            yield q, min(theirs, key=lambda p: abs(math.log(max(p.raw, 1e-9) / max(q.raw, 1e-9))))


def _same_figure(a: Quantity, b: Quantity) -> bool:
    """Whether figure ``a`` states ``b``, in the same dimension (or both bare)."""
    return a.dimension == b.dimension and any(_close(x, y, a.approx) for x in readings(a) for y in readings(b))


def date_slips(claimed: Sequence[Date], stated: Sequence[Date]) -> list[Mismatch]:
    """Dates of the claim that the window states otherwise: the same day in another month, or another
    day of the same month ("10 October" where the window has "10 September")."""
    found: list[Mismatch] = []
    for d in claimed[:MAX_SLOTS]:
        if any(same_date(d, w) for w in stated):
            continue
        rivals = [w for w in stated if (w.day == d.day and w.day is not None) or w.month == d.month]
        if rivals:
            found.append(Mismatch("date", f"{_fmt_date(d)} where the source has {_fmt_date(rivals[0])}"))
    return found


def year_like(q: Quantity) -> bool:
    """Whether ``q`` is a bare number that reads as a year ("2024")."""
    return q.dimension is None and q.raw.is_integer() and 1500 <= q.raw <= 2100


_MONTH_NAMES = ["", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _fmt_date(d: Date) -> str:
    return " ".join(str(x) for x in (d.day, _MONTH_NAMES[d.month], d.year) if x)


def _fmt(q: Quantity) -> str:
    return q.text if q.text else f"{q.raw:g}"
