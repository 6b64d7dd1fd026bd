"""The mail commands of ``corrmail``: ``mailer``, ``ingest``, ``receive``, ``poll``."""

from __future__ import annotations

import asyncio
import datetime as dt
import signal
import sys
import threading
from pathlib import Path

import click

from corrmail.config import SettingsError
from corrmail.mail.inbox import EX_TEMPFAIL, Source, TemporaryFailure
from corrmail.mail.service import MailService

__all__ = ["register", "mailer", "ingest", "receive", "poll"]


def register(group: click.Group) -> None:
    """Add the mail commands to the ``corrmail`` group."""
    for command in (mailer, ingest, receive, poll):
        group.add_command(command)


def _service() -> MailService:
    """The mail service, or a one-line error naming the variable to fix."""
    try:
        return MailService.from_env()
    except SettingsError as error:
        raise click.ClickException(str(error)) from None


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return stop


@click.command()
@click.option("--once", is_flag=True, help="Send what is due now, then exit.")
@click.option("--batch-size", default=50, show_default=True, type=click.IntRange(1))
@click.option("--connections", default=1, show_default=True, type=click.IntRange(1),
              help="SMTP connections used in parallel by this worker.")
@click.option("--interval", default=2.0, show_default=True, type=float,
              help="Seconds to wait when nothing is due.")
@click.option("--lease", "lease_seconds", default=300, show_default=True, type=click.IntRange(1),
              help="Seconds a claimed letter stays with this worker.")
@click.option("--schedule/--no-schedule", default=True, show_default=True,
              help=("Also write the calendar's letters (repeats, first-move queries, digests, "
                    "scheduled bulletins)."))
def mailer(once: bool, batch_size: int, connections: int, interval: float,
           lease_seconds: int, schedule: bool) -> None:
    """Send the outbox through CORRMAIL_SMTP_* (captured when no relay is configured).

    Run several at once against PostgreSQL; each claims its own letters.
    """
    service = _service()
    if schedule:
        report = service.run_schedule()
        click.echo(f"calendar: {report.repeats} repeats, {report.first_move_queries} first-move "
                   f"queries, {report.digests} digests, {report.bulletins} bulletins")
    worker = service.mailer(batch_size=batch_size, connections=connections,
                            lease=dt.timedelta(seconds=lease_seconds))
    mode = "captured" if worker.captured_mode else f"smtp {service.mail.smtp.host}"  # type: ignore[union-attr]
    try:
        if once:
            sent = asyncio.run(worker.drain())
        else:
            stop = _stop_on_signals()
            event = asyncio.Event()

            async def run() -> None:
                watcher = asyncio.create_task(asyncio.to_thread(stop.wait))
                watcher.add_done_callback(lambda _: event.set())
                await worker.run(event, interval=interval)

            click.echo(f"mailer {worker.worker} running ({mode}); stop with SIGTERM")
            asyncio.run(run())
            return
    finally:
        service.close()
    click.echo(f"sent {sent.sent}, captured {sent.captured}, retry later {sent.retried}, "
               f"failed {sent.failed} ({mode})")


@click.command()
@click.option("--received-at", "received_at", default=None,
              help="ISO 8601 arrival time to replay a message with (default: now). "
                   "Without an offset it is read as UTC.")
@click.option("--source", default=Source.PIPE, show_default=True)
@click.option("--envelope-sender", default=None, help="SMTP MAIL FROM, '' for the null sender.")
@click.option("--recipient", "recipients", multiple=True, help="SMTP RCPT TO (repeatable).")
def ingest(received_at: str | None, source: str, envelope_sender: str | None,
           recipients: tuple[str, ...]) -> None:
    """Read one RFC 5322 message from stdin and receive it (for a mail-server pipe).

    Exit status 0 once the message is stored (whatever became of it), 75 (EX_TEMPFAIL) when
    it could not be stored or processed now, so the mail server delivers it again later.
    """
    moment = None
    if received_at:
        try:
            moment = dt.datetime.fromisoformat(received_at)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--received-at") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
    raw = sys.stdin.buffer.read()
    try:
        service = MailService.from_env()
    except Exception as error:  # misconfiguration: let the MTA keep the message
        click.echo(f"temporary failure: {error}", err=True)
        sys.exit(EX_TEMPFAIL)
    try:
        receipt = service.inbox().receive(
            raw, source=source, received_at=moment, envelope_sender=envelope_sender,
            envelope_recipients=recipients,
        )
    except TemporaryFailure as failure:
        click.echo(f"temporary failure: {failure}", err=True)
        sys.exit(EX_TEMPFAIL)
    finally:
        service.close()
    duplicate = " (duplicate)" if receipt.duplicate else ""
    click.echo(f"inbound {receipt.inbound_id}: {receipt.status} {receipt.outcome}{duplicate}")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=2525, show_default=True, type=int)
@click.option("--lmtp", is_flag=True, help="Speak LMTP instead of SMTP.")
def receive(host: str, port: int, lmtp: bool) -> None:
    """Listen for SMTP (or LMTP) deliveries and receive every message."""
    from corrmail.mail.listener import InboxHandler, ListenerController

    service = _service()
    handler = InboxHandler(service.inbox(), service.mail.domain, lmtp=lmtp)
    controller = ListenerController(handler, hostname=host, port=port, lmtp=lmtp,
                                    max_bytes=service.mail.max_message_bytes)
    stop = _stop_on_signals()
    controller.start()
    click.echo(f"receiving {'LMTP' if lmtp else 'SMTP'} on {host}:{port} "
               f"for @{service.mail.domain}; stop with SIGTERM")
    try:
        stop.wait()
    finally:
        controller.stop()
        service.close()


@click.command()
@click.option("--once", is_flag=True,
              help="Poll once, then exit (75 when the server or the database is unavailable).")
@click.option("--interval", default=60.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds between polls.")
@click.option("--state", "legacy_cursor", type=click.Path(path_type=Path, dir_okay=False),
              default=None,
              help=("Cursor file of versions before the cursor moved into the database: imported "
                    "once, then renamed *.imported (default: var/imap-cursor-<account>.json)."))
def poll(once: bool, interval: float, legacy_cursor: Path | None) -> None:
    """Fetch new messages from CORRMAIL_IMAP_* by UID and receive them.

    The UID cursor is kept in the database (imap_cursors) and moves only after a message is
    stored. Without --once a lost connection is reported and retried at the next interval.
    """
    from corrmail.mail.imap import (
        ImapPoller,
        ImapRefused,
        ImapSettings,
        ImapUnavailable,
        open_source,
    )
    from corrmail.paths import var_dir

    try:
        settings = ImapSettings.from_env()
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    service = _service()
    poller = ImapPoller(service.inbox(), settings,
                        legacy_cursor=legacy_cursor or var_dir() / f"imap-cursor-{settings.account}.json")
    stop = threading.Event() if once else _stop_on_signals()
    try:
        while True:
            interrupted: str | None
            try:
                with open_source(settings) as source:
                    report = poller.poll(source)
            except ImapUnavailable as error:
                interrupted = str(error)
            except ImapRefused as error:
                raise click.ClickException(str(error)) from None
            else:
                if report.imported is not None:
                    click.echo(f"cursor imported from {report.imported}")
                restarted = " (UIDVALIDITY changed: folder read again)" if report.restarted else ""
                click.echo(f"fetched {report.fetched}: new {report.new}, duplicates "
                           f"{report.duplicates}, cursor at UID {report.last_uid}{restarted}")
                interrupted = report.interrupted
            if interrupted is not None:
                click.echo(f"poll interrupted, continuing from the cursor next time: {interrupted}",
                           err=True)
                if once:
                    sys.exit(EX_TEMPFAIL)
            if once or stop.wait(interval):
                break
    finally:
        service.close()
