"""Small tournaments computed by hand, shared by the scoring tests."""

from __future__ import annotations

import pytest

from scoring import Game, GameResult, Player, Tournament, TournamentSystem, Unpaired
from scoring.roundrobin import round_robin_games

W, D, B = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS


@pytest.fixture
def round_robin_four() -> Tournament:
    """Berger table for four: Rd1 1-4 2-3, Rd2 4-3 1-2, Rd3 2-4 3-1.

    1 beats 4 and 2, draws 3: 2.5.  2 beats 3, draws 4: 1.5.  4 beats 3: 1.5.  3: 0.5.
    """
    results = {(1, 1): W, (1, 2): W, (2, 4): W, (2, 1): W, (3, 2): D, (3, 3): D}
    games = tuple(
        Game(g.round, g.white, g.black, results[(g.round, g.white)]) for g in round_robin_games([1, 2, 3, 4])
    )
    players = tuple(Player(n, f"Player {n}", 2000 + 10 * n) for n in range(1, 5))
    return Tournament(players, games, system=TournamentSystem.ROUND_ROBIN)


@pytest.fixture
def swiss_five() -> Tournament:
    """Five players, three rounds, a bye each round and one forfeit.

    R1: 1-2 1-0, 3-4 ½, 5 bye.  R2: 5-1 0-1, 2-3 1-0, 4 bye.  R3: 1-4 ½, 3-5 +/-, 2 bye.
    Scores: 1: 2.5, 2: 2, 3: 1.5, 4: 2, 5: 1.
    """
    players = tuple(Player(n, f"Player {n}", 1900 + 20 * n) for n in range(1, 6))
    games = (
        Game(1, 1, 2, W),
        Game(1, 3, 4, D),
        Game(2, 5, 1, B),
        Game(2, 2, 3, W),
        Game(3, 1, 4, D),
        Game(3, 3, 5, GameResult.WHITE_FORFEIT_WIN),
    )
    byes = (Unpaired(1, 5), Unpaired(2, 4), Unpaired(3, 2))
    return Tournament(players, games, byes, rounds=3)
