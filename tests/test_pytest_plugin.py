"""The pytest plugin: a team's own suite asserts on its golden set."""

from __future__ import annotations

import json

import pytest


def test_golden_fixture_in_a_users_suite(pytester: pytest.Pytester) -> None:
    rows = [
        {
            "answer": "The bridge is 3 km long.",
            "sources": [{"id": "1", "text": "The bridge is 3 km long."}],
            "label": "faithful",
        },
        {
            "answer": "The bridge is 9 km long.",
            "sources": [{"id": "1", "text": "The bridge is 3 km long."}],
            "label": "hallucinated",
        },
    ]
    golden = pytester.path / "golden.jsonl"
    golden.write_text("\n".join(json.dumps(r) for r in rows))
    pytester.makepyfile(
        """
        def test_quality(ragaudit_golden):
            assert ragaudit_golden.overall["f1"]["value"] == 1.0

        def test_would_fail(ragaudit_golden):
            assert ragaudit_golden.overall["n"] == 99
        """
    )
    result = pytester.runpytest_subprocess("--ragaudit-golden", str(golden), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    skipped = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    skipped.assert_outcomes(skipped=2)
