"""Service settings, read from ``RAGAUDIT_*`` environment variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic_settings import BaseSettings, SettingsConfigDict

from ragaudit._vocab import RiskLevel
from ragaudit.config import (
    EMBEDDED_PER_CLAIM,
    MAX_CHECKED_CLAIMS,
    MAX_EMBEDDED_TEXTS,
    MAX_EMBEDDED_TOKENS,
    MAX_INDEXED_CHARS,
)

if TYPE_CHECKING:
    from ragaudit.config import AuditorConfig


class ServiceSettings(BaseSettings):
    """Service configuration, read from ``RAGAUDIT_*`` environment variables (and ``.env``)."""

    model_config = SettingsConfigDict(env_prefix="RAGAUDIT_", env_file=".env", extra="ignore")

    database_url: str = "sqlite:///ragaudit.db"
    """Audit trail: ``sqlite:///file.db`` (default) or ``postgresql+psycopg://user@host/db``."""
    admin_key: str | None = None
    """The admin key (≥ 16 characters), for automation: a changed value replaces (revokes) the old one;
    without it, one is created on first start and printed once."""
    key_secret: str | None = None
    """Server secret: API keys are stored as HMAC-SHA256 under it (without it: SHA-256). Keep it stable."""
    judge: str = "offline"
    """Judge spec every audit process builds (``offline``, ``openai:gpt-4o``, ``cascade:…``)."""
    policy: str | None = None
    """Gate policy file (TOML/YAML); default: the shipped policy."""
    risk_level: RiskLevel = "medium"
    """Risk level of a request that names none."""
    max_request_bytes: int = 4_000_000
    """Larger request bodies get 413 (counted as they stream in, chunked or not)."""
    callback_allow: str | None = None
    """Private or loopback callback hosts/networks to allow, comma-separated (``hooks.internal, 10.0.0.0/8``)."""
    index_cache_chars: int = 2_000_000
    """Source characters kept indexed, shared by every option set (bounds memory: ~80 bytes each)."""
    checked_claims: int = MAX_CHECKED_CLAIMS
    """Budget: claims checked per request (the rest reported unsupported, marked not checked)."""
    indexed_chars: int = MAX_INDEXED_CHARS
    """Budget: source characters read per request (past it, the passages sharing most words with the answer)."""
    embedded_texts: int = MAX_EMBEDDED_TEXTS
    """Budget: texts the verifier embeds per request (claims, then passages)."""
    embedded_per_claim: int = EMBEDDED_PER_CLAIM
    """Budget: texts embedded per claim checked, besides a small index's passages."""
    embedded_tokens: int = MAX_EMBEDDED_TOKENS
    """Budget: model tokens embedded per request, claims and passages together."""
    log_text: bool = False
    """Log answer and source text (off: logs carry ids, hashes, decisions and timings only)."""
    workers: int = 1
    """Background workers for async audits in this process."""
    audit_processes: int | None = None
    """Processes that run audits, off the event loop and the GIL (default: one per core; 0: threads)."""
    poll_interval: float = 0.2

    def auditor_config(self) -> AuditorConfig:
        """The auditor configuration these settings describe (what every audit process builds)."""
        from ragaudit.config import AuditorConfig, Limits

        limits = Limits(
            checked_claims=self.checked_claims,
            indexed_chars=self.indexed_chars,
            embedded_texts=self.embedded_texts,
            embedded_per_claim=self.embedded_per_claim,
            embedded_tokens=self.embedded_tokens,
        )
        return AuditorConfig(judge=self.judge, policy=self.policy, risk_level=self.risk_level, limits=limits)


def check_settings(settings: ServiceSettings) -> None:
    """Raise :class:`~ragaudit.errors.ConfigError` for settings the service cannot start with."""
    from ragaudit.errors import ConfigError
    from ragaudit.service._callbacks import CallbackPolicy, CallbackURLError
    from ragaudit.service.store import MIN_KEY_CHARS

    if settings.admin_key is not None and len(settings.admin_key) < MIN_KEY_CHARS:
        raise ConfigError(
            f"RAGAUDIT_ADMIN_KEY must have at least {MIN_KEY_CHARS} characters (got {len(settings.admin_key)}); "
            "use a long random string, e.g. python -c 'import secrets; print(secrets.token_urlsafe(24))'"
        )
    try:
        CallbackPolicy.parse(settings.callback_allow)
    except CallbackURLError as exc:
        raise ConfigError(str(exc)) from None
    settings.auditor_config()  # a budget below 1 is refused, the message naming it
    if settings.max_request_bytes < 1 or settings.index_cache_chars < 0:
        raise ConfigError("RAGAUDIT_MAX_REQUEST_BYTES must be positive and RAGAUDIT_INDEX_CACHE_CHARS not negative")
