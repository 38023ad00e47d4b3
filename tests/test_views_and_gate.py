"""Views validate against their shipped schemas, with counts computed independently; the gate per risk level."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ragaudit import Report, audit
from ragaudit.errors import ConfigError
from ragaudit.gate import Gate, load_policy
from ragaudit.render.views import VIEW_NAMES, generate_schemas, render_view, view_schema

from .conftest import EXAMPLES

HERE = Path(__file__).parent

# Examples of our own covering every status, issue type, citation style and both abstention outcomes.
CASES: list[dict[str, Any]] = [
    {
        "question": "When did the plant open and who owns it?",
        "answer": (
            "The plant opened in 2012 [1]. It employs 900 people [2]. The plant makes aluminium (Source 3). "
            "It is painted red^1. The plant employs 500 people and was funded by the EU [1-2]. "
            "The sources do not say who owns the plant."
        ),
        "sources": [
            {"id": "1", "text": "The plant opened in 2012."},
            {"id": "2", "text": "The plant employs 500 people."},
            {"id": "3", "text": "The plant makes aluminium."},
        ],
    },
    {
        "question": "Who owns Acme and when was it founded?",
        "answer": "Acme was founded in 1985 [S9]. Acme has revenue of 5 million [doc-3]. It is owned by Zed Corp.",
        "sources": [
            {"id": "S1", "text": "Acme was founded in 1990."},
            {"id": "S2", "text": "Beta was founded in 1985."},
            {"id": "doc-3", "text": "Acme reported revenue of 5 million dollars."},
        ],
    },
    {"answer": "Hello! Here is a summary:", "sources": [{"id": "1", "text": "Nothing."}]},
    {
        "answer": "The bridge is 300 meters long.",
        "sources": [
            {"id": "a", "text": "The bridge is 300 meters long."},
            {"id": "b", "text": "The bridge is 320 meters long."},
        ],
    },
]


def reports() -> list[Report]:
    return [audit(c["answer"], c["sources"], question=c.get("question")) for c in CASES]


def test_cases_cover_every_status_and_issue_type() -> None:
    statuses = {c.status for r in reports() for c in r.claims}
    assert statuses == {"supported", "partially_supported", "unsupported", "contradicted", "synthesis_error"}
    issues = {i.type for r in reports() for i in (r.decision.issues if r.decision else [])}
    assert {
        "CONTRADICTION",
        "CITATION_FABRICATION",
        "INVALID_CITATION",
        "UNSUPPORTED_CLAIM",
        "MISSING_ABSTENTION",
        "SYNTHESIS_ERROR",
        "PARTIAL_SUPPORT",
        "SOURCE_CONFLICT",
    } <= issues
    outcomes = {r.abstention.answer_abstained_correctly for r in reports() if r.abstention}
    assert {True, False} <= outcomes


@pytest.mark.parametrize("name", VIEW_NAMES)
def test_every_view_validates_against_its_shipped_schema(name: str) -> None:
    schema = view_schema(name)
    for report in reports():
        jsonschema.validate(render_view(report, name), schema)


def test_shipped_schemas_match_the_models() -> None:
    from importlib import resources

    for filename, schema in generate_schemas().items():
        shipped = json.loads(resources.files("ragaudit.schemas").joinpath(filename).read_text())
        assert shipped == json.loads(json.dumps(schema)), f"{filename} is stale: run python -m ragaudit.schemas"


def test_view_counts_and_scores_follow_the_formulas() -> None:
    for report in reports():
        statuses = [c.status for c in report.claims]
        n = len(statuses)
        s, p = statuses.count("supported"), statuses.count("partially_supported")
        sbs = render_view(report, "source_by_source")["audit_report"]
        assert sbs["total_claims_found"] == n
        assert sbs["supported_claims"] == s and sbs["partially_supported_claims"] == p
        assert sbs["unsupported_claims"] == n - s - p
        assert sbs["overall_faithfulness_score"] == pytest.approx(1.0 if n == 0 else (s + 0.5 * p) / n)
        for claim in sbs["claims"]:
            if claim["support_status"] == "unsupported":
                assert claim["supporting_source_ids"] == [] and claim["supporting_evidence_spans"] == []

        fa = render_view(report, "factual_audit")
        c = statuses.count("contradicted") + statuses.count("synthesis_error")
        assert fa["overall_score"] == pytest.approx(1.0 if n == 0 else max(0.0, (s - 2 * c) / n))
        assert fa["audit_result"] == (
            "FAIL" if any(i["severity"] in ("CRITICAL", "MAJOR") for i in fa["flagged_issues"]) else "PASS"
        )

        cl = render_view(report, "classification")
        summary = cl["summary"]
        assert summary["total_segments"] == n
        assert summary["faithful_synthesis_count"] == s
        assert (
            summary["faithful_synthesis_count"] + summary["unsupported_inference_count"] + summary["fabrication_count"]
            == n
        )
        ok = summary["faithful_synthesis_count"] + summary["unsupported_inference_count"]
        assert summary["overall_faithfulness_score"] == pytest.approx(1.0 if n == 0 else ok / n)
        for seg in cl["classifications"]:
            if seg["classification"] == "fabrication":
                assert seg["supporting_source_spans"] == []

        disc = render_view(report, "discrepancy")
        grounded = all(st == "supported" for st in statuses) and not report.conflicts
        assert disc["overall_grounding_status"] == ("FULLY_GROUNDED" if grounded else "DISCREPANCY_FOUND")


def test_discrepancy_view_names_disagreeing_sources() -> None:
    disc = render_view(reports()[3], "discrepancy")
    assert disc["overall_grounding_status"] == "DISCREPANCY_FOUND"
    assert "Sources a and b disagree" in disc["claims"][0]["explanation"]


CONTRADICTED = ("The plant opened in 2010.", ["The plant opened in 2012."])
UNSUPPORTED = ("The plant opened in 2012. It is owned by Zed Corp.", ["The plant opened in 2012."])
FAITHFUL = ("The plant opened in 2012.", ["The plant opened in 2012."])


@pytest.mark.parametrize(
    ("case", "risk", "action"),
    [
        (FAITHFUL, "high", "deliver"),
        (CONTRADICTED, "high", "block"),
        (UNSUPPORTED, "high", "human_review"),
        (CONTRADICTED, "medium", "regenerate"),
        (UNSUPPORTED, "medium", "regenerate"),  # 0.5 is below the 0.85 threshold
        (CONTRADICTED, "low", "deliver_with_caveat"),
        (FAITHFUL, "low", "deliver"),
    ],
)
def test_default_policy_decisions_per_risk_level(case: tuple[str, list[str]], risk: str, action: str) -> None:
    report = audit(case[0], case[1], risk_level=risk)  # type: ignore[arg-type]
    decision = Gate().decide(report)
    assert decision.action == action, decision.reasons
    assert decision.reasons


def test_caveat_names_the_unsupported_claims() -> None:
    decision = Gate().decide(audit(*CONTRADICTED, risk_level="low"))
    assert decision.action == "deliver_with_caveat"
    assert decision.caveat and "The plant opened in 2010" in decision.caveat


def test_policy_files_change_decisions(tmp_path: Path) -> None:
    strict = load_policy(HERE / "policies" / "strict.yaml")
    assert strict.threshold == 0.95
    assert Gate(strict).decide(audit(*UNSUPPORTED)).action == "block"
    toml = tmp_path / "lenient.toml"
    toml.write_text('name = "lenient"\nthreshold = 0.1\n[risk.medium]\nunsupported = "deliver"\n')
    assert Gate(toml).decide(audit(*UNSUPPORTED)).action == "deliver"


def test_bad_policy_file_is_a_clear_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("threshold = 2\n")
    with pytest.raises(ConfigError, match=r"bad\.toml: 'threshold'"):
        load_policy(bad)
    with pytest.raises(ConfigError, match="must end in"):
        load_policy(tmp_path / "policy.json")


def gate_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ragaudit", "gate", *args], capture_output=True, text=True, timeout=60)


def test_gate_cli_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"answer": FAITHFUL[0], "sources": [{"id": "1", "text": FAITHFUL[1][0]}]}))
    proc = gate_cli(str(good))
    assert proc.returncode == 0 and proc.stdout.startswith("deliver")
    proc = gate_cli(str(EXAMPLES / "request.json"), "--risk-level", "high")
    assert proc.returncode == 1 and proc.stdout.startswith("block")
    proc = gate_cli(str(good), "--policy", str(tmp_path / "missing.toml"))
    assert proc.returncode == 2 and "cannot read the policy file" in proc.stderr


def test_gate_cli_batch_summarises(tmp_path: Path) -> None:
    proc = gate_cli("--batch", str(EXAMPLES / "batch.jsonl"), "--json")
    assert proc.returncode == 1
    decisions = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [d["action"] for d in decisions] == ["deliver", "regenerate"]
    assert "decisions:" in proc.stderr and "invalid 1" in proc.stderr


def test_audit_cli_renders_a_view() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ragaudit", "audit", str(EXAMPLES / "request.json"), "--view", "classification"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    jsonschema.validate(json.loads(proc.stdout), view_schema("classification"))
