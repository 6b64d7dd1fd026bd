"""Results, points and the tournament model (000 §3.14–3.15, 002 §4.5.8)."""

from __future__ import annotations

import pytest

from scoring import FMJD, Game, GameResult, Player, PointSystem, Result, Tournament, Unpaired
from scoring.errors import (
    DuplicatePairingError,
    InconsistentResultError,
    PointSystemError,
    SelfPairingError,
    UnknownPlayerError,
)


def test_plus_counts_as_win_and_minus_as_loss_for_places() -> None:
    points = PointSystem()
    assert points.points(Result.FORFEIT_WIN) == 1.0
    assert points.points(Result.BYE) == 1.0
    assert points.points(Result.FORFEIT_LOSS) == 0.0
    assert points.points(Result.ABSENT) == 0.0


def test_pluses_are_left_out_for_classification_norms() -> None:
    points = FMJD
    assert points.points(Result.FORFEIT_WIN) == 2.0
    assert points.norm_points(Result.FORFEIT_WIN) == 0.0
    assert points.norm_points(Result.BYE) == 0.0
    assert points.norm_points(Result.WIN) == 2.0
    assert points.norm_points(Result.DRAW) == 1.0


@pytest.mark.parametrize("text,expected", [("1,0.5,0", PointSystem()), ("2/1/0", FMJD), ("3 1 0", PointSystem(3, 1, 0)), ("1 ½ 0", PointSystem())])
def test_point_system_parses_any_triple(text: str, expected: PointSystem) -> None:
    assert PointSystem.parse(text) == expected


@pytest.mark.parametrize("text", ["1,0.5", "a,b,c", "0,0.5,1", "1,2,0"])
def test_bad_point_system_is_refused_with_the_rule(text: str) -> None:
    with pytest.raises(PointSystemError, match="000 §3.15"):
        PointSystem.parse(text)


def test_double_forfeit_gives_both_a_minus() -> None:
    assert GameResult.DOUBLE_FORFEIT.sides == (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS)
    assert GameResult.parse("−/−") is GameResult.DOUBLE_FORFEIT
    assert GameResult.parse("1/2-1/2") is GameResult.DRAW
    assert GameResult.from_sides(Result.WIN, Result.WIN) is None


def test_unknown_game_result_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown game result '2-0'"):
        GameResult.parse("2-0")


def test_player_meeting_himself_is_an_error() -> None:
    with pytest.raises(SelfPairingError, match="player 3 cannot meet himself"):
        Game(1, 3, 3, GameResult.DRAW)


def test_player_twice_in_a_round_is_an_error() -> None:
    players = (Player(1, "A"), Player(2, "B"), Player(3, "C"))
    with pytest.raises(DuplicatePairingError, match="round 1: player 1"):
        Tournament(players, (Game(1, 1, 2), Game(1, 3, 1)))
    with pytest.raises(DuplicatePairingError):
        Tournament(players, (Game(1, 1, 2),), (Unpaired(1, 2),))


def test_unknown_player_is_an_error() -> None:
    with pytest.raises(UnknownPlayerError, match="no player with start number 9"):
        Tournament((Player(1, "A"),), (Game(1, 1, 9),))


def test_unpaired_can_only_be_bye_or_absent() -> None:
    with pytest.raises(InconsistentResultError, match="000 §3.18.2"):
        Unpaired(1, 1, Result.DRAW)


def test_adjudicated_game_needs_a_result() -> None:
    with pytest.raises(InconsistentResultError, match="002 §4.5.2"):
        Game(1, 1, 2, GameResult.PENDING, adjudicated=True)


def test_scores_history_and_norm_scores(swiss_five: Tournament) -> None:
    assert swiss_five.scores == {1: 2.5, 2: 2.0, 3: 1.5, 4: 2.0, 5: 1.0}
    assert swiss_five.norm_scores == {1: 2.5, 2: 1.0, 3: 0.5, 4: 1.0, 5: 0.0}
    assert swiss_five.score_after(2, 2) == 1.0
    assert [e.result for e in swiss_five.history[5]] == [Result.BYE, Result.LOSS, Result.FORFEIT_LOSS]
    assert swiss_five.last_round == 3
    assert swiss_five.opponents(1) == {2, 4, 5}


def test_adjudicated_games_count_as_played_and_annulled_do_not_count() -> None:
    players = (Player(1, "A"), Player(2, "B"))
    adjudicated = Tournament(players, (Game(1, 1, 2, GameResult.WHITE_WINS, adjudicated=True),))
    assert adjudicated.scores == {1: 1.0, 2: 0.0}
    assert adjudicated.history[1][0].played
    annulled = Tournament(players, (Game(1, 1, 2, GameResult.WHITE_WINS, annulled=True),))
    assert annulled.scores == {1: 0.0, 2: 0.0}


def test_with_round_and_with_results_build_copies(swiss_five: Tournament) -> None:
    nxt = swiss_five.with_round([Game(4, 1, 3)], [Unpaired(4, 5)])
    assert nxt.last_round == 4 and swiss_five.last_round == 3
    done = nxt.with_results({(4, 1): GameResult.BLACK_WINS})
    assert done.scores[3] == 2.5


def test_two_players_with_one_start_number_is_an_error() -> None:
    from scoring.errors import DuplicatePlayerError

    with pytest.raises(DuplicatePlayerError, match="start number 1 is given to two players"):
        Tournament((Player(1, "A"), Player(1, "B")))
