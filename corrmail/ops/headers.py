"""Security headers on every response and the cookie flags of the session.

Cookies: the session and "remember me" cookies are ``HttpOnly`` (no script reads them),
``SameSite=Lax`` (not sent on cross-site POSTs; links into the site still work), and ``Secure``
when ``CORRMAIL_COOKIE_SECURE`` is on — set it wherever the site is served over HTTPS (the
production env file does); the plain-HTTP development server on 127.0.0.1 leaves it off.

Headers: a Content-Security-Policy that allows only the site's own scripts, styles and images
(inline ``style=`` attributes are used by templates; no inline script is), framing forbidden,
no MIME sniffing, no referrer to other sites, and HSTS on HTTPS requests.
"""

from __future__ import annotations

from flask import Flask, Response, request

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "init_headers", "cookie_settings"]

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000; includeSubDomains"


def cookie_settings(secure: bool) -> dict[str, object]:
    return {
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": secure,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": secure,
    }


def init_headers(app: Flask, *, secure_cookies: bool) -> None:
    app.config.update(cookie_settings(secure_cookies))

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        # Pages carry personal data and CSRF tokens: no shared cache may keep them.
        if response.mimetype == "text/html":
            response.headers.setdefault("Cache-Control", "no-store")
        return response
