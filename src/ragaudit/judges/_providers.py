"""LLM providers over one pooled httpx client each: OpenAI-compatible Chat Completions and Anthropic Messages.

A provider makes one call and classifies its failure: transient (429, 5xx, timeouts, connection
errors: :class:`RetryableError`, honouring ``Retry-After``) or an output mode the server refuses
(:class:`UnsupportedMode`). Retries and mode negotiation are the judge's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from ragaudit.errors import JudgeError

OutputMode = Literal["json_schema", "json_object", "text"]
MODES: tuple[OutputMode, ...] = ("json_schema", "json_object", "text")


class RetryableError(JudgeError):
    """A transient failure: 429, 5xx, timeout, connection error."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UnsupportedMode(JudgeError):
    """The server rejected the structured-output mode; try the next one."""


# --- the model's answer ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Completion:
    """Text and token counts of one provider call."""

    text: str
    input_tokens: int
    output_tokens: int


# --- providers -------------------------------------------------------------------------------
def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _classify(response: httpx.Response, mode: OutputMode | None) -> None:
    """Raise the right error for a non-2xx response (the core decides whether to retry)."""
    if response.status_code < 400:
        return
    body = response.text[:300]
    if mode in ("json_schema", "json_object") and (
        (
            response.status_code in (400, 422, 500, 501)
            and re.search(r"response_format|json_schema|schema|grammar", body, re.IGNORECASE)
        )
        or (mode == "json_schema" and response.status_code == 500)
    ):
        raise UnsupportedMode(f"server rejected response_format {mode}: HTTP {response.status_code}")
    if response.status_code == 429 or response.status_code >= 500:
        raise RetryableError(f"HTTP {response.status_code}: {body}", _retry_after(response))
    if response.status_code in (401, 403):
        raise JudgeError(
            f"the LLM server refused the API key (HTTP {response.status_code}); check the key's environment variable"
        )
    raise JudgeError(f"HTTP {response.status_code} from the LLM server: {body}")


class OpenAICompatible:
    """Chat Completions over HTTP."""

    def __init__(self, base_url: str, model: str, api_key: str | None, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.timeout = timeout
        # One pooled client per provider, so per judge: connections are reused across calls and threads
        # (httpx.Client is thread-safe); close() releases them.
        self._client = httpx.Client(timeout=timeout)

    def close(self) -> None:
        """Close the pooled HTTP connections."""
        self._client.close()

    def complete(
        self, system: str, user: str, schema: dict[str, Any], mode: OutputMode, *, max_tokens: int, temperature: float
    ) -> Completion:
        """One chat completion in ``mode``."""
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        if mode == "json_schema":
            payload["response_format"] = {"type": "json_schema", "json_schema": {"name": "verdicts", "schema": schema}}
        elif mode == "json_object":
            # llama.cpp's server enforces a schema given this way; others ignore the extra key.
            payload["response_format"] = {"type": "json_object", "schema": schema}
        else:
            payload["messages"][1]["content"] += "\nJSON schema of the output:\n" + json.dumps(schema)
        try:
            response = self._client.post(f"{self.base_url}/chat/completions", json=payload, headers=self._headers)
        except httpx.TimeoutException as exc:
            raise RetryableError(f"timed out after {self.timeout}s") from exc
        except httpx.TransportError as exc:
            raise RetryableError(f"cannot reach {self.base_url}: {exc.__class__.__name__}") from exc
        _classify(response, mode)
        try:
            data = response.json()
            text = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise RetryableError(f"malformed completion envelope: {response.text[:200]}") from exc
        usage = data.get("usage") or {}
        return Completion(text, int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))


class Anthropic:
    """The Messages API over HTTP (schema in the prompt; the reply is prefilled with ``{``)."""

    def __init__(
        self, model: str, api_key: str, timeout: float, base_url: str = "https://api.anthropic.com/v1"
    ) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self._headers = {"x-api-key": api_key, "anthropic-version": "2023-06-01"}
        self.timeout = timeout
        self._client = httpx.Client(timeout=timeout)  # pooled, as for OpenAICompatible

    def close(self) -> None:
        """Close the pooled HTTP connections."""
        self._client.close()

    def complete(
        self, system: str, user: str, schema: dict[str, Any], mode: OutputMode, *, max_tokens: int, temperature: float
    ) -> Completion:
        """One message; structured output is asked for in the prompt."""
        payload = {
            "model": self.model,
            "system": [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            "messages": [
                {"role": "user", "content": user + "\nJSON schema of the output:\n" + json.dumps(schema)},
                {"role": "assistant", "content": "{"},
            ],
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        try:
            response = self._client.post(f"{self.base_url}/messages", json=payload, headers=self._headers)
        except httpx.TimeoutException as exc:
            raise RetryableError("timed out") from exc
        except httpx.TransportError as exc:
            raise RetryableError(f"cannot reach {self.base_url}: {exc.__class__.__name__}") from exc
        _classify(response, None)
        try:
            data = response.json()
            text = "{" + "".join(block.get("text", "") for block in data["content"])
        except (ValueError, KeyError, TypeError) as exc:
            raise RetryableError(f"malformed message envelope: {response.text[:200]}") from exc
        usage = data.get("usage") or {}
        return Completion(text, int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
