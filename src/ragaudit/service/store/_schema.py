"""Tables of the audit trail. Audits and reviews are append-only; jobs hold async work in flight."""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

audits = Table(
    "audits",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
    Column("trace_id", String(200)),
    Column("answer_version", String(200)),
    Column("request_id", String(200)),
    Column("answer_hash", String(64), nullable=False),
    Column("source_set_hash", String(64), nullable=False),
    Column("source_hashes", JSON, nullable=False),
    Column("judge", String(100), nullable=False),
    Column("judge_version", String(50), nullable=False),
    Column("model", String(200)),
    Column("prompt_version", String(50)),
    Column("risk_level", String(10), nullable=False),
    Column("label", String(20), nullable=False),
    Column("faithfulness", Float, nullable=False),
    Column("decision", String(30), nullable=False, index=True),
    Column("decision_reasons", JSON, nullable=False),
    Column("report", JSON, nullable=False),
    Column("request", JSON, nullable=False),
    Column("latency_ms", Float, nullable=False),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("audit_id", String(36), ForeignKey("audits.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("reviewer", String(200), nullable=False),
    Column("decision", String(30), nullable=False),
    Column("claim_labels", JSON, nullable=False),
    Column("edited_answer", Text),
    Column("comment", Text),
    Column("reviewer_key_id", String(36)),
)

jobs = Table(
    "jobs",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("state", String(10), nullable=False),
    Column("request", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("callback_url", Text),
    Column("error", Text),
    Column("attempts", Integer, nullable=False, default=0),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
Index("ix_jobs_state_created", jobs.c.state, jobs.c.created_at)

api_keys = Table(
    "api_keys",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("role", String(20), nullable=False),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True)),
    Column("hash_scheme", String(20), nullable=False, server_default="sha256"),
)
Index(
    "ux_api_keys_active_name",
    api_keys.c.name,
    unique=True,
    sqlite_where=api_keys.c.revoked_at.is_(None),
    postgresql_where=api_keys.c.revoked_at.is_(None),
)

retention_log = Table(
    "retention_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("older_than", DateTime(timezone=True), nullable=False),
    Column("audits_deleted", Integer, nullable=False),
    Column("reviews_deleted", Integer, nullable=False),
    Column("jobs_deleted", Integer, nullable=False, server_default="0"),
    Column("by", String(200), nullable=False),
)
