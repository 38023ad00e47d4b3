"""Stage 7: the audit trail (SQLAlchemy 2, Alembic migrations; SQLite by default, PostgreSQL by URL).

Audits and reviews are append-only: nothing updates or deletes them except :meth:`Store.prune`,
which records what it removed. Jobs (async audits in flight) live in the same database, so they
survive a restart of the server.
"""

from __future__ import annotations

from ragaudit._vocab import ROLES
from ragaudit.errors import StorageError
from ragaudit.service.store._export import golden_row
from ragaudit.service.store._keys import MIN_KEY_CHARS, KeyNameTaken, hash_key
from ragaudit.service.store._records import AuditRecord
from ragaudit.service.store._store import DEFAULT_URL, Pruned, Store, open_store
from ragaudit.service.store._time import MAX_AGE, now, parse_age, parse_since

__all__ = [
    "DEFAULT_URL",
    "MAX_AGE",
    "MIN_KEY_CHARS",
    "ROLES",
    "AuditRecord",
    "KeyNameTaken",
    "Pruned",
    "StorageError",
    "Store",
    "golden_row",
    "hash_key",
    "now",
    "open_store",
    "parse_age",
    "parse_since",
]
