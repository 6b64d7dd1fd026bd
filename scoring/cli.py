"""``python -m scoring``: the command-line entry point and its subcommand registry.

Every subcommand lives in a module exposing ``register(subparsers)``, which adds its parser and
sets ``handler`` (a function ``(argparse.Namespace) -> int``, the exit status) with
``set_defaults``. :data:`COMMAND_MODULES` lists those modules in the order ``--help`` shows them;
a module listed in :data:`OPTIONAL_COMMAND_MODULES` is loaded only when it is installed.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

from scoring.errors import ScoringError

COMMAND_MODULES: tuple[str, ...] = ("scoring.commands",)
#: Pairing: ``pair``, ``check-pairings``, ``generate``.
OPTIONAL_COMMAND_MODULES: tuple[str, ...] = ("scoring.pairing.cli",)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Standings, tiebreaks, round-robin tables and Swiss pairing for draughts events.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES + tuple(
        name for name in OPTIONAL_COMMAND_MODULES if _installed(name)
    ):
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except ScoringError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return status


def _installed(module_name: str) -> bool:
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:
        return False
