"""Lenient PDN reading: every repair or doubt is a warning on its game, an error stops one game."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.__main__ import main
from notation.pdn import read_pdn
from notation.rules import Color, GameType


def _reasons(text: str, **kwargs: GameType) -> list[str]:
    (game,) = read_pdn(text, **kwargs)
    assert game.errors == []
    return [w.reason for w in game.warnings]


def test_whitespace_inside_numeric_moves_is_read_without_a_warning() -> None:
    (game,) = read_pdn('[GameType "20"]\n 1. 32-28 17-21   2. 37-32 11 - 17   3. 41-37  6-11 *')
    assert game.errors == [] and game.warnings == [] and len(game.moves) == 6


def test_detached_ellipsis_and_black_to_move() -> None:
    (game,) = read_pdn('[GameType "20"]\n[FEN "B:W31-50:B1-20"]\n1. ... 19-23 2. 32-28 *')
    assert game.errors == [] and len(game.moves) == 2 and game.start.turn is Color.BLACK


def test_escape_lines_start_no_phantom_game() -> None:
    games = read_pdn('% written by some program\n[GameType "20"]\n1. 32-28 *\n% another\n')
    assert len(games) == 1 and games[0].errors == []


def test_nags_are_kept_and_variations_skipped_with_a_warning() -> None:
    (game,) = read_pdn('[GameType "20"]\n1. 32-28! 19-23 $2 (18-23 (17-22) 38-32) 2. 28x19 *')
    assert game.errors == [] and len(game.moves) == 3
    assert game.nags == {1: ["!"], 2: ["$2"]}
    assert len(game.warnings) == 1 and "variation after move 2 skipped" in game.warnings[0].reason
    assert game.warnings[0].text.startswith("(18-23 (17-22)")


def test_question_mark_side_to_move_is_taken_from_the_movetext() -> None:
    (white,) = read_pdn('[GameType "20"]\n[FEN "?:W31-50:B1-20"]\n1. 32-28 *')
    assert white.errors == [] and white.start.turn is Color.WHITE
    assert "'?' for the side to move: White" in white.warnings[0].reason
    (black,) = read_pdn('[GameType "20"]\n[FEN "?:W31-50:B1-20"]\n1... 19-23 *')
    assert black.errors == [] and black.start.turn is Color.BLACK
    assert "Black" in black.warnings[0].reason


def test_squares_without_separator_and_leading_zeros_are_repaired_with_warnings() -> None:
    assert _reasons('[GameType "25"]\n1.c3d4 f6g5 *') == [
        "squares written without a separator: read as 'c3-d4'",
        "squares written without a separator: read as 'f6-g5'",
    ]
    assert _reasons('[GameType "20"]\n1. 32-28 17-21 2. 37-32 11-17 3. 41-37 06-11 *') == [
        "leading zero in a square number: read as '6-11'"
    ]


def test_quiet_move_written_as_a_capture_and_capture_written_as_quiet() -> None:
    (game,) = read_pdn('[GameType "20"]\n1. 32x28 19-23 2. 28-19 *')
    assert game.errors == [] and len(game.moves) == 3
    assert [(w.move_number, w.reason) for w in game.warnings] == [
        (1, "quiet move written as a capture"),
        (2, "capture written with '-' instead of ':'"),
    ]


def test_result_tag_contradicting_the_movetext_is_a_warning() -> None:
    (game,) = read_pdn('[GameType "20"]\n[Result "0-1"]\n1. 32-28 1-0')
    assert game.result == "1-0"
    assert game.warnings[0].reason == "Result tag 0-1 contradicts the movetext's 1-0; the movetext's is kept"
    # The same outcome on another scale is no contradiction.
    (scaled,) = read_pdn('[GameType "20"]\n[Result "1-0"]\n1. 32-28 2-0')
    assert scaled.warnings == []


def test_missing_game_type_is_inferred_from_squares_and_moves_with_a_warning() -> None:
    (ten,) = read_pdn("1. 33-29 17-22 *")
    assert ten.game_type is GameType.INTERNATIONAL
    assert "assumed international draughts (GameType 20): square 33" in ten.warnings[0].reason
    (replayed,) = read_pdn("1. 32-28 19-23 *")
    assert replayed.game_type is GameType.INTERNATIONAL
    assert "the moves replay only on its board" in replayed.warnings[0].reason
    (both,) = read_pdn('[FEN "W:W29,13,11:B22,4,2"]\n*', default=GameType.RUSSIAN)
    assert both.game_type is GameType.RUSSIAN and "both boards fit" in both.warnings[0].reason
    (algebraic,) = read_pdn("1. c3-d4 *")
    assert algebraic.game_type is GameType.RUSSIAN
    assert "assumed Russian draughts (GameType 25)" in algebraic.warnings[0].reason


def test_numeric_8x8_text_that_is_not_russian_is_named_a_probable_other_game() -> None:
    (game,) = read_pdn("1. 11-15 23-19 *")
    assert game.game_type is GameType.RUSSIAN
    (error,) = game.errors
    assert error.move_number == 1 and error.text == "11-15"
    assert "does not replay as Russian draughts" in error.reason and "GameType 21" in error.reason


def test_declared_other_game_types_are_named() -> None:
    (game,) = read_pdn('[GameType "21"]\n1. 11-15 *')
    assert "English/American checkers" in game.errors[0].reason


def test_an_error_stops_only_its_game() -> None:
    games = read_pdn('[GameType "20"]\n1. 32-28 19-25 2. 33-29 *\n\n[GameType "20"]\n1. 32-28 *\n')
    assert [len(g.moves) for g in games] == [1, 1]
    assert games[0].errors[0].move_number == 1 and games[1].errors == []


def test_check_prints_warnings_and_their_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "other.pdn"
    archive.write_text("% from another program\n1. 33-29 017-21 *\n", encoding="utf-8")
    assert main(["check", str(archive)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0].startswith("game 1 move -: warning: no GameType header: assumed international")
    assert lines[1] == "game 1 move 1: warning: leading zero in a square number: read as '17-21' ('017-21')"
    assert lines[-1] == "1 games, 0 bad, 2 warnings"
