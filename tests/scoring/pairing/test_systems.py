"""Worked examples: small fields paired by hand following the text of each program."""

from __future__ import annotations

import pytest

from scoring.model import Colour
from scoring.pairing.engine import lot_for, pair_round
from scoring.pairing.history import entrants_before
from scoring.pairing.model import Entrant, FloatDirection, Pair, PairingSystem

from .conftest import EventFactory

W, B = Colour.WHITE, Colour.BLACK


def fresh(count: int) -> list[Entrant]:
    return [Entrant(start_no=n, rating=2400 - n) for n in range(1, count + 1)]


def colour_of(pairs: tuple[Pair, ...], player: int) -> Colour:
    for pair in pairs:
        if player == pair.white:
            return W
        if player == pair.black:
            return B
    raise AssertionError(f"{player} not paired")


def test_blind_draw_round_one_pairs_neighbours_odd_numbers_white() -> None:
    # 000 §3.18.4 / 002: 1-2, 3-4, ..., odd numbers white; the odd man out gets the bye.
    draw = pair_round(fresh(5), 1, "random", seed=9)
    assert draw.pairs == (Pair(1, 2), Pair(3, 4))
    assert draw.bye == 5


@pytest.mark.parametrize("system", ["coefficients", "solkoff"])
def test_coefficients_round_one_top_half_against_bottom_half(system: str) -> None:
    # 000 §3.18.5.2: 1-5, 2-6, 3-7, 4-8; the lot colours the first pair; odd numbers of the top
    # half as the first, even numbers the other colour.
    draw = pair_round(fresh(8), 1, system, seed=4)
    assert {frozenset((p.white, p.black)) for p in draw.pairs} == {
        frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]
    }
    first = colour_of(draw.pairs, 1)
    assert colour_of(draw.pairs, 3) is first
    assert colour_of(draw.pairs, 2) is first.opposite
    assert colour_of(draw.pairs, 4) is first.opposite
    assert first is lot_for(4, 1).choice([W, B])


def test_coefficients_round_one_odd_field_gives_the_last_the_bye() -> None:
    draw = pair_round(fresh(7), 1, "coefficients", seed=1)
    assert draw.bye == 7
    assert {frozenset((p.white, p.black)) for p in draw.pairs} == {
        frozenset(p) for p in [(1, 4), (2, 5), (3, 6)]
    }


def test_buchholz_round_one_first_against_last() -> None:
    # 000 §3.18.7.2: 1-6, 2-5, 3-4.
    draw = pair_round(fresh(6), 1, "buchholz", seed=2)
    assert {frozenset((p.white, p.black)) for p in draw.pairs} == {
        frozenset(p) for p in [(1, 6), (2, 5), (3, 4)]
    }
    assert colour_of(draw.pairs, 3) is colour_of(draw.pairs, 1)
    assert colour_of(draw.pairs, 2) is colour_of(draw.pairs, 1).opposite


def test_coefficients_round_two_orders_groups_descending(make_event: EventFactory) -> None:
    # Round 2 is even: groups by descending start number (000 §3.18.5.3): [4,3 | 2,1] gives
    # 4-2 and 3-1; [8,7 | 6,5] gives 8-6 and 7-5.  Colours (000 §3.18.2): 2 and 4 both had
    # black, same history: white to the higher classified, 2; 1 and 3 both had white: 1;
    # 6 and 8 both had white: 6; 5 and 7 both had black: 5.
    event = make_event(8, "1-5 1-0; 6-2 0-1; 3-7 1-0; 8-4 0-1")
    draw = pair_round(entrants_before(event, 2), 2, "coefficients")
    assert set(draw.pairs) == {Pair(2, 4), Pair(1, 3), Pair(6, 8), Pair(5, 7)}
    assert draw.floats == ()


def test_group_that_cannot_pair_inside_sends_both_down(make_event: EventFactory) -> None:
    # After 1-4 1-0, 5-2 draw, 3-6 0-1: groups [6,1], [5,2], [4,3] (round 2, descending).  5 and
    # 2 met, so both go down: 5 meets the first possible of [4,3], i.e. 4, and 2 meets 3.
    # Both floats are forced (nobody else in their group): not counted (002).
    event = make_event(6, "1-4 1-0; 5-2 =; 3-6 0-1")
    draw = pair_round(entrants_before(event, 2), 2, "coefficients")
    assert set(draw.pairs) == {Pair(6, 1), Pair(4, 5), Pair(2, 3)}
    floats = {(f.start_no, f.direction, f.forced) for f in draw.floats}
    assert floats == {
        (5, FloatDirection.DOWN, True),
        (4, FloatDirection.UP, True),
        (2, FloatDirection.DOWN, True),
        (3, FloatDirection.UP, True),
    }
    assert any("000 §3.18.5.4" in note for note in draw.notes)


# Round 3 of an eight-player event, written as entrants:
#   R1: 1-6, 2-8, 3-4, 5-7      R2: 7-1, 6-2, 5-3, 8-4   (white first)
#   scores: 1, 2, 3 on 2;  4, 5 on 1;  6, 7, 8 on 0.  Player 3 has met all of the next group.
_MET = {1: (6, 7), 2: (8, 6), 3: (4, 5), 4: (3, 8), 5: (7, 3), 6: (1, 2), 7: (5, 1), 8: (2, 4)}
_COLOURS = {
    1: (W, B), 2: (W, B), 3: (W, B), 4: (B, B),
    5: (W, W), 6: (B, W), 7: (B, W), 8: (B, W),
}  # fmt: skip
_SCORES = {1: 2.0, 2: 2.0, 3: 2.0, 4: 1.0, 5: 1.0, 6: 0.0, 7: 0.0, 8: 0.0}


def round_three() -> list[Entrant]:
    return [Entrant(n, _SCORES[n], 0, _MET[n], _COLOURS[n]) for n in range(1, 9)]


def test_coefficients_odd_group_sends_the_last_who_can_meet_the_next_group() -> None:
    # Round 3 is odd: ascending.  [1,2,3] is odd; 3 (the last) met 4 and 5, so 2 goes down and
    # meets 4, the first possible (000 §3.18.5.4); 1-3 stay.  [5] alone goes down to [6,7,8]:
    # 5 met 7, so 6.  Colours: 4 had fewer whites; 1 and 3 same history, 1 higher; 5 had two
    # whites, black now; 7 and 8 same history, 7 higher.
    draw = pair_round(round_three(), 3, "coefficients")
    assert set(draw.pairs) == {Pair(4, 2), Pair(1, 3), Pair(6, 5), Pair(7, 8)}
    downs = {f.start_no for f in draw.floats if f.direction is FloatDirection.DOWN}
    assert downs == {2, 5}


def test_solkoff_orders_groups_by_truncated_solkoff_from_round_three() -> None:
    # 000 §3.18.6.2: truncated Solkoff (opponents' points without the worst): 3 has 1, 1 and 2
    # have 0: order [3,1,2].  The last, 2, goes down to 4; 3-1 with white to 3 (higher).
    draw = pair_round(round_three(), 3, "solkoff")
    assert set(draw.pairs) == {Pair(4, 2), Pair(3, 1), Pair(6, 5), Pair(7, 8)}


def test_buchholz_first_goes_down_to_the_last_possible() -> None:
    # Current Buchholz: 3 has 2, 1 and 2 have 0: order [3,1,2].  The first goes down
    # (000 §3.18.7.4) but 3 met all of [4,5], so 1 goes, meeting the last possible: 5.  3-2,
    # white to 3 (higher Buchholz).  [4] goes down to [6,7,8] (Buchholz 4, 3, 3), meets the
    # last possible: 8 already met, so 7; then 6-8 with white to 6.
    draw = pair_round(round_three(), 3, "buchholz")
    assert set(draw.pairs) == {Pair(1, 5), Pair(3, 2), Pair(4, 7), Pair(6, 8)}


def test_blind_draw_lots_are_reproducible_and_seeded(make_event: EventFactory) -> None:
    event = make_event(12, "1-2 1-0; 3-4 1-0; 5-6 1-0; 7-8 1-0; 9-10 1-0; 11-12 1-0")
    entrants = entrants_before(event, 2)
    first = pair_round(entrants, 2, PairingSystem.RANDOM, seed=11)
    assert pair_round(entrants, 2, PairingSystem.RANDOM, seed=11) == first
    others = {pair_round(entrants, 2, PairingSystem.RANDOM, seed=s).pairs for s in range(12)}
    assert len(others) > 1
    # Lots only among equal scores (000 §3.18.4): the six winners (odd numbers) meet one another.
    for pair in first.pairs:
        assert (pair.white % 2) == (pair.black % 2)
