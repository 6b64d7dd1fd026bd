"""The referee's commands of ``corrmail``: ``corrmail cases open-adjudications``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TypeVar

import click
from sqlalchemy.orm import Session

from corrmail.commands import command_transaction, today_option
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.endgame import batch_listing
from corrmail.referee.sweep import daily_sweep, open_due_adjudications, open_due_game_records

__all__ = ["register", "cases"]

T = TypeVar("T")

TODAY_HELP = "The date to act on (default: CORRMAIL_TODAY, else each tournament's date)."


def register(group: click.Group) -> None:
    """Add the ``cases`` commands to the ``corrmail`` group."""
    group.add_command(cases)


@click.group()
def cases() -> None:
    """The referee's cases (002 §4.1.12, §4.3.6, §4.5)."""


TODAY_OPTION = today_option(TODAY_HELP)


def _run_on(
    day: dt.datetime | None, job: Callable[[Session, LetterWriter, dt.date | None], T]
) -> T:
    """Run one of the referee's daily jobs in a transaction, with the case letter writer, on
    ``--today`` (else ``CORRMAIL_TODAY``, else each tournament's own date)."""
    with command_transaction() as (settings, session):
        writer = case_letter_writer(MailSettings.from_env(secret_fallback=settings.secret_key))
        return job(session, writer, day.date() if day is not None else settings.today)


@cases.command("open-adjudications")
@TODAY_OPTION
def open_adjudications(day: dt.datetime | None) -> None:
    """Open adjudication cases for the unfinished games of tournaments whose end-of-play date
    has come (002 §4.5.2), and send the players their letters. Safe to run daily."""
    def job(session: Session, writer: LetterWriter, today: dt.date | None) -> dict[str, list[str]]:
        opened = open_due_adjudications(session, writer, today=today)
        # Listed while the session is open: the games the endgame tables settle come first.
        return {code: batch_listing([d.stored.row for d in done]) for code, done in opened.items()}

    opened = _run_on(day, job)
    for code, lines in opened.items():
        click.echo(f"{code}: {len(lines)} adjudication case(s) opened (002 §4.5.2)")
        for line in lines:
            click.echo(line)
    if not opened:
        click.echo("no tournament has reached its end-of-play date")


@cases.command("open-game-records")
@TODAY_OPTION
def open_game_records(day: dt.datetime | None) -> None:
    """Open game-record cases for games finished over the board (002 §4.5.1): e-mail games get
    their record written, postal ones wait 15 days for the players' records. Safe to run daily."""
    opened = _run_on(
        day, lambda session, writer, today: open_due_game_records(session, writer, today=today)
    )
    for code, done in opened.items():
        click.echo(f"{code}: {len(done)} game-record case(s) opened (002 §4.5.1)")
    if not opened:
        click.echo("no finished game lacks its record case")


@cases.command("sweep")
@TODAY_OPTION
def sweep(day: dt.datetime | None) -> None:
    """The referee's daily sweep: open the end-of-play adjudications (002 §4.5.2) and the game
    records (002 §4.5.1), and close the cases whose protest windows have passed (002 §4.1.12).
    Safe to run any number of times a day."""
    report = _run_on(day, lambda session, writer, today: daily_sweep(session, writer, today=today))
    for what, by_tournament in report.items():
        for code, done in by_tournament.items():
            click.echo(f"{code}: {what}: {len(done)}")
