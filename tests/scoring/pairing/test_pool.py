"""Colour counts refute hopeless sets before the matching is asked."""

from __future__ import annotations

from scoring.model import Colour
from scoring.pairing.colours import ABSOLUTE_MAX_RUN, PREFERRED_MAX_RUN
from scoring.pairing.criteria import ColourCounts, LegalPairs
from scoring.pairing.model import Entrant
from scoring.pairing.pool import Pool

W, B = Colour.WHITE, Colour.BLACK


def field(*histories: tuple[Colour, ...], max_run: int = PREFERRED_MAX_RUN) -> LegalPairs:
    return LegalPairs.build(
        [Entrant(n, colours=h, opponents=()) for n, h in enumerate(histories, start=1)], max_run
    )


def test_more_than_half_needing_one_colour_cannot_pair() -> None:
    legal = field((W, W), (W, W), (W, W), ())
    counts = legal.counts([1, 2, 3, 4])
    assert counts == ColourCounts(size=4, must_white=0, must_black=3, stuck=0)
    assert not counts.could_all_pair()
    assert counts.could_all_pair(spare=2)
    assert Pool.if_pairable([1, 2, 3, 4], legal, spare=0) is None


def test_the_absolute_limit_lets_the_same_players_pair() -> None:
    legal = field((B, W, W), (B, W, W), (), (), max_run=ABSOLUTE_MAX_RUN)
    pool = Pool.if_pairable([1, 2, 3, 4], legal, spare=0)
    assert pool is not None and pool.complete


def test_take_and_give_keep_the_pool_pairable() -> None:
    # 1 and 2 must have black: taking 3 and 4 away would leave them only each other.
    legal = field((W, W), (W, W), (), ())
    pool = Pool([1, 2, 3, 4], legal)
    assert pool.complete
    assert not pool.take([3, 4])
    assert not pool.accepts(1, 2)
    assert pool.accepts(1, 3) and pool.accepts(2, 4)
    assert pool.counts.size == 0
    assert pool.give(1, spare=1)
    assert not pool.give(2)
