"""One SQLAlchemy session per request, closed (and rolled back if uncommitted) at teardown."""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlalchemy.orm import Session

from corrmail.config import Settings
from corrmail.db import Database

_EXTENSION = "corrmail.database"


def init_database(app: Flask, database: Database) -> None:
    app.extensions[_EXTENSION] = database

    @app.teardown_appcontext
    def close_session(exception: BaseException | None) -> None:
        session: Session | None = g.pop("db_session", None)
        if session is not None:
            session.close()


def database() -> Database:
    db: Database = current_app.extensions[_EXTENSION]
    return db


def db_session() -> Session:
    """The request's session; views commit explicitly, anything uncommitted is discarded."""
    if "db_session" not in g:
        g.db_session = database().session()
    session: Session = g.db_session
    return session


def settings() -> Settings:
    value: Settings = current_app.config["CORRMAIL_SETTINGS"]
    return value
