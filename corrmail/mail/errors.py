"""Exceptions of the mail layer.

Sending failures form a tree modelled on httpx's documented hierarchy (``HTTPError`` →
``TransportError`` → ``TimeoutException``/``NetworkError`` …, and ``HTTPStatusError`` for
answers): the mailer only needs to ask one question of a failure — *may a retry succeed?* —
so every leaf is either a :class:`TransientDeliveryError` (SMTP 4xx, time-outs, refused or
dropped connections: retried with exponential backoff) or a :class:`PermanentDeliveryError`
(SMTP 5xx: the letter is marked failed and shown to the director).

Inbound failures are :class:`InboundError` subclasses; each carries the offending input so that
the refusal sent back to the player can say exactly what was wrong.
"""

from __future__ import annotations

import aiosmtplib

__all__ = [
    "MailError",
    "DeliveryError",
    "TransientDeliveryError",
    "DeliveryTimeout",
    "ConnectionFailed",
    "TemporaryRejection",
    "PermanentDeliveryError",
    "PermanentRejection",
    "NotDeliverable",
    "InboundError",
    "OversizeMessage",
    "MalformedMessage",
    "TokenError",
    "classify_smtp_exception",
]


class MailError(Exception):
    """Base class of every error raised by :mod:`corrmail.mail`."""


# --- outbound ---------------------------------------------------------------------------------


class DeliveryError(MailError):
    """Handing a letter to the SMTP relay failed."""

    #: Whether the same letter may be offered again later with a chance of success.
    transient: bool = False

    def __init__(self, message: str, *, code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: The SMTP reply code when the server answered (``None`` for network failures).
        self.code = code

    def __str__(self) -> str:
        return f"{self.code} {self.message}" if self.code is not None else self.message


class TransientDeliveryError(DeliveryError):
    """A failure a later attempt may overcome: retry with backoff."""

    transient = True


class DeliveryTimeout(TransientDeliveryError):
    """Connecting to or talking with the relay took longer than the configured time-out."""


class ConnectionFailed(TransientDeliveryError):
    """The relay refused the connection, dropped it, or could not be resolved."""


class TemporaryRejection(TransientDeliveryError):
    """The relay answered with a 4xx reply code (greylisting, 421 service not available …)."""


class PermanentDeliveryError(DeliveryError):
    """A failure no retry will cure: mark the letter failed and show it to the director."""

    transient = False


class PermanentRejection(PermanentDeliveryError):
    """The relay answered with a 5xx reply code (unknown mailbox, policy rejection …)."""


class NotDeliverable(PermanentDeliveryError):
    """The letter itself cannot be sent (no recipient, unsupported extension, bad credentials)."""


def classify_smtp_exception(exc: BaseException) -> DeliveryError:
    """Translate an :mod:`aiosmtplib` (or socket) exception into this module's tree.

    The reply code decides for every answer from the server: 4xx is transient and 5xx is
    permanent (RFC 5321 §4.2.1). For several refused recipients the *least* hopeless code wins:
    if any recipient was refused temporarily, a retry is still worth it.
    """
    if isinstance(exc, DeliveryError):
        return exc
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [refusal.code for refusal in exc.recipients]
        detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
        code = min(codes) if codes else 550
        return _by_code(code, f"all recipients refused ({detail})")
    if isinstance(exc, aiosmtplib.SMTPAuthenticationError):
        return NotDeliverable(f"authentication failed: {exc.message}", code=exc.code)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return _by_code(exc.code, exc.message)
    if isinstance(exc, TimeoutError):
        return DeliveryTimeout(f"time-out talking to the SMTP relay: {exc}")
    if isinstance(exc, (ConnectionError, OSError)):
        return ConnectionFailed(f"cannot reach the SMTP relay: {exc}")
    if isinstance(exc, aiosmtplib.SMTPNotSupported):
        return NotDeliverable(f"the SMTP relay does not support what is needed: {exc}")
    if isinstance(exc, aiosmtplib.SMTPException):
        return ConnectionFailed(f"SMTP failure: {exc}")
    raise TypeError(f"not a delivery failure: {exc!r}") from exc


def _by_code(code: int, message: str) -> DeliveryError:
    if 400 <= code < 500:
        return TemporaryRejection(message, code=code)
    if 500 <= code < 600:
        return PermanentRejection(message, code=code)
    # A reply outside 4xx/5xx in an error path is a protocol breakdown; treat it like a dropped
    # connection rather than give up on the letter.
    return ConnectionFailed(f"unexpected SMTP reply {code}: {message}")


# --- inbound ----------------------------------------------------------------------------------


class InboundError(MailError, ValueError):
    """An inbound message cannot be accepted as it is."""


class OversizeMessage(InboundError):
    """The raw message is larger than the configured limit."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"message of {size} bytes exceeds the limit of {limit} bytes")
        self.size = size
        self.limit = limit


class MalformedMessage(InboundError):
    """The bytes are not an RFC 5322 message we can read (no From, no body …)."""

    def __init__(self, reason: str, raw_excerpt: bytes = b"") -> None:
        super().__init__(reason)
        self.reason = reason
        self.raw_excerpt = raw_excerpt


class TokenError(InboundError):
    """A reply token is missing, malformed, or its signature does not verify."""

    def __init__(self, reason: str, token: str | None = None) -> None:
        super().__init__(f"{reason}: {token!r}" if token else reason)
        self.reason = reason
        self.token = token
