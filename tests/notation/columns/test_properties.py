"""Properties along random games of every column type and rule profile.

Pieces are never created or lost, columns never alternate colours, make/unmake restores the
board, and notation written for a move reads back as the same move.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from column_helpers import PROFILES
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.columns.engine import ColumnGenerator, column_generator
from notation.columns.fen import format_column_fen, parse_column_fen
from notation.columns.position import ColumnPosition
from notation.columns.rules import ColumnRules
from notation.full import format_full, parse_full
from notation.rules import Color, GameType
from notation.short import format_short, parse_short

WELL_FORMED = re.compile(r"[wW]*[bB]*|[bB]*[wW]*")


def colours(position: ColumnPosition) -> Counter[str]:
    return Counter(symbol.lower() for code in position.board for symbol in code)


def kings(position: ColumnPosition) -> Counter[str]:
    return Counter(symbol.lower() for code in position.board for symbol in code if symbol.isupper())


def play_random_game(rules: ColumnRules, seed: int, plies: int = 80) -> list[ColumnPosition]:
    rng = random.Random(seed)
    positions = [ColumnPosition.initial(rules)]
    for _ in range(plies):
        routes = positions[-1].legal_routes()
        if not routes:
            break
        positions.append(positions[-1].play(rng.choice(routes)))
    return positions


profiles = st.sampled_from(PROFILES)


@settings(max_examples=25, deadline=None)
@given(profile=profiles, seed=st.integers(0, 10**6))
def test_pieces_are_conserved_and_columns_never_alternate(
    profile: tuple[GameType, dict[str, str]], seed: int
) -> None:
    game_type, options = profile
    rules = ColumnRules.of(game_type, options)
    positions = play_random_game(rules, seed)
    start = positions[0]
    for before, after in zip(positions, positions[1:], strict=False):
        assert colours(after) == colours(start)
        # Promotion only ever adds kings; prisoners keep their rank.
        assert all(kings(after)[c] >= kings(before)[c] for c in "wb")
        assert all(WELL_FORMED.fullmatch(code) for code in after.board)
        assert after.turn is before.turn.opponent


@settings(max_examples=25, deadline=None)
@given(profile=profiles, seed=st.integers(0, 10**6))
def test_make_unmake_restores_and_apply_equals_play(
    profile: tuple[GameType, dict[str, str]], seed: int
) -> None:
    game_type, options = profile
    rules = ColumnRules.of(game_type, options)
    generator = column_generator(rules)
    for position in play_random_game(rules, seed, plies=40):
        white = position.turn is Color.WHITE
        for raw in generator.legal_moves(position.board, white):
            board = list(position.board)
            saved = ColumnGenerator.make(board, raw)
            made = tuple(board)
            ColumnGenerator.unmake(board, saved)
            assert tuple(board) == position.board
            assert generator.apply(position.board, raw) == made


@settings(max_examples=20, deadline=None)
@given(profile=profiles, seed=st.integers(0, 10**6))
def test_notation_and_fen_round_trip(profile: tuple[GameType, dict[str, str]], seed: int) -> None:
    game_type, options = profile
    rules = ColumnRules.of(game_type, options)
    for position in play_random_game(rules, seed, plies=40):
        assert parse_column_fen(format_column_fen(position), rules) == position
        for move in position.legal_moves():
            assert parse_full(position, format_full(position, move)) == move
            assert parse_full(position, format_full(position, move, route=False)) == move
            assert parse_short(position, format_short(position, move)) == move
