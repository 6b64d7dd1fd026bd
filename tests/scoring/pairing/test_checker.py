"""The checker of published rounds: every breach of the absolute criteria, and differences."""

from __future__ import annotations

from scoring.pairing.checker import Violation, check_round, check_tournament, compare_round
from scoring.pairing.generate import generate_event

from .conftest import EventFactory


def rules(violations: list[Violation]) -> list[str]:
    return [v.message for v in violations]


def test_a_clean_event_has_nothing_to_report() -> None:
    generated = generate_event(12, 5, seed=3, system="coefficients")
    report = check_tournament(generated.tournament, "coefficients", seed=3)
    assert report.clean
    assert report.violations == []


def test_the_same_pair_twice(make_event: EventFactory) -> None:
    event = make_event(4, "1-2 1-0; 3-4 1-0", "2-1 1-0; 4-3 1-0")
    messages = rules(check_round(event, 2))
    assert "1 and 2 have met before" in messages[0] or "2 and 1 have met before" in messages[0]
    assert len(messages) == 2


def test_a_forfeited_pair_may_meet_again(make_event: EventFactory) -> None:
    # 000 §3.18.2: pairs whose game was not played may be formed again.
    event = make_event(4, "1-2 +/-; 3-4 1-0", "2-1 1-0; 4-3 1-0")
    assert [v for v in check_round(event, 2) if "met before" in v.message and 1 in v.players] == []


def test_colour_limits(make_event: EventFactory) -> None:
    # 1 has white three times from the start: whites and blacks three apart (002: at most two).
    rounds = ["1-2 =; 3-4 =; 5-6 =; 7-8 =", "1-3 =; 2-4 =; 5-7 =; 6-8 =",
              "1-5 =; 2-6 =; 3-7 =; 4-8 ="]  # fmt: skip
    found = check_round(make_event(8, *rounds), 3)
    assert any(v.players == (1,) and "002" in v.rule for v in found)
    # Black, then three whites: a third white running is 002's exceptional case, not a breach.
    rounds = ["2-1 =; 4-3 =; 6-5 =; 8-7 =", "1-3 =; 2-4 =; 5-7 =; 6-8 =",
              "1-5 =; 2-6 =; 3-7 =; 4-8 =", "1-4 =; 2-3 =; 5-8 =; 6-7 ="]  # fmt: skip
    assert not any(1 in v.players for v in check_round(make_event(8, *rounds), 4))


def test_second_point_without_play_and_bye_rules(make_event: EventFactory) -> None:
    event = make_event(3, "1-2 1-0; 3 bye", "1-3 1-0; 2 absent", "2-1 1-0; 3 bye")
    assert any("second point without play" in m for m in rules(check_round(event, 3)))
    even = make_event(4, "1-2 1-0; 3 bye; 4 absent", "1-2 =; 3-4 =")
    assert rules(check_round(even, 1)) == []
    wrong = make_event(4, "1-2 1-0; 3 bye", "1-3 =; 2-4 =")
    found = rules(check_round(wrong, 1))
    assert any("even number" in m for m in found)
    assert any("neither paired nor absent" in m for m in found)


def test_withdrawn_player_paired(make_event: EventFactory) -> None:
    event = make_event(4, "1-2 1-0; 3-4 1-0", "1-3 1-0; 2-4 1-0", withdrawals=[(4, 1)])
    assert any("withdrawn" in m for m in rules(check_round(event, 2)))


def test_differences_from_our_pairing_are_listed(make_event: EventFactory) -> None:
    # Round 2 by coefficients would be 3-1 and 4-2 (descending, halves); the file has 1-4, 2-3.
    event = make_event(4, "1-3 1-0; 4-2 0-1", "1-4 1-0; 2-3 1-0")
    difference = compare_round(event, 2, "coefficients")
    assert difference.differs
    assert set(difference.only_published) == {(1, 4), (2, 3)}
    assert {frozenset(p) for p in difference.only_ours} == {frozenset((1, 2)), frozenset((3, 4))}
    assert any("published only" in line for line in difference.lines())
