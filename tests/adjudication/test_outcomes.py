"""Game outcomes handed to scoring (000 §3.15, 002 §4.5.8)."""

from __future__ import annotations

import pytest

from adjudication.outcomes import Assessment, GameOutcome, InvalidOutcome, OutcomeKind, Side


def test_constructors_give_consistent_pairs() -> None:
    assert GameOutcome.win_for(Side.BLACK) == GameOutcome(OutcomeKind.LOSS, OutcomeKind.WIN)
    assert GameOutcome.loss_for(Side.BLACK) == GameOutcome(OutcomeKind.WIN, OutcomeKind.LOSS)
    assert GameOutcome.forfeit_loss_for(Side.WHITE) == GameOutcome(
        OutcomeKind.FORFEIT_LOSS, OutcomeKind.FORFEIT_WIN
    )
    assert GameOutcome.both_lose().symbol == "−/−"
    assert GameOutcome.forfeit_loss_for(Side.BLACK).symbol == "+/−"
    assert GameOutcome.draw(adjudicated=True).symbol == "½-½"
    assert GameOutcome.annulled().for_side(Side.WHITE) is OutcomeKind.ANNULLED


@pytest.mark.parametrize(
    ("white", "black"),
    [
        (OutcomeKind.WIN, OutcomeKind.WIN),
        (OutcomeKind.WIN, OutcomeKind.DRAW),
        (OutcomeKind.FORFEIT_WIN, OutcomeKind.LOSS),
        (OutcomeKind.ANNULLED, OutcomeKind.DRAW),
        (OutcomeKind.FORFEIT_WIN, OutcomeKind.FORFEIT_WIN),
    ],
)
def test_impossible_pairs_are_refused(white: OutcomeKind, black: OutcomeKind) -> None:
    with pytest.raises(InvalidOutcome) as raised:
        GameOutcome(white, black)
    assert "000 §3.15" in str(raised.value)


def test_only_played_results_are_adjudicated() -> None:
    with pytest.raises(InvalidOutcome):
        GameOutcome(OutcomeKind.FORFEIT_WIN, OutcomeKind.FORFEIT_LOSS, adjudicated=True)


def test_assessment_is_from_the_assessing_side() -> None:
    assert Assessment.WIN.outcome_for(Side.BLACK) == GameOutcome.win_for(
        Side.BLACK, adjudicated=True
    )
    assert Assessment.LOSS.outcome_for(Side.WHITE) == GameOutcome.win_for(
        Side.BLACK, adjudicated=True
    )
