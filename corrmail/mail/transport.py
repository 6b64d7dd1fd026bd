"""Handing messages to an SMTP relay with :mod:`aiosmtplib`.

A :class:`Transport` takes a built message plus its envelope and either returns the relay's
answer or raises a :class:`~corrmail.mail.errors.DeliveryError` that says whether a retry may
help. :class:`SmtpTransport` keeps one connection open across a batch and reconnects when the
relay drops it; :class:`CaptureTransport` keeps messages in memory (tests, captured mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from types import TracebackType
from typing import Protocol

import aiosmtplib

from corrmail.mail.errors import DeliveryError, classify_smtp_exception
from corrmail.mail.settings import Security, SmtpSettings

__all__ = ["Envelope", "Transport", "SmtpTransport", "CaptureTransport", "CapturedMessage"]


@dataclass(frozen=True, slots=True)
class Envelope:
    """SMTP envelope: the VERP bounce address and the recipients."""

    sender: str
    recipients: Sequence[str]


class Transport(Protocol):
    async def send(self, message: EmailMessage | bytes, envelope: Envelope) -> str:
        """Deliver ``message``; return the relay's answer or raise :class:`DeliveryError`."""
        ...

    async def close(self) -> None: ...


class SmtpTransport:
    """Sends over one (re)used aiosmtplib connection."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self._client: aiosmtplib.SMTP | None = None

    async def __aenter__(self) -> SmtpTransport:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def send(self, message: EmailMessage | bytes, envelope: Envelope) -> str:
        # Raw bytes go out exactly as stored in the outbox: a resend is byte-identical.
        raw = message if isinstance(message, bytes) else message.as_bytes(policy=SMTP)
        try:
            client = await self._connected()
            errors, answer = await client.sendmail(
                envelope.sender, list(envelope.recipients), raw
            )
        except DeliveryError:
            raise
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            await self._drop()
            raise classify_smtp_exception(exc) from exc
        if errors:
            # Some recipients were refused while others were accepted: the letter was
            # delivered where it could be; report the refusals without resending to the rest.
            refused = ", ".join(f"{rcpt}: {code} {text}" for rcpt, (code, text) in errors.items())
            return f"{answer} (refused: {refused})"
        return answer

    async def close(self) -> None:
        if self._client is not None and self._client.is_connected:
            try:
                await self._client.quit()
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                self._client.close()
        self._client = None

    async def _connected(self) -> aiosmtplib.SMTP:
        if self._client is not None and self._client.is_connected:
            return self._client
        s = self.settings
        client = aiosmtplib.SMTP(
            hostname=s.host,
            port=s.port,
            use_tls=s.security is Security.TLS,
            start_tls=True if s.security is Security.STARTTLS else False,
            username=s.user,
            password=s.password,
            timeout=s.timeout,
            cert_bundle=s.ca_file,
        )
        await client.connect()
        self._client = client
        return client

    async def _drop(self) -> None:
        if self._client is not None:
            self._client.close()
        self._client = None


@dataclass(frozen=True, slots=True)
class CapturedMessage:
    message: EmailMessage | bytes
    envelope: Envelope


class CaptureTransport:
    """Keeps every message instead of sending it."""

    def __init__(self) -> None:
        self.messages: list[CapturedMessage] = []

    async def send(self, message: EmailMessage | bytes, envelope: Envelope) -> str:
        self.messages.append(CapturedMessage(message, envelope))
        return "captured"

    async def close(self) -> None:
        return None
