"""Command line: ``python -m notation perft|moves|check|endgame`` (see docs/notation.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from notation.columns.rules import RuleOptionError, parse_rule_options
from notation.endgame.cli import add_parser as add_endgame_parser
from notation.errors import FenError
from notation.full import format_full
from notation.game_position import GamePosition, initial_position, position_from_fen
from notation.pdn import PdnIssue, iter_pdn
from notation.rules import GameType, UnknownGameTypeError, parse_game_type


def _game_type(text: str) -> GameType:
    try:
        return parse_game_type(text)
    except UnknownGameTypeError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _position(game_type: GameType, fen: str | None, rule_options: list[str]) -> GamePosition:
    options = parse_rule_options(rule_options)
    if fen:
        return position_from_fen(fen, game_type, options)
    return initial_position(game_type, options)


def _perft(args: argparse.Namespace) -> int:
    position = _position(args.type, args.fen, args.rule_option)
    for depth in range(1, args.depth + 1):
        count = position.perft(depth, distinct=not args.keep_duplicates)
        print(f"{depth} {count}", flush=True)
    return 0


def _moves(args: argparse.Namespace) -> int:
    position = _position(args.type, args.fen, args.rule_option)
    for line in sorted(format_full(position, move) for move in position.legal_moves()):
        print(line)
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    bad = games = warned = 0
    for number, game in enumerate(iter_pdn(text, default=args.type), start=1):
        games = number
        warned += len(game.warnings)
        for issue in game.warnings:
            # Warnings go to stderr with the count: stdout stays the list of games that failed.
            print(f"game {number} move {_where(issue)}: warning: {issue.reason}{_quoted(issue)}", file=sys.stderr)
        if game.errors:
            bad += 1
            for issue in game.errors:
                print(f"game {number} move {_where(issue)}: {issue.reason}")
    print(f"{games} games, {bad} bad, {warned} warnings", file=sys.stderr)
    return 1 if bad else 0


def _where(issue: PdnIssue) -> str:
    return str(issue.move_number) if issue.move_number is not None else "-"


def _quoted(issue: PdnIssue) -> str:
    return f" ({issue.text!r})" if issue.text and issue.text not in issue.reason else ""


_RULE_OPTION_HELP = (
    "column draughts only, NAME=VALUE, repeatable: moves=bashni|lasker, "
    "rejump=forbidden|allowed, placement=deferred|immediate, king-landing=continue|free, "
    "numbering=a1|g1, quiet-limit=off|N "
    "(docs/columns.md)"
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m notation", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    perft = commands.add_parser("perft", help="count leaf positions, one line DEPTH COUNT per depth")
    perft.add_argument("--type", type=_game_type, default=GameType.RUSSIAN)
    perft.add_argument("--depth", type=int, required=True)
    perft.add_argument("--fen")
    perft.add_argument(
        "--keep-duplicates", action="store_true", help="count every route, not distinct moves"
    )
    perft.add_argument("--rule-option", action="append", default=[], help=_RULE_OPTION_HELP)
    perft.set_defaults(run=_perft)

    moves = commands.add_parser("moves", help="every legal move in full notation, sorted")
    moves.add_argument("--type", type=_game_type, default=GameType.RUSSIAN)
    moves.add_argument("--fen")
    moves.add_argument("--rule-option", action="append", default=[], help=_RULE_OPTION_HELP)
    moves.set_defaults(run=_moves)

    check = commands.add_parser("check", help="validate every game of a PDN file")
    check.add_argument("file")
    check.add_argument(
        "--type", type=_game_type, default=GameType.RUSSIAN,
        help="game type for games without a GameType header",
    )
    check.set_defaults(run=_check)

    add_endgame_parser(commands)

    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except (FenError, RuleOptionError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
