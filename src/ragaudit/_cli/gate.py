"""``ragaudit gate``: audit and gate; the exit code is the decision."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ragaudit._cli._common import (
    ClaimTypesOpt,
    JudgeOpt,
    PolicyOpt,
    RiskChoice,
    RiskOpt,
    auditor_config,
    fail,
    read_stdin,
    stderr,
)
from ragaudit.render._safe import printable, safe_markup


def gate(
    request: Annotated[str | None, typer.Argument(help="Request JSON file, or - for stdin.")] = None,
    batch: Annotated[Path | None, typer.Option("--batch", help="JSON Lines file of requests to gate.")] = None,
    policy: PolicyOpt = None,
    judge: JudgeOpt = "offline",
    risk_level: RiskOpt = RiskChoice.medium,
    claim_type: ClaimTypesOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision(s) as JSON.")] = False,
) -> None:
    """Audit and gate: print the decision; exit 0 for deliver, 1 for any other decision, 2 for bad input."""
    from collections import Counter

    from ragaudit import Auditor
    from ragaudit.requests import read_batch, read_request

    auditor = Auditor(auditor_config(judge, risk_level, claim_type, policy))
    if batch is None:
        if request is None:
            fail("give a request file (or - for stdin), or --batch FILE; see ragaudit gate --help")
        req = read_request("<stdin>", read_stdin()) if request == "-" else read_request(request)
        decision = auditor.audit(req).decision
        if as_json:
            sys.stdout.write(decision.model_dump_json(indent=2) + "\n")
        else:
            sys.stdout.write(decision.action + "\n")
            for reason in decision.reasons:
                sys.stdout.write(f"  - {printable(reason)}\n")
            if decision.caveat:
                sys.stdout.write(f"caveat: {printable(decision.caveat)}\n")
        raise typer.Exit(0 if decision.action == "deliver" else 1)
    tally: Counter[str] = Counter()
    for item in read_batch(batch):
        if item.error is not None:
            stderr.print(f"[yellow]skipped[/] {safe_markup(item.error)}", highlight=False, soft_wrap=True)
            tally["invalid"] += 1
            continue
        assert item.request is not None
        decision = auditor.audit(item.request).decision
        tally[decision.action] += 1
        label = printable(item.request.id or f"line {item.line}")
        sys.stdout.write(
            json.dumps({"id": label, "action": decision.action}) + "\n" if as_json else f"{label}\t{decision.action}\n"
        )
    stderr.print("decisions: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())), highlight=False)
    raise typer.Exit(0 if set(tally) <= {"deliver"} else 1)
