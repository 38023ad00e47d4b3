"""Evaluate the auditor on a labelled dataset in the shared benchmark format.

Response level: the report's ``label`` against the gold ``label`` (hallucinated is the positive
class). Span level: every claim that is not supported is a predicted span, compared by
characters with the gold ``spans``. Rows without a gold label are reported and skipped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragaudit.batch import audit_stream
from ragaudit.errors import ConfigError, InputError
from ragaudit.metrics import BinaryScores, SpanScores, binary_scores, span_scores
from ragaudit.models import ClaimType, Report, RiskLevel
from ragaudit.requests import read_batch


@dataclass(slots=True)
class Example:
    """One labelled row: its request, gold label and gold spans."""

    line: int
    raw: dict[str, Any]

    @property
    def gold(self) -> bool:
        """True when the row is labelled hallucinated."""
        return bool(self.raw["label"] == "hallucinated")

    @property
    def gold_spans(self) -> list[tuple[int, int]]:
        """Gold (start, end) spans in the answer."""
        return [(int(s["start"]), int(s["end"])) for s in self.raw.get("spans") or []]


@dataclass(slots=True)
class Slice:
    """Metrics of one group of examples."""

    response: BinaryScores
    spans: SpanScores

    def as_dict(self) -> dict[str, Any]:
        """Both metric groups as plain values."""
        return {"response": self.response.as_dict(), "span": self.spans.as_dict()}


@dataclass(slots=True)
class EvalResult:
    """Overall and per-task metrics, plus the rows that could not be used."""

    dataset: str
    overall: Slice
    by_task: dict[str, Slice]
    skipped: list[str] = field(default_factory=list)
    judge: str = "offline"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "dataset": self.dataset,
            "judge": self.judge,
            "overall": self.overall.as_dict(),
            "by_task": {task: s.as_dict() for task, s in sorted(self.by_task.items())},
            "skipped": self.skipped,
        }


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


def load_examples(
    path: Path | str, *, limit: int | None = None, where: list[str] | None = None
) -> tuple[list[Example], list[str]]:
    """Read labelled rows; bad rows are returned as messages, never raised."""
    keep = parse_where(where or [])
    examples: list[Example] = []
    skipped: list[str] = []
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
        examples.append(Example(item.line, raw))
        if limit is not None and len(examples) >= limit:
            break
    if not examples:
        raise InputError("no usable labelled rows", location=str(path))
    return examples, skipped


def predicted_spans(report: Report) -> list[tuple[int, int]]:
    """Claims that are not supported, as answer spans."""
    return [(c.start, c.end) for c in report.claims if c.status != "supported"]


def run_reports(
    examples: list[Example],
    *,
    judge: str = "offline",
    risk_level: RiskLevel = "medium",
    claim_types: list[ClaimType] | None = None,
    workers: int | None = None,
) -> Iterator[Report]:
    """Audit every example, in order."""
    from ragaudit.requests import validate_request

    requests = (validate_request(e.raw) for e in examples)
    yield from audit_stream(requests, judge=judge, risk_level=risk_level, claim_types=claim_types, workers=workers)


def score(dataset: str, examples: list[Example], reports: list[Report], skipped: list[str], judge: str) -> EvalResult:
    """Compute overall and per-task metrics from reports aligned with examples."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, example in enumerate(examples):
        groups[str(example.raw.get("task") or "all")].append(i)

    def slice_of(indices: list[int]) -> Slice:
        response = binary_scores(
            [examples[i].gold for i in indices], [reports[i].label == "hallucinated" for i in indices]
        )
        spans = SpanScores(0, 0, 0)
        for i in indices:
            spans = spans + span_scores(predicted_spans(reports[i]), examples[i].gold_spans)
        return Slice(response, spans)

    return EvalResult(
        dataset=dataset,
        overall=slice_of(list(range(len(examples)))),
        by_task={task: slice_of(idx) for task, idx in groups.items()},
        skipped=skipped,
        judge=judge,
    )
