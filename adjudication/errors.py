"""Errors raised by the referee's state machines.

Every error is a narrow :class:`ValueError` subclass that carries the offending input and names the
rule it enforces, so the service can show the message to a referee or a player unchanged.
"""

from __future__ import annotations

from datetime import date


class AdjudicationError(ValueError):
    """Base class: a transition the rules do not allow, or data that cannot be a case."""

    rule: str = ""


class CaseConflict(AdjudicationError):
    """The transition was computed against an older revision of the case.

    Two referees opened the same case; the first decision bumped the revision, the second one
    must reload the case instead of deciding it twice.
    """

    def __init__(self, case_id: str, expected: int, actual: int) -> None:
        self.case_id = case_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"case {case_id} changed meanwhile: the form was made for revision {expected}, "
            f"the case is now at revision {actual}; reload it before deciding"
        )


class IllegalTransition(AdjudicationError):
    """The case is not in a state where this step is possible."""

    def __init__(self, case_id: str, state: str, action: str, rule: str = "") -> None:
        self.case_id = case_id
        self.state = state
        self.action = action
        self.rule = rule
        cited = f" ({rule})" if rule else ""
        super().__init__(f"case {case_id} is {state}: cannot {action}{cited}")


class CaseClosed(IllegalTransition):
    """Nothing can be done to a closed case: its final decision stands."""

    def __init__(self, case_id: str, action: str) -> None:
        super().__init__(case_id, "closed", action)


class DecisionFinal(CaseClosed):
    """The decision was taken by the organizer, the last instance (002 §4.1.12, §4.5.7)."""

    def __init__(self, case_id: str, rule: str) -> None:
        IllegalTransition.__init__(
            self, case_id, "decided by the organizer", "protest a final decision", rule
        )


class ProtestAlreadyFiled(AdjudicationError):
    """A party protests the same decision (or claim) a second time."""

    rule = "002 §4.1.12"

    def __init__(self, case_id: str, party: str, filed_on: date) -> None:
        self.case_id = case_id
        self.party = party
        self.filed_on = filed_on
        super().__init__(
            f"case {case_id}: {party} already protested on {filed_on.isoformat()}; "
            f"one protest per decision ({self.rule})"
        )


class ProtestOutOfTime(AdjudicationError):
    """A protest sent after its ten-day window; it is refused with the date it was due."""

    def __init__(self, party: str, filed_on: date, due: date, rule: str) -> None:
        self.party = party
        self.filed_on = filed_on
        self.due = due
        self.rule = rule
        super().__init__(
            f"protest by {party} sent {filed_on.isoformat()} is out of time: it was due by "
            f"{due.isoformat()} ({rule})"
        )


class NoRightToProtest(AdjudicationError):
    """The party has no standing: not a party to the case, or lost the right by the rules."""

    def __init__(self, party: str, reason: str, rule: str) -> None:
        self.party = party
        self.reason = reason
        self.rule = rule
        super().__init__(f"{party} cannot protest: {reason} ({rule})")


class WindowOpen(AdjudicationError):
    """A decision was attempted while the parties may still send something (analyses, protest)."""

    def __init__(self, what: str, due: date, rule: str) -> None:
        self.what = what
        self.due = due
        self.rule = rule
        super().__init__(
            f"cannot decide yet: {what} may still arrive until {due.isoformat()} ({rule})"
        )


class MissingEvidence(AdjudicationError):
    """The claim's file lacks materials the rule requires for a decision on the merits."""

    rule = "002 §4.3.6"

    def __init__(self, missing: frozenset[str]) -> None:
        self.missing = missing
        names = ", ".join(sorted(missing))
        super().__init__(
            f"the claim lacks {names}; with incomplete materials the referee may only decline "
            f"to approve the claim (002 §4.3.7)"
        )


class DuplicateSubmission(AdjudicationError):
    """A player sends a second assessment, analysis or game record for the same case."""

    def __init__(self, party: str, what: str, rule: str) -> None:
        self.party = party
        self.what = what
        self.rule = rule
        super().__init__(f"{party} already sent the {what} ({rule})")


class ReasonsRequired(AdjudicationError):
    """A decision that departs from what the file shows must say why."""

    def __init__(self, departure: str, rule: str) -> None:
        self.departure = departure
        self.rule = rule
        super().__init__(f"give the reasons for {departure} ({rule})")


class AgreedResultBinding(AdjudicationError):
    """The referee's result differs from the result both players agreed on (002 §4.5.4)."""

    rule = "002 §4.5.4"

    def __init__(self, agreed: str, decided: str) -> None:
        self.agreed = agreed
        self.decided = decided
        super().__init__(
            f"both players assessed the position as {agreed}; the referee may fix {decided} "
            f"only by marking the agreed result as sharply contradicting the position ({self.rule})"
        )


class InvalidSanction(AdjudicationError):
    """A sanction without the rule points violated, or beyond the authority of who imposes it."""

    def __init__(self, message: str, rule: str) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})")


class InvalidBan(AdjudicationError):
    """A ban longer than three years, or recorded when a good reason was accepted (002 §4.1.14)."""

    rule = "002 §4.1.14"

    def __init__(self, message: str) -> None:
        super().__init__(f"{message} ({self.rule})")


class InvalidWithdrawalPlan(AdjudicationError):
    """The referee's disposition of a withdrawn player's games breaks 000 §3.14 or 002 §4.5.3."""

    def __init__(self, game: str, message: str, rule: str) -> None:
        self.game = game
        self.rule = rule
        super().__init__(f"game {game}: {message} ({rule})")


class InvalidBreakRequest(AdjudicationError):
    """A special break whose dates cannot be a break (002 §4.4.3, §4.4.5)."""

    rule = "002 §4.4.5"

    def __init__(self, start: date, end: date, message: str) -> None:
        self.start = start
        self.end = end
        super().__init__(f"break {start.isoformat()}–{end.isoformat()}: {message} ({self.rule})")


class ImpossibleDates(AdjudicationError):
    """Two dates in the wrong order, e.g. a letter received before it was sent."""

    def __init__(self, earlier: date, later: date, message: str, rule: str) -> None:
        self.earlier = earlier
        self.later = later
        self.what = message
        self.rule = rule
        super().__init__(f"{message}: {later.isoformat()} is before {earlier.isoformat()} ({rule})")


class NaiveTimestamp(AdjudicationError):
    """An arrival time without a time zone cannot be placed on the tournament's calendar."""

    def __init__(self, value: object) -> None:
        self.value = value
        super().__init__(f"timestamp {value!r} has no time zone; pass an aware datetime")


class UnknownRuling(AdjudicationError):
    """A ruling that the case type does not have."""

    def __init__(self, case_type: str, ruling: str, known: tuple[str, ...]) -> None:
        self.case_type = case_type
        self.ruling = ruling
        super().__init__(f"{case_type} has no ruling {ruling!r}; one of: {', '.join(known)}")


class InvalidCaseData(AdjudicationError):
    """A stored case (JSON dict) that cannot be read back; ``path`` says where it breaks."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}")


class CodedError(AdjudicationError):
    """An error that says what is wrong as data besides its English message: ``code`` names it
    and ``params`` carries its values, so the service words it in the reader's language."""

    code: str = ""

    @property
    def params(self) -> dict[str, object]:
        return {}


class NotApprovedOnCompleteFile(CodedError):
    """The referee left an overstep claim unapproved although its file is complete.

    002 §4.3.7 allows "не утверждать" only when the materials were sent incompletely; with the
    whole file the referee establishes whether the overstep took place: he confirms it, or
    rejects it and charges the claimant 6 days.
    """

    rule = "002 §4.3.7"
    code = "not_approved_on_complete_file"

    def __init__(self, case_id: str, evidence: frozenset[str]) -> None:
        self.case_id = case_id
        self.evidence = evidence
        super().__init__(
            f"case {case_id}: the claim's materials are complete ({', '.join(sorted(evidence))}); "
            f"the referee may leave a claim unapproved only when they are incomplete: confirm the "
            f"overstep or reject it, a rejection charging the claimant 6 days ({self.rule})"
        )

    @property
    def params(self) -> dict[str, object]:
        return {"case_id": self.case_id, "evidence": ", ".join(sorted(self.evidence))}


class ProtestIncomplete(CodedError):
    """The accused's protest against an overstep claim without grounds or without the
    materials of 002 §4.3.6 (002 §4.3.8: "обоснованный протест и материалы")."""

    rule = "002 §4.3.8"
    code = "protest_incomplete"

    def __init__(self, case_id: str, *, grounds_missing: bool, materials_missing: frozenset[str]) -> None:
        self.case_id = case_id
        self.grounds_missing = grounds_missing
        self.materials_missing = materials_missing
        wanting = (["grounds"] if grounds_missing else []) + sorted(materials_missing)
        super().__init__(
            f"case {case_id}: the protest against the overstep must give its grounds and the "
            f"materials of 002 §4.3.6; it lacks {', '.join(wanting)} ({self.rule})"
        )

    @property
    def params(self) -> dict[str, object]:
        wanting = (["grounds"] if self.grounds_missing else []) + sorted(self.materials_missing)
        return {"case_id": self.case_id, "missing": ", ".join(wanting)}


class DecisionAgainstChart(ReasonsRequired, CodedError):
    """An overstep claim decided against what the recomputed time chart shows, without reasons
    (002 §4.3.7): confirming an overstep the chart does not show, or rejecting one it shows."""

    code = "decision_against_chart"

    def __init__(self, ruling: str, rule: str) -> None:
        self.ruling = ruling
        ReasonsRequired.__init__(
            self, f"a {ruling} claim the recomputed time chart contradicts", rule)

    @property
    def params(self) -> dict[str, object]:
        return {"ruling": self.ruling}


class UnreasonedAdjudication(ReasonsRequired, CodedError):
    """An adjudication on the merits without the referee's reasons (002 §4.5.5): the result
    goes to the player whose assessment it contradicts, and he may protest it (002 §4.5.6)."""

    code = "adjudication_without_reasons"

    def __init__(self, case_id: str, rule: str) -> None:
        self.case_id = case_id
        ReasonsRequired.__init__(self, f"the adjudication of case {case_id}", rule)

    @property
    def params(self) -> dict[str, object]:
        return {"case_id": self.case_id}
