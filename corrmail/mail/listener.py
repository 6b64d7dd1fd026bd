"""``corrmail receive``: an SMTP or LMTP listener (aiosmtpd) that hands every message to the inbox.

The mail server in front of corrmail delivers to this listener (``transport`` of Postfix, or
LMTP from Dovecot/Postfix). Each DATA is stored and processed by :class:`~corrmail.mail.inbox.Inbox`;
the listener answers ``250`` once the message is stored and ``451`` when storing failed for a
reason a later attempt may cure, so the sending server keeps the message and retries.
Recipients outside the server's own domain are refused with ``550`` (this is not a relay).

LMTP note: aiosmtpd answers DATA once for the whole transaction, which is what LMTP requires
for the single-recipient deliveries a tournament server receives.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from corrmail.mail.inbox import Inbox, Source, TemporaryFailure

__all__ = ["InboxHandler", "ListenerController"]

log = logging.getLogger(__name__)


class InboxHandler:
    """aiosmtpd handler: our domain only, every message into the inbox."""

    def __init__(self, inbox: Inbox, domain: str, *, lmtp: bool = False) -> None:
        self.inbox = inbox
        self.domain = domain.lower()
        self.source = Source.LMTP if lmtp else Source.SMTP

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if not address.lower().endswith("@" + self.domain):
            return "550 5.7.1 Relaying denied: this server only receives mail for " + self.domain
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = bytes(envelope.original_content or envelope.content)
        try:
            receipt = await asyncio.to_thread(
                self.inbox.receive,
                raw,
                source=self.source,
                envelope_sender=envelope.mail_from or "",
                envelope_recipients=tuple(envelope.rcpt_tos),
            )
        except TemporaryFailure as failure:
            log.warning("temporary failure, the sender will retry: %s", failure)
            return "451 4.3.0 Temporary failure, please try again later"
        return f"250 2.0.0 Stored as {receipt.inbound_id}: {receipt.outcome}"


class ListenerController(Controller):
    """aiosmtpd's threaded controller speaking SMTP or LMTP."""

    def __init__(self, handler: InboxHandler, *, hostname: str, port: int, lmtp: bool = False,
                 max_bytes: int = 10 * 1024 * 1024) -> None:
        super().__init__(handler, hostname=hostname, port=port, data_size_limit=max_bytes)
        self.lmtp = lmtp

    def factory(self) -> SMTP:
        server_class = LMTP if self.lmtp else SMTP
        return server_class(self.handler, **self.SMTP_kwargs)
