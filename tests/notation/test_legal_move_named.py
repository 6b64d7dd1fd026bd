"""``legal_move_named`` gives the move exactly when ``read_move`` reads a text as a legal move:
over random games, every text a letter may hold against a position — the legal moves written
in full and short, the other moves of the game played in the wrong position, malformed and
non-square texts — is judged alike by both (docs/rules/notation.md, 002 §4.2.9)."""

from __future__ import annotations

import random

import pytest

from notation.full import format_full
from notation.game_position import initial_position
from notation.letters import LegalMove, legal_move_named, read_move
from notation.playouts import random_game
from notation.rules import GameType

ODD_TEXTS = ("", "c3", "c3-", "z9-z8", "a1-b2", "c3:e5", "c3-d4-e5", "1.", "ход", "c3—d4",
             "C3-D4", "c3xd4", "22-17", "c3 d4", "e3:g5:e7", "h8-g7")


@pytest.mark.parametrize("game_type", [GameType.RUSSIAN, GameType.INTERNATIONAL])
def test_it_names_a_move_exactly_when_read_move_reads_it_as_legal(game_type: GameType) -> None:
    rng = random.Random(11)
    checked = legal = 0
    for _ in range(12):
        moves = random_game(game_type, rng, max_plies=40)
        position = initial_position(game_type)
        written = []
        for move in moves:
            written.append(format_full(position, move))
            position = position.play(move)
        position = initial_position(game_type)
        for move in moves:
            texts = {*written, *ODD_TEXTS, *(text.replace("-", ":") for text in written[:6]),
                     *(text[:2] for text in written[:6])}
            for text in sorted(texts):
                reading = read_move(position, text)
                named = legal_move_named(position, text)
                expected = reading.move if isinstance(reading, LegalMove) else None
                assert named == expected, (position, text, reading)
                checked += 1
                legal += named is not None
            position = position.play(move)
    assert checked > 1000 and legal >= 12 * 30  # each game's own moves, at least
