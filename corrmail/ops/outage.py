"""While the database cannot be reached, a request answers 503 with ``Retry-After``.

PostgreSQL restarting, failing over or crashing shows up in a request as a driver error: the
connection was closed under it (``OperationalError``: "server closed the connection
unexpectedly", "terminating connection due to administrator command"), no new one can be opened
("connection refused", "the database system is starting up"), or a connection already known dead
is used again (``InterfaceError``). The request's transaction never committed — PostgreSQL
rolls back whatever a lost connection had not committed — so the honest answer is "not now, try
again": 503, not a 500 that looks like a bug. The pool's pre-ping replaces the dead connections
on the next request; nothing is restarted. The page is built without the database (no user, no
locale from the profile, no base template that asks for the user), since the database is what
is missing. The API answers JSON, as its other errors do.
"""

from __future__ import annotations

import logging

from flask import Flask, current_app, jsonify, request, session
from flask_babel import force_locale, gettext
from markupsafe import escape
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.wrappers.response import Response

__all__ = ["RETRY_AFTER_SECONDS", "init_outage"]

log = logging.getLogger(__name__)

#: A fast restart takes seconds; crash recovery or a failover a little longer.
RETRY_AFTER_SECONDS = 30


def init_outage(app: Flask) -> None:
    app.register_error_handler(OperationalError, _database_unavailable)
    app.register_error_handler(InterfaceError, _database_unavailable)


def _database_unavailable(error: Exception) -> Response:
    log.warning("database unavailable during %s %s: %s", request.method, request.path,
                str(error).splitlines()[0] if str(error) else type(error).__name__)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    if request.blueprint == "api" or request.path.startswith("/api/"):
        response = jsonify(error="the database is unavailable; try again later")
    else:
        chosen = session.get("locale")
        locale = str(chosen if chosen in ("ru", "en") else current_app.config["BABEL_DEFAULT_LOCALE"])
        with force_locale(locale):
            title = gettext("Temporarily unavailable")
            message = gettext(
                "The database is not answering right now (it may be restarting). Please try "
                "again in a minute; if you sent a form, check whether it was saved before "
                "sending it again."
            )
        body = (f'<!doctype html><html lang="{escape(locale)}"><head><meta charset="utf-8">'
                f"<title>{escape(title)}</title></head><body><h1>{escape(title)}</h1>"
                f"<p>{escape(message)}</p></body></html>")
        response = current_app.response_class(body, content_type="text/html; charset=utf-8")
    response.status_code = 503
    response.headers.update(headers)
    return response
