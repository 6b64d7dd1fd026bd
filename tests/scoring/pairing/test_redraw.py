"""A published round that breaks an absolute criterion is repaired touching as few as possible."""

from __future__ import annotations

import pytest

from scoring.model import Colour
from scoring.pairing.errors import NoLegalPairingError
from scoring.pairing.model import Draw, Entrant, Pair, PairingSystem
from scoring.pairing.redraw import redraw

W, B = Colour.WHITE, Colour.BLACK


def published(*pairs: tuple[int, int], bye: int | None = None) -> Draw:
    return Draw(2, PairingSystem.COEFFICIENTS, tuple(Pair(w, b) for w, b in pairs), bye)


def test_a_repeated_pair_breaks_one_more_pair_and_no_other() -> None:
    # Round 1 was 1-2, 3-4, 5-6; round 2 was published by hand as 2-1, 4-5, 6-3, 7-8 (new
    # players 7 and 8 had a bye-free start).  2-1 repeats: 1 and 2 need new partners, and the
    # fewest pairs to break is one (4-5 or 6-3); 7-8 stands.
    met = {1: (2,), 2: (1,), 3: (4,), 4: (3,), 5: (6,), 6: (5,), 7: (), 8: ()}
    colours = {1: (W,), 2: (B,), 3: (W,), 4: (B,), 5: (W,), 6: (B,), 7: (), 8: ()}
    entrants = [Entrant(n, 1.0 if n % 2 else 0.0, 0, met[n], colours[n]) for n in met]
    fixed = redraw(entrants, published((2, 1), (4, 5), (6, 3), (7, 8)))
    assert Pair(7, 8) in fixed.pairs
    kept = [p for p in fixed.pairs if p in (Pair(4, 5), Pair(6, 3))]
    assert len(kept) == 1
    assert not any({p.white, p.black} == {1, 2} for p in fixed.pairs)
    assert any("touches players" in note and "002" in note for note in fixed.notes)


def test_a_withdrawal_after_publication_pairs_the_partner_with_the_bye() -> None:
    # 5 withdrew before playing: 6 is free, and 7 no longer needs the bye: 6-7.
    entrants = [Entrant(n, 0.0) for n in range(1, 8)]
    entrants[4] = Entrant(5, 0.0, withdrawn=True)
    fixed = redraw(entrants, published((1, 2), (3, 4), (5, 6), bye=7))
    assert fixed.bye is None
    assert set(fixed.pairs) >= {Pair(1, 2), Pair(3, 4)}
    assert any({p.white, p.black} == {6, 7} for p in fixed.pairs)
    assert any("[6, 7]" in note for note in fixed.notes)


def test_an_absence_gives_the_free_partner_the_bye() -> None:
    entrants = [Entrant(n, 0.0) for n in range(1, 6)] + [Entrant(6, 0.0, absent=True)]
    fixed = redraw(entrants, published((1, 2), (3, 4), (5, 6)))
    assert fixed.pairs == (Pair(1, 2), Pair(3, 4))
    assert fixed.bye == 5 and fixed.absent == (6,)


def test_a_legal_published_round_is_left_alone() -> None:
    entrants = [Entrant(n, 0.0) for n in range(1, 5)]
    draw = published((1, 2), (3, 4))
    assert redraw(entrants, draw).pairs == draw.pairs


def test_a_round_that_cannot_be_repaired_says_who() -> None:
    entrants = [Entrant(1, 0.0, 0, (2,), (W,)), Entrant(2, 0.0, 0, (1,), (B,))]
    with pytest.raises(NoLegalPairingError) as caught:
        redraw(entrants, published((1, 2)))
    assert caught.value.blocked == (1, 2)
