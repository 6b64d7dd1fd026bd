"""`after_round` of a withdrawal: the last round the player took part in (docs/rules/standings.md,
reading 7; 000 §3.16.11 "в момент прекращения игры", 000 §3.18.2)."""

from __future__ import annotations

from corrmail.standings.results import withdrawal_after_round
from scoring.model import Game, Unpaired
from scoring.result import GameResult, Result


def game(round_no: int, result: GameResult, *, annulled: bool = False,
         in_progress: bool = False) -> Game:
    return Game(round_no, 1, 2, result, annulled=annulled, in_progress=in_progress)


def test_the_minuses_his_leaving_produced_are_not_rounds_he_took_part_in() -> None:
    games = [game(1, GameResult.WHITE_WINS), game(2, GameResult.BLACK_FORFEIT_WIN),
             game(3, GameResult.DOUBLE_FORFEIT)]
    assert withdrawal_after_round(1, games) == 1


def test_a_game_begun_and_unfinished_counts_and_one_never_begun_does_not() -> None:
    games = [game(1, GameResult.DRAW), game(2, GameResult.PENDING, in_progress=True),
             game(3, GameResult.PENDING)]
    assert withdrawal_after_round(2, games) == 2


def test_an_annulled_game_does_not_count() -> None:
    games = [game(1, GameResult.DRAW), game(2, GameResult.WHITE_WINS, annulled=True)]
    assert withdrawal_after_round(1, games) == 1


def test_a_bye_or_known_absence_recorded_for_him_counts_only_his_own() -> None:
    games = [game(1, GameResult.DRAW)]
    unpaired = [Unpaired(3, 1, Result.BYE), Unpaired(4, 2, Result.ABSENT)]
    assert withdrawal_after_round(1, games, unpaired) == 3
    assert withdrawal_after_round(2, games, unpaired) == 4


def test_a_player_who_took_part_in_nothing_left_after_round_zero() -> None:
    assert withdrawal_after_round(1, [game(1, GameResult.BLACK_FORFEIT_WIN)]) == 0
    assert withdrawal_after_round(7, []) == 0
