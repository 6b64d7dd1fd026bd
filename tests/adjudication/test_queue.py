"""The referee's queue: open cases, overdue first."""

from __future__ import annotations

from datetime import date

from adjudication import (
    Adjudication,
    Assessment,
    Awaiting,
    Channel,
    Dispute,
    Evidence,
    OverstepClaim,
    OverstepRuling,
    Side,
    referee_queue,
)

TODAY = date(2025, 3, 20)


def test_overdue_first_then_by_deadline_then_undated() -> None:
    # Adjudication ended 1 Feb: analyses due 11 Feb, decision due 11 March -> overdue 9 days.
    late_adjudication = Adjudication.open("a-late", game="g1", end_date=date(2025, 2, 1)).case
    # Overstep notice received 5 March: accused's ten days ended 15 March -> overdue 5 days.
    claim = OverstepClaim.open(
        "c-ready",
        game="g2",
        claimant=Side.WHITE,
        claimed_on=date(2025, 3, 5),
        channel=Channel.EMAIL,
        held_move="c3-d4",
        detected_by_server=True,
    ).case
    # Ended 15 March: analyses due 25 March.
    fresh = Adjudication.open("a-fresh", game="g3", end_date=date(2025, 3, 15)).case
    # Ended 12 March: analyses due 22 March.
    sooner = Adjudication.open("a-sooner", game="g4", end_date=date(2025, 3, 12)).case
    dispute = Dispute.open(
        "d1", game="g5", complainant=Side.BLACK, subject="", filed_on=date(2025, 3, 1)
    ).case
    closed = (
        OverstepClaim.open(
            "c-closed",
            game="g6",
            claimant=Side.WHITE,
            claimed_on=date(2025, 1, 1),
            channel=Channel.EMAIL,
            held_move="c3-d4",
            detected_by_server=True,
        )
        .case.decide(OverstepRuling.REJECTED, date(2025, 1, 2), revision=0)
        .case.close(date(2025, 1, 20), revision=1)
        .case
    )
    queue = referee_queue([fresh, dispute, closed, claim, sooner, late_adjudication], TODAY)
    assert [entry.case.case_id for entry in queue] == [
        "a-late",
        "c-ready",
        "a-sooner",
        "a-fresh",
        "d1",
    ]
    assert [entry.days_overdue for entry in queue] == [9, 5, 0, 0, 0]
    assert queue[0].overdue and not queue[2].overdue
    assert queue[0].awaiting is Awaiting.REFEREE
    assert queue[1].awaiting is Awaiting.REFEREE  # the window passed: the referee must act
    assert queue[2].awaiting is Awaiting.PLAYERS
    assert queue[4].deadline is None and queue[4].awaiting is Awaiting.STEWARD


def test_filter_by_who_must_act() -> None:
    waiting = Adjudication.open("a1", game="g1", end_date=date(2025, 3, 15)).case
    both_in = Adjudication.open("a2", game="g2", end_date=date(2025, 3, 15)).case
    both_in = both_in.submit(
        Side.WHITE, Assessment.DRAW, "", sent_on=date(2025, 3, 16), revision=0
    ).case
    both_in = both_in.submit(
        Side.BLACK, Assessment.DRAW, "", sent_on=date(2025, 3, 17), revision=1
    ).case
    queue = referee_queue([waiting, both_in], TODAY, awaiting=Awaiting.REFEREE)
    assert [entry.case.case_id for entry in queue] == ["a2"]
    assert queue[0].deadline is not None and queue[0].deadline.due == date(2025, 4, 17)


def test_cases_under_protest_wait_for_the_hearing_instance() -> None:
    claim = OverstepClaim.open(
        "c1",
        game="g1",
        claimant=Side.WHITE,
        claimed_on=date(2025, 3, 1),
        channel=Channel.POST,
        held_move="c3-d4",
        evidence=frozenset(Evidence),
    ).case
    claim = claim.decide(OverstepRuling.REJECTED, date(2025, 3, 2), revision=0).case
    claim = claim.protest("white", date(2025, 3, 3), revision=1).case
    (entry,) = referee_queue([claim], TODAY)
    assert entry.awaiting is Awaiting.ORGANIZER
    assert entry.deadline is None
    assert referee_queue([claim], TODAY, awaiting=Awaiting.REFEREE) == []


def test_ties_go_by_case_id() -> None:
    cases = [
        Adjudication.open(name, game=name, end_date=date(2025, 3, 15)).case
        for name in ("b", "c", "a")
    ]
    assert [e.case.case_id for e in referee_queue(cases, TODAY)] == ["a", "b", "c"]


def test_ties_on_a_deadline_go_by_game_number_not_by_text() -> None:
    """At the end of play every adjudication has the same deadline: the referee reads them in
    the order of the games, 3 before 10, not as text sorts them ("10" < "3")."""
    end = date(2025, 3, 15)
    cases = [Adjudication.open(f"ЗКР-2026/adjudication/{game}/2025-03-15", game=f"g{game}",
                               end_date=end).case for game in (10, 3, 1, 14, 2)]
    queue = referee_queue(cases, TODAY)
    assert [entry.case.game for entry in queue] == ["g1", "g2", "g3", "g10", "g14"]
