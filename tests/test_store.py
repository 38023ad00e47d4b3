"""One contract for the audit trail, run against SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from ragaudit import Auditor
from ragaudit.models import AuditRequest
from ragaudit.service.store import Store, open_store, parse_age
from service_helpers import PG_URL, reset_postgres

REQUEST = AuditRequest(answer="The plant opened in 2010.", sources=[{"id": "1", "text": "The plant opened in 2012."}])  # type: ignore[list-item]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'audits.db'}"
    elif reset_postgres():
        url = PG_URL
    else:
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    opened = open_store(url)
    yield opened
    opened.close()


def record(store: Store, risk: str = "high") -> str:
    report = Auditor(risk_level=risk).audit(REQUEST)  # type: ignore[arg-type]
    return store.record_audit(report, REQUEST, trace_id="trace-1", answer_version="v3", latency_ms=12.5)


def test_audit_round_trip(store: Store) -> None:
    audit_id = record(store)
    got = store.get_audit(audit_id)
    assert got is not None
    assert got.decision == "block" and got.label == "hallucinated" and got.trace_id == "trace-1"
    assert got.row["answer_version"] == "v3" and got.row["judge"] == "offline"
    assert got.report["hashes"]["answer"] == got.row["answer_hash"]
    assert got.created_at.tzinfo is not None
    assert store.count_audits() == 1


def test_review_queue_and_reviews(store: Store) -> None:
    blocked = record(store, "high")
    assert [r.id for r in store.open_reviews(decision="block")] == [blocked]
    store.add_review(blocked, reviewer="ana", decision="reject", claim_labels={"c1": "contradicted"})
    assert store.open_reviews(decision="block") == []
    (review,) = store.reviews_for(blocked)
    assert review["reviewer"] == "ana" and review["claim_labels"] == {"c1": "contradicted"}


def test_filters_and_export(store: Store) -> None:
    a = record(store, "high")
    b = record(store, "low")
    assert {r.id for r in store.list_audits()} == {a, b}
    assert [r.id for r in store.list_audits(decision="block")] == [a]
    exported = list(store.iter_export())
    assert [e["id"] for e in exported] == [a, b] and exported[0]["reviews"] == []


def test_jobs_survive_a_restart(store: Store) -> None:
    store.enqueue("job-1", REQUEST.model_dump(), {"risk_level": "medium"}, None)
    job = store.claim_job()
    assert job is not None and job["id"] == "job-1"
    assert store.claim_job() is None
    # The process dies here; the next one puts the running job back in the queue.
    assert store.requeue_running() == 1
    again = store.claim_job()
    assert again is not None and again["attempts"] == 2
    store.finish_job("job-1")
    assert store.job_counts() == {"done": 1}


def test_keys_are_stored_hashed(store: Store) -> None:
    key = store.create_key("bob", "reviewer")
    assert store.lookup_key(key) == ("bob", "reviewer")
    assert store.lookup_key(key + "x") is None
    assert all(key not in str(row) for row in store.list_keys())


def test_prune_is_recorded(store: Store) -> None:
    audit_id = record(store)
    store.add_review(audit_id, reviewer="ana", decision="approve", claim_labels={})
    assert store.prune(timedelta(days=90)) == (0, 0)
    assert store.prune(timedelta(seconds=-1)) == (1, 1)
    assert store.count_audits() == 0
    assert [h["audits_deleted"] for h in store.retention_history()] == [0, 1]


def test_parse_age() -> None:
    assert parse_age("90d") == timedelta(days=90)
    with pytest.raises(ValueError, match="90 days"):
        parse_age("90 days")
