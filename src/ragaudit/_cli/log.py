"""``ragaudit log``: the audit trail (list, show, export, prune)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ragaudit._cli._common import fail, stderr
from ragaudit.render._safe import safe_markup

log_app = typer.Typer(help="The audit trail: list, show, export, prune.", no_args_is_help=True)
DbOpt = Annotated[str | None, typer.Option("--db", help="Database URL.", envvar="RAGAUDIT_DATABASE_URL")]


def _since(value: str | None) -> Any:
    from ragaudit.service.store import parse_since

    return None if value is None else parse_since(value)


@log_app.command("list")
def log_list(
    db: DbOpt = None,
    since: Annotated[str | None, typer.Option("--since", help="ISO date or age (7d).")] = None,
    decision: Annotated[str | None, typer.Option("--decision", help="Only this gate decision.")] = None,
    limit: Annotated[int, typer.Option("--limit")] = 50,
) -> None:
    """Recent audits, newest first."""
    from ragaudit.service.store import open_store

    table = Table()
    for column in ("id", "created", "decision", "label", "faithfulness", "risk", "trace"):
        table.add_column(column)
    for r in open_store(db).list_audits(since=_since(since), decision=decision, limit=limit):
        table.add_row(  # trace ids come from API callers: never markup or escape sequences
            safe_markup(r.id),
            r.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            safe_markup(r.decision),
            safe_markup(r.label),
            f"{r.faithfulness:.2f}",
            safe_markup(r.risk_level),
            safe_markup(r.trace_id or ""),
        )
    Console().print(table)


@log_app.command("show")
def log_show(audit_id: str, db: DbOpt = None) -> None:
    """One audit as JSON, with its reviews."""
    from ragaudit.service.store import open_store

    store = open_store(db)
    record = store.get_audit(audit_id)
    if record is None:
        fail(f"no audit {audit_id} in the audit trail")
    sys.stdout.write(
        json.dumps({**record.as_dict(), "reviews": store.reviews_for(audit_id)}, indent=2, default=str) + "\n"
    )


@log_app.command("export")
def log_export(
    db: DbOpt = None,
    since: Annotated[str | None, typer.Option("--since", help="ISO date or age (7d).")] = None,
    decision: Annotated[str | None, typer.Option("--decision", help="Only this gate decision.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="File (default stdout).")] = None,
    golden: Annotated[
        bool, typer.Option("--golden", help="Export reviewed audits as a golden set for ragaudit eval.")
    ] = False,
) -> None:
    """Audits (with reviews) as JSON Lines, oldest first; --golden writes the eval format with human labels."""
    from ragaudit.service.store import golden_row, open_store

    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    count = 0
    for row in open_store(db).iter_export(since=_since(since), decision=decision):
        if golden:
            if not row["reviews"]:
                continue
            row = golden_row(row)
        sink.write(json.dumps(row, default=str) + "\n")
        count += 1
    if out:
        sink.close()
    stderr.print(f"exported {count} audit(s)", highlight=False)


@log_app.command("prune")
def log_prune(
    older_than: Annotated[str, typer.Option("--older-than", help="Delete audits older than this (90d, 12h).")],
    db: DbOpt = None,
) -> None:
    """Delete old audits, their reviews and finished async jobs (the deletion itself is recorded)."""
    from ragaudit.service.store import open_store, parse_age

    pruned = open_store(db).prune(parse_age(older_than), by="cli")
    stderr.print(
        f"pruned {pruned.audits} audit(s), {pruned.reviews} review(s) and {pruned.jobs} finished job(s) "
        f"older than {safe_markup(older_than)}",
        highlight=False,
    )
