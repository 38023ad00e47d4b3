"""LLM judges behind a harness that never trusts the model.

Providers: OpenAI-compatible Chat Completions (OpenAI, vLLM, llama.cpp server, Ollama, LiteLLM)
and the Anthropic Messages API, over httpx. Specs::

    openai:gpt-4o                                   key from OPENAI_API_KEY
    openai-compatible:http://127.0.0.1:8081/v1#qwen key (optional) from RAGAUDIT_LLM_API_KEY
    anthropic:claude-sonnet-4-5                     key from ANTHROPIC_API_KEY

Options follow the model after ``?``: ``task`` (claim_audit, factual_audit, classification,
discrepancy), ``timeout`` (s), ``max_tokens``, ``temperature``, ``retries``, ``concurrency``,
``token_budget`` (per audit), ``cost_budget`` with ``input_price``/``output_price`` (USD per 1k
tokens), ``batch`` (claims per call).

The harness: structured output negotiated per server (JSON Schema response format, else JSON
mode with the schema, else plain text); output validated; on failure one retry with the error,
then at most two repair calls, then the claims are escalated to human review with the reason.
Every quoted span is located in the named source (exact, then tolerant of whitespace, case and
punctuation) and replaced by the exact source text and offsets; a quote that cannot be found or
a source id that was not given is recorded as fabricated evidence, and a claim is never counted
as supported on evidence that was not verified or does not state it. Retries with backoff on
429/5xx/timeouts honour ``Retry-After``. Results are cached by (judge, model, prompt version,
input hash).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl

import httpx
from pydantic import BaseModel, Field, ValidationError
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from ragaudit._text import analyze, content_keys
from ragaudit.align import Alignment, SourceIndex
from ragaudit.errors import ConfigError, JudgeError
from ragaudit.judges._base import JudgeContext, register_judge
from ragaudit.judges._prompts import PROMPT_VERSION, TASKS, Task, output_schema, prompt_hash, system_prompt, user_prompt
from ragaudit.models import ClaimStatus, Evidence, FabricatedEvidence, JudgeCall, Verdict

OutputMode = Literal["json_schema", "json_object", "text"]
_MODES: tuple[OutputMode, ...] = ("json_schema", "json_object", "text")
_MIN_SUPPORT_COVERAGE = 0.34
"""A supported verdict needs verified quotes that hold at least this share of the claim's terms."""


class RetryableError(JudgeError):
    """A transient failure: 429, 5xx, timeout, connection error."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UnsupportedMode(JudgeError):
    """The server rejected the structured-output mode; try the next one."""


# --- the model's answer ----------------------------------------------------------------------
class _Quote(BaseModel):
    source_id: str
    quote: str


class _Verdict(BaseModel):
    claim_id: str
    status: ClaimStatus
    confidence: float = Field(ge=0.0, le=1.0)
    explanation: str
    evidence: list[_Quote] = Field(default_factory=list)
    inferable: bool = False


class _Answer(BaseModel):
    verdicts: list[_Verdict]


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
            # A client per call: judges live as long as their auditor, and nothing is left open.
            with httpx.Client(timeout=self.timeout) as client:
                response = client.post(f"{self.base_url}/chat/completions", json=payload, headers=self._headers)
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
            with httpx.Client(timeout=self.timeout) as client:
                response = client.post(f"{self.base_url}/messages", json=payload, headers=self._headers)
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


# --- evidence verification -------------------------------------------------------------------
def _normalised(text: str) -> tuple[str, list[int]]:
    """Lower-cased text with punctuation dropped and whitespace collapsed, and each char's origin."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch.isalnum():
            chars.append(ch.lower())
            origin.append(i)
        elif (ch.isspace() or not ch.isalnum()) and chars and chars[-1] != " ":
            chars.append(" ")
            origin.append(i)
    return "".join(chars), origin


def locate_quote(source: str, quote: str) -> tuple[int, int] | None:
    """Offsets of ``quote`` in ``source``: exact first, then tolerant of whitespace, case, punctuation.

    >>> locate_quote("The plant opened in 2012.", "plant  OPENED in 2012")
    (4, 24)
    """
    quote = quote.strip().strip('"“”')
    if not quote:
        return None
    exact = source.find(quote)
    if exact >= 0:
        return exact, exact + len(quote)
    norm_source, origin = _normalised(source)
    norm_quote = _normalised(quote)[0].strip()
    if len(norm_quote) < 4:
        return None
    at = norm_source.find(norm_quote)
    if at < 0:
        return None
    start = origin[at]
    end = origin[at + len(norm_quote) - 1] + 1
    return start, end


def verify_evidence(
    verdict: _Verdict, alignment: Alignment, index: SourceIndex
) -> tuple[list[Evidence], list[FabricatedEvidence]]:
    """Real evidence (exact source text and offsets) and the fabricated rest."""
    real: list[Evidence] = []
    fake: list[FabricatedEvidence] = []
    relation = "contradicts" if verdict.status in ("contradicted", "synthesis_error") else "supports"
    for q in verdict.evidence:
        source = index.by_id.get(q.source_id)
        if source is None:
            fake.append(FabricatedEvidence(source_id=q.source_id, quote=q.quote, reason="unknown source"))
            continue
        span = locate_quote(source.text, q.quote)
        if span is None:
            fake.append(
                FabricatedEvidence(source_id=q.source_id, quote=q.quote, reason="quote not found in the source")
            )
            continue
        real.append(
            Evidence(
                source_id=source.id, start=span[0], end=span[1], quote=source.text[span[0] : span[1]], relation=relation
            )
        )
    return real, fake


def _states_claim(claim_text: str, evidence: Sequence[Evidence]) -> bool:
    keys = set(content_keys(analyze(claim_text)))
    if not keys:
        return bool(evidence)
    quoted = {k for e in evidence for k in content_keys(analyze(e.quote))}
    return len(keys & quoted) / len(keys) >= _MIN_SUPPORT_COVERAGE


# --- the judge -------------------------------------------------------------------------------
@dataclass(slots=True)
class _Budget:
    tokens: int
    cost: float
    used_tokens: int = 0
    used_cost: float = 0.0

    def exceeded(self) -> str | None:
        if self.tokens and self.used_tokens >= self.tokens:
            return f"token budget of {self.tokens} per audit spent"
        if self.cost and self.used_cost >= self.cost:
            return f"cost budget of ${self.cost} per audit spent"
        return None


class LLMJudge:
    """A judge that asks an LLM, through the harness described in the module docstring."""

    version = "1.1"

    def __init__(
        self,
        provider: OpenAICompatible | Anthropic,
        *,
        name: str,
        task: Task = "claim_audit",
        max_tokens: int = 1500,
        temperature: float = 0.0,
        retries: int = 4,
        concurrency: int = 2,
        token_budget: int = 50_000,
        cost_budget: float = 0.0,
        input_price: float = 0.0,
        output_price: float = 0.0,
        batch: int = 12,
        cache_size: int = 2048,
    ) -> None:
        if task not in TASKS:
            raise ConfigError(f"unknown task {task!r}: choose one of {', '.join(TASKS)}")
        self.provider = provider
        self.name = name
        self.model = provider.model
        self.task: Task = task
        self.prompt_version = PROMPT_VERSION
        self.prompt_hash = prompt_hash(task)
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.retries = retries
        self.token_budget = token_budget
        self.cost_budget = cost_budget
        self.input_price = input_price
        self.output_price = output_price
        self.batch = max(1, batch)
        self._gate = threading.BoundedSemaphore(max(1, concurrency))
        self._modes: list[OutputMode] = list(_MODES) if isinstance(provider, OpenAICompatible) else ["text"]
        self._cache: OrderedDict[str, tuple[_Answer, int, int]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def judge(self, alignments: list[Alignment], context: JudgeContext) -> list[Verdict]:
        """Judge every claim, in batches, through the harness."""
        budget = _Budget(self.token_budget, self.cost_budget)
        verdicts: list[Verdict] = []
        for start in range(0, len(alignments), self.batch):
            chunk = alignments[start : start + self.batch]
            spent = budget.exceeded()
            if spent:
                verdicts += [self._escalate(a, spent) for a in chunk]
                continue
            verdicts += self._judge_batch(chunk, context, budget)
        return verdicts

    # -- one batch
    def _judge_batch(
        self, chunk: list[Alignment], context: JudgeContext, budget: _Budget, depth: int = 0
    ) -> list[Verdict]:
        ids = [a.claim.id for a in chunk]
        sources = [(s.id, s.text) for s in context.index.sources]
        system = system_prompt(self.task, context.risk_level)
        user = user_prompt(sources, [(a.claim.id, a.claim.text) for a in chunk], context.question)
        schema = output_schema(ids)
        key = hashlib.sha256(
            json.dumps([self.name, self.model, self.prompt_version, self.task, system, user]).encode()
        ).hexdigest()
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None:
            context.calls.append(self._record(len(chunk), 0, 0, 0.0, 1, "cached"))
            return self._verdicts(cached[0], chunk, context)
        messages = user
        answer: _Answer | None = None
        problem = raw = ""
        attempts = 0
        # First call, one retry with the error appended, then at most two repair calls.
        for step in ("call", "retry", "repair", "repair"):
            spent = budget.exceeded()
            if spent:
                problem = spent
                break
            attempts += 1
            if step == "repair":
                messages = (
                    f"{user}\n\nYour previous output was invalid ({problem}). Previous output:\n{raw[:2000]}\n"
                    "Return corrected JSON only."
                )
            try:
                completion, latency = self._complete(system, messages, schema)
            except JudgeError as exc:
                problem = str(exc)
                context.calls.append(self._record(len(chunk), 0, 0, 0.0, attempts, f"failed: {problem[:120]}"))
                break
            budget.used_tokens += completion.input_tokens + completion.output_tokens
            budget.used_cost += (
                completion.input_tokens * self.input_price + completion.output_tokens * self.output_price
            ) / 1000
            raw = completion.text
            answer, problem = self._parse(raw, ids)
            outcome = "ok" if answer else f"{step}: {problem[:120]}"
            context.calls.append(
                self._record(len(chunk), completion.input_tokens, completion.output_tokens, latency, attempts, outcome)
            )
            if answer is not None:
                break
            if step == "call":
                messages = f"{user}\n\nYour previous output was invalid: {problem}. Answer again with valid JSON only."
        if answer is None:
            return [
                self._escalate(a, f"{self.name} gave no valid verdict after {attempts} call(s): {problem}")
                for a in chunk
            ]
        answered = {v.claim_id for v in answer.verdicts}
        done = [a for a in chunk if a.claim.id in answered]
        missing = [a for a in chunk if a.claim.id not in answered]
        if missing and depth < 2 and not budget.exceeded():
            # Keep what was answered; ask again only for the claims the model skipped.
            rest = self._judge_batch(missing, context, budget, depth=depth + 1)
        else:
            rest = [self._escalate(a, f"{self.name} gave no verdict for this claim") for a in missing]
        if not missing:
            with self._lock:
                self._cache[key] = (answer, 0, 0)
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        judged = dict(zip([a.claim.id for a in done], self._verdicts(answer, done, context), strict=True))
        judged.update(zip([a.claim.id for a in missing], rest, strict=True))
        return [judged[a.claim.id] for a in chunk]

    def _complete(self, system: str, user: str, schema: dict[str, Any]) -> tuple[Completion, float]:
        while True:
            mode = self._modes[0]
            try:
                with self._gate:
                    t0 = time.perf_counter()
                    completion = self._with_retries(system, user, schema, mode)
                    return completion, (time.perf_counter() - t0) * 1000
            except UnsupportedMode:
                # Negotiated once per judge: later calls start from the mode that worked.
                if len(self._modes) == 1:
                    raise
                self._modes.pop(0)

    def _with_retries(self, system: str, user: str, schema: dict[str, Any], mode: OutputMode) -> Completion:
        def wait(state: RetryCallState) -> float:
            exc = state.outcome.exception() if state.outcome else None
            if isinstance(exc, RetryableError) and exc.retry_after is not None:
                return min(exc.retry_after, 60.0)
            return float(wait_exponential_jitter(multiplier=0.5, max=20)(state))

        retrying = Retrying(
            retry=retry_if_exception_type(RetryableError),
            stop=stop_after_attempt(self.retries),
            wait=wait,
            reraise=True,
        )
        result: Completion = retrying(
            self.provider.complete, system, user, schema, mode, max_tokens=self.max_tokens, temperature=self.temperature
        )
        return result

    @staticmethod
    def _parse(raw: str, ids: list[str]) -> tuple[_Answer | None, str]:
        """The validated answer (possibly covering only some claims) or the validation problem."""
        text = raw.strip()
        fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, re.S)
        if fenced:
            text = fenced.group(1)
        elif not text.startswith("{") and "{" in text:
            text = text[text.index("{") : text.rindex("}") + 1] if "}" in text else text
        try:
            answer = _Answer.model_validate_json(text)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return None, f"{err['msg']} at '{where}'" if where else err["msg"]
        answer.verdicts = [v for v in answer.verdicts if v.claim_id in ids]
        if not answer.verdicts:
            return None, f"no verdict for any of the claims {', '.join(ids)}"
        return answer, ""

    def _verdicts(self, answer: _Answer, chunk: list[Alignment], context: JudgeContext) -> list[Verdict]:
        by_id = {v.claim_id: v for v in answer.verdicts}
        out = []
        for a in chunk:
            v = by_id[a.claim.id]
            evidence, fabricated = verify_evidence(v, a, context.index)
            status: ClaimStatus = v.status
            explanation = v.explanation.strip() or "No explanation given."
            escalation = None
            if status in ("supported", "partially_supported") and not _states_claim(a.claim.text, evidence):
                # Never count a claim as supported on evidence that is missing, invented, or off-topic.
                status = "unsupported"
                escalation = f"{self.name} called it {v.status}, but its evidence " + (
                    "could not be found in the sources" if fabricated else "does not state the claim"
                )
                explanation = f"{explanation} (Unverified: {escalation}.)"
            elif status in ("contradicted", "synthesis_error") and not evidence:
                escalation = f"{self.name} called it {v.status} without verifiable evidence"
            out.append(
                Verdict(
                    status=status,
                    confidence=round(v.confidence, 4),
                    explanation=explanation,
                    evidence=evidence,
                    inferable=v.inferable,
                    judge=self.name,
                    escalation=escalation,
                    fabricated_evidence=fabricated,
                )
            )
        return out

    def _escalate(self, alignment: Alignment, reason: str) -> Verdict:
        return Verdict(
            status="unsupported",
            confidence=0.0,
            explanation=f"Not judged: {reason}.",
            judge=self.name,
            escalation=reason,
        )

    def _record(self, claims: int, tin: int, tout: int, latency: float, attempt: int, outcome: str) -> JudgeCall:
        return JudgeCall(
            judge=self.name,
            model=self.model,
            prompt_version=self.prompt_version,
            prompt_hash=self.prompt_hash,
            claims=claims,
            input_tokens=tin,
            output_tokens=tout,
            latency_ms=round(latency, 1),
            attempt=attempt,
            outcome=outcome,
        )


def _options(text: str) -> tuple[str, dict[str, str]]:
    base, _, query = text.partition("?")
    return base, dict(parse_qsl(query))


def _build(provider: OpenAICompatible | Anthropic, name: str, opts: dict[str, str]) -> LLMJudge:
    known = {
        "task",
        "max_tokens",
        "temperature",
        "retries",
        "concurrency",
        "token_budget",
        "cost_budget",
        "input_price",
        "output_price",
        "batch",
        "timeout",
    }
    unknown = sorted(set(opts) - known)
    if unknown:
        raise ConfigError(f"unknown judge option(s) {unknown}: use {', '.join(sorted(known))}")
    kwargs: dict[str, Any] = {}
    for key, cast in (
        ("max_tokens", int),
        ("temperature", float),
        ("retries", int),
        ("concurrency", int),
        ("token_budget", int),
        ("cost_budget", float),
        ("input_price", float),
        ("output_price", float),
        ("batch", int),
    ):
        if key in opts:
            try:
                kwargs[key] = cast(opts[key])
            except ValueError:
                raise ConfigError(f"judge option {key}={opts[key]!r} is not a {cast.__name__}") from None
    return LLMJudge(provider, name=name, task=opts.get("task", "claim_audit"), **kwargs)  # type: ignore[arg-type]


def _key(variable: str, required: bool) -> str | None:
    value = os.environ.get(variable)
    if required and not value:
        raise ConfigError(f"set {variable} to use this judge (the key is read from the environment, never from files)")
    return value


@register_judge("openai-compatible")
def _make_compatible(argument: str) -> LLMJudge:
    spec, opts = _options(argument)
    url, _, model = spec.partition("#")
    if not url.startswith(("http://", "https://")) or not model:
        raise ConfigError(
            f"openai-compatible judge spec {argument!r}: write openai-compatible:http://host:port/v1#model"
        )
    provider = OpenAICompatible(url, model, _key("RAGAUDIT_LLM_API_KEY", False), float(opts.get("timeout", 120)))
    return _build(provider, f"openai-compatible:{model}", opts)


@register_judge("openai")
def _make_openai(argument: str) -> LLMJudge:
    model, opts = _options(argument)
    if not model:
        raise ConfigError("openai judge spec needs a model: --judge openai:gpt-4o")
    base = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")
    provider = OpenAICompatible(base, model, _key("OPENAI_API_KEY", True), float(opts.get("timeout", 60)))
    return _build(provider, f"openai:{model}", opts)


@register_judge("anthropic")
def _make_anthropic(argument: str) -> LLMJudge:
    model, opts = _options(argument)
    if not model:
        raise ConfigError("anthropic judge spec needs a model: --judge anthropic:claude-sonnet-4-5")
    key = _key("ANTHROPIC_API_KEY", True)
    assert key is not None
    provider = Anthropic(
        model, key, float(opts.get("timeout", 60)), os.environ.get("ANTHROPIC_BASE_URL", "https://api.anthropic.com/v1")
    )
    return _build(provider, f"anthropic:{model}", opts)
