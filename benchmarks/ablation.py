"""Ablation of the verifier's signals on the hand-written cases: each one removed in turn.

    python benchmarks/ablation.py                  # table on stdout (markdown)

Variants are judge specs (``offline:no-embeddings`` …), so every figure comes from the same
pipeline a user runs. Columns: response-level balanced accuracy, share of faithful answers passed,
recall of hallucinated answers, and seconds per answer on this machine.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from handcrafted import DEFAULT, score_case, summarise
from ragaudit import Auditor

VARIANTS = {
    "full verifier": "offline",
    "− embeddings (words only)": "offline:no-embeddings",
    "− detectors (slots and cues)": "offline:no-detectors",
    "− learned model (coverage only)": "offline:no-model",
}


def main(argv: list[str] | None = None) -> int:
    """Print the ablation table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="?", type=Path, default=DEFAULT)
    args = parser.parse_args(argv)
    cases = [json.loads(line) for line in args.cases.read_text().splitlines() if line.strip()]
    print("| variant | balanced acc. | faithful passed | hallucinated found | s / answer |")
    print("|---|---|---|---|---|")
    for name, spec in VARIANTS.items():
        auditor = Auditor(spec)
        t0 = time.perf_counter()
        rows = [score_case(c, auditor.audit({k: c[k] for k in ("id", "question", "answer", "sources")})) for c in cases]
        seconds = (time.perf_counter() - t0) / len(cases)
        s = summarise(rows)
        print(
            f"| {name} | {s['balanced_accuracy']:.3f} | {s['faithful_passed']:.3f} | "
            f"{s['recall_hallucinated']:.3f} | {seconds:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
