"""Who is who: a claim that pairs two parties the sources pair with others is a swap (``_identity``)."""

from __future__ import annotations

import pytest

import ragaudit
from ragaudit._identity import identity_swap, misplaced_deed

CREDITS = (
    "Harbourside Opera — 'The Glass Orchard': cast. Elena Moss: Tamsin Reyes. Viktor Hale: Joel Ambrose. "
    "Conductor: Ines Batra. Tamsin Reyes returns after her debut in 'Winter Lamps'."
)
OFFICERS = (
    "Carrow Borough — who does what. The Licensing Officer, Deputy Clerk Oona Feld, issues premises licences. "
    "The Planning Officer, Head of Development Ravi Okoro, decides householder applications."
)


@pytest.mark.parametrize(
    ("claim", "swapped"),
    [
        ("Joel Ambrose plays Elena, and Tamsin Reyes sings Viktor.", True),
        ("Tamsin Reyes plays Elena Moss.", False),
        ("Joel Ambrose is cast as Viktor Hale, conducted by Ines Batra.", False),
        ("In this staging Tamsin Reyes takes the part of Viktor Hale.", True),
        ("Joel Ambrose sings Viktor Hale.", False),
        ("Joel Ambrose sings Elena Moss.", True),
    ],
)
def test_a_cast_list_pairs_each_singer_with_one_part(claim: str, swapped: bool) -> None:
    assert (identity_swap(claim, (CREDITS,)) is not None) is swapped


@pytest.mark.parametrize(
    ("claim", "swapped"),
    [
        ("Oona Feld, the Deputy Clerk, is the Planning Officer.", True),
        ("Ravi Okoro (Licensing Officer) issues the licences.", True),
        ("Oona Feld, the Deputy Clerk, is the Licensing Officer.", False),
        ("Ravi Okoro is the Planning Officer.", False),
    ],
)
def test_an_office_named_beside_its_holder_has_that_holder(claim: str, swapped: bool) -> None:
    assert (identity_swap(claim, (OFFICERS,)) is not None) is swapped


def test_a_list_of_names_equates_none_of_them() -> None:
    source = "The panel: Amir Stone, Beth Clay, Carl Dunn and Dora Wynn. Amir Stone chairs it."
    assert identity_swap("Beth Clay, Carl Dunn and Amir Stone sit on the panel.", (source,)) is None


def test_a_holder_swapped_in_an_answer_is_reported_as_a_role_error() -> None:
    report = ragaudit.audit("Oona Feld, the Deputy Clerk, is the Planning Officer.", [{"id": "S1", "text": OFFICERS}])
    claim = report.claims[0]
    assert claim.status == "contradicted"
    assert "Planning Officer" in claim.explanation and "Ravi Okoro" in claim.explanation


BERTHS = (
    "Pellow Marine — berth agreement. Quayside Services Ltd lifts boats out of the water each October. "
    "Harbour fees are invoiced by the Pellow Harbour Office every quarter. The berth holder pays the insurance premium."
)


@pytest.mark.parametrize(
    ("claim", "misplaced"),
    [
        ("Boats are lifted out of the water each October by the Pellow Harbour Office.", True),
        ("Quayside Services Ltd takes boats out of the water every October.", False),
        ("Quayside Services Ltd invoices the harbour fees every quarter.", True),
        ("The Pellow Harbour Office sends out the harbour fee invoices each quarter.", False),
        ("For questions about your quarterly invoice, contact Quayside Services Ltd.", True),
        ("Quayside Services Ltd said boats are lifted out of the water each October.", False),
    ],
)
def test_a_deed_the_sources_credit_to_another_party_is_misplaced(claim: str, misplaced: bool) -> None:
    assert (misplaced_deed(claim, (BERTHS,)) is not None) is misplaced


LEASE = (
    "Tenancy terms, 14 Mill Row. The tenant reports any fault with the boiler to Harwick Lettings within 48 hours. "
    "Corrin Heating services the boiler every year. The landlord pays for boiler repairs."
)


@pytest.mark.parametrize(
    ("claim", "misplaced"),
    [
        ("Report any boiler fault to Corrin Heating within 48 hours.", True),
        ("Boiler faults should be reported to Harwick Lettings within 48 hours.", False),
        ("Any fault with the boiler goes to Harwick Lettings, within two days.", False),
        ("Corrin Heating services the boiler once a year.", False),
    ],
)
def test_whom_a_claim_sends_the_reader_to_is_set_against_whom_the_source_does(claim: str, misplaced: bool) -> None:
    assert (misplaced_deed(claim, (LEASE,)) is not None) is misplaced


STORE = (
    "Cold-store procedures. The vault is kept at -20 °C. Faults are reported to the Vault Manager, who contacts "
    "Corrin Facilities. Access cards are issued by Reception."
)


@pytest.mark.parametrize(
    ("claim", "misplaced"),
    [
        # The source sends the reader to the Vault Manager; Corrin Facilities is whom the manager contacts.
        ("Report any fault with the freezer to Corrin Facilities.", True),
        ("Report any fault with the freezer to the Vault Manager.", False),
        ("Freezer faults go to the Vault Manager, who will contact Corrin Facilities.", False),
        ("Faults should not be reported straight to Corrin Facilities.", False),
        ("Ask Reception for an access card.", False),
    ],
)
def test_the_reader_sent_to_a_party_the_source_sends_no_one_to(claim: str, misplaced: bool) -> None:
    assert (misplaced_deed(claim, (STORE,)) is not None) is misplaced


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # The verb of sending is no matter of its own: "call" is all the claim shares with the claims line.
        (
            "Call Fenwick & Co about renewals.",
            "Renewals are handled by your broker, Fenwick & Co. To make a claim, call the Claims Line.",
        ),
        # The party told of on the claim's matter as much as the one the source sends receipts to.
        (
            "Go to the Baggage Desk in the arrivals hall to make a lost luggage claim.",
            "The Baggage Desk in the arrivals hall handles lost luggage claims. Receipts for lost luggage expenses go "
            "to Customer Relations.",
        ),
    ],
)
def test_an_instruction_to_the_party_told_of_on_its_matter_is_not_misrouted(claim: str, source: str) -> None:
    assert misplaced_deed(claim, (source,)) is None


def test_a_misrouted_report_fails_the_answer_and_an_instruction_to_the_right_party_passes() -> None:
    assert ragaudit.audit("Report any fault with the freezer to Corrin Facilities.", [STORE]).label == "hallucinated"
    # "Ask" opens the instruction: no party "Ask Reception" for another name of the source to stand in for.
    assert ragaudit.audit("Ask Reception for an access card.", [STORE]).label == "faithful"


def test_a_deed_in_a_record_or_told_of_the_party_elsewhere_is_not_misplaced() -> None:
    record = '{"name": "Quayside Services Ltd", "city": "Pellow", "services": "lifts boats out of the water"}'
    assert misplaced_deed("Quayside Services Ltd lifts boats out of the water in Pellow.", (record,)) is None
    both = BERTHS + " Each spring the Pellow Harbour Office also lifts boats out of the water for hull surveys."
    assert misplaced_deed("The Pellow Harbour Office lifts boats out of the water.", (both,)) is None


def test_a_misplaced_deed_fails_the_answer_as_a_role_error() -> None:
    # The reader sent to the wrong party: no other reading rule catches this one.
    answer = (
        "For questions about your quarterly invoice, contact Quayside Services Ltd. "
        "The berth holder pays the insurance premium."
    )
    report = ragaudit.audit(answer, [{"id": "S1", "text": BERTHS}])
    wrong = [c for c in report.claims if c.status != "supported"]
    assert [c.decided_by for c in wrong] == ["detector:role"]
    assert "Quayside Services Ltd" in wrong[0].explanation and "Pellow Harbour Office" in wrong[0].explanation


RESTORATION = (
    "Kelby Mill restoration. The two-year project, funded by the Arden Heritage Fund, is led by Dr Maya Rowe, the "
    "trust's conservation manager. Volunteer days are organised by the Kelby Mill Society. "
    "Judge of the photo competition: Alan Pike."
)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # The clause cut from its sentence tells the project's funder: read after the claim it belongs to.
        ("Dr Maya Rowe leads the two-year project, which is funded by the Kelby Mill Society.", "hallucinated"),
        ("Dr Maya Rowe leads the two-year project, which is funded by the Arden Heritage Fund.", "faithful"),
        # A relative clause after a party tells of that party.
        ("The two-year project is led by Dr Maya Rowe, who is supported by the Kelby Mill Society.", "faithful"),
        # A clause with a subject of its own is read alone.
        ("Dr Maya Rowe leads the two-year project, and the photo competition is judged by Alan Pike.", "faithful"),
    ],
)
def test_a_relative_clause_cut_from_its_claim_credits_the_deed_of_what_it_follows(answer: str, label: str) -> None:
    assert ragaudit.audit(answer, [RESTORATION]).label == label
