"""What every ``corrmail`` command does the same way: its one database transaction, its letter
writer, and the tournament CODE, the user ``--by`` and the day ``--today`` name."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.clock import today as service_today
from corrmail.config import Settings, SettingsError
from corrmail.db import Database
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import Tournament, TournamentNotFound, User
from corrmail.people.accounts import user_by_login

__all__ = [
    "DATE", "command_session", "command_settings", "command_transaction", "day_by_option", "letter_writer", "today_option",
    "tournament_by_code", "user_by_option",
]

#: How every command takes a date: ISO, as the rulebook's dates are written in the database.
DATE = click.DateTime(formats=["%Y-%m-%d"])

Command = TypeVar("Command", bound=Callable[..., Any])


def command_settings() -> Settings:
    """The settings from the environment, or the one-line error naming the variable to fix
    (not a traceback); nothing has been read or written yet."""
    try:
        return Settings.from_env()
    except SettingsError as error:
        raise click.ClickException(str(error)) from None


@contextmanager
def command_transaction() -> Iterator[tuple[Settings, Session]]:
    """The settings from the environment and one transaction for the whole command; the
    connection pool is closed however the command ends."""
    settings = command_settings()
    database = Database(settings.database_url)
    try:
        with database.transaction() as session:
            yield settings, session
    finally:
        database.dispose()


@contextmanager
def command_session() -> Iterator[Session]:
    """One session for a command that only reads: nothing it does is committed; the
    connection pool is closed however the command ends."""
    database = Database(command_settings().database_url)
    try:
        with database.session() as session:
            yield session
            session.rollback()
    finally:
        database.dispose()


def letter_writer(settings: Settings) -> LetterWriter:
    return LetterWriter(MailSettings.from_env(secret_fallback=settings.secret_key))


def tournament_by_code(session: Session, code: str) -> Tournament:
    found = session.scalar(select(Tournament).where(Tournament.code == code))
    if found is None:
        raise click.ClickException(str(TournamentNotFound(code)))
    return found


def user_by_option(session: Session, login: str | None) -> User | None:
    """The user ``--by LOGIN`` names (as logins are told apart: case and surrounding spaces
    aside, :func:`corrmail.people.accounts.user_by_login`), or None without ``--by``."""
    if login is None:
        return None
    user = user_by_login(session, login)
    if user is None:
        raise click.BadParameter(f"no user {login!r}", param_hint="--by")
    return user


def today_option(help: str | None = None) -> Callable[[Command], Command]:
    """The command's ``--today YYYY-MM-DD``, passed as ``day`` (None without it): the date it
    acts on, read by :func:`day_by_option`."""
    return click.option("--today", "day", type=DATE, default=None, help=help)


def day_by_option(settings: Settings, tournament: Tournament, day: dt.datetime | None) -> dt.date:
    """The day ``--today`` names, else the service's today where the tournament is played."""
    return day.date() if day is not None else service_today(settings.today, tournament.time_zone)
