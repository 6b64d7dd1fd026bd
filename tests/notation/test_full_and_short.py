"""Full notation (002 §4.2.2) and short notation (002 §4.5.1): reading, writing, round trips."""

from __future__ import annotations

import dataclasses
import random

import pytest

from notation.errors import (
    AmbiguousMoveError,
    IllegibleMoveError,
    NoSuchMoveError,
    ShortNotationError,
)
from notation.fen import parse_fen
from notation.full import format_full, parse_full
from notation.geometry import BOARD_10X10_OLD_FILES, SquareStyle, UnknownSquareError
from notation.letters import play_moves
from notation.playouts import random_positions, random_setup
from notation.position import Board, Position
from notation.rules import GameType
from notation.short import format_short, parse_short

RUSSIAN = Position.initial(GameType.RUSSIAN)

DRAUGHTS = [GameType.RUSSIAN, GameType.GIVEAWAY, GameType.INTERNATIONAL]


@pytest.mark.parametrize(
    "text",
    ["c3-d4", "C3-D4", "с3-d4", "c3–d4", "c3—d4", "c3 - d4", " c3-d4 ", "С3-D4"],
)
def test_spellings_of_one_quiet_move(text: str) -> None:
    assert format_full(RUSSIAN, parse_full(RUSSIAN, text)) == "c3-d4"


def test_capital_cyrillic_e_reads_as_e() -> None:
    assert format_full(RUSSIAN, parse_full(RUSSIAN, "Е3-f4")) == "e3-f4"


@pytest.mark.parametrize("text", ["e3:c5", "e3xc5", "E3XC5", "е3:с5", "e3х c5"])
def test_spellings_of_one_capture(text: str) -> None:
    position = play_moves(GameType.RUSSIAN, ["c3-d4", "f6-g5", "d4-c5", "b6:d4"]).position
    assert format_full(position, parse_full(position, text)) == "e3:c5"


def test_multi_capture_with_or_without_intermediate_squares() -> None:
    position = parse_fen("W:Wc3:Bd4,f4", GameType.RUSSIAN)
    full = parse_full(position, "c3:e5:g3")
    assert parse_full(position, "c3:g3") == full
    assert format_full(position, full) == "c3:e5:g3"
    assert format_full(position, full, route=False) == "c3:g3"


def test_ends_only_capture_is_ambiguous_when_two_moves_share_ends() -> None:
    position = parse_fen("B:Wb2,d2,Kg3,g5:Bh2,Kh4,Kb6,a7", GameType.RUSSIAN)
    written = sorted(format_full(position, m, route=False) for m in position.legal_moves())
    assert written == ["h2:h6", "h4:e1:c3:a1", "h4:f6:a1"]
    with pytest.raises(AmbiguousMoveError):
        parse_full(position, "h4:a1")
    assert parse_full(position, "h4:e1:a1") == parse_full(position, "h4:e1:c3:a1")


def test_king_route_with_either_intermediate_square_names_the_same_move() -> None:
    position = parse_fen("W:WKh6:Bd2,g5", GameType.RUSSIAN)
    assert parse_full(position, "h6:f4:c1") == parse_full(position, "h6:e3:c1")
    assert parse_full(position, "h6:c1") == parse_full(position, "h6:f4:c1")


def test_international_numeric_and_algebraic() -> None:
    position = Position.initial(GameType.INTERNATIONAL)
    move = parse_full(position, "32-28")
    assert parse_full(position, "d4-e5") == move
    geometry = position.geometry
    assert (geometry.number(move.start), geometry.number(move.end)) == (32, 28)
    assert format_full(position, move) == "32-28"
    assert format_full(position, move, style=SquareStyle.ALGEBRAIC) == "d4-e5"


def test_international_long_capture_in_numeric_notation() -> None:
    position = parse_fen("W:W47:B41,31,21,11", GameType.INTERNATIONAL)
    move = parse_full(position, "47:36:27:16:7")
    assert len(move.captured) == 4
    assert parse_full(position, "47x7") == move


def test_old_ten_by_ten_files_without_j() -> None:
    old = dataclasses.replace(GameType.INTERNATIONAL.rules, geometry=BOARD_10X10_OLD_FILES)
    position = Position.initial(old)
    move = parse_full(position, "k4-j5".replace("j", "i"))
    assert format_full(position, move, style=SquareStyle.ALGEBRAIC) == "k4-i5"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", IllegibleMoveError),
        ("z9-a1", IllegibleMoveError),
        ("c3-д4", IllegibleMoveError),
        ("c3" + "-d4" * 3000, IllegibleMoveError),
        ("c3-b4-a5", NoSuchMoveError),
        ("cd4", ShortNotationError),
        ("b:d4", ShortNotationError),
        ("c3:d4", NoSuchMoveError),
        ("d6-c5", NoSuchMoveError),
        ("32-28", NoSuchMoveError),  # numeric names are read on 8x8 too; 32-28 is no move here
        ("c3-c4", UnknownSquareError),
    ],
)
def test_bad_full_notation_raises_a_typed_error(text: str, error: type[ValueError]) -> None:
    with pytest.raises(error) as raised:
        parse_full(RUSSIAN, text)
    assert raised.value.text in text  # type: ignore[attr-defined]  # the move, or its bad square


def test_short_notation_of_the_rulebook_example() -> None:
    game = play_moves(GameType.RUSSIAN, ["c3-d4", "f6-g5", "d4-c5", "b6:d4", "e3:c5"])
    assert game.complete
    written = []
    position = RUSSIAN
    for move in game.moves:
        written.append(format_short(position, move))
        position = position.play(move)
    assert written == ["cd4", "fg5", "dc5", "b:d4", "e:c5"]
    position = RUSSIAN
    for text, move in zip(written, game.moves, strict=True):
        assert parse_short(position, text) == move
        position = position.play(move)


def test_short_notation_uses_full_squares_when_ambiguous() -> None:
    # Kings on c1 and c5 both reach a3 and e3: "ca3" would fit two moves.
    position = parse_fen("W:WKc1,Kc5:Bh8", GameType.RUSSIAN)
    texts = {format_short(position, m) for m in position.legal_moves()}
    assert {"c1-a3", "c5-a3", "c1-e3", "c5-e3", "cb2", "cb6"} <= texts


def test_short_notation_rejects_ambiguous_input() -> None:
    position = parse_fen("W:WKc1,Kc5:Bh8", GameType.RUSSIAN)
    with pytest.raises(AmbiguousMoveError):
        parse_short(position, "ca3")


@pytest.mark.parametrize("game_type", DRAUGHTS)
def test_format_then_parse_gives_the_same_move(game_type: GameType) -> None:
    rng = random.Random(3)
    positions = list(random_positions(game_type, 150, seed=11))
    positions += [random_setup(game_type, rng, rng.randint(2, 7)) for _ in range(150)]
    for position in positions:
        for move in position.legal_moves():
            for route in (True, False):
                assert parse_full(position, format_full(position, move, route=route)) == move
            assert parse_short(position, format_short(position, move)) == move
            if game_type is not GameType.INTERNATIONAL:
                continue
            algebraic = format_full(position, move, style=SquareStyle.ALGEBRAIC)
            assert parse_full(position, algebraic) == move


@pytest.mark.parametrize("game_type", DRAUGHTS)
def test_make_unmake_restores_the_position(game_type: GameType) -> None:
    rng = random.Random(5)
    for start in random_positions(game_type, 100, seed=13):
        board = Board(start)
        for move in start.legal_moves():
            board.push(move)
            assert board.pop() == move
            assert board.position == start
        if start.legal_moves():
            board.push(rng.choice(start.legal_moves()))
            board.pop()
        assert board.position == start
