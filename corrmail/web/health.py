"""Liveness (`/healthz`) and readiness (`/readyz`: the database answers and is migrated)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers.response import Response

from corrmail.migrate import current_revision, head_revision
from corrmail.web.database import database

blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
def healthz() -> Response:
    return jsonify(status="ok")


@blueprint.get("/readyz")
def readyz() -> tuple[Response, int]:
    engine = database().engine
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        revision = current_revision(engine)
    except SQLAlchemyError as error:
        return jsonify(status="unavailable", database=type(error).__name__), 503
    head = head_revision()
    if revision != head:
        return jsonify(status="unmigrated", revision=revision, expected=head), 503
    return jsonify(status="ok", revision=revision), 200
