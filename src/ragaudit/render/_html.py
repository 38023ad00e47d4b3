"""An evaluation as one self-contained HTML file: inline CSS and SVG, no scripts, no network."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from ragaudit.evaluate import METRICS, EvalResult

_STATUS_COLOUR = {
    "supported": "#2e7d32",
    "partially_supported": "#f9a825",
    "unsupported": "#c62828",
    "contradicted": "#8e24aa",
    "synthesis_error": "#ef6c00",
}
_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:18px 32px}header h1{margin:0;font-size:22px}
main{padding:20px 32px;max-width:1280px}section{background:#fff;border-radius:8px;padding:16px 20px;margin:0 0 18px;
box-shadow:0 1px 2px rgba(0,0,0,.08)}h2{font-size:17px;margin:0 0 12px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:4px 10px;border-bottom:1px solid #e3e6eb;text-align:right}
th:first-child,td:first-child{text-align:left}.ci{color:#7a8394;font-size:12px}.grid{display:flex;flex-wrap:wrap;gap:18px}
figure{margin:0}figcaption{font-weight:600;margin-bottom:6px}.err{border-top:1px solid #e3e6eb;padding:12px 0;display:grid;
grid-template-columns:1fr 1fr;gap:18px}.answer mark{padding:0 1px;border-radius:2px;background:none;border-bottom:3px solid}
.gold{background:#fde7e9}.ev{font-size:12.5px;color:#3a4150;margin:4px 0}.tag{font-size:11px;padding:1px 6px;border-radius:9px;color:#fff}
"""


def _fmt(fig: dict[str, float] | None) -> str:
    if not fig:
        return "–"
    return f"{fig['value']:.3f} <span class=ci>[{fig['ci_low']:.3f}, {fig['ci_high']:.3f}]</span>"


def _metric_table(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    head = "".join(f"<th>{escape(m.replace('_', ' '))}</th>" for m in METRICS)
    body = "".join(
        f"<tr><td>{escape(name)}</td><td>{m['n']}</td>"
        + "".join(f"<td>{_fmt(m.get(k))}</td>" for k in METRICS)
        + "</tr>"
        for name, m in rows
    )
    return f"<table><tr><th>slice</th><th>n</th>{head}</tr>{body}</table>"


def _plot(
    title: str,
    series: Sequence[tuple[str, Sequence[Sequence[float]], str]],
    *,
    xlabel: str,
    ylabel: str,
    diagonal: bool = False,
    size: int = 300,
) -> str:
    """A line chart in SVG; coordinates are in [0, 1]."""
    pad = 40
    w = h = size

    def xy(x: float, y: float) -> str:
        return f"{pad + x * (w - pad - 10):.1f},{h - pad - y * (h - pad - 10):.1f}"

    parts = [f'<svg role="img" aria-label="{escape(title)}" width="{w}" height="{h}" viewBox="0 0 {w} {h}">']
    parts.append(
        f'<rect x="{pad}" y="10" width="{w - pad - 10}" height="{h - pad - 10}" fill="#fff" stroke="#c5cad3"/>'
    )
    for k in range(0, 11, 2):
        v = k / 10
        x0, _y0 = xy(v, 0).split(",")
        _x1, y1 = xy(0, v).split(",")
        parts.append(f'<text x="{x0}" y="{h - pad + 14}" font-size="10" text-anchor="middle">{v:.1f}</text>')
        parts.append(f'<text x="{pad - 6}" y="{float(y1) + 3:.1f}" font-size="10" text-anchor="end">{v:.1f}</text>')
    if diagonal:
        parts.append(f'<polyline points="{xy(0, 0)} {xy(1, 1)}" fill="none" stroke="#c5cad3" stroke-dasharray="4 3"/>')
    for name, points, colour in series:
        pts = " ".join(xy(p[0], p[1]) for p in points)
        parts.append(
            f'<polyline class="series" data-name="{escape(name)}" points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>'
        )
        for p in points if len(points) <= 25 else []:
            cx, cy = xy(p[0], p[1]).split(",")
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="2.5" fill="{colour}"/>')
    parts.append(f'<text x="{(w + pad) / 2}" y="{h - 6}" font-size="11" text-anchor="middle">{escape(xlabel)}</text>')
    parts.append(
        f'<text x="12" y="{h / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 {h / 2})">{escape(ylabel)}</text>'
    )
    parts.append("</svg>")
    return f"<figure><figcaption>{escape(title)}</figcaption>{''.join(parts)}</figure>"


def _highlight(answer: str, claims: list[dict[str, Any]], gold: list[list[Any]]) -> str:
    """The answer with claims underlined by status and gold spans shaded."""
    marks: list[tuple[int, int, str]] = []
    for c in claims:
        colour = _STATUS_COLOUR.get(c["status"], "#999")
        marks.append((c["start"], 0, f'<mark style="border-color:{colour}" title="{escape(c["status"])}">'))
        marks.append((c["end"], 1, "</mark>"))
    for s, e, _ in gold:
        marks.append((s, 0, '<span class="gold">'))
        marks.append((e, 1, "</span>"))
    out, pos = [], 0
    for offset, _, tag in sorted(marks, key=lambda m: (m[0], -m[1])):
        out.append(escape(answer[pos:offset]))
        out.append(tag)
        pos = offset
    out.append(escape(answer[pos:]))
    # Tags may cross; browsers repair them, and the text stays exact.
    return "".join(out)


def render_html(result: EvalResult) -> str:
    """The whole report as an HTML document."""
    o = result.overall
    sections = [
        "<section id=headline><h2>Headline (95% bootstrap intervals)</h2>"
        + _metric_table([("overall", o)])
        + f"<p>{o['n']} examples, {o['positives']} labelled hallucinated. Judge: <b>{escape(result.judge)}</b>. "
        f"Datasets: {escape(', '.join(result.datasets))}.</p></section>"
    ]
    plots = [
        _plot(
            "ROC curve",
            [("roc", result.curves["roc"], "#1565c0")],
            xlabel="false positive rate",
            ylabel="true positive rate",
            diagonal=True,
        ),
        _plot("Precision-recall curve", [("pr", result.curves["pr"], "#6a1b9a")], xlabel="recall", ylabel="precision"),
    ]
    for title, calibration, axes in (
        ("Reliability of claim confidence", result.calibration, ("confidence", "accuracy")),
        ("Reliability of the hallucination score", result.response_calibration, ("score", "share hallucinated")),
    ):
        if calibration:
            bins = calibration["bins"]
            plots.append(
                _plot(
                    f"{title} (ECE {calibration['ece']:.3f}, Brier {calibration['brier']:.3f})",
                    [("reliability", [[b["mean_confidence"], b["accuracy"]] for b in bins], "#ef6c00")],
                    xlabel=axes[0],
                    ylabel=axes[1],
                    diagonal=True,
                )
            )
    sweep = result.sweep
    plots.append(
        _plot(
            "Threshold sweep (flag when faithfulness < t)",
            [
                ("precision", [[r["threshold"], r["precision"]] for r in sweep], "#2e7d32"),
                ("recall", [[r["threshold"], r["recall"]] for r in sweep], "#c62828"),
            ],
            xlabel="threshold t",
            ylabel="precision (green) / recall (red)",
        )
    )
    sections.append(f"<section id=curves><h2>Curves</h2><div class=grid>{''.join(plots)}</div></section>")
    sweep_rows = "".join(
        f"<tr><td>{r['threshold']:.2f}</td><td>{r['precision']:.3f}</td><td>{r['recall']:.3f}</td><td>{r['f1']:.3f}</td><td>{r['flagged']:.3f}</td></tr>"
        for r in sweep
    )
    sections.append(
        "<section id=sweep><h2>Threshold sweep</h2><table><tr><th>threshold</th><th>precision</th><th>recall</th>"
        f"<th>F1</th><th>share flagged</th></tr>{sweep_rows}</table></section>"
    )
    tp, fp, fn, tn = (o["confusion"][k] for k in ("tp", "fp", "fn", "tn"))
    confusion = (
        "<table id=confusion><tr><th>gold \\ predicted</th><th>hallucinated</th><th>faithful</th></tr>"
        f"<tr><td>hallucinated</td><td>{tp}</td><td>{fn}</td></tr><tr><td>faithful</td><td>{fp}</td><td>{tn}</td></tr></table>"
    )
    if result.claims:
        matrix = result.claims["matrix"]
        cols = list(matrix)
        confusion += f"<h3>Claim statuses (accuracy {result.claims['accuracy']:.3f} on {result.claims['matched']} matched claims)</h3>"
        confusion += "<table><tr><th>gold \\ predicted</th>" + "".join(f"<th>{c}</th>" for c in cols) + "</tr>"
        confusion += (
            "".join(f"<tr><td>{g}</td>" + "".join(f"<td>{matrix[g][p]}</td>" for p in cols) + "</tr>" for g in cols)
            + "</table>"
        )
    sections.append(f"<section><h2>Confusion matrix</h2>{confusion}</section>")
    for key, groups in result.slices.items():
        sections.append(f"<section><h2>By {escape(key)}</h2>{_metric_table(sorted(groups.items()))}</section>")
    if result.error_types:
        rows = "".join(
            f"<tr><td>{escape(k)}</td><td>{v['spans']}</td><td>{v['recall']:.3f}</td></tr>"
            for k, v in result.error_types.items()
        )
        sections.append(
            f"<section><h2>Recall by gold error type</h2><table><tr><th>type</th><th>spans</th><th>recall</th></tr>{rows}</table></section>"
        )
    errors = []
    for w in result.worst:
        evidence = "".join(
            f'<div class=ev><span class=tag style="background:{_STATUS_COLOUR.get(c["status"], "#999")}">{escape(c["status"])}</span> '
            f"{escape(c['explanation'])}"
            + "".join(f"<br>▏<b>[{escape(e['source_id'])}]</b> “{escape(e['quote'][:300])}”" for e in c["evidence"])
            + "</div>"
            for c in w["claims"]
        )
        errors.append(
            f"<div class=err><div><b>{escape(str(w['id']))}</b> — gold <b>{w['gold']}</b>, predicted <b>{w['predicted']}</b> "
            f"(score {w['score']:.2f})<p class=answer>{_highlight(w['answer'], w['claims'], w['gold_spans'])}</p></div>"
            f"<div>{evidence}</div></div>"
        )
    sections.append(
        "<section id=worst><h2>Worst errors</h2><p>Claims underlined by verdict; gold hallucination spans shaded.</p>"
        + "".join(errors)
        + "</section>"
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>ragaudit evaluation</title>"
        f"<style>{_CSS}</style></head><body><header><h1>ragaudit evaluation</h1></header><main>{''.join(sections)}</main></body></html>"
    )
