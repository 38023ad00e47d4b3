"""Labelled datasets in the shared benchmark format (``id, task, question, sources, answer, label, spans, meta``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragaudit.errors import ConfigError, InputError
from ragaudit.requests import read_batch


@dataclass(slots=True)
class Example:
    """One labelled row: where it came from and the decoded object."""

    dataset: str
    line: int
    raw: dict[str, Any]

    @property
    def gold(self) -> bool:
        """True when the row is labelled hallucinated."""
        return bool(self.raw["label"] == "hallucinated")

    @property
    def gold_spans(self) -> list[tuple[int, int, str]]:
        """Gold (start, end, type) spans in the answer."""
        return [(int(s["start"]), int(s["end"]), str(s.get("type") or "span")) for s in self.raw.get("spans") or []]

    def field(self, name: str) -> str:
        """A slicing field: ``task`` or ``domain`` at the top or in ``meta``; ``generator`` is ``meta.model``."""
        meta = self.raw.get("meta") or {}
        if name == "generator":
            return str(meta.get("model") or meta.get("generator") or "unknown")
        return str(self.raw.get(name) or meta.get(name) or "unknown")


def parse_where(clauses: list[str]) -> Callable[[dict[str, Any]], bool]:
    """``["task=qa", "meta.hash_half=dev"]`` → a row predicate (all must hold)."""
    tests: list[tuple[list[str], str]] = []
    for clause in clauses:
        field_path, sep, value = clause.partition("=")
        if not sep or not field_path:
            raise ConfigError(f"--where {clause!r}: write FIELD=VALUE, for example --where task=qa")
        tests.append((field_path.strip().split("."), value.strip()))

    def matches(row: dict[str, Any]) -> bool:
        for path, value in tests:
            node: Any = row
            for part in path:
                node = node.get(part) if isinstance(node, dict) else None
            if str(node) != value:
                return False
        return True

    return matches


def _check_spans(spans: object, answer_chars: int) -> str | None:
    """Why gold ``spans`` are unusable, or None: a list of ``{"start", "end"}`` inside the answer."""
    if spans is None:
        return None
    if not isinstance(spans, list):
        return f"gold 'spans' must be a list of {{start, end}} objects, not {type(spans).__name__}"
    for i, span in enumerate(spans):
        if not isinstance(span, dict) or not all(
            isinstance(span.get(k), int) and not isinstance(span.get(k), bool) for k in ("start", "end")
        ):
            return f"gold span {i} must be an object with integer 'start' and 'end'"
        # An end past the answer would cost memory per character (10^7 took 678 MB); it is an error.
        if not 0 <= span["start"] <= span["end"] <= answer_chars:
            return f"gold span {i} ({span['start']}, {span['end']}) is not inside the answer (0..{answer_chars})"
    return None


def load_examples(
    paths: list[Path], *, limit: int | None = None, where: list[str] | None = None
) -> tuple[list[Example], list[str]]:
    """Read labelled rows from every file; bad rows are returned as messages, never raised."""
    keep = parse_where(where or [])
    examples: list[Example] = []
    skipped: list[str] = []
    for path in paths:
        taken = 0
        for item in read_batch(path):
            if item.error is not None:
                skipped.append(str(item.error))
                continue
            raw = item.raw or {}
            if raw.get("label") not in ("faithful", "hallucinated"):
                skipped.append(f"{path}:{item.line}: no gold 'label' (faithful or hallucinated); row skipped")
                continue
            if not keep(raw):
                continue
            problem = _check_spans(raw.get("spans"), len(item.request.answer) if item.request else 0)
            if problem:
                skipped.append(f"{path}:{item.line}: {problem}; row skipped")
                continue
            examples.append(Example(_dataset_name(path), item.line, raw))
            taken += 1
            if limit is not None and taken >= limit:
                break
    if not examples:
        raise InputError("no usable labelled rows", location=", ".join(str(p) for p in paths))
    return examples, skipped


def _dataset_name(path: Path) -> str:
    path = Path(path)
    return f"{path.parent.name}/{path.stem}" if path.parent.name else path.stem
