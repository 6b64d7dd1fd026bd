"""Overstep claims (002 §4.3.6–4.3.8) and the organizer's hearing of them (§4.1.12)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Addressee,
    CaseClosed,
    CaseConflict,
    CaseState,
    Channel,
    DecisionFinal,
    Evidence,
    IllegalTransition,
    ImpossibleDates,
    Instance,
    LetterTemplate,
    MissingEvidence,
    NotApprovedOnCompleteFile,
    OverstepClaim,
    OverstepRuling,
    ProtestAlreadyFiled,
    ProtestIncomplete,
    ProtestOutOfTime,
    ReasonsRequired,
    Side,
    UnknownRuling,
    WindowOpen,
)
from adjudication.effects import (
    ClearResult,
    ForwardHeldMove,
    ImposePenalty,
    RecordResult,
    ResumeGame,
    RevokePenalty,
    SendLetter,
    SuspendGame,
)
from adjudication.outcomes import GameOutcome

CLAIMED = date(2025, 3, 1)
FULL_POSTAL_FILE = frozenset(Evidence)
PROTEST_MATERIALS = FULL_POSTAL_FILE - {Evidence.OVERSTEP_NOTICE}


def postal_claim(evidence: frozenset[Evidence] = FULL_POSTAL_FILE) -> OverstepClaim:
    return OverstepClaim.open(
        "c1",
        game="g1",
        claimant=Side.WHITE,
        claimed_on=CLAIMED,
        channel=Channel.POST,
        held_move="c3-d4",
        evidence=evidence,
        notice_received_on=date(2025, 3, 4),
    ).case


def email_claim() -> OverstepClaim:
    return OverstepClaim.open(
        "c2",
        game="g2",
        claimant=Side.BLACK,
        claimed_on=CLAIMED,
        channel=Channel.EMAIL,
        held_move="f6-g5",
        detected_by_server=True,
    ).case


def letters(effects: tuple[object, ...]) -> list[tuple[Addressee, LetterTemplate]]:
    return [(e.to, e.template) for e in effects if isinstance(e, SendLetter)]


def test_opening_suspends_the_game_and_tells_steward_and_referee() -> None:
    transition = OverstepClaim.open(
        "c1",
        game="g1",
        claimant=Side.WHITE,
        claimed_on=CLAIMED,
        channel=Channel.POST,
        held_move="c3-d4",
    )
    assert transition.case.state is CaseState.AWAITING_DECISION
    assert transition.case.offender is Side.BLACK
    assert transition.effects[0] == SuspendGame("g1", "002 §4.3.6")
    # By post the claimant sent the registered notice himself: no letter to the offender.
    assert letters(transition.effects) == [
        (Addressee.STEWARD, LetterTemplate.OVERSTEP_CLAIM_OPENED),
        (Addressee.REFEREE, LetterTemplate.OVERSTEP_CLAIM_OPENED),
    ]


def test_server_detected_claim_holds_the_whole_file_and_notifies_the_offender() -> None:
    transition = OverstepClaim.open(
        "c2",
        game="g2",
        claimant=Side.BLACK,
        claimed_on=CLAIMED,
        channel=Channel.EMAIL,
        held_move="f6-g5",
        detected_by_server=True,
    )
    claim = transition.case
    assert claim.missing_evidence == frozenset()
    assert Evidence.REGISTERED_RECEIPTS not in claim.required_evidence
    assert claim.notice_received_on == CLAIMED
    assert (Addressee.WHITE, LetterTemplate.OVERSTEP_CLAIM_OPENED) in letters(transition.effects)


def test_server_cannot_detect_a_postal_overstep() -> None:
    with pytest.raises(IllegalTransition, match="002 §4.3.6"):
        OverstepClaim.open(
            "c3",
            game="g3",
            claimant=Side.WHITE,
            claimed_on=CLAIMED,
            channel=Channel.POST,
            held_move="c3-d4",
            detected_by_server=True,
        )


def test_notice_cannot_be_received_before_the_claim() -> None:
    with pytest.raises(ImpossibleDates, match="002 §4.3.6"):
        OverstepClaim.open(
            "c3",
            game="g3",
            claimant=Side.WHITE,
            claimed_on=CLAIMED,
            channel=Channel.POST,
            held_move="c3-d4",
            notice_received_on=date(2025, 2, 27),
        )


def test_confirmed_claim_is_a_loss_for_the_offender() -> None:
    claim = postal_claim()
    transition = claim.decide(OverstepRuling.CONFIRMED, date(2025, 3, 15), revision=0)
    assert transition.case.state is CaseState.DECIDED
    assert transition.case.revision == 1
    assert transition.effects[0] == RecordResult(
        "g1", GameOutcome.loss_for(Side.BLACK), "002 §4.3.7"
    )
    assert letters(transition.effects) == [
        (Addressee.WHITE, LetterTemplate.OVERSTEP_CONFIRMED),
        (Addressee.BLACK, LetterTemplate.OVERSTEP_CONFIRMED),
        (Addressee.STEWARD, LetterTemplate.OVERSTEP_CONFIRMED),
    ]
    assert transition.case.last_decision is not None
    assert transition.case.last_decision.rules == ("002 §4.3.7",)


def test_rejected_claim_forwards_the_held_move_and_penalises_the_claimant() -> None:
    transition = postal_claim().decide(OverstepRuling.REJECTED, date(2025, 3, 6), revision=0)
    assert transition.effects[:3] == (
        ResumeGame("g1", date(2025, 3, 6), "002 §4.3.7"),
        ForwardHeldMove("g1", Side.BLACK, "002 §4.3.7"),
        ImposePenalty("g1", Side.WHITE, 6, "002 §4.3.7"),
    )


def test_incomplete_file_is_not_approved_and_play_continues_without_penalty() -> None:
    claim = postal_claim(FULL_POSTAL_FILE - {Evidence.TIME_CHART})
    assert claim.missing_evidence == {Evidence.TIME_CHART}
    transition = claim.decide(OverstepRuling.NOT_APPROVED, date(2025, 3, 6), revision=0)
    assert not any(isinstance(e, ImposePenalty) for e in transition.effects)
    assert ForwardHeldMove("g1", Side.BLACK, "002 §4.3.7") in transition.effects
    assert (Addressee.WHITE, LetterTemplate.OVERSTEP_NOT_APPROVED) in letters(transition.effects)


@pytest.mark.parametrize("ruling", [OverstepRuling.CONFIRMED, OverstepRuling.REJECTED])
def test_decision_on_the_merits_needs_the_whole_file(ruling: OverstepRuling) -> None:
    claim = postal_claim(FULL_POSTAL_FILE - {Evidence.REGISTERED_RECEIPTS, Evidence.TIME_CHART})
    with pytest.raises(MissingEvidence) as raised:
        claim.decide(ruling, date(2025, 3, 20), revision=0)
    assert raised.value.missing == {"registered_receipts", "time_chart"}
    assert "002 §4.3.7" in str(raised.value)


def test_evidence_arriving_later_completes_the_file() -> None:
    claim = postal_claim(frozenset({Evidence.OFFENDER_LETTERS}))
    claim = claim.add_evidence(FULL_POSTAL_FILE - {Evidence.OFFENDER_LETTERS}, revision=0).case
    assert claim.missing_evidence == frozenset()
    assert claim.revision == 1


def test_confirmation_waits_for_the_accused_ten_days() -> None:
    claim = postal_claim()  # notice received 4 March: protest possible until 14 March
    assert claim.objection_due == date(2025, 3, 14)
    with pytest.raises(WindowOpen) as raised:
        claim.decide(OverstepRuling.CONFIRMED, date(2025, 3, 14), revision=0)
    assert raised.value.due == date(2025, 3, 14)
    assert "002 §4.3.8" in str(raised.value)
    # Day 11 after the notice: silence may be taken as admission.
    assert (
        claim.decide(OverstepRuling.CONFIRMED, date(2025, 3, 15), revision=0).case.ruling
        == "confirmed"
    )


def test_protest_of_the_accused_on_day_ten_is_in_time_and_lets_the_referee_decide() -> None:
    claim = postal_claim().protest_claim(date(2025, 3, 14), revision=0, grounds="chart wrong",
                                         materials=PROTEST_MATERIALS).case
    assert claim.objection is not None
    assert claim.objection.to is Instance.REFEREE
    decided = claim.decide(OverstepRuling.CONFIRMED, date(2025, 3, 14), revision=1).case
    assert decided.last_decision is not None
    assert decided.last_decision.rules == ("002 §4.3.7", "002 §4.3.8")


def test_protest_of_the_accused_on_day_eleven_is_refused_with_its_due_date() -> None:
    with pytest.raises(ProtestOutOfTime) as raised:
        postal_claim().protest_claim(date(2025, 3, 15), revision=0)
    assert raised.value.due == date(2025, 3, 14)
    assert "2025-03-14" in str(raised.value)
    assert "002 §4.3.8" in str(raised.value)


def test_accused_protests_the_claim_only_once() -> None:
    claim = postal_claim().protest_claim(date(2025, 3, 5), revision=0, grounds="chart wrong",
                                         materials=PROTEST_MATERIALS).case
    with pytest.raises(ProtestAlreadyFiled):
        claim.protest_claim(date(2025, 3, 6), revision=1, grounds="again",
                            materials=PROTEST_MATERIALS)


def test_claim_cannot_be_protested_or_completed_after_the_decision() -> None:
    decided = postal_claim().decide(OverstepRuling.REJECTED, date(2025, 3, 6), revision=0).case
    with pytest.raises(IllegalTransition):
        decided.protest_claim(date(2025, 3, 7), revision=1)
    with pytest.raises(IllegalTransition):
        decided.add_evidence(frozenset({Evidence.TIME_CHART}), revision=1)


def test_deciding_twice_is_illegal() -> None:
    decided = postal_claim().decide(OverstepRuling.REJECTED, date(2025, 3, 6), revision=0).case
    with pytest.raises(IllegalTransition):
        decided.decide(OverstepRuling.CONFIRMED, date(2025, 3, 20), revision=1)


def test_second_referee_with_a_stale_form_gets_a_conflict() -> None:
    claim = postal_claim()
    claim.decide(OverstepRuling.REJECTED, date(2025, 3, 6), revision=0)  # first referee
    stored = claim.decide(OverstepRuling.REJECTED, date(2025, 3, 6), revision=0).case
    with pytest.raises(CaseConflict) as raised:
        stored.decide(OverstepRuling.CONFIRMED, date(2025, 3, 20), revision=0)
    assert (raised.value.expected, raised.value.actual) == (0, 1)


def test_unknown_ruling_is_refused() -> None:
    with pytest.raises(UnknownRuling):
        postal_claim().decide("maybe", date(2025, 3, 20), revision=0)


def test_organizer_overturning_a_rejection_revokes_the_penalty_and_records_the_loss() -> None:
    claim = email_claim().decide(OverstepRuling.REJECTED, date(2025, 3, 2), revision=0).case
    claim = claim.protest("black", date(2025, 3, 12), revision=1).case
    assert claim.state is CaseState.UNDER_PROTEST
    transition = claim.decide_protest("confirmed", date(2025, 3, 20), revision=2)
    assert transition.case.state is CaseState.CLOSED
    assert transition.effects[:2] == (
        RecordResult("g2", GameOutcome.loss_for(Side.WHITE), "002 §4.3.7"),
        RevokePenalty("g2", Side.BLACK, 6, "002 §4.1.12"),
    )


def test_organizer_overturning_a_confirmation_clears_the_result_and_resumes_play() -> None:
    claim = email_claim().decide(OverstepRuling.CONFIRMED, date(2025, 3, 12), revision=0).case
    claim = claim.protest("white", date(2025, 3, 13), revision=1).case
    effects = claim.decide_protest("not_approved", date(2025, 3, 25), revision=2).effects
    assert effects[0] == ClearResult("g2", "002 §4.1.12")
    assert ResumeGame("g2", date(2025, 3, 25), "002 §4.3.7") in effects
    assert not any(isinstance(e, ImposePenalty) for e in effects)


def test_organizer_upholding_changes_nothing_but_writes_letters() -> None:
    claim = email_claim().decide(OverstepRuling.CONFIRMED, date(2025, 3, 12), revision=0).case
    claim = claim.protest("white", date(2025, 3, 13), revision=1).case
    transition = claim.decide_protest("confirmed", date(2025, 3, 25), revision=2)
    assert all(isinstance(e, SendLetter) for e in transition.effects)
    assert letters(transition.effects) == [
        (Addressee.WHITE, LetterTemplate.PROTEST_DECISION),
        (Addressee.BLACK, LetterTemplate.PROTEST_DECISION),
        (Addressee.STEWARD, LetterTemplate.PROTEST_DECISION),
    ]
    with pytest.raises(CaseClosed):
        transition.case.protest("black", date(2025, 3, 26), revision=3)


def test_organizer_decision_is_final() -> None:
    claim = email_claim().decide(OverstepRuling.CONFIRMED, date(2025, 3, 12), revision=0).case
    claim = claim.protest("white", date(2025, 3, 13), revision=1).case
    # Both parties protest the referee's decision; the organizer's answer ends the case.
    claim = claim.protest("black", date(2025, 3, 14), revision=2).case
    final = claim.decide_protest("rejected", date(2025, 3, 25), revision=3).case
    assert final.is_closed
    assert final.last_decision is not None
    assert final.last_decision.instance is Instance.ORGANIZER


def test_protest_to_the_organizer_goes_with_a_letter() -> None:
    claim = email_claim().decide(OverstepRuling.CONFIRMED, date(2025, 3, 12), revision=0).case
    transition = claim.protest("white", date(2025, 3, 22), revision=1)
    assert letters(transition.effects) == [(Addressee.ORGANIZER, LetterTemplate.PROTEST_RECEIVED)]
    with pytest.raises(ProtestOutOfTime) as raised:
        claim.protest("black", date(2025, 3, 23), revision=1)
    assert raised.value.due == date(2025, 3, 22)


def test_a_protest_of_a_final_decision_is_refused() -> None:
    claim = email_claim().decide(OverstepRuling.CONFIRMED, date(2025, 3, 12), revision=0).case
    claim = claim.protest("white", date(2025, 3, 13), revision=1).case
    final = claim.decide_protest("confirmed", date(2025, 3, 20), revision=2).case
    with pytest.raises(DecisionFinal) as raised:
        final.protest("black", date(2025, 3, 21), revision=3)
    assert "002 §4.1.12" in str(raised.value)
    assert "organizer" in str(raised.value)


@pytest.mark.parametrize(
    ("chart_shows_overstep", "ruling"),
    [(False, OverstepRuling.CONFIRMED), (True, OverstepRuling.REJECTED)],
)
def test_deciding_against_the_recomputed_chart_needs_reasons(
    chart_shows_overstep: bool, ruling: OverstepRuling
) -> None:
    claim = OverstepClaim.open(
        "c4",
        game="g4",
        claimant=Side.WHITE,
        claimed_on=CLAIMED,
        channel=Channel.POST,
        held_move="c3-d4",
        evidence=FULL_POSTAL_FILE,
        chart_shows_overstep=chart_shows_overstep,
    ).case
    on = date(2025, 3, 20)
    with pytest.raises(ReasonsRequired, match="002 §4.3.7"):
        claim.decide(ruling, on, revision=0)
    reasons = "receipt of 3 Feb shows the letter arrived a week later than stated"
    decided = claim.decide(ruling, on, revision=0, reasons=reasons).case
    assert decided.last_decision is not None and decided.last_decision.reasons == reasons


def test_deciding_with_the_chart_needs_no_reasons() -> None:
    claim = OverstepClaim.open(
        "c5",
        game="g5",
        claimant=Side.WHITE,
        claimed_on=CLAIMED,
        channel=Channel.POST,
        held_move="c3-d4",
        evidence=FULL_POSTAL_FILE,
        chart_shows_overstep=True,
    ).case
    assert (
        claim.decide(OverstepRuling.CONFIRMED, date(2025, 3, 20), revision=0).case.is_closed
        is False
    )


def test_player_claim_in_an_email_game_has_the_servers_file() -> None:
    claim = OverstepClaim.open(
        "c6",
        game="g6",
        claimant=Side.WHITE,
        claimed_on=CLAIMED,
        channel=Channel.EMAIL,
        held_move="c3-d4",
    ).case
    assert not claim.detected_by_server
    assert claim.missing_evidence == frozenset()


def test_a_complete_file_cannot_be_left_unapproved() -> None:
    # The defect: with the whole file the referee could leave the claim unapproved and the
    # claimant who claimed wrongly escaped his 6 days. 002 §4.3.7 allows "не утверждать" only
    # when the materials came incompletely.
    claim = postal_claim()
    with pytest.raises(NotApprovedOnCompleteFile) as raised:
        claim.decide(OverstepRuling.NOT_APPROVED, date(2025, 3, 6), revision=0)
    assert raised.value.rule == "002 §4.3.7" and "002 §4.3.7" in str(raised.value)
    assert raised.value.code == "not_approved_on_complete_file"
    assert raised.value.params == {"case_id": "c1", "evidence": ", ".join(sorted(e.value for e in Evidence))}
    with pytest.raises(NotApprovedOnCompleteFile):
        email_claim().decide(OverstepRuling.NOT_APPROVED, date(2025, 3, 6), revision=0)
    # On that file a rejection charges the claimant.
    rejected = claim.decide(OverstepRuling.REJECTED, date(2025, 3, 6), revision=0)
    assert ImposePenalty("g1", Side.WHITE, 6, "002 §4.3.7") in rejected.effects


def test_the_accused_protest_needs_grounds_and_the_materials() -> None:
    # 002 §4.3.8: "обоснованный протест и материалы, указанные в пункте 4.3.6".
    claim = postal_claim()
    with pytest.raises(ProtestIncomplete) as raised:
        claim.protest_claim(date(2025, 3, 5), revision=0, materials=PROTEST_MATERIALS)
    assert raised.value.rule == "002 §4.3.8" and raised.value.code == "protest_incomplete"
    assert raised.value.params == {"case_id": "c1", "missing": "grounds"}
    with pytest.raises(ProtestIncomplete) as raised:
        claim.protest_claim(date(2025, 3, 5), revision=0, grounds="  ",
                            materials=frozenset({Evidence.GAME_RECORD}))
    assert raised.value.params["missing"] == (
        "grounds, offender_letters, registered_receipts, time_chart")
    assert "002 §4.3.8" in str(raised.value)
    with pytest.raises(ProtestIncomplete) as raised:
        claim.protest_claim(date(2025, 3, 5), revision=0, grounds="the chart omits my break")
    assert raised.value.grounds_missing is False
    assert claim.objection is None  # nothing recorded by a refused protest
    # In an e-mail game the server holds the materials: grounds suffice.
    protested = email_claim().protest_claim(CLAIMED, revision=0, grounds="my break").case
    assert protested.objection is not None and protested.objection.grounds == "my break"
