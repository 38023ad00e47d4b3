"""How long `import ragaudit` takes, and the first use that loads the pipeline, in fresh interpreters.

    python benchmarks/bench_import.py [--runs 7]

Each figure is the median over fresh `python -c` processes (the import cache of one process would
hide the cost). Target (issue 12): `import ragaudit` ≤ 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

PROBES = {
    "import ragaudit": "import ragaudit",
    "import ragaudit + Auditor (pipeline loaded)": "import ragaudit; ragaudit.Auditor",
}


def measure(code: str, runs: int) -> float:
    """Median seconds of ``code`` in fresh interpreters."""
    timed = f"import time; t = time.perf_counter(); {code}; print(time.perf_counter() - t)"
    samples = [
        float(subprocess.run([sys.executable, "-c", timed], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    ]
    return statistics.median(samples)


def main() -> None:
    """Print one line per probe."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    for name, code in PROBES.items():
        print(f"{name}: {measure(code, args.runs):.3f} s (median of {args.runs})")


if __name__ == "__main__":
    main()
