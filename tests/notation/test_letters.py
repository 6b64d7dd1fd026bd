"""Moves in letters judged as a referee would (002 §4.2.2, §4.2.4, §4.2.10, §4.2.14)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.fen import parse_fen
from notation.full import format_full
from notation.letters import (
    IllegibleMove,
    ImpossibleCause,
    ImpossibleMove,
    LegalMove,
    ReplaceReason,
    SenderMustReplace,
    SingleMoveSubstituted,
    forced_move,
    move_number,
    play_moves,
    read_move,
    read_moves,
)
from notation.position import Position
from notation.rules import Color, GameType

RUSSIAN = Position.initial(GameType.RUSSIAN)


def test_legal_move() -> None:
    reading = read_move(RUSSIAN, "c3-d4")
    assert isinstance(reading, LegalMove)
    assert format_full(RUSSIAN, reading.move) == "c3-d4"
    assert reading.warnings == ()


def test_short_notation_is_an_impossible_move_the_sender_replaces() -> None:
    reading = read_move(RUSSIAN, "cd4")
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is ImpossibleCause.SHORT_NOTATION
    assert reading.rule == "002 §4.2.2"
    assert reading.resolution == SenderMustReplace(ReplaceReason.NO_START_SQUARE)


def test_impossible_move_of_a_piece_with_one_move_is_replaced_by_that_move() -> None:
    # a3 has the single move a3-b4; "a3-a4" names a light square.
    reading = read_move(RUSSIAN, "a3-c5")
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is ImpossibleCause.ILLEGAL
    assert isinstance(reading.resolution, SingleMoveSubstituted)
    assert format_full(RUSSIAN, reading.resolution.move) == "a3-b4"
    assert reading.resolution.rule == "002 §4.2.10"


@pytest.mark.parametrize(
    ("text", "cause", "reason"),
    [
        ("c3-e5", ImpossibleCause.ILLEGAL, ReplaceReason.SEVERAL_MOVES),
        ("c3-d4-e5", ImpossibleCause.ILLEGAL, ReplaceReason.SEVERAL_MOVES),
        ("c3-c4", ImpossibleCause.NOT_A_PLAYING_SQUARE, ReplaceReason.SEVERAL_MOVES),
        ("c1-d2", ImpossibleCause.ILLEGAL, ReplaceReason.NO_MOVE),
        ("d4-e5", ImpossibleCause.ILLEGAL, ReplaceReason.EMPTY_SQUARE),
        ("d6-c5", ImpossibleCause.ILLEGAL, ReplaceReason.OPPONENTS_PIECE),
        ("c4-d5", ImpossibleCause.NOT_A_PLAYING_SQUARE, ReplaceReason.NO_START_SQUARE),
    ],
)
def test_impossible_moves_the_sender_must_replace(
    text: str, cause: ImpossibleCause, reason: ReplaceReason
) -> None:
    reading = read_move(RUSSIAN, text)
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is cause
    assert reading.resolution == SenderMustReplace(reason)


def test_quiet_move_when_a_capture_is_compulsory() -> None:
    position = parse_fen("W:Wc3,g3:Bd4", GameType.RUSSIAN)
    reading = read_move(position, "g3-h4")
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is ImpossibleCause.CAPTURE_OMITTED
    assert reading.resolution == SenderMustReplace(ReplaceReason.NO_MOVE)
    # The piece on c3 has the single move c3:e5: the recipient names it (§4.2.10).
    reading = read_move(position, "c3-b4")
    assert isinstance(reading, ImpossibleMove)
    assert isinstance(reading.resolution, SingleMoveSubstituted)
    assert format_full(position, reading.resolution.move) == "c3:e5"


def test_capture_written_with_a_dash_is_read_with_a_warning() -> None:
    position = parse_fen("W:Wc3,g3:Bd4", GameType.RUSSIAN)
    reading = read_move(position, "c3-e5")
    assert isinstance(reading, LegalMove)
    assert [w.rule for w in reading.warnings] == ["002 §4.2.2"]


def test_ambiguous_ends_only_capture_is_impossible() -> None:
    position = parse_fen("B:Wb2,d2,Kg3,g5:Bh2,Kh4,Kb6,a7", GameType.RUSSIAN)
    reading = read_move(position, "h4:a1")
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is ImpossibleCause.AMBIGUOUS
    assert reading.resolution == SenderMustReplace(ReplaceReason.SEVERAL_MOVES)


@pytest.mark.parametrize(
    "text", ["", "   ", "z9-a1", "c3-д4", "ход c3-d4", "c3" * 5000, "c3-d4\x00", "🙂-d4", "c3--d4"]
)
def test_illegible_input(text: str) -> None:
    reading = read_move(RUSSIAN, text)
    assert isinstance(reading, IllegibleMove)
    assert reading.rule == "002 §4.2.5"
    assert reading.reason


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_no_text_makes_read_move_raise(text: str) -> None:
    assert isinstance(read_move(RUSSIAN, text), LegalMove | ImpossibleMove | IllegibleMove)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijk0123456789-:xх .…", max_size=30))
def test_no_move_line_makes_read_moves_raise(text: str) -> None:
    read_moves(RUSSIAN, text, expected_number=1)


def test_numbered_line_with_both_moves() -> None:
    line = read_moves(RUSSIAN, "1. c3-d4 f6-g5", expected_number=1)
    assert line.all_legal and len(line.moves) == 2 and line.warnings == ()


def test_black_move_alone_with_dots() -> None:
    position = play_moves(GameType.RUSSIAN, ["c3-d4"]).position
    line = read_moves(position, "1... f6-g5", expected_number=1)
    assert line.all_legal and line.warnings == ()


def test_wrong_move_number_is_a_warning_naming_the_right_number() -> None:
    line = read_moves(RUSSIAN, "12. c3-d4 f6-g5", expected_number=1)
    assert line.all_legal
    assert [(w.message, w.rule) for w in line.warnings] == [
        ("move number 12 should be 1", "002 §4.2.14")
    ]


def test_reading_a_line_stops_at_the_first_bad_move() -> None:
    line = read_moves(RUSSIAN, "1. c3-d4 f6-f5 2. d4-e5")
    assert len(line.readings) == 2 and not line.all_legal
    assert len(line.positions) == 1


def test_move_number_counts_from_the_start() -> None:
    assert move_number(0) == 1 and move_number(1) == 1 and move_number(2) == 2
    assert move_number(0, Color.BLACK) == 1 and move_number(1, Color.BLACK) == 2


def test_forced_move_detection() -> None:
    position = parse_fen("W:Wc3,g3:Bd4", GameType.RUSSIAN)
    forced = forced_move(position)
    assert forced is not None and format_full(position, forced) == "c3:e5"
    assert forced_move(RUSSIAN) is None


def test_play_moves_stops_at_an_impossible_move() -> None:
    game = play_moves(GameType.RUSSIAN, ["c3-d4", "f6-g5", "d4-d5", "a3-b4"])
    assert not game.complete
    assert len(game.moves) == 2 and len(game.positions) == 3
    assert isinstance(game.readings[-1], ImpossibleMove)


def test_international_letter_moves() -> None:
    position = Position.initial(GameType.INTERNATIONAL)
    assert isinstance(read_move(position, "32-28"), LegalMove)
    assert isinstance(read_move(position, "d4-e5"), LegalMove)
    reading = read_move(position, "32-27-21")
    assert isinstance(reading, ImpossibleMove)
    assert reading.resolution == SenderMustReplace(ReplaceReason.SEVERAL_MOVES)
