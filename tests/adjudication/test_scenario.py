"""A tournament's end date reached with five unfinished games, driven as the service would drive it:
load each case from its stored dict, apply one transition at the stored revision, keep the
effects. The final results are what the crosstable must show (002 §4.5.2–4.5.7)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Adjudication,
    Assessment,
    Awaiting,
    NoRightToProtest,
    ProtestOutOfTime,
    Side,
    Transition,
    case_from_dict,
    effect_to_dict,
    referee_queue,
)
from adjudication.case import Case
from adjudication.effects import RecordResult
from adjudication.outcomes import GameOutcome
from adjudication.serialization import Plain

END = date(2025, 1, 21)


class Store:
    """The service's table of cases and its ledger of results, as plain data."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Plain]] = {}
        self.results: dict[str, GameOutcome] = {}
        self.log: list[dict[str, Plain]] = []

    def load(self, case_id: str) -> Adjudication:
        case = case_from_dict(self.rows[case_id])
        assert isinstance(case, Adjudication)
        return case

    def save(self, transition: Transition[Case]) -> None:
        self.rows[transition.case.case_id] = transition.case.to_dict()
        for effect in transition.effects:
            self.log.append(effect_to_dict(effect))
            if isinstance(effect, RecordResult):
                self.results[effect.game] = effect.outcome


def test_five_unfinished_games_resolved_through_the_queue() -> None:
    store = Store()
    for game in ("agree", "conflict", "one-sided", "none", "late-protest"):
        store.save(Adjudication.open(game, game=game, end_date=END))

    def submit(case_id: str, side: Side, assessment: Assessment, sent_on: date) -> None:
        case = store.load(case_id)
        store.save(
            case.submit(side, assessment, "analysis", sent_on=sent_on, revision=case.revision)
        )

    submit("agree", Side.WHITE, Assessment.DRAW, date(2025, 1, 24))
    submit("agree", Side.BLACK, Assessment.DRAW, date(2025, 1, 25))
    submit("conflict", Side.WHITE, Assessment.WIN, date(2025, 1, 24))
    submit("conflict", Side.BLACK, Assessment.DRAW, date(2025, 1, 31))
    submit("one-sided", Side.BLACK, Assessment.WIN, date(2025, 1, 30))
    submit("late-protest", Side.WHITE, Assessment.WIN, date(2025, 1, 22))
    submit("late-protest", Side.BLACK, Assessment.WIN, date(2025, 2, 3))  # day 13: late

    today = date(2025, 2, 1)
    queue = referee_queue((case_from_dict(row) for row in store.rows.values()), today)
    # Every analysis window has closed: all five wait for the referee, nearest month first.
    assert all(e.awaiting is Awaiting.REFEREE and not e.overdue for e in queue)
    assert [(e.case.case_id, e.deadline.due if e.deadline else None) for e in queue] == [
        ("agree", date(2025, 2, 25)),
        ("conflict", date(2025, 2, 28)),
        ("late-protest", date(2025, 2, 28)),
        ("none", date(2025, 2, 28)),
        ("one-sided", date(2025, 2, 28)),
    ]

    verdicts = {
        "agree": "draw",
        "conflict": "white_wins",
        "one-sided": "black_wins",
        "none": "draw",
        "late-protest": "white_wins",
    }
    for case_id, verdict in verdicts.items():
        case = store.load(case_id)
        store.save(case.decide(verdict, date(2025, 2, 5), revision=case.revision))

    # Black protests the conflicting game in time; the organizer draws it, finally.
    conflict = store.load("conflict")
    store.save(conflict.protest("black", date(2025, 2, 15), revision=conflict.revision))
    conflict = store.load("conflict")
    store.save(conflict.decide_protest("draw", date(2025, 3, 1), revision=conflict.revision))

    # The late analyst has no right to protest; the one-sided loser sent nothing either.
    late = store.load("late-protest")
    with pytest.raises(NoRightToProtest):
        late.protest("black", date(2025, 2, 10), revision=late.revision)
    one_sided = store.load("one-sided")
    with pytest.raises(ProtestOutOfTime) as refused:
        one_sided.protest("black", date(2025, 2, 16), revision=one_sided.revision)
    assert refused.value.due == date(2025, 2, 15)

    for case_id in ("agree", "one-sided", "none", "late-protest"):
        case = store.load(case_id)
        store.save(case.close(date(2025, 2, 16), revision=case.revision))

    assert all(case_from_dict(row).is_closed for row in store.rows.values())
    assert store.results == {
        "agree": GameOutcome.draw(adjudicated=True),
        "conflict": GameOutcome.draw(adjudicated=True),
        "one-sided": GameOutcome.win_for(Side.BLACK, adjudicated=True),
        "none": GameOutcome.draw(adjudicated=True),
        "late-protest": GameOutcome.win_for(Side.WHITE, adjudicated=True),
    }
    assert {entry["rule"] for entry in store.log if entry["kind"] == "record_result"} == {
        "002 §4.5.4",
        "002 §4.5.5",
        "002 §4.5.7",
    }
