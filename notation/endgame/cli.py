"""``python -m notation endgame build|probe|verify`` (docs/notation.md, *Endgame tables*)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from notation.endgame.material import Material
from notation.endgame.probe import Endgames, OutsideDatabaseError
from notation.endgame.solve import verify
from notation.endgame.store import StoredTables, build_tables
from notation.fen import parse_fen
from notation.full import format_full
from notation.rules import GameType

DEFAULT_ROOT = Path("var") / "endgame"
SUPPORTED = (GameType.RUSSIAN, GameType.INTERNATIONAL)


class ProgressBar:
    """A one-line progress bar per stage on stderr."""

    def __init__(self, stream: Any = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.stage = ""
        self.shown = -1
        self.started = time.monotonic()

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            if self.stage:
                self.stream.write("\n")
            self.stage, self.shown, self.started = stage, -1, time.monotonic()
        percent = 100 * done // total if total else 100
        if percent == self.shown:
            return
        self.shown = percent
        filled = self.width * percent // 100
        elapsed = time.monotonic() - self.started
        self.stream.write(
            f"\r{stage:<22} [{'#' * filled}{'.' * (self.width - filled)}] {percent:3d}% "
            f"{elapsed:6.1f}s"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.stage:
            self.stream.write("\n")
            self.stream.flush()
            self.stage = ""


def _build(args: argparse.Namespace) -> int:
    bar = ProgressBar()
    started, cpu = time.monotonic(), time.process_time()
    materials = [Material.parse(text) for text in args.material] or None
    tables = build_tables(args.output, args.type, args.pieces, materials, progress=bar)
    built, built_cpu = time.monotonic() - started, time.process_time() - cpu
    started, cpu = time.monotonic(), time.process_time()
    bad = [] if args.no_verify else verify(args.type.rules, tables, progress=bar)
    checked, checked_cpu = time.monotonic() - started, time.process_time() - cpu
    bar.close()
    size = sum(len(table) for table in tables.values())
    # CPU seconds beside the wall clock: on a shared machine only they compare runs.
    print(
        f"{len(tables)} tables, {size} bytes in {Path(args.output) / args.type.value}; "
        f"built in {built:.1f}s ({built_cpu:.1f}s CPU)", file=sys.stderr,
    )
    if not args.no_verify:
        print(f"verification {checked:.1f}s ({checked_cpu:.1f}s CPU)", file=sys.stderr)
    for fault in bad:
        print(f"inconsistent: {fault.material.name} index {fault.index}: stored {fault.stored}, "
              f"successors give {fault.expected}")
    if not args.no_verify:
        print("verified: every value agrees with its successors" if not bad
              else f"{len(bad)} inconsistent values", file=sys.stderr)
    return 1 if bad else 0


def _verify(args: argparse.Namespace) -> int:
    tables = StoredTables(args.directory, args.type)
    bar = ProgressBar()
    bad = verify(args.type.rules, tables, progress=bar)
    bar.close()
    for fault in bad:
        print(f"inconsistent: {fault.material.name} index {fault.index}: stored {fault.stored}, "
              f"successors give {fault.expected}")
    print(f"{len(tables)} tables checked, {len(bad)} inconsistent", file=sys.stderr)
    return 1 if bad else 0


def _probe(args: argparse.Namespace) -> int:
    position = parse_fen(args.fen, args.type)
    endgames = Endgames(args.type.rules, StoredTables(args.directory, args.type))
    try:
        verdict = endgames.verdict(position)
        line = endgames.line(position, limit=args.line) if args.line else []
    except OutsideDatabaseError as error:
        print(f"outside the database: {error}")
        return 2
    words = [verdict.result.value]
    if verdict.plies is not None:
        words.append(f"in {verdict.plies} plies ({verdict.moves} moves)")
    if verdict.best_move is not None:
        words.append(f"best {format_full(position, verdict.best_move)}")
    print(" ".join(words))
    if line:
        texts = []
        for move in line:
            texts.append(format_full(position, move))
            position = position.play(move)
        print("line " + " ".join(texts))
    return 0


def _game_type(text: str) -> GameType:
    try:
        game_type = GameType(text.strip().lower())
    except ValueError:
        game_type = None
    if game_type not in SUPPORTED:
        names = ", ".join(t.value for t in SUPPORTED)
        raise argparse.ArgumentTypeError(f"endgame tables exist for {names}, not {text!r}")
    return game_type


def add_parser(commands: Any) -> None:
    """The ``endgame`` command and its subcommands, under ``python -m notation``."""
    endgame = commands.add_parser("endgame", help="endgame tables: build, verify, probe")
    actions = endgame.add_subparsers(dest="endgame_command", required=True)

    build = actions.add_parser("build", help="solve every position of up to N pieces")
    build.add_argument("--type", type=_game_type, default=GameType.RUSSIAN)
    build.add_argument("--pieces", type=int, default=3, choices=range(2, 6))
    build.add_argument(
        "--material", action="append", default=[],
        help="only this material and what it needs, as KKKvK (mover first); repeatable",
    )
    build.add_argument("-o", "--output", type=Path, default=DEFAULT_ROOT)
    build.add_argument("--no-verify", action="store_true", help="skip the verification pass")
    build.set_defaults(run=_guarded(_build))

    check = actions.add_parser("verify", help="check every stored value against its successors")
    check.add_argument("--type", type=_game_type, default=GameType.RUSSIAN)
    check.add_argument("-d", "--directory", type=Path, default=DEFAULT_ROOT)
    check.set_defaults(run=_guarded(_verify))

    probe = actions.add_parser(
        "probe", help="win/draw/loss for the side to move, distance, best move (exit 2: outside)"
    )
    probe.add_argument("--type", type=_game_type, default=GameType.RUSSIAN)
    probe.add_argument("--fen", required=True)
    probe.add_argument("-d", "--directory", type=Path, default=DEFAULT_ROOT)
    probe.add_argument("--line", type=int, default=0, metavar="PLIES",
                       help="also print the line of best play, up to PLIES half-moves")
    probe.set_defaults(run=_guarded(_probe))


def _guarded(action: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Damaged tables and unreadable material names end with exit 2 and the reason."""

    def run(args: argparse.Namespace) -> int:
        try:
            return action(args)
        except ValueError as error:  # DamagedTableError, FenError, a bad material name
            print(f"error: {error}", file=sys.stderr)
            return 2

    return run
