"""A file the browser downloads: one Content-Disposition for every export, whatever the name.

A tournament code is often Cyrillic (``ЗКР-2026``). Werkzeug writes a header's parameters as
Latin-1, so such a name in a plain ``filename=`` fails with ``UnicodeEncodeError``. RFC 6266
(with RFC 5987's encoding) gives the name twice: ``filename*=UTF-8''…`` for every current
browser and an ASCII ``filename=`` for the rest.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from flask import Response

__all__ = ["attachment", "content_disposition", "ascii_fallback"]

_UNSAFE_ASCII = re.compile(r'[^A-Za-z0-9._-]+')


def ascii_fallback(filename: str) -> str:
    """The name with accents dropped and other non-ASCII runs as ``_``; never an empty stem."""
    stem, dot, extension = filename.rpartition(".")
    if not dot:
        stem, extension = filename, ""
    return _ascii(stem, "download") + (f".{_ascii(extension, 'bin')}" if dot else "")


def _ascii(text: str, default: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _UNSAFE_ASCII.sub("_", plain).strip("._-") or default


def content_disposition(filename: str, disposition: str = "attachment") -> str:
    """``attachment; filename="ascii"; filename*=UTF-8''percent-encoded`` (RFC 6266 §4.3)."""
    return (f'{disposition}; filename="{ascii_fallback(filename)}"; '
            f"filename*=UTF-8''{quote(filename, safe='')}")


def attachment(body: bytes | str, mimetype: str, filename: str) -> Response:
    # Werkzeug appends "; charset=utf-8" to a text/* mimetype even when it names its charset
    # already: one that does is the whole Content-Type.
    if "charset=" in mimetype:
        response = Response(body, content_type=mimetype)
    else:
        response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = content_disposition(filename)
    return response
