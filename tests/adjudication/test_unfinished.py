"""Adjudication of unfinished games (002 §4.5.2–4.5.7)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Addressee,
    Adjudication,
    AgreedResultBinding,
    Assessment,
    CaseClosed,
    CaseState,
    DecisionFinal,
    DuplicateSubmission,
    IllegalTransition,
    ImpossibleDates,
    Instance,
    LetterTemplate,
    NoRightToProtest,
    ProtestAlreadyFiled,
    ProtestOutOfTime,
    ReasonsRequired,
    Side,
    Verdict,
    WindowOpen,
)
from adjudication.effects import RecordResult, SendLetter, SuspendGame
from adjudication.outcomes import GameOutcome

END = date(2025, 1, 21)  # analyses due 31 January
DUE = date(2025, 1, 31)


def opened() -> Adjudication:
    return Adjudication.open("a1", game="g1", end_date=END, diagram="W:W21,22:B9,10").case


def with_submissions(
    white: Assessment | None, black: Assessment | None, sent_on: date = date(2025, 1, 25)
) -> Adjudication:
    case = opened()
    if white is not None:
        case = case.submit(
            Side.WHITE, white, "1.cd4 ...", sent_on=sent_on, revision=case.revision
        ).case
    if black is not None:
        case = case.submit(
            Side.BLACK, black, "1...ba5", sent_on=sent_on, revision=case.revision
        ).case
    return case


def letters(effects: tuple[object, ...]) -> list[tuple[Addressee, LetterTemplate]]:
    return [(e.to, e.template) for e in effects if isinstance(e, SendLetter)]


def test_opening_suspends_the_game_and_asks_both_players() -> None:
    transition = Adjudication.open("a1", game="g1", end_date=END)
    assert transition.case.state is CaseState.AWAITING_PARTIES
    assert transition.effects[0] == SuspendGame("g1", "002 §4.5.2")
    assert letters(transition.effects) == [
        (Addressee.WHITE, LetterTemplate.ADJUDICATION_REQUEST),
        (Addressee.BLACK, LetterTemplate.ADJUDICATION_REQUEST),
    ]
    assert transition.case.analyses_due == DUE


def test_analysis_on_day_ten_is_in_time_and_day_eleven_is_late() -> None:
    case = opened()
    case = case.submit(Side.WHITE, Assessment.WIN, "", sent_on=DUE, revision=0).case
    case = case.submit(Side.BLACK, Assessment.DRAW, "", sent_on=date(2025, 2, 1), revision=1).case
    assert case.sent_in_time(Side.WHITE)
    assert not case.sent_in_time(Side.BLACK)
    assert case.state is CaseState.AWAITING_DECISION


def test_second_submission_from_the_same_player_is_refused() -> None:
    case = with_submissions(Assessment.WIN, None)
    with pytest.raises(DuplicateSubmission, match="002 §4.5.2"):
        case.submit(Side.WHITE, Assessment.DRAW, "", sent_on=date(2025, 1, 26), revision=1)


def test_matching_assessments_fix_the_result() -> None:
    case = with_submissions(Assessment.WIN, Assessment.LOSS)
    assert case.agreed_verdict is Verdict.WHITE_WINS
    transition = case.fix_agreed_result(date(2025, 1, 27), revision=2)
    assert transition.effects[0] == RecordResult(
        "g1", GameOutcome.win_for(Side.WHITE, adjudicated=True), "002 §4.5.4"
    )
    # Nobody's assessment differs: both players and the steward are told the result, nobody
    # that it differs from his assessment (002 §4.5.5).
    assert letters(transition.effects) == [
        (Addressee.WHITE, LetterTemplate.ADJUDICATION_RESULT),
        (Addressee.BLACK, LetterTemplate.ADJUDICATION_RESULT),
        (Addressee.STEWARD, LetterTemplate.ADJUDICATION_RESULT),
    ]
    assert transition.case.last_decision is not None
    assert transition.case.last_decision.rules == ("002 §4.5.4",)


def test_agreed_result_binds_the_referee_unless_sharply_contradicting() -> None:
    case = with_submissions(Assessment.DRAW, Assessment.DRAW)
    with pytest.raises(AgreedResultBinding) as raised:
        case.decide(Verdict.BLACK_WINS, date(2025, 2, 5), revision=2)
    assert raised.value.agreed == "draw"
    with pytest.raises(ReasonsRequired, match="002 §4.5.4"):
        case.decide(Verdict.BLACK_WINS, date(2025, 2, 5), revision=2, sharply_contradicting=True)
    overridden = case.decide(
        Verdict.BLACK_WINS,
        date(2025, 2, 5),
        revision=2,
        sharply_contradicting=True,
        reasons="black queens by force: 1...gh4 2.fg5 hf2",
    )
    assert overridden.case.agreement_overridden
    assert overridden.effects[0] == RecordResult(
        "g1", GameOutcome.win_for(Side.BLACK, adjudicated=True), "002 §4.5.5"
    )
    assert letters(overridden.effects)[:2] == [
        (Addressee.WHITE, LetterTemplate.ADJUDICATION_RESULT_DIFFERS),
        (Addressee.BLACK, LetterTemplate.ADJUDICATION_RESULT_DIFFERS),
    ]


def test_sharply_contradicting_needs_an_agreement_to_set_aside() -> None:
    case = with_submissions(Assessment.WIN, Assessment.WIN)
    assert case.agreed_verdict is None
    with pytest.raises(IllegalTransition, match="002 §4.5.4"):
        case.decide(Verdict.DRAW, date(2025, 2, 5), revision=2, sharply_contradicting=True)
    agreed = with_submissions(Assessment.DRAW, Assessment.DRAW)
    with pytest.raises(IllegalTransition, match="002 §4.5.4"):
        agreed.decide(Verdict.DRAW, date(2025, 2, 5), revision=2, sharply_contradicting=True)
    with pytest.raises(IllegalTransition, match="002 §4.5.4"):
        case.fix_agreed_result(date(2025, 2, 5), revision=2)


def test_conflicting_assessments_are_decided_and_the_differing_player_told() -> None:
    case = with_submissions(Assessment.WIN, Assessment.WIN)
    transition = case.decide(
        Verdict.WHITE_WINS, date(2025, 2, 10), revision=2, reasons="won ending"
    )
    assert letters(transition.effects) == [
        (Addressee.WHITE, LetterTemplate.ADJUDICATION_RESULT),
        (Addressee.BLACK, LetterTemplate.ADJUDICATION_RESULT_DIFFERS),
        (Addressee.STEWARD, LetterTemplate.ADJUDICATION_RESULT),
    ]
    assert transition.case.state is CaseState.DECIDED


def test_referee_waits_for_the_analysis_window_unless_both_arrived() -> None:
    one_sided = with_submissions(Assessment.WIN, None)
    with pytest.raises(WindowOpen) as raised:
        one_sided.decide(Verdict.WHITE_WINS, DUE, revision=1)
    assert raised.value.due == DUE
    decided = one_sided.decide(Verdict.WHITE_WINS, date(2025, 2, 1), revision=1)
    # The silent player is told the result too, not that it "differs from his assessment".
    assert (Addressee.BLACK, LetterTemplate.ADJUDICATION_RESULT) in letters(decided.effects)
    assert (Addressee.BLACK, LetterTemplate.ADJUDICATION_RESULT_DIFFERS) not in letters(
        decided.effects)
    both = with_submissions(Assessment.DRAW, Assessment.WIN)
    assert both.decide(Verdict.DRAW, date(2025, 1, 26), revision=2).case.ruling == "draw"


def test_no_analyses_at_all_the_referee_decides_after_day_ten() -> None:
    case = opened()
    assert case.decide(Verdict.DRAW, date(2025, 2, 1), revision=0).case.ruling == "draw"


def test_referee_month_runs_from_the_later_receipt() -> None:
    case = opened()
    case = case.submit(Side.WHITE, Assessment.WIN, "", sent_on=date(2025, 1, 22), revision=0).case
    case = case.submit(
        Side.BLACK,
        Assessment.WIN,
        "",
        sent_on=date(2025, 1, 29),
        received_on=date(2025, 2, 3),
        revision=1,
    ).case
    assert case.month_starts == date(2025, 2, 3)
    assert case.decision_due == date(2025, 3, 3)
    deadline = case.deadline_on(date(2025, 2, 4))
    assert deadline is not None and deadline.rule == "002 §4.5.5"


def test_referee_month_from_the_window_end_when_an_analysis_is_missing() -> None:
    case = with_submissions(Assessment.WIN, None, sent_on=date(2025, 1, 22))
    assert case.month_starts == DUE
    assert case.decision_due == date(2025, 2, 28)  # 31 January + one month


def test_referee_month_across_a_leap_february() -> None:
    case = Adjudication.open("a2", game="g2", end_date=date(2028, 1, 21)).case
    assert case.decision_due == date(2028, 2, 29)


def test_deadlines_show_analyses_first_then_the_decision() -> None:
    case = opened()
    first = case.deadline_on(date(2025, 1, 25))
    assert first is not None and first.due == DUE and first.rule == "002 §4.5.2"
    later = case.deadline_on(date(2025, 2, 2))
    assert later is not None and later.due == date(2025, 2, 28)
    assert case.awaiting_on(date(2025, 1, 25)).value == "players"  # type: ignore[union-attr]


def test_protest_goes_to_the_organizer_within_ten_days() -> None:
    case = with_submissions(Assessment.WIN, Assessment.WIN)
    decided = case.decide(Verdict.WHITE_WINS, date(2025, 2, 10), revision=2).case
    decided = decided.acknowledge_receipt("black", date(2025, 2, 14), revision=3).case
    assert decided.protest_due("black") == date(2025, 2, 24)
    with pytest.raises(ProtestOutOfTime) as raised:
        decided.protest("black", date(2025, 2, 25), revision=4)
    assert raised.value.due == date(2025, 2, 24)
    assert "002 §4.5.6" in str(raised.value)
    protested = decided.protest("black", date(2025, 2, 24), revision=4).case
    assert protested.protests[-1].to is Instance.ORGANIZER
    with pytest.raises(ProtestAlreadyFiled):
        protested.protest("black", date(2025, 2, 24), revision=5)
    final = protested.decide_protest("draw", date(2025, 3, 1), revision=5)
    assert final.case.is_closed
    assert final.effects[0] == RecordResult("g1", GameOutcome.draw(adjudicated=True), "002 §4.5.7")
    with pytest.raises(DecisionFinal, match="002 §4.5.7"):
        final.case.protest("white", date(2025, 3, 2), revision=6)


def test_protest_date_of_receipt_stated_in_the_protest_counts() -> None:
    case = with_submissions(Assessment.WIN, Assessment.WIN)
    decided = case.decide(Verdict.WHITE_WINS, date(2025, 2, 10), revision=2).case
    with pytest.raises(ProtestOutOfTime):
        decided.protest("black", date(2025, 2, 21), revision=3)
    assert (
        decided.protest(
            "black", date(2025, 2, 21), revision=3, received_on=date(2025, 2, 12)
        ).case.state
        is CaseState.UNDER_PROTEST
    )


def test_no_analysis_in_time_no_right_to_protest() -> None:
    case = with_submissions(Assessment.WIN, None)
    case = case.submit(Side.BLACK, Assessment.WIN, "", sent_on=date(2025, 2, 1), revision=1).case
    decided = case.decide(Verdict.WHITE_WINS, date(2025, 2, 10), revision=2).case
    with pytest.raises(NoRightToProtest) as raised:
        decided.protest("black", date(2025, 2, 11), revision=3)
    assert "2025-01-31" in str(raised.value)
    assert "002 §4.5.6" in str(raised.value)
    # Only white may protest, so only his window keeps the case open.
    deadline = decided.deadline_on(date(2025, 2, 11))
    assert deadline is not None and deadline.due == date(2025, 2, 20)


def test_stranger_cannot_protest() -> None:
    decided = (
        with_submissions(Assessment.WIN, Assessment.WIN)
        .decide(Verdict.WHITE_WINS, date(2025, 2, 10), revision=2)
        .case
    )
    with pytest.raises(NoRightToProtest):
        decided.protest("steward", date(2025, 2, 11), revision=3)


def test_close_after_every_window_and_nothing_after() -> None:
    decided = (
        with_submissions(Assessment.WIN, Assessment.WIN)
        .decide(Verdict.WHITE_WINS, date(2025, 2, 10), revision=2)
        .case
    )
    with pytest.raises(IllegalTransition, match="2025-02-20"):
        decided.close(date(2025, 2, 20), revision=3)
    closed = decided.close(date(2025, 2, 21), revision=3).case
    assert closed.is_closed
    with pytest.raises(CaseClosed):
        closed.decide(Verdict.DRAW, date(2025, 2, 22), revision=4)
    with pytest.raises(CaseClosed):
        closed.protest("black", date(2025, 2, 21), revision=4)
    with pytest.raises(IllegalTransition):
        closed.submit(Side.WHITE, Assessment.WIN, "", sent_on=date(2025, 2, 21), revision=4)


def test_submission_after_the_decision_is_refused() -> None:
    decided = opened().decide(Verdict.DRAW, date(2025, 2, 1), revision=0).case
    with pytest.raises(IllegalTransition, match="002 §4.5.5"):
        decided.submit(Side.WHITE, Assessment.WIN, "", sent_on=date(2025, 2, 2), revision=1)


def test_cannot_close_or_decide_a_protest_before_a_decision() -> None:
    case = opened()
    with pytest.raises(IllegalTransition):
        case.close(date(2025, 6, 1), revision=0)
    with pytest.raises(IllegalTransition):
        case.protest("white", date(2025, 2, 1), revision=0)
    with pytest.raises(IllegalTransition):
        case.decide_protest("draw", date(2025, 2, 1), revision=0)


def test_stated_receipt_in_a_protest_is_kept_on_the_decision() -> None:
    decided = (
        with_submissions(Assessment.WIN, Assessment.WIN)
        .decide(Verdict.WHITE_WINS, date(2025, 2, 10), revision=2)
        .case
    )
    protested = decided.protest(
        "black", date(2025, 2, 21), revision=3, received_on=date(2025, 2, 12)
    ).case
    assert protested.protest_due("black") == date(2025, 2, 22)


def test_analysis_received_before_it_was_sent_is_refused() -> None:
    with pytest.raises(ImpossibleDates, match="002 §4.5.2"):
        opened().submit(
            Side.WHITE,
            Assessment.WIN,
            "",
            sent_on=date(2025, 1, 25),
            received_on=date(2025, 1, 24),
            revision=0,
        )
