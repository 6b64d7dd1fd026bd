"""The Flask application factory."""

from __future__ import annotations

from flask import Flask, redirect
from flask_wtf import CSRFProtect
from werkzeug.wrappers.response import Response

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.mail.settings import MailSettings
from corrmail.ops.outage import init_outage
from corrmail.ops.security import init_security
from corrmail.paths import PACKAGE_DIR, templates_dir
from corrmail.web import (
    admin,
    api,
    api_play,  # noqa: F401  (the players' API routes, on the api blueprint)
    auth,
    cases,
    errors,
    format,
    games,
    health,
    i18n,
    pairing_notes,
    play,
    tournaments,
)
from corrmail.web.bulletins import blueprint as bulletins_blueprint
from corrmail.web.dashboard import blueprint as dashboard_blueprint
from corrmail.web.database import init_database
from corrmail.web.game_import import blueprint as game_import_blueprint
from corrmail.web.playoff import blueprint as playoff_blueprint
from corrmail.web.standings import blueprint as standings_blueprint
from corrmail.web.tokens import blueprint as tokens_blueprint
from corrmail.web.tournament_life import blueprint as tournament_life_blueprint
from corrmail.web.users import blueprint as users_blueprint

csrf = CSRFProtect()


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(
        "corrmail",
        template_folder=str(templates_dir()),
        static_folder=str(PACKAGE_DIR / "static"),
    )
    app.config.update(
        SECRET_KEY=settings.secret_key,
        TESTING=settings.testing,
        WTF_CSRF_ENABLED=settings.csrf_enabled,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        CORRMAIL_SETTINGS=settings,
        # Parsed once at start-up, like the settings above; requests read this copy.
        CORRMAIL_MAIL_SETTINGS=MailSettings.from_env(secret_fallback=settings.secret_key),
    )
    app.config.update(settings.extra)

    init_database(app, Database(settings.database_url))
    csrf.init_app(app)
    auth.init_login(app)
    i18n.init_babel(app, settings.default_locale)
    format.init_filters(app)
    pairing_notes.init_pairing_labels(app)
    init_security(app, secure_cookies=settings.cookie_secure)
    init_outage(app)
    errors.init_errors(app)

    for blueprint in (
        health.blueprint,
        auth.blueprint,
        tournaments.blueprint,
        games.blueprint,
        admin.blueprint,
        api.blueprint,
        cases.blueprint,
        bulletins_blueprint,
        standings_blueprint,
        playoff_blueprint,
        dashboard_blueprint,
        tokens_blueprint,
        play.blueprint,
        tournament_life_blueprint,
        users_blueprint,
        game_import_blueprint,
    ):
        app.register_blueprint(blueprint)
    # The API authenticates with bearer tokens, not cookies, so CSRF does not apply to it.
    csrf.exempt(api.blueprint)

    @app.get("/")
    def index() -> Response:
        return redirect(auth.landing_page())

    return app
