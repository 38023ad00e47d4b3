"""ReDoS check over every regular expression of the package.

Every pattern is collected: compiled ``re.Pattern`` objects held by any module (or any tuple, list,
dict or class there), and every literal pattern passed to ``re.compile``/``re.search``/… in the
source (found with ``ast``). For each, adversarial strings are built from the pattern's own literal
characters and words, repeated after each opener and before a character that forces failure
(``"[1" + ", 1" * n`` is one of them). Each pattern must:

1. never blow up on short strings (an exponential pattern takes seconds at ~60 characters; a timer
   interrupts it), and
2. on the slowest of its strings at ~8,000 characters, take at most a bounded multiple of a linear
   baseline measured on the same string in the same run (a quadratic pattern is ~100x over).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import itertools
import pkgutil
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest

import ragaudit

PACKAGE_DIR = Path(ragaudit.__file__).parent
_RE_FUNCS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}

# Strings per pattern are cut at these sizes: short for the exponential screen, long for the ratio.
SHORT = 120
LONG = 8_000
SHORT_BUDGET_S = 0.25
"""An exponential pattern needs far more than this at SHORT characters; a linear one needs < 1 ms."""
RATIO_LIMIT = 25.0
"""Slowest string vs. the linear baseline on the same string; quadratic patterns are ~100-1000x."""
GROWTH_LIMIT = 24.0
"""Time on 8x the length: linear is 8x, quadratic 64x."""
FLOOR_S = 0.004
"""Below this, timings are noise and the pattern passes."""


@dataclass(frozen=True)
class Found:
    """A pattern, where it lives, and whether the package only anchors it (``match``/``fullmatch``)."""

    where: str
    pattern: re.Pattern[str]
    anchored: bool = False


def _walk(value: object, where: str, seen: set[int], depth: int = 0) -> Iterator[Found]:
    if id(value) in seen or depth > 3:
        return
    seen.add(id(value))
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        yield Found(where, value)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for i, item in enumerate(value):
            yield from _walk(item, f"{where}[{i}]", seen, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{where}[{key!r}]", seen, depth + 1)
    elif isinstance(value, type) and value.__module__.startswith("ragaudit"):
        for name, item in vars(value).items():
            yield from _walk(item, f"{where}.{name}", seen, depth + 1)


def _module_patterns() -> list[Found]:
    found: list[Found] = []
    seen: set[int] = set()
    for info in pkgutil.walk_packages(ragaudit.__path__, "ragaudit."):
        if info.name.endswith("__main__") or ".migrations" in info.name:
            continue  # running them has effects (the CLI, Alembic's environment)
        spec = importlib.util.find_spec(info.name)
        if not info.ispkg and spec and spec.origin and "compile(" not in Path(spec.origin).read_text(encoding="utf-8"):
            # No pattern is made here (one imported from another module is found there): not imported, so
            # the integrations and the service (LangChain, LlamaIndex, FastAPI) stay out of this quick test.
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed; its literal patterns are still read below
            continue
        source = Path(module.__file__ or "").read_text(encoding="utf-8") if module.__file__ else ""
        for name, value in vars(module).items():
            for f in _walk(value, f"{info.name}.{name}", seen):
                # A pattern the module only ever anchors (NAME.match / NAME.fullmatch) is exercised anchored.
                methods = set(re.findall(rf"\b{re.escape(name)}\.(\w+)\(", source))
                anchored = bool(methods) and methods <= {"match", "fullmatch"}
                found.append(Found(f.where, f.pattern, anchored))
    return found


def _flags(node: ast.expr | None) -> int:
    """Evaluate ``re.I | re.VERBOSE``-style flag expressions."""
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    return 0


def _inline_patterns(known: set[tuple[str, int]]) -> list[Found]:
    """Literal patterns passed to ``re.*`` calls (module patterns built from pieces are caught above)."""
    found: list[Found] = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in _RE_FUNCS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                continue
            flags_node = next((k.value for k in node.keywords if k.arg == "flags"), None)
            if flags_node is None and node.func.attr in (
                "compile",
                "search",
                "match",
                "fullmatch",
                "findall",
                "finditer",
            ):
                flags_node = node.args[1] if len(node.args) > 1 else None
            rel = path.relative_to(PACKAGE_DIR.parent)
            pattern = re.compile(node.args[0].value, _flags(flags_node))
            if node.func.attr == "compile" and (pattern.pattern, pattern.flags) in known:
                continue  # a module-level pattern, already found with how the module uses it
            found.append(Found(f"{rel}:{node.lineno}", pattern, node.func.attr in ("match", "fullmatch")))
    return found


def all_patterns() -> list[Found]:
    """Every distinct pattern of the package."""
    unique: dict[tuple[str, int], Found] = {}
    module = _module_patterns()
    for f in module + _inline_patterns({(m.pattern.pattern, m.pattern.flags) for m in module}):
        key = (f.pattern.pattern, f.pattern.flags)
        # The same pattern scanned anywhere is checked as scanned.
        if key not in unique or (unique[key].anchored and not f.anchored):
            unique[key] = f
    return list(unique.values())


# --- adversarial strings -------------------------------------------------------------------
_CLASS_STANDINS = {"s": " ", "d": "1", "w": "a", "S": "a", "D": "a", "W": " ", "b": "", "B": ""}


def _tokens(pattern: str) -> list[str]:
    """Characters and words the pattern can match, in the order they first appear."""
    plain = re.sub(r"\\([sdwSDWbB])", lambda m: _CLASS_STANDINS[m[1]], pattern)
    plain = re.sub(r"\\(.)", r"\1", plain)
    words = list(dict.fromkeys(re.findall(r"[^\W\d_]{2,}", plain)))
    chars = [c for c in plain if c.isprintable() and not c.isalnum() and c not in "()|?*+{}^$\\"]
    extra = ["a", "A", "1", " ", ".", ",", "\n", "é"]
    return list(dict.fromkeys([*words[:8], *chars, *extra]))


def adversarial_strings(pattern: str, size: int) -> Iterator[str]:
    """Strings of about ``size`` characters: an opener, a repeated chunk, a character that fails."""
    tokens = _tokens(pattern)
    punct = [t for t in tokens if len(t) == 1 and not t.isalnum() and t != " "][:6]
    chunks = set(tokens)
    for t, p in itertools.product(tokens, punct):
        chunks.update({t + p, p + " " + t, t + p + " "})
    for t, u in itertools.product(tokens[:8], repeat=2):
        chunks.add(t + " " + u)
    openers = ["", *(o for c in "[(^" if c in pattern for o in (c, c + "1"))]
    for chunk in sorted(chunks):
        body = chunk * max(1, size // len(chunk))
        for opener in openers:
            yield opener + body + "\x00"


class _Timeout(Exception):
    pass


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def _exercise(pattern: re.Pattern[str], text: str, anchored: bool) -> None:
    """What the package does with its patterns: match whole strings, and (unless only anchored) scan."""
    pattern.fullmatch(text)
    pattern.match(text)
    if not anchored:
        for _ in pattern.finditer(text):
            pass


def _timed(pattern: re.Pattern[str], text: str, budget: float, anchored: bool = False) -> float:
    """Seconds to exercise ``pattern`` on ``text``; ``inf`` when over ``budget`` (interrupted)."""
    signal.setitimer(signal.ITIMER_REAL, budget)
    t0 = time.perf_counter()
    try:
        _exercise(pattern, text, anchored)
    except _Timeout:
        return float("inf")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - t0


# A linear reference: at every position a bounded window (32 characters) is tried, then it fails.
_BASELINE = re.compile(r"[\s\S]{0,32}\x00\x01")


def check_pattern(found: Found) -> str | None:
    """None when the pattern is linear on its adversarial strings, else why not."""
    pattern = found.pattern
    timings: list[tuple[float, str]] = []
    for text in adversarial_strings(pattern.pattern, SHORT):
        # Twice before calling it slow: one garbage-collection pause on a loaded machine is not backtracking.
        took = min(_timed(pattern, text, SHORT_BUDGET_S, found.anchored) for _ in range(2))
        if took == float("inf"):
            return f"{found.where}: over {SHORT_BUDGET_S}s on {len(text)} characters {text[:60]!r}…"
        timings.append((took, text))
    timings.sort(reverse=True)
    for _, short in timings[:3]:
        # Grow the same shape to LONG characters: repeat the middle, keep opener and closer.
        long = short[:2] + short[2:-2] * (LONG // max(1, len(short) - 4)) + short[-2:]
        base = min(_timed(_BASELINE, long, 5.0) for _ in range(2))
        budget = max(0.2, 4 * RATIO_LIMIT * base)  # far over the limit already: stop waiting
        took = min(_timed(pattern, long, budget, found.anchored) for _ in range(2))
        if took > FLOOR_S and took > RATIO_LIMIT * base:
            # Slow, but maybe only by a constant (a bounded window tried at every position): the
            # same shape at an eighth of the length must then take about an eighth of the time.
            eighth = long[:2] + long[2 : 2 + (len(long) - 4) // 8] + long[-2:]
            small = min(_timed(pattern, eighth, budget, found.anchored) for _ in range(3))
            if took == float("inf") or took > GROWTH_LIMIT * small:
                return (
                    f"{found.where}: {took * 1000:.1f} ms on {len(long)} characters, {took / base:.0f}x the linear "
                    f"baseline ({base * 1000:.2f} ms) and {took / small:.0f}x its time on an eighth of it; "
                    f"shape {short[:40]!r}…"
                )
    return None


_PATTERNS = all_patterns()


@pytest.fixture(autouse=True)
def _alarm() -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    yield
    signal.signal(signal.SIGALRM, previous)


def test_the_collector_finds_the_package_patterns() -> None:
    where = {f.where for f in _PATTERNS}
    assert "ragaudit._markers._CITATION_RE" in where
    assert len(_PATTERNS) >= 40


def test_the_check_catches_exponential_and_quadratic_patterns() -> None:
    """The check itself can fail: the old citation pattern and a quadratic one are caught."""
    ref = r"(?:S|doc|source|passage|ref|src)?[-_ ]?\d+"
    old_citation = re.compile(rf"\[\^?(?P<bracket>{ref}(?:\s*(?:,|;|–|-|and)\s*{ref})*)\]", re.I)
    assert "over" in (check_pattern(Found("old citation", old_citation)) or "")
    quadratic = re.compile(r"\d+\s*\d+x")
    assert "linear baseline" in (check_pattern(Found("quadratic", quadratic)) or "")
    assert check_pattern(Found("linear", re.compile(r"\b\d{1,3}(?:,\d{3})*\b"))) is None


@pytest.mark.parametrize("found", _PATTERNS, ids=lambda f: f.where)
def test_pattern_cannot_backtrack_catastrophically(found: Found) -> None:
    assert check_pattern(found) is None


def test_no_pattern_holds_a_formatted_tuple() -> None:
    """``rf"\\d{1, 2}"`` formats the tuple ``(1, 2)`` into the pattern: it then matches "1, 2" literally."""
    typo = re.compile(r"\((\d+), (\d+)\)")
    bad = [f.where for f in _PATTERNS if typo.search(f.pattern.pattern)]
    assert bad == []
