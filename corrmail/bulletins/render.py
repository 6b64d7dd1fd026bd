"""Rendering archived content (the JSON of :mod:`corrmail.bulletins.content`) as the printable
HTML page — the same page the web app shows, prints and the e-mail carries.

The renderer is plain Jinja2 with the gettext catalogs of the web app, so the mailer and the
command line render exactly what the browser shows, without a Flask request.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any

import jinja2
from babel.support import NullTranslations, Translations
from markupsafe import Markup

from corrmail.paths import TRANSLATIONS_DIR, templates_dir
from corrmail.standings.exports import install_points_filter
from corrmail.standings.marks import mark_titles, marked_cells, marks_legend
from corrmail.standings.tiebreak_labels import tiebreak_label
from corrmail.web.choice_labels import label_text

__all__ = ["PRINT_TEMPLATE", "render_printable", "iso_date"]

PRINT_TEMPLATE = "bulletins/print.html"


def iso_date(value: str | dt.date | None) -> str:
    """``2027-03-01`` (as archived) → ``01.03.2027``, the way the rulebook writes dates."""
    if value is None or value == "":
        return "—"
    day = value if isinstance(value, dt.date) else dt.date.fromisoformat(value)
    return day.strftime("%d.%m.%Y")


@cache
def _translations(language: str) -> NullTranslations:
    """The one catalog, for a paper rendered outside a request (no Flask-Babel here)."""
    return Translations.load(str(TRANSLATIONS_DIR), [language])


@cache
def _environment(language: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(_translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.filters["iso_date"] = iso_date
    install_points_filter(env.filters, lambda _template: language)
    env.filters["svg"] = Markup  # diagrams are drawn by `notation`, never from user input
    # The archive keeps the tiebreaks' code names; the page shows their labels, translated.
    env.globals["tiebreak_label"] = tiebreak_label
    # The case pages' names of stored codes (rulings, sanctions, breaks), from the same table,
    # translated through this environment's catalogs (no Flask request here).
    catalog = _translations(language)
    env.filters["choice_label"] = lambda code: catalog.gettext(label_text(str(code)))
    # The crosstable's cells and legend as the web crosstable writes them.
    env.globals["marked_cells"] = marked_cells
    env.globals["mark_titles"] = mark_titles(catalog.gettext)
    env.globals["marks_legend"] = lambda: marks_legend(catalog.gettext)
    return env


def render_printable(
    content: dict[str, Any], *, language: str = "ru", title_suffix: str = ""
) -> str:
    """The printable page of a bulletin, final report or player's sheet."""
    template = _environment(language if language in ("ru", "en") else "ru").get_template(
        PRINT_TEMPLATE
    )
    return template.render(doc=content, kind=content["kind"], language=language,
                           title_suffix=title_suffix)
