"""Claims: sentence and clause splitting, offsets, citations, types, non-claims."""

from __future__ import annotations

import pytest

from ragaudit._markers import find_citations
from ragaudit.segment import classify_claim, segment


def texts(answer: str) -> list[str]:
    return [c.text for c in segment(answer).claims]


def test_offsets_are_exact_and_end_exclusive() -> None:
    answer = "Dr. Smith earned $3.5 million in 2019. He said the U.S. market grew 4.5%."
    claims = segment(answer).claims
    assert [c.text for c in claims] == [
        "Dr. Smith earned $3.5 million in 2019.",
        "He said the U.S. market grew 4.5%.",
    ]
    for claim in claims:
        assert answer[claim.start : claim.end] == claim.text


def test_bullets_and_numbered_lists_are_claims_without_markers() -> None:
    answer = "Here is a summary:\n- The plant closed in 2015.\n* It reopened in 2018.\n1. Workers were rehired."
    assert texts(answer) == ["The plant closed in 2015.", "It reopened in 2018.", "Workers were rehired."]


def test_compound_sentence_splits_into_clauses_but_lists_do_not() -> None:
    assert texts("The museum opened in 1990, and it was expanded by the city in 2005.") == [
        "The museum opened in 1990",
        "it was expanded by the city in 2005.",
    ]
    assert len(texts("It serves breakfast, lunch, and dinner every day of the week.")) == 1
    assert texts("The drug lowers blood pressure; it also reduces cholesterol levels.") == [
        "The drug lowers blood pressure",
        "it also reduces cholesterol levels.",
    ]


def test_greetings_headers_questions_are_not_claims() -> None:
    answer = "Hello! Here is a summary: \nWhat does the source say?\nThanks for asking. The bridge is 3 km long."
    assert texts(answer) == ["The bridge is 3 km long."]


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        # An opening that announces the answer is cut off; what it introduces is still checked.
        ("Here is an overview based on the provided data: The cafe opens at 8 am.", ["The cafe opens at 8 am."]),
        ("Sure, the fee is £40.", ["the fee is £40."]),
        ("Sure! here are the steps for renewing a permit:\n\n1. Pay the fee of £40.", ["Pay the fee of £40."]),
        ("Here is a brief overview of the reviews.", []),
        (
            "Here's an overview of the bakery based on the records in CSV format:\n\nIt opens at 7 am.",
            ["It opens at 7 am."],
        ),
        # "Thanks to" gives a cause, not thanks.
        ("Thanks to the new pump, output rose sharply.", ["Thanks to the new pump, output rose sharply."]),
    ],
)
def test_openings_are_cut_off_and_what_they_introduce_is_checked(answer: str, claims: list[str]) -> None:
    assert texts(answer) == claims


def test_abstentions_are_recorded_not_claimed() -> None:
    seg = segment("The bridge is 3 km long. The sources do not say when it was built.")
    assert [c.text for c in seg.claims] == ["The bridge is 3 km long."]
    assert len(seg.abstentions) == 1


def test_a_statement_before_an_abstaining_clause_stays_a_claim() -> None:
    # The fee is a claim to verify; what the sources lack is not (and must not hide the fee).
    answer = "The toll is 4.20 euros for cars, but the operator's pages do not say whether vans pay more."
    seg = segment(answer)
    assert [c.text for c in seg.claims] == ["The toll is 4.20 euros for cars"]
    assert [answer[a:b] for a, b in seg.abstentions] == ["the operator's pages do not say whether vans pay more."]


@pytest.mark.parametrize(
    "answer",
    [
        "Neither leaflet says when the ferry runs in winter.",
        "The timetable does not give winter sailings, so the last crossing can't be worked out from it.",
        # A contrast after the abstention may open a claim; the sentence stays one abstention, as before.
        "The sources do not say whether dogs are allowed, but the ferry takes bicycles.",
    ],
)
def test_clauses_that_continue_an_abstention_are_not_claims(answer: str) -> None:
    seg = segment(answer)
    assert seg.claims == [] and len(seg.abstentions) == 1


@pytest.mark.parametrize(
    ("answer", "refs"),
    [
        ("Paris is large [1].", ["1"]),
        ("Paris is large [1, 3].", ["1", "3"]),
        ("Paris is large [1-3].", ["1", "2", "3"]),
        ("Paris is large [S2].", ["S2"]),
        ("Paris is large [doc-3].", ["doc-3"]),
        ("Paris is large (Source 2).", ["2"]),
        ("Paris is large^2.", ["2"]),
        ("Paris is large.²", ["2"]),
    ],
)
def test_citation_styles_are_parsed_and_cut_from_claim_text(answer: str, refs: list[str]) -> None:
    (claim,) = segment(answer).claims
    assert claim.citations == refs
    assert "[" not in claim.text and "Source" not in claim.text and "^" not in claim.text
    assert claim.text.startswith("Paris is large")


def test_sentence_final_citation_applies_to_every_clause() -> None:
    claims = segment("Revenue rose to 5 million dollars, and the firm hired 200 new workers [2].").claims
    assert [c.citations for c in claims] == [["2"], ["2"]]


def test_a_citation_inside_a_sentence_applies_to_every_clause_before_it() -> None:
    answer = (
        "The sauna shuts at 21:00 on weekdays, so a 20:30 booking is too late for a full session [1][2], "
        "and late arrivals pay the full rate [1]."
    )
    assert [c.citations for c in segment(answer).claims] == [["1", "2"], ["1", "2"], ["1"]]


def test_numbers_are_not_mistaken_for_footnotes() -> None:
    assert find_citations("It grew 25 percent in 2019 and 3.5 times since.") == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The CEO said profits would rise.", "attribution"),
        ("According to the report, the plant is safe.", "attribution"),
        ("Revenue grew 5% to $2 million.", "quantitative"),
        ("The bridge opened in March 1990.", "temporal"),
        ("The results suggest the policy is effective.", "interpretive"),
        ("The bridge crosses the river.", "factual"),
    ],
)
def test_claim_types(text: str, kind: str) -> None:
    assert classify_claim(text) == kind


def test_bare_footnote_numbers_after_a_full_stop_are_citations() -> None:
    """The footnote pattern was an f-string typo (``\\d(1, 2)``) and never matched."""
    claims = segment("The dam is 40 m tall.2 It opened in 1990.3").claims
    assert [(c.text, c.citations) for c in claims] == [("The dam is 40 m tall.", ["2"]), ("It opened in 1990.", ["3"])]


@pytest.mark.parametrize(
    "answer",
    ["It grew 3.5 times.", "The value was 2010.5 in total.", "See No.5 for details.", "Version 1.2 shipped."],
)
def test_decimals_and_numbered_references_are_not_footnotes(answer: str) -> None:
    assert find_citations(answer) == []


def test_a_note_that_the_sources_differ_is_no_claim() -> None:
    seg = segment("Guidance differs between the two sources. The museum opens at 10 am.")
    assert [c.text for c in seg.claims] == ["The museum opens at 10 am."]
    assert len(seg.conflict_notes) == 1


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        # A bare answer particle states nothing yet; one followed by a clause with a verb states it.
        ("Yes, in most cases. Pets under 8 kg travel in the cabin.", ["Pets under 8 kg travel in the cabin."]),
        ("Yes, there is a cafe on board.", ["Yes, there is a cafe on board."]),
        ("No one was hospitalised.", ["No one was hospitalised."]),
        ("No, not really.", []),
    ],
)
def test_an_answer_particle_alone_is_no_claim_but_a_short_statement_is(answer: str, claims: list[str]) -> None:
    assert [c.text for c in segment(answer).claims] == claims


def test_a_numbered_clause_after_a_full_stop_starts_a_sentence() -> None:
    text = "The lease is consolidated in 2024. 4.1 The tenant shall pay rent monthly. 4.2 Rent is due on the 1st."
    assert [c.text for c in segment(text).claims] == [
        "The lease is consolidated in 2024.",
        "4.1 The tenant shall pay rent monthly.",
        "4.2 Rent is due on the 1st.",
    ]


@pytest.mark.parametrize("unit", ["m²", "km²", "ft³"])
def test_a_superscript_after_a_unit_is_no_citation(unit: str) -> None:
    claims = segment(f"The plot covers 450 {unit} and the house 120 {unit}, by the survey.").claims
    assert len(claims) == 1 and not claims[0].citations
    # After a word that merely ends like a unit, it is still a citation.
    assert segment("The fleet has 14 aircraft¹.").claims[0].citations == ["1"]


def test_a_referral_after_a_gap_is_no_claim() -> None:
    answer = (
        "Neither page gives the deposit for a studio. Both say the lease runs for twelve months. "
        "The deposit would have to come from the letting agent."
    )
    result = segment(answer)
    assert [c.text for c in result.claims] == ["Both say the lease runs for twelve months."]
    assert [answer[a:b] for a, b in result.abstentions][-1] == "The deposit would have to come from the letting agent."


def test_advice_to_ask_with_no_gap_before_it_stays_a_claim() -> None:
    claims = segment("Contact the warden before you move furniture into the hall.").claims
    assert [c.text for c in claims] == ["Contact the warden before you move furniture into the hall."]


def test_what_a_document_does_not_say_is_an_abstention_whatever_names_it() -> None:
    answer = "The fee schedule doesn't say whether parking is included, so ask the office when you sign."
    result = segment(answer)
    assert not result.claims and result.abstentions


def test_advice_given_a_discrepancy_is_a_conflict_note() -> None:
    answer = "The guide allows two bags. Given the discrepancy, confirm the allowance with the airline."
    result = segment(answer)
    assert [c.text for c in result.claims] == ["The guide allows two bags."]
    assert [answer[a:b] for a, b in result.conflict_notes] == [
        "Given the discrepancy, confirm the allowance with the airline."
    ]


def test_after_a_gap_only_advice_is_taken_for_a_referral() -> None:
    answer = "The sources do not say whether parking is free. The hotel staff contact guests by text before arrival."
    assert [c.text for c in segment(answer).claims] == ["The hotel staff contact guests by text before arrival."]


@pytest.mark.parametrize(
    "opening",
    ["It's too early to say for sure.", "It depends.", "Not necessarily.", "It depends on how serious the problem is."],
)
def test_a_sentence_that_only_frames_the_answer_is_no_claim(opening: str) -> None:
    answer = f"{opening} The vaccine trial enrolled 240 volunteers."
    assert [c.text for c in segment(answer).claims] == ["The vaccine trial enrolled 240 volunteers."]


def test_a_long_conflict_note_is_a_note_up_to_its_colon_and_claims_after_it() -> None:
    answer = (
        "That depends on which document is right, because they give different closing times: the visitor "
        "leaflet says the archive closes at 17:00 on weekdays, whereas the reading-room rules say it closes at "
        "16:30 and that the last orders are taken half an hour before."
    )
    result = segment(answer)
    assert [answer[a:b] for a, b in result.conflict_notes] == [
        "That depends on which document is right, because they give different closing times:"
    ]
    assert result.claims[0].text == "the visitor leaflet says the archive closes at 17:00 on weekdays"


def test_a_claim_before_a_long_conflict_note_stays_a_claim() -> None:
    answer = (
        "Both depots charge £18 for a parcel of up to 5 kg, but they give different collection windows: the "
        "north depot holds parcels for seven days, while the harbour depot's notice says it keeps them for ten."
    )
    claims = [c.text for c in segment(answer).claims]
    assert claims[0] == "Both depots charge £18 for a parcel of up to 5 kg"


@pytest.mark.parametrize(
    "gap",
    [
        "Nothing here says whether you can change the delivery slot yourself.",
        "The fee is set out in a local price list that isn't among these documents.",
        "The cost of one object can't be split out from what is given.",
        "The amount can't be given here.",
        "The exact fee isn't listed.",
        "A closing date is not provided in the documents.",
        "Specific opening hours are not provided.",
        "The warranty length is not given.",
        "The cancellation policy is not included in what you've shared with me.",
        "A closing date for applications is not available on the council page.",
        "The surveyor's email address isn't provided.",
        "The exact date of the refurbishment is not given.",
    ],
)
def test_what_the_sources_leave_out_is_an_abstention_however_it_is_put(gap: str) -> None:
    result = segment(f"Drops happen between 7 am and 9 pm. {gap}")
    assert [c.text for c in result.claims] == ["Drops happen between 7 am and 9 pm."]
    assert result.abstentions


def test_a_claim_about_what_cannot_be_done_stays_a_claim() -> None:
    for answer in (
        "The parcel cannot be delivered to a PO box.",
        "The safe can't be opened from the outside here.",
        # What the world leaves out, not the sources: checked as any claim.
        "The kitchen is not included in the hire charge.",
        "Chairs and tables are not provided.",
        "Parking is not available on site.",
        "Acme plc is not listed on the London Stock Exchange.",
        "The results were not published until 2021.",
        "Parking is not available on the site.",
        "Breakfast is not included in the package shared by the travel agent.",
    ):
        assert [c.text for c in segment(answer).claims] == [answer]


@pytest.mark.parametrize(
    "note",
    [
        "The documents don't agree on this.",
        "The two guides set different limits.",
        "The two timetables don't quite match.",
        "The figures don't tally.",
    ],
)
def test_sources_that_do_not_agree_make_a_conflict_note(note: str) -> None:
    answer = f"{note} The schedule caps light at 50 lux."
    result = segment(answer)
    assert [c.text for c in result.claims] == ["The schedule caps light at 50 lux."]
    assert [answer[a:b] for a, b in result.conflict_notes] == [note]


def test_a_sentence_ending_on_a_lettered_label_ends_there() -> None:
    answer = "The glazing work is set out in Schedule B. Separately, the gallery must insure it. John F. Kennedy spoke."
    assert [c.text for c in segment(answer).claims] == [
        "The glazing work is set out in Schedule B.",
        "Separately, the gallery must insure it.",
        "John F. Kennedy spoke.",
    ]


@pytest.mark.parametrize(
    "advice",
    [
        "The planning office, or the minutes it publishes, would be the place to look for the decision.",
        "Your employer or the scheme administrator should be able to confirm whether it applies.",
        "Until the surgery confirms which dose it wants, it would be wise to keep to the lower one.",
    ],
)
def test_advice_on_where_to_find_what_the_sources_lack_is_no_claim(advice: str) -> None:
    answer = f"None of the three leaflets mentions a refund. The ticket costs £12. {advice}"
    result = segment(answer)
    assert [c.text for c in result.claims] == ["The ticket costs £12."]
    assert [answer[a:b] for a, b in result.abstentions][-1] == advice


def test_an_obligation_to_confirm_stays_a_claim_after_a_gap() -> None:
    # "should confirm the booking" is what the sources require of someone, not where to find an answer.
    answer = "The pages do not say whether meals are included. The hotel should confirm the booking in writing."
    assert [c.text for c in segment(answer).claims] == ["The hotel should confirm the booking in writing."]


@pytest.mark.parametrize(
    "gap",
    [
        "These records can't tell you who signed the lease — that would have to come from the agent.",
        "Whether pets are allowed isn't covered, so that's one to ask the landlord.",
        "The price list only gives weekday rates.",
        "It's worth asking the warden which of the two rules applies to your plot.",
    ],
)
def test_what_the_sources_cannot_say_or_where_to_ask_is_no_claim(gap: str) -> None:
    answer = f"The lease runs for twelve months. {gap}"
    assert [c.text for c in segment(answer).claims] == ["The lease runs for twelve months."]


@pytest.mark.parametrize(
    "claim",
    [
        "The policy only covers theft.",  # what a policy covers is a claim about the world
        "Storm damage isn't covered by the policy.",
        "The price list only gives rates for 2026 bookings.",  # a figure keeps it a claim
    ],
)
def test_what_a_contract_covers_stays_a_claim(claim: str) -> None:
    assert [c.text for c in segment(claim).claims] == [claim]


def test_nobody_can_say_frames_the_answer() -> None:
    assert [c.text for c in segment("Nobody can say for sure. The fund fell by 4%.").claims] == ["The fund fell by 4%."]


@pytest.mark.parametrize(
    "opening", ["Possibly, but it hasn't been established.", "Perhaps.", "Maybe, but that isn't clear yet."]
)
def test_a_hedged_yes_or_no_frames_the_answer(opening: str) -> None:
    claims = segment(f"{opening} The new meter reads 2% high at low flow.").claims
    assert [c.text for c in claims] == ["The new meter reads 2% high at low flow."]


def test_a_hedged_opening_with_content_stays_a_claim() -> None:
    assert [c.text for c in segment("Possibly the valve failed.").claims] == ["Possibly the valve failed."]


@pytest.mark.parametrize(
    "advice",
    [
        "For the charge itself you'd need to ask Quillby.",
        "For the guest policy itself, it's worth asking Quadrant directly.",
    ],
)
def test_advice_to_ask_after_what_it_is_about_is_no_claim(advice: str) -> None:
    """After a gap the answer names, 'For X, you'd need to ask N' says where to ask, as 'Ask N' does."""
    answer = f"Neither page gives any prices, so there's no way to tell what it would cost. {advice}"
    result = segment(answer)
    assert [c.text for c in result.claims] == []
    assert len(result.abstentions) == 2


@pytest.mark.parametrize(
    "fact",
    [
        "For refunds, you'd need to ask the office, which refunds within three days.",
        "On Saturdays the office is open, so you'd need to ask in person.",
        "It's worth asking for a gift card instead, since those are issued on the spot.",
        "For anything else, contact the manager, Mrs Duffy, who handles all complaints.",
    ],
)
def test_advice_that_states_a_fact_stays_a_claim(fact: str) -> None:
    """A verb before the advice or a clause after it says something of the world: checked as any claim."""
    answer = f"The policy doesn't say how long refunds take to arrive. {fact}"
    assert [c.text for c in segment(answer).claims] != []


def test_particulars_that_do_not_say_are_an_abstention() -> None:
    result = segment("The particulars don't say anything about how flexible the seller is on price.")
    assert result.claims == [] and len(result.abstentions) == 1


def test_a_listing_that_does_not_include_a_thing_is_a_claim() -> None:
    """'The listing price doesn't include the garage' tells of the world: only a listing that does not *say* is a gap."""
    assert segment("The listing price doesn't include the garage, which is sold separately.").claims
