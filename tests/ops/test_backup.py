"""Backup and restore: a federation restored into a new database has every tournament's standings
and every game's time chart unchanged, and every raw letter byte for byte."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from corrmail.db import Database
from corrmail.demo.federation import FederationSpec, generate_federation
from corrmail.demo.tournament import load_demo
from corrmail.games.view import GameView
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox, Source
from corrmail.mail.settings import MailSettings
from corrmail.models import Game, InboundMessage, Tournament
from corrmail.ops import backup as backup_module
from corrmail.ops.backup import (
    BackupError,
    ChecksumMismatch,
    RestoreTargetNotEmpty,
    backup,
    read_manifest,
    restore,
)
from corrmail.referee.tournament_view import scoring_tournament
from scoring.standings import standings

MAIL = MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"k" * 16)
SPEC = FederationSpec(players=20, tournaments=2, players_per_tournament=5, cycles=2)


def _message(number: int) -> bytes:
    return (
        f"From: player{number}@example.org\r\nTo: turnir@turnir.example\r\n"
        f"Subject: ход {number}\r\nMessage-ID: <m{number}@example.org>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n1. c3-d4\r\n"
    ).encode()


def _federation(url: str) -> Database:
    database = Database(url)
    with database.transaction() as session:
        load_demo(session)
    generate_federation(database, SPEC)
    inbox = Inbox(database, LetterWriter(MAIL))
    for number in range(3):
        inbox.receive(_message(number), source=Source.PIPE,
                      received_at=dt.datetime(2026, 10, 1 + number, 9, tzinfo=dt.UTC))
    return database


def _picture(url: str) -> tuple[dict[str, object], dict[int, object], dict[int, bytes]]:
    """Standings of every tournament, time chart of every game, every raw inbound letter."""
    database = Database(url)
    try:
        with database.session() as session:
            tables = {
                t.code: standings(scoring_tournament(t), tiebreaks=t.tiebreak_order or None)
                for t in session.scalars(select(Tournament))
            }
            charts = {game.id: GameView(game).chart() for game in session.scalars(select(Game))}
            raw = {row.id: row.raw for row in session.execute(select(InboundMessage.id, InboundMessage.raw))}
    finally:
        database.dispose()
    return tables, charts, raw


@pytest.fixture
def target_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """A database that does not exist yet, on the same backend as ``db_url``."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        yield f"sqlite:///{tmp_path / 'restored' / 'corrmail.sqlite'}"
        return
    name = f"{url.database}_restored"
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    drop = text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    with admin.connect() as connection:
        connection.execute(drop)
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(drop)
        admin.dispose()


def test_restore_reproduces_every_standing_time_chart_and_letter(
    db_url: str, target_url: str, tmp_path: Path
) -> None:
    _federation(db_url).dispose()
    before = _picture(db_url)
    tables, charts, raw = before
    assert len(tables) == 1 + SPEC.tournaments and len(charts) == 15 + 2 * 20 and len(raw) == 3
    assert any(row.points for rows in tables.values() for row in rows)  # results are counted

    manifest = backup(db_url, tmp_path / "backup")
    assert manifest.counts["inbound_messages"] == 3 and manifest.counts["games"] == len(charts)
    report = restore(tmp_path / "backup", target_url)
    assert report.letters_checked == 3 + manifest.counts["outbox"] and report.replayed == []
    assert _picture(target_url) == before
    if make_url(target_url).get_backend_name() == "postgresql":
        # pg_restore brings no statistics; restore analyses, or plans assume empty tables.
        restored = create_engine(target_url)
        try:
            with restored.connect() as connection:
                analysed = connection.execute(text(
                    "SELECT count(*) FROM pg_stat_user_tables "
                    "WHERE relname IN ('letters', 'games', 'inbound_messages') AND last_analyze IS NOT NULL"
                )).scalar_one()
        finally:
            restored.dispose()
        assert analysed == 3


def test_letters_that_arrive_during_the_backup_are_replayed_once(
    db_url: str, target_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = _federation(db_url)
    inbox = Inbox(database, LetterWriter(MAIL))
    write_letters = backup_module._write_letters

    def letter_arrives_between_dump_and_archive(db: Database, directory: Path) -> None:
        inbox.receive(_message(99), source=Source.SMTP,
                      received_at=dt.datetime(2026, 10, 9, 12, tzinfo=dt.UTC))
        write_letters(db, directory)

    monkeypatch.setattr(backup_module, "_write_letters", letter_arrives_between_dump_and_archive)
    backup(db_url, tmp_path / "backup")
    database.dispose()

    restored = Database(target_url)
    replay_inbox = Inbox(restored, LetterWriter(MAIL))
    report = restore(
        tmp_path / "backup", target_url,
        replay=lambda entry, raw: replay_inbox.receive(
            raw, source=entry.source or "restore", envelope_sender=entry.envelope_sender,
            received_at=dt.datetime.fromisoformat(entry.received_at or ""),
        ),
    )
    assert [entry.message_id for entry in report.replayed] == ["<m99@example.org>"]
    with restored.session() as session:
        rows = session.execute(select(InboundMessage.message_id, InboundMessage.received_at)).all()
    restored.dispose()
    assert sorted(r.message_id for r in rows) == [f"<m{n}@example.org>" for n in (0, 1, 2, 99)]
    arrival = next(r.received_at for r in rows if r.message_id == "<m99@example.org>")
    assert arrival == dt.datetime(2026, 10, 9, 12, tzinfo=dt.UTC)


def test_a_damaged_backup_is_refused(db_url: str, target_url: str, tmp_path: Path) -> None:
    _federation(db_url).dispose()
    backup(db_url, tmp_path / "backup")
    with (tmp_path / "backup" / "letters.tar").open("r+b") as archive:
        archive.seek(600)
        archive.write(b"X")
    with pytest.raises(ChecksumMismatch, match="letters.tar"):
        read_manifest(tmp_path / "backup")
    with pytest.raises(ChecksumMismatch):
        restore(tmp_path / "backup", target_url)


def test_restore_never_mixes_two_federations(db_url: str, tmp_path: Path) -> None:
    _federation(db_url).dispose()
    backup(db_url, tmp_path / "backup")
    with pytest.raises(RestoreTargetNotEmpty, match="restore into a new, empty database"):
        restore(tmp_path / "backup", db_url)
    with pytest.raises(BackupError, match="not empty"):
        backup(db_url, tmp_path / "backup")


def test_restore_refuses_another_dialect_and_a_directory_without_manifest(
    tmp_path: Path, sqlite_template: Path
) -> None:
    url = f"sqlite:///{sqlite_template}"
    backup(url, tmp_path / "backup")
    with pytest.raises(BackupError, match="restore it into sqlite, not postgresql"):
        restore(tmp_path / "backup", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    (tmp_path / "empty").mkdir()
    with pytest.raises(BackupError, match="not a corrmail backup"):
        restore(tmp_path / "empty", f"sqlite:///{tmp_path / 'x.sqlite'}")


def test_backup_and_restore_commands(db_url: str, target_url: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from corrmail.cli import main

    _federation(db_url).dispose()
    env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "backup-test-secret"}
    runner = CliRunner()
    made = runner.invoke(main, ["backup", str(tmp_path / "b")], env=env)
    assert made.exit_code == 0, made.output
    assert "3 inbound_messages" in made.output
    restored = runner.invoke(main, ["restore", str(tmp_path / "b"), "--database-url", target_url], env=env)
    assert restored.exit_code == 0, restored.output
    assert "3 letters identical" in restored.output or "letters identical" in restored.output
    again = runner.invoke(main, ["restore", str(tmp_path / "b"), "--database-url", target_url], env=env)
    assert again.exit_code == 1 and "new, empty database" in again.output
    database = Database(target_url)
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 15 + 2 * 20
    database.dispose()
    assert os.environ.get("CORRMAIL_DATABASE_URL") != target_url
