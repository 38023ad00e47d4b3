"""Who is who: a claim that pairs two parties the sources pair with others is a swap (``_identity``)."""

from __future__ import annotations

import pytest

import ragaudit
from ragaudit._identity import identity_swap

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
