"""A small round robin with every kind of result the standings must show."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from corrmail.db import Database
from corrmail.models import Game, GameResult, GameState, Player, ResultKind, Tournament

# (round, white, black, result, kind): start numbers of a 4-player single round robin.
RESULTS = (
    (1, 1, 2, GameResult.WHITE_WIN, ResultKind.PLAYED),
    (1, 3, 4, GameResult.BLACK_WIN, ResultKind.FORFEIT),  # 4 gets +, 3 gets − (002 §4.5.8)
    (2, 1, 3, GameResult.DRAW, ResultKind.ADJUDICATED),  # marked (000 §3.14.4)
    (2, 2, 4, GameResult.DOUBLE_LOSS, ResultKind.FORFEIT),  # −/−
    (3, 1, 4, None, None),  # still in play
    (3, 2, 3, GameResult.DRAW, ResultKind.PLAYED),
)
CYRILLIC_NAME = "Иванов Пётр Сергеевич"


@pytest.fixture
def sqlite_url(sqlite_db_url: str) -> str:
    return sqlite_db_url


def add_games(database: Database, tournament: Tournament, results: tuple[tuple, ...]) -> None:
    with database.transaction() as session:
        row = session.get(Tournament, tournament.id)
        assert row is not None
        by_number = {p.start_number: p for p in row.participants}
        for round_no, white, black, result, kind in results:
            session.add(Game(
                tournament_id=row.id, round=round_no,
                white_id=by_number[white].id, black_id=by_number[black].id,
                state=GameState.IN_PLAY if result is None else GameState.FINISHED,
                result=result, result_kind=kind,
                result_on=None if result is None else dt.date(2026, 12, 1),
            ))


@pytest.fixture
def results_tournament(
    database: Database, make_tournament: Callable[..., Tournament]
) -> Tournament:
    """«КР-1»: player 1 is Cyrillic; tiebreaks Sonneborn-Berger then wins."""
    tournament = make_tournament(
        players=4, code="КР-1", tiebreak_order=["sonneborn_berger", "wins"]
    )
    with database.transaction() as session:
        row = session.get(Tournament, tournament.id)
        assert row is not None
        player = session.get(Player, row.participants[0].player_id)
        assert player is not None
        player.name = CYRILLIC_NAME
        player.club = "Казань"
    add_games(database, tournament, RESULTS)
    return tournament
