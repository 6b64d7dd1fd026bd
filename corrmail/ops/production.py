"""What ``corrmail serve --gunicorn`` (production) refuses to start without.

* ``CORRMAIL_SECRET_KEY`` signs sessions, CSRF and reset tokens: anyone who knows it can forge
  an organizer's session. A value from the shipped example (``deploy/corrmail.env.example``) or
  from the documentation, or one shorter than :data:`MIN_SECRET_BYTES` bytes, is refused;
  ``CORRMAIL_MAIL_SECRET`` (reply tokens) likewise when set.
* ``CORRMAIL_BASE_URL`` is where links in letters point (:mod:`corrmail.ops.origin`).
"""

from __future__ import annotations

from collections.abc import Mapping

from corrmail.config import SettingsError, _base_url

__all__ = ["MIN_SECRET_BYTES", "EXAMPLE_SECRETS", "check_production_settings"]

MIN_SECRET_BYTES = 32

#: Values that appear in the shipped example, the docs or tutorials; never a real secret.
EXAMPLE_SECRETS = frozenset({
    "change-me", "change-me-too", "changeme", "change_me", "secret", "dev", "development",
    "test", "default", "please-change-me", "replace-me", "your-secret-key",
})

_SECRETS = ("CORRMAIL_SECRET_KEY", "CORRMAIL_MAIL_SECRET")


def check_production_settings(env: Mapping[str, str]) -> None:
    """Raise :class:`SettingsError` naming the first variable that makes the service unsafe."""
    for variable in _SECRETS:
        value = env.get(variable, "")
        if variable == "CORRMAIL_MAIL_SECRET" and not value:
            continue  # unset: the mail layer derives it from CORRMAIL_SECRET_KEY
        if not value.strip():
            raise SettingsError(variable, "", "must be set in production: "
                              "python3 -c 'import secrets; print(secrets.token_urlsafe(48))'")
        if value.strip().lower() in EXAMPLE_SECRETS:
            raise SettingsError(variable, "…", "is the example value; generate one: "
                              "python3 -c 'import secrets; print(secrets.token_urlsafe(48))'")
        if len(value.encode()) < MIN_SECRET_BYTES:
            raise SettingsError(variable, "…", f"is shorter than {MIN_SECRET_BYTES} bytes; generate "
                              "one: python3 -c 'import secrets; print(secrets.token_urlsafe(48))'")
    if _base_url(env) is None:
        raise SettingsError("CORRMAIL_BASE_URL", "", "must be set in production to the site's "
                          "address (e.g. https://turnir.example.org): links in letters use it")
