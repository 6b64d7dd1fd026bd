"""Mail settings read from the environment.

``CORRMAIL_SMTP_HOST`` switches real delivery on; without it the mailer runs in *captured*
mode: letters are kept in the outbox, marked captured, and readable in the web UI.

=============================  ==================================================================
Variable                       Meaning
=============================  ==================================================================
``CORRMAIL_SMTP_HOST``         relay host name; unset → captured mode
``CORRMAIL_SMTP_PORT``         port (default 587 with STARTTLS, 465 with TLS, 25 otherwise)
``CORRMAIL_SMTP_SECURITY``     ``starttls`` (default), ``tls`` (implicit TLS) or ``none``
``CORRMAIL_SMTP_USER``         user name for AUTH (optional)
``CORRMAIL_SMTP_PASSWORD``     password for AUTH (optional)
``CORRMAIL_SMTP_TIMEOUT``      seconds per SMTP operation (default 30)
``CORRMAIL_SMTP_CA_FILE``      CA bundle that signed the relay's certificate (a private CA)
``CORRMAIL_MAIL_DOMAIN``       domain of the server's own addresses (default ``corrmail.local``)
``CORRMAIL_MAIL_FROM``         display address letters come from (default ``turnir@<domain>``)
``CORRMAIL_MAIL_SECRET``       key of the reply and bounce tokens (falls back to ``SECRET_KEY``)
``CORRMAIL_MAIL_MAX_BYTES``    inbound size limit in bytes (default 10 MiB)
``CORRMAIL_MAIL_AUTHSERV_ID``  authserv-ids of the receiving MTA's ``Authentication-Results``
                               (comma-separated; default: the mail domain and its hosts)
=============================  ==================================================================
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass

from corrmail.config import SettingsError, whole_number

__all__ = ["Security", "SmtpSettings", "MailSettings"]


class Security(enum.Enum):
    STARTTLS = "starttls"
    TLS = "tls"
    NONE = "none"


_DEFAULT_PORTS = {Security.STARTTLS: 587, Security.TLS: 465, Security.NONE: 25}


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    host: str
    port: int
    security: Security = Security.STARTTLS
    user: str | None = None
    password: str | None = None
    timeout: float = 30.0
    #: Trust this CA bundle for the relay's certificate instead of the system store.
    ca_file: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SmtpSettings | None:
        """Settings from ``CORRMAIL_SMTP_*``, or ``None`` when no relay is configured."""
        env = os.environ if env is None else env
        host = env.get("CORRMAIL_SMTP_HOST", "").strip()
        if not host:
            return None
        raw_security = env.get("CORRMAIL_SMTP_SECURITY", "starttls").strip().lower()
        try:
            security = Security(raw_security)
        except ValueError:
            raise SettingsError(
                "CORRMAIL_SMTP_SECURITY", raw_security, "expected starttls, tls or none"
            ) from None
        port = whole_number(env, "CORRMAIL_SMTP_PORT", _DEFAULT_PORTS[security])
        timeout = float(whole_number(env, "CORRMAIL_SMTP_TIMEOUT", 30))
        return cls(
            host=host,
            port=port,
            security=security,
            user=env.get("CORRMAIL_SMTP_USER") or None,
            password=env.get("CORRMAIL_SMTP_PASSWORD") or None,
            timeout=timeout,
            ca_file=env.get("CORRMAIL_SMTP_CA_FILE") or None,
        )


@dataclass(frozen=True, slots=True)
class MailSettings:
    """Everything the mail layer needs apart from the relay."""

    domain: str
    from_address: str
    secret: bytes
    max_message_bytes: int = 10 * 1024 * 1024
    smtp: SmtpSettings | None = None
    #: Whose Authentication-Results are believed (corrmail.mail.envelope); () = the domain's.
    authserv_ids: tuple[str, ...] = ()

    @property
    def captured(self) -> bool:
        """True when letters are kept instead of sent (no ``CORRMAIL_SMTP_HOST``)."""
        return self.smtp is None

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, secret_fallback: str | None = None
    ) -> MailSettings:
        env = os.environ if env is None else env
        domain = env.get("CORRMAIL_MAIL_DOMAIN", "corrmail.local").strip() or "corrmail.local"
        secret = env.get("CORRMAIL_MAIL_SECRET") or env.get("SECRET_KEY") or secret_fallback
        if not secret:
            raise SettingsError(
                "CORRMAIL_MAIL_SECRET", "", "expected a secret key for reply tokens (or SECRET_KEY)"
            )
        return cls(
            domain=domain,
            from_address=env.get("CORRMAIL_MAIL_FROM") or f"turnir@{domain}",
            secret=secret.encode(),
            max_message_bytes=whole_number(env, "CORRMAIL_MAIL_MAX_BYTES", 10 * 1024 * 1024),
            smtp=SmtpSettings.from_env(env),
            authserv_ids=tuple(
                part.strip().lower()
                for part in env.get("CORRMAIL_MAIL_AUTHSERV_ID", "").split(",") if part.strip()
            ),
        )
