"""Calibration: pick the gate threshold for a target precision or recall, and fit the judge's
confidence to observed accuracy (Platt scaling or isotonic regression), saved with the policy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ragaudit.errors import ConfigError, require_extra
from ragaudit.evaluate import Outcome, claim_correctness
from ragaudit.gate import Calibration, Policy
from ragaudit.metrics import binary_scores


def pick_threshold(
    y_true: Sequence[bool],
    faithfulness: Sequence[float],
    *,
    target_precision: float | None = None,
    target_recall: float | None = None,
) -> tuple[float, float, float]:
    """The gate threshold (flag when faithfulness < threshold) meeting the target; with its precision and recall.

    For a precision target, the threshold with the most recall among those meeting it; for a
    recall target, the one with the most precision.
    """
    if (target_precision is None) == (target_recall is None):
        raise ConfigError("give exactly one of --target-precision or --target-recall")
    best: tuple[float, float, float] | None = None
    for k in range(0, 1001):
        t = k / 1000
        s = binary_scores(list(y_true), [f < t for f in faithfulness])
        meets_precision = target_precision is not None and s.tp > 0 and s.precision >= target_precision
        if meets_precision and (best is None or s.recall > best[2]):
            best = (t, s.precision, s.recall)
        if target_recall is not None and s.recall >= target_recall and (best is None or s.precision > best[1]):
            best = (t, s.precision, s.recall)
    if best is None:
        target = f"precision {target_precision}" if target_precision is not None else f"recall {target_recall}"
        raise ConfigError(f"no threshold reaches {target} on this data; lower the target")
    return best


def fit_platt(confidence: Sequence[float], correct: Sequence[bool], *, iterations: int = 2000) -> Calibration:
    """Fit ``p = sigmoid(a × confidence + b)`` to correctness by gradient descent on log loss."""
    a, b, lr = 1.0, 0.0, 0.5
    n = len(confidence) or 1
    for _ in range(iterations):
        ga = gb = 0.0
        for c, y in zip(confidence, correct, strict=True):
            p = 1 / (1 + math.exp(-(a * c + b)))
            ga += (p - y) * c
            gb += p - y
        a -= lr * ga / n
        b -= lr * gb / n
    return Calibration(method="platt", a=round(a, 6), b=round(b, 6))


def fit_isotonic(confidence: Sequence[float], correct: Sequence[bool]) -> Calibration:
    """Fit a non-decreasing step map from confidence to accuracy (pool adjacent violators)."""
    pairs = sorted(zip(confidence, (float(c) for c in correct), strict=True))
    blocks: list[list[float]] = []  # [sum_y, count, max_x]
    for x, y in pairs:
        blocks.append([y, 1.0, x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            y2, n2, x2 = blocks.pop()
            blocks[-1][0] += y2
            blocks[-1][1] += n2
            blocks[-1][2] = x2
    return Calibration(
        method="isotonic",
        x=[round(b[2], 6) for b in blocks],
        y=[round(b[0] / b[1], 6) for b in blocks],
    )


def tune_policy(
    outcomes: Sequence[Outcome],
    policy: Policy,
    *,
    target_precision: float | None = None,
    target_recall: float | None = None,
    method: str | None = None,
) -> tuple[Policy, dict[str, Any]]:
    """``policy`` with the threshold picked for the target and/or the fitted calibration, and a summary."""
    summary: dict[str, Any] = {}
    if target_precision is not None or target_recall is not None:
        threshold, p, r = pick_threshold(
            [o.example.gold for o in outcomes],
            [o.report.faithfulness for o in outcomes],
            target_precision=target_precision,
            target_recall=target_recall,
        )
        policy = policy.model_copy(update={"threshold": threshold})
        summary.update(threshold=threshold, precision=round(p, 4), recall=round(r, 4))
    if method:
        if method not in ("platt", "isotonic"):
            raise ConfigError(f"--calibrate {method!r}: use platt or isotonic")
        conf, right = claim_correctness(list(outcomes))
        if not conf:
            raise ConfigError("--calibrate needs rows with gold spans (claim-level correctness)")
        fitted = fit_platt(conf, right) if method == "platt" else fit_isotonic(conf, right)
        policy = policy.model_copy(update={"calibration": fitted})
        summary["calibration"] = fitted.model_dump(exclude_none=True)
    return policy, summary


def write_policy(policy: Policy, path: Path) -> None:
    """Write ``policy`` as YAML (``.yaml``/``.yml``) or TOML (anything else)."""
    data: dict[str, Any] = policy.model_dump(mode="json", exclude_none=True)
    if path.suffix.lower() in (".yaml", ".yml"):
        require_extra("yaml", what=f"{path}: writing a YAML policy", extra="cli", library="pyyaml")
        import yaml  # optional (the cli extra); TOML needs nothing

        path.write_text(yaml.safe_dump(data, sort_keys=False))
        return
    lines = [f"name = {_toml(data['name'])}", f"threshold = {data['threshold']}", ""]
    for table in ("severity", "calibration"):
        if data.get(table):
            lines.append(f"[{table}]")
            lines += [f"{k} = {_toml(v)}" for k, v in data[table].items()]
            lines.append("")
    for level, rules in (data.get("risk") or {}).items():
        lines.append(f"[risk.{level}]")
        lines += [f"{k} = {_toml(v)}" for k, v in rules.items()]
        lines.append("")
    path.write_text("\n".join(lines))


def _toml(value: object) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)
