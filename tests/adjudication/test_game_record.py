"""Game records of finished games (002 §4.5.1, §4.5.8)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Addressee,
    Awaiting,
    CaseState,
    Channel,
    DuplicateSubmission,
    GameRecordCase,
    IllegalTransition,
    ImpossibleDates,
    Instance,
    LetterTemplate,
    Side,
    WindowOpen,
)
from adjudication.effects import GenerateGameRecord, RecordResult, SendLetter
from adjudication.game_record import RecordReceipt
from adjudication.outcomes import GameOutcome

FINISHED = date(2025, 4, 20)  # records due 5 May
RESULT = GameOutcome.win_for(Side.BLACK)


def postal() -> GameRecordCase:
    return GameRecordCase.open(
        "r1", game="g1", finished_on=FINISHED, channel=Channel.POST, result=RESULT
    ).case


def test_email_game_record_is_generated_and_nothing_waits() -> None:
    transition = GameRecordCase.open(
        "r2", game="g2", finished_on=FINISHED, channel=Channel.EMAIL, result=RESULT
    )
    assert transition.case.is_closed
    assert transition.effects == (GenerateGameRecord("g2", "002 §4.5.1"),)


def test_both_records_close_the_case() -> None:
    case = postal()
    assert case.due == date(2025, 5, 5)
    case = case.record_received(Side.WHITE, date(2025, 4, 25), revision=0).case
    assert case.state is CaseState.AWAITING_PARTIES
    with pytest.raises(DuplicateSubmission, match="002 §4.5.1"):
        case.record_received(Side.WHITE, date(2025, 4, 26), revision=1)
    case = case.record_received(Side.BLACK, date(2025, 5, 5), revision=1).case
    assert case.is_closed


def test_settling_waits_for_day_fifteen() -> None:
    with pytest.raises(WindowOpen) as raised:
        postal().settle(date(2025, 5, 5), revision=0)
    assert raised.value.due == date(2025, 5, 5)


def test_no_record_from_either_player_is_minus_minus() -> None:
    transition = postal().settle(date(2025, 5, 6), revision=0)
    assert transition.effects[0] == RecordResult("g1", GameOutcome.both_lose(), "002 §4.5.8")
    assert transition.case.state is CaseState.DECIDED
    assert transition.case.last_decision is not None
    assert transition.case.last_decision.instance is Instance.STEWARD


def test_one_missing_record_keeps_the_result_and_reminds() -> None:
    case = postal().record_received(Side.BLACK, date(2025, 4, 22), revision=0).case
    transition = case.settle(date(2025, 5, 6), revision=1)
    assert transition.case.is_closed
    assert not any(isinstance(e, RecordResult) for e in transition.effects)
    assert [(e.to, e.template) for e in transition.effects if isinstance(e, SendLetter)] == [
        (Addressee.WHITE, LetterTemplate.GAME_RECORD_MISSING),
        (Addressee.STEWARD, LetterTemplate.GAME_RECORD_MISSING),
    ]


def test_minus_protested_to_the_referee_restores_the_result() -> None:
    minus = postal().settle(date(2025, 5, 6), revision=0).case
    protested = minus.protest("white", date(2025, 5, 10), revision=1, grounds="sent 1 May").case
    assert protested.protests[-1].to is Instance.REFEREE
    restored = protested.decide_protest("result_stands", date(2025, 5, 12), revision=2)
    assert restored.effects[0] == RecordResult("g1", RESULT, "002 §4.1.12")
    assert restored.case.state is CaseState.DECIDED  # the organizer may still hear it


def test_records_cannot_arrive_after_settling() -> None:
    minus = postal().settle(date(2025, 5, 6), revision=0).case
    with pytest.raises(IllegalTransition):
        minus.record_received(Side.WHITE, date(2025, 5, 7), revision=1)
    with pytest.raises(IllegalTransition):
        minus.settle(date(2025, 5, 7), revision=1)


def test_after_day_fifteen_the_steward_must_act() -> None:
    case = postal()
    assert case.awaiting_on(date(2025, 5, 5)) is Awaiting.PLAYERS
    assert case.awaiting_on(date(2025, 5, 6)) is Awaiting.STEWARD


def test_record_cannot_precede_the_end_of_the_game() -> None:
    with pytest.raises(ImpossibleDates, match="002 §4.5.1"):
        postal().record_received(Side.WHITE, date(2025, 4, 19), revision=0)


def playing_the_steward() -> GameRecordCase:
    # White still plays the steward: his record goes with his next reply to him (002 §4.5.1).
    return GameRecordCase.open(
        "r3", game="g3", finished_on=FINISHED, channel=Channel.POST, result=RESULT,
        with_next_reply=frozenset({Side.WHITE}),
    ).case


def test_a_record_due_with_the_next_reply_has_no_fixed_date() -> None:
    case = playing_the_steward()
    assert case.due_for(Side.WHITE) is None and case.due_for(Side.BLACK) == date(2025, 5, 5)
    # Black's record came; on day 16 white is not late: his next reply has not come yet.
    case = case.record_received(Side.BLACK, date(2025, 4, 25), revision=0).case
    settled = case.settle(date(2025, 5, 6), revision=1)
    assert settled.case.is_closed and settled.effects == ()


def test_a_reply_to_the_steward_without_the_record_is_a_lapse_on_record() -> None:
    case = playing_the_steward()
    lapse = case.reply_without_record(Side.WHITE, date(2025, 4, 28), revision=0)
    assert lapse.case.lapses == (RecordReceipt(Side.WHITE, date(2025, 4, 28)),)
    assert [(e.to, e.template) for e in lapse.effects] == [
        (Addressee.WHITE, LetterTemplate.GAME_RECORD_MISSING),
        (Addressee.STEWARD, LetterTemplate.GAME_RECORD_MISSING)]
    with pytest.raises(DuplicateSubmission):
        lapse.case.reply_without_record(Side.WHITE, date(2025, 4, 29), revision=1)
    # Black no longer plays the steward: his record is due within the fifteen days instead.
    with pytest.raises(IllegalTransition, match="002 §4.5.1"):
        case.reply_without_record(Side.BLACK, date(2025, 4, 28), revision=0)
    # Nothing came from black either: after the fifteen days both lose (002 §4.5.8).
    assert lapse.case.settle(date(2025, 5, 6), revision=1).case.ruling == "both_minus"


def test_no_minus_while_a_record_is_still_due_with_the_next_reply() -> None:
    with pytest.raises(WindowOpen, match="next reply"):
        playing_the_steward().settle(date(2025, 5, 6), revision=0)
