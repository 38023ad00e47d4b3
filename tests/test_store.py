"""One contract for the audit trail, run against SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from ragaudit import Auditor
from ragaudit.errors import ConfigError
from ragaudit.models import AuditRequest
from ragaudit.service.store import KeyNameTaken, Store, hash_key, open_store, parse_age
from ragaudit.service.store._schema import api_keys
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
    assert store.prune(timedelta(days=90)) == (0, 0, 0)
    assert store.prune(timedelta(seconds=-1)) == (1, 1, 0)
    assert store.count_audits() == 0
    assert [h["audits_deleted"] for h in store.retention_history()] == [0, 1]


def test_parse_age() -> None:
    assert parse_age("90d") == timedelta(days=90)
    with pytest.raises(ValueError, match="90 days"):
        parse_age("90 days")


# --- issue 11, rows 9 and 10: key lifecycle, retention of jobs --------------------------------
def test_prune_removes_finished_jobs_with_their_text(store: Store) -> None:
    store.enqueue("job-done", REQUEST.model_dump(), {}, None)
    store.enqueue("job-queued", REQUEST.model_dump(), {}, None)
    taken = store.claim_job()
    assert taken is not None and taken["id"] == "job-done"
    store.finish_job("job-done")
    pruned = store.prune(timedelta(seconds=-1))
    assert pruned.jobs == 1
    assert store.job("job-done") is None  # the answer and sources it held are gone
    assert store.job("job-queued") is not None  # work in flight is kept
    assert store.retention_history()[-1]["jobs_deleted"] == 1


def test_keys_can_be_revoked_and_rotated(store: Store) -> None:
    key = store.create_key("ci-bot", "auditor")
    new = store.rotate_key("ci-bot")
    assert new is not None and new != key
    assert store.lookup_key(key) is None and store.lookup_key(new) == ("ci-bot", "auditor")
    assert store.revoke_key("ci-bot") and store.lookup_key(new) is None
    assert not store.revoke_key("ci-bot")
    assert [k["revoked_at"] is not None for k in store.list_keys()] == [True, True]


def test_key_names_are_unique_among_active_keys(store: Store) -> None:
    store.create_key("ana", "reviewer")
    with pytest.raises(KeyNameTaken, match="already exists"):
        store.create_key("ana", "admin")
    store.revoke_key("ana")
    store.create_key("ana", "reviewer")  # a revoked name can be given again


def test_short_keys_are_refused(store: Store) -> None:
    with pytest.raises(ConfigError, match="at least 16 characters"):
        store.create_key("admin", "admin", "a")


def test_keys_are_hmac_under_the_server_secret_and_old_hashes_upgrade(store: Store) -> None:
    key = store.create_key("old", "reviewer")  # stored as SHA-256 (no secret yet)
    store.key_secret = "server-secret-for-tests"
    assert store.lookup_key(key) == ("old", "reviewer")  # still valid, and rehashed now
    with store.engine.connect() as conn:
        row = conn.execute(select(api_keys.c.key_hash, api_keys.c.hash_scheme)).one()
    assert row.hash_scheme == "hmac-sha256" and row.key_hash == hash_key(key, "server-secret-for-tests")
    assert row.key_hash != hashlib.sha256(key.encode()).hexdigest()
    store.key_secret = "another-secret"
    assert store.lookup_key(key) is None  # the hash is useless without the secret


def test_reviews_record_the_key_id(store: Store) -> None:
    audit_id = record(store)
    store.create_key("ana", "reviewer")
    store.add_review(audit_id, reviewer="ana", decision="approve", claim_labels={})
    key_id = next(k["id"] for k in store.list_keys() if k["name"] == "ana")
    assert store.reviews_for(audit_id)[0]["reviewer_key_id"] == key_id


def test_absurd_ages_are_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="shorter age"):
        parse_age("99999999999d")
