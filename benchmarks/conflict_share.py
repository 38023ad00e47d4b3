"""Share of RAGTruth Conflict spans that the offline judge finds as contradictions.

python benchmarks/conflict_share.py [--data ../shared/benchmarks/ragtruth/test.jsonl]
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from ragaudit import Auditor

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    auditor, counts = Auditor(), collections.Counter[str]()
    for line in args.data.open():
        row = json.loads(line)
        spans = [s for s in row["spans"] if "Conflict" in s["type"]]
        if not spans:
            continue
        report = auditor.audit(row)
        for span in spans:
            hit = [c.status for c in report.claims if min(c.end, span["end"]) - max(c.start, span["start"]) > 0]
            if {"contradicted", "synthesis_error"} & set(hit):
                counts["contradicted"] += 1
            elif {"unsupported", "partially_supported"} & set(hit):
                counts["unsupported_or_partial"] += 1
            else:
                counts["missed"] += 1
    total = sum(counts.values())
    for key in ("contradicted", "unsupported_or_partial", "missed"):
        print(f"{key}: {counts[key]} ({100 * counts[key] / total:.1f}%) of {total}")


if __name__ == "__main__":
    main()
