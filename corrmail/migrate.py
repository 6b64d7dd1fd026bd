"""Alembic, driven from code: `corrmail db upgrade` and the test fixtures call these."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from corrmail.db import make_engine
from corrmail.paths import MIGRATIONS_DIR


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # Passed as an attribute, not an option: configparser would choke on '%' in passwords.
    config.attributes["database_url"] = url
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)
    if revision == "head":
        fill_game_states(url)


def fill_game_states(url: str) -> int:
    """Recompute the games' stored states a migration dropped, once the schema is the models'.

    A game's state is derived data (``corrmail.games.state``). A migration must not compute it
    itself: the service's code it would call reads tables as the newest models define them,
    which an older schema half-way up the chain does not have yet. So a migration that changes
    what a state holds deletes the rows, and this fills them after the last migration."""
    from sqlalchemy.orm import Session

    from corrmail.games.state import fill_missing

    engine = make_engine(url)
    try:
        with Session(engine) as session, session.begin():
            return fill_missing(session)
    finally:
        engine.dispose()


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations in {MIGRATIONS_DIR}")
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def is_up_to_date(url: str) -> bool:
    engine = make_engine(url)
    try:
        return current_revision(engine) == head_revision()
    finally:
        engine.dispose()
