"""Errors raised by ragaudit.

The tree::

    RagAuditError
    ├── InputError (ValueError)       bad request, file or dataset row
    │   └── LimitError                a request over a size limit
    ├── ConfigError (ValueError)      bad option, policy file or judge spec
    ├── JudgeError                    a judge failed to produce verdicts
    ├── StorageError                  the audit trail could not be read or written
    └── MissingExtraError (ImportError)   an optional part is used but its extra is not installed

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


class LimitError(InputError):
    """A request is over a size limit: answer length, total source text, number of sources."""


class StorageError(RagAuditError):
    """The audit trail could not be read or written."""


class ConfigError(RagAuditError, ValueError):
    """An option, policy file or judge spec is invalid."""


class JudgeError(RagAuditError):
    """A judge could not produce verdicts."""


class MissingExtraError(RagAuditError, ImportError):
    """An optional part of ragaudit is used but its extra is not installed; the message names the command.

    Args:
        what: What needs the extra (``"ragaudit serve"``, ``"YAML policies"``).
        extra: The extra that provides it (``"service"``).
        library: The missing library, when it is worth naming (``"pyyaml"``).
    """

    def __init__(self, what: str, extra: str, library: str | None = None) -> None:
        self.extra = extra
        needs = f"needs {library}, which is not installed" if library else f"needs the {extra!r} extra"
        super().__init__(f"{what} {needs}: pip install 'ragaudit[{extra}]'")


def require_extra(module: str, *, what: str, extra: str, library: str | None = None) -> None:
    """Raise :class:`MissingExtraError` unless ``module`` can be imported."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise MissingExtraError(what, extra, library or module)
