"""The offline judge's answer level (issue 9, item 5): the learned model's claim doubts read together."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from ragaudit import Auditor
from ragaudit._answer_level import MIN_DOUBTS, STEP, doubt, read_together
from ragaudit._verifier_model import load_model
from ragaudit.errors import ConfigError
from ragaudit.models import ClaimResult

LIBRARY = [
    {
        "id": "S1",
        "text": "Harwick Community Library opens from 9:00 to 17:00 on weekdays and from 10:00 to 14:00 on "
        "Saturdays. It is closed on Sundays and public holidays. Members may borrow up to 12 items at a time for "
        "three weeks. Items can be renewed online twice unless another member has reserved them. Lost cards are "
        "replaced for a fee of £2.50. Returned items left in the book drop after closing are checked in the next "
        "morning.",
    }
]
GROUNDED = (
    "On weekdays the library is open 9:00 to 17:00, and on Saturdays 10:00 to 14:00. It doesn't open on Sundays "
    "or bank holidays. You can take out as many as 12 items for three weeks. If nobody has reserved them, you can "
    "renew online twice. A new card costs £2.50 if you lose yours. "
)
REWORDED = "Whatever you post through the slot overnight is sorted out by the team at the start of the following day."


def _claim(p: float, decided_by: str = "model", status: str | None = None) -> ClaimResult:
    """A claim as the offline judge reports it: the model's doubt ``p`` read against its claim threshold."""
    flagged = p >= load_model().threshold
    return ClaimResult(
        id="c",
        text="…",
        start=0,
        end=1,
        type="factual",
        status=status or ("unsupported" if flagged else "supported"),
        confidence=p if flagged else 1.0 - p,
        explanation="No source states 'x'.",
        evidence=[],
        decided_by=decided_by,
    )


def test_the_answer_probability_reads_the_strongest_doubts_in_any_order() -> None:
    model = load_model()
    doubts = [0.1, 0.8, 0.3, 0.05]
    assert model.answer_probability(doubts) == model.answer_probability(sorted(doubts))
    # Only the strongest few count; each of them raises the probability.
    assert model.answer_probability([*doubts, 0.01]) == model.answer_probability(doubts)
    assert model.answer_probability([0.9, 0.3, 0.1]) > model.answer_probability([0.8, 0.3, 0.1])
    assert model.answer_probability([0.8, 0.3, 0.2]) > model.answer_probability([0.8, 0.3, 0.1])


def test_one_doubted_claim_in_a_grounded_answer_is_withdrawn() -> None:
    model = load_model()
    claims = [_claim(0.05) for _ in range(7)] + [_claim(0.8)]
    together = model.answer_probability([doubt(c) for c in claims])
    assert claims[-1].status == "unsupported" and together < model.answer_threshold
    read = read_together(claims, model, answers_beyond=False)
    assert [c.status for c in read] == ["supported"] * 8
    last = read[-1]
    assert (last.judge_status, last.decided_by, last.amended_by) == ("unsupported", STEP, [STEP])
    assert "answer-level bar" in last.explanation
    # A supported claim is more likely right than wrong: its confidence never drops below one half.
    assert last.confidence >= 0.5


def test_several_doubts_fail_the_answer_where_none_would_alone() -> None:
    model = load_model()
    doubts = [model.threshold - 0.02] * 3 + [model.threshold - 0.1]
    claims = [_claim(p) for p in doubts]
    assert all(c.status == "supported" for c in claims)
    assert model.answer_probability(doubts) >= model.answer_threshold
    read = read_together(claims, model, answers_beyond=False)
    flagged = [c for c in read if c.status != "supported"]
    assert len(flagged) == 1 and flagged[0].decided_by == STEP and "answer-level bar" in flagged[0].explanation


def test_a_detector_or_check_finding_stands_whatever_the_answer_level_reads() -> None:
    claims = [_claim(0.9, "detector:number", "contradicted"), _claim(0.8, "check:synthesis", "synthesis_error")]
    claims += [_claim(0.05) for _ in range(MIN_DOUBTS)]
    assert read_together(claims, load_model(), answers_beyond=False) == claims


def test_an_answer_of_few_doubted_claims_is_read_claim_by_claim() -> None:
    claims = [_claim(0.05) for _ in range(MIN_DOUBTS - 2)] + [_claim(0.8)]
    assert read_together(claims, load_model(), answers_beyond=False) == claims
    one = Auditor().audit(answer="Parking behind the building is free for members.", sources=LIBRARY)
    assert one.label == "hallucinated"


def test_a_missing_abstention_keeps_the_models_flags() -> None:
    claims = [_claim(0.05) for _ in range(7)] + [_claim(0.8)]
    assert read_together(claims, load_model(), answers_beyond=True) == claims
    report = Auditor().audit(
        answer=GROUNDED + "There is a café on the first floor that sells sandwiches and coffee.",
        sources=LIBRARY,
        question="Does the library have a café?",
    )
    assert report.abstention is not None and report.abstention.answer_abstained_correctly is False
    assert report.label == "hallucinated"


def test_a_faithful_answer_is_not_failed_by_one_reworded_claim() -> None:
    per_claim = Auditor("offline:no-answer-level").audit(answer=GROUNDED + REWORDED, sources=LIBRARY)
    assert per_claim.label == "hallucinated"  # the model alone doubts the reworded claim
    report = Auditor().audit(answer=GROUNDED + REWORDED, sources=LIBRARY)
    assert report.label == "faithful"
    assert report.claims[-1].decided_by == STEP and report.claims[-1].judge_status == "unsupported"


def test_an_invented_answer_still_fails() -> None:
    invented = (
        "The library runs a toddler rhyme session every Thursday morning. Parking behind the building is free for "
        "members. A café on the first floor sells sandwiches and coffee."
    )
    assert Auditor().audit(answer=invented, sources=LIBRARY).label == "hallucinated"


def test_the_switch_is_named_and_changes_the_version() -> None:
    assert Auditor("offline:no-answer-level").judge.version != Auditor().judge.version
    with pytest.raises(ConfigError, match=r"use any of .*'no-answer-level'"):
        Auditor("offline:no-answer-levels")


def test_the_answer_level_model_ships_in_the_artifact_with_its_card() -> None:
    raw = json.loads(resources.files("ragaudit.judges").joinpath("verifier_model.json").read_text())
    answer = raw["answer"]
    model = load_model()
    assert tuple(answer["coef"]) == model.answer_coef and answer["threshold"] == model.answer_threshold
    card = answer["model_card"]
    assert "hash_half == 'dev'" in card["fitted_on"] and card["data_sha256"] and card["versions"]["scikit-learn"]
