"""The in-process mailer of `corrmail serve --with-mailer` when no SMTP relay is configured.

It captures every due outbox letter (status `captured`), which the outbox viewer shows. Sending
through a relay is the mail layer's job (`corrmail.mail`); with `CORRMAIL_SMTP_HOST` set this loop
refuses to start rather than silently keep letters that should go out.
"""

from __future__ import annotations

import logging
import threading

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.models import utcnow
from corrmail.outbox import capture_pending

log = logging.getLogger(__name__)


class RelayConfigured(RuntimeError):
    def __init__(self, host: str) -> None:
        super().__init__(
            f"CORRMAIL_SMTP_HOST={host!r} is set: letters must be sent, not captured; "
            "run the mailer of corrmail.mail instead"
        )
        self.host = host


class CaptureLoop:
    def __init__(self, database: Database, settings: Settings, interval_seconds: float = 2.0) -> None:
        if settings.smtp_host:
            raise RelayConfigured(settings.smtp_host)
        self.database = database
        self.interval_seconds = interval_seconds

    def run_once(self) -> int:
        with self.database.transaction() as session:
            captured = capture_pending(session, utcnow())
        if captured:
            log.info("captured %d letter(s); read them at /admin/outbox", captured)
        return captured

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.run_once()
            except Exception:  # a locked or restarting database must not kill the loop
                log.exception("mailer pass failed; retrying")
            stop.wait(self.interval_seconds)
