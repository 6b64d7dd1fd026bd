"""The mailer: drains the outbox through SMTP, exactly once per letter.

Letters enter the outbox (:mod:`corrmail.letters.outbox`) in the same transaction as the state change
that causes them, complete with their final bytes and fixed ``Message-ID``. The mailer then:

1. **claims** a batch with one statement —
   ``UPDATE outbox SET lease_owner = :claim, lease_until = :t WHERE id IN (SELECT … LIMIT n
   FOR UPDATE SKIP LOCKED)`` — so several mailer processes on PostgreSQL never take the same
   row and never wait for each other; SQLite ignores ``FOR UPDATE`` but runs the single
   statement under its database write lock, so the lease alone makes a worker the owner;
2. **renews** each letter's lease right before sending it (a letter whose lease ran out while
   the batch was being sent is left to whoever holds it now), **sends** it, and **records** the
   outcome in its own short transaction, guarded by the claim, right after the relay answers —
   a crash loses at most the answer to the one letter in flight;
3. leaves letters whose lease ran out (a killed mailer) to be claimed again.

Outcomes: accepted → ``sent``; a transient failure (4xx, time-out, connection refused) →
retried after an exponentially growing delay, until :attr:`RetryPolicy.max_attempts`; a
permanent failure (5xx) → ``failed`` with the relay's answer in ``last_error`` and an audit
entry, which the director sees in the outbox view. Without a relay (captured mode) due letters
are marked ``captured`` and read in the web UI.

The one window no SMTP client can close — the relay accepted the data but the mailer died before
recording it — resends the letter with the *same* Message-ID, which mail clients and our own
inbound deduplication recognise as the same letter.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import getaddresses

from sqlalchemy import Update, or_, select, update

from corrmail import audit
from corrmail.db import Database
from corrmail.letters.outbox import capture_pending
from corrmail.mail.errors import DeliveryError, NotDeliverable
from corrmail.mail.transport import Envelope, Transport
from corrmail.models import OutboxMessage, OutboxStatus, utcnow

__all__ = ["RetryPolicy", "MailerReport", "Mailer", "ClaimedLetter"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff: ``base * factor**(attempt-1)``, at most ``cap``."""

    base: dt.timedelta = dt.timedelta(minutes=1)
    factor: float = 2.0
    cap: dt.timedelta = dt.timedelta(hours=6)
    #: After this many failed attempts a transient failure is treated as permanent.
    max_attempts: int = 12

    def delay(self, attempts: int) -> dt.timedelta:
        seconds = self.base.total_seconds() * self.factor ** max(attempts - 1, 0)
        return min(dt.timedelta(seconds=seconds), self.cap)


@dataclass(frozen=True, slots=True)
class ClaimedLetter:
    id: int
    message_id: str
    raw: bytes
    envelope: Envelope
    attempts: int
    #: The lease this worker holds; outcomes are written only while it still holds it.
    claim: str


def _while_held(letter: ClaimedLetter) -> Update:
    """An update of ``letter``'s row that touches it only while it still waits under this
    worker's lease: once another worker has claimed it, the update matches no row."""
    return update(OutboxMessage).where(
        OutboxMessage.id == letter.id,
        OutboxMessage.status == OutboxStatus.PENDING,
        OutboxMessage.lease_owner == letter.claim,
    )


@dataclass
class MailerReport:
    sent: int = 0
    captured: int = 0
    retried: int = 0
    failed: int = 0
    lost_lease: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: MailerReport) -> None:
        self.sent += other.sent
        self.captured += other.captured
        self.retried += other.retried
        self.failed += other.failed
        self.lost_lease += other.lost_lease
        self.errors.extend(other.errors)

    @property
    def handled(self) -> int:
        return self.sent + self.captured + self.retried + self.failed


def default_worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class Mailer:
    """One mailer worker. Run several (processes) against PostgreSQL to send faster."""

    def __init__(
        self,
        database: Database,
        transport_factory: Callable[[], Transport] | None,
        *,
        worker: str | None = None,
        batch_size: int = 50,
        connections: int = 1,
        lease: dt.timedelta = dt.timedelta(minutes=5),
        retry: RetryPolicy | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        if batch_size < 1 or connections < 1:
            raise ValueError("batch_size and connections must be at least 1")
        self.database = database
        self.transport_factory = transport_factory
        self.worker = worker or default_worker_name()
        self.batch_size = batch_size
        self.connections = connections
        self.lease = lease
        self.retry = retry or RetryPolicy()
        self.clock = clock

    @property
    def captured_mode(self) -> bool:
        return self.transport_factory is None

    # -- the database side (synchronous, short transactions) ------------------------------------

    def claim(self) -> list[ClaimedLetter]:
        """Take up to ``batch_size`` due letters under a fresh lease; commit the claim."""
        now = self.clock()
        claim = f"{self.worker}/{uuid.uuid4().hex[:12]}"
        due = (
            select(OutboxMessage.id)
            .where(
                OutboxMessage.status == OutboxStatus.PENDING,
                OutboxMessage.next_attempt_at <= now,
                or_(OutboxMessage.lease_until.is_(None), OutboxMessage.lease_until < now),
            )
            .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id)
            .limit(self.batch_size)
            .with_for_update(skip_locked=True)
        )
        with self.database.transaction() as session:
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(due.scalar_subquery()))
                .values(lease_owner=claim, lease_until=now + self.lease)
                .execution_options(synchronize_session=False)
            )
            rows = session.execute(
                select(
                    OutboxMessage.id,
                    OutboxMessage.message_id,
                    OutboxMessage.raw,
                    OutboxMessage.envelope_sender,
                    OutboxMessage.recipient,
                    OutboxMessage.attempts,
                )
                .where(OutboxMessage.lease_owner == claim)
                .order_by(OutboxMessage.id)
            ).all()
        return [
            ClaimedLetter(
                id=row.id,
                message_id=row.message_id,
                raw=row.raw,
                envelope=Envelope(
                    row.envelope_sender,
                    [address for _, address in getaddresses([row.recipient]) if address],
                ),
                attempts=row.attempts,
                claim=claim,
            )
            for row in rows
        ]

    def _record(self, letter: ClaimedLetter, claim_values: dict[str, object]) -> bool:
        """Write the outcome if we still hold the lease; False when another worker took over."""
        with self.database.transaction() as session:
            result = session.execute(
                _while_held(letter)
                .values(lease_owner=None, lease_until=None, **claim_values)
                .execution_options(synchronize_session=False)
            )
            recorded = bool(result.rowcount)  # type: ignore[attr-defined]
            if claim_values.get("status") == OutboxStatus.FAILED and recorded:
                audit.record(
                    session,
                    user=None,
                    action="outbox.failed",
                    entity="outbox",
                    entity_id=letter.id,
                    summary=f"letter {letter.message_id} could not be delivered",
                    detail={"error": claim_values.get("last_error")},
                )
            return recorded

    def renew(self, letter: ClaimedLetter) -> bool:
        """Extend the lease right before sending; False when it already ran out (or was taken).

        A batch is sent one letter after another, so without renewal a slow relay could let the
        lease of the batch's last letters expire while they wait — and a second worker would
        send them too. With it, only a single SMTP transaction longer than the lease could.
        """
        now = self.clock()
        with self.database.transaction() as session:
            result = session.execute(
                _while_held(letter)
                .where(OutboxMessage.lease_until > now)
                .values(lease_until=now + self.lease)
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def record_sent(self, letter: ClaimedLetter, answer: str) -> bool:
        now = self.clock()
        return self._record(
            letter,
            {"status": OutboxStatus.SENT, "sent_at": now, "attempts": letter.attempts + 1,
             "last_error": None},
        )

    def record_failure(self, letter: ClaimedLetter, error: DeliveryError) -> str:
        """Schedule a retry or give up; returns ``"retried"``, ``"failed"`` or ``"lost"``."""
        attempts = letter.attempts + 1
        if error.transient and attempts < self.retry.max_attempts:
            values: dict[str, object] = {
                "attempts": attempts,
                "next_attempt_at": self.clock() + self.retry.delay(attempts),
                "last_error": f"attempt {attempts}: {error}",
            }
            outcome = "retried"
        else:
            reason = str(error) if not error.transient else f"gave up after {attempts} attempts: {error}"
            values = {"status": OutboxStatus.FAILED, "attempts": attempts, "last_error": reason}
            outcome = "failed"
        return outcome if self._record(letter, values) else "lost"

    # -- the sending side -------------------------------------------------------------------------

    async def run_once(self) -> MailerReport:
        """Handle one batch of due letters."""
        report = MailerReport()
        if self.transport_factory is None:
            with self.database.transaction() as session:
                report.captured = capture_pending(session, self.clock())
            return report
        letters = await asyncio.to_thread(self.claim)
        if not letters:
            return report
        lanes = [letters[index :: self.connections] for index in range(self.connections)]
        for lane_report in await asyncio.gather(
            *(self._send_lane(lane) for lane in lanes if lane)
        ):
            report.add(lane_report)
        return report

    async def _send_lane(self, letters: list[ClaimedLetter]) -> MailerReport:
        assert self.transport_factory is not None
        report = MailerReport()
        transport = self.transport_factory()
        try:
            for letter in letters:
                await self._send_one(transport, letter, report)
        finally:
            await transport.close()
        return report

    async def _send_one(
        self, transport: Transport, letter: ClaimedLetter, report: MailerReport
    ) -> None:
        if not await asyncio.to_thread(self.renew, letter):
            # The lease ran out while earlier letters of the batch were sent, and another worker
            # may hold the letter now: sending it here could deliver it twice.
            report.lost_lease += 1
            log.warning("letter %s: lease lost before sending; left to its new owner",
                        letter.message_id)
            return
        if not letter.envelope.recipients:
            error: DeliveryError = NotDeliverable(f"no recipient address in letter {letter.id}")
        else:
            try:
                answer = await transport.send(letter.raw, letter.envelope)
            except DeliveryError as failure:
                error = failure
            else:
                if await asyncio.to_thread(self.record_sent, letter, answer):
                    report.sent += 1
                else:
                    report.lost_lease += 1
                    log.warning("letter %s sent after its lease ran out", letter.message_id)
                return
        outcome = await asyncio.to_thread(self.record_failure, letter, error)
        report.errors.append(f"{letter.message_id}: {error}")
        if outcome == "retried":
            report.retried += 1
        elif outcome == "failed":
            report.failed += 1
        else:
            report.lost_lease += 1
        log.log(logging.ERROR if outcome == "failed" else logging.WARNING,
                "letter %s: %s (%s)", letter.message_id, error, outcome)

    async def run(self, stop: asyncio.Event, *, interval: float = 2.0) -> MailerReport:
        """Work until ``stop`` is set; an idle pass waits ``interval`` seconds."""
        total = MailerReport()
        while not stop.is_set():
            try:
                report = await self.run_once()
            except Exception:  # a locked or restarting database must not kill the mailer
                log.exception("mailer pass failed; retrying")
                report = MailerReport()
            total.add(report)
            if report.handled == 0 or report.handled < self.batch_size:
                try:
                    await asyncio.wait_for(stop.wait(), timeout=interval)
                except TimeoutError:
                    pass
        return total

    async def drain(self, *, max_passes: int = 1000) -> MailerReport:
        """Send until nothing is due now (letters waiting for a retry are left waiting)."""
        total = MailerReport()
        for _ in range(max_passes):
            report = await self.run_once()
            total.add(report)
            if report.handled == 0 and report.lost_lease == 0:
                break
        return total
