"""Building outgoing RFC 5322 messages.

Every letter the server sends is machine-written: it carries ``Auto-Submitted: auto-generated``
(RFC 3834) so that well-behaved responders do not answer it, a ``Message-ID`` fixed when the
letter entered the outbox (a retried or re-sent letter is recognisably the *same* letter), the
player's reply address with a signed token, and the token once more in ``References``.
"""

from __future__ import annotations

import binascii
import mimetypes
import quopri
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email import quoprimime
from email.generator import NLCRE, BytesGenerator  # type: ignore[attr-defined]
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime
from io import BytesIO
from typing import Any

__all__ = ["Attachment", "ComposedLetter", "OutgoingLetter", "build_message", "compose_letter",
           "composed_from_message", "message_bytes", "new_message_id"]


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
    ``Auto-Submitted``, each part's ``Content-Type`` and
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


@dataclass(frozen=True, slots=True)
class ComposedLetter:
    """A letter as the outbox stores it: the bytes to send and the headers it files them by."""

    raw: bytes
    message_id: str
    recipient: str
    sender: str
    subject: str
    #: The plain-text body as a reader's client decodes it (the outbox viewer shows it).
    body_text: str

    def lacks(self) -> str | None:
        """The first of the headers every outgoing message needs that is empty, or None."""
        for name, value in (("Message-ID", self.message_id), ("To", self.recipient),
                            ("From", self.sender), ("Subject", self.subject)):
            if not value:
                return name
        return None


def composed_from_message(message: EmailMessage) -> ComposedLetter:
    """What the outbox stores of an :class:`EmailMessage` built elsewhere."""
    body = message.get_body(preferencelist=("plain",))
    return ComposedLetter(
        raw=message_bytes(message),
        message_id=str(message["Message-ID"] or ""),
        recipient=str(message["To"] or ""),
        sender=str(message["From"] or ""),
        subject=str(message["Subject"] or ""),
        body_text=body.get_content() if body is not None else "",
    )


#: Attachment names and MIME types the direct writer handles: the stdlib writes such a
#: filename as ``filename="…"`` with nothing to escape or encode (RFC 2231), and such a type
#: as one leaf part. Anything else goes through :func:`build_message`.
_PLAIN_FILENAME = re.compile(r"[A-Za-z0-9._-]+\Z")
_PLAIN_TYPE_WORD = re.compile(r"[a-z0-9][a-z0-9.+-]*\Z")
_CRLF = "\r\n"


def compose_letter(letter: OutgoingLetter) -> ComposedLetter:
    """The outbox's copy of ``letter``: the bytes of ``message_bytes(build_message(letter))``
    and the headers :func:`composed_from_message` reads from it, written directly.

    Building the :class:`EmailMessage` (content managers, moving the text part into a
    ``multipart/mixed`` on the first attachment, parameter rewriting) and walking it with the
    generator was most of composing a letter. Here each header still goes through the
    composing policy (the same header objects and folding, so the same header bytes), the
    bodies through the stdlib's own encoders, and the boundary is drawn by the generator's
    own method over the same text; only the order of the pieces is written out, in the order
    ``build_message`` produces.
    ``tests/mail/test_compose_policy.py`` compares both ways byte for byte. A letter with an
    HTML alternative or an attachment outside :data:`_PLAIN_FILENAME` and
    :data:`_PLAIN_TYPE_WORD` is built by :func:`build_message`.
    """
    if not letter.to:
        raise ValueError(f"letter {letter.message_id} has no recipient")
    kinds = [attachment.mime_type for attachment in letter.attachments]
    if letter.html is not None or not all(
            _PLAIN_FILENAME.match(attachment.filename)
            and _PLAIN_TYPE_WORD.match(maintype) and _PLAIN_TYPE_WORD.match(subtype)
            and maintype not in ("multipart", "message")
            for attachment, (maintype, subtype) in zip(letter.attachments, kinds, strict=True)):
        return composed_from_message(build_message(letter))
    policy = SMTP_POLICY
    store = policy.header_store_parse
    line_length = policy.max_line_length
    assert line_length is not None  # email.policy.SMTP's 78

    def header(name: str, value: str) -> tuple[str, Any]:
        return store(name, value)

    date = format_datetime(letter.date)
    top: list[tuple[str, Any]] = [
        _plain_header("Message-ID", letter.message_id, _PLAIN_MESSAGE_ID.match(letter.message_id))
        or header("Message-ID", letter.message_id),
        _plain_header("Date", date, _plain_date(letter.date)) or header("Date", date),
        header("From", letter.from_address),
        header("To", ", ".join(letter.to)),
        header("Subject", letter.subject),
    ]
    if letter.reply_to:
        top.append(header("Reply-To", letter.reply_to))
    if letter.in_reply_to:
        top.append(header("In-Reply-To", letter.in_reply_to))
    if letter.references:
        top.append(header("References", " ".join(letter.references)))
    top.append(header("Auto-Submitted", "auto-generated"))
    # set_text_content: its Content-Type, the charset parameter set on it, then its encoding.
    lines = letter.text.encode("utf-8").splitlines()
    payload = quoprimime.body_encode((b"\n".join(lines) + b"\n").decode("latin-1"),
                                     line_length)
    text_headers = [header("Content-Type", 'text/plain; charset="utf-8"'),
                    header("Content-Transfer-Encoding", "quoted-printable")]
    mime_version = header("MIME-Version", "1.0")
    text_part = _part_bytes(text_headers, payload)
    if letter.attachments:
        parts = [text_part]
        for attachment, (maintype, subtype) in zip(letter.attachments, kinds, strict=True):
            disposition = "inline" if attachment.inline else "attachment"
            disposed = f'{disposition}; filename="{attachment.filename}"'
            parts.append(_part_bytes([
                header("Content-Type", f"{maintype}/{subtype}"),
                header("Content-Transfer-Encoding", "base64"),
                # The filename is plain (_PLAIN_FILENAME): written as given when it fits.
                _plain_header("Content-Disposition", disposed, True)
                or header("Content-Disposition", disposed),
                mime_version,
            ], _base64_lines(attachment.content, line_length)))
        boundary: str = _BlockGenerator._make_boundary(b"\r\n".join(parts))
        top += [mime_version,
                header("Content-Type", f'multipart/mixed; boundary="{boundary}"')]
        delimiter = f"--{boundary}".encode("ascii")
        body = b"".join((delimiter, b"\r\n", (b"\r\n" + delimiter + b"\r\n").join(parts),
                         b"\r\n", delimiter, b"--\r\n"))
        raw = _headers_bytes(top) + body
    else:
        top += [*text_headers, mime_version]
        raw = _headers_bytes(top) + _body_bytes(payload)
    fields = {name: str(value) for name, value in top[:5]}
    return ComposedLetter(
        raw=raw, message_id=fields["Message-ID"], recipient=fields["To"],
        sender=fields["From"], subject=fields["Subject"],
        # get_content() of the text part: its quoted-printable payload decoded, as utf-8.
        body_text=quopri.decodestring(payload.encode("ascii")).decode("utf-8", "replace"),
    )


#: A Message-ID of dot-atoms (``<corrmail.1f…@turnir.example>``, :func:`new_message_id`).
_PLAIN_MESSAGE_ID = re.compile(
    r"<[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*@[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*>\Z")


class _PlainHeader(str):
    """A header whose value the policy would write unchanged on one line (see
    :func:`_plain_header`): its text is the header's value, ``folded`` its line."""

    folded: bytes


def _plain_header(name: str, value: str, plain: object) -> tuple[str, _PlainHeader] | None:
    """``(name, header)`` written as ``name: value`` CRLF, without the header registry, when
    ``plain`` holds and the line fits; else None (the caller parses the header as usual).

    The three headers written this way are unique to each letter, so the composing policy's
    kept parses never serve them, and parsing and folding each was some 200–350 function
    calls: a Message-ID of dot-atoms (:data:`_PLAIN_MESSAGE_ID`), the ``Date`` of an aware
    time (:func:`_plain_date`) and an attachment's ``Content-Disposition`` with a plain
    filename. For such values the registry's header reads back as the value and folds to that
    one line; ``tests/mail/test_compose_policy.py`` checks it over tens of thousands of each.
    """
    if not plain or len(name) + 2 + len(value) > 78:
        return None
    header = _PlainHeader(value)
    header.folded = f"{name}: {value}\r\n".encode("ascii")
    return name, header


def _plain_date(when: datetime) -> bool:
    """Whether ``format_datetime(when)`` reads back as itself: an aware time with a whole
    minute offset (RFC 5322 has no seconds there) in a year written with four digits (a year
    below 100 would be read as 19xx or 20xx)."""
    offset = when.utcoffset()
    return (offset is not None and not offset.seconds % 60 and not offset.microseconds
            and 1900 <= when.year <= 9999)


def _base64_lines(data: bytes, max_line_length: int) -> str:
    """``email.contentmanager._encode_base64``: ``data`` in base64 lines of
    ``max_line_length // 4 * 4`` characters, each ended by a newline, encoded at once rather
    than a line at a time. Its lines encode ``max_line_length // 4 * 3`` bytes each, a multiple
    of three, so no padding falls inside the text: the same characters, cut at the same places."""
    width = max_line_length // 4 * 4
    encoded = binascii.b2a_base64(data, newline=False).decode("ascii")
    return "".join([encoded[start:start + width] + "\n"
                    for start in range(0, len(encoded), width)])


def _headers_bytes(headers: Sequence[tuple[str, Any]]) -> bytes:
    """The generator's header block: each header folded by the policy, then a blank line."""
    fold = SMTP_POLICY.fold_binary
    return b"".join([*(value.folded if type(value) is _PlainHeader else fold(name, value)
                       for name, value in headers), b"\r\n"])


def _body_bytes(payload: str) -> bytes:
    """A leaf part's body as :class:`_BlockGenerator` writes it: its lines with CRLF ends."""
    parts: list[str] = NLCRE.split(payload)
    text = _CRLF.join(parts[:-1]) + _CRLF + parts[-1] if len(parts) > 1 else parts[-1]
    return text.encode("ascii", "surrogateescape")


def _part_bytes(headers: Sequence[tuple[str, Any]], payload: str) -> bytes:
    return _headers_bytes(headers) + _body_bytes(payload)
