"""Key lifecycle and fuller retention: revocation, unique active names, HMAC hashes; jobs pruned too.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add key revocation, hash scheme and reviewer key id; retention counts jobs."""
    op.add_column("api_keys", sa.Column("revoked_at", sa.DateTime(timezone=True)))
    # Existing hashes are unsalted SHA-256; they are rehashed with the server secret on next use.
    op.add_column("api_keys", sa.Column("hash_scheme", sa.String(20), nullable=False, server_default="sha256"))
    conn = op.get_bind()
    # Names become unique among active keys: older duplicates get a numbered suffix.
    rows = conn.execute(sa.text("SELECT id, name FROM api_keys ORDER BY created_at, id")).fetchall()
    seen: dict[str, int] = {}
    for key_id, name in rows:
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            conn.execute(
                sa.text("UPDATE api_keys SET name = :name WHERE id = :id"),
                {"name": f"{name}-{seen[name]}", "id": key_id},
            )
    op.create_index(
        "ux_api_keys_active_name",
        "api_keys",
        ["name"],
        unique=True,
        sqlite_where=sa.text("revoked_at IS NULL"),
        postgresql_where=sa.text("revoked_at IS NULL"),
    )
    op.add_column("reviews", sa.Column("reviewer_key_id", sa.String(36)))
    op.add_column("retention_log", sa.Column("jobs_deleted", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop what upgrade added."""
    op.drop_column("retention_log", "jobs_deleted")
    op.drop_column("reviews", "reviewer_key_id")
    op.drop_index("ux_api_keys_active_name", "api_keys")
    op.drop_column("api_keys", "hash_scheme")
    op.drop_column("api_keys", "revoked_at")
