"""Russian by default, English on request; the choice lives in the session or the user's profile."""

from __future__ import annotations

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, current_app, redirect, request, session, url_for
from flask_babel import Babel, get_locale, get_translations
from flask_login import current_user
from werkzeug.wrappers.response import Response

from corrmail.paths import TRANSLATIONS_DIR
from corrmail.web.forms import LocaleForm

LOCALES = ("ru", "en")

blueprint = Blueprint("i18n", __name__)


def select_locale() -> str:
    chosen = session.get("locale")
    if chosen in LOCALES:
        return str(chosen)
    if current_user.is_authenticated and current_user.locale in LOCALES:
        return str(current_user.locale)
    return str(current_app.config["BABEL_DEFAULT_LOCALE"])


def init_babel(app: Flask, default_locale: str) -> None:
    if default_locale not in LOCALES:
        raise ValueError(
            f"CORRMAIL_LOCALE={default_locale!r}: expected one of {', '.join(LOCALES)}"
        )
    app.config["BABEL_DEFAULT_LOCALE"] = default_locale
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS_DIR)
    Babel(app, locale_selector=select_locale)
    _install_template_gettext(app)
    app.register_blueprint(blueprint)

    @app.context_processor
    def locale_form() -> dict[str, object]:
        return {"locale_form": LocaleForm(), "locales": LOCALES, "get_locale": get_locale}


def _install_template_gettext(app: Flask) -> None:
    """The templates' ``_()``, as Flask-Babel installs it but with each locale's translations
    looked up once per process: Flask-Babel finds the catalogue anew on every call (its domain,
    the request's cached locale, a cache keyed by the locale's name), and a game page says
    ``_()`` a hundred times — a sixth of its time. The locale is still read on every call, so
    ``force_locale`` and ``refresh`` work as before."""
    catalogues: dict[Locale | None, Translations | NullTranslations] = {}

    def translations() -> Translations | NullTranslations:
        locale = get_locale()
        found = catalogues.get(locale)
        if found is None:
            found = catalogues[locale] = get_translations()
        return found

    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )


@blueprint.post("/locale")
def choose_locale() -> Response:
    form = LocaleForm()
    if form.validate_on_submit():
        session["locale"] = form.locale.data
    target = request.referrer or url_for("tournaments.index")
    return redirect(target if target.startswith(request.host_url) else url_for("tournaments.index"))
