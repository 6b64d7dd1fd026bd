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
    with_next_reply: frozenset[Side] = frozenset()
    """Sides who still play the steward: their record is due "при очередном ответе" — with their
    next reply to the steward — rather than within fifteen days (§4.5.1)."""
    lapses: tuple[RecordReceipt, ...] = ()
    """Replies to the steward that came without the record a side owed with them (§4.5.1)."""

    @classmethod
    def open(
        cls,
        case_id: str,
        *,
        game: str,
        finished_on: date,
        channel: Channel,
        result: GameOutcome,
        with_next_reply: frozenset[Side] = frozenset(),
    ) -> Transition[GameRecordCase]:
        """Start waiting for the records; an e-mail game's record is generated and done.

        ``with_next_reply``: the sides that still have a game in progress with the steward, whose
        record is due with their next reply to him (§4.5.1).
        """
        email = channel is Channel.EMAIL
        case = cls(
            case_id=case_id,
            opened_on=finished_on,
            state=CaseState.CLOSED if email else CaseState.AWAITING_PARTIES,
            game=game,
            finished_on=finished_on,
            channel=channel,
            result=result,
            with_next_reply=frozenset() if email else with_next_reply,
        )
        effects: tuple[Effect, ...] = (GenerateGameRecord(game, RECORD_RULE),) if email else ()
        return Transition(case, effects)

    @property
    def due(self) -> date:
        """The fifteenth day after the game ended (§4.5.1)."""
        return days_after(self.finished_on, GAME_RECORD_DAYS)

    def due_for(self, side: Side) -> date | None:
        """The day ``side``'s record is due by; ``None`` while it is due with his next reply to
        the steward, which has no date of its own (§4.5.1)."""
        return None if side in self.with_next_reply else self.due

    def reply_without_record(self, side: Side, on: date, *, revision: int) -> Transition[GameRecordCase]:
        """``side``'s next reply to the steward came on ``on`` without the record he owed with it
        (§4.5.1): the lapse is on record, the player is reminded and the steward told he may
        withhold his current information (§4.1.9, §4.5.1)."""
        self._check_revision(revision, "record a reply without the game record")
        if self.state is not CaseState.AWAITING_PARTIES:
            raise IllegalTransition(self.case_id, self.state.value, "record a reply", RECORD_RULE)
        if side not in self.with_next_reply:
            raise IllegalTransition(self.case_id, "waiting for the record within fifteen days",
                                    f"record {side.value}'s reply: no game of his with the steward",
                                    RECORD_RULE)
        if self.received_from(side) is not None or self._lapsed(side):
            raise DuplicateSubmission(side.value, "reply without the record", RECORD_RULE)
        if on < self.finished_on:
            raise ImpossibleDates(self.finished_on, on, "a reply before the game ended", RECORD_RULE)
        letters = (
            self._letter(side, LetterTemplate.GAME_RECORD_MISSING, RECORD_RULE),
            self._letter(Addressee.STEWARD, LetterTemplate.GAME_RECORD_MISSING, RECORD_RULE),
        )
        return Transition(self._next(lapses=self.lapses + (RecordReceipt(side, on),)), letters)

    def _lapsed(self, side: Side) -> bool:
        return any(lapse.side is side for lapse in self.lapses)

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
        # A side whose record is due with his next reply to the steward is not late until that
        # reply came without it: he is neither reminded nor counted as sending none.
        waiting = [side for side in self.with_next_reply
                   if self.received_from(side) is None and not self._lapsed(side)]
        if waiting and not self.received:
            raise WindowOpen(f"{waiting[0].value}'s game record with the next reply to the steward",
                             self.due, RECORD_RULE)
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
        if missing in waiting or self._lapsed(missing):
            # Still due with his next reply, or already reminded when the reply came without it.
            return Transition(self._next(state=CaseState.CLOSED), ())
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
