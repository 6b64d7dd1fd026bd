"""Differential test against pydraughts, an independent implementation (test-only oracle).

pydraughts lists each capture as a route of steps plus captured squares; both sides are
normalised to effects (start, end, set of captured squares) and the move sets compared.
5,000 positions in all: random playouts (realistic middlegames and endgames) and random
setups with several kings each, for Russian and international draughts.  pydraughts needs
a few milliseconds a position, which is why the split below stays near 30 s in total.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import draughts
import pytest

from notation.fen import format_fen
from notation.geometry import Square, SquareStyle
from notation.playouts import random_positions, random_setup
from notation.position import Position
from notation.rules import GameType

Effect = tuple[Square, Square, frozenset[Square]]


def oracle_effects(position: Position) -> set[Effect]:
    geometry = position.geometry
    if position.game_type is GameType.INTERNATIONAL:
        board = draughts.Board(variant="standard", fen=format_fen(position, style=SquareStyle.NUMERIC))

        def square(number: int) -> Square:
            return geometry.parse_square(str(number))
    else:
        # pydraughts numbers the Russian board a1=1, c1=2, … h8=32: our index plus one.
        board = draughts.Board(variant="russian", fen=format_fen(position, style=SquareStyle.ALGEBRAIC))

        def square(number: int) -> Square:
            return number - 1

    return {
        (square(m.steps_move[0]), square(m.steps_move[-1]), frozenset(square(c) for c in m.captures))
        for m in board.legal_moves()
    }


def mismatches(positions: Iterable[Position]) -> tuple[int, list[str]]:
    checked = 0
    faults: list[str] = []
    for position in positions:
        checked += 1
        ours = {m.effect for m in position.legal_moves()}
        theirs = oracle_effects(position)
        if ours != theirs:
            faults.append(f"{format_fen(position)}: only ours {ours - theirs}, only theirs {theirs - ours}")
    return checked, faults


SAMPLES = [
    (GameType.RUSSIAN, "playout", 2000),
    (GameType.RUSSIAN, "setup", 600),
    (GameType.INTERNATIONAL, "playout", 1800),
    (GameType.INTERNATIONAL, "setup", 600),
]


def test_the_samples_add_up_to_five_thousand_positions() -> None:
    assert sum(count for _, _, count in SAMPLES) == 5000


@pytest.mark.parametrize(("game_type", "source", "count"), SAMPLES)
def test_move_sets_match_pydraughts(game_type: GameType, source: str, count: int) -> None:
    if source == "playout":
        positions: Iterable[Position] = random_positions(game_type, count, seed=20260101)
    else:
        rng = random.Random(7)
        positions = (random_setup(game_type, rng, rng.randint(2, 8)) for _ in range(count))
    checked, faults = mismatches(positions)
    assert checked == count
    assert faults == []


def test_setups_contain_several_kings() -> None:
    rng = random.Random(7)
    setups = [random_setup(GameType.RUSSIAN, rng, rng.randint(2, 8)) for _ in range(600)]
    assert sum(1 for p in setups if p.kings.bit_count() >= 2) > 300
