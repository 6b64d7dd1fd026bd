"""The paperwork commands of ``corrmail``: ``bulletin``, ``report``, ``steward-report`` and
``bulletins-due``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import click

from corrmail.bulletins.archive import issue, preview
from corrmail.bulletins.asof import TournamentNotFound, load_tournament
from corrmail.bulletins.render import render_printable
from corrmail.bulletins.sending import send_issue
from corrmail.bulletins.timetable import run_due
from corrmail.commands import (
    DATE,
    command_transaction,
    day_by_option,
    letter_writer,
    today_option,
    user_by_option,
)
from corrmail.models import utcnow
from corrmail.models.bulletins import BulletinKind, DeliveryStatus

__all__ = ["register"]



def register(group: click.Group) -> None:
    """Add ``bulletin``, ``report``, ``steward-report`` and ``bulletins-due`` to the
    ``corrmail`` group."""
    group.add_command(bulletin)
    group.add_command(report)
    group.add_command(steward_report)
    group.add_command(bulletins_due)


def _paper(code: str, as_of: dt.datetime | None, send: bool, output: Path | None,
           fmt: str, kind: BulletinKind, by: str | None = None) -> None:
    try:
        _write_paper(code, as_of, send, output, fmt, kind, by)
    except ValueError as error:  # players without start numbers, a ledger that does not read
        raise click.ClickException(str(error)) from None


def _write_paper(code: str, as_of: dt.datetime | None, send: bool, output: Path | None,
                 fmt: str, kind: BulletinKind, by: str | None = None) -> None:
    with command_transaction() as (settings, session):
        try:
            tournament = load_tournament(session, code)
        except TournamentNotFound as error:
            raise click.ClickException(str(error)) from None
        day = day_by_option(settings, tournament, as_of)
        signer = user_by_option(session, by)
        if send:
            writer = letter_writer(settings)
            row = issue(session, tournament, day, kind=kind, user=signer,
                        today=day_by_option(settings, tournament, None))
            deliveries = send_issue(session, writer, row)
            content = row.content
            for delivery in deliveries:
                why = f": {delivery.reason} ({delivery.rule})" if delivery.reason else ""
                click.echo(f"  {delivery.status.value:<8} {delivery.name}{why}", err=True)
            queued = sum(d.status is DeliveryStatus.QUEUED for d in deliveries)
            click.echo(f"{kind.value} {row.number} v{row.version} of {code} as of {day}: "
                       f"archived, {queued} letter(s) queued", err=True)
        else:
            content = preview(session, tournament, kind, day, signed_by=signer)
    text = (json.dumps(content, ensure_ascii=False, indent=1) if fmt == "json"
            else render_printable(content))
    if output is not None:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text)


def _paper_command(name: str, kind: BulletinKind, summary: str, *, as_of_help: str,
                   send_help: str, output_help: str | None = None,
                   signed: bool = False) -> click.Command:
    """A command printing (or with ``--send`` archiving and sending) one kind of paper; a
    ``signed`` one names its signer with ``--by``."""
    def write(code: str, as_of: dt.datetime | None, send: bool, output: Path | None, fmt: str,
              by: str | None = None) -> None:
        _paper(code, as_of, send, output, fmt, kind, by)

    params: list[click.Parameter] = [
        click.Argument(["code"]),
        click.Option(["--as-of"], type=DATE, default=None, help=as_of_help),
        click.Option(["--send"], is_flag=True, help=send_help),
        click.Option(["--output"], type=click.Path(dir_okay=False, path_type=Path),
                     default=None, help=output_help),
        click.Option(["--format", "fmt"], type=click.Choice(["html", "json"]), default="html",
                     show_default=True),
    ]
    if signed:
        params.append(click.Option(["--by"], default=None, help=(
            "The steward's login: the report is signed with his name (the referee's when the "
            "tournament has no steward).")))
    return click.Command(name, callback=write, params=params, help=summary)


_REPORT_DATE_HELP = "The date of the report (default: today in the tournament)."

bulletin = _paper_command(
    "bulletin", BulletinKind.BULLETIN,
    "The tournament's bulletin as of a date, rebuilt from the database (002 §4.1.8).",
    as_of_help="The date the bulletin describes (default: today in the tournament).",
    send_help="Archive it as the next number and send it.",
    output_help="Write the page (or JSON) to this file instead of standard output.")
report = _paper_command(
    "report", BulletinKind.FINAL_REPORT,
    "The referee's final report to the organizer (002 §4.1.7).",
    as_of_help=_REPORT_DATE_HELP,
    send_help="Archive it and send it to the organizer, the referee and the players.")
steward_report = _paper_command(
    "steward-report", BulletinKind.STEWARD_REPORT,
    "The steward's report to the referee on the course of play (002 §4.1.8).",
    as_of_help=_REPORT_DATE_HELP,
    send_help="Archive it as the next number and send it to the tournament's referee.",
    signed=True)


@click.command("bulletins-due")
@today_option("The date to act on in every tournament (default: CORRMAIL_TODAY, else today in "
              "each tournament's time zone).")
def bulletins_due(day: dt.datetime | None) -> None:
    """Issue and send every scheduled bulletin that is due. Safe to run daily."""
    with command_transaction() as (settings, session):
        on: dt.datetime | dt.date = day.date() if day is not None else settings.today or utcnow()
        issued = run_due(session, letter_writer(settings), on)
        for row in issued:
            click.echo(f"{row.tournament.code}: bulletin {row.number} as of {row.as_of}")
    if not issued:
        click.echo("no bulletin is due")
