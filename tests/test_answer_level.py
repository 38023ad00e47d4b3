"""The verifier's answer-level model (issue 9, item 5): the learned model's claim doubts read together."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from ragaudit import Auditor
from ragaudit._answer_level import ANSWER_LEVEL, TOGETHER, read_together
from ragaudit._verifier_model import load_model
from ragaudit.errors import ConfigError
from ragaudit.verify import PairResult

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


def _model(p: float, status: str | None = None) -> PairResult:
    threshold = load_model().threshold
    return PairResult(status or ("unsupported" if p >= threshold else "supported"), p, "model", "")


def test_the_answer_probability_reads_the_strongest_doubts_in_any_order() -> None:
    model = load_model()
    doubts = [0.1, 0.8, 0.3, 0.05]
    assert model.answer_probability(doubts) == model.answer_probability(sorted(doubts))
    # Only the strongest few count; each of them raises the probability.
    assert model.answer_probability([*doubts, 0.01]) == model.answer_probability(doubts)
    assert model.answer_probability([0.9, 0.3, 0.1]) > model.answer_probability([0.8, 0.3, 0.1])
    assert model.answer_probability([0.8, 0.5, 0.1]) > model.answer_probability([0.8, 0.3, 0.1])


def test_one_doubted_claim_in_a_grounded_answer_is_withdrawn() -> None:
    model = load_model()
    results = [_model(0.05) for _ in range(7)] + [_model(0.8)]
    assert results[-1].status == "unsupported"
    together = model.answer_probability([r.probability for r in results])
    assert together < model.answer_threshold
    read_together(results, model)
    assert [r.status for r in results] == ["supported"] * 8
    assert results[-1].detail.startswith(ANSWER_LEVEL)
    # Its doubt is read with the answer's: never above the answer-level probability.
    assert results[-1].probability == min(0.8, together)


def test_several_doubts_fail_the_answer_where_none_would_alone() -> None:
    model = load_model()
    doubts = [model.threshold - 0.04] * 3
    results = [_model(p) for p in doubts] + [_model(0.1)]
    assert all(r.status == "supported" for r in results)
    assert model.answer_probability(doubts) >= model.answer_threshold
    read_together(results, model)
    assert [r.status for r in results].count("unsupported") == 1
    assert next(r for r in results if r.status == "unsupported").detail.startswith(TOGETHER)


def test_a_detector_finding_stands_whatever_the_answer_level_reads() -> None:
    found = PairResult("contradicted", 0.9, "number", "states 15 where the source has 14")
    read = [found, _model(0.05), _model(0.05)]
    read_together(read, load_model())
    assert (found.status, found.signal, found.detail) == ("contradicted", "number", "states 15 where the source has 14")


def test_a_faithful_answer_is_not_failed_by_one_reworded_claim() -> None:
    per_claim = Auditor("offline:no-answer-level").audit(answer=GROUNDED + REWORDED, sources=LIBRARY)
    assert per_claim.label == "hallucinated"  # the model alone doubts the reworded claim
    report = Auditor().audit(answer=GROUNDED + REWORDED, sources=LIBRARY)
    assert report.label == "faithful"
    last = report.claims[-1]
    assert last.decided_by == "model" and "answer-level bar" in last.explanation


def test_an_invented_answer_still_fails() -> None:
    invented = (
        "The library runs a toddler rhyme session every Thursday morning. Parking behind the building is free for "
        "members. A café on the first floor sells sandwiches and coffee."
    )
    assert Auditor().audit(answer=invented, sources=LIBRARY).label == "hallucinated"


def test_the_switch_is_named_and_changes_the_version() -> None:
    assert Auditor("offline:no-answer-level").judge.version != Auditor().judge.version
    with pytest.raises(ConfigError, match="no-answer-level"):
        Auditor("offline:no-answer-levels")


def test_the_answer_level_model_ships_in_the_artifact_with_its_card() -> None:
    raw = json.loads(resources.files("ragaudit.judges").joinpath("verifier_model.json").read_text())
    answer = raw["answer"]
    model = load_model()
    assert tuple(answer["coef"]) == model.answer_coef and answer["threshold"] == model.answer_threshold
    card = answer["model_card"]
    assert "hash_half == 'dev'" in card["fitted_on"] and card["data_sha256"]
