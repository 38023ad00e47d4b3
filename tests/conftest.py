"""Shared fixtures: small hand-written requests and the shared benchmark files when present."""

from __future__ import annotations

import inspect
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT.parent / "shared" / "benchmarks"
EXAMPLES = ROOT / "examples"

# Which part of the suite a module exercises (README: the quick command deselects these): test modules
# by their name, test and source modules by a folder on their path. A module needs its part's extra and,
# for some, a server: uvicorn and PostgreSQL, llama.cpp, Chromium, a JVM.
MARKER_OF_MODULE_PREFIX = {
    "test_service": "service",
    "test_store": "service",
    "test_llm": "llm",
    "test_spark": "spark",
    "test_kernel": "spark",
    "test_dask": "spark",
    "test_batch_cli": "spark",
    "test_integrations": "integrations",
    "kernel.py": "spark",  # the doctests of src/ragaudit/kernel.py and spark.py read Arrow batches
    "spark.py": "spark",
}
MARKER_OF_DIRECTORY = {"browser": "browser", "service": "service", "integrations": "integrations"}
# Slow by nature: property-based fuzzing (thousands of inputs), and tests reading ../shared/benchmarks.
SLOW_MODULES = {"test_fuzz.py"}


def module_markers(path: Path) -> set[str]:
    """The parts of the suite that every test and doctest of the module at ``path`` belongs to."""
    folders = path.parts[:-1][len(ROOT.parts) :] if path.is_relative_to(ROOT) else ()
    markers = {MARKER_OF_DIRECTORY[f] for f in folders if f in MARKER_OF_DIRECTORY}
    markers.update(m for prefix, m in MARKER_OF_MODULE_PREFIX.items() if path.name.startswith(prefix))
    if path.name in SLOW_MODULES:
        markers.add("slow")
    return markers


def _never_selected(markers: set[str], config: pytest.Config) -> bool:
    """Does ``-m`` deselect every test carrying ``markers``, whatever other markers a test has?"""
    text = config.getoption("markexpr")
    if not text or "(" in text:  # no -m, or marker arguments this check does not model
        return False
    from _pytest.mark.expression import Expression

    expression = Expression.compile(text)
    free = sorted(expression.idents() - markers)
    for values in itertools.product((False, True), repeat=len(free)):
        present = markers | {name for name, on in zip(free, values, strict=True) if on}
        if expression.evaluate(lambda name, /, present=present, **_: name in present):
            return False
    return True


class CollectOnlyWhatRuns:
    """Import no module whose tests ``-m`` deselects, nor a helper or source module without doctests.

    Deselected modules are skipped before they import their libraries (LangChain, LlamaIndex, Dask,
    FastAPI …): that import, not the tests, is what a quick run would otherwise spend its time on.
    A plugin, not a hook of this conftest: a conftest's hooks see only paths below it, not src/.
    """

    def pytest_ignore_collect(self, collection_path: Path, config: pytest.Config) -> bool | None:
        """True for a module that cannot contribute a selected test."""
        if collection_path.suffix != ".py" or collection_path.name == "conftest.py":
            return None
        if _never_selected(module_markers(collection_path), config):
            return True
        if not collection_path.name.startswith("test_") and ">>>" not in collection_path.read_text(encoding="utf-8"):
            return True  # no test module and no doctest: --doctest-modules would import it for nothing
        return None


def pytest_configure(config: pytest.Config) -> None:
    """Register :class:`CollectOnlyWhatRuns` for the whole session."""
    config.pluginmanager.register(CollectOnlyWhatRuns(), "ragaudit-collect-only-what-runs")


_SPAWN = re.compile(r"\bsubprocess\b|\bsys\.executable\b|\bpytester\b")


def _spawns_a_process(item: pytest.Item) -> bool:
    """Does the test (or a helper of its module that it calls) start `ragaudit` or Python in a subprocess?"""
    function = getattr(item, "function", None)
    if function is None:
        return False
    source = inspect.getsource(function)
    if _SPAWN.search(source):
        return True
    module = inspect.getmodule(function)
    for name in set(re.findall(r"\b(\w+)\(", source)):
        helper = getattr(module, name, None)
        local = inspect.isfunction(helper) and helper is not function and helper.__module__ == function.__module__
        if local and _SPAWN.search(inspect.getsource(helper)):
            return True
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with the parts of the suite its module belongs to, and ``cli`` where it spawns one."""
    for item in items:
        for marker in module_markers(item.path):
            item.add_marker(marker)
        if _spawns_a_process(item):
            item.add_marker("cli")
        if "benchmark" in item.name:
            item.add_marker("slow")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave Hypothesis's plugin out of a run with no Hypothesis test: its summary imports all of Hypothesis."""
    import sys

    if "hypothesis" not in sys.modules:
        session.config.pluginmanager.unregister(name="hypothesispytest")


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    """No RAGAUDIT_* setting of the developer's shell leaks into a test."""
    import os

    for name in list(os.environ):
        if name.startswith("RAGAUDIT_"):
            monkeypatch.delenv(name)


def benchmark_rows(name: str, split: str, limit: int) -> list[dict[str, Any]]:
    """The first ``limit`` rows of a shared benchmark file, or skip when it is absent."""
    path = BENCHMARKS / name / f"{split}.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not present")
    rows = []
    with path.open() as fh:
        for line in fh:
            rows.append(json.loads(line))
            if len(rows) >= limit:
                break
    return rows


pytest_plugins = ["pytester"]
