"""Small Swiss events written the way a referee writes a round: ``"1-5 1-0; 6-2 0-1; 7 bye"``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from scoring.model import Game, Player, Tournament, Unpaired, Withdrawal
from scoring.result import GameResult, Result

EventFactory = Callable[..., Tournament]


def parse_round(round_no: int, text: str) -> tuple[list[Game], list[Unpaired]]:
    games: list[Game] = []
    unpaired: list[Unpaired] = []
    for item in filter(None, (part.strip() for part in text.split(";"))):
        first, second = item.split()
        if second == "bye":
            unpaired.append(Unpaired(round_no, int(first), Result.BYE))
        elif second == "absent":
            unpaired.append(Unpaired(round_no, int(first), Result.ABSENT))
        else:
            white, black = (int(n) for n in first.split("-"))
            games.append(Game(round_no, white, black, GameResult.parse(second)))
    return games, unpaired


def build_event(
    players: int,
    *rounds: str,
    withdrawals: Sequence[tuple[int, int]] = (),
    ratings: Sequence[int] | None = None,
    total_rounds: int | None = None,
) -> Tournament:
    """``players`` numbered 1..n; each round a string; withdrawals as (player, after_round)."""
    games: list[Game] = []
    unpaired: list[Unpaired] = []
    for round_no, text in enumerate(rounds, start=1):
        more_games, more_unpaired = parse_round(round_no, text)
        games += more_games
        unpaired += more_unpaired
    return Tournament(
        players=tuple(
            Player(n, f"Player {n}", ratings[n - 1] if ratings else 2400 - 10 * n)
            for n in range(1, players + 1)
        ),
        games=tuple(games),
        unpaired=tuple(unpaired),
        withdrawals=tuple(Withdrawal(p, r) for p, r in withdrawals),
        rounds=total_rounds,
    )


@pytest.fixture
def make_event() -> EventFactory:
    return build_event
