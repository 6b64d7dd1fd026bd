"""The new text of a reply: decoded, converted from HTML when needed, quotes and signatures cut.

Players answer from every kind of client. What they wrote *now* is what counts: the quoted
previous letter contains the partner's moves and must never be read as the player's own. The
rules, applied in order:

1. Lines that start with ``>`` (any depth) are quotations and are dropped, together with the
   attribution line that introduces them ("On … wrote:", «… пишет:», «… написал(а):»).
2. An unprefixed copy of the previous letter — Outlook's "-----Original Message-----", Mail.ru's
   «-------- Исходное сообщение --------», Gmail's forwarded-message banner, or a block of
   ``From:``/``От:`` + ``Sent:``/``Отправлено:`` headers — ends the new text.
3. A signature starts at the standard ``-- `` delimiter (RFC 3676 §4.3) and runs to the end;
   single-line client footers ("Sent from my iPhone", «Отправлено с iPhone») are dropped.

Because step 1 drops quoted lines wherever they are, top-posting and bottom-posting (and
interleaved answers) all leave exactly the player's own lines.
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

__all__ = ["decode_part", "html_to_text", "strip_quotes_and_signature", "new_text"]

# Charsets seen in Russian mail when the declared one is missing or wrong, most likely first.
_FALLBACK_CHARSETS = ("utf-8", "windows-1251", "koi8-r")

_ATTRIBUTION = re.compile(
    r"""^\s*(
        on\s.+\bwrote:?                                              # Thunderbird, Gmail, Apple
      | .*\b(wrote|пишет|писал\w*|написал\w*)\b.*:                  # any client, any order
      | \d{1,2}[./]\d{1,2}[./]\d{2,4}.*\d{1,2}:\d{2}.*:                # "12.03.2026 14:05, Иван:"
      | .*(<[^>\s]+@[^>\s]+>|\b\d{1,2}:\d{2}\b).*:                      # "… 9:00 от Турнир <…>:"
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_ORIGINAL_BANNER = re.compile(
    r"""^\s*(
        -{2,}\s*(original\s+message|forwarded\s+message|исходное\s+сообщение|
                 пересылаемое\s+сообщение|пересланное\s+сообщение)\s*-{2,}
      | _{10,}
      | begin\s+forwarded\s+message:
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_HEADER_BLOCK_START = re.compile(r"^\s*\*?(from|от|от кого)\s*:\*?\s", re.IGNORECASE)
_HEADER_BLOCK_NEXT = re.compile(
    r"^\s*\*?(sent|date|to|subject|отправлено|дата|кому|тема)\s*:", re.IGNORECASE
)
_CLIENT_FOOTER = re.compile(
    r"""^\s*(
        sent\s+from\s+my\s+\S+.*
      | get\s+outlook\s+for\s+\S+.*
      | отправлено\s+(с|из|со)\s+.+
      | послано\s+(с|из|со)\s+.+
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


def decode_part(part: Message) -> str:
    """Text of a MIME leaf, tolerating missing, unknown or wrong charsets."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return str(part.get_payload())
    declared = part.get_content_charset()
    candidates = ([declared] if declared else []) + list(_FALLBACK_CHARSETS)
    for charset in candidates:
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("utf-8", errors="replace")


class _TextExtractor(HTMLParser):
    """Visible text of an HTML body, quoted blocks written as ``> `` lines.

    Rendering ``<blockquote>`` and Gmail/Thunderbird quote containers as ``>``-prefixed lines
    lets :func:`strip_quotes_and_signature` treat HTML and plain letters by the same rules
    (including the attribution line just above a quote). Signature containers are dropped.
    """

    _BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "table", "pre", "blockquote"}
    _VOID = {"br", "img", "hr", "meta", "link", "input", "wbr"}
    _SKIP = {"script", "style", "head", "title"}
    _QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted")
    _SIGNATURE_CLASSES = ("gmail_signature", "moz-signature")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._chunks: list[tuple[str, bool]] = []
        self._stack: list[tuple[str, str]] = []  # (tag, role) with role "", "quote" or "hide"
        self._quote_depth = 0
        self._hide_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(value or "" for name, value in attrs if name == "class")
        if tag in self._BLOCK:
            self._chunks.append(("\n", False))
        if tag in self._VOID:
            return  # void elements never get an end tag
        role = ""
        if tag in self._SKIP or any(c in classes for c in self._SIGNATURE_CLASSES):
            role = "hide"
        elif tag == "blockquote" or any(c in classes for c in self._QUOTE_CLASSES):
            role = "quote"
        self._stack.append((tag, role))
        self._quote_depth += role == "quote"
        self._hide_depth += role == "hide"

    def handle_endtag(self, tag: str) -> None:
        # Unwind to the matching start tag; browsers forgive unclosed tags and so must we.
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index][0] == tag:
                for _, role in self._stack[index:]:
                    self._quote_depth -= role == "quote"
                    self._hide_depth -= role == "hide"
                del self._stack[index:]
                break
        if tag in self._BLOCK:
            self._chunks.append(("\n", False))

    def handle_data(self, data: str) -> None:
        if self._hide_depth == 0:
            self._chunks.append((data, self._quote_depth > 0))

    def text(self) -> str:
        lines: list[str] = []
        current: list[str] = []
        quoted = True
        for data, in_quote in self._chunks + [("\n", False)]:
            pieces = data.split("\n")
            for position, piece in enumerate(pieces):
                if position > 0:
                    line = re.sub(r"[ \t]+", " ", "".join(current).replace("\xa0", " ")).strip()
                    lines.append(f"> {line}" if line and quoted else line)
                    current, quoted = [], True
                if piece.strip():
                    current.append(piece)
                    quoted = quoted and in_quote
                elif piece:
                    current.append(piece)
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def html_to_text(html: str) -> str:
    """Plain text of an HTML-only letter; quoted blocks become ``> `` lines."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    return extractor.text()


def strip_quotes_and_signature(text: str) -> str:
    """The player's own lines of ``text`` (see the module docstring for the rules)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        if line.lstrip().startswith(">"):
            continue
        if line.rstrip() in ("--", "-- ") or line == "-- ":
            break
        if _ORIGINAL_BANNER.match(line):
            break
        if _HEADER_BLOCK_START.match(line) and _next_nonblank_matches(
            lines, index, _HEADER_BLOCK_NEXT
        ):
            break
        if _ATTRIBUTION.match(line) and _next_nonblank_is_quote(lines, index):
            continue
        if _CLIENT_FOOTER.match(line):
            continue
        kept.append(line.rstrip())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def new_text(message: EmailMessage) -> str:
    """Decoded new text of ``message``: text/plain preferred, else HTML converted."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    raw = decode_part(part)
    if part.get_content_subtype() == "html":
        raw = html_to_text(raw)
    return strip_quotes_and_signature(raw)


def _next_nonblank_is_quote(lines: list[str], index: int) -> bool:
    for following in lines[index + 1 : index + 4]:
        if following.strip():
            return following.lstrip().startswith(">")
    return False


def _next_nonblank_matches(lines: list[str], index: int, pattern: re.Pattern[str]) -> bool:
    for following in lines[index + 1 : index + 3]:
        if following.strip():
            return bool(pattern.match(following))
    return False
