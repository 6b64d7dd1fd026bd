"""Where a request comes from and where links point to: neither is taken from what a client says.

* :func:`external_url` builds links for letters (password reset …) from ``CORRMAIL_BASE_URL``,
  never from the request's ``Host`` header, which anyone can set (a reset link pointing to
  another site hands the token to that site). Without a base URL — the development server —
  the request's own address is used; ``corrmail serve --gunicorn`` refuses to start without one
  (:mod:`corrmail.ops.production`).
* :func:`client_address` is the address login throttling counts against: the connection's peer,
  or, behind ``CORRMAIL_TRUSTED_PROXIES`` proxies that each append the address they saw to
  ``X-Forwarded-For``, the entry the outermost trusted proxy appended. Entries a client wrote
  before them are ignored, so forging the header changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for

from corrmail.config import Settings

__all__ = ["external_url", "client_address", "forwarded_client"]


def _settings() -> Settings:
    settings: Settings = current_app.config["CORRMAIL_SETTINGS"]
    return settings


def external_url(endpoint: str, *, _anchor: str | None = None, **values: Any) -> str:
    """The absolute URL of ``endpoint`` under the configured base URL."""
    base = _settings().base_url
    if base is None:
        return url_for(endpoint, _external=True, _anchor=_anchor, **values)
    return base + url_for(endpoint, _anchor=_anchor, **values)


def forwarded_client(peer: str | None, forwarded_for: str | None, trusted_proxies: int) -> str:
    """The client's address as the ``trusted_proxies``-th proxy from us saw it (see above)."""
    if trusted_proxies <= 0:
        return peer or ""
    hops = [hop.strip() for hop in (forwarded_for or "").split(",") if hop.strip()]
    if len(hops) < trusted_proxies:
        # Fewer entries than proxies: a request that did not pass through them all.
        return peer or ""
    return hops[-trusted_proxies]


def client_address() -> str:
    return forwarded_client(request.remote_addr, request.headers.get("X-Forwarded-For"),
                            _settings().trusted_proxies)
