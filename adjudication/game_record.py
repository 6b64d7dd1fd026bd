"""Game records of finished games (002 §4.5.1, §4.5.8).

Both players send the steward the record in short notation within fifteen days of the game's end.
For an e-mail game the server writes the record itself. When the fifteen days pass the steward
records the outcome: if neither player sent it, both get a minus in the final table (§4.5.8); if
one did not, the result stands and the steward is reminded he may withhold that player's bulletins
(§4.5.1, a separate sanction).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, Channel, GameCase, Instance, Transition
from adjudication.deadlines import GAME_RECORD_DAYS, Awaiting, Deadline, days_after
from adjudication.effects import (
    Addressee,
    Effect,
    GenerateGameRecord,
    LetterTemplate,
    RecordResult,
)
from adjudication.errors import (
    DuplicateSubmission,
    IllegalTransition,
    ImpossibleDates,
    WindowOpen,
)
from adjudication.outcomes import GameOutcome, Side

RECORD_RULE = "002 §4.5.1"
MINUS_RULE = "002 §4.5.8"


class RecordRuling(StrEnum):
    RESULT_STANDS = "result_stands"
    """At least one record arrived; the played result counts."""
    BOTH_MINUS = "both_minus"
    """Neither player sent the record: ``−/−`` (§4.5.8)."""


@dataclass(frozen=True)
class RecordReceipt:
    side: Side
    received_on: date


@dataclass(frozen=True, kw_only=True)
class GameRecordCase(GameCase):
    """Tracking of the two records of one finished game."""

    TYPE: ClassVar[str] = "game_record"
    RULINGS: ClassVar[type[StrEnum]] = RecordRuling
    APPEALS: ClassVar[Mapping[Instance, Instance]] = {
        Instance.STEWARD: Instance.REFEREE,
        Instance.REFEREE: Instance.ORGANIZER,
    }

    finished_on: date
    channel: Channel
    result: GameOutcome
    """The result on the board, restored if a minus is overturned."""
    received: tuple[RecordReceipt, ...] = ()

    @classmethod
    def open(
        cls,
        case_id: str,
        *,
        game: str,
        finished_on: date,
        channel: Channel,
        result: GameOutcome,
    ) -> Transition[GameRecordCase]:
        """Start waiting for the records; an e-mail game's record is generated and done."""
        email = channel is Channel.EMAIL
        case = cls(
            case_id=case_id,
            opened_on=finished_on,
            state=CaseState.CLOSED if email else CaseState.AWAITING_PARTIES,
            game=game,
            finished_on=finished_on,
            channel=channel,
            result=result,
        )
        effects: tuple[Effect, ...] = (GenerateGameRecord(game, RECORD_RULE),) if email else ()
        return Transition(case, effects)

    @property
    def due(self) -> date:
        """The fifteenth day after the game ended (§4.5.1)."""
        return days_after(self.finished_on, GAME_RECORD_DAYS)

    def received_from(self, side: Side) -> RecordReceipt | None:
        for receipt in self.received:
            if receipt.side is side:
                return receipt
        return None

    def record_received(self, side: Side, on: date, *, revision: int) -> Transition[GameRecordCase]:
        """The steward registers ``side``'s record; both in, the case closes."""
        self._check_revision(revision, "register a game record")
        if self.state is not CaseState.AWAITING_PARTIES:
            raise IllegalTransition(
                self.case_id, self.state.value, "register a record", RECORD_RULE
            )
        if self.received_from(side) is not None:
            raise DuplicateSubmission(side.value, "game record", RECORD_RULE)
        if on < self.finished_on:
            raise ImpossibleDates(
                self.finished_on, on, "a record received before the game ended", RECORD_RULE
            )
        received = self.received + (RecordReceipt(side, on),)
        state = CaseState.CLOSED if len(received) == 2 else self.state
        return Transition(self._next(received=received, state=state), ())

    def settle(self, on: date, *, revision: int) -> Transition[GameRecordCase]:
        """After the fifteen days: ``−/−`` if no record came (§4.5.8), else a reminder."""
        self._check_revision(revision, "settle the missing records")
        if self.state is not CaseState.AWAITING_PARTIES:
            raise IllegalTransition(self.case_id, self.state.value, "settle", RECORD_RULE)
        if on <= self.due:
            raise WindowOpen("the game records", self.due, RECORD_RULE)
        if not self.received:
            letters = tuple(
                self._letter(to, LetterTemplate.GAME_RECORD_BOTH_MINUS, MINUS_RULE)
                for to in (Addressee.WHITE, Addressee.BLACK, Addressee.STEWARD)
            )
            return self._decide(
                Instance.STEWARD,
                RecordRuling.BOTH_MINUS,
                on,
                rules=(MINUS_RULE,),
                reasons="",
                extra_effects=letters,
            )
        missing = next(side for side in Side if self.received_from(side) is None)
        letters = (
            self._letter(missing, LetterTemplate.GAME_RECORD_MISSING, RECORD_RULE),
            self._letter(Addressee.STEWARD, LetterTemplate.GAME_RECORD_MISSING, RECORD_RULE),
        )
        return Transition(self._next(state=CaseState.CLOSED), letters)

    def _decider(self) -> Instance:
        return Instance.STEWARD

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        return (Deadline(self.due, Awaiting.PLAYERS, "game records", RECORD_RULE),)

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        if ruling == previous:
            return ()
        if ruling == RecordRuling.BOTH_MINUS:
            return (RecordResult(self.game, GameOutcome.both_lose(), MINUS_RULE),)
        return (RecordResult(self.game, self.result, self.HEARING_RULE),)
