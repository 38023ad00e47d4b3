"""What the integrations share: turning framework documents into sources, and one-line summaries."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ragaudit._pipeline import Auditor
from ragaudit._vocab import GATE_ACTIONS, GateAction
from ragaudit.config import AuditorConfig
from ragaudit.errors import ConfigError, InputError
from ragaudit.models import Report, Source

FAILING_ACTIONS: tuple[GateAction, ...] = ("regenerate", "human_review", "block")
"""Gate actions after which an answer should not reach the user as it is."""


def as_auditor(auditor: Auditor | AuditorConfig | None) -> Auditor:
    """The auditor an integration uses: the one given, one built from a config, or an offline one.

    An auditor passed in stays the caller's to close; one built here from a config (or the default)
    is closed with the integration object's ``close()``.
    """
    return auditor if isinstance(auditor, Auditor) else Auditor(auditor)


class OwnsAuditor:
    """``close()`` for integration objects: closes the auditor only if the object built it."""

    auditor: Auditor
    _owns_auditor: bool

    def close(self) -> None:
        """Close the auditor this object built (an auditor passed in stays the caller's to close)."""
        if self._owns_auditor:
            self.auditor.close()


def check_fail_on(fail_on: Collection[str]) -> frozenset[str]:
    """``fail_on`` as a set, or a ConfigError naming the unknown actions and the valid ones."""
    unknown = sorted(set(fail_on) - set(GATE_ACTIONS))
    if unknown:
        raise ConfigError(
            f"unknown gate action(s) in fail_on: {', '.join(unknown)}; choose from {', '.join(GATE_ACTIONS)}"
        )
    return frozenset(fail_on)


def document_text(item: object) -> str | None:
    """The text of a framework document (LangChain ``Document``, LlamaIndex node), or None."""
    page_content = getattr(item, "page_content", None)  # langchain_core.documents.Document
    if isinstance(page_content, str):
        return page_content
    node = getattr(item, "node", None)  # llama_index NodeWithScore wraps the node
    target = node if node is not None else item
    get_content = getattr(target, "get_content", None)  # llama_index BaseNode
    if callable(get_content):
        text = get_content()
        return text if isinstance(text, str) else None
    return None


def to_sources(items: object, *, where: str, id_key: str | None = None) -> list[Source]:
    """Sources from documents, strings or ``{"id", "text"}`` mappings; ids default to ``"1"``, ``"2"`` ….

    Positional ids match the ``[1]``, ``[2]`` markers a RAG prompt usually numbers its context with;
    ``id_key`` names a document metadata field to use as the id instead.
    """
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise InputError(
            f"expected a list of documents, strings or {{'id', 'text'}} objects, got {type(items).__name__}",
            location=where,
        )
    sources: list[Source] = []
    for position, item in enumerate(items, start=1):
        source_id = str(position)
        if isinstance(item, Source):
            sources.append(item)
            continue
        if isinstance(item, str):
            text: str | None = item
        elif isinstance(item, Mapping):
            text = item.get("text")
            source_id = str(item.get("id", position))
        else:
            text = document_text(item)
            metadata = getattr(getattr(item, "node", item), "metadata", None)
            if id_key is not None and isinstance(metadata, Mapping) and metadata.get(id_key) is not None:
                source_id = str(metadata[id_key])
        if not isinstance(text, str):
            raise InputError(
                f"item {position} is a {type(item).__name__}; give a document, a string or an object with 'id' and 'text'",
                location=where,
            )
        sources.append(Source(id=source_id, text=text))
    return sources


def answer_text(value: object, *, where: str) -> str:
    """The answer as text: a string, a chat message's text content, or a framework response's text."""
    if isinstance(value, str):
        return value
    content = getattr(value, "content", None)  # langchain_core.messages.BaseMessage
    if isinstance(content, str):
        return content
    text = getattr(value, "text", None)  # AIMessage.text with content blocks
    if isinstance(text, str):
        return text
    response = getattr(value, "response", None)  # llama_index Response
    if isinstance(response, str):
        return response
    raise InputError(f"the answer is a {type(value).__name__}; give a string or a chat message", location=where)


def lookup(mapping: Mapping[str, Any], key: str, *, where: str) -> Any:
    """``mapping[key]``, or an InputError naming the key and the keys that are there."""
    if key not in mapping:
        have = ", ".join(sorted(map(str, mapping))) or "none"
        raise InputError(
            f"no '{key}' field (fields: {have}); set the key option to the field that holds it", location=where
        )
    return mapping[key]


def summary(report: Report) -> str:
    """One line: the gate's action, the faithfulness, and the claims that are not supported."""
    action = report.decision.action if report.decision is not None else "no decision"
    weak = [f"{c.id} {c.status}" for c in report.claims if c.status != "supported"]
    counts = report.counts
    line = f"{action}: faithfulness {report.faithfulness:.2f} ({counts.supported}/{counts.total} claims supported)"
    return line + (f"; {', '.join(weak)}" if weak else "")


def feedback(report: Report) -> str:
    """Feedback for a model that should try again: each claim that is not supported, with the reason."""
    lines = [
        f"- {c.status.replace('_', ' ')}: {c.text.strip()} ({c.explanation})"
        for c in report.claims
        if c.status != "supported"
    ]
    if not lines:
        return "Every claim is supported by the sources."
    return "These statements are not supported by the sources:\n" + "\n".join(lines)
