"""Fixtures of the mail tests: a real SMTP server on loopback (aiosmtpd) that records and can
be told to fail."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Received:
    envelope_from: str
    recipients: list[str]
    message: EmailMessage
    raw: bytes


@dataclass
class RecordingHandler:
    """Accepts mail and keeps it; ``fail_next`` replies make the next DATA commands fail."""

    received: list[Received] = field(default_factory=list)
    fail_next: list[str] = field(default_factory=list)
    attempts: int = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.attempts += 1
        if self.fail_next:
            return self.fail_next.pop(0)
        raw = bytes(envelope.original_content or envelope.content)
        parsed = BytesParser(policy=policy.default).parsebytes(raw)
        assert isinstance(parsed, EmailMessage)
        self.received.append(
            Received(envelope.mail_from, list(envelope.rcpt_tos), parsed, raw)
        )
        return "250 Message accepted for delivery"

    def message_ids(self) -> list[str]:
        return [str(item.message["Message-ID"]) for item in self.received]


@dataclass
class SmtpServer:
    host: str
    port: int
    handler: RecordingHandler


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    handler = RecordingHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield SmtpServer("127.0.0.1", port, handler)
    finally:
        controller.stop()
