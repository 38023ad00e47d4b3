"""The batch kernel: flat typed rows equal to single-process audits, error rows for bad input."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from ragaudit import Auditor
from ragaudit.aggregate import summarize
from ragaudit.config import AuditorConfig
from ragaudit.errors import ConfigError
from ragaudit.gate import Policy
from ragaudit.kernel import BatchConfig, audit_batches, output_names, request_keys, worker_auditor

GOOD = [
    {
        "id": "a",
        "question": "When did the plant open?",
        "answer": "The plant opened in 2010 [1]. It employs 1,200 people.",
        "sources": [{"id": "1", "text": "The plant opened in 2012."}, {"id": "2", "text": "It employs 1200 people."}],
    },
    {
        "id": "b",
        "question": None,
        "answer": "Paris is the capital of France.",
        "sources": [{"id": "s", "text": "Paris is the capital and largest city of France."}],
    },
]


def _batch(rows: list[dict[str, object]]) -> pa.RecordBatch:
    return pa.RecordBatch.from_pylist(rows)


def _without_timings(text: str) -> dict[str, object]:
    report = json.loads(text)
    report.pop("timings")
    return dict(report)


def test_rows_match_single_process_audits_and_schema_is_flat() -> None:
    out = next(audit_batches([_batch(GOOD)]))
    assert out.schema.names == list(output_names())
    assert out.schema.field("faithfulness").type == pa.float64()
    assert out.schema.field("contradicted").type == pa.int32()
    auditor = Auditor()
    for row, expected in zip(out.to_pylist(), GOOD, strict=True):
        report = auditor.audit(expected)
        assert _without_timings(row["report_json"]) == _without_timings(report.to_json())
        assert (row["id"], row["label"], row["faithfulness"]) == (report.id, report.label, report.faithfulness)
        assert row["claims"] == report.counts.total and row["contradicted"] == report.counts.contradicted
        assert row["decision"] == report.decision.action if report.decision else False
        assert (row["judge"], row["judge_version"], row["error"]) == ("offline", report.judge.version, None)
    assert out.column("label").to_pylist() == ["hallucinated", "faithful"]


def test_bad_rows_get_error_rows_and_never_stop_the_batch() -> None:
    bad = [
        {"id": "no-answer", "answer": None, "sources": '[{"id": "1", "text": "x"}]'},
        {"id": "empty", "answer": "Something.", "sources": "[]"},
        {"id": "json", "answer": "Something.", "sources": "[{broken"},
        {"id": "dup", "answer": "Something.", "sources": '[{"id": "1", "text": "a"}, {"id": "1", "text": "b"}]'},
        {"id": "kind", "answer": "Something.", "sources": "42"},
        {"id": "null", "answer": "Something.", "sources": None},
    ]
    good = [{**row, "sources": json.dumps(row["sources"])} for row in GOOD]
    rows = [good[0], *bad, good[1]]
    out = next(audit_batches([_batch(rows)])).to_pylist()
    assert [r["id"] for r in out] == [r["id"] for r in rows]
    errors = {r["id"]: r["error"] for r in out}
    assert errors["a"] is None and errors["b"] is None
    assert "answer" in errors["no-answer"]
    assert "no sources" in errors["empty"]
    assert "invalid JSON" in errors["json"]
    assert "used twice" in errors["dup"]
    assert "int" in errors["kind"]
    assert "missing" in errors["null"]
    for row in out[1:-1]:  # never an imputed score
        assert row["error"] and row["faithfulness"] is None and row["label"] is None and row["report_json"] is None
        assert len(row["request_hash"]) == 64


def test_pandas_in_pandas_out_with_mapped_and_kept_columns() -> None:
    frame = pd.DataFrame(
        {
            "response": [r["answer"] for r in GOOD],
            "passages": [json.dumps(r["sources"]) for r in GOOD],
            "prompt": [r["question"] for r in GOOD],
            "row": [7, 8],
            "task": ["qa", "summary"],
            "label": ["hallucinated", "faithful"],
        }
    )
    config = BatchConfig(
        columns=(("answer", "response"), ("sources", "passages"), ("question", "prompt"), ("id", "row")),
        keep=(("task", "task"), ("label", "gold_label")),
    )
    out = next(audit_batches([frame], config))
    assert isinstance(out, pd.DataFrame)
    assert list(out["id"]) == ["7", "8"]
    assert list(out["task"]) == ["qa", "summary"] and list(out["gold_label"]) == ["hallucinated", "faithful"]
    assert list(out["label"]) == ["hallucinated", "faithful"]


def test_configuration_errors_name_the_column() -> None:
    with pytest.raises(ConfigError, match="clashes"):
        BatchConfig(keep=(("label", "label"),))
    with pytest.raises(ConfigError, match="no 'answer' column"):
        next(audit_batches([_batch([{"text": "x", "sources": "[]"}])]))
    with pytest.raises(ConfigError, match="unknown column role"):
        BatchConfig(columns=(("context", "x"),))


def test_request_hash_is_an_idempotent_key_and_skip_leaves_rows_out() -> None:
    as_json = _batch([{**GOOD[0], "sources": json.dumps(GOOD[0]["sources"])}])
    as_structs = _batch([GOOD[0]])
    reordered = _batch([{**GOOD[0], "sources": list(reversed(GOOD[0]["sources"]))}])  # type: ignore[call-overload]
    assert request_keys(as_json) == request_keys(as_structs) != request_keys(reordered)
    keys = request_keys(_batch(GOOD))
    out = next(audit_batches([_batch(GOOD)], skip={keys[0]}))
    assert out.column("id").to_pylist() == ["b"] and out.column("request_hash").to_pylist() == keys[1:]


def test_the_auditor_is_built_once_per_worker() -> None:
    config = BatchConfig(AuditorConfig(risk_level="high"))
    first = worker_auditor(config)
    list(audit_batches([_batch(GOOD), _batch(GOOD)], config))
    assert worker_auditor(BatchConfig(AuditorConfig(risk_level="high"))) is first
    # A policy object is not hashable: configs are matched by value.
    strict = AuditorConfig(policy=Policy(name="strict-test", threshold=0.99))
    assert worker_auditor(strict) is worker_auditor(AuditorConfig(policy=Policy(name="strict-test", threshold=0.99)))
    assert worker_auditor(strict) is not first


def test_a_local_batch_audits_under_the_config_in_its_worker_processes(tmp_path: Path) -> None:
    from ragaudit.tables import run_local

    auditor = AuditorConfig(
        risk_level="high", claim_types=["temporal"], policy=Policy(name="strict-test", threshold=0.99)
    )
    config = BatchConfig(auditor)
    assert pickle.loads(pickle.dumps(config)) == config  # what a spawned worker or a Spark executor gets
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps({**row, "id": f"{row['id']}{i}"}) + "\n" for i in range(3) for row in GOOD))
    summary = run_local(source, out, config, workers=2)
    assert summary.audited == 6 and summary.errors == 0
    reports = [json.loads(line) for line in out.read_text().splitlines()]
    direct = Auditor(auditor).audit(GOOD[0])
    assert [r["id"] for r in reports] == ["a0", "b0", "a1", "b1", "a2", "b2"]
    for report in reports:
        assert report["options"] == {"risk_level": "high", "claim_types": ["temporal"]}
        assert report["decision"]["policy"] == "strict-test" and report["decision"]["risk_level"] == "high"
        assert {c["type"] for c in report["claims"]} <= {"temporal"}
    assert reports[0]["claims"] == json.loads(direct.to_json())["claims"]


def test_summary_rates_slices_and_gold() -> None:
    rows = []
    for i in range(40):
        rows.append(
            {"label": "hallucinated" if i % 4 == 0 else "faithful", "faithfulness": 0.5 if i % 4 == 0 else 1.0}
            | {
                "error": None,
                "task": "qa" if i < 20 else "summary",
                "gold": "hallucinated" if i % 2 == 0 else "faithful",
            }
        )
    rows.append({"label": None, "faithfulness": None, "error": "bad row", "task": "qa", "gold": "faithful"})
    summary = summarize(pa.Table.from_pylist(rows), slice_by="task", gold="gold")
    assert (summary["rows"], summary["audited"], summary["errors"]) == (41, 40, 1)
    overall = summary["overall"]
    assert overall["hallucination_rate"]["rate"] == 0.25
    low, high = overall["hallucination_rate"]["ci95"]
    assert low < 0.25 < high
    assert overall["gold_hallucination_rate"]["rate"] == 0.5
    detection = overall["detection"]
    assert detection["precision"] == 1.0 and detection["recall"] == 0.5
    assert detection["recall_ci95"][0] < 0.5 < detection["recall_ci95"][1]
    assert set(summary["slices"]) == {"qa", "summary"} and summary["slices"]["qa"]["hallucination_rate"]["n"] == 20
    assert summary["faithfulness"]["p50"] == 1.0 and sum(b["count"] for b in summary["faithfulness"]["histogram"]) == 40


def test_a_table_in_gives_a_table_out() -> None:
    table = pa.Table.from_batches([_batch(GOOD), _batch(GOOD)])
    out = next(audit_batches([table]))
    assert isinstance(out, pa.Table) and out.num_rows == 4
    assert out.column("label").to_pylist() == ["hallucinated", "faithful"] * 2
