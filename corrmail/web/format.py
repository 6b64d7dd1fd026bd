"""Template filters for results, dates and the time chart's notes, rule errors and sides."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from zoneinfo import ZoneInfo

from flask import Flask
from flask_babel import format_date, get_locale, gettext
from markupsafe import Markup

from corrmail.games.chart_notes import chart_error, chart_note, chart_side
from corrmail.models import GameResult, ResultKind
from corrmail.standings.exports import install_points_filter
from corrmail.standings.marks import marked_cells, marks_legend
from corrmail.standings.results import Marker, marked_results
from scoring.crosstable import Cell

_PLAYED = {
    GameResult.WHITE_WIN: "1–0",
    GameResult.BLACK_WIN: "0–1",
    GameResult.DRAW: "½–½",
    GameResult.DOUBLE_LOSS: "0–0",
    GameResult.ANNULLED: "—",
}
# 002 §4.5, 004: unplayed games show as + and − instead of a score.
_FORFEIT = {
    GameResult.WHITE_WIN: "+ / −",
    GameResult.BLACK_WIN: "− / +",
    GameResult.DOUBLE_LOSS: "− / −",
}


def result_mark(result: GameResult | None, kind: ResultKind | None) -> str:
    if result is None:
        return ""
    if kind is ResultKind.FORFEIT and result in _FORFEIT:
        return _FORFEIT[result]
    return _PLAYED[result]


def short_date(value: dt.date | None) -> str:
    """``dd.MM.yyyy``. A plain date is written directly: the pattern is all digits, the same
    in both of the service's locales (``LOCALES``), and a game page writes a hundred of them;
    a moment (datetime) goes through Babel, which first moves it to the reader's time zone."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return str(format_date(value, "dd.MM.yyyy"))
    return f"{value.day:02d}.{value.month:02d}.{value.year:04d}"


def local_moment(value: dt.datetime | None, time_zone: str) -> str:
    """``dd.MM.yyyy HH:mm`` where the tournament is: a stored moment is a UTC instant, while the tournament's dates — a case opened, a deadline — are its own calendar's."""
    if value is None:
        return ""
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    local = value.astimezone(ZoneInfo(time_zone))
    return f"{short_date(local.date())} {local:%H:%M}"


def zoned_moment(value: dt.datetime | None, time_zone: str | None = None) -> str:
    """``dd.MM.yyyy HH:mm`` and the zone it is read in (``MSK``, ``UTC+05``, ``UTC``): a stored
    moment (a UTC instant) on the clock of ``time_zone`` (UTC when none is given) — never a bare
    clock the reader must guess the zone of. A list of many moments on one clock writes them
    with :func:`local_moment` and names the zone once, in its header (the outbox)."""
    if value is None:
        return ""
    zone = ZoneInfo(time_zone or "UTC")
    local = (value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value).astimezone(zone)
    name = local.tzname() or "UTC"
    if name[:1] in "+-":  # a zone without an abbreviation: its offset
        name = "UTC" + name
    return f"{short_date(local.date())} {local:%H:%M} {name}"


def result_cells(cells: Iterable[Cell], marker: Marker, marks: Mapping[str, str]) -> Markup:
    """A crosstable cell of a computed table, written as every table writes it
    (:func:`corrmail.standings.marks.marked_cells`)."""
    return marked_cells(marked_results(cells, marker), marks)


def init_filters(app: Flask) -> None:
    app.add_template_global(result_mark)
    app.add_template_global(result_cells)
    app.add_template_global(lambda: marks_legend(gettext), "marks_legend")
    app.add_template_filter(short_date)
    app.add_template_filter(local_moment)
    app.add_template_filter(zoned_moment)
    install_points_filter(app.jinja_env.filters, lambda _template: str(get_locale() or ""))
    app.add_template_filter(chart_note)
    app.add_template_filter(chart_error)
    app.add_template_filter(chart_side)
