"""``python -m timekeeping chart LEDGER.json [--format json|text]``: a game's time chart.

Exit status 0 when the chart was computed (rule errors, if any, are in its ``errors``),
2 when the ledger cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from timekeeping.chart import compute_chart
from timekeeping.errors import TimekeepingError
from timekeeping.ledger import read_ledger
from timekeeping.render import chart_to_dict, chart_to_text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m timekeeping",
                                     description="Time charts of correspondence draughts games (002 §4.3).")
    commands = parser.add_subparsers(dest="command", required=True)
    chart_command = commands.add_parser("chart", help="compute one game's time chart from its ledger")
    chart_command.add_argument("ledger", help="the game's ledger (JSON, see docs/ledger.md)")
    chart_command.add_argument("--format", choices=("json", "text"), default="json")
    arguments = parser.parse_args(argv)

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
    if arguments.format == "text":
        sys.stdout.write(chart_to_text(chart, ledger.players))
    else:
        json.dump(chart_to_dict(chart), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
