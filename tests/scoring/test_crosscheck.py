"""Cross-check against tiebreak-core, an independent implementation from PyPI (tests only).

On 200 generated Swiss tournaments without unplayed games, Buchholz, its cuts and medians,
Sonneborn-Berger, Koya and wins must equal tiebreak-core's. The generator is a plain random
Swiss (random pairing among never-met players), independent of our pairing engine.
"""

from __future__ import annotations

import random

import pytest

from scoring import Game, GameResult, Player, Tournament
from scoring.standings import standings

tiebreak_core = pytest.importorskip("tiebreak_core")

OURS_TO_THEIRS = {
    "buchholz": "buchholz",
    "buchholz_cut1": "buchholz_cut1",
    "buchholz_cut2": "buchholz_cut2",
    "buchholz_median1": "median_buchholz",
    "buchholz_median2": "median_buchholz_2",
    "sonneborn_berger": "sonneborn_berger",
    "wins": "wins",
}


def generate(seed: int) -> Tournament:
    """A finished random Swiss of 10-30 players and 5-9 rounds (median 2 needs five opponents)."""
    for attempt in range(100):
        tournament = _attempt(random.Random(seed * 1000 + attempt))
        if tournament is not None:
            return tournament
    raise AssertionError(f"no tournament for seed {seed}")


def _attempt(rng: random.Random) -> Tournament | None:
    size = rng.randrange(10, 31, 2)
    rounds = rng.randrange(5, 10)
    players = tuple(Player(n, f"P{n}", rng.randrange(1200, 2500)) for n in range(1, size + 1))
    met: set[frozenset[int]] = set()
    games: list[Game] = []
    for round_no in range(1, rounds + 1):
        for _attempt in range(200):
            order = list(range(1, size + 1))
            rng.shuffle(order)
            pairs = list(zip(order[::2], order[1::2], strict=True))
            if all(frozenset(p) not in met for p in pairs):
                break
        else:
            return None
        for white, black in pairs:
            met.add(frozenset((white, black)))
            result = rng.choice([GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS])
            games.append(Game(round_no, white, black, result))
    return Tournament(players, tuple(games))


def theirs(tournament: Tournament) -> dict[int, dict[str, float]]:
    from tiebreak_core import GameRecord, PlayerTiebreakData, calculate

    data = {}
    for player in tournament.players:
        records = [
            GameRecord(
                opponent_id=entry.opponent or 0,
                opponent_rating=tournament.by_start_no[entry.opponent or 0].rating or 0,
                score=tournament.points.points(entry.result),
                color="white" if entry.colour and entry.colour.value == "w" else "black",
                round_number=entry.round,
            )
            for entry in tournament.history[player.start_no]
        ]
        data[player.start_no] = PlayerTiebreakData(player.start_no, player.rating or 0, tournament.scores[player.start_no], records)
    rounds = tournament.last_round
    result: dict[int, dict[str, float]] = {}
    for start_no, player_data in data.items():
        values = {ours: float(calculate(player_data, data, name)) for ours, name in OURS_TO_THEIRS.items() if name != "wins"}
        values["wins"] = float(player_data.wins)
        values["koya"] = float(calculate(player_data, data, "koya", rounds))
        result[start_no] = values
    return result


@pytest.mark.parametrize("chunk", range(4))
def test_tiebreaks_equal_tiebreak_core_on_200_tournaments(chunk: int) -> None:
    names = [*OURS_TO_THEIRS, "koya"]
    for seed in range(chunk * 50, chunk * 50 + 50):
        tournament = generate(seed)
        ours = {row.start_no: row.tiebreaks for row in standings(tournament, names)}
        expected = theirs(tournament)
        for start_no, values in expected.items():
            for name, value in values.items():
                assert ours[start_no][name] == pytest.approx(value), (seed, start_no, name)
