"""What a place or a booking comes with (:mod:`ragaudit._presence`): a thing the claim says is provided that the
source says there is none of, or the reverse, however little else the two sentences share."""

from __future__ import annotations

from tests.audit_helpers import flagged

from ragaudit._presence import presence_clash

CABIN = (
    "Each cabin sleeps four and has a wood burner and a small kitchen. There is no television, so bring books "
    "and games; firewood is provided for the first night. Towels and linen are not included but can be hired "
    "for £12 per person."
)


def test_a_thing_the_source_says_there_is_none_of_is_not_provided() -> None:
    assert presence_clash("A television is provided in every cabin.", CABIN, [CABIN]) is not None
    assert presence_clash("Linen is included as well, so there's no need to pack sheets.", CABIN, [CABIN]) is not None
    assert presence_clash("Firewood is not included, so bring your own.", CABIN, [CABIN]) is not None


def test_what_the_source_says_either_way_and_things_at_a_price_are_no_clash() -> None:
    assert presence_clash("Firewood is provided for your first night.", CABIN, [CABIN]) is None
    assert presence_clash("There's no TV in the cabins.", CABIN, [CABIN]) is None
    assert presence_clash("Towels can be hired for £12 each, if you need them.", CABIN, [CABIN]) is None
    # Provided in one place and not in another: which one the claim means, the words must say.
    other = "The lodge at the gate has a television in the lounge, which is provided for all guests."
    assert presence_clash("A television is provided for guests.", CABIN, [CABIN, other]) is None


def test_the_audit_reports_a_presence_the_source_denies_as_a_negation() -> None:
    assert flagged("The cabins sleep four, and a television is provided too.", CABIN)
    assert not flagged("The cabins sleep four, and firewood is provided for the first night.", CABIN)


def test_a_thing_the_claim_allows_that_the_source_bans_is_a_negation() -> None:
    rules = "Food and drink are not allowed in the studio or the changing rooms. Smoking is prohibited on site."
    assert presence_clash("Drinks are fine in the studio.", rules, [rules]) == "the source does not allow drinks"
    assert presence_clash("Smoking is allowed outside the entrance.", rules, [rules]) is not None
    assert presence_clash("Smoking is not allowed anywhere on site.", rules, [rules]) is None
    # What one place allows and another bans: the words must say which.
    lounge = "Food and drink are welcome in the lounge."
    assert presence_clash("Drinks are fine in the lounge.", rules, [rules, lounge]) is None


def test_a_thing_is_matched_as_written_not_by_its_stem() -> None:
    """'Bedding' is no 'bed': a room let with a double bed still comes without bedding."""
    rooms = (
        "All rooms are let furnished, with a small double bed and mattress, desk and chair. Bedding (duvet, pillows, "
        "sheets) and kitchen packs are not included, but you can pre-order them for £65."
    )
    assert presence_clash("Bedding is provided as well, so you won't need a duvet.", rooms, [rooms]) is not None
    assert presence_clash("A double bed is provided in every room.", rooms, [rooms]) is None


def test_the_guests_own_things_are_one_thing_however_said() -> None:
    """'Outside alcohol' is the guest's own: bringing one's own is what the source bans, not alcohol as such."""
    rules = "You may bring your own food, but outside alcohol is not permitted; wine can be bought from the bar."
    assert presence_clash("Bringing your own alcohol is fine too.", rules, [rules]) is not None
    assert presence_clash("Alcohol is fine on the lawn.", rules, [rules]) is None
    assert presence_clash("Outside food is fine.", rules, [rules]) is None


def test_plurals_in_es_and_outside_as_a_place() -> None:
    """'Bonuses' is the plural of 'bonus'; 'outside' makes food or drink the guest's own, other things it places."""
    pay = "Signing bonuses are not included in any of our offers."
    assert presence_clash("A signing bonus is included for new starters.", pay, [pay]) is not None
    park = "The garden has swings and a sandpit. Play equipment is not provided indoors."
    assert presence_clash("Outside play equipment is provided for the children.", park, [park]) is None
