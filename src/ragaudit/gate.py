"""Stage 6: the gate turns a report into a decision, by a policy that is data (TOML or YAML).

Findings (a contradicted claim, a fabricated citation, a score under the threshold, …) each
propose an action for the report's risk level; the most severe proposed action wins:
``deliver < deliver_with_caveat < regenerate < human_review < block``.
"""

from __future__ import annotations

import bisect
import math
import tomllib
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragaudit._vocab import GATE_ACTIONS, CalibrationMethod, GateAction, IssueType
from ragaudit.errors import ConfigError, require_extra
from ragaudit.models import Decision, Issue, Report, RiskLevel, Severity


class RiskRules(BaseModel):
    """The action each finding proposes at one risk level."""

    model_config = ConfigDict(extra="forbid")

    contradicted: GateAction = "regenerate"
    synthesis_error: GateAction = "regenerate"
    fabricated_citation: GateAction = "regenerate"
    invalid_citation: GateAction = "deliver_with_caveat"
    unsupported: GateAction = "deliver_with_caveat"
    partially_supported: GateAction = "deliver_with_caveat"
    missing_abstention: GateAction = "regenerate"
    source_conflict: GateAction = "deliver_with_caveat"
    below_threshold: GateAction = "regenerate"
    escalation: GateAction = "human_review"
    """A claim no judge could decide reliably (never silently passed or blocked)."""


class Calibration(BaseModel):
    """A fitted map from the judge's raw confidence to calibrated confidence, applied at audit time."""

    model_config = ConfigDict(extra="forbid")

    method: CalibrationMethod
    a: float | None = None
    b: float | None = None
    x: list[float] | None = None
    y: list[float] | None = None

    def apply(self, confidence: float) -> float:
        """The calibrated confidence."""
        if self.method == "platt":
            return 1 / (1 + math.exp(-((self.a or 0.0) * confidence + (self.b or 0.0))))
        xs, ys = self.x or [], self.y or []
        i = bisect.bisect_left(xs, confidence)
        return ys[min(i, len(ys) - 1)] if ys else confidence


class Policy(BaseModel):
    """A gate policy: threshold, severities per issue type, and rules per risk level."""

    model_config = ConfigDict(extra="forbid")

    name: str = "custom"
    threshold: float = Field(0.85, ge=0.0, le=1.0)
    severity: dict[IssueType, Severity] = Field(default_factory=dict)
    risk: dict[RiskLevel, RiskRules] = Field(default_factory=dict)
    calibration: Calibration | None = None
    """Optional fitted confidence calibration (``ragaudit eval --calibrate``)."""

    def severity_of(self, issue: IssueType) -> Severity:
        """The severity of ``issue`` (MAJOR when the policy does not say)."""
        return self.severity.get(issue, "MAJOR")

    def rules(self, risk_level: RiskLevel) -> RiskRules:
        """The rules for ``risk_level`` (built-in medium-like defaults when the policy omits it)."""
        return self.risk.get(risk_level, RiskRules())


def _load_yaml(text: str, where: str) -> object:
    require_extra("yaml", what=f"{where}: reading a YAML policy", extra="cli", library="pyyaml")
    import yaml  # optional (the cli extra): TOML policies need nothing beyond the standard library

    try:
        return yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: not valid YAML: {exc}") from None


def load_policy(path: Path | str | None = None) -> Policy:
    """Read a policy from a TOML or YAML file; ``None`` gives the shipped default."""
    if path is None:
        text = resources.files("ragaudit.policies").joinpath("default.toml").read_text()
        where, suffix = "default.toml", ".toml"
    else:
        where, suffix = str(path), Path(path).suffix.lower()
        if suffix not in (".toml", ".yaml", ".yml"):
            raise ConfigError(f"{where}: a policy file must end in .toml, .yaml or .yml")
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{where}: cannot read the policy file: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{where}: not valid UTF-8 (byte {exc.start}); save the policy file as UTF-8") from None
    if suffix in (".yaml", ".yml"):
        data = _load_yaml(text, where)
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{where}: not valid TOML: {exc}") from None
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise ConfigError(f"{where}: '{loc}': {err['msg']} (see the shipped default policy for the layout)") from None


def find_issues(report: Report, policy: Policy) -> list[Issue]:
    """Every issue in a report, with its severity under ``policy``."""
    issues: list[Issue] = []

    def add(kind: IssueType, description: str, claim_id: str | None = None) -> None:
        issues.append(Issue(type=kind, severity=policy.severity_of(kind), description=description, claim_id=claim_id))

    for c in report.claims:
        quoted = f"'{c.text}'"
        if c.status == "contradicted":
            add("CONTRADICTION", f"{quoted} is contradicted by the sources: {c.explanation}", c.id)
        elif c.status == "synthesis_error":
            add(
                "SYNTHESIS_ERROR",
                f"{quoted} combines facts from {', '.join(c.involved_sources)} falsely: {c.explanation}",
                c.id,
            )
        elif c.status == "unsupported":
            add("UNSUPPORTED_CLAIM", f"{quoted} is not stated in any source.", c.id)
        elif c.status == "partially_supported":
            add("PARTIAL_SUPPORT", f"{quoted} is only partly supported: {c.explanation}", c.id)
        if c.escalation:
            add("JUDGE_ESCALATION", f"{quoted} could not be judged reliably: {c.escalation}", c.id)
        check = c.citation_check
        if check and check.unknown:
            add("CITATION_FABRICATION", f"{quoted} cites {', '.join(check.unknown)}, which names no source.", c.id)
        if check and check.unsupportive:
            right = f"; {', '.join(check.supporting_sources)} does" if check.supporting_sources else ""
            add(
                "INVALID_CITATION",
                f"{quoted} cites {', '.join(check.unsupportive)}, which does not support it{right}.",
                c.id,
            )
    if report.abstention and report.abstention.query_has_gap and not report.abstention.answer_abstained_correctly:
        add("MISSING_ABSTENTION", report.abstention.explanation)
    for conflict in report.conflicts:
        if conflict.answer_handling == "took_side_silently":
            add("SOURCE_CONFLICT", conflict.explanation, conflict.claim_id)
    return issues


_FINDING_OF: dict[IssueType, str] = {
    "CONTRADICTION": "contradicted",
    "SYNTHESIS_ERROR": "synthesis_error",
    "CITATION_FABRICATION": "fabricated_citation",
    "INVALID_CITATION": "invalid_citation",
    "UNSUPPORTED_CLAIM": "unsupported",
    "PARTIAL_SUPPORT": "partially_supported",
    "MISSING_ABSTENTION": "missing_abstention",
    "SOURCE_CONFLICT": "source_conflict",
    "JUDGE_ESCALATION": "escalation",
}


class Gate:
    """Decides what to do with an audited answer.

    Example:
        >>> from ragaudit import audit
        >>> Gate().decide(audit("The plant opened in 2010.", ["The plant opened in 2012."])).action
        'regenerate'
    """

    def __init__(self, policy: Policy | Path | str | None = None) -> None:
        self.policy = policy if isinstance(policy, Policy) else load_policy(policy)

    def decide(self, report: Report, *, risk_level: RiskLevel | None = None) -> Decision:
        """The decision for ``report`` at ``risk_level`` (default: the level the audit ran at)."""
        level: RiskLevel = risk_level or report.options.risk_level
        rules = self.policy.rules(level)
        issues = find_issues(report, self.policy)
        proposals: list[tuple[GateAction, str]] = []
        for issue in issues:
            action: GateAction = getattr(rules, _FINDING_OF[issue.type])  # type: ignore[index]
            proposals.append((action, f"{issue.type} ({issue.severity}) → {action}: {issue.description}"))
        if report.faithfulness < self.policy.threshold:
            proposals.append(
                (
                    rules.below_threshold,
                    f"faithfulness {report.faithfulness:.2f} is below the threshold {self.policy.threshold:.2f} → {rules.below_threshold}",
                )
            )
        action = max((a for a, _ in proposals), key=GATE_ACTIONS.index, default="deliver")
        reasons = [reason for _, reason in proposals] or ["every claim is supported and the score meets the threshold"]
        caveat = None
        if action == "deliver_with_caveat":
            weak = [c for c in report.claims if c.status != "supported"]
            caveat = "Not verified against the sources: " + "; ".join(f"'{c.text}'" for c in weak) if weak else None
            caveat = caveat or "Some citations or source conflicts could not be verified."
        return Decision(
            action=action,
            reasons=reasons,
            caveat=caveat,
            issues=issues,
            risk_level=level,
            threshold=self.policy.threshold,
            policy=self.policy.name,
        )
