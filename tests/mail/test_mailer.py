"""The mailer against a real SMTP server on loopback, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import select

from corrmail.db import Database
from corrmail.letters.outbox import enqueue
from corrmail.mail.compose import OutgoingLetter, build_message
from corrmail.mail.mailer import Mailer, MailerReport, RetryPolicy
from corrmail.mail.settings import Security, SmtpSettings
from corrmail.mail.tokens import TokenSigner
from corrmail.mail.transport import SmtpTransport
from corrmail.models import AuditEntry, OutboxMessage, OutboxStatus

SIGNER = TokenSigner(b"test-secret", "turnir.example")
T0 = dt.datetime(2026, 3, 12, 9, 0, tzinfo=dt.UTC)


class FakeClock:
    def __init__(self, now: dt.datetime = T0) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def put_letters(database: Database, count: int, *, created: dt.datetime = T0) -> list[str]:
    ids = []
    with database.transaction() as session:
        for number in range(count):
            message_id = f"<letter{number}.{count}@turnir.example>"
            message = build_message(
                OutgoingLetter(
                    message_id=message_id,
                    from_address="turnir@turnir.example",
                    to=[f"player{number}@example.org"],
                    subject=f"Письмо {number}",
                    text=f"Ход {number}\n",
                    date=created,
                )
            )
            row = enqueue(session, message, kind="test")
            row.next_attempt_at = created
            row.envelope_sender = SIGNER.bounce_address(row.id)
            ids.append(message_id)
    return ids


def statuses(database: Database) -> Counter[str]:
    with database.session() as session:
        return Counter(str(s) for s in session.scalars(select(OutboxMessage.status)))


def mailer_for(database: Database, server, clock: FakeClock, **kwargs) -> Mailer:  # type: ignore[no-untyped-def]
    settings = SmtpSettings(server.host, server.port, Security.NONE, timeout=5)
    return Mailer(database, lambda: SmtpTransport(settings), worker="test", clock=clock, **kwargs)


def test_every_letter_arrives_once_with_its_verp_sender(db_url: str, smtp_server) -> None:  # type: ignore[no-untyped-def]
    database = Database(db_url)
    ids = put_letters(database, 7)
    report = asyncio.run(mailer_for(database, smtp_server, FakeClock(), batch_size=3).drain())
    assert report.sent == 7 and report.failed == report.retried == 0
    assert sorted(smtp_server.handler.message_ids()) == sorted(ids)
    with database.session() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        for row, received in zip(rows, smtp_server.handler.received, strict=True):
            assert row.status is OutboxStatus.SENT and row.sent_at == T0 and row.attempts == 1
            assert received.envelope_from == row.envelope_sender
            assert SIGNER.find_bounce_letter([received.envelope_from]) == row.id
            assert row.lease_owner is None
    database.dispose()


def test_a_421_is_retried_with_backoff_and_then_delivered_once(db_url: str, smtp_server) -> None:  # type: ignore[no-untyped-def]
    database = Database(db_url)
    put_letters(database, 2)
    smtp_server.handler.fail_next = ["421 4.3.0 Try again later", "421 4.3.0 Try again later"]
    clock = FakeClock()
    retry = RetryPolicy(base=dt.timedelta(minutes=1), factor=2, cap=dt.timedelta(hours=1))
    mailer = mailer_for(database, smtp_server, clock, retry=retry)

    first = asyncio.run(mailer.run_once())
    assert first.retried == 2 and first.sent == 0
    with database.session() as session:
        rows = session.scalars(select(OutboxMessage)).all()
        assert {row.next_attempt_at for row in rows} == {T0 + dt.timedelta(minutes=1)}
        assert all(row.attempts == 1 and "421" in (row.last_error or "") for row in rows)

    assert asyncio.run(mailer.run_once()).handled == 0, "nothing is due before the backoff ends"
    clock.advance(minutes=1)
    second = asyncio.run(mailer.run_once())
    assert second.sent == 2
    assert len(smtp_server.handler.received) == 2
    assert statuses(database) == Counter({"sent": 2})
    database.dispose()


def test_backoff_grows_exponentially_up_to_the_cap() -> None:
    policy = RetryPolicy(base=dt.timedelta(minutes=1), factor=2, cap=dt.timedelta(minutes=10))
    assert [policy.delay(n).total_seconds() / 60 for n in range(1, 7)] == [1, 2, 4, 8, 10, 10]


def test_a_5xx_fails_the_letter_for_the_director(db_url: str, smtp_server) -> None:  # type: ignore[no-untyped-def]
    database = Database(db_url)
    put_letters(database, 1)
    smtp_server.handler.fail_next = ["550 5.1.1 <player0@example.org>: mailbox unavailable"]
    report = asyncio.run(mailer_for(database, smtp_server, FakeClock()).drain())
    assert report.failed == 1 and not smtp_server.handler.received
    with database.session() as session:
        row = session.scalars(select(OutboxMessage)).one()
        assert row.status is OutboxStatus.FAILED and "550" in (row.last_error or "")
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "outbox.failed")).one()
        assert entry.entity_id == row.id
    database.dispose()


def test_transient_failures_give_up_after_max_attempts(db_url: str) -> None:
    database = Database(db_url)
    put_letters(database, 1)
    clock = FakeClock()
    dead = SmtpSettings("127.0.0.1", _closed_port(), Security.NONE, timeout=2)
    mailer = Mailer(database, lambda: SmtpTransport(dead), clock=clock,
                    retry=RetryPolicy(base=dt.timedelta(seconds=1), max_attempts=3))
    outcomes = []
    for _ in range(3):
        outcomes.append(asyncio.run(mailer.run_once()))
        clock.advance(hours=1)
    assert [(r.retried, r.failed) for r in outcomes] == [(1, 0), (1, 0), (0, 1)]
    with database.session() as session:
        row = session.scalars(select(OutboxMessage)).one()
        assert row.status is OutboxStatus.FAILED and "gave up after 3 attempts" in (row.last_error or "")
    database.dispose()


def test_captured_mode_keeps_letters_for_the_web_ui(db_url: str) -> None:
    database = Database(db_url)
    put_letters(database, 3)
    report = asyncio.run(Mailer(database, None, clock=FakeClock()).run_once())
    assert report.captured == 3
    assert statuses(database) == Counter({"captured": 3})
    database.dispose()


def test_two_workers_never_send_the_same_letter(db_url: str, smtp_server) -> None:  # type: ignore[no-untyped-def]
    database = Database(db_url)
    ids = put_letters(database, 40)
    clock = FakeClock()

    def work(name: str) -> None:
        mailer = mailer_for(Database(db_url), smtp_server, clock, batch_size=5)
        mailer.worker = name
        asyncio.run(mailer.drain())

    threads = [threading.Thread(target=work, args=(f"w{n}",)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(smtp_server.handler.message_ids()) == sorted(ids)
    assert statuses(database) == Counter({"sent": 40})
    database.dispose()


WORKER_SCRIPT = """
import asyncio, datetime as dt, sys
from corrmail.db import Database
from corrmail.mail.mailer import Mailer
from corrmail.mail.settings import Security, SmtpSettings
from corrmail.mail.transport import SmtpTransport
url, port = sys.argv[1], int(sys.argv[2])
settings = SmtpSettings("127.0.0.1", port, Security.NONE, timeout=30)
mailer = Mailer(Database(url), lambda: SmtpTransport(settings), worker="crashing",
                batch_size=10, lease=dt.timedelta(seconds=float(sys.argv[3])))
asyncio.run(mailer.drain())
"""


def test_a_mailer_killed_mid_batch_loses_and_duplicates_nothing(  # type: ignore[no-untyped-def]
    db_url: str, smtp_server, tmp_path: Path
) -> None:
    database = Database(db_url)
    ids = put_letters(database, 10, created=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
    handler = smtp_server.handler
    in_flight = threading.Event()
    release = threading.Event()
    original = handler.handle_DATA

    async def stall_on_fourth(server, session, envelope):  # type: ignore[no-untyped-def]
        if len(handler.received) == 3 and not release.is_set():
            in_flight.set()  # the mailer waits for our answer to letter 4: kill it now
            while not release.is_set():
                await asyncio.sleep(0.02)
            return "451 4.3.0 connection lost"  # nobody is listening any more
        return await original(server, session, envelope)

    handler.handle_DATA = stall_on_fourth  # type: ignore[method-assign]
    script = tmp_path / "worker.py"
    script.write_text(WORKER_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
    process = subprocess.Popen(
        [sys.executable, str(script), db_url, str(smtp_server.port), "1"], env=env
    )
    try:
        assert in_flight.wait(60), "the mailer never reached the fourth letter"
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        release.set()
        if process.poll() is None:
            process.kill()
    assert len(handler.received) == 3
    assert statuses(database) == Counter({"sent": 3, "pending": 7})

    time.sleep(1.2)  # the dead worker's lease runs out
    restarted = subprocess.run(
        [sys.executable, str(script), db_url, str(smtp_server.port), "1"], env=env, timeout=120
    )
    assert restarted.returncode == 0
    assert sorted(handler.message_ids()) == sorted(ids), "every letter exactly once"
    assert statuses(database) == Counter({"sent": 10})
    database.dispose()


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_letter_whose_lease_ran_out_is_not_sent_twice(db_url: str, smtp_server) -> None:  # type: ignore[no-untyped-def]
    database = Database(db_url)
    put_letters(database, 2)
    clock = FakeClock()
    slow = mailer_for(database, smtp_server, clock, lease=dt.timedelta(minutes=5))
    slow.worker = "slow"
    claimed = slow.claim()
    assert len(claimed) == 2
    clock.advance(minutes=6)  # the slow worker's lease has run out ...
    fast = mailer_for(database, smtp_server, clock)
    fast.worker = "fast"
    assert asyncio.run(fast.drain()).sent == 2  # ... and another worker took the letters over

    async def late_send() -> None:
        report = MailerReport()
        transport = slow.transport_factory()  # type: ignore[misc]
        for letter in claimed:
            await slow._send_one(transport, letter, report)
        await transport.close()
        assert report.lost_lease == 2 and report.sent == 0

    asyncio.run(late_send())
    assert len(smtp_server.handler.received) == 2, "each letter exactly once"
    database.dispose()
