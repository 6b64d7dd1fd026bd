"""The command line of :mod:`timekeeping`.

``python -m timekeeping chart LEDGER.json [--format json|text]``: a game's time chart.
``python -m timekeeping clock LEDGER.json --player white [--received DATE] [--on DATE]``: the
clock of the player to move, with the due date of a repeat for the player waiting.

Exit status 0 when the answer was computed (a chart's rule errors, if any, are in its
``errors``), 2 when the ledger or an argument cannot be read or the player is not to move.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date
from typing import Any

from timekeeping.chart import TimeChart, compute_chart
from timekeeping.clock import reply_clock
from timekeeping.dates import parse_player_date
from timekeeping.deadlines import first_move_query_date, repeat_due_of
from timekeeping.errors import DateFormatError, TimekeepingError
from timekeeping.ledger import Ledger, read_ledger
from timekeeping.render import chart_to_dict, chart_to_text
from timekeeping.side import Side


def _date_argument(text: str) -> date:
    try:
        return parse_player_date(text)
    except DateFormatError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m timekeeping",
                                     description="Time charts of correspondence draughts games (002 §4.3).")
    commands = parser.add_subparsers(dest="command", required=True)
    chart = commands.add_parser("chart", help="compute one game's time chart from its ledger")
    chart.add_argument("ledger", help="the game's ledger (JSON, see docs/ledger.md)")
    chart.add_argument("--format", choices=("json", "text"), default="json")
    clock = commands.add_parser("clock", help="days left and the last safe reply date of the player to move")
    clock.add_argument("ledger", help="the game's ledger (JSON, see docs/ledger.md)")
    clock.add_argument("--player", choices=[side.value for side in Side], required=True)
    clock.add_argument("--received", type=_date_argument,
                       help="when the partner's last letter arrived (default: estimated, 002 §4.3.3)")
    clock.add_argument("--on", type=_date_argument, help="report the days left if the reply goes on this day")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        ledger = read_ledger(arguments.ledger)
    except OSError as error:
        print(f"cannot read {arguments.ledger}: {error.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"{arguments.ledger} is not valid JSON: {error}", file=sys.stderr)
        return 2
    except TimekeepingError as error:
        print(f"{arguments.ledger}: {error}", file=sys.stderr)
        return 2
    chart = compute_chart(ledger)
    if arguments.command == "chart":
        if arguments.format == "text":
            sys.stdout.write(chart_to_text(chart, ledger.players))
        else:
            _print_json(chart_to_dict(chart))
        return 0
    try:
        _print_json(_clock_report(ledger, chart, Side(arguments.player), arguments.received, arguments.on))
    except TimekeepingError as error:
        print(str(error), file=sys.stderr)
        return 2
    return 0


def _clock_report(ledger: Ledger, chart: TimeChart, player: Side, received: date | None,
                  on: date | None) -> dict[str, Any]:
    clock = reply_clock(ledger, player, received, chart)
    safe = clock.last_safe_reply_date()
    report: dict[str, Any] = {
        "player": player.value,
        "counting_from": clock.counting_from.isoformat(),
        "total": clock.total,
        "next_counted_moves": clock.next_counted_moves,
        "limit": clock.limit,
        "last_safe_reply_date": None if safe is None else safe.isoformat(),
    }
    if on is not None:
        report["days_left"] = {"on": on.isoformat(), "days": clock.days_left(on)}
    if chart.rows:
        waiting = chart.rows[-1]
        report["repeat_due"] = {"player": waiting.sender.value,
                                "date": repeat_due_of(ledger.letters[waiting.letter - 1],
                                                      chart.break_calendar).isoformat()}
    else:
        report["first_move_query_date"] = first_move_query_date(ledger.start_date, chart.break_calendar).isoformat()
    return report


def _print_json(data: dict[str, Any]) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    sys.exit(main())
