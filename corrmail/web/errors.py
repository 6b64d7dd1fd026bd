"""Error pages in the reader's language, each with a way back (403, 404, 500 and the other
refusals a form or a link can meet); the API answers JSON instead."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers.response import Response

from corrmail.web.auth import landing_page

log = logging.getLogger(__name__)

_CODES = (400, 403, 404, 405, 409, 422, 500)


def _texts(code: int) -> tuple[str, str]:
    return {
        400: (_("The request cannot be read"), _("Something in the form or the link is wrong.")),
        403: (_("Not yours to see"), _("This page belongs to other players or to the officials "
                                       "of the tournament.")),
        404: (_("Page not found"), _("There is no such page, game or tournament.")),
        405: (_("Not possible here"), _("This address does not take that kind of request.")),
        409: (_("Not possible now"), _("The state of the game or the case does not allow it.")),
        422: (_("Not accepted"), _("What was sent cannot be accepted.")),
        500: (_("Something went wrong on our side"), _("Nothing you sent is lost; try again "
                                                       "later or tell the tournament's steward.")),
    }[code]


def _page(error: HTTPException) -> tuple[str | Response, int]:
    code = error.code or 500
    if request.path.startswith("/api/"):
        return jsonify(error=error.description or error.name), code
    title, text = _texts(code)
    # A view's own reason (abort(400, "…")) is shown; werkzeug's stock English sentence is not.
    own = error.description and error.description != type(error).description
    detail = error.description if own and code != 500 else ""
    try:
        return render_template("errors/error.html", code=code, title=title, text=text,
                               detail=detail, back=landing_page()), code
    except Exception:  # the page itself failed (the database is gone): plain text
        log.exception("error page %s could not be rendered", code)
        return f"{code} {title}", code


def init_errors(app: Flask) -> None:
    for code in _CODES:
        app.register_error_handler(code, _page)
