"""Rewrite one generated block of benchmarks/RESULTS.md, between its start and end markers."""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def replace_block(name: str, table: str) -> None:
    """Put ``table`` between ``<!-- name:start -->`` and ``<!-- name:end -->`` (appended if absent)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = RESULTS.read_text()
    block = f"{start}\n{table}\n{end}"
    if start in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text += "\n" + block + "\n"
    RESULTS.write_text(text)
