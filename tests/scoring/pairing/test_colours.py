"""Colour limits and the colour rule of 000 §3.18.2 and 002."""

from __future__ import annotations

import itertools

from scoring.model import Colour
from scoring.pairing.colours import (
    ABSOLUTE_MAX_RUN,
    PREFERRED_MAX_RUN,
    can_split,
    colour_violations,
    permitted_colours,
    rule_prefers_first_white,
)

W, B = Colour.WHITE, Colour.BLACK


def test_fourth_same_colour_running_is_never_permitted() -> None:
    # 000 §3.18.2: never one colour four times running.
    assert permitted_colours([B, W, W, W]) == {B}
    assert permitted_colours([W, B, B, B]) == {W}


def test_third_same_colour_running_only_in_the_relaxed_tier() -> None:
    # 002: more than two running only in exceptional cases.
    assert permitted_colours([B, W, W]) == {W, B}
    assert permitted_colours([B, W, W], PREFERRED_MAX_RUN) == {B}


def test_colour_difference_never_exceeds_two() -> None:
    # 002: whites and blacks differ by at most one (two with an even number): |w - b| <= 2.
    assert permitted_colours([W, W, B, W]) == {B}
    assert permitted_colours([B, W, B, B]) == {W}
    assert permitted_colours([W, B, W]) == {W, B}


def test_can_split_needs_opposite_colours() -> None:
    assert not can_split(frozenset({W}), frozenset({W}))
    assert can_split(frozenset({W}), frozenset({B}))
    assert can_split(frozenset({W, B}), frozenset({W}))
    assert not can_split(frozenset(), frozenset({W, B}))


def test_white_to_whoever_had_fewer_whites() -> None:
    assert rule_prefers_first_white([B, B, W], [W, W, B], first_ranks_higher=False)
    assert not rule_prefers_first_white([W, W, B], [B, B, W], first_ranks_higher=True)


def test_then_to_whoever_had_black_last() -> None:
    assert rule_prefers_first_white([W, B], [B, W], first_ranks_higher=False)
    assert not rule_prefers_first_white([B, W], [W, B], first_ranks_higher=True)
    # Equal last games: the latest game in which they differ decides.
    assert rule_prefers_first_white([W, B, W], [B, W, W], first_ranks_higher=False)


def test_then_to_the_higher_classified_when_histories_coincide() -> None:
    assert rule_prefers_first_white([W, B], [W, B], first_ranks_higher=True)
    assert not rule_prefers_first_white([W, B], [W, B], first_ranks_higher=False)
    assert rule_prefers_first_white([], [], first_ranks_higher=True)


def test_violations_name_the_rule() -> None:
    problems = colour_violations([W, W, W, W])
    assert any("000 §3.18.2" in p and "4th white" in p for p in problems)
    assert any("differ by 3" in p for p in problems)
    assert colour_violations([W, B, W, W, B, B]) == []


def test_permitted_colours_match_the_limits_on_every_history_up_to_eight_games() -> None:
    # The limits read literally (000 §3.18.2, 002), against the fast implementation: a colour
    # is refused if it takes whites minus blacks past two in its own direction or makes a run
    # longer than ``max_run`` (a history already out of bounds may still move back).
    for length in range(9):
        for history in itertools.product((W, B), repeat=length):
            difference = sum(1 if c is W else -1 for c in history)
            for max_run in (PREFERRED_MAX_RUN, ABSOLUTE_MAX_RUN):
                expected = {
                    colour
                    for colour in (W, B)
                    if (difference + 1 <= 2 if colour is W else difference - 1 >= -2)
                    and not (len(history) >= max_run and set(history[-max_run:]) == {colour})
                }
                assert permitted_colours(history, max_run) == expected, (history, max_run)
                assert permitted_colours(list(history), max_run) == expected
