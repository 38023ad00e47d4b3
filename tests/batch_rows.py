"""Deterministic, varied audit rows for batch tests: faithful, contradicted, unsupported and bad ones."""

from __future__ import annotations

import json
from typing import Any

NAMES = ["Lakeside", "Northgate", "Riverbend", "Hillcrest", "Eastport", "Westfield", "Oakridge", "Pinehurst"]
BUILDERS = ["Norsk Hydro", "Alcoa", "Rio Tinto", "Hindalco"]


def make_rows(n: int, *, start: int = 0, cycle: int | None = None) -> list[dict[str, Any]]:
    """``n`` valid rows with unique ids; sources as lists of ``{id, text}``; a ``task`` and a gold ``label``.

    With ``cycle``, the texts repeat every ``cycle`` rows (ids stay unique, so every row is its own
    request): the judge's caches then make each audit cheap, for tests that need many rows.
    """
    rows = []
    for row in range(start, start + n):
        i = row % cycle if cycle else row
        name, year, people = NAMES[i % len(NAMES)], 1960 + i % 60, 100 + 7 * i
        sources = [
            {"id": "1", "text": f"The {name} plant opened in {year} after three years of construction."},
            {"id": "2", "text": f"Today the plant employs {people} people. Most of them work on one of two shifts."},
        ]
        kind = i % 4
        if kind == 0:
            answer, label = f"The {name} plant opened in {year} [1]. It employs {people} people [2].", "faithful"
        elif kind == 1:
            answer, label = f"The {name} plant opened in {year + 3} [1]. Most staff work two shifts.", "hallucinated"
        elif kind == 2:
            answer, label = f"The plant employs {people} people. It was built by {BUILDERS[i % 4]}.", "hallucinated"
        else:
            answer, label = f"About {people} people work at the {name} plant, most of them on two shifts.", "faithful"
        rows.append(
            {
                "id": f"r{row}",
                "question": None if i % 3 == 0 else f"What do we know about the {name} plant?",
                "answer": answer,
                "sources": sources,
                "task": ["qa", "summary", "data2txt"][i % 3],
                "label": label,
            }
        )
    return rows


BAD_ROWS: list[dict[str, Any]] = [
    {"id": "bad-empty-answer", "question": None, "answer": "  ", "sources": [{"id": "1", "text": "x"}]},
    {"id": "bad-no-sources", "question": None, "answer": "Something happened.", "sources": []},
    {
        "id": "bad-duplicate-ids",
        "question": None,
        "answer": "Something happened.",
        "sources": [{"id": "1", "text": "a"}, {"id": "1", "text": "b"}],
    },
]


def as_json_sources(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same rows with ``sources`` as a JSON string (how many log tables store them)."""
    return [{**row, "sources": json.dumps(row["sources"])} for row in rows]
