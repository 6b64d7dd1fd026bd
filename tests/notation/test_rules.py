"""Worked positions for each rule the engine implements (Russian, international, giveaway)."""

from __future__ import annotations

import pytest

from notation.fen import parse_fen
from notation.geometry import Geometry
from notation.position import Board, Piece, Position
from notation.rules import Color, GameType

DRAUGHTS = [GameType.RUSSIAN, GameType.GIVEAWAY, GameType.INTERNATIONAL]


def effects(position: Position) -> set[tuple[str, str, frozenset[str]]]:
    geometry: Geometry = position.geometry
    return {
        (
            geometry.algebraic(m.start),
            geometry.algebraic(m.end),
            frozenset(geometry.algebraic(s) for s in m.captured),
        )
        for m in position.legal_moves()
    }


def test_russian_man_promoted_mid_capture_goes_on_capturing_as_a_flying_king() -> None:
    position = parse_fen("W:Wb6:Bc7,f6", GameType.RUSSIAN)
    assert effects(position) == {
        ("b6", "g5", frozenset({"c7", "f6"})),
        ("b6", "h4", frozenset({"c7", "f6"})),
    }
    (move, _) = position.legal_moves()
    assert move.promotes
    assert position.play(move).piece_at(move.end) == Piece(Color.WHITE, king=True)


def test_international_man_passing_the_last_row_stays_a_man() -> None:
    position = parse_fen("W:Wb8:Bc9,e9", GameType.INTERNATIONAL)
    assert effects(position) == {("b8", "f8", frozenset({"c9", "e9"}))}
    (move,) = position.legal_moves()
    assert not move.promotes
    assert position.play(move).piece_at(move.end) == Piece(Color.WHITE, king=False)


def test_international_man_ending_on_the_last_row_promotes() -> None:
    position = parse_fen("W:Wb8:Bc9", GameType.INTERNATIONAL)
    (move,) = position.legal_moves()
    assert position.play(move).piece_at(move.end) == Piece(Color.WHITE, king=True)


def test_majority_capture_applies_to_international_only() -> None:
    fen = "W:Wd4:Bc5,e5,g7"
    assert effects(parse_fen(fen, GameType.RUSSIAN)) == {
        ("d4", "b6", frozenset({"c5"})),
        ("d4", "h8", frozenset({"e5", "g7"})),
    }
    assert effects(parse_fen(fen, GameType.INTERNATIONAL)) == {("d4", "h8", frozenset({"e5", "g7"}))}


def test_flying_king_must_land_where_the_capture_continues() -> None:
    position = parse_fen("W:WKa1:Bc3,f4", GameType.RUSSIAN)
    assert effects(position) == {
        ("a1", "g3", frozenset({"c3", "f4"})),
        ("a1", "h2", frozenset({"c3", "f4"})),
    }


def test_flying_king_without_continuation_may_land_on_any_free_square_beyond() -> None:
    position = parse_fen("W:WKa1:Bc3", GameType.RUSSIAN)
    assert {end for _, end, _ in effects(position)} == {"d4", "e5", "f6", "g7", "h8"}


def test_turkish_strike_a_captured_piece_blocks_until_the_move_ends() -> None:
    # Black king g7 takes f6, b4, c7 and stands on d8.  Had f6 left the board at once, the
    # king could go on over e7-f6 and take the white king on g5; f6 still stands, so it stops.
    position = parse_fen("B:Wb4,Kg5,f6,c7:BKe1,h2,d6,Kg7", GameType.RUSSIAN)
    from_g7 = {e for e in effects(position) if e[0] == "g7"}
    assert from_g7 == {("g7", "d8", frozenset({"f6", "b4", "c7"}))}


def test_capture_is_compulsory() -> None:
    position = parse_fen("W:Wc3,g3:Bd4", GameType.RUSSIAN)
    assert effects(position) == {("c3", "e5", frozenset({"d4"}))}


def test_men_capture_backwards() -> None:
    position = parse_fen("W:We5:Bd4", GameType.RUSSIAN)
    assert effects(position) == {("e5", "c3", frozenset({"d4"}))}


def test_two_routes_with_one_effect_are_one_move() -> None:
    # The king may stop on f4 or e3 between g5 and d2: two routes, one effect.
    position = parse_fen("W:WKh6:Bd2,g5", GameType.RUSSIAN)
    geometry = position.geometry
    assert effects(position) == {("h6", "c1", frozenset({"g5", "d2"}))}
    routes = {tuple(geometry.algebraic(s) for s in r.route) for r in position.legal_routes()}
    assert routes == {("h6", "f4", "c1"), ("h6", "e3", "c1")}
    assert position.perft(1) == 1 and position.perft(1, distinct=False) == 2


def test_side_without_pieces_loses_direct_and_wins_giveaway() -> None:
    direct = parse_fen("W:W:Bc3", GameType.RUSSIAN).outcome()
    assert direct is not None and direct.winner is Color.BLACK and direct.loser_to_move
    giveaway = parse_fen("W:W:Bc3", GameType.GIVEAWAY).outcome()
    assert giveaway is not None and giveaway.winner is Color.WHITE and not giveaway.loser_to_move


def test_blocked_side_has_no_move() -> None:
    position = parse_fen("W:Wa1:Bb2,c3", GameType.RUSSIAN)
    assert position.legal_moves() == []
    outcome = position.outcome()
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.loser_to_move


def test_game_in_progress_has_no_outcome() -> None:
    assert Position.initial(GameType.RUSSIAN).outcome() is None


def test_forced_move_is_the_only_legal_move() -> None:
    assert parse_fen("W:Wc3,g3:Bd4", GameType.RUSSIAN).forced_move() is not None
    assert Position.initial(GameType.RUSSIAN).forced_move() is None


@pytest.mark.parametrize("game_type", DRAUGHTS)
def test_push_pop_restores_the_position(game_type: GameType) -> None:
    board = Board.initial(game_type)
    start = board.position
    for _ in range(10):
        board.push(board.position.legal_moves()[-1])
    for _ in range(10):
        board.pop()
    assert board.position == start and board.move_stack == []
