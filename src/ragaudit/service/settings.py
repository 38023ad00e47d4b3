"""Service settings, read from ``RAGAUDIT_*`` environment variables."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class ServiceSettings(BaseSettings):
    """Service configuration, read from ``RAGAUDIT_*`` environment variables (and ``.env``)."""

    model_config = SettingsConfigDict(env_prefix="RAGAUDIT_", env_file=".env", extra="ignore")

    database_url: str = "sqlite:///ragaudit.db"
    """Audit trail: ``sqlite:///file.db`` (default) or ``postgresql+psycopg://user@host/db``."""
    admin_key: str | None = None
    """First admin key, for automation; without it, one is created on first start and printed once."""
    judge: str = "offline"
    policy: str | None = None
    """Gate policy file (TOML/YAML); default: the shipped policy."""
    max_request_bytes: int = 4_000_000
    """Larger request bodies get 413 (counted as they stream in, chunked or not)."""
    callback_allow: str | None = None
    """Private or loopback callback hosts/networks to allow, comma-separated (``hooks.internal, 10.0.0.0/8``)."""
    index_cache_chars: int = 4_000_000
    """Source characters kept indexed, shared by every option set (bounds memory: ~80 bytes each)."""
    log_text: bool = False
    """Log answer and source text (off: logs carry ids, hashes, decisions and timings only)."""
    workers: int = 1
    """Background workers for async audits in this process."""
    audit_processes: int | None = None
    """Processes that run audits, off the event loop and the GIL (default: one per core; 0: threads)."""
    poll_interval: float = 0.2
