"""The operator's commands of ``corrmail``: ``backup`` and ``restore``."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import click
from sqlalchemy.engine import make_url

from corrmail.commands import command_settings
from corrmail.config import Settings
from corrmail.ops.backup import ArchivedLetter, BackupError, backup, restore

__all__ = ["register", "backup_command", "restore_command"]


def register(group: click.Group) -> None:
    """Add ``backup`` and ``restore`` to the ``corrmail`` group."""
    group.add_command(backup_command)
    group.add_command(restore_command)


def _safe(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


@click.command("backup")
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
def backup_command(directory: Path) -> None:
    """Back up the database (CORRMAIL_DATABASE_URL) and every raw letter into DIRECTORY.

    PostgreSQL is dumped with pg_dump, SQLite copied with its online backup API; the service may
    keep running. DIRECTORY must be new or empty.
    """
    url = command_settings().database_url
    try:
        manifest = backup(url, directory)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    counts = ", ".join(f"{count} {table}" for table, count in manifest.counts.items())
    click.echo(f"backup of {_safe(url)} at revision {manifest.revision} in {directory}: {counts}")


@click.command("restore")
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--database-url", default=None,
              help="The new, empty database (default: CORRMAIL_DATABASE_URL). PostgreSQL "
                   "databases are created when missing.")
@click.option("--replay/--no-replay", default=True, show_default=True,
              help="Feed letters that arrived while the backup ran to the inbox.")
def restore_command(directory: Path, database_url: str | None, replay: bool) -> None:
    """Restore the backup in DIRECTORY into a new database and check every letter against it."""
    settings = command_settings()
    url = database_url or settings.database_url
    replayer = _InboxReplay(dataclasses.replace(settings, database_url=url)) if replay else None
    try:
        report = restore(directory, url, replay=replayer.feed if replayer else None)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    finally:
        if replayer is not None:
            replayer.close()
    click.echo(f"restored {directory} into {_safe(url)} at revision {report.manifest.revision}; "
               f"{report.letters_checked} letters identical to the archive")
    if report.replayed:
        verb = "replayed through the inbox" if replay else "NOT replayed (--no-replay)"
        click.echo(f"{len(report.replayed)} letters that arrived during the backup {verb}")


class _InboxReplay:
    """Feeds archived letters to the inbox of the restored database, with their own arrival time."""

    def __init__(self, settings: Settings) -> None:
        from corrmail.db import Database
        from corrmail.mail.service import MailService
        from corrmail.mail.settings import MailSettings

        mail = MailSettings.from_env(secret_fallback=settings.secret_key)
        self.service = MailService(settings, mail, Database(settings.database_url))

    def feed(self, entry: ArchivedLetter, raw: bytes) -> None:
        received_at = dt.datetime.fromisoformat(entry.received_at) if entry.received_at else None
        self.service.inbox().receive(raw, source=entry.source or "restore", received_at=received_at,
                                     envelope_sender=entry.envelope_sender)

    def close(self) -> None:
        self.service.close()
