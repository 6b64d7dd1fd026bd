"""Building outgoing RFC 5322 messages.

Every letter the server sends is machine-written: it carries ``Auto-Submitted: auto-generated``
(RFC 3834) so that well-behaved responders do not answer it, a ``Message-ID`` fixed when the
letter entered the outbox (a retried or re-sent letter is recognisably the *same* letter), the
player's reply address with a signed token, and the token once more in ``References``.
"""

from __future__ import annotations

import mimetypes
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.generator import NLCRE, BytesGenerator  # type: ignore[attr-defined]
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime
from io import BytesIO
from typing import Any

__all__ = ["Attachment", "OutgoingLetter", "build_message", "message_bytes", "new_message_id"]


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    content: bytes
    content_type: str = ""
    #: ``inline`` parts are shown in the body by clients that can (the board diagram).
    inline: bool = False

    @property
    def mime_type(self) -> tuple[str, str]:
        guessed = self.content_type or mimetypes.guess_type(self.filename)[0]
        maintype, _, subtype = (guessed or "application/octet-stream").partition("/")
        return maintype, subtype


@dataclass(frozen=True, slots=True)
class OutgoingLetter:
    """One letter as the mailer hands it to SMTP."""

    message_id: str
    from_address: str
    to: Sequence[str]
    subject: str
    text: str
    date: datetime
    html: str | None = None
    reply_to: str | None = None
    references: Sequence[str] = ()
    in_reply_to: str | None = None
    attachments: Sequence[Attachment] = field(default_factory=tuple)
    language: str = "ru"


class _HeaderClasses(HeaderRegistry):
    """The standard header registry, each header class made once: the registry makes a new
    class for every header object (``type(...)`` on each call), a third of the cost of a
    header that is parsed anew (a Message-ID, a Date)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made


def _remembered(cache: dict[tuple[str, str], Any], key: tuple[str, str],
                make: Callable[[], Any]) -> Any:
    """``make()`` once per key; the cache is emptied when full, so a long-running process
    that meets many different headers keeps it bounded."""
    value = cache.get(key)
    if value is None:
        value = make()
        if len(cache) >= _HEADER_CACHE_SIZE:
            cache.clear()
        cache[key] = value
    return value


_HEADER_CACHE_SIZE = 4096


class _ComposingPolicy(EmailPolicy):
    """``email.policy.SMTP`` whose header objects are parsed once per name and value.

    Most headers of the server's letters repeat from letter to letter — From,
    ``Auto-Submitted``, ``Content-Language``, each part's ``Content-Type`` and
    ``Content-Transfer-Encoding``, a player's To, Reply-To and reply reference — and parsing
    them was a fifth of composing a letter. A header object is an immutable ``str`` holding its
    parse, so one object serves every message, and its folded text is kept with it; the bytes
    written are the same.
    """

    _cache: dict[tuple[str, str], tuple[str, Any]] = {}

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if type(value) is not str:
            return super().header_store_parse(name, value)
        parse = super().header_store_parse
        parsed: tuple[str, Any] = _remembered(self._cache, (name, value), lambda: parse(name, value))
        return parsed

    def _fold(self, name: str, value: Any, refold_binary: bool = False) -> str:
        """A header object's folded text, kept on the object: it depends on the object (which
        never changes) and on this policy's line length, line end and ``utf8`` only."""
        memo = getattr(value, "__dict__", None) if hasattr(value, "name") else None
        if memo is None:
            plain: str = super()._fold(name, value, refold_binary)  # type: ignore[misc]
            return plain
        key = ("corrmail_folded", refold_binary, self.linesep, self.max_line_length, self.utf8)
        folded: str | None = memo.get(key)
        if folded is None:
            folded = memo[key] = super()._fold(name, value, refold_binary)  # type: ignore[misc]
        return folded


#: ``email.policy.SMTP`` (``policy.default`` with CRLF line ends), its headers parsed once.
SMTP_POLICY = _ComposingPolicy(linesep="\r\n", header_factory=_HeaderClasses())


class _ReadingPolicy(EmailPolicy):
    """``email.policy.default`` for reading received mail, each header read once.

    A parsed message keeps its headers as text and parses one again on every read: reading a
    received letter (its automation markers, addresses, each part's ``Content-Type`` as the
    body and attachments are looked for) parsed the same few headers some fifty times, a tenth
    of the intake's time. The header object for a name and text is the same every time (it is
    immutable), so it is made once; long values (a hostile message's) are not kept.
    """

    _cache: dict[tuple[str, str], Any] = {}

    def header_fetch_parse(self, name: str, value: Any) -> Any:
        if type(value) is not str or len(value) > 998:
            return super().header_fetch_parse(name, value)
        parse = super().header_fetch_parse
        return _remembered(self._cache, (name, value), lambda: parse(name, value))


#: ``email.policy.default`` (what received messages are parsed with), each header read once.
READING_POLICY = _ReadingPolicy(header_factory=_HeaderClasses())


def new_message_id(domain: str, *, tag: str = "corrmail") -> str:
    """A fresh globally unique Message-ID in the server's domain.

    Not :func:`email.utils.make_msgid`: it draws from the global :mod:`random` generator, which
    anything in the process may seed (Hypothesis reseeds it for every example), and two letters
    written within the same hundredth of a second then got the same Message-ID — the outbox's
    unique key. 128 bits from the operating system cannot repeat that way.
    """
    return f"<{tag}.{secrets.token_hex(16)}@{domain}>"


def message_bytes(message: EmailMessage) -> bytes:
    """``message.as_bytes()``, byte for byte, written a block at a time (see
    :class:`_BlockGenerator`)."""
    out = BytesIO()
    _BlockGenerator(out, mangle_from_=False, policy=message.policy).flatten(message)
    return out.getvalue()


class _BlockGenerator(BytesGenerator):
    """The stdlib's ``BytesGenerator`` writing each body's lines as one block with the
    policy's line ends, instead of two writes a line (a base64 diagram is some two hundred
    lines): the same text joined the same way, so the same bytes."""

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        parts = NLCRE.split(lines)
        if len(parts) > 1:
            self.write(self._NL.join(parts[:-1]) + self._NL)  # type: ignore[attr-defined]
        if parts[-1]:
            self.write(parts[-1])

    @classmethod
    def _make_boundary(cls, text: bytes | None = None) -> str:
        """The stdlib's boundary (the same draw), checked against the parts without compiling
        a regular expression for every boundary (a third of writing a letter's bytes)."""
        boundary: str = super()._make_boundary()  # type: ignore[misc]
        if text is None:
            return boundary
        chosen, counter = boundary, 0
        while _is_delimiter_line(text, chosen.encode("ascii")):
            chosen = f"{boundary}.{counter}"
            counter += 1
        return chosen


def _is_delimiter_line(text: bytes, boundary: bytes) -> bool:
    """Whether a line of ``text`` is ``--boundary`` or ``--boundary--``: what the stdlib's
    ``re.compile('^--' + re.escape(boundary) + '(--)?$', re.MULTILINE).search`` finds."""
    needle = b"--" + boundary
    start = text.find(needle)
    while start != -1:
        if start == 0 or text[start - 1] == 0x0A:
            end = start + len(needle)
            for after in (end + 2, end) if text.startswith(b"--", end) else (end,):
                if after == len(text) or text[after] == 0x0A:
                    return True
        start = text.find(needle, start + 1)
    return False


def build_message(letter: OutgoingLetter) -> EmailMessage:
    """The :class:`EmailMessage` for ``letter``, ready for :func:`aiosmtplib.send`."""
    if not letter.to:
        raise ValueError(f"letter {letter.message_id} has no recipient")
    message = EmailMessage(policy=SMTP_POLICY)
    message["Message-ID"] = letter.message_id
    message["Date"] = format_datetime(letter.date)
    message["From"] = letter.from_address
    message["To"] = ", ".join(letter.to)
    message["Subject"] = letter.subject
    if letter.reply_to:
        message["Reply-To"] = letter.reply_to
    if letter.in_reply_to:
        message["In-Reply-To"] = letter.in_reply_to
    if letter.references:
        message["References"] = " ".join(letter.references)
    message["Auto-Submitted"] = "auto-generated"
    message["Content-Language"] = letter.language
    message.set_content(letter.text, subtype="plain", charset="utf-8", cte="quoted-printable")
    if letter.html is not None:
        message.add_alternative(letter.html, subtype="html", charset="utf-8")
    for attachment in letter.attachments:
        maintype, subtype = attachment.mime_type
        message.add_attachment(
            attachment.content,
            maintype=maintype,
            subtype=subtype,
            filename=attachment.filename,
            disposition="inline" if attachment.inline else "attachment",
        )
    return message
