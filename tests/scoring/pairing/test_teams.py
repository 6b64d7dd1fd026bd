"""Swiss pairing of teams: match points, then game points; colours by board one (000 §3.17.3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.cli import main
from scoring.model import Game, Player, Team, Tournament
from scoring.pairing.errors import PairingError
from scoring.pairing.teams import pair_teams, team_entrants_before
from scoring.result import GameResult
from scoring.trf import load_trf, write_trf

W, D, B = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS


def four_teams(*games: Game) -> Tournament:
    """Teams A (1, 2), B (3, 4), C (5, 6), D (7, 8): boards one and two."""
    teams = (Team("A", (1, 2)), Team("B", (3, 4)), Team("C", (5, 6)), Team("D", (7, 8)))
    players = tuple(Player(n, f"Player {n}", 2300 - n) for n in range(1, 9))
    return Tournament(players, games, teams=teams, rounds=3)


def test_round_one_top_half_against_bottom_half_with_board_colours() -> None:
    draw = pair_teams(four_teams(), 1, "coefficients", seed=1)
    assert {frozenset((p.white, p.black)) for p in draw.pairs} == {
        frozenset("AC"),
        frozenset("BD"),
    }
    for pair in draw.pairs:
        first, second = pair.games
        # Board one of the white team has white; board two black (000 §3.17.3).
        white_team = {"A": (1, 2), "B": (3, 4), "C": (5, 6), "D": (7, 8)}[pair.white]
        assert first.white == white_team[0]
        assert second.black == white_team[1]


def test_later_rounds_by_match_points_then_game_points() -> None:
    # Round 1: A-C (A white on board one) 2-0, D-B (D white) 1½-½.  A and D have 2 match
    # points (A more game points, so A is first of the group), B and C none: A-D and B-C.
    # Colours: A and D both had white: same history, white to the higher classified, A.
    # B and C both had black: B.
    round_one = (
        Game(1, 1, 5, W), Game(1, 6, 2, B),
        Game(1, 7, 3, W), Game(1, 4, 8, D),
    )  # fmt: skip
    event = four_teams(*round_one)
    entrants = {e.start_no: e for e in team_entrants_before(event, 2)}
    assert entrants[1].score == 2.0 and entrants[1].secondary == 2.0
    assert entrants[4].score == 2.0 and entrants[4].secondary == 1.5
    draw = pair_teams(event, 2, "coefficients")
    assert {(p.white, p.black) for p in draw.pairs} == {("A", "D"), ("B", "C")}
    assert draw.bye is None


def test_no_teams_is_an_error() -> None:
    with pytest.raises(PairingError, match="000 §3.17.1"):
        pair_teams(Tournament((Player(1, "x"), Player(2, "y"))), 1, "random")


def test_cli_pairs_teams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "teams.trf"
    path.write_text(write_trf(four_teams()), encoding="utf-8")
    assert main(["pair", str(path), "--system", "buchholz", "--teams"]) == 0
    draw = json.loads(capsys.readouterr().out)
    assert {frozenset((p["white"], p["black"])) for p in draw["pairs"]} == {
        frozenset("AD"),
        frozenset("BC"),
    }
    assert all(len(p["games"]) == 2 for p in draw["pairs"])
    assert main(["pair", str(path), "--system", "buchholz", "--teams", "--format", "trf"]) == 0
    assert len(load_trf(capsys.readouterr().out).games) == 4
