"""Each request-level check on its own."""

from __future__ import annotations

import pytest

from ragaudit import audit

PLANT = [
    {"id": "1", "text": "The plant opened in 2012."},
    {"id": "2", "text": "The plant employs 500 people."},
    {"id": "3", "text": "The plant makes aluminium."},
]


def test_fabricated_citation_names_no_source() -> None:
    (claim,) = audit("The plant opened in 2012 [7].", PLANT).claims
    assert claim.citation_check is not None
    assert claim.citation_check.unknown == ["7"]
    assert not claim.citation_check.valid


def test_wrong_source_citation_names_the_right_source() -> None:
    (claim,) = audit("The plant opened in 2012 [2].", PLANT).claims
    check = claim.citation_check
    assert check is not None and not check.valid
    assert check.unsupportive == ["2"]
    assert check.supporting_sources == ["1"]


def test_a_misattributed_claim_makes_the_answer_hallucinated() -> None:
    # The claim itself is true (source 1 holds it), but the answer credits it to source 2.
    report = audit("The plant opened in 2012 [2].", PLANT)
    assert report.claims[0].status == "supported"
    assert report.label == "hallucinated"
    assert audit("The plant opened in 2012 [1].", PLANT).label == "faithful"


def test_correct_multi_citation_is_valid() -> None:
    (claim,) = audit("The plant opened in 2012 and employs 500 people [1, 2].", PLANT).claims
    assert claim.citation_check is not None
    assert claim.citation_check.cited == ["1", "2"]
    assert claim.citation_check.valid


def test_positional_and_prefixed_citations_resolve() -> None:
    sources = [{"id": "doc-1", "text": "The plant opened in 2012."}, {"id": "doc-2", "text": "It employs 500 people."}]
    report = audit("The plant opened in 2012 (Source 1). It employs 500 people [doc-2].", sources)
    assert [c.citation_check.cited for c in report.claims if c.citation_check] == [["doc-1"], ["doc-2"]]


def test_query_gap_with_correct_abstention() -> None:
    report = audit(
        "The plant opened in 2012. The sources do not say who owns the plant.",
        PLANT,
        question="When did the plant open and who owns it?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is True
    assert report.counts.total == 1  # the abstention is not a claim
    assert report.decision is not None
    assert not any(i.type == "MISSING_ABSTENTION" for i in report.decision.issues)


def test_query_gap_filled_with_claims_is_missing_abstention() -> None:
    report = audit(
        "The plant opened in 2012. It is owned by Norsk Hydro.",
        PLANT,
        question="When did the plant open and who owns it?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is False
    assert report.decision is not None
    assert any(i.type == "MISSING_ABSTENTION" for i in report.decision.issues)


def test_no_gap_when_the_sources_answer() -> None:
    ab = audit("The plant opened in 2012.", PLANT, question="When did the plant open?").abstention
    assert ab is not None and not ab.query_has_gap and ab.answer_abstained_correctly is None


BRIDGE = [{"id": "a", "text": "The bridge is 300 meters long."}, {"id": "b", "text": "The bridge is 320 meters long."}]


def test_numeric_source_conflict_taken_silently() -> None:
    report = audit("The bridge is 300 meters long.", BRIDGE)
    (conflict,) = report.conflicts
    assert conflict.answer_handling == "took_side_silently"
    assert {s.source_id for s in conflict.sides} == {"a", "b"}
    assert {s.value.split()[0] for s in conflict.sides} == {"300", "320"}
    for side in conflict.sides:
        assert {"a": BRIDGE[0], "b": BRIDGE[1]}[side.source_id]["text"][side.start : side.end] == side.quote


def test_numeric_source_conflict_reported() -> None:
    report = audit("One source gives the bridge's length as 300 meters, while another says 320 meters.", BRIDGE)
    assert report.conflicts and all(c.answer_handling == "reported_conflict" for c in report.conflicts)


def test_conflict_where_the_answer_matches_neither_source() -> None:
    report = audit("The bridge is 310 meters long.", BRIDGE)
    assert report.conflicts and report.conflicts[0].answer_handling == "answer_error"


def test_arithmetic_on_stated_figures_is_an_inference() -> None:
    (claim,) = audit(
        "Sales totalled 100 units over the two months.", ["Sales were 40 units in May and 60 units in June."]
    ).claims
    assert claim.status != "supported"
    assert claim.inferable


# --- citations: each marker judged against the clauses it cites ------------------------------
CLINIC = [
    {"id": "S1", "text": "Harwick Clinic opens at 08:00 on weekdays and at 09:30 on Saturdays."},
    {"id": "S2", "text": "Flu vaccines at Harwick Clinic are given without an appointment on Tuesday afternoons."},
]


def test_citation_to_a_passage_about_something_else_is_fabricated() -> None:
    (claim,) = audit(
        "Flu jabs are available at Harwick Clinic on Tuesday afternoons with no booking [S1].", CLINIC
    ).claims
    check = claim.citation_check
    assert check is not None and not check.valid
    assert check.unsupportive == ["S1"]
    assert check.supporting_sources == ["S2"]


def test_citing_the_right_passage_for_a_misstated_figure_is_not_fabrication() -> None:
    (claim,) = audit("The plant employs 700 people [2].", PLANT).claims
    assert claim.status == "contradicted"
    assert claim.citation_check is not None and claim.citation_check.valid


def test_each_citation_of_a_claim_is_judged() -> None:
    (claim,) = audit("Harwick Clinic opens at 08:00 on weekdays [S1][S2].", CLINIC).claims
    check = claim.citation_check
    assert check is not None and check.cited == ["S1", "S2"]
    assert check.unsupportive == ["S2"]


def test_a_sentence_final_marker_may_cite_only_its_last_clause() -> None:
    museum = [
        {"id": "S1", "text": "The Ellan hoard of 212 silver coins was found by a farmer in 2019."},
        {"id": "S2", "text": "The Ellan hoard is on display in the Marwick Museum's coin room from 4 May."},
    ]
    report = audit("A farmer found the hoard in 2019, and it is shown in the Marwick Museum's coin room [S2].", museum)
    assert all(c.citation_check is None or c.citation_check.valid for c in report.claims)


# --- abstention: the question's asks against the sources ------------------------------------
INCOME_PLAN = [
    {
        "id": "1",
        "text": "Brellin Income Cover pays 60% of your gross salary after a waiting period of 13 weeks. "
        "Cover ends at age 65.",
    }
]


def test_partial_gap_acknowledged_in_a_two_part_question() -> None:
    report = audit(
        "Benefit starts after a 13-week waiting period. The document doesn't say whether premiums rise with age.",
        INCOME_PLAN,
        question="How long is the waiting period on Brellin Income Cover, and do premiums rise with age?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is True
    assert ab.gaps == ["do premiums rise with age?"]


def test_invented_answer_to_an_unanswerable_question_is_unsupported() -> None:
    report = audit(
        "Staff may bring well-behaved dogs to the Quenby office on Fridays.",
        [{"id": "1", "text": "The Quenby office is open from 07:00 to 21:00. Bicycle storage is in the basement."}],
        question="Can I bring my dog to the Quenby office?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is False
    (claim,) = report.claims
    assert claim.status == "unsupported"
    assert claim.judge_status is None or claim.amended_by == ["check:abstention"]


def test_paraphrased_answer_has_no_gap() -> None:
    report = audit(
        "New starters complete a six-month probation.",
        [{"id": "1", "text": "All new employees serve a probationary period of six months."}],
        question="How long is the probation period for new hires?",
    )
    ab = report.abstention
    assert ab is not None and not ab.query_has_gap and ab.answer_abstained_correctly is None


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # The ask's form ("need", "get back", "work out at per") is in no source; what it asks about is.
        (
            "My tenancy ended on 3 March and I returned the keys that day. How much deposit should I get back?",
            "You should receive the full £1,200 deposit, less any deductions for damage.",
        ),
        ("What does the house espresso work out at per kilo in the 5 kg bag?", "The 5 kg bag comes to £21 a kilo."),
        # "cost" is answered by the price the sources give, whatever they call it.
        ("Does it cost anything to photograph the manuscripts?", "Photography permits are £5 a day."),
    ],
)
def test_the_words_of_an_asks_form_leave_no_gap(question: str, answer: str) -> None:
    sources = [
        {
            "id": "1",
            "text": "Deposits of £1,200 are repaid within 21 days of the tenancy ending, less deductions for damage. "
            "House espresso: £105 for a 5 kg bag. Photography permits for manuscripts are £5 a day.",
        }
    ]
    ab = audit(answer, sources, question=question).abstention
    assert ab is not None and not ab.query_has_gap


def test_a_price_asked_of_sources_without_one_is_still_a_gap() -> None:
    report = audit(
        "Photographing manuscripts costs £5 a day.",
        [{"id": "1", "text": "Readers may photograph manuscripts without flash in the reading room."}],
        question="Does it cost anything to photograph the manuscripts?",
    )
    ab = report.abstention
    assert ab is not None and ab.query_has_gap and ab.answer_abstained_correctly is False


# --- source conflicts -------------------------------------------------------------------------
CHEESE = [
    {"id": "a", "text": "District guidance (2024): raw-milk cheeses must be kept at 8 °C or below."},
    {"id": "b", "text": "Dairy Board code (2025): raw-milk cheeses must be stored at 5 °C or below."},
]


def test_silently_taking_one_side_is_contradicted_as_a_recorded_step() -> None:
    report = audit("Raw-milk cheese must be kept at 8 °C or below.", CHEESE)
    (conflict,) = report.conflicts
    assert conflict.answer_handling == "took_side_silently" and conflict.kind == "quantity"
    (claim,) = report.claims
    assert claim.status == "contradicted"
    assert claim.judge_status == "supported" and claim.amended_by == ["check:conflict"]
    assert claim.decided_by == "check:conflict" and set(claim.involved_sources) == {"a", "b"}
    assert claim.confidence != 0.75


def test_reporting_both_sides_is_faithful() -> None:
    report = audit(
        "The two documents disagree. The district guidance says 8 °C or below, while the Dairy Board code says 5 °C.",
        CHEESE,
    )
    assert report.conflicts and all(c.answer_handling == "reported_conflict" for c in report.conflicts)
    assert all(c.amended_by == [] for c in report.claims)


def test_conflicting_dates_are_reported_with_both_spans() -> None:
    terms = [
        {"id": "cal", "text": "Academic calendar: the spring term starts on Monday 12 January 2026."},
        {"id": "letter", "text": "Welcome letter: your spring term classes start on Monday 19 January 2026."},
    ]
    report = audit("The spring term starts on 12 January 2026.", terms)
    (conflict,) = report.conflicts
    assert conflict.kind == "date"
    for side in conflict.sides:
        source = next(t for t in terms if t["id"] == side.source_id)
        assert source["text"][side.start : side.end] == side.quote


def test_an_explicit_amendment_is_not_a_conflict() -> None:
    hr = [
        {"id": "S1", "text": "Tessan Foods Handbook, section 4.2: staff may work remotely up to two days a week."},
        {
            "id": "S2",
            "text": "Tessan Foods policy update: section 4.2 of the Handbook is replaced; staff may work remotely "
            "up to three days a week.",
        },
    ]
    report = audit("Staff may work remotely up to three days a week.", hr)
    assert report.conflicts == []


def test_different_subjects_with_different_figures_are_not_a_conflict() -> None:
    offices = [
        {"id": "1", "text": "Kestal office: staff get 25 days of annual leave."},
        {"id": "2", "text": "Dunmore office: staff get 22 days of annual leave."},
    ]
    assert audit("Kestal staff get 25 days of annual leave.", offices).conflicts == []


def test_a_claim_comparing_two_named_subjects_takes_no_side() -> None:
    florists = [
        {"id": "1", "text": "Petal & Stem price list. Large bridal bouquet £140. Buttonholes £9 each."},
        {"id": "2", "text": "Bloomfield Flowers. Grand bouquet £118, classic bouquet £95. Buttonholes £7.50."},
    ]
    answer = "Petal & Stem's large bridal bouquet costs £140 against £118 for Bloomfield's grand bouquet."
    assert audit(answer, florists).conflicts == []
    # Two passages about the one subject the claim names still disagree.
    kestal = [
        {"id": "1", "text": "Kestal office handbook: staff get 25 days of annual leave."},
        {"id": "2", "text": "Kestal office intranet, 2026: staff get 22 days of annual leave."},
    ]
    assert [c.answer_handling for c in audit("Kestal staff get 25 days of annual leave.", kestal).conflicts] == [
        "took_side_silently"
    ]


def test_an_answer_that_gives_each_products_figure_from_its_own_passage_takes_no_side() -> None:
    accounts = [
        {"id": "1", "text": "Two-year fixed bond: the interest rate is 3.9% a year, paid at maturity."},
        {"id": "2", "text": "Everyday saver: the interest rate is 2.1% a year, paid monthly."},
    ]
    answer = "The bond's interest rate is 3.9% a year, paid at maturity. The everyday saver pays 2.1% a year, monthly."
    assert audit(answer, accounts).conflicts == []
    # The same figure for something else of the answer's own does not excuse a side taken silently.
    assert [
        c.answer_handling for c in audit("The bridge is 300 meters long. It opened 320 days late.", BRIDGE).conflicts
    ] == ["took_side_silently"]


# --- synthesis errors -----------------------------------------------------------------------
FEES = [
    {
        "id": "S1",
        "text": "Programme fees\n\n| Programme | Duration | Fee |\n|---|---|---|\n"
        "| MA History | 12 months | £9,100 |\n| MA Archaeology | 24 months | £11,400 |\n",
    }
]


def test_a_figure_from_another_table_row_is_a_synthesis_error() -> None:
    (claim,) = audit("The MA History runs for 24 months.", FEES).claims
    assert claim.status == "synthesis_error"
    assert claim.involved_sources == ["S1"]
    assert claim.amended_by == ["check:synthesis"] and claim.judge_status is not None
    assert "MA Archaeology" in claim.explanation


def test_correct_synthesis_across_rows_stays_supported() -> None:
    report = audit("The MA History takes 12 months and the MA Archaeology 24 months.", FEES)
    assert all(c.status != "synthesis_error" for c in report.claims)


KILNS = [
    {
        "id": "S1",
        "text": "Studio kilns\n\n| Kiln | Code | Capacity | Top temperature |\n|---|---|---|---|\n"
        "| Front kiln | K-1 | 120 litres | 1,300 °C |\n| Back kiln | K-2 | 95 litres | 1,260 °C |\n"
        "| Test kiln | K-3 | 30 litres | 1,280 °C |\n\nFirings above 1,000 °C must be booked with the technician.",
    }
]


def test_figures_listed_after_several_named_rows_go_to_them_in_turn() -> None:
    report = audit("The kilns K-1 to K-3 hold 120, 95 and 30 litres.", KILNS)
    assert all(c.status != "synthesis_error" for c in report.claims)
    # One row named, another row's figure: still an error.
    assert [c.status for c in audit("The test kiln, K-3, holds 95 litres.", KILNS).claims] == ["synthesis_error"]


def test_a_note_after_a_table_belongs_to_no_row() -> None:
    report = audit("Firing the front kiln above 1,000 °C has to be booked with the technician.", KILNS)
    assert all(c.status != "synthesis_error" for c in report.claims)


def test_a_word_from_another_list_item_is_a_synthesis_error() -> None:
    results = [
        {
            "id": "1",
            "text": "Jumps results\n- Men's long jump: Tavi Orrin, GOLD, 7.88 m\n"
            "- Women's triple jump: Mara Solte, SILVER, 13.71 m\n- Men's high jump: Ode Pell, 4th, 2.15 m\n",
        }
    ]
    report = audit("Tavi Orrin won gold in the triple jump with 7.88 m.", results)
    assert [c.status for c in report.claims] == ["synthesis_error"]


def test_a_when_clause_inside_the_ask_asks_for_no_date() -> None:
    # "when we cook it" is a conjunction: the ask wants a temperature, which the source gives in
    # its own words ("poultry", "core").
    report = audit(
        "Chicken should reach at least 75 °C in the very middle.",
        ["Poultry must be cooked until the centre (core) reaches at least 75 °C."],
        question="How hot does chicken need to get when we cook it in our café kitchen?",
    )
    assert report.abstention is not None and not report.abstention.query_has_gap
    assert all("check:abstention" not in c.amended_by for c in report.claims)


TRAIL_TABLE = (
    "Hill trails, summer 2026\n\n| Trail | Length (km) | Difficulty | Surface |\n|---|---|---|---|\n"
    "| Ridgeway Loop | 14 | hard | rocky |\n| Millbrook Path | 6 | easy | gravel |"
)


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("The Millbrook Path is a 6 km trail with an easy difficulty rating and a gravel surface.", "supported"),
        # The Ridgeway Loop's difficulty given to the Millbrook Path: both parts are true of the table.
        ("The Millbrook Path is a 6 km trail with a hard difficulty rating and a gravel surface.", "synthesis_error"),
        # Another row's value beside the row's own, in a comparison, is no error.
        ("The Millbrook Path is rated easy for difficulty, unlike the hard Ridgeway Loop.", "supported"),
    ],
)
def test_a_table_cell_of_another_row_is_a_synthesis_error(answer: str, status: str) -> None:
    (claim,) = audit(answer, [TRAIL_TABLE]).claims
    assert claim.status == status


def test_a_contradicted_answer_is_no_invented_one() -> None:
    # The source answers the ask and the claim misstates it: the contradiction stands, and no gap is
    # reported for an ask the sources do answer.
    source = (
        "Tick fever: most people recover within a week without any treatment, but it can be serious for older "
        "adults. Rest and drink plenty of fluids."
    )
    report = audit(
        "Everyone who catches tick fever recovers within a week without needing any treatment, so rest and drink "
        "plenty of fluids.",
        [source],
        question="How long does tick fever last and do I need to see a doctor?",
    )
    assert report.claims[0].status == "contradicted"
    assert report.abstention is not None and not report.abstention.query_has_gap


SCHEDULE = [
    {
        "id": "S1",
        "text": "Service intervals\n\n| Item | Interval | Task |\n|---|---|---|\n"
        "| Boiler flue seal | 4 years | pressure test |\n| Smoke alarm battery | 7 years | replacement |\n"
        "| Zone B-2 sprinkler head | 5 years | flow test |\n| Zone B-3 sprinkler head | 10 years | flow test |\n",
    }
]


@pytest.mark.parametrize(
    "answer",
    [
        "The boiler flue seals must be pressure tested every 7 years.",  # a row named in lower case
        "In Zone B-2 the sprinkler heads get a flow test every 10 years.",  # a row named by its code
    ],
)
def test_a_table_rows_cell_given_to_another_row_is_a_synthesis_error(answer: str) -> None:
    assert [c.status for c in audit(answer, SCHEDULE).claims] == ["synthesis_error"]


ROOMS = [
    {
        "id": "S1",
        "text": "Harbour Conference Centre: rooms (updated 1 June)\n\n| Room | Seats | Day rate | Free from |\n|---|---|---|---|\n"
        "| 3A | 40 | £420 | 14 July |\n| 4B | 60 | £610 | 2 August |\n| 9 | 12 | £150 | 14 July |\n\n"
        "All rates include a projector.",
    }
]
CODES = [
    {
        "id": "S1",
        "text": "| Code | Item | Standard rate | Reduced rate | Condition |\n|---|---|---|---|---|\n"
        "| 4410 | Hand tools and spare blades | 8% | 2% | Made with at most 30% imported steel |\n"
        "| 4420 | Garden machinery | 5% | 0% | Assembled locally |\n",
    }
]


@pytest.mark.parametrize(
    ("answer", "sources", "status"),
    [
        # A row named by a code of letters and digits, even where a pronoun carries it on ("three … a" do not
        # name row 3A).
        (
            "Room 4B has three screens, seats 60 and costs £610 a day; it is free from 14 July.",
            ROOMS,
            "synthesis_error",
        ),
        ("Room 4B has three screens, seats 60 and costs £610 a day; it is free from 2 August.", ROOMS, "supported"),
        # A value belongs to the row named last before it, not to one named after it.
        ("Room 4B seats 60 and is free from 14 July, a fortnight before 3A.", ROOMS, "synthesis_error"),
        # A bare number ("9") names no row: too many figures look the same.
        ("Room 9 seats 12 and is free from 2 August.", ROOMS, None),
        # After a code, most words of the next cell name the row.
        (
            "Garden machinery drops to 0% from 5%, as long as no more than 30% of the steel is imported.",
            CODES,
            "synthesis_error",
        ),
        ("Hand tools drop to 2% from 8%, as long as no more than 30% of the steel is imported.", CODES, "supported"),
    ],
)
def test_a_row_named_by_its_code_or_label_owns_its_cells(answer: str, sources: list, status: str | None) -> None:
    statuses = [c.status for c in audit(answer, sources).claims]
    if status is None:
        assert "synthesis_error" not in statuses
    elif status == "supported":
        assert "synthesis_error" not in statuses and "contradicted" not in statuses
    else:
        assert status in statuses


def test_a_row_named_in_lower_case_owns_only_what_follows_its_name() -> None:
    # "every 4 years" comes before "smoke alarm battery" is named: it is the (paraphrased) flue seal's.
    answer = "A flue seal is pressure tested every 4 years and a smoke alarm battery replaced every 7 years."
    assert all(c.status != "synthesis_error" for c in audit(answer, SCHEDULE).claims)


def test_a_rows_own_cell_is_no_synthesis_error() -> None:
    answer = "The boiler flue seals must be pressure tested every 4 years."
    assert [c.status for c in audit(answer, SCHEDULE).claims] == ["supported"]


def test_a_marker_naming_two_sources_holds_where_each_supplies_a_figure() -> None:
    # The rule (10 lengths) is in the policy, the owl's own record (12 lengths) in the case notes.
    sources = [
        {"id": "S1", "text": "An owl may be released once it has flown at least 10 full lengths of the flight aviary."},
        {"id": "S2", "text": "Case notes, owl TO-117. Flight test on 2 October: 12 lengths, controlled turns, passed."},
    ]
    answer = "She passed her flight test on 2 October, flying 12 lengths where 10 are required [S1][S2]."
    (claim,) = audit(answer, sources).claims
    assert claim.citation_check is not None and claim.citation_check.valid
    # A marker naming a source that holds nothing of the claim is still fabricated.
    wrong = audit(answer.replace("[S1][S2]", "[S2][S3]"), [*sources, {"id": "S3", "text": "Owls eat mice and voles."}])
    assert wrong.claims[0].citation_check is not None and not wrong.claims[0].citation_check.valid


def test_a_denial_contradicted_stays_so_whatever_figures_follow_by_arithmetic() -> None:
    # "two weeks" follows from "14 days", but what is contradicted is the refund, not a figure.
    source = "If you cancel within 14 days of joining, the first payment is refunded, but the £25 joining fee is not refundable."
    (claim,) = audit(
        "Cancel within two weeks of joining and you get your first payment back along with the £25 joining fee.",
        [source],
    ).claims
    assert claim.status == "contradicted" and claim.decided_by == "detector:negation"
    assert "check:inference" not in claim.amended_by


def test_a_conjunction_of_time_in_an_ask_is_no_word_a_source_must_hold() -> None:
    """ "How long can you hold it once it's finished?": the ask is about holding; "once" is its form, and an answer
    opening on "Once …" fills no gap."""
    sources = [
        {
            "id": "S1",
            "text": "We will contact you when your piece is ready. Completed items must be collected, or delivery "
            "arranged, within 14 days of that notification; after this, storage is charged at £10 per week.",
        }
    ]
    report = audit(
        "Once they let you know it's ready, you have a fortnight to pick it up or book delivery [S1].",
        sources,
        "How long can you hold it once it's finished?",
    )
    assert report.abstention is not None and not report.abstention.query_has_gap
