"""The generated federation (benchmarks) is a database every reader can read."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.demo.devdata import FederationSpec, generate_federation
from corrmail.games.view import GameView
from corrmail.models import Game, Letter, Player, Tournament
from corrmail.standings.results import load_tournament, tournament_table


@pytest.fixture
def db_url(sqlite_url: str) -> str:
    return sqlite_url


def test_a_small_federation_is_complete_and_readable(database: Database) -> None:
    spec = FederationSpec(players=40, games=200, field=6, running=2, seed=3)
    with database.transaction() as session:
        federation = generate_federation(session, spec)
    assert (federation.players, federation.games, federation.tournaments) == (40, 200, 7)
    with database.session() as session:
        assert session.scalar(select(func.count(Game.id))) == 200
        assert session.scalar(select(func.count(Player.id))) == 40
        assert session.scalar(select(func.count(Letter.id))) == federation.letters > 0
        finished = tournament_table(load_tournament(session, federation.finished_codes[0]))
        assert len(finished.rows) == 6 and sum(row.points for row in finished.rows) > 0
        running = session.scalar(select(Tournament).where(
            Tournament.code == federation.running_codes[-1]))
        assert running is not None
        for game in running.games:
            if game.letters:
                assert len(GameView(game).positions) == len(game.letters) + 1
