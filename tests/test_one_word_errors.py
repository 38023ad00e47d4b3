"""One-word errors a careful reader catches, each beside the faithful rewrite that must still pass, and the
faithful readings a careful reader gives (a frame, a referral, a kept hedge, a time told in another passage).

Written for these tests (fictional, not taken from any benchmark): a share against "most", a party put in
another's place, a duty where the source only advises, a denial the source states in another sentence, a
length of days between two stated dates, a share put in words.
"""

from __future__ import annotations

import pytest

import ragaudit
from ragaudit._calendar import date_span
from ragaudit._certainty import referral_consequence
from ragaudit._identity import misplaced_party
from ragaudit._mentions import counts_list, share_in_words
from ragaudit._scope import strength
from ragaudit.slots import extract


def verdict(answer: str, *sources: str) -> tuple[str, str]:
    """The answer's first claim not supported (status, decided_by), or ("supported", "")."""
    report = ragaudit.audit(answer, [{"id": f"S{i}", "text": t} for i, t in enumerate(sources, 1)])
    bad = next((c for c in report.claims if c.status != "supported"), None)
    return (bad.status, bad.decided_by or "") if bad else ("supported", "")


SURVEY = (
    "Orchard Lane Surgery: patient survey 2025. 518 patients replied. 87% rated the reception team as helpful. "
    "29% of respondents had used the online repeat-prescription service, and of those, 91% found it easy."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        ("Most respondents had used the online repeat-prescription service.", True),
        ("The majority of respondents had used the online repeat-prescription service.", True),
        ("Most respondents rated the reception team as helpful.", False),
        ("About three in ten respondents had used the online repeat-prescription service.", False),
    ],
)
def test_most_is_read_against_the_share_the_source_gives(claim: str, caught: bool) -> None:
    status, by = verdict(claim, SURVEY)
    assert (status != "supported") is caught
    if caught:
        assert by == "detector:quantifier"


CONTACTS = (
    "Welcome to Tarn Valley Storage. Your site manager is Owen Pryce, who handles access cards and unit changes. "
    "Claims for damaged goods are handled by our insurer, Halden Mutual, on 0800 555 0192. "
    "Out of hours, alarms are monitored by Brightwatch Security, who will call you if your alarm goes off."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        ("Claims for damaged goods are handled by Brightwatch Security on 0800 555 0192.", True),
        ("Claims for damaged goods go to the insurer, Halden Mutual, on 0800 555 0192.", False),
        ("If your alarm goes off out of hours, Brightwatch Security will call you.", False),
    ],
)
def test_a_party_put_in_another_partys_place_is_caught(claim: str, caught: bool) -> None:
    found = misplaced_party(claim, (CONTACTS,))
    assert (found is not None) is caught
    assert (verdict(claim, CONTACTS)[0] != "supported") is caught


def test_a_party_named_in_its_own_sentence_is_not_misplaced() -> None:
    # The claim gathers what two sentences tell: no one sentence is its place.
    claim = "Owen Pryce handles access cards, and Halden Mutual handles claims for damaged goods."
    assert misplaced_party(claim, (CONTACTS,)) is None


RULES = (
    "Marina rules, section 4. 4.1 Lifejackets are recommended but not compulsory on the pontoons. "
    "4.2 Berth holders must moor with two bow lines. "
    "4.3 For boats over 12 metres, a pump-out may be required after an inspection. "
    "4.4 Visitors are encouraged, but not required, to log their passage plan with the harbour office."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        ("A lifejacket is required on the pontoons.", True),
        ("You have to wear a lifejacket on the pontoons.", True),
        ("Boats over 12 metres must have a pump-out.", True),
        ("Lifejackets are advised on the pontoons but are not compulsory.", False),
        ("Berth holders have to moor with two bow lines.", False),
        # "Encouraged, but not required": the denied duty qualifies the advice, no contrast of two things.
        ("Visitors are required to log a passage plan with the harbour office.", True),
    ],
)
def test_a_duty_where_the_source_only_advises_is_a_modality_error(claim: str, caught: bool) -> None:
    status, by = verdict(claim, RULES)
    assert (status != "supported") is caught
    if caught:
        assert by == "detector:modality"


MEMBERSHIP = (
    "Full membership costs £40 a year and includes public liability insurance and the newsletter. "
    "Associate membership, at £12, is for people who do not fly; it includes the newsletter and meetings but not "
    "insurance. Members joining after 1 April pay half the annual fee."
)


@pytest.mark.parametrize(
    ("claim", "status"),
    [
        ("The £12 associate option gives you the newsletter and meetings but no insurance.", "supported"),
        # The associate sentence denies insurance too, but the full-membership sentence tells more of the claim.
        ("Full membership includes the newsletter but no public liability insurance.", "contradicted"),
        ("A full member pays £40 a year, or half that if joining after 1 April.", "supported"),
    ],
)
def test_a_denial_or_date_the_sources_state_elsewhere_is_no_clash(claim: str, status: str) -> None:
    assert verdict(claim, MEMBERSHIP)[0] == status


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        # Punctuation ends a clause though it is no token: two denials in two clauses.
        ("Members are not charged for cancelled classes, as the rules do not allow it.", {"charg", "allow"}),
        ("never had a problem with the staff not wearing masks", set()),
        # A denied noun phrase ends at a comma: the charge, not the X-rays after it.
        ("one emergency visit at no extra charge, routine X-rays and a discount", {"charg"}),
        # "Failed" is a denial only before "to".
        ("Failed pumps were the most common fault.", set()),
        ("The tenant failed to pay the deposit.", {"pay"}),
    ],
)
def test_what_a_denial_governs(text: str, denied: set[str]) -> None:
    assert extract(text).negated_heads == denied


def test_a_hyphenated_claim_word_meets_the_words_of_its_source() -> None:
    source = "Members are not charged for cancelled classes, as club rules do not allow it."
    assert verdict("Members are charged a cancelled-class fee.", source)[0] == "contradicted"
    assert verdict("Cancelled classes cost members nothing.", source)[0] == "supported"


@pytest.mark.parametrize(("days", "spanned"), [(7, True), (6, True), (8, False), (14, False)])
def test_a_length_of_days_may_be_the_span_between_two_dates(days: int, spanned: bool) -> None:
    # 2 March to 8 March: seven days counting the first, six without it.
    q = extract(f"{days} days").quantities[0]
    assert date_span(q, extract("from 2 March to 8 March").dates, []) is spanned
    # From one source sentence, not from dates of unrelated sentences; over a year's end when no year is written.
    assert date_span(q, [], ["Stored from 2 March. Collected 8 March."]) is False
    assert date_span(q, [], ["The container was stored from 2 March to 8 March."]) is spanned


def test_a_span_of_days_may_run_over_a_years_end() -> None:
    assert date_span(extract("seven days").quantities[0], [], ["Closed from 28 December to 3 January."])


def test_a_span_of_days_between_stated_dates_is_no_added_detail() -> None:
    source = "The container was discharged on 2 March and collected on 9 March. Storage is free for five days."
    assert verdict("It sat at the port for seven days, the first five of them free.", source)[0] == "supported"
    assert verdict("It sat at the port for twelve days, the first five of them free.", source)[0] != "supported"


def test_a_span_of_days_between_two_dates_of_one_record_is_no_added_detail() -> None:
    # The initial in "R. Okafor" breaks the record's text as a sentence would: its dates are still of one thing.
    record = (
        '{"sample_date": "2026-02-03", "sampled_by": "R. Okafor", "reported_date": "2026-02-05", '
        '"analysed_by": "Elsmere Water Laboratory"}'
    )
    assert verdict("Elsmere Water Laboratory reported two days after the sample was taken.", record)[0] == "supported"
    assert verdict("Elsmere Water Laboratory reported four days after the sample was taken.", record)[0] != "supported"


@pytest.mark.parametrize(
    ("claim", "shared"), [("about two in five", True), ("one in three", False), ("2 in 5 of them", True)]
)
def test_a_share_in_words_is_read_against_a_percentage(claim: str, shared: bool) -> None:
    part, whole = extract(claim).quantities[:2]
    stated = extract("41% of patients").quantities
    assert share_in_words(claim, whole, stated) is shared
    assert share_in_words(claim, part, stated) is shared
    # The share's own numbers state no share: "one in ten" is not 10% because ten is 10.
    assert not share_in_words("one in ten", extract("one in ten").quantities[1], extract("one in ten").quantities)


@pytest.mark.parametrize(
    ("claim", "counted"),
    [
        ("Visitors can use two car parks, North and Riverside.", True),
        ("Classes run on three days (Monday, Wednesday and Friday) in term time.", True),
        ("There are two reasons: cost and access.", True),
        ("Visitors can use three car parks, North and Riverside.", False),
        ("Visitors can use two car parks, and the North one is free.", False),
        ("The hall has two rooms, with a stage and a bar.", False),
    ],
)
def test_a_count_of_the_items_the_claim_lists_is_its_own(claim: str, counted: bool) -> None:
    assert counts_list(claim, extract(claim).quantities[0]) is counted


def test_a_count_of_listed_items_is_no_added_detail_and_a_miscount_is() -> None:
    source = "Parking: the North car park opens at 7am. The Riverside car park has 40 spaces and opens at 8am."
    assert verdict("There are two car parks, North and Riverside.", source)[0] == "supported"
    assert verdict("There are three car parks, North and Riverside.", source)[0] != "supported"


def test_a_figure_both_give_ties_a_denied_verb_to_the_clause_that_states_it() -> None:
    source = "The adoption fee is £70 per rabbit, which includes neutering and first vaccinations against myxomatosis."
    assert verdict("Each rabbit costs £70, which doesn't include neutering.", source) == (
        "contradicted",
        "detector:negation",
    )
    assert verdict("Each rabbit costs £70, which includes neutering.", source)[0] == "supported"
    # A bound is no denial a figure can tie ("no earlier than ten weeks" against "not before 10 weeks of age").
    puppies = (
        "Puppies receive their first vaccination from 8 weeks of age. The second dose is given 2 to 4 weeks later, "
        "and not before 10 weeks of age."
    )
    claim = "The first injection is from eight weeks old, the second two to four weeks after that but no earlier than ten weeks."
    assert verdict(claim, puppies)[0] == "supported"


def test_a_percentage_is_never_added_to_a_count() -> None:
    source = (
        "The scheme launched with 600 bikes (40% electric) at 75 stations. "
        "Officers recommend expanding the network to 110 stations by 2027."
    )
    assert verdict("Officers want to grow the network to 150 stations by 2027.", source) == (
        "contradicted",
        "detector:number",
    )
    assert verdict("Officers want to grow the network to 110 stations by 2027.", source)[0] == "supported"


CLINIC = (
    "Harbour Dental: opening hours. Monday to Friday 08:30-17:30. Phone lines open 15 minutes after the practice "
    "opens. Implants are offered by Dr Lena Ross; the evidence on whitening strips suggests, but does not prove, "
    "that they damage enamel."
)
ADVISORY = (
    "Skerry Line advisory, 10 June. MV Tern is about 18 hours late after storms. Revised ETA: Thursday 11 June, 23:30."
)
BERTHS = "Port berth list, 10 June. Berth 3: MV Tern, ETA Fri 12 Jun 04:00, planned moves 400."


@pytest.mark.parametrize(
    "answer",
    [
        # A sentence that frames the answer states nothing; advice on where to ask after a gap is no claim.
        "For the most part, yes. The practice opens 08:30 to 17:30, Monday to Friday.",
        "The hours page doesn't mention braces. It would be best to ask reception directly.",
        # "Not proven" keeps the source's hedge: no certain statement.
        "The evidence on whitening strips points to enamel damage, but it is not proven.",
    ],
)
def test_framing_referrals_and_kept_hedges_are_no_claims_to_fail(answer: str) -> None:
    assert ragaudit.audit(answer, [CLINIC], question="Does the practice fit braces?").label == "faithful"


@pytest.mark.parametrize(
    ("claim", "referral"),
    [
        ("Implants are offered by Dr Lena Ross, so you'd need to ask her about the price.", True),
        ("The lines open late, which means you should call reception after 08:45.", True),
        ("The lines open late, so the queue is always long.", False),
    ],
)
def test_a_consequence_that_only_says_where_to_ask_is_advice(claim: str, referral: bool) -> None:
    assert referral_consequence(claim) is referral
    if referral:
        assert verdict(claim, CLINIC)[1] != "detector:causal"


def test_a_time_stated_beside_the_claims_words_in_another_passage_is_no_slip() -> None:
    told = "The advisory puts MV Tern's arrival at 23:30 on Thursday 11 June, about 18 hours late."
    assert verdict(told, ADVISORY, BERTHS)[0] == "supported"
    slipped = "The advisory puts MV Tern's arrival at 21:30 on Thursday 11 June, about 18 hours late."
    assert verdict(slipped, ADVISORY, BERTHS)[0] != "supported"


def test_a_titled_party_is_found_where_the_sources_name_it_without_the_title() -> None:
    sources = (
        "Lot 9, a harbour view by Edith Marr, sold for £24,500. The auctioneer on the rostrum was Giles Penrose.",
        "Specialist Harriet Oduya said demand for Marr's harbour scenes was the strongest the house had seen.",
    )
    wrong = "Auctioneer Giles Penrose described demand for Marr's harbour scenes as the strongest the house had seen."
    assert (
        misplaced_party(wrong, sources)
        == "'Auctioneer Giles Penrose' where the source names 'Specialist Harriet Oduya'"
    )
    right = "Specialist Harriet Oduya described demand for Marr's harbour scenes as the strongest the house had seen."
    assert misplaced_party(right, sources) is None


CENTRES = (
    "Visa application centres are open Monday to Friday, 08:00 to 16:00. Appointments can be booked up to 30 days "
    "ahead. Some centres, including Harwick and Lenmouth, also open on Saturdays."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        # Names given as examples are not the subject of "some": "every" is still stronger than the source.
        ("If weekdays are hard, every application centre opens on Saturdays too.", True),
        ("If weekdays are hard, some centres, such as Harwick, open on Saturdays too.", False),
    ],
)
def test_every_is_read_against_some_with_examples_and_in_a_loosely_worded_window(claim: str, caught: bool) -> None:
    status, by = verdict(claim, CENTRES)
    assert (status != "supported") is caught
    if caught:
        assert by == "detector:quantifier"


@pytest.mark.parametrize(
    ("text", "universal"),
    [("every extra half hour costs £1", False), ("every 30 minutes", False), ("every customer pays", True)],
)
def test_every_before_a_length_of_time_says_how_often_not_how_many(text: str, universal: bool) -> None:
    assert (strength(text) is not None) is universal


@pytest.mark.parametrize(
    ("answer", "source", "status"),
    [
        # A clause that also gives the majority share does not say less than "most".
        (
            "Most respondents were satisfied.",
            "82% of respondents were satisfied and 12% were dissatisfied.",
            "supported",
        ),
        # A sentence that may speak of the claim's party by pronoun is no place for another party.
        (
            "Maria Lopez manages the regional office.",
            "Maria Lopez joined the firm in 2019. She now manages the regional office alongside her deputy Tom Reed.",
            "supported",
        ),
        # A reason about something else than the source's condition does not excuse a denial.
        (
            "Since the club waives it, new members pay no joining fee when they sign up.",
            "New members pay a £30 joining fee when they sign up.",
            "contradicted",
        ),
        (
            "There's no road-crossing charge, since the main is on your side.",
            "Road-crossing charge where the main is on the far side of the road: $620.",
            "supported",
        ),
    ],
)
def test_review_cases_of_the_new_rules(answer: str, source: str, status: str) -> None:
    assert verdict(answer, source)[0] == status


def test_so_as_an_intensifier_is_no_referral() -> None:
    assert not referral_consequence("The cafe was so busy in July that it had to call in extra staff.")


PATENTS = (
    "What can be patented? Computer programs are excluded 'as such', but many software-related inventions that "
    "produce a technical effect can be patented. Ollerton Mill station: step-free access to platform 1 only."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        ("Any software-related invention that produces a technical effect can be patented.", True),
        ("Many software-related inventions that produce a technical effect can be patented.", False),
        ("You do not need any special form: programs are excluded as such.", False),
        ("At Ollerton Mill both platforms have step-free access.", True),
        ("At Ollerton Mill only platform 1 has step-free access.", False),
        ("Any software-related invention can be patented, though not a computer program as such.", False),
    ],
)
def test_any_and_both_are_read_against_the_word_the_source_restricts(claim: str, caught: bool) -> None:
    status, by = verdict(claim, PATENTS)
    assert (status != "supported") is caught
    if caught:
        assert by == "detector:quantifier"


def test_any_after_a_denial_or_a_condition_is_no_universal() -> None:
    assert strength("you do not need any ID") is None
    assert strength("if any, the fee is refunded") is None
    assert strength("they accept any card") == ("universal", "any")


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "If the council closes the road, the club moves your session to another day at no charge.",
            "If the council closes the road, we will move your session to another day free of charge.",
        ),
        (
            "Anything not written in English or Welsh needs a certified translation.",
            "Documents in a language other than English or Welsh must come with a certified translation.",
        ),
        (
            "Children won't have cider but get an apple juice tasting instead.",
            "Under-18s are welcome on the orchard tour and receive an apple juice tasting instead of cider.",
        ),
    ],
)
def test_a_denial_the_source_words_as_free_of_other_than_or_instead_of_is_no_clash(claim: str, source: str) -> None:
    assert verdict(claim, source)[0] == "supported"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Late returns are not charged.",
            "Late returns are charged at £5 per day. Books returned by post are free of charge.",
        ),
        # "Other than", "in place of", "free of" deny something else than the claim's denied word.
        (
            "Flights are not cancelled during the strike.",
            "During the strike, flights to destinations other than Spain are cancelled.",
        ),
        (
            "The school does not offer a flu vaccine to pupils.",
            "The school offers a nasal flu vaccine to pupils in place of the injection.",
        ),
        (
            "The account does not charge overdraft fees.",
            "The account is free of monthly fees, and overdraft fees are charged at 39.9% EAR.",
        ),
    ],
)
def test_a_denial_the_source_contradicts_is_still_caught(claim: str, source: str) -> None:
    assert verdict(claim, source) == ("contradicted", "detector:negation")


@pytest.mark.parametrize(
    ("text", "universal"),
    [
        ("Every one of the school's cars carries a dashcam.", True),
        ("All three tours can be done in a wheelchair.", True),
        ("Tours run every three days.", False),
    ],
)
def test_a_count_after_all_or_every_one_of_says_how_many(text: str, universal: bool) -> None:
    assert (strength(text) is not None) is universal


TOURS = "We run three tours: the Cellar Tour, the Garden Walk and the Vineyard Trek."


@pytest.mark.parametrize(
    ("claim", "source", "caught"),
    [
        (
            "All three tours can be done in a wheelchair.",
            "The Cellar Tour and the Garden Walk are wheelchair accessible.",
            True,
        ),
        (
            "All three tours can be done in a wheelchair.",
            "All three are wheelchair accessible. The Cellar Tour and the Garden Walk include a tasting.",
            False,
        ),
        (
            "Every one of the school's cars carries a forward-facing dashcam.",
            "The school runs five cars. Two of the five cars have forward-facing dashcams fitted.",
            True,
        ),
    ],
)
def test_all_of_a_count_where_the_source_tells_it_of_fewer(claim: str, source: str, caught: bool) -> None:
    assert (verdict(claim, f"{TOURS} {source}")[1] == "detector:quantifier") is caught


HALL = (
    "Hall hire terms. The kitchen is included in the hire charge. Confetti is not permitted inside or outside the hall. "
    "Chairs and tables are provided, but the hirer must set them out and put them away. We cannot store equipment."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        # "is not included", "are not provided": a claim about the world, checked (not set aside as the answer's
        # note of what the sources lack).
        ("The kitchen is not included in the hire charge.", True),
        ("Chairs and tables are not provided.", True),
        ("Chairs and tables are provided, but you set them out yourself.", False),
        # The denial covers both places; the claim names one, in another word of permission.
        ("Confetti is allowed outside the hall.", True),
        ("Confetti is banned both inside and outside the hall.", False),
        # "cannot" denies the verb after it.
        ("The hall stores equipment for hirers.", True),
        ("Equipment can't be stored at the hall.", False),
    ],
)
def test_denials_in_plain_words(claim: str, caught: bool) -> None:
    assert (verdict(claim, HALL)[1] == "detector:negation") is caught


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The claim denies the opposite of what the source denies: one thing said twice.
        ("VAT is not included in the quoted price.", "All prices quoted exclude VAT."),
        ("Accidental damage is not included in the standard policy.", "Accidental damage is excluded from it."),
        # "cannot … online" denies a means, not the deed.
        ("You can cancel your booking by phone.", "You cannot cancel your booking online; phone the box office."),
    ],
)
def test_a_denial_of_the_opposite_or_of_another_means_is_no_clash(claim: str, source: str) -> None:
    assert verdict(claim, source)[0] == "supported"


BOATS = (
    "Narrowboat hire. All hirers must attend a 30-minute handover before departure. Booking the lock passage a day "
    "ahead is recommended. If you are unsure about a mooring, you may call the duty manager before you set off."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        # A duty made a choice or advice.
        ("The handover before departure is optional.", True),
        ("Hirers are encouraged to attend a handover before departure.", True),
        ("Hirers must attend a half-hour handover before setting off.", False),
        # Advice or a permission made a duty.
        ("You must book the lock passage a day ahead.", True),
        ("Before you set off you need to call the duty manager about your mooring.", True),
        ("If you're unsure about a mooring, you can call the duty manager before you set off.", False),
    ],
)
def test_a_duty_weakened_or_advice_and_permission_strengthened(claim: str, caught: bool) -> None:
    assert (verdict(claim, BOATS)[1] == "detector:modality") is caught


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The duty is another deed's, or some people's only; "recommended retail price" is a price.
        (
            "Breakfast is optional and can be added for £12.",
            "Guests must check out by 11am and breakfast can be added.",
        ),
        ("The description field is optional.", "Every field must be filled in, except the description field."),
        ("Helmets are optional for riders aged 16 and over.", "Helmets must be worn by riders under 16."),
        ("The recommended retail price is £49.99.", "Stockists must display the retail price of £49.99."),
        # The source permits another deed than the one the claim makes a duty.
        ("The landlord has to give 24 hours' notice first.", "The landlord may inspect after giving 24 hours' notice."),
        ("Passengers need to keep their cabin bag under 7kg.", "Passengers may take one cabin bag of up to 7kg."),
    ],
)
def test_a_duty_or_choice_of_another_deed_or_group_is_no_clash(claim: str, source: str) -> None:
    assert verdict(claim, source)[1] != "detector:modality"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Attending the induction is optional.", "All new volunteers must attend a one-hour induction first."),
        (
            "Helmets are optional on the trail.",
            "Helmets must be worn by all riders on the trail, including those over 18.",
        ),
    ],
)
def test_a_duty_made_a_choice_in_a_longer_rule(claim: str, source: str) -> None:
    assert verdict(claim, source)[1] == "detector:modality"


@pytest.mark.parametrize(
    ("claim", "source", "caught"),
    [
        # An answer's "No," denies the question, not the claim's word: "open" still clashes with "closed".
        ("No, the café is open on Sundays.", "The café is closed on Sundays.", True),
        # A count before "at night" is no clock time unless a preposition of time comes before it.
        ("The ward has 8 in the morning shift and 4 at night.", "6 nurses in the morning shift and 4 at night.", True),
        ("The bag costs 12 pounds to send and weighs 8 pounds.", "Sending the 8 lb parcel costs £12.", False),
    ],
)
def test_readings_the_second_review_found(claim: str, source: str, caught: bool) -> None:
    assert (verdict(claim, source)[0] != "supported") is caught


DIVING = (
    "Flying after diving. After a single dive, wait at least 12 hours before flying. Diving on enriched air (nitrox) "
    "does not shorten these intervals. Tell your guide about your flight."
)


@pytest.mark.parametrize(
    ("claim", "caught"),
    [
        # The denied verb, of a thing only that sentence names: two words are enough.
        ("Breathing nitrox shortens those waiting times.", True),
        ("Nitrox doesn't make those waiting times any shorter.", False),
        # A word many sentences use names nothing in particular.
        ("Your guide shortens the briefing before flying.", False),
    ],
)
def test_a_verb_denied_of_a_thing_only_one_sentence_names(claim: str, caught: bool) -> None:
    assert (verdict(claim, DIVING)[1] == "detector:negation") is caught


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The next sentence states the verb of the thing again, unnamed ("It covers …").
        ("The policy covers fire and theft.", "This policy does not cover flood damage. It covers fire and theft."),
        ("The filter removes chlorine and lead.", "The filter does not remove fluoride. It removes chlorine and lead."),
    ],
)
def test_a_verb_the_sources_also_state_of_the_thing_is_no_clash(claim: str, source: str) -> None:
    assert verdict(claim, source)[0] == "supported"


@pytest.mark.parametrize(
    ("claim", "status"),
    [
        # A figure converted to another unit, with its unit word and hedge: only "boat" is the claim's own word.
        ("The boat is about 17 metres long.", "supported"),
        ("The boat is roughly 23 metres long.", "unsupported"),
    ],
)
def test_a_converted_figure_with_a_word_of_its_own(claim: str, status: str) -> None:
    assert verdict(claim, "Kingfisher is 57 feet long and fits all locks on the network.")[0] == status


def test_a_thing_failing_is_denied_as_no_thing_is() -> None:
    """ "heating or hot water failing" says what "no heating or hot water" says; "any wafer fails inspection" denies
    the inspection's passing, not the wafer, and "if the line fails" denies nothing."""
    assert {"heat", "water"} <= extract("Emergencies such as heating or hot water failing in winter").negated_heads
    assert "wafer" not in extract("A hold is triggered if any wafer fails inspection").negated_heads
    assert not extract("We are not liable if the line itself fails.").negated_heads & {"line"}
    source = "Emergency repairs (e.g. no heating or hot water between October and April) are attended within 4 hours."
    report = ragaudit.audit(
        "Heating or hot water failing between October and April counts as an emergency, attended within four hours.",
        [{"id": "S1", "text": source}],
    )
    assert all(c.status == "supported" for c in report.claims)


def test_a_number_the_source_gives_twice_in_two_units_is_no_unit_change() -> None:
    """'Six weeks after delivery … six months after the first': 'the second six months after the first' is the
    source's own; 'six days' is not, nor 'six months after delivery'."""
    aftercare = (
        "Every new piano includes two free tunings. The first should take place six weeks after delivery, once the "
        "instrument has settled; the second six months after the first."
    )
    answer = "The first free tuning is six weeks after delivery, and the second six {} after the first."
    assert verdict(answer.format("months"), aftercare) == ("supported", "")
    assert verdict(answer.format("days"), aftercare)[0] == "contradicted"
    # The mention whose words are the claim's is compared: "after delivery" is six weeks.
    assert verdict("The first check-up is six months after delivery.", aftercare)[0] == "contradicted"
    notice = "Tenants must give 2 weeks' notice; landlords must give 2 months' notice."
    assert verdict("Tenants must give 2 months' notice.", notice)[0] == "contradicted"
    bags = "Cabin bags may be up to 10 kg and must fit in the overhead locker; under-seat bags up to 10 lb."
    assert verdict("The cabin bag limit is 10 kg.", bags) == ("supported", "")
    assert verdict("The cabin bag limit is 10 lb.", bags)[0] == "contradicted"
