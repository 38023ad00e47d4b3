"""The package's shape: no import cycle in src/ (top-level or deferred imports), no module over 450 lines,
every module and folder named in the README's layout."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "ragaudit"
MAX_LINES = 450
LONG_EXEMPT: set[str] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every ragaudit module ``name`` imports, anywhere in the file (deferred imports count too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import mod`` depends on pkg.mod; ``from pkg import name`` on pkg itself.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            # The deepest known module the import names (``from a.b import c`` is a.b.c if that is a module).
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    # Importing a module runs its packages' __init__ first; that is Python's order, not this module's
    # dependency, so only what the module itself names is an edge (a package named means its __init__).
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_import_graph_finds_a_planted_cycle() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_deferred_and_package_imports() -> None:
    graph = _graph()
    assert "ragaudit.render.views" in graph["ragaudit._cli.audit"]  # imported inside a function
    assert "ragaudit.models" in graph["ragaudit._pipeline"]


def test_no_import_cycle_in_src() -> None:
    cycle = _find_cycle(_graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


def test_no_module_over_450_lines() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
        and str(p.relative_to(PACKAGE)) not in LONG_EXEMPT
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_readme_layout_names_every_module_and_folder() -> None:
    readme = (PACKAGE.parent.parent / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("```")[1]
    names = {
        p.stem if p.suffix == ".py" else p.name
        for p in PACKAGE.rglob("*")
        if "migrations" not in p.parts
        and "__pycache__" not in p.parts
        and (p.suffix == ".py" or p.is_dir())
        and p.stem not in ("__init__", "__main__")
    }
    missing = sorted(n for n in names if not re.search(rf"(?<![\w.]){re.escape(n)}\b", layout))
    assert not missing, f"README's layout does not name: {', '.join(missing)}"
