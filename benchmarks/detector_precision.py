"""How often each verifier detector is right on the RAGTruth dev half (tuning data only).

    python benchmarks/detector_precision.py --every 20          # counts per signal
    python benchmarks/detector_precision.py --every 20 --show   # and each false alarm

A detector's decision is right when its claim overlaps a human-labelled hallucination span (more
than 3 characters). RAGTruth labels are incomplete, so this is a lower bound on precision; it tells
which detectors fire on paraphrase. Reads only rows with ``meta.hash_half == "dev"``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from ragaudit._text import question_keys
from ragaudit.align import align, build_index
from ragaudit.judges._offline import answer_novelty
from ragaudit.models import Source
from ragaudit.segment import segment
from ragaudit.verify import Verifier

DATA = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "ragtruth" / "test.jsonl"


def main() -> None:
    """Print right/fired per detector signal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=20, help="read every k-th dev-half answer")
    parser.add_argument("--show", action="store_true", help="print each false alarm")
    args = parser.parse_args()
    rows = [line for line in DATA.open() if '"hash_half": "dev"' in line][:: args.every]
    verifier = Verifier()
    fired: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for line in rows:
        row = json.loads(line)
        gold = [(s["start"], s["end"]) for s in row["spans"]]
        index = build_index([Source(id=s["id"], text=s["text"]) for s in row["sources"]])
        keys = question_keys(row.get("question"))
        alignments = [align(c, index, presupposed=keys) for c in segment(row["answer"]).claims]
        results = verifier.verify(alignments, index, answer_novelty(alignments, index), row.get("question"))
        for a, r in zip(alignments, results, strict=True):
            if r.signal == "model":
                continue
            right = any(min(a.claim.end, e) - max(a.claim.start, s) > 3 for s, e in gold)
            fired[r.signal][0] += 1
            fired[r.signal][1] += right
            if args.show and not right:
                print(f"[{row['task']}] {r.signal}: {r.detail}\n   claim: {a.claim.text[:200]}")
    print(f"{len(rows)} dev-half answers")
    for signal, (n, right) in sorted(fired.items(), key=lambda x: -x[1][0]):
        print(f"{signal:14} right {right}/{n}")


if __name__ == "__main__":
    main()
