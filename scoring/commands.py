"""The scoring subcommands of ``python -m scoring``: ``standings``, ``tiebreaks``, ``roundrobin``."""

from __future__ import annotations

import argparse
import csv
import io
import json
from dataclasses import replace
from typing import Any

from scoring.crosstable import crosstable
from scoring.files import load_tournament
from scoring.points import PointSystem
from scoring.ranking import TieRule
from scoring.roundrobin import berger_table, format_table
from scoring.standings import PRESET_ALIASES, PRESETS, preset, standings
from scoring.teams import (
    TEAM_PRESET_ALIASES,
    TEAM_PRESETS,
    TEAM_TIEBREAKS,
    TeamScoring,
    team_preset,
    team_standings,
)
from scoring.tiebreaks import TIEBREAKS
from scoring.unplayed import UnplayedPolicy


def register(subparsers: Any) -> None:
    """Add this module's subcommands to ``python -m scoring`` (see :mod:`scoring.cli`)."""
    table = subparsers.add_parser(
        "standings",
        help="places, points and tiebreaks of a tournament file (TRF-16 or JSON)",
        description="Rank the players (or teams) of a TRF-16 or JSON tournament file.",
    )
    table.add_argument("file", help="tournament file: TRF-16, or our JSON (starts with '{')")
    table.add_argument("--points", type=PointSystem.parse, help="win,draw,loss (default: the file's, else 1,0.5,0)")
    order = table.add_mutually_exclusive_group()
    order.add_argument("--tiebreaks", help="comma-separated tiebreak names in order (see 'tiebreaks')")
    order.add_argument("--preset", help="a rulebook order: " + ", ".join([*PRESETS, *PRESET_ALIASES, *TEAM_PRESETS, *TEAM_PRESET_ALIASES]))
    table.add_argument("--unplayed", choices=[p.value for p in UnplayedPolicy], default=UnplayedPolicy.RUSSIAN.value)
    table.add_argument("--ties", choices=[t.value for t in TieRule], default=TieRule.SHARED.value, help="level at the end: shared place or lot")
    table.add_argument("--seed", type=int, default=0, help="seed of the lot (--ties lot)")
    table.add_argument("--teams", action="store_true", help="team standings (000 §3.17)")
    table.add_argument("--team-score", choices=[s.value for s in TeamScoring], default=TeamScoring.GAME_POINTS.value)
    table.add_argument("--crosstable", action="store_true", help="with --format json: add the crosstable")
    table.add_argument("--format", choices=("text", "json", "csv"), default="text")
    table.set_defaults(handler=run_standings)

    listing = subparsers.add_parser("tiebreaks", help="list every tiebreak name with its rule")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    listing.set_defaults(handler=run_tiebreaks)

    roundrobin = subparsers.add_parser(
        "roundrobin",
        help="print the Berger table of a round robin (FIDE C.05 Annex 1)",
        description="Print the Berger table: one round a line, white first, board one first.",
    )
    roundrobin.add_argument("--players", type=int, required=True, help="number of players")
    roundrobin.add_argument("--double", action="store_true", help="double round robin, colours reversed")
    roundrobin.add_argument("--format", choices=("text", "json"), default="text")
    roundrobin.set_defaults(handler=run_roundrobin)


def run_standings(args: argparse.Namespace) -> int:
    tournament = load_tournament(args.file)
    if args.points is not None:
        tournament = replace(tournament, points=args.points)
    names = [name.strip() for name in args.tiebreaks.split(",") if name.strip()] if args.tiebreaks else None
    tie_rule = TieRule(args.ties)
    if args.teams:
        primary = TeamScoring(args.team_score)
        if args.preset:
            names = list(team_preset(args.preset, primary))
        team_rows = team_standings(tournament, names, primary, tie_rule, args.seed)
        _emit([row.as_dict() for row in team_rows], args.format, ["place", "team", "points", "match_points", "game_points"])
        return 0
    if args.preset:
        names = list(preset(args.preset))
    rows = standings(tournament, names, UnplayedPolicy(args.unplayed), tie_rule, args.seed)
    if args.format == "json" and args.crosstable:
        table = crosstable(tournament, [row.start_no for row in rows])
        print(json.dumps({"standings": [row.as_dict() for row in rows], "crosstable": table.as_dict()}, ensure_ascii=False, indent=2))
        return 0
    _emit([row.as_dict() for row in rows], args.format, ["place", "start_no", "name", "points"])
    return 0


def _emit(rows: list[dict[str, Any]], output: str, columns: list[str]) -> None:
    """Rows as JSON, CSV or an aligned text table (fixed columns, then one column per tiebreak)."""
    if output == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    tiebreak_names: list[str] = list(rows[0]["tiebreaks"]) if rows else []
    header = columns + tiebreak_names
    lines = [[_text(row[c]) for c in columns] + [_text(row["tiebreaks"][n]) for n in tiebreak_names] for row in rows]
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(lines)
        print(buffer.getvalue(), end="")
        return
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    for line in lines:
        print("  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)).rstrip())


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}" if value == round(value, 4) else f"{value:.4f}"
    return str(value)


def run_tiebreaks(args: argparse.Namespace) -> int:
    entries: list[dict[str, Any]] = [
        {"name": t.name, "rule": t.rule, "scope": "individual", "description": t.title,
         "round_robin_only": t.round_robin_only, "uses_ratings": t.uses_ratings}
        for t in TIEBREAKS.values()
    ]
    entries += [
        {"name": t.name, "rule": t.rule, "scope": "team", "description": t.title,
         "round_robin_only": t.round_robin_only, "uses_ratings": False}
        for t in TEAM_TIEBREAKS.values()
    ]
    if args.format == "json":
        print(json.dumps(entries, ensure_ascii=False, indent=2))
        return 0
    width = max(len(str(e["name"])) for e in entries)
    for entry in entries:
        print(f"{entry['name']:<{width}}  {entry['scope']:<10}  {entry['rule']:<28}  {entry['description']}")
    return 0


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
