"""The time chart as data (JSON) and as text in the columns of the sample in 002 §4.3.6."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from timekeeping.chart import Charge, ChartRow, TimeChart
from timekeeping.dates import format_chart_date
from timekeeping.errors import NoteValue
from timekeeping.side import Side


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def _params(params: tuple[tuple[str, NoteValue], ...]) -> dict[str, NoteValue]:
    return {key: value.isoformat() if isinstance(value, date) else value for key, value in params}


def _charge_dict(charge: Charge) -> dict[str, Any]:
    return {"player": charge.player.value, "days": charge.days, "rule": charge.rule,
            "reason": charge.reason, "after_letter": charge.after_letter}


def chart_to_dict(chart: TimeChart) -> dict[str, Any]:
    """The JSON form documented in ``docs/ledger.md``."""
    overstep = chart.overstep
    return {
        "rows": [
            {
                "letter": row.letter,
                "from": row.sender.value,
                "move": row.move,
                "counted_moves": row.counted_moves,
                "received": _iso(row.received),
                "received_estimated": row.received_estimated,
                "sent": _iso(row.sent),
                "declared_sent": _iso(row.declared_sent),
                "days": row.days,
                "charges": [_charge_dict(charge) for charge in row.charges],
                "totals": {"white": row.white_total, "black": row.black_total},
                "limit": row.limit,
            }
            for row in chart.rows
        ],
        "totals": {"white": chart.totals.white, "black": chart.totals.black},
        "overstep": None if overstep is None else {
            "player": overstep.player.value, "move": overstep.move, "letter": overstep.letter,
            "total": overstep.total, "limit": overstep.limit,
        },
        "errors": [
            {"rule": error.rule, "message": error.message, "value": error.value, "letter": error.letter,
             "code": error.code, "params": _params(error.params)}
            for error in chart.errors
        ],
        "notes": [
            {"rule": note.rule, "message": note.message, "letter": note.letter, "code": note.code,
             "params": _params(note.params)}
            for note in chart.notes
        ],
        "charges": [_charge_dict(charge) for charge in chart.charges],
    }


_HEADER_NAMES = ("Белые", "Черные")


def chart_to_text(chart: TimeChart, players: Mapping[Side, str] | None = None) -> str:
    """The chart laid out like the sample of 002 §4.3.6, one line per move number.

    Per side: received, sent, days on the move, total; in the middle the moves and the move
    number. Days added besides think time are shown as ``+N`` after the days of the move whose
    letter carried them and listed under the chart with their rule; so are errors and notes.
    """
    names = players or {}
    by_move: dict[int, dict[Side, ChartRow]] = {}
    for row in chart.rows:
        by_move.setdefault(row.move, {})[row.sender] = row
    lines = [
        "\t".join([f"{_HEADER_NAMES[0]}: {names.get(Side.WHITE, '')}".rstrip(), "", "Время", "", "Ход",
                   "№ хода", "Ход", f"{_HEADER_NAMES[1]}: {names.get(Side.BLACK, '')}".rstrip(), "", "Время", ""]),
        "\t".join(["Получ", "Отпр.", "На ход", "Общее", "", "", "", "Получ", "Отпр.", "На ход", "Общее"]),
    ]
    for move in sorted(by_move):
        white = by_move[move].get(Side.WHITE)
        black = by_move[move].get(Side.BLACK)
        lines.append("\t".join([
            *_side_cells(white, Side.WHITE),
            white.moves_text if white else "",
            str(move),
            black.moves_text if black else "",
            *_side_cells(black, Side.BLACK),
        ]))
    lines.append(f"Итого (белые/черные): {chart.totals}")
    if chart.overstep is not None:
        step = chart.overstep
        colour = "белые" if step.player is Side.WHITE else "черные"
        lines.append(f"Просрочка времени (002 §4.3.5): {colour}, ход {step.move}, письмо {step.letter}: "
                     f"{step.total} дн. при норме {step.limit}")
    for charge in chart.charges:
        lines.append(f"+{charge.days} дн. {charge.player.value} ({charge.rule}): {charge.reason}")
    for error in chart.errors:
        lines.append(f"ОШИБКА {error}")
    for note in chart.notes:
        lines.append(f"примечание {note}")
    return "\n".join(lines) + "\n"


def _side_cells(row: ChartRow | None, side: Side) -> list[str]:
    if row is None:
        return ["", "", "", ""]
    received = "" if row.received is None else format_chart_date(row.received) + ("*" if row.received_estimated else "")
    extra = sum(charge.days for charge in row.charges if charge.player is side)
    days = f"{row.days}+{extra}" if extra else str(row.days)
    total = row.white_total if side is Side.WHITE else row.black_total
    return [received, format_chart_date(row.sent), days, str(total)]
