"""Each integration, imported without its library, says in one line which extra to install."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from ragaudit import MissingExtraError

CASES = [
    ("langchain", "langchain_core", "LangChain (langchain-core)"),
    ("llamaindex", "llama_index", "LlamaIndex (llama-index-core)"),
    ("otel", "opentelemetry", "OpenTelemetry"),
]


@pytest.mark.parametrize(("extra", "library", "name"), CASES)
def test_missing_library_names_the_extra(monkeypatch: pytest.MonkeyPatch, extra: str, library: str, name: str) -> None:
    module = f"ragaudit.integrations.{extra}"
    monkeypatch.delitem(sys.modules, module, raising=False)
    for loaded in [m for m in sys.modules if m == library or m.startswith(library + ".")]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setitem(sys.modules, library, None)  # what an uninstalled package looks like to import
    with pytest.raises(MissingExtraError) as info:
        importlib.import_module(module)
    assert str(info.value) == f"{module} needs {name}, which is not installed: pip install 'ragaudit[{extra}]'"
    assert isinstance(info.value, ImportError) and info.value.extra == extra
    assert info.value.__cause__ is None and info.value.__suppress_context__  # no chained traceback


def test_the_user_sees_one_line() -> None:
    code = "import sys; sys.modules['opentelemetry'] = None; import ragaudit.integrations.otel"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "ragaudit.errors.MissingExtraError: ragaudit.integrations.otel needs OpenTelemetry, "
        "which is not installed: pip install 'ragaudit[otel]'"
    )
    assert "During handling of the above exception" not in done.stderr  # no chained ImportError traceback
