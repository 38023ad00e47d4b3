"""A report as coloured terminal text: the answer with claims highlighted, evidence beneath."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from ragaudit.models import ClaimStatus, Report
from ragaudit.render._safe import printable

STATUS_STYLE: dict[ClaimStatus, str] = {
    "supported": "green",
    "partially_supported": "yellow",
    "unsupported": "red",
    "contradicted": "bold magenta",
    "synthesis_error": "bold dark_orange",
}


def render_text(report: Report, answer: str) -> RenderableType:
    """The answer with each claim coloured by verdict, then each claim with its evidence."""
    body = Text(printable(answer))  # same length: claim offsets still apply
    for claim in report.claims:
        body.stylize(f"underline {STATUS_STYLE[claim.status]}", claim.start, claim.end)
    verdict_style = "red" if report.label == "hallucinated" else "green"
    title = Text.assemble(
        ("ragaudit ", "bold"),
        (report.label, f"bold {verdict_style}"),
        f"  faithfulness {report.faithfulness:.2f}  ",
        f"({report.counts.supported}/{report.counts.total} supported)",
    )
    parts: list[RenderableType] = [Panel(body, title=title, title_align="left")]
    if report.note:
        parts.append(Text(printable(report.note), style="italic"))
    for claim in report.claims:
        style = STATUS_STYLE[claim.status]
        line = Text.assemble(
            (f"{claim.id} ", "bold"),
            (f"{claim.status.upper():<20}", style),
            (f"{claim.confidence:.2f}  ", "dim"),
            printable(claim.text),
        )
        parts.append(line)
        parts.append(Text(f"     {printable(claim.explanation)}", style="dim"))
        for ev in claim.evidence:
            quote = printable(ev.quote if len(ev.quote) <= 240 else ev.quote[:237] + "…")
            source = printable(ev.source_id)
            parts.append(Text.assemble(("     ▏", style), (f"[{source}] ", "bold"), (f"“{quote}”", "italic")))
        check = claim.citation_check
        if check and not check.valid:
            problems = [f"[{ref}] names no source" for ref in check.unknown]
            problems += [f"[{sid}] does not support it" for sid in check.unsupportive]
            if check.supporting_sources:
                problems.append(f"[{', '.join(check.supporting_sources)}] does")
            parts.append(Text(printable("     citation: " + "; ".join(problems)), style="red"))
    if report.abstention:
        parts.append(Text(printable(f"abstention: {report.abstention.explanation}"), style="cyan"))
    for conflict in report.conflicts:
        parts.append(Text(printable(f"source conflict ({conflict.kind}): {conflict.explanation}"), style="dark_orange"))
    return Group(*parts)
