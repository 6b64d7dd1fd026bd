"""Random playouts: reproducible streams of realistic positions for tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Iterator

from notation.move import Move
from notation.position import Piece, Position
from notation.rules import Color, GameType


def random_game(game_type: GameType, rng: random.Random, max_plies: int = 200) -> list[Move]:
    """Moves of one game played with uniformly random legal moves until it ends."""
    position = Position.initial(game_type)
    moves: list[Move] = []
    for _ in range(max_plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def random_positions(game_type: GameType, count: int, seed: int = 0) -> Iterator[Position]:
    """``count`` positions met along random games (initial positions excluded)."""
    rng = random.Random(seed)
    produced = 0
    while True:
        position = Position.initial(game_type)
        for move in random_game(game_type, rng):
            position = position.play(move)
            yield position
            produced += 1
            if produced >= count:
                return


def random_setup(game_type: GameType, rng: random.Random, pieces_per_side: int = 6) -> Position:
    """A random legal-looking position: men off their promotion row, about a third kings."""
    rules = game_type.rules
    geometry = rules.geometry
    squares = list(geometry.squares)
    rng.shuffle(squares)
    placed: dict[int, Piece] = {}
    for color in (Color.WHITE, Color.BLACK):
        promotion_row = geometry.size - 1 if color is Color.WHITE else 0
        for _ in range(pieces_per_side):
            square = squares.pop()
            king = rng.random() < 0.35 or geometry.row(square) == promotion_row
            placed[square] = Piece(color, king)
    return Position.from_pieces(rules, placed, rng.choice((Color.WHITE, Color.BLACK)))
