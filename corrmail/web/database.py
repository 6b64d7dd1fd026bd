"""What a view reads the service through: one SQLAlchemy session per request, closed (and rolled
back if uncommitted) at teardown — a connection that died meanwhile is discarded, not raised (see
:mod:`corrmail.ops.outage`) — the settings parsed at start-up, the letter writer, and today
where a tournament is played."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app, g
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from corrmail.clock import today
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import Tournament

_EXTENSION = "corrmail.database"

Outcome = TypeVar("Outcome")
Refusal = TypeVar("Refusal", bound=Exception)


def init_database(app: Flask, database: Database) -> None:
    app.extensions[_EXTENSION] = database

    @app.teardown_appcontext
    def close_session(exception: BaseException | None) -> None:
        session: Session | None = g.pop("db_session", None)
        if session is None:
            return
        try:
            session.close()
        except DBAPIError:
            # The connection died under the request (a restart, a failover): whatever it had not
            # committed the server has rolled back, and the request has its answer already (its
            # page, or the outage handler's 503). Raising here would turn that into a 500.
            session.invalidate()


def database() -> Database:
    db: Database = current_app.extensions[_EXTENSION]
    return db


def db_session() -> Session:
    """The request's session; views commit explicitly, anything uncommitted is discarded."""
    if "db_session" not in g:
        g.db_session = database().session()
    session: Session = g.db_session
    return session


def settings() -> Settings:
    value: Settings = current_app.config["CORRMAIL_SETTINGS"]
    return value


def mail_settings() -> MailSettings:
    """The mail settings the app parsed from the environment when it started."""
    value: MailSettings = current_app.config["CORRMAIL_MAIL_SETTINGS"]
    return value


def letter_writer() -> LetterWriter:
    """The writer of the service's letters, with the mail settings parsed at start-up."""
    return LetterWriter(mail_settings())


def tournament_today(tournament: Tournament) -> dt.date:
    """Today in the tournament's time zone (or the day the settings fix, for tests and demos)."""
    return today(settings().today, tournament.time_zone)


def commit_or_refusal(
    step: Callable[[Session], Outcome], refusal: type[Refusal] | tuple[type[Refusal], ...]
) -> Outcome | Refusal:
    """Run ``step`` in the request's session and commit what it did. A ``refusal`` it raises
    rolls everything back and is returned for the page to show: nothing refused is stored."""
    session = db_session()
    try:
        outcome = step(session)
    except refusal as error:
        session.rollback()
        return error
    session.commit()
    return outcome
