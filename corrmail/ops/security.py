"""Wires the web app's protections: headers and cookie flags, login throttling, password reset.

``init_security(app, secure_cookies=…)`` is called once by the app factory. The login view asks
:func:`login_throttle` before checking a password.
"""

from __future__ import annotations

from flask import Flask, current_app

from corrmail.ops import password_reset
from corrmail.ops.headers import init_headers
from corrmail.ops.login_throttle import LoginThrottle, ThrottlePolicy

__all__ = ["init_security", "login_throttle"]

_EXTENSION = "corrmail.login_throttle"


def init_security(app: Flask, *, secure_cookies: bool, policy: ThrottlePolicy | None = None) -> None:
    init_headers(app, secure_cookies=secure_cookies)
    app.extensions[_EXTENSION] = LoginThrottle(policy)
    app.register_blueprint(password_reset.blueprint)


def login_throttle() -> LoginThrottle:
    throttle: LoginThrottle = current_app.extensions[_EXTENSION]
    return throttle
