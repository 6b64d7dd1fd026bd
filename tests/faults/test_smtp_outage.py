"""The relay is down for an hour of simulated time: letters wait, then every one goes, once."""

from __future__ import annotations

import asyncio
from collections import Counter

from aiosmtpd.controller import Controller
from sqlalchemy import select

from corrmail.db import Database
from corrmail.mail.mailer import Mailer
from corrmail.mail.settings import Security, SmtpSettings
from corrmail.mail.transport import SmtpTransport
from corrmail.models import OutboxMessage, OutboxStatus

from .conftest import T0, FakeClock, Recorder, free_port, put_letters


def test_letters_wait_out_an_hour_long_relay_outage_then_go_once(db_url: str) -> None:
    database = Database(db_url)
    ids = put_letters(database, 12)
    port = free_port()  # nothing listens here: the relay is down
    clock = FakeClock()
    settings = SmtpSettings("127.0.0.1", port, Security.NONE, timeout=2)
    mailer = Mailer(database, lambda: SmtpTransport(settings), worker="outage", clock=clock,
                    batch_size=5)

    tries: Counter[str] = Counter()
    while clock.now < T0.replace(hour=10):  # one hour, a pass every 5 minutes
        report = asyncio.run(mailer.drain())
        assert report.sent == 0 and report.failed == 0
        for error in report.errors:
            tries[error.split(":", 1)[0]] += 1
        clock.advance(minutes=5)
    with database.session() as session:
        rows = list(session.scalars(select(OutboxMessage)))
    assert {row.status for row in rows} == {OutboxStatus.PENDING}, "nothing given up in an hour"
    # Backoff 1, 2, 4, 8, 16, 32 min: each letter was tried a handful of times, not 12 times.
    assert all(3 <= row.attempts <= 7 for row in rows), [row.attempts for row in rows]
    assert set(tries) == set(ids)

    recorder = Recorder()
    relay = Controller(recorder, hostname="127.0.0.1", port=port)
    relay.start()
    try:
        for _ in range(40):  # the relay is back: passes until the last backoff has run out
            asyncio.run(mailer.drain())
            clock.advance(minutes=5)
    finally:
        relay.stop()
    assert sorted(recorder.message_ids) == sorted(ids), "every letter exactly once"
    with database.session() as session:
        rows = list(session.scalars(select(OutboxMessage)))
    assert {row.status for row in rows} == {OutboxStatus.SENT}
    assert all(row.sent_at is not None and row.sent_at > T0.replace(hour=10) for row in rows)
    database.dispose()
