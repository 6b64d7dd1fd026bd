"""Template filters for results, dates and the time chart's notes, rule errors and sides."""

from __future__ import annotations

import datetime as dt

from flask import Flask
from flask_babel import format_date

from corrmail.games.chart_notes import chart_error, chart_note, chart_side
from corrmail.models import GameResult, ResultKind
from corrmail.standings.exports import reader_points

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
    return format_date(value, "dd.MM.yyyy") if value is not None else ""


def init_filters(app: Flask) -> None:
    app.add_template_global(result_mark)
    app.add_template_filter(short_date)
    app.add_template_filter(reader_points, "points")
    app.add_template_filter(chart_note)
    app.add_template_filter(chart_error)
    app.add_template_filter(chart_side)
