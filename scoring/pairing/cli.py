"""``python -m scoring pair | check-pairings | generate`` (registered by :mod:`scoring.cli`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scoring.files import load_tournament
from scoring.model import Tournament, Unpaired
from scoring.pairing.checker import check_tournament
from scoring.pairing.engine import pair_round
from scoring.pairing.errors import EntrantError, PairingError, RoundNotReadyError
from scoring.pairing.generate import generate_event
from scoring.pairing.history import draw_as_round, entrants_before
from scoring.pairing.model import Draw, PairingSystem
from scoring.pairing.teams import pair_teams, team_bye_entries
from scoring.result import GameResult
from scoring.trf import write_trf

__all__ = ["register", "next_round", "run_pair", "run_check", "run_generate"]

_SYSTEMS = [system.value for system in PairingSystem]


def register(subparsers: Any) -> None:
    """Add ``pair``, ``check-pairings`` and ``generate`` to ``python -m scoring``."""
    pair = subparsers.add_parser(
        "pair",
        help="pair the next round of a Swiss tournament file (000 §3.18)",
        description="Pair the next round by one of the four programs of 000 §3.18.4-3.18.7.",
    )
    pair.add_argument("file", help="tournament file: TRF-16, or our JSON")
    pair.add_argument("--system", choices=_SYSTEMS, required=True)
    pair.add_argument("--seed", type=int, default=0, help="seed of the lots (reproducible draw)")
    pair.add_argument(
        "--absent", default="", help="comma-separated start numbers known not to play the round"
    )
    pair.add_argument("--format", choices=("json", "trf", "text"), default="json")
    pair.add_argument(
        "--teams", action="store_true", help="pair the teams (000 §3.17): match, then game points"
    )
    pair.set_defaults(handler=run_pair)

    check = subparsers.add_parser(
        "check-pairings",
        help="re-check every round of a file against the absolute criteria and our pairing",
        description="List breaches of 000 §3.18.2 / 002 / 004 in every published round and, "
        "with --system, the differences from our own pairing of each round. Exit status 1 "
        "when anything is listed.",
    )
    check.add_argument("file")
    check.add_argument("--system", choices=_SYSTEMS)
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--format", choices=("json", "text"), default="text")
    check.set_defaults(handler=run_check)

    generate = subparsers.add_parser(
        "generate",
        help="write a TRF-16 of a random Swiss played to the end with our pairings",
    )
    generate.add_argument("--players", type=int, required=True)
    generate.add_argument("--rounds", type=int, required=True)
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--system", choices=_SYSTEMS, default=PairingSystem.COEFFICIENTS.value)
    generate.add_argument(
        "--withdrawals", type=float, default=0.01, help="chance per player and round"
    )
    generate.add_argument(
        "--absences", type=float, default=0.02, help="chance per player and round"
    )
    generate.add_argument("--forfeits", type=float, default=0.02, help="chance per game")
    generate.add_argument("-o", "--output", help="file to write (default: standard output)")
    generate.set_defaults(handler=run_generate)


def next_round(tournament: Tournament) -> int:
    """The round to pair: the one after the last published, once all its results are in."""
    last = tournament.last_round
    pending = sorted(
        {g.white for g in tournament.games if g.round == last and g.result is GameResult.PENDING}
    )
    if pending:
        raise RoundNotReadyError(
            last + 1,
            f"round {last} still has games without a result (white {pending[:10]}); a Swiss "
            "round is paired from the results of the previous one (000 §3.18.1)",
            code="results_missing",
            previous=last,
            whites=tuple(pending[:10]),
        )
    if tournament.rounds is not None and last >= tournament.rounds:
        raise RoundNotReadyError(
            last + 1, f"the event has {tournament.rounds} rounds, all paired",
            code="all_rounds_paired", rounds=tournament.rounds,
        )
    return last + 1


def run_pair(args: argparse.Namespace) -> int:
    tournament = load_tournament(args.file)
    round_no = next_round(tournament)
    if args.teams:
        return _pair_teams(tournament, round_no, args)
    absent = _numbers(args.absent)
    for start_no in absent:
        if start_no not in tournament.by_start_no:
            raise EntrantError(
                start_no, "named absent (--absent) but not in the tournament",
                code="absent_not_in_event",
            )
    draw = pair_round(
        entrants_before(tournament, round_no, absent), round_no, args.system, args.seed
    )
    if args.format == "json":
        print(json.dumps(draw.as_dict(), ensure_ascii=False, indent=2))
    elif args.format == "trf":
        games, unpaired = draw_as_round(draw)
        sys.stdout.write(write_trf(tournament.with_round(games, unpaired)))
    else:
        print(format_draw(draw))
    return 0


def _pair_teams(tournament: Tournament, round_no: int, args: argparse.Namespace) -> int:
    team_draw = pair_teams(tournament, round_no, args.system, args.seed)
    if args.format == "json":
        print(json.dumps(team_draw.as_dict(), ensure_ascii=False, indent=2))
    elif args.format == "trf":
        games = [game for pair in team_draw.pairs for game in pair.games]
        byes = [
            Unpaired(round_no, member, result)
            for member, result in team_bye_entries(tournament, team_draw)
        ]
        sys.stdout.write(write_trf(tournament.with_round(games, byes)))
    else:
        lines = [f"Round {round_no} (teams, {team_draw.draw.system.value})"]
        for pair in team_draw.pairs:
            lines.append(f"{pair.white} - {pair.black}")
            lines += [f"    {game.white:5d} - {game.black:<5d}" for game in pair.games]
        if team_draw.bye is not None:
            lines.append(f"bye (+): {team_draw.bye}")
        lines += [f"note: {note}" for note in team_draw.draw.notes]
        print("\n".join(lines))
    return 0


def format_draw(draw: Draw) -> str:
    """The draw as a referee reads it aloud: board, white, black; then bye, absent, notes."""
    lines = [f"Round {draw.round_no} ({draw.system.value}, {draw.system.rule})"]
    for board, pair in enumerate(draw.pairs, start=1):
        lines.append(f"{board:4d}. {pair.white:5d} - {pair.black:<5d}")
    if draw.bye is not None:
        lines.append(f"bye (+): {draw.bye}")
    if draw.absent:
        lines.append("absent (0): " + ", ".join(str(n) for n in draw.absent))
    lines += [f"note: {note}" for note in draw.notes]
    return "\n".join(lines)


def run_check(args: argparse.Namespace) -> int:
    tournament = load_tournament(args.file)
    report = check_tournament(tournament, args.system, args.seed)
    differing = [d for d in report.differences if d.differs]
    if args.format == "json":
        payload = {
            "violations": [v.as_dict() for v in report.violations],
            "differences": [d.as_dict() for d in differing],
            "rounds": tournament.last_round,
        }
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        for violation in report.violations:
            print(f"violation: {violation}")
        for difference in differing:
            print("\n".join(difference.lines()))
        if report.clean:
            checked = f" and equal to our {args.system} pairing" if args.system else ""
            print(
                f"{tournament.last_round} rounds checked: no breach of the absolute criteria{checked}"
            )
    return 0 if report.clean else 1


def run_generate(args: argparse.Namespace) -> int:
    generated = generate_event(
        args.players,
        args.rounds,
        args.seed,
        args.system,
        withdrawal_rate=args.withdrawals,
        absence_rate=args.absences,
        forfeit_rate=args.forfeits,
    )
    text = write_trf(generated.tournament)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if generated.stopped is not None:
        print(f"stopped before the last round: {generated.stopped}", file=sys.stderr)
    return 0


def _numbers(text: str) -> list[int]:
    numbers = []
    for part in text.replace(" ", ",").split(","):
        if part.strip():
            try:
                numbers.append(int(part))
            except ValueError:
                raise PairingError(
                    f"--absent: {part!r} is not a start number", code="absent_not_a_number",
                    text=part,
                ) from None
    return numbers
