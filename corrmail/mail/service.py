"""Wiring the mail layer from the environment: one place that builds the inbox and the mailer."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from corrmail.bulletins.timetable import run_due
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.letters.scheduled import Schedule, ScheduleReport
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox
from corrmail.mail.mailer import Mailer, RetryPolicy
from corrmail.mail.settings import MailSettings
from corrmail.mail.transport import SmtpTransport, Transport
from corrmail.models import utcnow

__all__ = ["MailService", "MailerThread", "SCHEDULE_EVERY_SECONDS"]

#: The calendar's letters are looked for this often by a running mailer.
SCHEDULE_EVERY_SECONDS = 3600.0

log = logging.getLogger(__name__)


@dataclass
class MailService:
    settings: Settings
    mail: MailSettings
    database: Database

    @classmethod
    def from_env(cls) -> MailService:
        settings = Settings.from_env()
        mail = MailSettings.from_env(secret_fallback=settings.secret_key)
        return cls(settings, mail, Database(settings.database_url))

    def writer(self) -> LetterWriter:
        return LetterWriter(self.mail)

    def inbox(self) -> Inbox:
        return Inbox(self.database, self.writer())

    def transport_factory(self) -> Callable[[], Transport] | None:
        """None in captured mode (no ``CORRMAIL_SMTP_HOST``)."""
        smtp = self.mail.smtp
        if smtp is None:
            return None
        return lambda: SmtpTransport(smtp)

    def mailer(self, **options: object) -> Mailer:
        return Mailer(self.database, self.transport_factory(), **options)  # type: ignore[arg-type]

    def run_schedule(self) -> ScheduleReport:
        """Repeats, first-move queries, digests and scheduled bulletins due now
        (``CORRMAIL_TODAY`` replays a day).

        The bulletins are the steward's periodic information (002 §4.1.8): ``run_due`` moves each
        schedule on as it issues, so a second pass the same day issues nothing again.
        """
        with self.database.transaction() as session:
            now: dt.datetime | dt.date = self.settings.today or utcnow()
            writer = self.writer()
            report = Schedule(writer).run(session, now)
            report.bulletins = len(run_due(session, writer, now))
            return report

    def close(self) -> None:
        self.database.dispose()


class MailerThread:
    """The mailer of ``corrmail serve --with-mailer``: sends, or captures when no relay is set."""

    def __init__(self, service: MailService, *, interval: float = 2.0,
                 retry: RetryPolicy | None = None) -> None:
        self.service = service
        self.interval = interval
        self.retry = retry

    @classmethod
    def from_settings(cls, settings: Settings) -> MailerThread:
        mail = MailSettings.from_env(secret_fallback=settings.secret_key)
        return cls(MailService(settings, mail, Database(settings.database_url)))

    def run(self, stop: threading.Event) -> None:
        asyncio.run(self._run(stop))

    async def _run(self, stop: threading.Event) -> None:
        mailer = self.service.mailer(retry=self.retry) if self.retry else self.service.mailer()
        mode = "captured (no CORRMAIL_SMTP_HOST)" if mailer.captured_mode else "SMTP"
        log.info("mailer running, %s", mode)
        scheduled_at = float("-inf")
        while not stop.is_set():
            try:
                if time.monotonic() - scheduled_at >= SCHEDULE_EVERY_SECONDS:
                    await asyncio.to_thread(self.service.run_schedule)
                    scheduled_at = time.monotonic()
                await mailer.run_once()
            except Exception:  # a locked or restarting database must not kill the mailer
                log.exception("mailer pass failed; retrying")
            await asyncio.to_thread(stop.wait, self.interval)
