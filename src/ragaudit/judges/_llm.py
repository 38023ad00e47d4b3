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
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from pydantic import ValidationError
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from ragaudit.align import Alignment
from ragaudit.errors import ConfigError, JudgeError
from ragaudit.judges._base import JudgeContext, JudgePrompt, register_judge
from ragaudit.judges._evidence import _Answer, states_claim, verify_evidence
from ragaudit.judges._prompts import PROMPT_VERSION, TASKS, Task, output_schema, prompt_hash, system_prompt, user_prompt
from ragaudit.judges._providers import (
    MODES,
    Anthropic,
    Completion,
    OpenAICompatible,
    OutputMode,
    RetryableError,
    UnsupportedMode,
)
from ragaudit.models import ClaimStatus, JudgeCall, Verdict


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
        self.model: str | None = provider.model
        self.task: Task = task
        self.prompt_version = PROMPT_VERSION
        self.prompt_hash = prompt_hash(task)
        self.prompt: JudgePrompt | None = JudgePrompt(version=PROMPT_VERSION, hash=self.prompt_hash, task=task)
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.retries = retries
        self.token_budget = token_budget
        self.cost_budget = cost_budget
        self.input_price = input_price
        self.output_price = output_price
        self.batch = max(1, batch)
        self._gate = threading.BoundedSemaphore(max(1, concurrency))
        self._modes: list[OutputMode] = list(MODES) if isinstance(provider, OpenAICompatible) else ["text"]
        self._cache: OrderedDict[str, tuple[_Answer, int, int]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._modes_lock = threading.Lock()

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
            with self._modes_lock:
                mode = self._modes[0]
            try:
                with self._gate:
                    t0 = time.perf_counter()
                    completion = self._with_retries(system, user, schema, mode)
                    return completion, (time.perf_counter() - t0) * 1000
            except UnsupportedMode:
                # Negotiated once per judge: later calls start from the mode that worked. Threads share the
                # judge, so drop a mode only if it is still first (another thread may have dropped it already).
                with self._modes_lock:
                    if self._modes[0] == mode:
                        if len(self._modes) == 1:
                            raise
                        self._modes.pop(0)

    def close(self) -> None:
        """Close the provider's pooled HTTP connections (the auditor that built this judge calls it)."""
        self.provider.close()

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
            if status in ("supported", "partially_supported") and not states_claim(a.claim.text, evidence):
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
