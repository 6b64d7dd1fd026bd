"""A game's stored state is derived data that a migration may drop when what it holds is defined
anew (0016: a move of an accepted variant counts as 002 §4.3.5 asks); ``corrmail db upgrade``
recomputes it after the last migration, with the models the schema now matches. The demo goes
down one migration and up again, and every game's state equals its ledger's replay."""

from __future__ import annotations

from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.demo.tournament import load_demo
from corrmail.games.state import StoredGameState
from corrmail.mail.settings import MailSettings
from corrmail.migrate import downgrade, upgrade
from corrmail.models import Game
from tests.conftest import assert_game_states_match


def test_states_dropped_by_a_migration_are_filled_after_the_last(db_url: str) -> None:
    database = Database(db_url)
    try:
        with database.transaction() as session:
            load_demo(session, MailSettings(domain="demo.example", from_address="t@demo.example",
                                            secret=b"secret"))
        downgrade(db_url, "0015_protest_letters")  # below 0016 and 0017: both drop the states
        upgrade(db_url)
        with database.session() as session:
            games = session.scalar(select(func.count(Game.id)))
            states = session.scalar(select(func.count(StoredGameState.game_id)))
        assert games == states == 15
        assert_game_states_match(database)
    finally:
        database.dispose()
