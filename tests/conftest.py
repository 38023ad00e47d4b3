"""Shared fixtures: small hand-written requests and the shared benchmark files when present."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT.parent / "shared" / "benchmarks"
EXAMPLES = ROOT / "examples"

# Which part of the suite a test module exercises, by its name (README: the quick command deselects these).
# A module needs its part's extra and, for some, a server: uvicorn and PostgreSQL, llama.cpp, Chromium, a JVM.
MARKER_OF_MODULE_PREFIX = {
    "test_service": "service",
    "test_store": "service",
    "test_llm": "llm",
    "test_spark": "spark",
    "test_kernel": "spark",
    "test_dask": "spark",
    "test_batch_cli": "spark",
}
MARKER_OF_DIRECTORY = {"browser": "browser"}
# Modules that run the `ragaudit` command or a fresh interpreter per test (about a second each, idle).
CLI_MODULES = {
    "test_cli.py",
    "test_hostile.py",
    "test_pytest_plugin.py",
    "test_terminal_safety.py",
    "test_packaging.py",
}
# Slow by nature: property-based fuzzing (thousands of inputs), and tests reading ../shared/benchmarks.
SLOW_MODULES = {"test_fuzz.py"}


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
    """Mark each test with the part of the suite its module or directory belongs to."""
    for item in items:
        path = item.path
        marker = MARKER_OF_DIRECTORY.get(path.parent.name) or next(
            (m for prefix, m in MARKER_OF_MODULE_PREFIX.items() if path.name.startswith(prefix)), None
        )
        if marker:
            item.add_marker(marker)
        if _spawns_a_process(item):
            item.add_marker("cli")
        if path.name in SLOW_MODULES or "benchmark" in item.name:
            item.add_marker("slow")


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
