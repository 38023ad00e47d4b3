"""``ragaudit agreement``: agreement between raters (judges or people)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ragaudit.render._safe import safe_markup


def agreement(
    raters: Annotated[
        list[Path], typer.Argument(help="Two or more JSONL files of reports or labelled rows (paired by id).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Agreement between raters: Cohen's kappa (two), Fleiss' kappa and Krippendorff's alpha."""
    from dataclasses import asdict

    from ragaudit.agreement import compare_raters

    stats = compare_raters(raters)
    if as_json:
        sys.stdout.write(json.dumps({k: asdict(v) for k, v in stats.items()}, indent=2) + "\n")
        return
    table = Table(title="agreement (claims matched by offsets, IoU ≥ 0.5)")
    for column in ("on", "items", "complete", "raters", "% agree", "Cohen κ", "Fleiss κ", "Krippendorff α"):
        table.add_column(column, justify="left" if column == "on" else "right")
    for name, a in stats.items():
        table.add_row(
            safe_markup(name),
            str(a.items),
            str(a.complete_items),
            str(a.raters),
            f"{a.percent_agreement:.3f}",
            *("–" if v is None else f"{v:.3f}" for v in (a.cohen_kappa, a.fleiss_kappa, a.krippendorff_alpha)),
        )
    Console().print(table)
