"""From raw RFC 5322 bytes to a typed :class:`InboundMessage`.

The parser is lenient: anything a real client produces is read, and what cannot be read is
reported through :class:`~corrmail.mail.errors.InboundError` subclasses carrying the input.
Only the *new* text of a person's letter is kept (see :mod:`corrmail.mail.body`); machine-made
messages are classified (see :mod:`corrmail.mail.automated`) and their text is not parsed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from email.errors import HeaderParseError
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import parsedate_to_datetime

from corrmail.mail.addresses import addresses_in
from corrmail.mail.automated import AutomationVerdict, detect_automation
from corrmail.mail.body import new_text
from corrmail.mail.compose import READING_POLICY
from corrmail.mail.errors import MalformedMessage, OversizeMessage

__all__ = ["InboundMessage", "parse_inbound", "parse_received", "raw_digest", "DEFAULT_MAX_BYTES"]

DEFAULT_MAX_BYTES = 10 * 1024 * 1024

_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


@dataclass(frozen=True, slots=True)
class InboundMessage:
    """A received message, decoded and classified."""

    sha256: str
    message_id: str | None
    from_address: str
    from_name: str
    recipients: tuple[str, ...]
    subject: str
    date: datetime | None
    #: ``In-Reply-To`` and ``References`` ids, in that order, angle brackets kept.
    references: tuple[str, ...]
    #: The new text the sender wrote (quotes and signature removed); empty for machine mail.
    text: str
    automation: AutomationVerdict | None
    attachment_names: tuple[str, ...] = field(default_factory=tuple)
    envelope_sender: str | None = None

    @property
    def is_automated(self) -> bool:
        return self.automation is not None

    def token_sources(self) -> tuple[str, ...]:
        """Where a reply token may hide: recipient addresses first, then References."""
        return self.recipients + self.references


def raw_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def parse_inbound(
    raw: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    envelope_sender: str | None = None,
    envelope_recipients: tuple[str, ...] = (),
    parsed: Message | None = None,
) -> InboundMessage:
    """Parse ``raw``; raise :class:`OversizeMessage` or :class:`MalformedMessage`.

    ``parsed``: ``raw`` already parsed by :func:`parse_received` (the intake reads its
    Message-ID before storing it), not parsed again."""
    if len(raw) > max_bytes:
        raise OversizeMessage(len(raw), max_bytes)
    if not raw.strip():
        raise MalformedMessage("empty message", raw[:200])
    message = parsed if parsed is not None else parse_received(raw)
    if not isinstance(message, EmailMessage):  # pragma: no cover - the policy guarantees it
        raise MalformedMessage("not an e-mail message", raw[:200])
    try:
        return _read(raw, message, envelope_sender, envelope_recipients)
    except (IndexError, HeaderParseError) as error:
        # CPython's header parser fails on some broken headers ("Message-ID: <"); found by the
        # fuzz test in tests/ops/test_inbound_security.py.
        raise MalformedMessage(f"unreadable header ({type(error).__name__})", raw[:200]) from None


def parse_received(raw: bytes) -> Message:
    """``raw`` parsed as every reading of a received message parses it."""
    return BytesParser(policy=READING_POLICY).parsebytes(raw)


def _read(raw: bytes, message: EmailMessage, envelope_sender: str | None,
          envelope_recipients: tuple[str, ...]) -> InboundMessage:
    from_name, from_address = _first_address(message, "From")
    if not from_address and not message.get("Subject") and not message.get("Message-ID"):
        raise MalformedMessage("no From, Subject or Message-ID header: not a mail message",
                               raw[:200])
    automation = detect_automation(message, envelope_sender)
    recipients = tuple(envelope_recipients) + _addresses(message, _RECIPIENT_HEADERS)
    return InboundMessage(
        sha256=raw_digest(raw),
        message_id=_message_id(message),
        from_address=from_address.lower(),
        from_name=from_name,
        recipients=tuple(dict.fromkeys(address.lower() for address in recipients)),
        subject=str(message.get("Subject", "")).strip(),
        date=_date(message),
        references=_references(message),
        text="" if automation is not None else new_text(message),
        automation=automation,
        attachment_names=tuple(
            part.get_filename() or part.get_content_type() for part in message.iter_attachments()
        ),
        envelope_sender=envelope_sender,
    )


def _first_address(message: EmailMessage, header: str) -> tuple[str, str]:
    try:
        pairs = addresses_in([str(message.get(header, ""))])
    except (ValueError, IndexError):
        return "", ""
    for name, address in pairs:
        if "@" in address:
            return name, address
    return "", ""


def _addresses(message: EmailMessage, headers: tuple[str, ...]) -> tuple[str, ...]:
    values: list[str] = []
    for header in headers:
        values.extend(str(value) for value in message.get_all(header, []))
    try:
        return tuple(address for _, address in addresses_in(values) if "@" in address)
    except (ValueError, IndexError):
        return ()


def _message_id(message: EmailMessage) -> str | None:
    value = str(message.get("Message-ID", "")).strip()
    return value or None


def _references(message: EmailMessage) -> tuple[str, ...]:
    ids: list[str] = []
    for header in ("In-Reply-To", "References"):
        for value in message.get_all(header, []):
            ids.extend(token for token in str(value).split() if token.startswith("<"))
    return tuple(dict.fromkeys(ids))


def _date(message: EmailMessage) -> datetime | None:
    value = message.get("Date")
    if value is None:
        return None
    try:
        return parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return None
