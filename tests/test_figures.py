"""The figure index (issue 11): looking a claim's figure up by value gives the answer the full scan gives."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragaudit._figures import FigurePool
from ragaudit.matching import _close, _derives, derived, quantity_supported, unit_converted
from ragaudit.slots import Quantity, extract

DIMENSIONS = [None, None, "percent", "time", "money_gbp", "length"]
VALUES = st.one_of(
    st.integers(0, 30).map(float),
    st.integers(1500, 2100).map(float),
    st.integers(1, 2_000_000).map(float),
    st.sampled_from([100.0, 2400.0, 2430.0, 58.3, 58.0, 0.5, 1.25, 3600.0, 86400.0, 1e20, 30.0, 31.0]),
    st.floats(0, 1e6, allow_nan=False).map(lambda x: round(x, 2)),
)


@st.composite
def _quantities(draw: st.DrawFn) -> Quantity:
    raw = draw(VALUES)
    dimension = draw(st.sampled_from(DIMENSIONS))
    # A percentage's base unit is the percent itself (as in the lexicon); other units scale.
    factor = draw(st.sampled_from([1.0, 60.0, 1000.0])) if dimension not in (None, "percent") else 1.0
    return Quantity(raw * factor, raw, dimension, draw(st.booleans()), 0, 1, f"{raw:g}")


FIGURES = _quantities()


def scanned(q: Quantity, pool: list[Quantity]) -> bool:
    """The direct match as it was before the index: every figure of the pool compared."""
    for p in pool:
        if q.dimension == "time" and p.dimension == "time" and abs(q.value - p.value) <= 0.025 * p.value:
            return True
        if q.dimension and p.dimension and q.dimension == p.dimension and _close(q.value, p.value, q.approx):
            return True
        # Across units either side may be the rounded one ("about 2 stone" for 12.7 kg).
        if q.dimension and q.dimension == p.dimension and unit_converted(q, p) and _close(p.value, q.value, p.approx):
            return True
        if (q.dimension is None or p.dimension is None) and _close(q.raw, p.raw, q.approx):
            return True
    return False


@settings(max_examples=400, deadline=None)
@given(st.lists(FIGURES, max_size=40), FIGURES)
def test_an_indexed_pool_matches_what_the_scan_matches(pool: list[Quantity], q: Quantity) -> None:
    assert quantity_supported(q, FigurePool(pool), allow_derived=False) == scanned(q, pool)


@settings(max_examples=300, deadline=None)
@given(st.lists(FIGURES, max_size=16), st.lists(FIGURES, max_size=3), FIGURES)
def test_a_derived_figure_is_found_as_by_the_scan(pool: list[Quantity], operands: list[Quantity], q: Quantity) -> None:
    operands = [replace(o, start=2 + k) for k, o in enumerate(operands)]  # other figures than ``q``
    indexed = quantity_supported(q, FigurePool(pool), operands=operands)
    assert indexed == quantity_supported(q, pool, operands=operands)
    # The derivation looked up near the figure agrees with every derived figure compared.
    # A share enters a count as a share, never as a number added to it: percentages are no plain operands.
    values = [p.raw for p in pool[:12] if p.dimension != "percent"]
    percents = [p.raw for p in [*pool, *operands] if p.dimension == "percent"]
    found = derived(values, percents=percents, operands=[o.raw for o in operands if o.dimension != "percent"])
    if q.dimension is None and not scanned(q, pool):
        assert indexed == any(_derives(q.raw, d, q.approx) for d in found)


def test_a_hedged_source_figure_in_another_unit_is_looked_up_within_its_ten_percent() -> None:
    """Either side of a conversion may be the rounded one: the index finds the source's hedged figure too."""
    stated = Quantity(225888.0 * 60, 225888.0, "time", True, 0, 1, "225888")  # about 225,888 minutes
    claimed = Quantity(250966.0 * 60, 250966.0 / 60, "time", False, 0, 1, "4182.77")  # 4,182.77 hours
    assert quantity_supported(claimed, FigurePool([stated])) == quantity_supported(claimed, [stated]) is True
    # In one unit a figure 10% off a hedged one is another figure ("43 minutes" is not "about 40 minutes").
    same_unit = Quantity(250966.0 * 60, 250966.0, "time", False, 0, 1, "250966")
    assert quantity_supported(same_unit, FigurePool([stated])) == quantity_supported(same_unit, [stated]) is False


def test_figures_from_text_keep_their_verdicts() -> None:
    pool = extract(
        "Revenue grew 12% to £960 in 2021; the plant employs about 2,430 people and opened 72 hours late, "
        "at 9 am, 1.5 km away, in the 1850s."
    ).quantities
    for claim, expected in [
        ("about 2,400 people", True),
        ("three days", True),
        ("£1,075.20", True),  # 12% more than £960
        ("1,500 metres", True),
        ("2,431 people", False),
        ("1990", False),
        ("£2,000", False),
    ]:
        q = extract(claim).quantities[0]
        assert quantity_supported(q, FigurePool(pool)) == quantity_supported(q, pool) == expected, claim


def test_the_synthesis_check_looks_values_up_as_it_reads_them() -> None:
    """Past 400 units the synthesis check looks up which units state a value (issue 11): the same answers."""
    from ragaudit.align import build_index
    from ragaudit.checks._conflicts import values
    from ragaudit.checks._synthesis import _Reader
    from ragaudit.models import Source

    rows = ["| plant | opened | staff | visit |", "|---|---|---|---|"]
    rows += [f"| Plant {i} | {1900 + i % 120} | {i * 7:,} | {1 + i % 28} March, 10:{i % 60:02d} |" for i in range(600)]
    index = build_index([Source(id="t", text="\n".join(rows))])
    claim = "It opened in 1907 and sold about 2,450 units and 5,600 tickets on 3 March at 10:07, and 1,050 more."
    found = values(claim, years=True)
    assert {v.kind for v in found} == {"year", "plain", "date", "clock"} and any(v.approx for v in found)
    for value in found:
        read, many = _Reader(index, value, many=False), _Reader(index, value, many=True)
        for i in range(len(index.units)):
            assert (read.states(i), read.differs(i)) == (many.states(i), many.differs(i)), (value, i)


@pytest.mark.parametrize(
    ("claimed", "stated", "same"),
    [
        ("once a week", "at intervals not exceeding 7 days", True),
        ("every 12 hours", "twice a day", True),
        ("twice a day", "every 12 hours", True),
        ("every 8 hours", "twice a day", False),
    ],
)
def test_a_rate_is_the_interval_it_repeats_at(claimed: str, stated: str, same: bool) -> None:
    (q,) = extract(f"Check it {claimed}.").quantities
    assert quantity_supported(q, extract(f"Check it {stated}.").quantities, allow_derived=False) is same


@pytest.mark.parametrize(
    "window", ["9.1 Fired ware must cool for not less than 15 hours.", "See schedule 9.1: 15 hours."]
)
def test_a_number_that_names_a_clause_is_no_operand(window: str) -> None:
    # 15 minutes is 900 s: "9.1" × 100, rounded, were the clause number an operand.
    (q,) = extract("Cool it for at least 15 minutes.").quantities
    assert not quantity_supported(q, extract(window).quantities)
