"""The core installs small and imports light; a missing extra is one line naming the install command.

Each check runs in a fresh interpreter. "Not installed" is simulated the way Python itself records a
module that must not load (``sys.modules[name] = None``), since the test environment has every extra.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from .conftest import EXAMPLES, ROOT

HEAVY = ("fastapi", "sqlalchemy", "alembic", "uvicorn", "httpx", "tenacity", "sklearn", "yaml", "rich", "typer")


def python(code: str, *, blocked: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    prelude = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in blocked)
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_core_has_at_most_eight_direct_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = project["dependencies"]
    assert len(core) <= 8, core
    names = {d.split(">")[0].split("[")[0].split("=")[0].split("<")[0].strip() for d in core}
    assert not names & {"fastapi", "sqlalchemy", "httpx", "typer", "rich", "pyyaml", "llama-cpp-python"}
    extras = project["optional-dependencies"]
    assert {"cli", "llm", "service", "eval", "spark", "otel", "langchain", "llamaindex", "test", "all"} <= set(extras)


def test_import_ragaudit_loads_nothing_heavy() -> None:
    proc = python(f"import ragaudit, json; print(json.dumps([m for m in {HEAVY!r} if sys.modules.get(m) is not None]))")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_an_offline_audit_needs_only_the_core() -> None:
    code = (
        "import ragaudit, json\n"
        "r = ragaudit.audit('The plant opened in 2010.', ['The plant opened in 2012.'])\n"
        f"print(json.dumps([r.claims[0].status, [m for m in {HEAVY!r} if sys.modules.get(m) is not None]]))"
    )
    proc = python(code, blocked=HEAVY)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["contradicted", []]


def test_the_pytest_plugin_does_not_load_the_evaluation_stack() -> None:
    proc = python("import ragaudit.pytest_plugin; print('ragaudit.evaluate' in sys.modules, 'numpy' in sys.modules)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_the_command_without_the_cli_extra_names_it() -> None:
    proc = python("from ragaudit._cli.main import main; main()", blocked=("typer",))
    assert proc.returncode == 2
    assert "pip install 'ragaudit[cli]'" in one_line(proc)


def test_serve_without_the_service_extra_names_it() -> None:
    proc = python("from ragaudit._cli.main import main; sys.argv = ['ragaudit', 'serve']; main()", blocked=("fastapi",))
    assert proc.returncode == 2
    line = one_line(proc)
    assert "fastapi" in line and "pip install 'ragaudit[service]'" in line


def test_a_yaml_policy_without_pyyaml_names_the_extra(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text("threshold: 0.9\n")
    proc = python(
        "from ragaudit._cli.main import main\n"
        f"sys.argv = ['ragaudit', 'gate', {str(EXAMPLES / 'request.json')!r}, '--policy', {str(policy)!r}]\n"
        "main()",
        blocked=("yaml",),
    )
    assert proc.returncode == 2
    line = one_line(proc)
    assert "pyyaml" in line and "pip install 'ragaudit[cli]'" in line


def test_an_llm_judge_without_the_llm_extra_names_it() -> None:
    proc = python(
        "import ragaudit\n"
        "try:\n"
        "    ragaudit.Auditor('openai:gpt-4o')\n"
        "except ragaudit.MissingExtraError as exc:\n"
        "    print(exc)\n",
        blocked=("httpx",),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "the openai judge needs the 'llm' extra: pip install 'ragaudit[llm]'"
