"""Structured logs: one JSON object per line on stderr, with every secret masked.

``configure_logging()`` is called once per process by the ``corrmail`` command; gunicorn's
workers inherit it. ``CORRMAIL_LOG_FORMAT`` chooses ``json`` (the default when stderr is not a
terminal: journald and log shippers read it) or ``text`` (the default on a terminal);
``CORRMAIL_LOG_LEVEL`` the level.

Secrets never reach a log line: :class:`SecretMask` replaces the values of every secret setting
(the session key, the mail token secret, SMTP and IMAP passwords, the database password) and any
``password=…``/``token=…``/URL password it sees, in the message and in the exception text.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import re
import sys
from collections.abc import Iterable, Mapping

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

__all__ = [
    "JsonFormatter",
    "SecretMask",
    "configure_logging",
    "secret_values",
    "MASK",
    "SECRET_VARIABLES",
]

MASK = "[secret]"

#: Environment variables whose values are secrets wherever they appear.
SECRET_VARIABLES = (
    "CORRMAIL_SECRET_KEY",
    "CORRMAIL_MAIL_SECRET",
    "CORRMAIL_SMTP_PASSWORD",
    "CORRMAIL_IMAP_PASSWORD",
)

# `password=hunter2`, `"token": "abc"`, `Authorization: Bearer abc`, `user:pw@host` in URLs.
_SECRET_PATTERNS = (
    re.compile(
        r"""(?P<key>\b(?:password|passwd|secret|token|api_key|csrf_token)\b["']?\s*[=:]\s*["']?)"""
        r"""(?P<value>[^\s"'&,;}]+)""",
        re.IGNORECASE,
    ),
    re.compile(r"(?P<key>\bBearer\s+)(?P<value>[A-Za-z0-9._~+/=-]+)", re.IGNORECASE),
    re.compile(r"(?P<key>[a-z][a-z0-9+.-]*://[^/\s:@]+:)(?P<value>[^@\s/]+)(?=@)", re.IGNORECASE),
)
# Short values (a test's "x") would mask ordinary words; real secrets are longer.
_MIN_SECRET_LENGTH = 6

# Attributes every LogRecord has; anything else was passed with `extra=` and goes into the JSON.
_STANDARD_ATTRIBUTES = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """The secret values configured in ``environ``: the variables above and the database password."""
    env = os.environ if environ is None else environ
    values = [env[name] for name in SECRET_VARIABLES if env.get(name)]
    database_url = env.get("CORRMAIL_DATABASE_URL")
    if database_url:
        try:
            password = make_url(database_url).password
        except ArgumentError:
            password = None
        if password:
            values.append(str(password))
    return [value for value in values if len(value) >= _MIN_SECRET_LENGTH]


class SecretMask(logging.Filter):
    """Masks known secret values and secret-looking ``key=value`` pairs in every record."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        # Longest first, so a secret containing another is masked whole.
        self.secrets = sorted({s for s in secrets if len(s) >= _MIN_SECRET_LENGTH}, key=len, reverse=True)

    def mask(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        for pattern in _SECRET_PATTERNS:
            text = pattern.sub(lambda match: match.group("key") + MASK, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        # Render once, mask, and freeze: handlers must not re-render the unmasked arguments.
        record.msg = self.mask(record.getMessage())
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = self.mask(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "message", "process", …extra, "exception"}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRIBUTES and not key.startswith("_"):
                entry[key] = value if isinstance(value, str | int | float | bool | None) else str(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


def configure_logging(
    *,
    fmt: str | None = None,
    level: str | None = None,
    environ: Mapping[str, str] | None = None,
    stream: object = None,
) -> logging.Handler:
    """Replace the root logger's handlers with one masked handler; returns it."""
    env = os.environ if environ is None else environ
    output = stream or sys.stderr
    default = "text" if getattr(output, "isatty", lambda: False)() else "json"
    fmt = (fmt or env.get("CORRMAIL_LOG_FORMAT") or default).lower()
    if fmt not in ("json", "text"):
        raise ValueError(f"CORRMAIL_LOG_FORMAT={fmt!r}: expected 'json' or 'text'")
    handler = logging.StreamHandler(output)  # type: ignore[arg-type]
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(SecretMask(secret_values(env)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel((level or env.get("CORRMAIL_LOG_LEVEL") or "INFO").upper())
    # Alembic logs every revision check at INFO; readiness probes would drown the log.
    logging.getLogger("alembic.runtime.migration").setLevel(logging.WARNING)
    return handler
