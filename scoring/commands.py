"""The scoring subcommands of ``python -m scoring``: ``standings``, ``tiebreaks``, ``roundrobin``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from scoring.roundrobin import berger_table, format_table


def register(subparsers: Any) -> None:
    """Add this module's subcommands to ``python -m scoring`` (see :mod:`scoring.cli`)."""
    roundrobin = subparsers.add_parser(
        "roundrobin",
        help="print the Berger table of a round robin (FIDE C.05 Annex 1)",
        description="Print the Berger table: one round a line, white first, board one first.",
    )
    roundrobin.add_argument("--players", type=int, required=True, help="number of players")
    roundrobin.add_argument("--double", action="store_true", help="double round robin, colours reversed")
    roundrobin.add_argument("--format", choices=("text", "json"), default="text")
    roundrobin.set_defaults(handler=run_roundrobin)


def run_roundrobin(args: argparse.Namespace) -> int:
    table = berger_table(args.players, 2 if args.double else 1)
    if args.format == "json":
        rounds = [
            {
                "round": scheduled.number,
                "pairs": [{"white": p.white, "black": p.black} for p in scheduled.pairings],
                "resting": scheduled.resting,
            }
            for scheduled in table
        ]
        print(json.dumps({"players": args.players, "rounds": rounds}, ensure_ascii=False, indent=2))
    else:
        print(format_table(table))
    return 0
