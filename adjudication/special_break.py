"""Special breaks granted by the referee (002 §4.4.5).

After sudden illness, a natural disaster and the like, the referee may, on the player's request,
count a break announced after it began (retroactive), or grant a break beyond the one break of at
most 30 days a calendar year allows (§4.4.1). Break days include the first and last (§4.4.3).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, Instance, PlayerCase, Transition
from adjudication.deadlines import Deadline
from adjudication.effects import (
    Addressee,
    Effect,
    GrantBreak,
    LetterTemplate,
    RevokeBreak,
    SendLetter,
)
from adjudication.errors import IllegalTransition, InvalidBreakRequest

BREAK_RULE = "002 §4.4.5"
DAYS_RULE = "002 §4.4.3"


class BreakKind(StrEnum):
    RETROACTIVE = "retroactive"
    """Announced after it began: counted from its start all the same. It is still the player's
    one break of the year (§4.4.1): the referee counts a break, he does not add one."""
    EXTRA = "extra"
    """Beyond the yearly break of §4.4.1."""

    @property
    def referee_grant(self) -> str:
        """The break's ``referee_grant`` in the time chart: ``late_notice`` or ``extra``."""
        return "late_notice" if self is BreakKind.RETROACTIVE else "extra"


class BreakRuling(StrEnum):
    GRANTED = "granted"
    REFUSED = "refused"


@dataclass(frozen=True, kw_only=True)
class SpecialBreakRequest(PlayerCase):
    """A player's request for a break the ordinary rules do not give."""

    TYPE: ClassVar[str] = "special_break"
    RULINGS: ClassVar[type[StrEnum]] = BreakRuling

    break_kind: BreakKind
    start: date
    end: date
    reason: str
    granted_start: date | None = None
    granted_end: date | None = None

    @classmethod
    def request(
        cls,
        case_id: str,
        *,
        player: str,
        break_kind: BreakKind,
        start: date,
        end: date,
        reason: str,
        filed_on: date,
    ) -> Transition[SpecialBreakRequest]:
        """The player asks; a retroactive request must come after the break began."""
        if end < start:
            raise InvalidBreakRequest(start, end, "the break ends before it starts")
        if break_kind is BreakKind.RETROACTIVE and filed_on <= start:
            raise InvalidBreakRequest(
                start,
                end,
                f"announced on {filed_on.isoformat()}, not after its start: no "
                "special decision is needed (002 §4.4.2)",
            )
        case = cls(
            case_id=case_id,
            opened_on=filed_on,
            state=CaseState.AWAITING_DECISION,
            player=player,
            break_kind=break_kind,
            start=start,
            end=end,
            reason=reason,
        )
        request = SendLetter(Addressee.REFEREE, LetterTemplate.BREAK_REQUESTED, BREAK_RULE)
        return Transition(case, (request,))

    @property
    def days(self) -> int:
        """Days asked for, the first and last included (§4.4.3)."""
        return (self.end - self.start).days + 1

    def decide(
        self,
        ruling: BreakRuling | str,
        on: date,
        *,
        revision: int,
        start: date | None = None,
        end: date | None = None,
        reasons: str = "",
    ) -> Transition[SpecialBreakRequest]:
        """Grant (possibly a shorter part of the asked dates) or refuse the break."""
        self._check_revision(revision, "decide the break")
        if self.decisions:
            raise IllegalTransition(self.case_id, self.state.value, "decide twice", BREAK_RULE)
        ruling = BreakRuling(self._check_ruling(ruling))
        if ruling is BreakRuling.REFUSED:
            granted_start, granted_end = None, None
        else:
            granted_start, granted_end = start or self.start, end or self.end
            if not self.start <= granted_start <= granted_end <= self.end:
                raise InvalidBreakRequest(
                    granted_start, granted_end, "the granted dates must lie within the asked ones"
                )
        template = (
            LetterTemplate.BREAK_GRANTED
            if ruling is BreakRuling.GRANTED
            else LetterTemplate.BREAK_REFUSED
        )
        recipients: tuple[Addressee, ...] = (Addressee.PLAYER, Addressee.STEWARD)
        if ruling is BreakRuling.GRANTED:
            recipients = (Addressee.PLAYER, Addressee.PARTNERS, Addressee.STEWARD)
        letters = tuple(SendLetter(to, template, BREAK_RULE) for to in recipients)
        pending = dataclasses.replace(self, granted_start=granted_start, granted_end=granted_end)
        return pending._decide(
            Instance.REFEREE,
            ruling,
            on,
            rules=(BREAK_RULE, DAYS_RULE),
            reasons=reasons,
            extra_effects=letters,
        )

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        return ()

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        granted = BreakRuling.GRANTED.value
        start = self.granted_start or self.start
        end = self.granted_end or self.end
        if ruling == granted and previous != granted:
            return (GrantBreak(self.player, start, end, BREAK_RULE, self.break_kind.referee_grant),)
        if previous == granted and ruling != granted:
            return (RevokeBreak(self.player, start, end, self.HEARING_RULE),)
        return ()
