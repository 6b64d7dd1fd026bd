"""The engine against the test-only oracle (column_oracle.py) on positions from random games.

For every rule profile — each game's default and each option — both generators must list the
same routes, and each route must lead to the same columns.
"""

from __future__ import annotations

import random

import column_oracle as oracle
import pytest
from column_helpers import PROFILES

from notation.columns.position import ColumnPosition
from notation.columns.rules import ColumnRules
from notation.position import Piece
from notation.rules import Color, GameType


def oracle_rules(rules: ColumnRules) -> oracle.Rules:
    options = rules.options()
    return oracle.Rules(
        size=rules.geometry.size,
        bashni_moves=options["moves"] == "bashni",
        rejump=options["rejump"] == "allowed",
        deferred=options["placement"] == "deferred",
        king_must_continue=options["king-landing"] == "continue",
    )


def oracle_state(position: ColumnPosition) -> oracle.State:
    geometry = position.geometry
    state: oracle.State = {}
    for square, column in position.columns().items():
        coord = (geometry.row(square), geometry.column(square))
        state[coord] = [("w" if p.color is Color.WHITE else "b", p.king) for p in column]
    return state


def oracle_column(column: list[oracle.Piece]) -> tuple[Piece, ...]:
    return tuple(Piece(Color.WHITE if c == "w" else Color.BLACK, king) for c, king in column)


def compare(position: ColumnPosition) -> int:
    """Assert agreement at ``position``; returns the number of routes compared."""
    geometry = position.geometry
    rules = oracle_rules(position.rules)
    colour = "w" if position.turn is Color.WHITE else "b"
    expected = {}
    for found in oracle.moves(rules, oracle_state(position), colour):
        route = tuple(geometry.square_at(r, c) for r, c in found.path)
        columns = {
            geometry.square_at(r, c): oracle_column(pieces) for (r, c), pieces in found.after.items()
        }
        expected[route] = columns
    actual = {move.route: position.play(move).columns() for move in position.legal_routes()}
    assert actual == expected
    return len(actual)


def random_positions(rules: ColumnRules, games: int, seed: int) -> list[ColumnPosition]:
    rng = random.Random(seed)
    seen: list[ColumnPosition] = []
    for _ in range(games):
        position = ColumnPosition.initial(rules)
        for _ in range(150):
            moves = position.legal_routes()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            seen.append(position)
    return seen


@pytest.mark.parametrize(("game_type", "options"), PROFILES)
def test_engine_agrees_with_the_oracle_along_random_games(
    game_type: GameType, options: dict[str, str]
) -> None:
    rules = ColumnRules.of(game_type, options)
    positions = random_positions(rules, games=8, seed=sum(map(ord, str(options))))
    routes = sum(compare(position) for position in positions)
    captures = sum(1 for p in positions if p.capture_compulsory())
    assert len(positions) > 300 and routes > len(positions) and captures > 50


def test_random_setups_with_kings_and_stacks_agree() -> None:
    rng = random.Random(7)
    compared = 0
    for game_type, options in PROFILES:
        rules = ColumnRules.of(game_type, options)
        for _ in range(60):
            compared += compare(random_setup(rules, rng))
    assert compared > 1000


def random_setup(rules: ColumnRules, rng: random.Random) -> ColumnPosition:
    """Random well-formed columns: an own segment over an enemy segment, a third of them kings."""
    geometry = rules.geometry
    board = [""] * geometry.count
    for square in rng.sample(list(geometry.squares), rng.randint(4, 12)):
        top, under = rng.choice((("w", "b"), ("b", "w")))
        code = under * rng.choice((0, 0, 1, 2)) + top * rng.choice((1, 1, 2))
        board[square] = "".join(s.upper() if rng.random() < 0.3 else s for s in code)
    return ColumnPosition(rules, tuple(board), rng.choice((Color.WHITE, Color.BLACK)))
