"""Withdrawal of a player (000 §3.14.3–3.14.5, 002 §4.5.3, §4.1.14)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from adjudication import (
    CaseState,
    Disposition,
    GameStatus,
    InvalidBan,
    InvalidCaseData,
    InvalidWithdrawalPlan,
    Side,
    TournamentSystem,
    Withdrawal,
    WithdrawalRuling,
    WithdrawnGame,
)
from adjudication.effects import OpenAdjudication, RecordBan, RecordResult
from adjudication.outcomes import GameOutcome
from adjudication.registry import case_from_dict

LEFT = date(2025, 6, 10)


def game(name: str, status: GameStatus, outcome: GameOutcome | None = None) -> WithdrawnGame:
    return WithdrawnGame(name, f"partner-{name}", Side.WHITE, status, outcome)


# Six games: three finished + one unfinished = four played (>= half).
AFTER_HALF = (
    game("g1", GameStatus.FINISHED, GameOutcome.win_for(Side.WHITE)),
    game("g2", GameStatus.FINISHED, GameOutcome.draw()),
    game("g3", GameStatus.FINISHED, GameOutcome.loss_for(Side.WHITE)),
    game("g4", GameStatus.UNFINISHED),
    game("g5", GameStatus.NOT_STARTED),
    game("g6", GameStatus.NOT_STARTED),
)
# Six games: one finished + one unfinished = two played (< half).
BEFORE_HALF = (
    game("g1", GameStatus.FINISHED, GameOutcome.win_for(Side.WHITE)),
    game("g2", GameStatus.UNFINISHED),
    game("g3", GameStatus.NOT_STARTED),
    game("g4", GameStatus.NOT_STARTED),
    game("g5", GameStatus.NOT_STARTED),
    game("g6", GameStatus.NOT_STARTED),
)


def withdrawal(
    games: tuple[WithdrawnGame, ...],
    system: TournamentSystem = TournamentSystem.ROUND_ROBIN,
    *,
    without_good_reason: bool = False,
) -> Withdrawal:
    return Withdrawal.open(
        "w1",
        player="p7",
        withdrew_on=LEFT,
        system=system,
        games=games,
        without_good_reason=without_good_reason,
    ).case


def results(effects: tuple[object, ...]) -> dict[str, GameOutcome]:
    return {e.game: e.outcome for e in effects if isinstance(e, RecordResult)}


def test_after_half_results_stand_unfinished_adjudicated_unplayed_minus_plus() -> None:
    case = withdrawal(AFTER_HALF)
    assert case.played == 4 and case.half_played and not case.referee_may_annul
    transition = case.decide(LEFT, revision=0)
    assert transition.case.ruling == "keep_results"
    assert results(transition.effects) == {
        "g5": GameOutcome.forfeit_loss_for(Side.WHITE),
        "g6": GameOutcome.forfeit_loss_for(Side.WHITE),
    }
    assert OpenAdjudication("g4", "000 §3.14.4") in transition.effects
    assert transition.case.last_decision is not None
    assert transition.case.last_decision.rules == ("000 §3.14.3", "000 §3.14.4")


def test_exactly_half_counts_as_half() -> None:
    two_of_four = (
        game("g1", GameStatus.FINISHED, GameOutcome.draw()),
        game("g2", GameStatus.UNFINISHED),
        game("g3", GameStatus.NOT_STARTED),
        game("g4", GameStatus.NOT_STARTED),
    )
    assert withdrawal(two_of_four).half_played is True
    two_of_five = two_of_four + (game("g5", GameStatus.NOT_STARTED),)
    assert withdrawal(two_of_five).half_played is False


def test_after_half_annulment_is_refused_naming_the_rule() -> None:
    case = withdrawal(AFTER_HALF)
    plan = {g.game: Disposition.ANNUL for g in AFTER_HALF}
    with pytest.raises(InvalidWithdrawalPlan) as raised:
        case.decide(LEFT, revision=0, plan=plan)
    assert "000 §3.14.3" in str(raised.value)
    assert "4 of 6 played" in str(raised.value)


def test_after_half_unfinished_games_must_be_adjudicated() -> None:
    case = withdrawal(AFTER_HALF)
    plan = {
        g.game: Disposition(d.disposition)
        for g, d in zip(AFTER_HALF, case.proposed_plan(), strict=True)
    }
    plan["g4"] = Disposition.LOSS
    with pytest.raises(InvalidWithdrawalPlan, match="000 §3.14.4"):
        case.decide(LEFT, revision=0, plan=plan)


def test_before_half_default_annuls_everything() -> None:
    case = withdrawal(BEFORE_HALF)
    assert case.referee_may_annul
    transition = case.decide(LEFT, revision=0)
    assert transition.case.ruling == "annul_results"
    assert set(results(transition.effects).values()) == {GameOutcome.annulled()}
    assert len(results(transition.effects)) == 6
    assert transition.case.last_decision is not None
    assert transition.case.last_decision.rules == ("002 §4.5.3",)


def test_before_half_referee_may_keep_results_and_declare_unfinished_lost() -> None:
    case = withdrawal(BEFORE_HALF)
    plan = {g.game: Disposition.FORFEIT for g in BEFORE_HALF}
    plan["g1"] = Disposition.KEEP
    plan["g2"] = Disposition.LOSS
    transition = case.decide(LEFT, revision=0, plan=plan)
    assert transition.case.ruling == "keep_results"
    outcomes = results(transition.effects)
    assert outcomes["g2"] == GameOutcome.loss_for(Side.WHITE)
    assert outcomes["g3"] == GameOutcome.forfeit_loss_for(Side.WHITE)
    assert "g1" not in outcomes  # the finished result stands untouched


def test_before_half_annulment_is_all_or_nothing() -> None:
    plan = {g.game: Disposition.ANNUL for g in BEFORE_HALF}
    plan["g1"] = Disposition.KEEP
    with pytest.raises(InvalidWithdrawalPlan, match="all the player's results or none"):
        withdrawal(BEFORE_HALF).decide(LEFT, revision=0, plan=plan)


def test_swiss_results_stand_even_before_half() -> None:
    case = withdrawal(BEFORE_HALF, TournamentSystem.SWISS)
    assert not case.referee_may_annul
    transition = case.decide(LEFT, revision=0)
    assert transition.case.ruling == "keep_results"
    assert OpenAdjudication("g2", "000 §3.14.4") in transition.effects
    with pytest.raises(InvalidWithdrawalPlan, match="000 §3.14.5"):
        case.decide(LEFT, revision=0, plan={g.game: Disposition.ANNUL for g in BEFORE_HALF})


@pytest.mark.parametrize(
    ("name", "disposition"),
    [
        ("g1", Disposition.LOSS),
        ("g1", Disposition.FORFEIT),
        ("g3", Disposition.KEEP),
        ("g3", Disposition.ADJUDICATE),
    ],
)
def test_dispositions_must_fit_the_game_status(name: str, disposition: Disposition) -> None:
    case = withdrawal(BEFORE_HALF)
    plan = {d.game: d.disposition for d in case.proposed_plan()}
    plan[name] = disposition
    with pytest.raises(InvalidWithdrawalPlan) as raised:
        case.decide(LEFT, revision=0, plan=plan)
    assert raised.value.game == name


def test_plan_must_cover_exactly_the_players_games() -> None:
    case = withdrawal(BEFORE_HALF)
    plan = {d.game: d.disposition for d in case.proposed_plan()}
    del plan["g6"]
    with pytest.raises(InvalidWithdrawalPlan, match="no disposition"):
        case.decide(LEFT, revision=0, plan=plan)
    plan["g6"] = Disposition.FORFEIT
    plan["g99"] = Disposition.FORFEIT
    with pytest.raises(InvalidWithdrawalPlan, match="not a game"):
        case.decide(LEFT, revision=0, plan=plan)


def test_finished_game_needs_its_result() -> None:
    with pytest.raises(InvalidWithdrawalPlan):
        WithdrawnGame("g1", "p1", Side.WHITE, GameStatus.FINISHED)
    with pytest.raises(InvalidWithdrawalPlan):
        WithdrawnGame("g1", "p1", Side.WHITE, GameStatus.NOT_STARTED, GameOutcome.draw())


def test_partners_may_protest_and_the_organizer_restores_kept_results() -> None:
    case = withdrawal(BEFORE_HALF).decide(LEFT, revision=0).case
    assert case.state is CaseState.DECIDED
    assert "partner-g1" in case.parties
    protested = case.protest("partner-g1", date(2025, 6, 15), revision=1).case
    final = protested.decide_protest("keep_results", date(2025, 7, 1), revision=2)
    assert final.case.is_closed
    assert final.case.plan == final.case.proposed_plan(WithdrawalRuling.KEEP_RESULTS)
    outcomes = results(final.effects)
    assert outcomes["g1"] == GameOutcome.win_for(Side.WHITE)  # the annulled win comes back
    assert outcomes["g3"] == GameOutcome.forfeit_loss_for(Side.WHITE)
    assert OpenAdjudication("g2", "000 §3.14.4") in final.effects


def test_ban_of_up_to_three_years_for_quitting_without_reason() -> None:
    case = withdrawal(AFTER_HALF, without_good_reason=True)
    with pytest.raises(InvalidBan, match="2028-06-10"):
        case.record_ban(date(2028, 6, 11), LEFT, revision=0)
    with pytest.raises(InvalidBan):
        case.record_ban(LEFT, LEFT, revision=0)
    banned = case.record_ban(date(2028, 6, 10), LEFT, revision=0)
    assert banned.effects[0] == RecordBan("p7", date(2028, 6, 10), "002 §4.1.14")
    with pytest.raises(InvalidBan, match="already"):
        banned.case.record_ban(date(2027, 1, 1), LEFT, revision=1)


def test_ban_may_follow_a_closed_case_but_not_a_good_reason() -> None:
    closed = withdrawal(AFTER_HALF, without_good_reason=True).decide(LEFT, revision=0).case
    closed = closed.close(date(2025, 6, 21), revision=1).case
    assert closed.record_ban(date(2026, 6, 1), date(2025, 7, 1), revision=2).case.ban_until
    with pytest.raises(InvalidBan, match="good"):
        withdrawal(AFTER_HALF).record_ban(date(2026, 1, 1), LEFT, revision=0)


def test_stored_withdrawal_reads_back_and_rejects_bad_games() -> None:
    case = withdrawal(AFTER_HALF).decide(LEFT, revision=0).case
    assert case_from_dict(case.to_dict()) == case
    broken = json.loads(json.dumps(case.to_dict()))
    broken["games"][0]["outcome"] = None
    with pytest.raises(InvalidCaseData, match=r"games\[0\]"):
        case_from_dict(broken)


def test_organizer_upholding_the_annulment_changes_nothing() -> None:
    case = withdrawal(BEFORE_HALF).decide(LEFT, revision=0).case
    protested = case.protest("partner-g1", date(2025, 6, 15), revision=1).case
    upheld = protested.decide_protest("annul_results", date(2025, 7, 1), revision=2)
    assert upheld.case.plan == case.plan
    assert not any(isinstance(e, RecordResult | OpenAdjudication) for e in upheld.effects)


def test_organizer_cannot_annul_after_half_either() -> None:
    case = withdrawal(AFTER_HALF).decide(LEFT, revision=0).case
    protested = case.protest("partner-g5", date(2025, 6, 15), revision=1).case
    with pytest.raises(InvalidWithdrawalPlan, match="000 §3.14.3"):
        protested.decide_protest("annul_results", date(2025, 7, 1), revision=2)
    swiss = withdrawal(BEFORE_HALF, TournamentSystem.SWISS).decide(LEFT, revision=0).case
    swiss = swiss.protest("p7", date(2025, 6, 15), revision=1).case
    with pytest.raises(InvalidWithdrawalPlan, match="000 §3.14.5"):
        swiss.decide_protest("annul_results", date(2025, 7, 1), revision=2)
