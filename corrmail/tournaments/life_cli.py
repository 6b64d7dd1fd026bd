"""Commands for a tournament's life without the demo: ``user add|list|deactivate|roles``,
``tournament officials|publish|sheet-posted|close`` and ``outbox list``.

They call the same service functions as the web pages (``corrmail.people.accounts``,
``corrmail.tournaments.officials``, ``corrmail.tournaments.publishing``, ``corrmail.tournaments.closing``); a refusal exits 1 with
the reason and stores nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.commands import (
    DATE,
    command_transaction,
    day_by_option,
    letter_writer,
    today_option,
    tournament_by_code,
    user_by_option,
)
from corrmail.models import OutboxMessage, OutboxStatus, Participant, Tournament
from corrmail.people.accounts import (
    AccountRefused,
    NewAccount,
    account_row,
    add_user,
    deactivate,
    list_users,
    parse_roles,
    set_roles,
    user_by_login,
)
from corrmail.tournaments.cli import tournament
from corrmail.tournaments.closing import CloseRefused, close
from corrmail.tournaments.officials import OfficialRefused, OfficialsChange, change_officials
from corrmail.tournaments.publishing import PublishRefused, publish, record_sheet_posted, resend

__all__ = ["register"]

FORMAT = click.Choice(["text", "json"])


def register(group: click.Group) -> None:
    group.add_command(user)
    group.add_command(outbox)
    for command in (tournament_officials, tournament_publish, tournament_sheet_posted,
                    tournament_close):
        tournament.add_command(command)


@contextmanager
def _refusal_exits(session: Session, refusal: type[Exception]) -> Iterator[None]:
    """A refusal stores nothing of the command and exits 1 with its reason."""
    try:
        yield
    except refusal as error:
        session.rollback()
        raise click.ClickException(str(error)) from error


# -- user ----------------------------------------------------------------------------------------


@click.group()
def user() -> None:
    """Accounts: the first organizer of a fresh install is made here, the rest on the web too."""


@user.command("add")
@click.argument("login")
@click.option("--name", required=True, help="The name shown to others.")
@click.option("--email", default=None, help="Where the invitation and letters go.")
@click.option("--role", "roles", multiple=True, required=True,
              help="organizer, referee, steward or player (repeat for several).")
@click.option("--password-stdin", is_flag=True,
              help="Read the password from the first line of standard input; "
                   "without it an invitation with a one-time link is queued.")
@click.option("--locale", type=click.Choice(["ru", "en"]), default=None)
@click.option("--by", "login_by", default=None, help="Who creates it, for the audit log.")
def user_add(login: str, name: str, email: str | None, roles: tuple[str, ...],
             password_stdin: bool, locale: str | None, login_by: str | None) -> None:
    """Create the account LOGIN; nothing is stored when it is refused."""
    password = sys.stdin.readline().rstrip("\r\n") if password_stdin else None
    with command_transaction() as (settings, session):
        writer = None if password is not None else letter_writer(settings)
        with _refusal_exits(session, AccountRefused):
            created = add_user(
                session,
                NewAccount(login=login, name=name, email=email, roles=parse_roles(roles),
                           password=password, locale=locale),
                by=user_by_option(session, login_by), writer=writer,
                base_url=settings.base_url, secret_key=settings.secret_key)
        user, invitation = created.user, created.invitation
        how = "password set" if invitation is None else f"invitation queued to {user.email}"
        click.echo(f"user {user.login} created ({', '.join(sorted(r.value for r in user.roles))}); {how}")
        if invitation is not None and writer is not None and writer.settings.captured:
            # No mail server sends the letter: the operator hands the link over himself.
            click.echo("no mail server (CORRMAIL_SMTP_HOST unset): the invitation is kept unsent; "
                       f"give {user.display_name} this one-time set-password link yourself:\n"
                       f"{invitation.link}")


@user.command("list")
@click.option("--format", "output", type=FORMAT, default="text", show_default=True)
def user_list(output: str) -> None:
    """Every account: login, name, e-mail, roles, active."""
    with command_transaction() as (_settings, session):
        rows = [account_row(found) for found in list_users(session)]
    if output == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    for row in rows:
        click.echo(f"{row['login']:<16} {row['name']:<28} {row['email'] or '-':<30} "
                   f"{','.join(row['roles']):<28} {'active' if row['active'] else 'inactive'}")  # type: ignore[arg-type]


@user.command("deactivate")
@click.argument("login")
@click.option("--by", "login_by", default=None, help="Who deactivates it, for the audit log.")
def user_deactivate(login: str, login_by: str | None) -> None:
    """LOGIN can no longer log in; what he did stays on record."""
    with command_transaction() as (_settings, session):
        with _refusal_exits(session, AccountRefused):
            found = deactivate(session, login, by=user_by_option(session, login_by))
        click.echo(f"user {found.login} deactivated")


@user.command("roles")
@click.argument("login")
@click.option("--role", "roles", multiple=True, required=True, help="The roles LOGIN holds now.")
@click.option("--by", "login_by", default=None)
def user_roles(login: str, roles: tuple[str, ...], login_by: str | None) -> None:
    """Set LOGIN's roles to exactly those given."""
    with command_transaction() as (_settings, session):
        with _refusal_exits(session, AccountRefused):
            found = set_roles(session, login, parse_roles(roles), by=user_by_option(session, login_by))
        click.echo(f"user {found.login}: {', '.join(sorted(r.value for r in found.roles))}")


# -- tournament ----------------------------------------------------------------------------------


@click.command("officials")
@click.argument("code")
@click.option("--referee", default=None, help="The referee's login (replaces the one serving).")
@click.option("--steward", "stewards", multiple=True, help="A steward's login (repeat for several).")
@click.option("--remove", "removals", multiple=True, help="A login to relieve (repeatable).")
@click.option("--by", "login_by", default=None)
def tournament_officials(code: str, referee: str | None, stewards: tuple[str, ...],
                         removals: tuple[str, ...], login_by: str | None) -> None:
    """Appoint the referee and stewards of CODE (002 §4.1.6) and print who serves it."""
    with command_transaction() as (_settings, session):
        found = tournament_by_code(session, code)
        with _refusal_exits(session, OfficialRefused):
            serving = change_officials(
                session, found, OfficialsChange(referee, stewards, removals),
                by=user_by_option(session, login_by))
        for row in serving:
            click.echo(f"{code}: {row.role.value:<8} {row.user.login} ({row.user.display_name})")
        if not serving:
            click.echo(f"{code}: no officials")


@click.command("publish")
@click.argument("code")
@click.option("--resend", "resend_to", default=None,
              help="Send this player's start sheet again (his login or start number).")
@today_option()
@click.option("--by", "login_by", default=None)
def tournament_publish(code: str, resend_to: str | None, day: dt.datetime | None,
                       login_by: str | None) -> None:
    """Check CODE is complete, pair it, start it and send the start sheets (002 §4.3.2)."""
    with command_transaction() as (settings, session):
        found = tournament_by_code(session, code)
        on = day_by_option(settings, found, day)
        try:
            if resend_to is not None:
                report = resend(session, found, _participant(session, found, resend_to),
                                by=user_by_option(session, login_by), writer=letter_writer(settings), today=on)
            else:
                report = publish(session, found, by=user_by_option(session, login_by),
                                 writer=letter_writer(settings), today=on)
        except PublishRefused as error:
            session.rollback()
            lines = "\n".join(f"  - {item.message}" for item in error.missing)
            raise click.ClickException(f"{code} not published; missing:\n{lines}") from error
        if report.games_created:
            click.echo(f"{code}: {report.games_created} games created")
        if report.started:
            click.echo(f"{code}: running")
        click.echo(f"{code}: {len(report.emailed)} start sheet(s) e-mailed")
        for participant in report.for_steward:
            state = (f"posted {participant.start_sheet_sent_on:%d.%m.%Y}"
                     if participant.start_sheet_sent_on else "to post")
            click.echo(f"  for the steward: №{participant.start_number} {participant.player.name} ({state})")


def _participant(session: Session, tournament: Tournament, who: str) -> Participant:
    if who.isdigit():
        found = next((p for p in tournament.participants if p.start_number == int(who)), None)
    else:
        account = user_by_login(session, who)
        found = next((p for p in tournament.participants
                      if account is not None and p.player_id == account.player_id), None)
    if found is None:
        raise click.ClickException(f"{who!r} plays no game in {tournament.code}")
    return found


@click.command("sheet-posted")
@click.argument("code")
@click.argument("player")
@click.option("--on", "posted_on", type=DATE, required=True, help="The day it was posted.")
@click.option("--by", "login_by", default=None)
def tournament_sheet_posted(code: str, player: str, posted_on: dt.datetime,
                            login_by: str | None) -> None:
    """Record that PLAYER's (login or start number) printed start sheet was posted."""
    with command_transaction() as (_settings, session):
        found = tournament_by_code(session, code)
        participant = _participant(session, found, player)
        with _refusal_exits(session, PublishRefused):
            record_sheet_posted(session, participant, posted_on.date(), by=user_by_option(session, login_by))
        click.echo(f"{code}: start sheet of {participant.player.name} posted {posted_on:%d.%m.%Y}")


@click.command("close")
@click.argument("code")
@today_option()
@click.option("--by", "login_by", default=None)
def tournament_close(code: str, day: dt.datetime | None, login_by: str | None) -> None:
    """Finish CODE, freeze its final table and queue the referee's final report (002 §4.1.7)."""
    with command_transaction() as (settings, session):
        found = tournament_by_code(session, code)
        try:
            closed = close(session, found, by=user_by_option(session, login_by), writer=letter_writer(settings),
                           today=day_by_option(settings, found, day))
        except CloseRefused as error:
            session.rollback()
            lines = "\n".join(f"  - {reason}" for reason in error.reasons)
            raise click.ClickException(f"{code} not closed:\n{lines}") from error
        click.echo(f"{code}: finished {closed.tournament.finished_on:%d.%m.%Y}; final report "
                   f"{closed.report.id} queued in {closed.letters} letter(s)")


# -- outbox --------------------------------------------------------------------------------------


@click.group()
def outbox() -> None:
    """Outgoing letters."""


@outbox.command("list")
@click.option("--tournament", "code", default=None)
@click.option("--status", type=click.Choice([s.value for s in OutboxStatus]), default=None)
@click.option("--kind", default=None, help="e.g. start_sheet, move, invitation.")
@click.option("--format", "output", type=FORMAT, default="text", show_default=True)
def outbox_list(code: str | None, status: str | None, kind: str | None, output: str) -> None:
    """The outbox, oldest first: id, status, kind, recipient, subject."""
    with command_transaction() as (_settings, session):
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if code is not None:
            query = query.where(OutboxMessage.tournament_id == tournament_by_code(session, code).id)
        if status is not None:
            query = query.where(OutboxMessage.status == OutboxStatus(status))
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        rows = [{"id": m.id, "status": m.status.value, "kind": m.kind, "to": m.recipient,
                 "subject": m.subject, "tournament_id": m.tournament_id, "game_id": m.game_id,
                 "created_at": m.created_at.isoformat(timespec="seconds"),
                 "attempts": m.attempts, "last_error": m.last_error}
                for m in session.scalars(query)]
    if output == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    for row in rows:
        click.echo(f"{row['id']:>6} {row['status']:<9} {row['kind']:<18} {row['to']:<32} {row['subject']}")
