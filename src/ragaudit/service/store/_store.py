"""The :class:`Store` over SQLAlchemy, and :func:`open_store` (which applies the Alembic migrations)."""

from __future__ import annotations

import contextlib
import secrets
import threading
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, delete, event, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from ragaudit._vocab import ROLES, ReviewDecision, Role
from ragaudit.errors import ConfigError, StorageError
from ragaudit.models import AuditRequest, Report
from ragaudit.service.store._keys import MIN_KEY_CHARS, KeyNameTaken, hash_key
from ragaudit.service.store._records import AuditRecord, _record
from ragaudit.service.store._schema import api_keys, audits, jobs, retention_log, reviews
from ragaudit.service.store._time import _aware, now

DEFAULT_URL = "sqlite:///ragaudit.db"


class Pruned(NamedTuple):
    """What one prune deleted."""

    audits: int
    reviews: int
    jobs: int


def _migrate(engine: Engine) -> None:
    config = Config()
    config.set_main_option("script_location", str(resources.files("ragaudit.service.store").joinpath("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The audit trail in one database. Build with :func:`open_store`."""

    def __init__(self, engine: Engine, *, key_secret: str | None = None) -> None:
        self.engine = engine
        # SQLite takes one writer at a time: queue this process's writers on a lock instead of letting
        # them collide in the database (a deferred transaction cannot always wait its turn there).
        # WAL keeps readers off this path. PostgreSQL takes concurrent writers itself.
        self._write_lock: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )
        self.key_secret = key_secret
        """``RAGAUDIT_KEY_SECRET``: keys are stored as HMAC-SHA256 under it (else SHA-256)."""

    # --- audits -----------------------------------------------------------------------------
    def record_audit(
        self,
        report: Report,
        request: AuditRequest,
        *,
        audit_id: str | None = None,
        trace_id: str | None = None,
        answer_version: str | None = None,
        latency_ms: float = 0.0,
        created_at: datetime | None = None,
    ) -> str:
        """Append one audit (its report, gate decision, and the request a reviewer needs) and return its id."""
        audit_id = audit_id or str(uuid.uuid4())
        decision = report.decision
        row = {
            "id": audit_id,
            "created_at": created_at or now(),
            "trace_id": trace_id,
            "answer_version": answer_version,
            "request_id": report.id,
            "answer_hash": report.hashes.answer,
            "source_set_hash": report.hashes.source_set,
            "source_hashes": report.hashes.sources,
            "judge": report.judge.name,
            "judge_version": report.judge.version,
            "model": report.judge.model,
            "prompt_version": report.judge.prompt_version,
            "risk_level": report.options.risk_level,
            "label": report.label,
            "faithfulness": report.faithfulness,
            "decision": decision.action,
            "decision_reasons": decision.reasons,
            "report": report.model_dump(mode="json"),
            "request": request.model_dump(mode="json"),
            "latency_ms": round(latency_ms, 3),
        }
        with self._begin() as conn:
            conn.execute(insert(audits).values(**row))
        return audit_id

    def get_audit(self, audit_id: str) -> AuditRecord | None:
        """One audit by id."""
        with self._connect() as conn:
            row = conn.execute(select(audits).where(audits.c.id == audit_id)).mappings().first()
        return _record(dict(row)) if row else None

    def list_audits(
        self, *, since: datetime | None = None, decision: str | None = None, limit: int | None = None
    ) -> list[AuditRecord]:
        """Audits, newest first, filtered by time and decision."""
        query = select(audits).order_by(audits.c.created_at.desc(), audits.c.id)
        if since is not None:
            query = query.where(audits.c.created_at >= since)
        if decision is not None:
            query = query.where(audits.c.decision == decision)
        if limit is not None:
            query = query.limit(limit)
        with self._connect() as conn:
            return [_record(dict(r)) for r in conn.execute(query).mappings()]

    def iter_export(self, *, since: datetime | None = None, decision: str | None = None) -> Iterator[dict[str, Any]]:
        """Audits with their reviews, oldest first, for downstream systems (JSON Lines)."""
        for record in reversed(self.list_audits(since=since, decision=decision)):
            out = record.as_dict()
            out["reviews"] = self.reviews_for(record.id)
            yield out

    def count_audits(self) -> int:
        """How many audits are stored."""
        with self._connect() as conn:
            return int(conn.execute(select(func.count()).select_from(audits)).scalar_one())

    # --- reviews ----------------------------------------------------------------------------
    def open_reviews(
        self, *, decision: str | None = None, risk: str | None = None, older_than: timedelta | None = None
    ) -> list[AuditRecord]:
        """Audits the gate sent to human review that have no review yet, oldest first."""
        reviewed = select(reviews.c.audit_id)
        query = select(audits).where(audits.c.id.not_in(reviewed)).order_by(audits.c.created_at, audits.c.id)
        query = query.where(audits.c.decision == (decision or "human_review"))
        if risk:
            query = query.where(audits.c.risk_level == risk)
        if older_than is not None:
            query = query.where(audits.c.created_at <= now() - older_than)
        with self._connect() as conn:
            return [_record(dict(r)) for r in conn.execute(query).mappings()]

    def add_review(
        self,
        audit_id: str,
        *,
        reviewer: str,
        decision: ReviewDecision,
        claim_labels: dict[str, str],
        edited_answer: str | None = None,
        comment: str | None = None,
        reviewer_key_id: str | None = None,
    ) -> str:
        """Record a reviewer's labels and decision for one audit (the key id tells same-named reviewers apart)."""
        key_id = reviewer_key_id or self.key_id(reviewer)
        review_id = str(uuid.uuid4())
        with self._begin() as conn:
            conn.execute(
                insert(reviews).values(
                    id=review_id,
                    audit_id=audit_id,
                    created_at=now(),
                    reviewer=reviewer,
                    decision=decision,
                    claim_labels=claim_labels,
                    edited_answer=edited_answer,
                    comment=comment,
                    reviewer_key_id=key_id,
                )
            )
        return review_id

    def reviews_for(self, audit_id: str) -> list[dict[str, Any]]:
        """Every review of one audit, oldest first."""
        with self._connect() as conn:
            rows = conn.execute(
                select(reviews).where(reviews.c.audit_id == audit_id).order_by(reviews.c.created_at)
            ).mappings()
            return [{**dict(r), "created_at": _aware(r["created_at"]).isoformat()} for r in rows]

    # --- jobs -------------------------------------------------------------------------------
    def enqueue(self, job_id: str, request: dict[str, Any], options: dict[str, Any], callback_url: str | None) -> None:
        """Queue an async audit."""
        stamp = now()
        with self._begin() as conn:
            conn.execute(
                insert(jobs).values(
                    id=job_id,
                    created_at=stamp,
                    updated_at=stamp,
                    state="queued",
                    request=request,
                    options=options,
                    callback_url=callback_url,
                    attempts=0,
                )
            )

    def claim_job(self) -> dict[str, Any] | None:
        """Take the oldest queued job (or one left running by a dead worker); None when idle."""
        with self._begin() as conn:
            query = select(jobs).where(jobs.c.state == "queued").order_by(jobs.c.created_at).limit(1)
            if self.engine.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            row = conn.execute(query).mappings().first()
            if row is None:
                return None
            taken = conn.execute(
                update(jobs)
                .where(jobs.c.id == row["id"], jobs.c.state == "queued")
                .values(state="running", attempts=row["attempts"] + 1, updated_at=now())
            )
            return {**dict(row), "state": "running", "attempts": row["attempts"] + 1} if taken.rowcount == 1 else None

    def requeue_running(self) -> int:
        """At start-up: jobs a previous process was running are queued again (none is lost)."""
        with self._begin() as conn:
            return int(
                conn.execute(
                    update(jobs).where(jobs.c.state == "running").values(state="queued", updated_at=now())
                ).rowcount
            )

    def finish_job(self, job_id: str, *, error: str | None = None) -> None:
        """Mark a job done (its audit is recorded) or failed."""
        with self._begin() as conn:
            conn.execute(
                update(jobs)
                .where(jobs.c.id == job_id)
                .values(state="failed" if error else "done", error=error, updated_at=now())
            )

    def job(self, job_id: str) -> dict[str, Any] | None:
        """A job's row."""
        with self._connect() as conn:
            row = conn.execute(select(jobs).where(jobs.c.id == job_id)).mappings().first()
        return dict(row) if row else None

    def job_counts(self) -> dict[str, int]:
        """Jobs per state."""
        with self._connect() as conn:
            return {r[0]: int(r[1]) for r in conn.execute(select(jobs.c.state, func.count()).group_by(jobs.c.state))}

    # --- keys -------------------------------------------------------------------------------
    def _hashes(self, key: str) -> dict[str, str]:
        """The key's hash under each scheme this store reads (HMAC first when a secret is set)."""
        hashes = {"sha256": hash_key(key)}
        if self.key_secret:
            hashes = {"hmac-sha256": hash_key(key, self.key_secret), **hashes}
        return hashes

    def create_key(self, name: str, role: Role, key: str | None = None) -> str:
        """Create an API key for ``role``; returns the key (only its hash is stored).

        Names are unique among active keys; a key given by the caller must be at least
        :data:`MIN_KEY_CHARS` characters (generated ones are 32 random characters).
        """
        if role not in ROLES:
            raise ConfigError(f"unknown role {role!r}: choose one of {', '.join(ROLES)}")
        if key is not None and len(key) < MIN_KEY_CHARS:
            raise ConfigError(
                f"an API key must have at least {MIN_KEY_CHARS} characters (got {len(key)}); "
                "use a long random string, e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))'"
            )
        key = key or "rga_" + secrets.token_urlsafe(24)
        scheme, digest = next(iter(self._hashes(key).items()))
        with self._begin() as conn:
            if self._active_key(conn, name) is not None:
                raise KeyNameTaken(f"a key named {name!r} already exists; rotate or revoke it, or pick another name")
            conn.execute(
                insert(api_keys).values(
                    id=str(uuid.uuid4()),
                    name=name,
                    role=role,
                    key_hash=digest,
                    hash_scheme=scheme,
                    created_at=now(),
                )
            )
        return key

    def _active_key(self, conn: Any, name: str) -> Any:
        return conn.execute(
            select(api_keys.c.id, api_keys.c.role).where(api_keys.c.name == name, api_keys.c.revoked_at.is_(None))
        ).first()

    def lookup_key(self, key: str) -> tuple[str, Role] | None:
        """(name, role) of a valid, unrevoked key; an old SHA-256 hash is upgraded to HMAC on use."""
        hashes = self._hashes(key)
        with self._connect() as conn:
            row = conn.execute(
                select(api_keys.c.id, api_keys.c.name, api_keys.c.role, api_keys.c.hash_scheme).where(
                    api_keys.c.key_hash.in_(list(hashes.values())), api_keys.c.revoked_at.is_(None)
                )
            ).first()
        if row is None or hashes.get(row.hash_scheme) is None:
            return None
        best_scheme, best = next(iter(hashes.items()))
        if row.hash_scheme != best_scheme:
            with self._begin() as conn:
                conn.execute(
                    update(api_keys).where(api_keys.c.id == row.id).values(key_hash=best, hash_scheme=best_scheme)
                )
        return (row.name, row.role)

    def revoke_key(self, name: str) -> bool:
        """Revoke the active key called ``name`` (it stops working at once); False if there is none."""
        with self._begin() as conn:
            done = conn.execute(
                update(api_keys)
                .where(api_keys.c.name == name, api_keys.c.revoked_at.is_(None))
                .values(revoked_at=now())
            ).rowcount
        return bool(done)

    def rotate_key(self, name: str) -> str | None:
        """Replace the active key called ``name`` by a new one with the same role; None if there is none."""
        with self._connect() as conn:
            row = self._active_key(conn, name)
        if row is None:
            return None
        self.revoke_key(name)
        return self.create_key(name, row.role)

    def key_id(self, name: str) -> str | None:
        """The id of the active key called ``name`` (reviews record it beside the name)."""
        with self._connect() as conn:
            row = self._active_key(conn, name)
        return str(row.id) if row else None

    def has_admin(self) -> bool:
        """Whether any active admin key exists."""
        with self._connect() as conn:
            query = select(api_keys.c.id).where(api_keys.c.role == "admin", api_keys.c.revoked_at.is_(None))
            return conn.execute(query.limit(1)).first() is not None

    def list_keys(self) -> list[dict[str, Any]]:
        """Key names, roles, creation and revocation times (never the keys)."""
        columns = (api_keys.c.id, api_keys.c.name, api_keys.c.role, api_keys.c.created_at, api_keys.c.revoked_at)
        with self._connect() as conn:
            return [
                {
                    "id": r.id,
                    "name": r.name,
                    "role": r.role,
                    "created_at": _aware(r.created_at).isoformat(),
                    "revoked_at": _aware(r.revoked_at).isoformat() if r.revoked_at else None,
                }
                for r in conn.execute(select(*columns).order_by(api_keys.c.created_at))
            ]

    # --- retention --------------------------------------------------------------------------
    def prune(self, older_than: timedelta, *, by: str = "cli") -> Pruned:
        """Delete audits, their reviews, and finished jobs older than ``older_than``; the deletion is recorded.

        Jobs hold the full request (answer and sources), so they go too; queued or running ones stay.
        """
        try:
            cutoff = now() - older_than
        except OverflowError:
            raise ConfigError(f"age {older_than} reaches before year 1; give a shorter age") from None
        with self._begin() as conn:
            old = select(audits.c.id).where(audits.c.created_at < cutoff)
            n_reviews = conn.execute(delete(reviews).where(reviews.c.audit_id.in_(old))).rowcount
            n_audits = conn.execute(delete(audits).where(audits.c.created_at < cutoff)).rowcount
            n_jobs = conn.execute(
                delete(jobs).where(jobs.c.created_at < cutoff, jobs.c.state.in_(("done", "failed")))
            ).rowcount
            conn.execute(
                insert(retention_log).values(
                    at=now(),
                    older_than=cutoff,
                    audits_deleted=n_audits,
                    reviews_deleted=n_reviews,
                    jobs_deleted=n_jobs,
                    by=by,
                )
            )
        return Pruned(int(n_audits), int(n_reviews), int(n_jobs))

    def retention_history(self) -> list[dict[str, Any]]:
        """Every prune that ran."""
        with self._connect() as conn:
            return [dict(r) for r in conn.execute(select(retention_log).order_by(retention_log.c.id)).mappings()]

    # --- plumbing ---------------------------------------------------------------------------
    def _connect(self) -> Any:
        try:
            return self.engine.connect()
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot reach the database: {exc.__class__.__name__}: {exc}") from exc

    @contextlib.contextmanager
    def _begin(self) -> Iterator[Any]:
        with self._write_lock:
            try:
                transaction = self.engine.begin()
            except SQLAlchemyError as exc:
                raise StorageError(f"cannot reach the database: {exc.__class__.__name__}: {exc}") from exc
            with transaction as conn:
                yield conn

    def ping(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def close(self) -> None:
        """Release connections."""
        self.engine.dispose()


def open_store(url: str | None = None) -> Store:
    """Open (and migrate) the audit trail at ``url``: ``sqlite:///file.db`` or ``postgresql+psycopg://…``."""
    url = url or DEFAULT_URL
    if not url.startswith(("sqlite", "postgresql")):
        raise ConfigError(
            f"unsupported database URL {url!r}: use sqlite:///path.db or postgresql+psycopg://user@host/db"
        )
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).expanduser().parent.mkdir(parents=True, exist_ok=True)
    try:
        connect_args = {"check_same_thread": False} if url.startswith("sqlite") else {}
        # A server's connection can drop (restart, idle timeout): ping before use. A SQLite file cannot.
        engine = create_engine(url, pool_pre_ping=url.startswith("postgresql"), connect_args=connect_args)
        if engine.dialect.name == "sqlite":

            @event.listens_for(engine, "connect")
            def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
                cursor.execute("PRAGMA busy_timeout=10000")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

        _migrate(engine)
    except SQLAlchemyError as exc:
        raise StorageError(f"cannot open the audit trail at {url}: {exc.__class__.__name__}: {exc}") from exc
    return Store(engine)
