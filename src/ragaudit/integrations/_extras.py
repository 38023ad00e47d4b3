"""The one-line error an integration raises when its optional dependency is not installed."""

from __future__ import annotations


class MissingExtraError(ModuleNotFoundError):
    """An integration's library is not installed; the message names the ``pip install`` command."""

    __module__ = "ragaudit.integrations"  # the public name, as shown on the one line the user reads


def missing_extra(module: str, library: str, extra: str) -> MissingExtraError:
    """The error for ``module`` needing ``library``, installed with the ``extra`` extra."""
    return MissingExtraError(
        f"{module} needs {library}, which is not installed: pip install 'ragaudit[{extra}]'", name=module
    )
