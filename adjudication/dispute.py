"""Disagreements over a game in play (002 §4.1.12).

A player who disagrees with his partner asks the steward for a decision instead of arguing; the
steward's decision can be protested to the referee and the referee's to the organizer, each within
ten days of receiving it. The substance (a corrected move, a recomputed time) is carried out by
the service through the decision letter; the case keeps the chain of decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, GameCase, Instance, Transition
from adjudication.deadlines import Deadline
from adjudication.effects import Addressee, Effect, LetterTemplate
from adjudication.errors import IllegalTransition
from adjudication.outcomes import Side

DISPUTE_RULE = "002 §4.1.12"


class DisputeRuling(StrEnum):
    UPHELD = "upheld"
    """The complainant is right."""
    DISMISSED = "dismissed"


@dataclass(frozen=True, kw_only=True)
class Dispute(GameCase):
    """A complaint by one player of a game, decided by the steward first."""

    TYPE: ClassVar[str] = "dispute"
    RULINGS: ClassVar[type[StrEnum]] = DisputeRuling
    APPEALS: ClassVar[Mapping[Instance, Instance]] = {
        Instance.STEWARD: Instance.REFEREE,
        Instance.REFEREE: Instance.ORGANIZER,
    }

    complainant: Side
    subject: str

    @classmethod
    def open(
        cls, case_id: str, *, game: str, complainant: Side, subject: str, filed_on: date
    ) -> Transition[Dispute]:
        case = cls(
            case_id=case_id,
            opened_on=filed_on,
            state=CaseState.AWAITING_DECISION,
            game=game,
            complainant=complainant,
            subject=subject,
        )
        return Transition(case, ())

    def decide(
        self, ruling: DisputeRuling | str, on: date, *, revision: int, reasons: str = ""
    ) -> Transition[Dispute]:
        """The steward's decision, sent to both players."""
        self._check_revision(revision, "decide the dispute")
        if self.decisions:
            raise IllegalTransition(self.case_id, self.state.value, "decide twice", DISPUTE_RULE)
        ruling = DisputeRuling(self._check_ruling(ruling))
        letters = tuple(
            self._letter(to, LetterTemplate.DISPUTE_DECISION, DISPUTE_RULE)
            for to in (Addressee.WHITE, Addressee.BLACK)
        )
        return self._decide(
            Instance.STEWARD,
            ruling,
            on,
            rules=(DISPUTE_RULE,),
            reasons=reasons,
            extra_effects=letters,
        )

    def _decider(self) -> Instance:
        return Instance.STEWARD

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        return ()

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        return ()
