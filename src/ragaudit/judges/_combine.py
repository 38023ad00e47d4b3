"""Judges made of judges: a cheap-to-strong cascade, and a consensus of several.

cascade:offline,openai-compatible:http://127.0.0.1:8081/v1#qwen        threshold 0.85
cascade:0.9,offline,openai:gpt-4o                                        threshold 0.9
consensus:majority:openai:gpt-4o|anthropic:claude-sonnet-4-5|offline
consensus:unanimous:3*openai-compatible:http://127.0.0.1:8081/v1#qwen?temperature=0.7
"""

from __future__ import annotations

from collections import Counter

from ragaudit.align import Alignment
from ragaudit.errors import ConfigError
from ragaudit.judges._base import Judge, JudgeContext, JudgePrompt, register_judge
from ragaudit.judges._base import build_judge as get_judge
from ragaudit.metrics import fleiss_kappa
from ragaudit.models import ClaimStatus, Verdict

# When judges tie, the least favourable status wins (never silently pass a claim).
_SEVERITY: dict[ClaimStatus, int] = {
    "supported": 0,
    "partially_supported": 1,
    "unsupported": 2,
    "contradicted": 3,
    "synthesis_error": 4,
}


def _close(judge: Judge) -> None:
    close = getattr(judge, "close", None)
    if callable(close):
        close()


class CascadeJudge:
    """The first judge decides every claim; claims it is unsure of (confidence below the threshold)
    go to the second judge. Each verdict names the judge that decided it."""

    def __init__(self, first: Judge, second: Judge, threshold: float = 0.85) -> None:
        self.first, self.second, self.threshold = first, second, threshold
        # The combination changes whenever a part does (report caches key on the version).
        self.version = f"1.0({first.version},{second.version},{threshold})"
        self.name = f"cascade({first.name}→{second.name})"
        self.model: str | None = second.model or first.model
        self.prompt: JudgePrompt | None = second.prompt or first.prompt

    def close(self) -> None:
        """Close both judges."""
        for judge in (self.first, self.second):
            _close(judge)

    def judge(self, alignments: list[Alignment], context: JudgeContext) -> list[Verdict]:
        """Judge cheaply, then escalate the unsure claims to the stronger judge."""
        verdicts = self.first.judge(alignments, context)
        unsure = [i for i, v in enumerate(verdicts) if v.confidence < self.threshold]
        if not unsure:
            return verdicts
        second = self.second.judge([alignments[i] for i in unsure], context)
        for i, v in zip(unsure, second, strict=True):
            if v.escalation and v.confidence == 0.0:
                # The strong judge failed outright: keep the cheap verdict, flagged for a person.
                verdicts[i] = verdicts[i].model_copy(update={"escalation": v.escalation})
            else:
                verdicts[i] = v
        return verdicts


class ConsensusJudge:
    """Several judges (or samples of one) vote on every claim; divergence goes to human review."""

    def __init__(self, judges: list[Judge], rule: str = "majority") -> None:
        if rule not in ("majority", "unanimous"):
            raise ConfigError(f"consensus rule {rule!r}: use majority or unanimous")
        if len(judges) < 2:
            raise ConfigError("consensus needs at least two judges")
        self.judges, self.rule = judges, rule
        self.version = "1.0(" + ",".join(j.version for j in judges) + ")"
        self.name = f"consensus-{rule}({', '.join(j.name for j in judges)})"
        self.model: str | None = None  # several
        self.prompt: JudgePrompt | None = next((j.prompt for j in judges if j.prompt), None)
        self.last_kappa: float | None = None

    def close(self) -> None:
        """Close every judge."""
        for judge in self.judges:
            _close(judge)

    def judge(self, alignments: list[Alignment], context: JudgeContext) -> list[Verdict]:
        """Every judge votes; the rule picks the status; the verdict records the agreement."""
        ballots = [j.judge(alignments, context) for j in self.judges]
        out = []
        table: list[list[str | None]] = []
        for i in range(len(alignments)):
            votes = [b[i] for b in ballots]
            table.append([v.status for v in votes])
            counts = Counter(v.status for v in votes)
            top = max(counts.values())
            winner = max((s for s, c in counts.items() if c == top), key=lambda s: _SEVERITY[s])
            share = top / len(votes)
            decided = share == 1.0 if self.rule == "unanimous" else share > 0.5
            base = next(v for v in votes if v.status == winner)
            escalation = base.escalation
            if not decided:
                spread = ", ".join(f"{j.name}: {v.status}" for j, v in zip(self.judges, votes, strict=True))
                escalation = f"judges disagree ({spread})"
            out.append(
                base.model_copy(
                    update={
                        "judge": self.name,
                        "agreement": round(share, 4),
                        "escalation": escalation,
                        "explanation": f"{share:.0%} of judges: {base.explanation}",
                    }
                )
            )
        try:
            self.last_kappa = round(fleiss_kappa(table), 4) if table else None
        except ValueError:
            self.last_kappa = None
        return out


def _split_top(text: str, sep: str) -> list[str]:
    return [part.strip() for part in text.split(sep) if part.strip()]


@register_judge("cascade")
def _make_cascade(argument: str) -> CascadeJudge:
    threshold = 0.85
    first, _, rest = argument.partition(",")
    try:
        threshold = float(first)
        first, _, rest = rest.partition(",")
    except ValueError:
        pass
    if not first or not rest:
        raise ConfigError(
            "cascade spec: write cascade:offline,<stronger judge spec> (optionally cascade:0.9,offline,<spec>)"
        )
    return CascadeJudge(get_judge(first.strip()), get_judge(rest.strip()), threshold)


@register_judge("consensus")
def _make_consensus(argument: str) -> ConsensusJudge:
    rule, _, rest = argument.partition(":")
    specs: list[str] = []
    for part in _split_top(rest, "|"):
        count, star, spec = part.partition("*")
        if star and count.isdecimal():
            specs += [spec] * int(count)
        else:
            specs.append(part)
    return ConsensusJudge([get_judge(s) for s in specs], rule or "majority")
