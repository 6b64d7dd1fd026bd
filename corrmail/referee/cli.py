"""The referee's commands of ``corrmail``: ``corrmail cases open-adjudications``."""

from __future__ import annotations

import datetime as dt

import click

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.mail.settings import MailSettings
from corrmail.referee.letters import case_letter_writer
from corrmail.referee.sweep import daily_sweep, open_due_adjudications, open_due_game_records

__all__ = ["register", "cases"]

TODAY_HELP = "The date to act on (default: CORRMAIL_TODAY, else each tournament's date)."


def register(group: click.Group) -> None:
    """Add the ``cases`` commands to the ``corrmail`` group."""
    group.add_command(cases)


@click.group()
def cases() -> None:
    """The referee's cases (002 §4.1.12, §4.3.6, §4.5)."""


@cases.command("open-adjudications")
@click.option("--today", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="The date to act on (default: CORRMAIL_TODAY, else each tournament's date).")
def open_adjudications(day: dt.datetime | None) -> None:
    """Open adjudication cases for the unfinished games of tournaments whose end-of-play date
    has come (002 §4.5.2), and send the players their letters. Safe to run daily."""
    settings = Settings.from_env()
    writer = case_letter_writer(MailSettings.from_env(secret_fallback=settings.secret_key))
    database = Database(settings.database_url)
    try:
        with database.transaction() as session:
            opened = open_due_adjudications(
                session, writer, today=day.date() if day is not None else settings.today
            )
        for code, done in opened.items():
            click.echo(f"{code}: {len(done)} adjudication case(s) opened (002 §4.5.2)")
        if not opened:
            click.echo("no tournament has reached its end-of-play date")
    finally:
        database.dispose()


@cases.command("open-game-records")
@click.option("--today", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="The date to act on (default: CORRMAIL_TODAY, else each tournament's date).")
def open_game_records(day: dt.datetime | None) -> None:
    """Open game-record cases for games finished over the board (002 §4.5.1): e-mail games get
    their record written, postal ones wait 15 days for the players' records. Safe to run daily."""
    settings = Settings.from_env()
    writer = case_letter_writer(MailSettings.from_env(secret_fallback=settings.secret_key))
    database = Database(settings.database_url)
    try:
        with database.transaction() as session:
            opened = open_due_game_records(
                session, writer, today=day.date() if day is not None else settings.today
            )
        for code, done in opened.items():
            click.echo(f"{code}: {len(done)} game-record case(s) opened (002 §4.5.1)")
        if not opened:
            click.echo("no finished game lacks its record case")
    finally:
        database.dispose()


@cases.command("sweep")
@click.option("--today", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help=TODAY_HELP)
def sweep(day: dt.datetime | None) -> None:
    """The referee's daily sweep: open the end-of-play adjudications (002 §4.5.2) and the game
    records (002 §4.5.1), and close the cases whose protest windows have passed (002 §4.1.12).
    Safe to run any number of times a day."""
    settings = Settings.from_env()
    writer = case_letter_writer(MailSettings.from_env(secret_fallback=settings.secret_key))
    database = Database(settings.database_url)
    try:
        with database.transaction() as session:
            report = daily_sweep(
                session, writer, today=day.date() if day is not None else settings.today
            )
        for what, by_tournament in report.items():
            for code, done in by_tournament.items():
                click.echo(f"{code}: {what}: {len(done)}")
    finally:
        database.dispose()
