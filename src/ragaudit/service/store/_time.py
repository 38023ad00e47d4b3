"""Points in time for the audit trail: aware UTC now, ages (``90d``) and ``--since`` values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ragaudit.errors import ConfigError


def now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    # SQLite returns naive datetimes; everything stored is UTC.
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def parse_age(text: str) -> timedelta:
    """``90d``, ``12h``, ``30m`` or ``2w`` → a timedelta."""
    units = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
    text = text.strip().lower()
    if len(text) < 2 or text[-1] not in units or not text[:-1].isdecimal():
        raise ConfigError(f"age {text!r}: write a number and a unit, e.g. 90d, 12h, 30m or 2w")
    try:
        age = timedelta(**{units[text[-1]]: int(text[:-1])})
    except OverflowError:
        age = timedelta.max
    if age > MAX_AGE:
        raise ConfigError(f"age {text!r} is over {MAX_AGE.days // 365} years; give a shorter age")
    return age


MAX_AGE = timedelta(days=365 * 200)
"""Longest age accepted (an age reaching before year 1 cannot be subtracted from now)."""


def parse_since(value: str) -> datetime:
    """An ISO date (``2026-11-01``) or an age (``7d``, ``12h``) → the point in time it names."""
    try:
        return datetime.fromisoformat(value) if any(ch in value for ch in "-:T") else now() - parse_age(value)
    except (ValueError, ConfigError):
        raise ConfigError(f"--since {value!r}: give an ISO date (2026-11-01) or an age (7d, 12h)") from None
