"""The disk fills up while a raw message is being stored: the MTA is told to retry (exit 75 /
451), nothing is half-stored, and the message is stored once when space is back.

SQLite: a real "database or disk is full" (SQLITE_FULL), made by capping the file's pages with
``PRAGMA max_page_count`` — the same error path as a full file system. PostgreSQL: its disk-full
error (SQLSTATE 53100, "could not extend file … No space left on device") is raised by the driver
at the storage statement, since the shared server's disk cannot be filled.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from sqlalchemy import event, select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.mail import service as mail_service
from corrmail.mail.inbox import EX_TEMPFAIL
from corrmail.models import InboundMessage, InboundStatus

RAW = (
    "From: ivan@example.org\r\nTo: turnir@turnir.example\r\nSubject: ход\r\n"
    "Message-ID: <full@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    "1. c3-d4\r\n" + "Приложен длинный анализ партии. " * 4000 + "\r\n"
).encode()


@contextlib.contextmanager
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every Database the mail service opens from now on runs out of space when it writes."""
    full = {"on": True}

    class FullDisk(Database):
        def __init__(self, url: str, **kwargs: Any) -> None:
            super().__init__(url, **kwargs)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", self._cap_pages)
            else:
                event.listen(self.engine, "do_execute", self._no_space)

        @staticmethod
        def _cap_pages(dbapi_connection: Any, record: Any) -> None:
            if full["on"]:
                cursor = dbapi_connection.cursor()
                pages = cursor.execute("PRAGMA page_count").fetchone()[0]
                cursor.execute(f"PRAGMA max_page_count = {pages + 2}")
                cursor.close()

        @staticmethod
        def _no_space(cursor: Any, statement: str, *args: Any) -> bool:
            if full["on"] and statement.lstrip().upper().startswith("INSERT INTO INBOUND_MESSAGES"):
                raise psycopg.errors.DiskFull(
                    'could not extend file "base/16384/16522": No space left on device'
                )
            return False  # not handled here: the driver executes it

    monkeypatch.setattr(mail_service, "Database", FullDisk)
    try:
        yield
    finally:
        full["on"] = False


def _ingest(db_url: str) -> Any:
    env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "disk-full-test-secret",
           "CORRMAIL_MAIL_DOMAIN": "turnir.example"}
    return CliRunner().invoke(main, ["ingest", "--envelope-sender", "ivan@example.org"],
                              input=RAW, env=env)


def test_a_full_disk_makes_the_mta_retry_and_loses_nothing(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with disk_full(monkeypatch):
        refused = _ingest(db_url)
    assert refused.exit_code == EX_TEMPFAIL, refused.output
    assert "temporary failure" in refused.output
    assert "full" in refused.output.lower() or "space" in refused.output.lower()
    database = Database(db_url)
    with database.session() as session:
        assert session.scalars(select(InboundMessage)).all() == []  # nothing half-stored

    monkeypatch.undo()  # space is back; the MTA's retry comes in
    stored = _ingest(db_url)
    assert stored.exit_code == 0, stored.output
    again = _ingest(db_url)  # and a second retry the MTA had already queued
    assert again.exit_code == 0 and "(duplicate)" in again.output
    with database.session() as session:
        (row,) = session.scalars(select(InboundMessage)).all()
        assert row.raw == RAW and row.status is not InboundStatus.STORED
    database.dispose()
