"""Exported audits in other formats: a reviewed audit as a labelled row for ``ragaudit eval``."""

from __future__ import annotations

from typing import Any


def golden_row(row: dict[str, Any]) -> dict[str, Any]:
    """A reviewed audit (an :meth:`Store.iter_export` row) in the benchmark format: reviewer labels are gold."""
    review = row["reviews"][-1]
    claims = [
        {
            "start": c["start"],
            "end": c["end"],
            "text": c["text"],
            "status": review["claim_labels"].get(c["id"], c["status"]),
        }
        for c in row["report"]["claims"]
    ]
    bad = [c for c in claims if c["status"] != "supported"]
    request = row["request"]
    return {
        "id": row["id"],
        "task": "review",
        "question": request.get("question"),
        "sources": request["sources"],
        "answer": request["answer"],
        "label": "hallucinated" if bad or review["decision"] == "reject" else "faithful",
        "spans": [{"start": c["start"], "end": c["end"], "text": c["text"], "type": c["status"]} for c in bad],
        "claims": claims,
        "meta": {"reviewer": review["reviewer"], "review_decision": review["decision"]},
    }
