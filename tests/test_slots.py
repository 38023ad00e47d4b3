"""Slot reading and comparison: units, lengths of time, derived figures, negation scope, cues.

Each sentence is written for this file (not taken from a benchmark); each pair differs from its
source the way a faithful rewrite or a one-slot error does.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit_helpers import flagged
from ragaudit import _slot_data as lex
from ragaudit._blanks import compact
from ragaudit._calendar import date_derived
from ragaudit._certainty import asserts_effect, closest_clause, concludes, disclaims_cause, hedged_parts
from ragaudit._denials import forbidden_things, polarity_clash
from ragaudit._roles import bindings, name_swap, role_swap
from ragaudit._scope import quantifiers_clash, restricted, table_exception
from ragaudit.matching import (
    compare,
    modality_clash,
    quantity_supported,
    unsupported_figures,
)
from ragaudit.slots import _TOKEN_RE, _tokens, extract


def figures(text: str) -> list[tuple[str, str | None]]:
    return [(q.text, q.dimension) for q in extract(text).quantities]


def supported(claim: str, source: str, given: str = "") -> bool:
    """Whether every figure of ``claim`` is stated by or follows from ``source`` (and ``given``)."""
    window, read = extract(source), extract(claim)
    stated = extract(given).quantities if given else []
    rejected = unsupported_figures(
        read.quantities,
        lambda q, known: quantity_supported(
            q,
            window.quantities + stated,
            times=window.times,
            operands=known,
            doubling=read.aggregates or window.aggregates,
        ),
        stated,
    )
    return not rejected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("chunks of 8 MB to 64 GB", [("8 MB", "data"), ("64 GB", "data")]),
        # A rate's period is no length of time of its own (as "£95 a month" has none).
        ("about 52 gigawatt-hours a year", [("52 gigawatt-hours", "energy")]),
        ("cooled below 8 °C within an hour", [("8 °C", "temperature"), ("an hour", "time")]),
        ("averaging 51.2 miles per hour", [("51.2 miles per hour", "speed")]),
        ("a record of 2:07:45", [("2:07:45", "time")]),
        ("two hours, seven minutes and 45 seconds", [("two hours, seven minutes and 45 seconds", "time")]),
        ("four and a half hours", [("four and a half hours", "time")]),
        ("within 10 working days", [("10 working days", "working_time")]),
        ("in the 1850s", [("1850s", "period")]),
        ("in the fifteenth century", [("fifteenth century", "period")]),
        ("a 6 MW / 12 MWh battery", [("6 MW", "power"), ("12 MWh", "energy")]),
        ("14 µg of lead", [("14 µg", "mass")]),
        ("as Passage 2 says", []),
        ("the one to check", []),
        ("uploads of about 20 Mbps", [("20 Mbps", "data_rate")]),
        ("half a gigabit per second", [("half a gigabit per second", "data_rate")]),
        ("a latency of 30 milliseconds", [("30 milliseconds", "time")]),
        ("a hold of 4,500 cubic metres", [("4,500 cubic metres", "volume")]),
        ("cruising at 14 nautical miles an hour", [("14 nautical miles an hour", "speed")]),
        ("a gap of a quarter of an inch", [("quarter of an inch", "length")]),
        ("three-quarters of an hour", [("three-quarters of an hour", "time")]),
        ("two and a half man-hours", [("two and a half man-hours", "labour")]),
        ("bake at 200 degree C", [("200 degree C", "temperature")]),
        ("a 4G or 5G signal", [("4", None), ("5", None)]),
        ("5 GB a month", [("5 GB", "data")]),  # an allowance; its period is no length of its own
    ],
)
def test_figures_are_read_with_their_units(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert figures(text) == expected


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("a top speed of 9.26 m/s", "a service speed of 18 knots"),
        ("half a gigabit per second", "500 Mbps on average"),
        ("a crack over a quarter of an inch", "cracks longer than 6.35 mm"),
        ("the tank holds 2.5 million litres", "a tank of 2,500 m³"),
        ("wait three-quarters of an hour", "wait at least 45 minutes"),
        ("wait three quarters of an hour", "wait at least 45 minutes"),
        ("the dog weighs about 3 stone", "the dog weighs 19 kg"),
        ("it weighs around 2.2 pounds", "it weighs 1 kg"),
        # A gallon of either kind: British texts mean the imperial one.
        ("the tank holds about 400 litres", "the tank holds 88 gallons"),
        ("the tank holds about 330 litres", "the tank holds 88 gallons"),
        ("quiet hours start at 11 at night", "quiet hours begin at 23:00"),
        ("stored at −4 °F in the vault", "kept at -20 °C in the vault"),
        ("frozen at 40 degrees Fahrenheit below zero", "frozen at −40 °C"),
    ],
)
def test_a_figure_converted_to_another_unit_is_the_same_figure(claim: str, source: str) -> None:
    assert supported(claim, source)
    assert compare(extract(claim), extract(source), []) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("at −20 °C", -20.0),
        ("at -4 °F", -20.0),
        ("at 20 °C below zero", -20.0),
        ("10-20 °C", 20.0),
        ("between 2 -8 °C", 8.0),
        ("it changed by -5 °C", 5.0),
        ("the setpoint minus 2 °C", 2.0),  # arithmetic, not a temperature below zero
        ("a −20% change", 20.0),
    ],
)
def test_a_temperature_below_zero_keeps_its_sign(text: str, value: float) -> None:
    # A signed change ("−20%") is put in words by a faithful answer ("a 20% cut"): only its size is read.
    assert pytest.approx(extract(text).quantities[-1].value) == value


def test_a_temperature_with_its_sign_dropped_is_another_temperature() -> None:
    assert compare(extract("kept at 4 °F"), extract("kept at −20 °C"), [])


@pytest.mark.parametrize(
    ("text", "causal"),
    [
        ("Twelve equal instalments, so that's £918 a month.", False),
        ("So that’s £11,016 for the year.", False),
        ("Book early so that you get a July slot.", True),
    ],
)
def test_so_that_s_works_a_figure_out_and_so_that_gives_a_purpose(text: str, causal: bool) -> None:
    assert extract(text).causal is causal


def test_bytes_and_bits_are_different_units() -> None:
    found = compare(extract("downloads of up to 300 MB/s"), extract("downloads of up to 300 Mb/s"), [])
    assert [m.kind for m in found] == ["unit"]


def test_a_bare_count_of_other_things_does_not_excuse_a_figure_the_window_gives_otherwise() -> None:
    # "at least 8 visits" elsewhere states no "8 days"; the window about the notice says 14 days.
    window = extract("Tenants must give not less than 14 days' notice in writing.")
    pool = extract("Inspectors make at least 8 visits a year.").quantities
    found = compare(extract("Tenants must give at least 8 days' notice in writing."), window, pool)
    assert [m.kind for m in found] == ["number"]


def test_a_window_figure_another_claim_figure_states_is_accounted_for() -> None:
    # The window's "six years" are the lease's; the claim's "3 years" (the break clause) is not compared with them.
    window = extract("The lease runs for six years, with a break clause the tenant may use.")
    claim = extract("The lease runs for six years, with a break clause after 3 years.")
    assert compare(claim, window, []) == []


def test_the_windows_number_for_the_same_thing_in_another_unit_is_a_unit_error() -> None:
    # "£4.50" might be worked out from the window's other figures (£6 less 25%), but the window gives 4.5 for
    # the same thing ("a 4.5% arrangement fee"): a careful reader sees the unit changed.
    claim = "Each mortgage carries a £4.50 arrangement fee."
    window = "Fixed for 2 years at 0% for the first month, then 25% off the standard rate; a 4.5% arrangement fee (minimum £6)."
    found = compare(extract(claim), extract(window), [], texts=(claim, window))
    assert [m.kind for m in found] == ["unit"]
    assert compare(extract(claim), extract(window), []) == []  # without the texts: derived, as before


def test_a_zero_percent_leaves_no_figure_derived_from_itself() -> None:
    assert not supported("a fee of £2.50", "0% interest for 6 months, then a 2.5% fee")


def test_the_same_number_in_another_unit_clashes() -> None:
    found = compare(extract("averaging 51.2 mph"), extract("average speed 51.2 km/h; 2. Fjordline at 14 s"), [])
    assert [m.kind for m in found] == ["unit"]
    # 1,770 m − 620 m is 1,150 m: a derivation keeps its unit, so 1,150 feet is still a unit error.
    found = compare(extract("It climbs 1,150 feet."), extract("It climbs from 620 m to 1,770 m over 1,150 m."), [])
    assert [m.kind for m in found] == ["unit"]
    assert [m.kind for m in compare(extract("up to 64 GB"), extract("8 MB to 64 MB"), [])] == ["unit"]
    dose = extract("a daily limit of 400 micrograms (µg)")
    assert [m.kind for m in compare(extract("no more than 400 mg a day"), dose, [])] == ["unit"]
    assert compare(extract("no more than 400 mcg a day"), dose, []) == []


@pytest.mark.parametrize(
    ("claim", "source", "given"),
    [
        ("a record of two hours, seven minutes and 45 seconds", "time: 2:07:45", ""),
        ("from 9 am until half past one, four and a half hours in all", "start 09:00, end 13:30", ""),
        ("in winter once an hour", "trains run hourly in winter", ""),
        ("two working weeks to appeal", "within 10 working days", ""),
        ("the early 1400s", "the early fifteenth century", ""),
        ("172 years later", "built in 1612, rebuilt in 1784", ""),
        ("£960 comes down to £384", "a 60% discount", "My quote is £960."),
        ("0.4 × 70 + 0.6 × 55 = 28 + 33 = 61", "coursework 40%, exam 60%", "I scored 70 and 55."),
        # Twice or half a stated figure, where the words speak of a multiple, a share or a total.
        ("the dose was then doubled to 40 mg", "a starting dose of 20 mg", ""),
        ("the new line, at 84 km, is twice as long", "the old line ran for 42 km", ""),
        ("both halls together seat 500", "Hall A seats 250; Hall B is the same size", ""),
    ],
)
def test_figures_that_follow_from_stated_ones_are_supported(claim: str, source: str, given: str) -> None:
    assert supported(claim, source, given)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # Figures the claim makes up cannot vouch for each other: 4 = 5 − 1 and 1 = 5 − 4.
        ("Of the five cases, four were admitted and one was treated at home.", "Five cases were confirmed."),
        # 22 / 5 rounds to 4, but a small count must come out exactly.
        ("four were admitted", "five cases since 22 July"),
        # 120 × (100 − 25)% is 90, but no 25% is near: a percentage elsewhere scales only money.
        ("the trip takes 90 minutes", "120 minutes or more: 100% of the return fare"),
        # A round figure keeps the size of what it rounds: 60 is no "100", 1.5 no "2".
        ("100 visitors came on Monday", "60 visitors came on Monday"),
        ("a 2-star rating", "an average of 1.5 stars"),
        # 36 / 4 is 9: a hedge's tenth around a worked-out figure would vouch for almost anything.
        ("a premium of about 10%", "24 months for crops, 36 months for trees; £4 per hectare"),
        # Twice a stated figure, where nothing speaks of a multiple: a made-up figure, not a derived one.
        ("managers may approve up to 10 further days", "up to 5 days of paid leave"),
        ("the warranty can be extended by another 24 months", "every kettle has a 12-month warranty"),
    ],
)
def test_figures_a_claim_makes_up_are_not_derived(claim: str, source: str) -> None:
    assert not supported(claim, source)


@pytest.mark.parametrize(
    ("text", "dimension", "raw"),
    [("up to 10 further days", "time", 10), ("three consecutive years", "time", 3), ("2 extra hours", "time", 2)],
)
def test_a_word_between_a_count_and_its_unit_leaves_the_unit(text: str, dimension: str, raw: float) -> None:
    (q,) = extract(text).quantities
    assert (q.dimension, q.raw) == (dimension, raw)


def test_a_small_count_clashes_only_with_a_count_of_the_same_thing() -> None:
    assert compare(extract("Only two kinds of argument are accepted."), extract("Regulations (2025/26)."), []) == []
    assert [m.kind for m in compare(extract("five cases"), extract("four cases"), [])] == ["number"]


@pytest.mark.parametrize(
    ("claim", "source", "expected"),
    [
        (
            "Regional trains also require one before you board.",
            "On Regional trains, reservations are not required.",
            ("requir", True),
        ),
        (
            "Resit marks at Oxley are not capped.",
            "5.1 One attempt. 5.2 The mark for a resit module is capped at 40.",
            ("cap", False),
        ),
        # The rule before "except" is what the claim denies; the exception does not hide it.
        (
            "Late fees are not charged on parking permits.",
            "A late fee is charged on parking permits at 5% of the balance, except where the delay was caused "
            "by a failure of our payment system, in which case the fee is waived.",
            ("charg", False),
        ),
        (
            "The plan includes accidental damage to the building.",
            "Accidental damage to buildings is not included.",
            ("includ", True),
        ),
        # Permission on a condition is no denial, and a denial in an "if" clause asserts nothing.
        (
            "The landlord can share your data with consent.",
            "The landlord may not share your data without your consent.",
            None,
        ),
        (
            "If you have been using such apps, your account may be locked.",
            "If you don't know why, using third-party apps may be the reason.",
            None,
        ),
        # "5 marks" counts a thing; "will not be marked" denies grading it.
        ("The rules take off 5 marks for each day late.", "Work more than five days late will not be marked.", None),
        # Two ways of saying one denial.
        (
            "an EPC that doesn't recommend loft insulation",
            "an EPC with no outstanding recommendation for loft insulation",
            None,
        ),
        # A question asserts nothing.
        (
            "At least one instructor noticed the issues.",
            "Wouldn't at least one instructor have noticed the issues?",
            None,
        ),
        # … nor does one put indirectly.
        (
            "The auditor was surprised by the size of the reserve fund.",
            "The board asked the auditor why was she not surprised by the size of the reserve fund.",
            None,
        ),
        # A contrasted part about something else denies nothing of the claim …
        (
            "Inactivated vaccines can be given during pregnancy.",
            "Inactivated vaccines can be given during pregnancy, while live vaccines cannot be given during pregnancy.",
            None,
        ),
        # … but the part about the claim's own thing does.
        (
            "Live vaccines can be given during pregnancy.",
            "Inactivated vaccines can be given during pregnancy, while live vaccines cannot be given during pregnancy.",
            ("give", True),
        ),
        # A first time told, not a denial.
        ("The tasting menu includes smoked eel.", "I had never tried smoked eel on a tasting menu before.", None),
        # "prevent X from Y" denies Y, not X; "failing to" and "failure to" say one thing.
        (
            "The injunction kept the landlord from evicting the tenants of Block C.",
            "The injunction prevents the landlord from evicting the tenants of Block C.",
            None,
        ),
        (
            "The trustee was fined for failing to file the charity's accounts on time.",
            "The trustee was fined for a failure to file the charity's accounts on time.",
            None,
        ),
    ],
)
def test_negation_is_read_per_clause_on_what_it_governs(
    claim: str, source: str, expected: tuple[str, bool] | None
) -> None:
    assert polarity_clash(extract(claim), source) == expected


@pytest.mark.parametrize(
    ("claim", "forbidden"),
    [
        # An instruction not to use things forbids the things, whatever verb the claim uses …
        ("If the paint won't come off, rubbing it with white spirit or bleach will shift it.", "bleach"),
        # … and a claim that keeps the ban, or speaks of the purpose only, is no clash.
        ("Avoid white spirit and bleach, which strip the coating.", None),
        ("Wash the panels gently so the coating lasts.", None),
    ],
)
def test_what_an_instruction_forbids(claim: str, forbidden: str | None) -> None:
    source = "Do not use white spirit, bleach or a wire brush on the panels, as these strip the coating."
    assert forbidden_things(extract(claim), source) == forbidden


@pytest.mark.parametrize(
    "source",
    [
        "Never had white spirit or bleach on the panels before, and they still look new.",
        "Don't think of white spirit or bleach as harmless to the panels.",
    ],
)
def test_a_told_experience_or_a_correction_forbids_nothing(source: str) -> None:
    claim = "If the paint won't come off, rubbing it with white spirit or bleach will shift it."
    assert forbidden_things(extract(claim), source) is None


def test_a_certain_statement_against_a_hedged_clause() -> None:
    source = "In the most serious cases, for example repeated offences, the Panel may recommend expulsion."
    assert modality_clash(extract("Repeated offences will get you expelled in serious cases."), source)
    assert not modality_clash(extract("Repeated offences may lead to expulsion in serious cases."), source)


def test_a_claim_that_reports_whose_word_it_is_keeps_the_hedge() -> None:
    source = "The regulator allegedly fined the bank twice for late filings, a trade paper reported."
    plain = "The regulator fined the bank twice for late filings."
    reported = "The trade paper alleges that the regulator fined the bank twice for late filings."
    assert modality_clash(extract(plain), source, plain=True, claim_text=plain)
    assert modality_clash(extract(reported), source, plain=True, claim_text=reported) is None


def test_a_hedge_in_the_next_quoted_sentence_hedges_nothing_here() -> None:
    source = (
        '"If the talks had gone well, we probably would have settled." The strike began on Monday when '
        "the depot cut the night shift."
    )
    claim = "The strike began on Monday when the depot cut the night shift."
    assert closest_clause(extract(claim), source)[1].hedged is False
    assert modality_clash(extract(claim), source, plain=True, claim_text=claim) is None


@pytest.mark.parametrize(
    ("text", "causal"),
    [
        ("The longer hours were the reason for the rise.", True),
        ("The increase reflects a larger area.", True),
        ("The slowdown comes from the fix for the leak.", True),
        ("Kestwick came from behind to win 2–1.", False),
        ("The taps are due to be replaced in summer.", False),
        ("The late finish was down to a signal fault.", True),
        ("With the discount the fare comes down to €18.50.", False),
        ("The delay is largely down to staffing.", True),
        ("Delays were put down to staff shortages.", True),
        ("You can't go down to the vehicle deck to check on it.", False),
        ("The price is down to about £5.", False),
    ],
)
def test_causal_cues(text: str, causal: bool) -> None:
    assert extract(text).causal is causal


@pytest.mark.parametrize(
    ("claimed", "known", "length", "derived"),
    [
        ("30 April", "5 March", "8 weeks", True),  # 26 + 30 days: within one common year
        ("29 April", "5 March", "8 weeks", False),
        ("2 January 2027", "19 December 2026", "two weeks", True),  # across a year end
        ("19 December", "2 January", "14 days", True),  # back from a date
        ("5 June", "5 March", "3 months", True),  # months keep the day of the month
        ("6 June", "5 March", "3 months", False),  # … and are not reckoned in days
        ("10 October 2027", "10 October 2025", "two years", True),
        ("10 October 2026", "10 October 2025", "two years", False),
        ("9 March", "3 March", "7 days", True),  # the last day of a seven-day course from 3 March
        ("9 March", "3 March", "one week", False),  # … but a week after 3 March is 10 March
    ],
)
def test_a_date_worked_out_from_a_given_date_and_a_length_of_time(
    claimed: str, known: str, length: str, derived: bool
) -> None:
    (claim_date,) = extract(f"The next slot is {claimed}.").dates
    (given,) = extract(f"The first visit was on {known}.").dates
    lengths = extract(f"Wait {length} between visits.").quantities
    assert date_derived(claim_date, [given], lengths) is derived


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Lambing runs between 3 and 21 April.", {3, 21}),
        ("Open 3–21 April.", {3, 21}),
        ("Markets on 2, 9 and 16 April.", {2, 9, 16}),
        ("In 2019, 21 April was a Sunday.", {21}),  # a year before a date is no day of it
    ],
)
def test_every_day_of_a_range_or_list_that_names_its_month_once(text: str, days: set[int]) -> None:
    dates = extract(text).dates
    assert {d.day for d in dates} == days and {d.month for d in dates} == {4}


@pytest.mark.parametrize(
    ("text", "head"),
    [
        ("Autumn sowings gave no yield benefit.", "benefit"),  # a compound: its head is its last noun
        ("Inspectors found no leaks in the tank.", "leak"),
        ("There is no fee.", "fee"),
    ],
)
def test_no_denies_the_head_of_its_noun_phrase(text: str, head: str) -> None:
    assert extract(text).negated_heads == {head}


_PIECES = [
    "5",
    " ",
    "am",
    "p.m.",
    ":",
    "12",
    "3:45",
    "£",
    "%",
    "word",
    "1,000",
    ".",
    "s",
    "\n",
    " " * 63,
    " " * 64,
    " " * 90,
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_skipping_runs_of_spaces_finds_the_tokens_a_full_scan_finds(pieces: list[str]) -> None:
    # A source past the reading budget is mostly blanks; tokens are read between them, not in them.
    text = "".join(pieces)
    scanned = [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]
    assert _tokens(text) == scanned


def test_no_phrase_read_from_the_whole_text_holds_a_run_of_spaces() -> None:
    # extract() looks for these in the text with runs of over 64 spaces cut to 64 (issue 11).
    phrases = [*lex.UNKNOWN_PHRASES, *lex.CAUSAL_IDIOMS, *lex.CAUSAL_PHRASES, "up to"]
    assert max(len(p) - len(p.lstrip(" ")) + len(p) - len(p.rstrip(" ")) + p.count("  ") for p in phrases) < 8
    blank = "The cause is unknown" + " " * 5000 + "because of the rain." + " " * 70
    assert compact(blank) == "The cause is unknown" + " " * 64 + "because of the rain." + " " * 64
    assert extract(blank).unknown and extract(blank).causal


# --- who does what, how many, how sure ------------------------------------------------------------
PORT = (
    "Harlow Freight and Danecroft Shipping share the new quay. Danecroft Shipping is the terminal "
    "operator: it runs the cranes, schedules berths and bills vessels for mooring. Harlow Freight is "
    "the customs broker, filing import declarations for shippers and arranging inspections with the "
    "border agency."
)


@pytest.mark.parametrize(
    "claim",
    [
        "Harlow Freight runs the cranes and schedules the berths on the quay.",
        "Danecroft Shipping, the customs broker, files the import declarations.",
        "Vessels are billed for mooring by Harlow Freight.",
    ],
)
def test_a_role_given_to_the_other_named_party_is_a_swap(claim: str) -> None:
    found = role_swap(claim, PORT, (PORT,))
    assert found is not None and "where the source says that of" in found


@pytest.mark.parametrize(
    "claim",
    [
        "Danecroft Shipping operates the terminal, running its cranes and scheduling berths.",
        "Import declarations are filed by Harlow Freight, which also arranges inspections.",
        "Harlow Freight, the customs broker, shares the quay with Danecroft Shipping.",
        "The cranes are run by Danecroft Shipping and the declarations by Harlow Freight.",
    ],
)
def test_roles_kept_with_their_party_are_no_swap(claim: str) -> None:
    assert role_swap(claim, PORT, (PORT,)) is None


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # "from" and "with" name places and company, not who did the deed.
        (
            "Corvane Freight shipped the turbines to the wind farm at Holm Bay.",
            "The turbines were shipped to Holm Bay from Port Esk by Corvane Freight.",
        ),
        (
            "Mayor Ilse Brandt signed the twinning charter with Councillor Otto Varga.",
            "Mayor Ilse Brandt signed the twinning charter, and later dined with Councillor Otto Varga.",
        ),
        # A transcript's speaker label binds nothing.
        (
            "Known as Brightwater, the trio is recording a second album with producer Dana Kirk.",
            "Q: You are recording a second album? Mira Holt: We've been recording with Dana Kirk.",
        ),
    ],
)
def test_places_company_and_speakers_are_no_parties(claim: str, source: str) -> None:
    assert role_swap(claim, source, (source,)) is None


def test_roles_read_only_where_a_party_is_named_are_the_same() -> None:
    # role_swap reads only the clauses that write the claim's parties: each clause is read alone.
    key = tuple(sorted({"Harlow Freight": "harlow freight", "Danecroft Shipping": "danecroft shipping"}.items()))
    text = PORT + " The quay opened in 1990; cranes were added later. " + PORT
    for generous in (False, True):
        whole = bindings(text, key, generous)
        for form, party in key:
            assert bindings(text, key, generous, (form,))[party] == whole[party]


def test_two_parties_that_trade_places_are_a_swap() -> None:
    window = "Kestrel Bank plc is licensed by the Monetary Standards Board and supervised by the Savings Protection Authority."
    claim = (
        "Kestrel itself is licensed by the Savings Protection Authority and supervised by the Monetary Standards Board."
    )
    found = role_swap(claim, window, (window,))
    assert found == "'Savings Protection Authority' 'licensed' where the source says that of 'Monetary Standards Board'"
    # The same parties in their own places, or a party that keeps its own role too, trade nothing.
    assert role_swap(window, window, (window,)) is None


def test_a_role_both_parties_hold_is_no_swap() -> None:
    source = "The survey was carried out by Tamsin Orde and by Felix Barrow over two summers."
    assert role_swap("Felix Barrow carried out the survey over two summers.", source, (source,)) is None


LIBRARY = "Most branches of the Kellerby library network open on Sundays, but Oxton and Wray stay closed."


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Every branch of the Kellerby library network opens on Sundays.", "'Every' where the source says 'Most'"),
        ("The Kellerby library branches always open on Sundays.", "'always' where the source says 'Most'"),
        ("Most branches of the Kellerby library network open on Sundays.", None),
        ("Some Kellerby library branches open on Sundays.", None),  # weaker than the source: entailed
        ("All Kellerby library branches except Oxton and Wray open on Sundays.", None),
    ],
)
def test_a_quantifier_stronger_than_the_source_is_restricted(claim: str, expected: str | None) -> None:
    assert restricted(claim, LIBRARY) == expected


FERRIES = """Island ferries: bicycles
- Carrick Sound: bicycles carried on all crossings, free of charge
- Port Ellin: bicycles carried on the morning crossing only; the evening boat has no bike rack
- Dunmoy: bicycles carried on all crossings for £3"""


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("At Port Ellin bicycles go on every crossing.", "'every' where the source says 'only'"),
        # The restriction on its line is Port Ellin's, named before its colon: not Carrick Sound's or Dunmoy's.
        ("Carrick Sound carries bicycles on every crossing at no charge.", None),
        ("Dunmoy takes bicycles on every crossing for £3.", None),
        ("At Port Ellin bicycles go on the morning crossing only.", None),
    ],
)
def test_a_restriction_belongs_to_the_subject_its_line_names(claim: str, expected: str | None) -> None:
    assert restricted(claim, FERRIES) == expected


BRANCHES = """Kellerby libraries — services

| Branch | Sunday opening | Free wifi | Type |
|---|---|---|---|
| Oxton | no (volunteers only on Saturdays) | yes | community |
| Wray | yes | yes | main |
| Hale | yes | yes | community |
"""


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Every branch opens on Sundays.", "'Every' where the table gives 'no' for 'Oxton'"),
        ("All branches have free wifi.", None),
        ("Every community branch offers free wifi.", None),
        ("All the reading rooms open on Sundays.", None),  # not what the table's rows are
    ],
)
def test_a_universal_claim_against_a_table_column(claim: str, expected: str | None) -> None:
    assert table_exception(claim, BRANCHES) == expected


@pytest.mark.parametrize(
    ("claim", "clash"),
    [
        ("The east wells of Fennick were dug in the 1820s by the first mill owners.", True),
        ("The east wells of Fennick were probably dug in the 1820s by the first mill owners.", False),
        ("Fennick's east wells, three in all, each draw from the chalk aquifer.", False),
    ],
)
def test_a_plain_fact_against_a_hedge_on_what_is_known(claim: str, clash: bool) -> None:
    source = (
        "Fennick's three east wells each draw from the chalk aquifer. They were possibly dug in the "
        "1820s by the first mill owners, but no records survive."
    )
    assert bool(modality_clash(extract(claim), source, plain=True)) is clash


def test_a_permission_is_no_hedge_on_a_fact() -> None:
    source = "Members may bring two guests to the reading room on weekday evenings."
    assert (
        modality_clash(extract("Members bring two guests to the reading room on weekday evenings."), source, plain=True)
        is None
    )


def test_an_effect_where_the_source_says_the_cause_is_not_proven() -> None:
    source = (
        "Hives within 2 km of the Dunmore orchards lost more colonies over winter (31%) than hives further "
        "away (18%). The study does not prove that the orchard sprays caused the losses."
    )
    assert disclaims_cause(source) == "not prove"
    assert asserts_effect("The orchard sprays are killing colonies and raising winter losses.") == "raising"
    assert asserts_effect("Hives near the Dunmore orchards lost more colonies over winter.") is None
    # A cause stated in one sentence and something unknown in another withhold nothing.
    assert disclaims_cause("Varroa mites caused the losses. The name of the beekeeper is unknown.") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("So the sprays killed the colonies.", True),
        ("Therefore, the losses were higher.", True),
        ("Losses were so high.", False),
    ],
)
def test_a_claim_that_opens_with_a_conclusion(text: str, expected: bool) -> None:
    assert concludes(text) is expected


def _swap(claim: str, window: str, sources: str) -> str | None:
    return name_swap(extract(claim), extract(window), claim, window, sources, related=True)


def test_a_party_put_where_the_source_names_another_is_a_swap() -> None:
    window = "Flood warnings are issued on river gauge readings supplied by the Marlow Hydrology Unit."
    claim = "Flood warnings are issued on river gauge readings supplied by the Harcourt Survey Office."
    sources = window + " The Harcourt Survey Office maps the floodplain."
    assert _swap(claim, window, sources) is not None


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # A party the sources themselves put among the claim's words is no swap.
        (
            "According to a Harbour Trust survey, Lindqvist Ferries carried the most passengers.",
            "The top carrier was Lindqvist Ferries, said Anna Maria Sorel, a spokeswoman for Lindqvist Ferries.",
        ),
        # A possessive description and a headline's tail are not one party's name.
        (
            "Kent County's Dara Moss signs with Alder College after a strong season.",
            "Kent County standout signs: Dara Moss of Kent County High School signs with Alder College.",
        ),
    ],
)
def test_descriptions_and_parties_placed_by_the_sources_are_no_swap(claim: str, window: str) -> None:
    sources = window + " A Harbour Trust survey ranked Lindqvist Ferries first. Kent County's team won."
    assert _swap(claim, window, sources) is None


@pytest.mark.parametrize(
    ("claim", "source", "clash"),
    [
        ("All branches open on Sundays.", "Some branches open on Sundays.", True),
        # The source also says what the claim says ("most … Few …"): nothing ruled out.
        (
            "Most homes are small stone cottages.",
            "Most homes are small stone cottages. Few homes have insulation.",
            False,
        ),
        # "minority Shiites" names a group; it counts nothing.
        ("Most residents need aid.", "Minority Shiites fled while residents need aid.", False),
    ],
)
def test_quantifier_clashes(claim: str, source: str, clash: bool) -> None:
    assert quantifiers_clash(extract(claim).quantified, extract(source).quantified) is clash


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        # A second denial close behind the first undoes it; one past "and" denies on its own.
        ("I have never had a problem with the porters not wearing gloves.", set()),
        ("The porter did not lock the gate and did not call the warden.", {"lock", "call"}),
        # "refused to" denies as "won't" does; what comes after "until" has not happened.
        ("The council refused to publish the audit.", {"publish"}),
        ("The dean stays in post until the board accepts her resignation.", set()),
        # "never … before" denies a past, not the thing: it names no denied word, but the text still denies.
        ("I had never tried smoked eel before.", set()),
        # "no-frills" is a kind of thing, not a denial.
        ("Cheap no frills rooms cleaned by friendly staff.", set()),
        # "failure to" denies what follows; a failure that was covered is a thing, not a denial.
        ("Failure to renew the licence voids the cover.", {"renew"}),
        ("The original failure was covered by the warranty.", set()),
        # An adverb of time passes the denial on to its verb; "not necessarily" and "not always" weaken it.
        ("Refunds cannot currently be issued to a card.", {"issu"}),
        ("The portal is not yet open to tenants.", {"open"}),
        ("Late fees are not necessarily charged.", {"necessarili"}),
        ("The rule does not always apply to lodgers.", {"alway"}),
        # A denied duty denies the deed it is about.
        ("Tenants are under no obligation to repaint the walls.", {"repaint"}),
        ("Landlords are not required to supply a fridge.", {"suppli"}),
    ],
)
def test_what_a_denial_governs(text: str, denied: set[str]) -> None:
    assert extract(text).negated_heads == denied


@pytest.mark.parametrize(
    ("text", "causal"),
    [
        ("The backup pump failed to start on its own.", False),  # "led to" inside "failed to"
        ("She struggled to walk after the fall.", False),
        ("The outage led to a week of delays.", True),
        ("Fees rise in May to help pay for the new scanner.", True),  # a purpose given is a reason
        ("Interest is credited when the bond matures.", False),
        ("The new coach is credited with the turnaround.", True),
        ("The flooding was a knock-on effect of the burst main.", True),
    ],
)
def test_causal_cues_are_whole_words_and_phrases(text: str, causal: bool) -> None:
    assert extract(text).causal is causal


def test_an_iso_date_is_a_date_with_its_day_and_year_as_figures() -> None:
    slots = extract('{"renewal_due": "2026-04-30", "logged": "2026-04-02T09:15"}')
    assert [(d.day, d.month, d.year) for d in slots.dates] == [(30, 4, 2026), (2, 4, 2026)]
    assert {q.raw for q in slots.quantities} >= {30.0, 2026.0}
    assert extract("Part 12-2026-04-301 and code 2026-13-01").dates == []


def test_numbers_that_name_things_are_labels_not_operands() -> None:
    slots = extract("9.2 Stage 2, 3 and 4 permits last 30 days; a level 2 course of 5 days.")
    assert [(q.text, q.label) for q in slots.quantities] == [
        ("9.2", True),
        ("2", True),
        ("3", True),
        ("4", True),
        ("30 days", False),
        ("2", True),
        ("5 days", False),
    ]


@pytest.mark.parametrize(
    ("text", "hedged"),
    [
        ("The works start in May.", False),
        ("Payment is due on 6 May 2026.", False),
        ("It may rain on the day.", True),
        ("May I bring a guest?", True),
    ],
)
def test_the_month_may_hedges_nothing(text: str, hedged: bool) -> None:
    assert extract(text).hedged is hedged


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("Take one tablet once a day.", True),
        ("The boiler is serviced once every two years.", True),
        ("Once granted, the permit lasts five years.", False),
        ("Once an offer comes through, accept it online.", False),
        ("Pay the deposit at once.", False),
    ],
)
def test_once_counts_occasions_only_before_a_time(text: str, counted: bool) -> None:
    assert any(q.text.lower().startswith("once") for q in extract(text).quantities) is counted


@pytest.mark.parametrize(
    ("claim", "source", "held"),
    [
        ("Spray at 2,000 to 3,000 parts per million.", "Apply a 0.2-0.3% solution.", True),
        ("Spray at 2,000 to 3,000 parts per million.", "Apply a 2-3% solution.", False),
        ("A chest scan gives 4 to 7 millisieverts.", "A chest scan gives 4-7 mSv.", True),
        ("A chest scan gives 4 to 7 millisieverts.", "A chest scan gives 4-7 µSv.", False),
    ],
)
def test_a_range_shares_the_unit_written_after_it(claim: str, source: str, held: bool) -> None:
    assert supported(claim, source) is held


def test_half_is_fifty_per_cent() -> None:
    assert supported("The grant covers half of the equipment.", "Equipment is funded at 50%.")
    assert not supported("The grant covers a quarter of the equipment.", "Equipment is funded at 50%.")


@pytest.mark.parametrize(
    ("source", "hedged"),
    [("Walkers may have a packed lunch at the summit hut.", False), ("The path may have been rerouted.", True)],
)
def test_may_have_something_is_a_permission_not_a_hedge(source: str, hedged: bool) -> None:
    assert bool(list(hedged_parts(source))) is hedged


@pytest.mark.parametrize(
    ("text", "value", "dimension"),
    [
        ("about 64–72 °F", (64 - 32) * 5 / 9, "temperature"),  # a range's first figure in its second's scale
        ("18 to 22 °C", 18.0, "temperature"),
        ("two and a quarter hours", 2.25 * 3600, "time"),
        ("a fortnight", 14 * 86400, "time"),
        ("530 US gallons", 530 * 3.78541, "volume"),
        ("29 psi", 29 * 6894.76, "pressure"),
        ("2 bar", 200_000, "pressure"),
    ],
)
def test_conversions_read_in_base_units(text: str, value: float, dimension: str) -> None:
    first = extract(text).quantities[0]
    assert first.dimension == dimension
    assert first.value == pytest.approx(value, rel=1e-6)


@pytest.mark.parametrize(
    "text",
    ["Tickets are heavily discounted at 20 pounds.", "The lightest model costs 300 pounds.", "It costs 2 pounds."],
)
def test_pounds_are_money_unless_a_weight_is_spoken_of(text: str) -> None:
    assert extract(text).quantities[0].dimension == "gbp"
    assert extract("The heavy model weighs 8 pounds and costs 90 pounds.").quantities[0].dimension == "mass"


def test_either_side_of_a_conversion_may_be_the_rounded_one() -> None:
    assert supported("he lost 2 stone", "he lost 12.7 kg")
    assert not supported("he lost 3 stone", "he lost 12.7 kg")


def test_a_fraction_counts_as_one_only_of_a_unit() -> None:
    # "one third of the toilets" is a share of a count the claim reads elsewhere; "two thirds of a mile" a length.
    assert figures("two thirds of a mile")[0][1] == "length"
    assert extract("one third of the required toilets").quantities[0].raw == 1.0
    assert extract("It costs 2.2 pounds.").quantities[0].dimension == "gbp"


def test_a_bar_of_soap_is_no_pressure() -> None:
    assert extract("a bar of soap").quantities == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Ask Reception for an access card.", {"reception"}),
        ("Contact Harwick Lettings about repairs.", {"harwick lettings"}),
        # Only verbs that send the reader to a party: "Open", "Mark", "Save" begin names too.
        ("Mark Ellery chairs the committee.", {"mark ellery"}),
        ("Open University courses start in October.", {"open university"}),
    ],
)
def test_an_instructions_verb_is_no_part_of_the_name_after_it(text: str, names: set[str]) -> None:
    assert set(extract(text).names) == names


def test_a_fortnight_is_two_weeks_with_or_without_a_count() -> None:
    """'For the first fortnight' states two weeks as 'a fortnight' does; 'fortnightly' is once a fortnight."""
    (first,) = extract("For the first fortnight, dogs must not be left alone.").quantities
    assert (first.value, first.dimension) == (14 * 86_400.0, "time")
    (rate,) = extract("Bins are emptied fortnightly.").quantities
    assert rate.dimension == "rate/time" and abs(1 / rate.value - 14 * 86_400.0) < 1e-6
    assert not flagged(
        "For the first two weeks it shouldn't be left alone for longer than four hours.",
        "For the first fortnight, dogs must not be left alone for more than 4 hours. Insurance lasts 4 weeks.",
    )


def test_minus_in_words_is_the_figures_sign() -> None:
    """'Minus 10' is −10, as '−10 °C' is; 'minus' between two figures is a subtraction, no sign."""
    assert [q.value for q in extract("It runs at minus 10 °C.").quantities] == [-10.0]
    assert [q.raw for q in extract("£50 minus £10").quantities] == [50.0, 10.0]
    limits = "Operating temperature: −10 °C to 40 °C. Do not fly in precipitation heavier than light drizzle."
    answer = "It is cleared to operate between minus {} and plus 40 degrees Celsius."
    assert not flagged(answer.format(10), limits)
    assert flagged(answer.format(15), limits)
