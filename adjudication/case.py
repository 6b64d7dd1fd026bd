"""What every case shares: identity, revision, the decisions taken and the protests against them.

A case is an immutable value. Each transition checks the revision the caller saw, checks the
rules, and returns a :class:`Transition`: the next case (revision + 1) and the effects the service
must carry out. Decisions go up the instances of 002 §4.1.12 — steward, referee, organizer — each
protest within ten days of receiving the decision; the organizer's decision is final (§4.5.7).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar, Generic, Self, TypeVar

from adjudication.deadlines import PROTEST_DAYS, Awaiting, Deadline, days_after
from adjudication.effects import Addressee, Effect, LetterTemplate, SendLetter
from adjudication.errors import (
    CaseClosed,
    CaseConflict,
    DecisionFinal,
    IllegalTransition,
    InvalidCaseData,
    NoRightToProtest,
    ProtestAlreadyFiled,
    ProtestOutOfTime,
    UnknownRuling,
)
from adjudication.outcomes import Side
from adjudication.serialization import SCHEMA_VERSION, Plain, from_plain, to_plain


class CaseState(StrEnum):
    """Where a case stands; the same five states for every case type."""

    AWAITING_PARTIES = "awaiting_parties"
    """Players (or the steward) still have time to send something: analyses, records."""
    AWAITING_DECISION = "awaiting_decision"
    """The file is complete or its window has passed: the deciding instance must act."""
    DECIDED = "decided"
    """A decision was taken; the parties' protest windows run."""
    UNDER_PROTEST = "under_protest"
    """A protest is with the next instance."""
    CLOSED = "closed"
    """Final: no protest in time, or the organizer decided."""


class Channel(StrEnum):
    """How a game is played (002 §4.1.1); decides which evidence the server holds itself."""

    POST = "post"
    EMAIL = "email"


class Instance(StrEnum):
    """Who decides (002 §4.1.7–4.1.9, §4.1.12)."""

    STEWARD = "steward"
    REFEREE = "referee"
    ORGANIZER = "organizer"

    @property
    def awaiting(self) -> Awaiting:
        return Awaiting(self.value)


@dataclass(frozen=True)
class Receipt:
    """The day a party received a decision: its protest window starts the next day."""

    party: str
    on: date


@dataclass(frozen=True)
class Decision:
    """A ruling by one instance, with the rule points it applies."""

    instance: Instance
    ruling: str
    decided_on: date
    rules: tuple[str, ...]
    reasons: str = ""
    receipts: tuple[Receipt, ...] = ()

    def received_by(self, party: str) -> date:
        """When ``party`` received it; by e-mail, or unknown, the day it was taken."""
        for receipt in self.receipts:
            if receipt.party == party:
                return receipt.on
        return self.decided_on


@dataclass(frozen=True)
class Protest:
    """A party's protest; ``decision`` is the index of the decision protested, or ``None`` when
    the protest answers a claim before any decision (002 §4.3.8)."""

    party: str
    filed_on: date
    to: Instance
    decision: int | None
    grounds: str = ""


CaseT = TypeVar("CaseT", bound="Case", covariant=True)


@dataclass(frozen=True)
class Transition(Generic[CaseT]):
    """A transition's result: the next case to store and the effects to carry out."""

    case: CaseT
    effects: tuple[Effect, ...]


@dataclass(frozen=True, kw_only=True)
class Case(ABC):
    """Fields and transitions common to all case types; see the subclasses for the rules."""

    TYPE: ClassVar[str]
    RULINGS: ClassVar[type[StrEnum]]
    APPEALS: ClassVar[Mapping[Instance, Instance]] = {Instance.REFEREE: Instance.ORGANIZER}
    """Which instance hears a protest against a decision of which."""
    PROTEST_RULE: ClassVar[str] = "002 §4.1.12"
    """The rule that gives the right to protest and its ten days."""
    HEARING_RULE: ClassVar[str] = "002 §4.1.12"
    """The rule under which the next instance decides a protest."""

    case_id: str
    opened_on: date
    state: CaseState
    revision: int = 0
    decisions: tuple[Decision, ...] = ()
    protests: tuple[Protest, ...] = ()

    # -- what subclasses provide -------------------------------------------------------------

    @property
    @abstractmethod
    def parties(self) -> tuple[str, ...]:
        """Who may protest the case's decisions."""

    @abstractmethod
    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        """The deadlines while the case awaits the parties or a decision, earliest first."""

    def _decider(self) -> Instance:
        """The instance that takes the first decision, or closes the case once windows pass."""
        return Instance.REFEREE

    @abstractmethod
    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        """Effects of moving from ``previous`` ruling (``None``: first decision) to ``ruling``."""

    @abstractmethod
    def _letter_game(self) -> str | None:
        """The game that resolves ``white``/``black`` addressees, if the case is about one."""

    @abstractmethod
    def _protest_decision_addressees(self) -> tuple[Addressee, ...]:
        """Who is told the outcome of a protest."""

    def _check_protest_right(self, party: str) -> None:
        """Raise :class:`NoRightToProtest` when ``party`` may not protest; subclasses add the
        rules that take the right away (002 §4.5.6)."""
        self._check_party(party)

    def _check_ruling(self, ruling: str) -> str:
        """The ruling as a plain string, or :class:`UnknownRuling`."""
        known = tuple(str(member.value) for member in self.RULINGS)
        if ruling not in known:
            raise UnknownRuling(self.TYPE, ruling, known)
        return str(ruling.value if isinstance(ruling, StrEnum) else ruling)

    # -- storage ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Plain]:
        """The case as a JSON-able dict carrying ``version`` and ``type``."""
        payload = to_plain(self)
        assert isinstance(payload, dict)
        return {"version": SCHEMA_VERSION, "type": self.TYPE, **payload}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        """Read back a dict made by :meth:`to_dict`; :class:`InvalidCaseData` says what is wrong."""
        version = data.get("version")
        if type(version) is not int or not 1 <= version <= SCHEMA_VERSION:
            raise InvalidCaseData("$.version", f"unsupported payload version {version!r}")
        if data.get("type") != cls.TYPE:
            raise InvalidCaseData("$.type", f"expected {cls.TYPE!r}, got {data.get('type')!r}")
        return from_plain(cls, dict(data))

    # -- common reading ---------------------------------------------------------------------

    @property
    def is_closed(self) -> bool:
        return self.state is CaseState.CLOSED

    @property
    def last_decision(self) -> Decision | None:
        return self.decisions[-1] if self.decisions else None

    @property
    def ruling(self) -> str | None:
        """The ruling in force: the last decision's."""
        decision = self.last_decision
        return decision.ruling if decision else None

    @property
    def deadlines(self) -> tuple[Deadline, ...]:
        """The dates that matter in the case's current state, earliest first."""
        if self.state in (CaseState.AWAITING_PARTIES, CaseState.AWAITING_DECISION):
            return self._pending_deadlines()
        if self.state is CaseState.DECIDED:
            dues = [self.protest_due(party) for party in self._protesters()]
            if dues:
                return (Deadline(max(dues), Awaiting.PLAYERS, "protest window", self.PROTEST_RULE),)
        return ()

    def deadline_on(self, today: date) -> Deadline | None:
        """The deadline that matters ``today``: the first not yet passed, else the last (overdue)."""
        deadlines = self.deadlines
        for deadline in deadlines:
            if not deadline.is_overdue(today):
                return deadline
        return deadlines[-1] if deadlines else None

    def awaiting_on(self, today: date) -> Awaiting | None:
        """Who must act next, ``None`` once the case is closed."""
        if self.state is CaseState.CLOSED:
            return None
        if self.state is CaseState.UNDER_PROTEST:
            return self.protests[-1].to.awaiting
        deadline = self.deadline_on(today)
        if deadline is None or deadline.is_overdue(today):
            return self._decider().awaiting
        return deadline.awaiting

    def protest_window_until(self) -> date | None:
        """The last day any party may still protest the decision in force (``None``: no party
        may); the case can be closed the day after."""
        if self.last_decision is None:
            return None
        return max((self.protest_due(p) for p in self._protesters()), default=None)

    @property
    def protest_windows(self) -> dict[str, date]:
        """The last day to protest the decision in force, for each party who may protest it
        (002 §4.1.12; an adjudication only for a player who sent his analysis, 002 §4.5.6);
        empty before a decision and after a final one."""
        if self.last_decision is None:
            return {}
        return {party: self.protest_due(party) for party in self._protesters()}

    def protest_due(self, party: str) -> date:
        """The last day ``party`` may protest the decision in force."""
        decision = self._require_decision("compute a protest window")
        return days_after(decision.received_by(party), PROTEST_DAYS)

    # -- common transitions -----------------------------------------------------------------

    def acknowledge_receipt(self, party: str, on: date, *, revision: int) -> Transition[Self]:
        """Record the day ``party`` received the decision in force (postal play)."""
        self._check_revision(revision, "record the receipt of a decision")
        self._require_decision("record the receipt of a decision")
        self._check_party(party)
        return Transition(self._next(decisions=self._with_receipt(Receipt(party, on))), ())

    def _with_receipt(self, receipt: Receipt) -> tuple[Decision, ...]:
        """The decisions with ``receipt`` recorded on the one in force."""
        decision = self._require_decision("record the receipt of a decision")
        others = tuple(r for r in decision.receipts if r.party != receipt.party)
        updated = dataclasses.replace(decision, receipts=others + (receipt,))
        return self.decisions[:-1] + (updated,)

    def protest(
        self,
        party: str,
        on: date,
        *,
        revision: int,
        received_on: date | None = None,
        grounds: str = "",
    ) -> Transition[Self]:
        """``party`` protests the decision in force to the next instance.

        ``received_on`` is the receipt date the protest states (postal play); without it the
        recorded receipt, else the decision date, starts the ten-day window.
        """
        self._check_fresh(revision)
        final = self.last_decision
        if final is not None and final.instance not in self.APPEALS:
            raise DecisionFinal(self.case_id, self.HEARING_RULE)
        self._check_open("protest")
        if self.state not in (CaseState.DECIDED, CaseState.UNDER_PROTEST):
            raise IllegalTransition(self.case_id, self.state.value, "protest before a decision")
        decision = self._require_decision("protest")
        self._check_party(party)
        index = len(self.decisions) - 1
        earlier = self._protest_by(party, index)
        if earlier is not None:
            raise ProtestAlreadyFiled(self.case_id, party, earlier.filed_on)
        hearing = self.APPEALS[decision.instance]
        self._check_protest_right(party)
        start = received_on if received_on is not None else decision.received_by(party)
        due = days_after(start, PROTEST_DAYS)
        if on > due:
            raise ProtestOutOfTime(party, on, due, self.PROTEST_RULE)
        protest = Protest(party, on, hearing, index, grounds)
        decisions = self.decisions
        if received_on is not None:
            # Keep the stated receipt so the case's deadlines agree with the protest's window.
            decisions = self._with_receipt(Receipt(party, received_on))
        effects: list[Effect] = [
            SendLetter(
                Addressee(hearing.value),
                LetterTemplate.PROTEST_RECEIVED,
                self.PROTEST_RULE,
                self._letter_game(),
            )
        ]
        return Transition(
            self._next(
                state=CaseState.UNDER_PROTEST,
                protests=self.protests + (protest,),
                decisions=decisions,
            ),
            tuple(effects),
        )

    def decide_protest(
        self,
        ruling: str,
        on: date,
        *,
        revision: int,
        rules: tuple[str, ...] = (),
        reasons: str = "",
    ) -> Transition[Self]:
        """The instance that heard the protest upholds (same ruling) or changes the decision."""
        self._check_revision(revision, "decide the protest")
        if self.state is not CaseState.UNDER_PROTEST:
            raise IllegalTransition(
                self.case_id, self.state.value, "decide a protest: none is pending"
            )
        ruling = self._check_ruling(ruling)
        hearing = self.protests[-1].to
        previous = self.ruling
        decision = Decision(hearing, ruling, on, rules or (self.HEARING_RULE,), reasons)
        final = hearing not in self.APPEALS
        effects = list(self._ruling_effects(ruling, previous, on))
        game = self._letter_game()
        effects.extend(
            SendLetter(addressee, LetterTemplate.PROTEST_DECISION, self.HEARING_RULE, game)
            for addressee in self._protest_decision_addressees()
        )
        return Transition(
            self._next(
                state=CaseState.CLOSED if final else CaseState.DECIDED,
                decisions=self.decisions + (decision,),
            ),
            tuple(effects),
        )

    def close(self, on: date, *, revision: int) -> Transition[Self]:
        """Make the decision in force final once every protest window has passed."""
        self._check_revision(revision, "close the case")
        if self.state is not CaseState.DECIDED:
            raise IllegalTransition(self.case_id, self.state.value, "close the case")
        due = self.protest_window_until()
        if due is not None and on <= due:
            raise IllegalTransition(
                self.case_id,
                f"open to protest until {due.isoformat()}",
                "close the case",
                self.PROTEST_RULE,
            )
        return Transition(self._next(state=CaseState.CLOSED), ())

    # -- helpers for subclasses -------------------------------------------------------------

    def _next(self, **changes: object) -> Self:
        return dataclasses.replace(self, revision=self.revision + 1, **changes)  # type: ignore[arg-type]

    def _check_revision(self, revision: int, action: str) -> None:
        """The caller saw the current revision, and the case is still open."""
        self._check_fresh(revision)
        self._check_open(action)

    def _check_fresh(self, revision: int) -> None:
        if revision != self.revision:
            raise CaseConflict(self.case_id, revision, self.revision)

    def _check_open(self, action: str) -> None:
        if self.is_closed:
            raise CaseClosed(self.case_id, action)

    def _check_party(self, party: str) -> None:
        if party not in self.parties:
            raise NoRightToProtest(party, f"not a party to case {self.case_id}", self.PROTEST_RULE)

    def _require_decision(self, action: str) -> Decision:
        decision = self.last_decision
        if decision is None:
            raise IllegalTransition(self.case_id, self.state.value, action)
        return decision

    def _protest_by(self, party: str, decision: int | None) -> Protest | None:
        for protest in self.protests:
            if protest.party == party and protest.decision == decision:
                return protest
        return None

    def _protesters(self) -> list[str]:
        """Parties that may still protest the decision in force."""
        decision = self.last_decision
        if decision is None or decision.instance not in self.APPEALS:
            return []
        result = []
        for party in self.parties:
            try:
                self._check_protest_right(party)
            except NoRightToProtest:
                continue
            result.append(party)
        return result

    def _decide(
        self,
        instance: Instance,
        ruling: str,
        on: date,
        *,
        rules: tuple[str, ...],
        reasons: str,
        extra_effects: tuple[Effect, ...] = (),
        **changes: object,
    ) -> Transition[Self]:
        """Record the first decision on the merits (state DECIDED, or CLOSED if final)."""
        ruling = self._check_ruling(ruling)
        decision = Decision(instance, ruling, on, rules, reasons)
        final = instance not in self.APPEALS
        effects = self._ruling_effects(ruling, None, on) + extra_effects
        next_case = self._next(
            state=CaseState.CLOSED if final else CaseState.DECIDED,
            decisions=self.decisions + (decision,),
            **changes,
        )
        return Transition(next_case, effects)


@dataclass(frozen=True, kw_only=True)
class GameCase(Case):
    """A case about one game; its parties are the two sides."""

    game: str

    @property
    def parties(self) -> tuple[str, ...]:
        return (Side.WHITE.value, Side.BLACK.value)

    def _letter_game(self) -> str | None:
        return self.game

    def _protest_decision_addressees(self) -> tuple[Addressee, ...]:
        return (Addressee.WHITE, Addressee.BLACK, Addressee.STEWARD)

    def _letter(self, to: Addressee | Side, template: LetterTemplate, rule: str) -> SendLetter:
        addressee = Addressee.of(to) if isinstance(to, Side) else to
        return SendLetter(addressee, template, rule, self.game)


@dataclass(frozen=True, kw_only=True)
class PlayerCase(Case):
    """A case about one player across his games; he is the party who may protest."""

    player: str

    @property
    def parties(self) -> tuple[str, ...]:
        return (self.player,)

    def _letter_game(self) -> str | None:
        return None

    def _protest_decision_addressees(self) -> tuple[Addressee, ...]:
        return (Addressee.PLAYER, Addressee.STEWARD)
