"""The migrations build exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from corrmail.db import Database, make_engine
from corrmail.migrate import current_revision, downgrade, head_revision, upgrade
from corrmail.models import (
    NAMING_CONVENTION,
    AppendOnlyViolation,
    AuditEntry,
    Base,
    Channel,
    Game,
    Letter,
    Participant,
    Tournament,
)


def test_migrations_match_models(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_downgrade_to_nothing_and_back(empty_db_url: str) -> None:
    upgrade(empty_db_url)
    downgrade(empty_db_url, "base")
    engine = make_engine(empty_db_url)
    try:
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url)
    try:
        assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_every_constraint_is_named_by_the_convention() -> None:
    assert set(NAMING_CONVENTION) == {"ix", "uq", "ck", "fk", "pk"}
    for table in Base.metadata.sorted_tables:
        for constraint in table.constraints:
            assert constraint.name, f"unnamed constraint on {table.name}"


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'x.sqlite'}")
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


def _first_game(session: Session, tournament: Tournament) -> Game:
    white, black = session.query(Participant).filter_by(tournament_id=tournament.id).limit(2)
    game = Game(tournament_id=tournament.id, round=1, white_id=white.id, black_id=black.id)
    session.add(game)
    session.flush()
    return game


def test_foreign_keys_are_enforced(session: Session) -> None:
    session.add(Game(tournament_id=999, round=1, white_id=998, black_id=997))
    with pytest.raises(IntegrityError):
        session.flush()


def test_timestamps_come_back_aware_utc(
    session: Session, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament(players=2)
    game = _first_game(session, tournament)
    moscow = dt.timezone(dt.timedelta(hours=3))
    entered = dt.datetime(2026, 10, 1, 12, 0, tzinfo=moscow)
    session.add(Letter(game_id=game.id, sequence=1, channel=Channel.POST, entered_at=entered))
    session.commit()
    session.expire_all()
    letter = session.query(Letter).one()
    assert letter.entered_at == entered
    assert letter.entered_at.tzinfo == dt.UTC


def test_naive_datetime_is_refused(
    session: Session, make_tournament: Callable[..., Tournament]
) -> None:
    game = _first_game(session, make_tournament(players=2))
    session.add(
        Letter(
            game_id=game.id, sequence=1, channel=Channel.POST, entered_at=dt.datetime(2026, 1, 1)
        )
    )
    with pytest.raises(Exception, match="naive datetime"):
        session.flush()


def test_letters_cannot_be_edited_or_deleted(
    session: Session, make_tournament: Callable[..., Tournament]
) -> None:
    game = _first_game(session, make_tournament(players=2))
    letter = Letter(game_id=game.id, sequence=1, channel=Channel.POST, moves_text="c3-d4")
    session.add(letter)
    session.commit()
    letter.moves_text = "c3-b4"
    with pytest.raises(AppendOnlyViolation, match="002 §4.2.5"):
        session.flush()
    session.rollback()
    session.delete(letter)
    with pytest.raises(AppendOnlyViolation):
        session.flush()


def test_audit_log_is_append_only(session: Session) -> None:
    entry = AuditEntry(action="test", entity="game", entity_id=1)
    session.add(entry)
    session.commit()
    entry.summary = "rewritten"
    with pytest.raises(AppendOnlyViolation):
        session.flush()


def test_two_letters_cannot_share_a_place_in_the_ledger(
    session: Session, make_tournament: Callable[..., Tournament]
) -> None:
    game = _first_game(session, make_tournament(players=2))
    session.add(Letter(game_id=game.id, sequence=1, channel=Channel.POST))
    session.add(Letter(game_id=game.id, sequence=1, channel=Channel.EMAIL))
    with pytest.raises(IntegrityError):
        session.flush()


def test_stale_game_update_is_refused(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    with database.transaction() as session:
        game_id = _first_game(session, make_tournament(players=2)).id
    with database.session() as first, database.session() as second:
        mine = first.get(Game, game_id)
        theirs = second.get(Game, game_id)
        assert mine is not None and theirs is not None
        mine.round = 2
        first.commit()
        theirs.round = 3
        with pytest.raises(StaleDataError):
            second.commit()


def test_readiness_sees_the_migrated_schema(db_url: str) -> None:
    database = Database(db_url)
    try:
        with database.engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM users")).scalar() == 0
    finally:
        database.dispose()
