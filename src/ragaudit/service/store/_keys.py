"""API keys at rest: never stored, only their HMAC (or SHA-256) hash."""

from __future__ import annotations

import hashlib
import hmac

from ragaudit.errors import ConfigError

MIN_KEY_CHARS = 16
"""Shortest API key accepted from a person (RAGAUDIT_ADMIN_KEY); generated keys are 32 characters."""


class KeyNameTaken(ConfigError):
    """An active key already has that name."""


def hash_key(key: str, secret: str | None = None) -> str:
    """HMAC-SHA256 of an API key under the server secret, or plain SHA-256 without one (keys are never stored)."""
    if secret:
        return hmac.new(secret.encode(), key.encode(), hashlib.sha256).hexdigest()
    return hashlib.sha256(key.encode()).hexdigest()
