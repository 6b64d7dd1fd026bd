"""PostgreSQL drops the service's connections while the server itself stays up.

The app's backends are ended with ``pg_terminate_backend`` (an administrator killing sessions, a
connection pooler or firewall cutting them): every open connection dies at once, mid-transaction
or idle, at a chosen statement. A request in flight answers 503, the pool reconnects, and no
transaction is left half-written. The shared server runs here; the server really stopped and
restarted under load (crash and fast shutdown) is ``test_database_restart.py``, on a server of
its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.engine import Engine, make_url

from corrmail.db import Database
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox, Source, TemporaryFailure
from corrmail.mail.settings import MailSettings
from corrmail.models import InboundMessage, InboundStatus, OutboxMessage, Role, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)]

MAIL = MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"k" * 16)


def terminate_backends(url: str) -> int:
    """End every connection to the database of ``url`` but our own; returns how many."""
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            return len(connection.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = :name AND pid <> pg_backend_pid()"),
                {"name": make_url(url).database},
            ).all())
    finally:
        admin.dispose()


@contextmanager
def dies_after(engine: Engine, url: str, statement_start: str) -> Iterator[list[str]]:
    """The connection that runs a statement starting with ``statement_start`` is terminated
    right after it, from outside, before its transaction can commit."""
    seen: list[str] = []

    def kill(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith(statement_start) and not seen:
            seen.append(statement)
            pid = conn.connection.dbapi_connection.info.backend_pid
            admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            admin.dispose()

    event.listen(engine, "after_cursor_execute", kill)
    try:
        yield seen
    finally:
        event.remove(engine, "after_cursor_execute", kill)


def test_pages_recover_after_every_connection_is_dropped(
    app: Flask, demo_tournament: Tournament, login: Callable[..., FlaskClient], db_url: str,
    database: Database,
) -> None:
    client = login(Role.ORGANIZER)
    pages = ["/tournaments/", f"/tournaments/{demo_tournament.code}", "/games/1", "/readyz"]
    for page in pages:
        assert client.get(page).status_code == 200, page
    assert terminate_backends(db_url) >= 1  # the pool's idle connections die
    for page in pages:  # pre-ping notices the dead connections and opens new ones
        assert client.get(page).status_code == 200, page

    with dies_after(database.engine, db_url, "SELECT") as seen:
        failed = client.get("/games/2")
    assert seen and failed.status_code == 503  # the request in flight fails, cleanly: retry later
    assert failed.headers["Retry-After"]
    assert client.get("/games/2").status_code == 200
    assert client.get("/readyz").json["status"] == "ok"


def test_a_transaction_cut_off_midway_leaves_nothing_half_written(db_url: str) -> None:
    database = Database(db_url)
    inbox = Inbox(database, LetterWriter(MAIL))
    raw = (b"From: stranger@example.org\r\nTo: turnir@turnir.example\r\nSubject: hello\r\n"
           b"Message-ID: <cut@example.org>\r\n\r\n1. c3-d4\r\n")
    # Processing writes the refusal letter and marks the message: kill it between the two.
    with dies_after(database.engine, db_url, "INSERT INTO OUTBOX") as seen:
        with pytest.raises(TemporaryFailure):
            inbox.receive(raw, source=Source.SMTP)
    assert seen
    with database.session() as session:
        stored = session.scalars(select(InboundMessage)).one()
        assert stored.status is InboundStatus.STORED and stored.raw == raw  # kept, unprocessed
        assert session.scalars(select(OutboxMessage)).all() == []  # the refusal rolled back

    receipt = inbox.receive(raw, source=Source.SMTP)  # the MTA delivers again
    assert receipt.status is InboundStatus.REFUSED and receipt.outcome == "no_token"
    with database.session() as session:
        assert len(session.scalars(select(InboundMessage)).all()) == 1
        assert len(session.scalars(select(OutboxMessage)).all()) == 1  # one refusal, once
    database.dispose()


def test_storing_fails_with_a_retry_answer_while_the_database_is_gone(db_url: str) -> None:
    database = Database(db_url)
    inbox = Inbox(database, LetterWriter(MAIL))
    raw = b"From: a@example.org\r\nMessage-ID: <gone@example.org>\r\n\r\ntext\r\n"
    with dies_after(database.engine, db_url, "INSERT INTO INBOUND_MESSAGES"):
        with pytest.raises(TemporaryFailure, match="cannot store"):
            inbox.receive(raw, source=Source.PIPE)
    with database.session() as session:
        assert session.scalars(select(InboundMessage)).all() == []
    assert inbox.receive(raw, source=Source.PIPE).duplicate is False
    database.dispose()
