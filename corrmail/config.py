"""Settings from the environment (`CORRMAIL_*`), parsed once into a frozen dataclass."""

from __future__ import annotations

import datetime as dt
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from corrmail.clock import FEDERATION_TIME_ZONE
from corrmail.paths import var_dir

__all__ = ["Settings", "SettingsError", "default_database_url", "whole_number"]


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use: every part of the service
    (the web app, the mail layer, gunicorn's front, IMAP polling) refuses its settings with
    this, worded ``VARIABLE='value': what was expected``."""

    def __init__(self, variable: str, value: str, reason: str) -> None:
        super().__init__(f"{variable}={value!r}: {reason}")
        self.variable = variable
        self.value = value


def whole_number(env: Mapping[str, str], variable: str, default: int, *, minimum: int = 1,
                 maximum: int | None = None) -> int:
    """``variable`` read as a whole number from ``minimum`` (to ``maximum``); ``default`` when
    unset or blank."""
    raw = env.get(variable, "").strip()
    if not raw:
        return default
    expected = (f"expected a whole number from {minimum} to {maximum}" if maximum is not None
                else f"expected a whole number of at least {minimum}")
    try:
        number = int(raw)
    except ValueError:
        raise SettingsError(variable, raw, expected) from None
    if number < minimum or (maximum is not None and number > maximum):
        raise SettingsError(variable, raw, expected)
    return number


@dataclass(frozen=True)
class Settings:
    database_url: str
    secret_key: str
    # Unset: no SMTP relay, outgoing letters are captured in the outbox for the web UI. The rest
    # of CORRMAIL_SMTP_* and CORRMAIL_MAIL_* belongs to the mail layer (corrmail.mail.settings).
    smtp_host: str | None = None
    # Replays a tournament's life: every "today" in the service comes from here when set.
    today: dt.date | None = None
    default_locale: str = "ru"
    csrf_enabled: bool = True
    testing: bool = False
    # Served over HTTPS: session cookies get the Secure flag (corrmail.ops.headers).
    cookie_secure: bool = False
    # Where users reach the site, e.g. https://turnir.example.org: every link written into a
    # letter starts with it, never with the Host header of a request (corrmail.ops.links).
    base_url: str | None = None
    # Proxies in front of the app that append to X-Forwarded-For (1 behind the shipped nginx);
    # 0 trusts no such header and takes the connection's address.
    trusted_proxies: int = 0
    # The federation's time zone (IANA name): pages listing moments of many tournaments, the
    # outbox, show them all on its clock.
    time_zone: str = FEDERATION_TIME_ZONE
    extra: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("CORRMAIL_DATABASE_URL") or default_database_url(),
            secret_key=env.get("CORRMAIL_SECRET_KEY") or _persistent_secret_key(),
            smtp_host=env.get("CORRMAIL_SMTP_HOST", "").strip() or None,
            today=_date_from_env(env, "CORRMAIL_TODAY"),
            default_locale=env.get("CORRMAIL_LOCALE", "ru"),
            cookie_secure=env.get("CORRMAIL_COOKIE_SECURE", "").strip().lower() in ("1", "true", "yes", "on"),
            base_url=_base_url(env),
            trusted_proxies=_trusted_proxies(env),
            time_zone=_time_zone(env),
        )


def default_database_url() -> str:
    return f"sqlite:///{var_dir() / 'corrmail.sqlite'}"


def _persistent_secret_key() -> str:
    """A development key kept in var/ so sessions survive restarts; production sets the variable."""
    path = var_dir() / "secret_key"
    if path.is_file():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def _date_from_env(env: Mapping[str, str], variable: str) -> dt.date | None:
    value = env.get(variable)
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise SettingsError(variable, value, "expected an ISO date YYYY-MM-DD") from None


def _base_url(env: Mapping[str, str]) -> str | None:
    value = env.get("CORRMAIL_BASE_URL", "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SettingsError("CORRMAIL_BASE_URL", value,
                          "expected the site's address, e.g. https://turnir.example.org")
    return value.rstrip("/")


def _time_zone(env: Mapping[str, str]) -> str:
    value = env.get("CORRMAIL_TIME_ZONE", "").strip()
    if not value:
        return FEDERATION_TIME_ZONE
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError("CORRMAIL_TIME_ZONE", value,
                            "expected a time zone name such as Europe/Moscow") from None
    return value


def _trusted_proxies(env: Mapping[str, str]) -> int:
    value = env.get("CORRMAIL_TRUSTED_PROXIES", "").strip()
    if not value:
        return 0
    if not value.isdigit() or int(value) > 5:
        raise SettingsError("CORRMAIL_TRUSTED_PROXIES", value,
                          "expected the number of proxies in front of the app, 0 to 5")
    return int(value)
