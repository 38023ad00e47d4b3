"""Input validation in the library: clear errors naming the problem."""

from __future__ import annotations

import pytest

from ragaudit import Auditor, InputError, audit
from ragaudit.errors import ConfigError
from ragaudit.requests import MAX_ANSWER_CHARS


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"sources": [{"id": "1", "text": "x"}]}, "field 'answer' is missing"),
        ({"answer": "x", "sources": []}, "no sources"),
        ({"answer": "   ", "sources": [{"id": "1", "text": "x"}]}, "answer is empty"),
        ({"answer": 3, "sources": [{"id": "1", "text": "x"}]}, "wrong type"),
        ({"answer": "x", "sources": [{"id": "1", "text": "a"}, {"id": "1", "text": "b"}]}, "used twice"),
        ({"answer": "x" * (MAX_ANSWER_CHARS + 1), "sources": [{"id": "1", "text": "a"}]}, "over the limit"),
        ([1, 2], "expected a JSON object"),
    ],
)
def test_bad_requests_raise_input_error(data: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        Auditor().audit(data)  # type: ignore[arg-type]


def test_unknown_judge_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"use one of .*offline"):
        audit("x y z", ["x y z"], judge="nope")


def test_unknown_claim_type_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown claim type"):
        Auditor(claim_types=["opinion"])  # type: ignore[list-item]


def test_bare_string_sources_get_positional_ids() -> None:
    report = audit("The sky is blue.", ["The sky is blue.", "Grass is green."])
    assert report.claims[0].evidence[0].source_id == "1"
