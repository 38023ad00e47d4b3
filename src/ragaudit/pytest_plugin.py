"""A pytest plugin so teams can keep their golden set in their own test suite.

    pytest --ragaudit-golden golden.jsonl [--ragaudit-judge offline]

gives tests the ``ragaudit_golden`` fixture: the :class:`~ragaudit.evaluate.EvalResult` of the
golden file (computed once per session; skipped when no file is given)::

    def test_auditor_quality(ragaudit_golden):
        assert ragaudit_golden.overall["f1"]["value"] >= 0.80
        assert ragaudit_golden.overall["balanced_accuracy"]["ci_low"] >= 0.70
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the evaluation stack loads inside the fixture, never at pytest start-up
    from ragaudit.evaluate import EvalResult


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--ragaudit-golden`` and ``--ragaudit-judge``."""
    group = parser.getgroup("ragaudit")
    group.addoption(
        "--ragaudit-golden", action="store", default=None, help="Golden JSONL for the ragaudit_golden fixture."
    )
    group.addoption("--ragaudit-judge", action="store", default="offline", help="Judge spec for the golden evaluation.")


@pytest.fixture(scope="session")
def ragaudit_golden(pytestconfig: pytest.Config) -> EvalResult:
    """The evaluation of the ``--ragaudit-golden`` file (skips the test when none is given)."""
    from ragaudit import evaluate as ev

    path = pytestconfig.getoption("--ragaudit-golden")
    if not path:
        pytest.skip("no --ragaudit-golden file given")
    judge = str(pytestconfig.getoption("--ragaudit-judge"))
    examples, skipped = ev.load_examples([Path(path)])
    return ev.summarize(ev.run(examples, judge=judge, workers=1), [str(path)], judge, skipped, resamples=500)
