"""Agreement between raters (judges or people) on claim statuses and response labels.

Raters may segment an answer differently, so claims are matched by answer offsets. **Rule:** two
claims are the same when their character spans overlap by at least half of their union
(intersection / union ≥ 0.5); each claim matches at most one claim of the other rater, greedily by
largest overlap. The first rater's claims are the items; another rater's claim that matches none
is ignored, and an item it does not match is missing for that rater (Krippendorff's alpha takes
missing ratings; Cohen's and Fleiss' kappa use the items every rater labelled).

A rater file is JSON Lines of reports (``ragaudit audit --batch`` output) or of labelled rows
(``label`` and optionally ``claims`` with ``start``, ``end``, ``status``, e.g. exported reviews).
Rows are paired across files by ``id``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragaudit.errors import InputError
from ragaudit.metrics import cohen_kappa, fleiss_kappa, krippendorff_alpha

Span = tuple[int, int, str]
MIN_IOU = 0.5


def _iou(a: Span, b: Span) -> float:
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union else 0.0


def match_claims(items: Sequence[Span], other: Sequence[Span]) -> list[tuple[Span, Span | None]]:
    """Pair each of ``items`` with the claim of ``other`` it matches (see the module rule), or None.

    >>> match_claims([(0, 10, "supported")], [(1, 10, "unsupported"), (20, 30, "supported")])
    [((0, 10, 'supported'), (1, 10, 'unsupported'))]
    """
    pairs = sorted(
        ((_iou(a, b), i, j) for i, a in enumerate(items) for j, b in enumerate(other) if _iou(a, b) >= MIN_IOU),
        reverse=True,
    )
    taken_i: dict[int, int] = {}
    taken_j: set[int] = set()
    for _, i, j in pairs:
        if i not in taken_i and j not in taken_j:
            taken_i[i] = j
            taken_j.add(j)
    return [(a, other[taken_i[i]] if i in taken_i else None) for i, a in enumerate(items)]


@dataclass(frozen=True, slots=True)
class Agreement:
    """Agreement statistics on one kind of label."""

    items: int
    complete_items: int
    raters: int
    percent_agreement: float
    cohen_kappa: float | None
    fleiss_kappa: float | None
    krippendorff_alpha: float | None


def agreement(ratings: Sequence[Sequence[str | None]]) -> Agreement:
    """Statistics over ``ratings[item][rater]`` (``None`` = the rater did not label that item)."""
    raters = len(ratings[0]) if ratings else 0
    complete = [r for r in ratings if None not in r]
    agree = sum(1 for r in complete if len(set(r)) == 1) / len(complete) if complete else 0.0
    cohen = None
    if raters == 2 and complete:
        cohen = cohen_kappa([str(r[0]) for r in complete], [str(r[1]) for r in complete])
    fleiss = fleiss_kappa(complete) if complete and raters >= 2 else None
    try:
        alpha = krippendorff_alpha(ratings)
    except ValueError:
        alpha = None
    return Agreement(
        len(ratings),
        len(complete),
        raters,
        round(agree, 4),
        None if cohen is None else round(cohen, 4),
        None if fleiss is None else round(fleiss, 4),
        None if alpha is None else round(alpha, 4),
    )


def _rows(path: Path) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise InputError(f"invalid JSON: {exc}", location=f"{path}:{number}") from None
        if not isinstance(row, dict) or "label" not in row:
            raise InputError("expected a report or labelled row with 'label'", location=f"{path}:{number}")
        rows[str(row.get("id") or number)] = row
    return rows


def compare_raters(paths: Sequence[Path]) -> dict[str, Agreement]:
    """Agreement on response labels and on claim statuses among the rater files ``paths``."""
    if len(paths) < 2:
        raise InputError("agreement needs at least two rater files")
    tables = [_rows(p) for p in paths]
    ids = [i for i in tables[0] if all(i in t for t in tables[1:])]
    if not ids:
        raise InputError("the rater files share no row ids; pair rows by giving each the same 'id'")
    labels = [[str(t[i]["label"]) for t in tables] for i in ids]
    statuses: list[list[str | None]] = []
    for i in ids:
        claim_lists = [
            [(int(c["start"]), int(c["end"]), str(c["status"])) for c in t[i].get("claims") or []] for t in tables
        ]
        for n, item in enumerate(claim_lists[0]):
            row: list[str | None] = [item[2]]
            for other in claim_lists[1:]:
                match = match_claims(claim_lists[0], other)[n][1]
                row.append(match[2] if match else None)
            statuses.append(row)
    out = {"response_label": agreement(labels)}
    if statuses:
        out["claim_status"] = agreement(statuses)
    return out
