"""Disputes and the chain of protests steward → referee → organizer (002 §4.1.12)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Addressee,
    CaseConflict,
    CaseState,
    DecisionFinal,
    Dispute,
    DisputeRuling,
    IllegalTransition,
    Instance,
    LetterTemplate,
    ProtestAlreadyFiled,
    ProtestOutOfTime,
    Side,
)
from adjudication.effects import SendLetter


def dispute() -> Dispute:
    return Dispute.open(
        "d1",
        game="g1",
        complainant=Side.WHITE,
        subject="move not repeated",
        filed_on=date(2025, 2, 1),
    ).case


def test_full_chain_to_the_organizer() -> None:
    decided = dispute().decide(DisputeRuling.DISMISSED, date(2025, 2, 3), revision=0)
    assert [(e.to, e.template) for e in decided.effects if isinstance(e, SendLetter)] == [
        (Addressee.WHITE, LetterTemplate.DISPUTE_DECISION),
        (Addressee.BLACK, LetterTemplate.DISPUTE_DECISION),
    ]
    case = decided.case
    assert case.last_decision is not None and case.last_decision.instance is Instance.STEWARD
    case = case.protest("white", date(2025, 2, 13), revision=1).case
    assert case.protests[-1].to is Instance.REFEREE
    case = case.decide_protest("dismissed", date(2025, 2, 15), revision=2).case
    assert case.state is CaseState.DECIDED
    with pytest.raises(ProtestAlreadyFiled):
        # A protest against the referee's decision is a new one; the steward's was heard.
        case.protest("white", date(2025, 2, 16), revision=3).case.protest(
            "white", date(2025, 2, 17), revision=4
        )
    case = case.protest("white", date(2025, 2, 25), revision=3).case
    assert case.protests[-1].to is Instance.ORGANIZER
    final = case.decide_protest("upheld", date(2025, 3, 1), revision=4).case
    assert final.is_closed and final.ruling == "upheld"
    with pytest.raises(DecisionFinal):
        final.protest("black", date(2025, 3, 2), revision=5)


def test_day_ten_in_time_day_eleven_late() -> None:
    case = dispute().decide(DisputeRuling.UPHELD, date(2025, 2, 28), revision=0).case
    assert (
        case.protest("black", date(2025, 3, 10), revision=1).case.state is CaseState.UNDER_PROTEST
    )
    with pytest.raises(ProtestOutOfTime) as raised:
        case.protest("black", date(2025, 3, 11), revision=1)
    assert raised.value.due == date(2025, 3, 10)
    assert "002 §4.1.12" in str(raised.value)


def test_protest_needs_a_pending_protest_to_decide_and_a_fresh_revision() -> None:
    case = dispute()
    with pytest.raises(IllegalTransition):
        case.decide_protest("upheld", date(2025, 2, 2), revision=0)
    with pytest.raises(CaseConflict):
        case.decide(DisputeRuling.UPHELD, date(2025, 2, 2), revision=7)
    decided = case.decide(DisputeRuling.UPHELD, date(2025, 2, 2), revision=0).case
    with pytest.raises(IllegalTransition):
        decided.decide(DisputeRuling.DISMISSED, date(2025, 2, 2), revision=1)


def test_receipt_acknowledged_moves_the_window() -> None:
    case = dispute().decide(DisputeRuling.UPHELD, date(2025, 2, 28), revision=0).case
    case = case.acknowledge_receipt("black", date(2025, 3, 4), revision=1).case
    assert case.protest_due("black") == date(2025, 3, 14)
    assert case.protest_due("white") == date(2025, 3, 10)
    deadline = case.deadline_on(date(2025, 3, 1))
    assert deadline is not None and deadline.due == date(2025, 3, 14)
    with pytest.raises(IllegalTransition):
        dispute().acknowledge_receipt("black", date(2025, 3, 4), revision=0)
