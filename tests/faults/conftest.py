"""Fixtures of the fault tests: letters in the outbox, a stoppable SMTP server, a clock."""

from __future__ import annotations

import datetime as dt
import socket
from dataclasses import dataclass, field
from typing import Any

from corrmail.db import Database
from corrmail.mail.compose import OutgoingLetter, build_message
from corrmail.outbox import enqueue

T0 = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)


class FakeClock:
    def __init__(self, now: dt.datetime = T0) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def put_letters(database: Database, count: int, *, at: dt.datetime = T0) -> list[str]:
    """``count`` letters due at ``at``; returns their Message-IDs."""
    ids = []
    with database.transaction() as session:
        for number in range(count):
            message_id = f"<fault{number}@turnir.example>"
            row = enqueue(session, build_message(OutgoingLetter(
                message_id=message_id, from_address="turnir@turnir.example",
                to=[f"player{number}@example.org"], subject=f"Ход {number}",
                text=f"Мой ход: {number}\n", date=at,
            )), kind="move")
            row.next_attempt_at = at
            row.envelope_sender = "bounce@turnir.example"
            ids.append(message_id)
    return ids


@dataclass
class Recorder:
    """An aiosmtpd handler that keeps every accepted message's Message-ID."""

    message_ids: list[str] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from email import message_from_bytes

        message = message_from_bytes(bytes(envelope.original_content or envelope.content))
        self.message_ids.append(str(message["Message-ID"]))
        return "250 OK"
