"""Errors raised by ragaudit.

The tree::

    RagAuditError
    ├── InputError (ValueError)       bad request, file or dataset row
    ├── ConfigError (ValueError)      bad option, policy file or judge spec
    └── JudgeError                    a judge failed to produce verdicts

Every message says what was wrong, where, and what to do about it.
"""

from __future__ import annotations


class RagAuditError(Exception):
    """Root of every error ragaudit raises on purpose."""


class InputError(RagAuditError, ValueError):
    """An audit request, file or dataset row is malformed.

    Args:
        message: What was wrong and how to fix it.
        location: Where: a file name, ``file:line`` of a batch, or a field path.
    """

    def __init__(self, message: str, *, location: str | None = None) -> None:
        self.message = message
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)

    def at(self, location: str) -> InputError:
        """Return the same error placed at ``location`` (prefixing any inner location)."""
        inner = f"{location}: {self.location}" if self.location else location
        return InputError(self.message, location=inner)


class ConfigError(RagAuditError, ValueError):
    """An option, policy file or judge spec is invalid."""


class JudgeError(RagAuditError):
    """A judge could not produce verdicts."""
