"""Initial audit trail: audits, reviews, jobs, api_keys, retention_log.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "audits",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("trace_id", sa.String(200)),
        sa.Column("answer_version", sa.String(200)),
        sa.Column("request_id", sa.String(200)),
        sa.Column("answer_hash", sa.String(64), nullable=False),
        sa.Column("source_set_hash", sa.String(64), nullable=False),
        sa.Column("source_hashes", sa.JSON, nullable=False),
        sa.Column("judge", sa.String(100), nullable=False),
        sa.Column("judge_version", sa.String(50), nullable=False),
        sa.Column("model", sa.String(200)),
        sa.Column("prompt_version", sa.String(50)),
        sa.Column("risk_level", sa.String(10), nullable=False),
        sa.Column("label", sa.String(20), nullable=False),
        sa.Column("faithfulness", sa.Float, nullable=False),
        sa.Column("decision", sa.String(30), nullable=False),
        sa.Column("decision_reasons", sa.JSON, nullable=False),
        sa.Column("report", sa.JSON, nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("latency_ms", sa.Float, nullable=False),
    )
    op.create_index("ix_audits_created_at", "audits", ["created_at"])
    op.create_index("ix_audits_decision", "audits", ["decision"])
    op.create_table(
        "reviews",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("audit_id", sa.String(36), sa.ForeignKey("audits.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviewer", sa.String(200), nullable=False),
        sa.Column("decision", sa.String(30), nullable=False),
        sa.Column("claim_labels", sa.JSON, nullable=False),
        sa.Column("edited_answer", sa.Text),
        sa.Column("comment", sa.Text),
    )
    op.create_index("ix_reviews_audit_id", "reviews", ["audit_id"])
    op.create_table(
        "jobs",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("callback_url", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_jobs_state_created", "jobs", ["state", "created_at"])
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "retention_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("older_than", sa.DateTime(timezone=True), nullable=False),
        sa.Column("audits_deleted", sa.Integer, nullable=False),
        sa.Column("reviews_deleted", sa.Integer, nullable=False),
        sa.Column("by", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    for table in ("retention_log", "api_keys", "jobs", "reviews", "audits"):
        op.drop_table(table)
