"""One audit as read back from the trail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ragaudit.service.store._time import _aware


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One stored audit."""

    id: str
    created_at: datetime
    trace_id: str | None
    answer_version: str | None
    decision: str
    label: str
    faithfulness: float
    risk_level: str
    latency_ms: float
    report: dict[str, Any]
    row: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the export format)."""
        out = {k: v for k, v in self.row.items() if k != "report"}
        out["created_at"] = self.created_at.isoformat()
        out["report"] = self.report
        return out


def _record(row: dict[str, Any]) -> AuditRecord:
    return AuditRecord(
        id=row["id"],
        created_at=_aware(row["created_at"]),
        trace_id=row["trace_id"],
        answer_version=row["answer_version"],
        decision=row["decision"],
        label=row["label"],
        faithfulness=row["faithfulness"],
        risk_level=row["risk_level"],
        latency_ms=row["latency_ms"],
        report=row["report"],
        row=row,
    )
