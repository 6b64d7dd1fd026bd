"""Ingest round trips: SQL statements, commits and letters/s of :meth:`Inbox.receive`, the code
of this checkout against an earlier commit, in the same run.

``--letters`` (600) move letters of ``--letters/10`` round-robin games, ten plies each (random
legal Russian games from ``notation.playouts``), every letter repeating the partner's move and
making its own, with genuine reply tokens and senders, received in arrival order by one process.
Each variant — this checkout, and ``--baseline`` (a commit, extracted with ``git archive``) —
runs in a subprocess of its own on a fresh database (PostgreSQL when reachable, and SQLite),
``--rounds`` times alternately, so a load change on a shared machine hits both alike. A
``before_cursor_execute`` listener counts the statements of every ``receive`` and a ``commit``
listener its commits; the letters/s figure is the same loop without the counters attached.

Usage: .venv/bin/python benchmarks/bench_ingest.py [--letters N] [--rounds N]
       [--baseline REV] [--backend postgresql|sqlite|both]
       .venv/bin/python benchmarks/bench_ingest.py --profile FILE [--letters N] [--backend B]

``--profile FILE`` runs this checkout alone under ``cProfile`` (the timed letters only), writes
the statistics to FILE (``python -m pstats FILE``) and prints the Python calls a letter — a
count that does not depend on the machine's load — and the functions that cost the most.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from statistics import mean, median
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = os.environ.get(
    "CORRMAIL_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
PLIES = 10
#: The commit before the ingest round-trip pass (docs/benchmarks/ingest.md).
DEFAULT_BASELINE = "680d81d"


# --- the worker: runs inside the tree under test ---------------------------------------------


def worker(url: str, letter_count: int, profile: str | None = None) -> dict[str, Any]:
    import datetime as dt
    import random
    import time
    from collections import Counter
    from email.utils import format_datetime

    from sqlalchemy import event

    from corrmail.db import Database
    from corrmail.mail.correspondence import numbered
    from corrmail.mail.inbox import Inbox
    try:
        from corrmail.letters.write import LetterWriter
    except ImportError:  # a baseline from before the service's folders were regrouped
        from corrmail.mail.letters import LetterWriter  # type: ignore[no-redef]
    from corrmail.mail.settings import MailSettings
    from corrmail.migrate import upgrade
    from corrmail.models import (
        Game,
        GameState,
        GameType,
        Participant,
        Player,
        Tournament,
        TournamentChannel,
        TournamentStatus,
        TournamentSystem,
    )
    from notation.playouts import random_game
    from notation.position import Position
    from notation.rules import GameType as BoardType

    settings = MailSettings("bench.example", "turnir@bench.example", b"bench-secret")
    moscow = dt.timezone(dt.timedelta(hours=3))
    rng = random.Random(7)
    games = []
    while len(games) < letter_count // PLIES:
        moves = random_game(BoardType.RUSSIAN, rng, max_plies=PLIES)
        if len(moves) < PLIES:
            continue
        position, plies = Position.initial(BoardType.RUSSIAN), []
        for move in moves:
            plies.append((position, move))
            position = position.play(move)
        games.append(plies)

    upgrade(url)
    database = Database(url)
    ids = []
    with database.transaction() as session:
        tournament = Tournament(
            code="BENCH", title="Benchmark", game_type=GameType.RUSSIAN,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.EMAIL,
            start_date=dt.date(2026, 1, 1), end_date=dt.date(2027, 12, 31),
            status=TournamentStatus.RUNNING,
        )
        session.add(tournament)
        session.flush()
        for number in range(len(games)):
            pair = []
            for side in ("w", "b"):
                player = Player(name=f"{side}{number}", email=f"{side}{number}@players.example")
                session.add(player)
                session.flush()
                entrant = Participant(tournament_id=tournament.id, player_id=player.id)
                session.add(entrant)
                session.flush()
                pair.append((entrant.id, player.email))
            game = Game(tournament_id=tournament.id, round=1, white_id=pair[0][0],
                        black_id=pair[1][0], state=GameState.IN_PLAY)
            session.add(game)
            session.flush()
            ids.append((game.id, *pair))

    writer = LetterWriter(settings)
    letters = []
    for ply in range(PLIES):
        when = dt.datetime(2026, 1, 2, 10, tzinfo=moscow) + dt.timedelta(days=2 * ply)
        for plies, (game_id, (white_id, white_email), (black_id, black_email)) in zip(
            games, ids, strict=True
        ):
            sender_id, email = (white_id, white_email) if ply % 2 == 0 else (black_id, black_email)
            body = numbered(plies[max(ply - 1, 0): ply + 1], max(ply - 1, 0))
            raw = "\r\n".join([
                f"From: {email}",
                f"To: {writer.signer.reply_address(game_id, sender_id)}",
                "Subject: Re: ход",
                f"Date: {format_datetime(when)}",
                f"Message-ID: <g{game_id}-p{ply}@players.example>",
                "Content-Type: text/plain; charset=utf-8",
                "",
                f"Здравствуйте!\r\n{body}\r\nС уважением.",
            ]).encode()
            letters.append((raw, when))

    inbox = Inbox(database, LetterWriter(settings))
    # The first tenth with counters attached, the rest timed without them.
    counted = letters[: max(len(letters) // PLIES, 1)]
    statements: list[int] = []
    commits: list[int] = []
    seen = {"statements": 0, "commits": 0}

    def on_statement(*args: object) -> None:
        seen["statements"] += 1

    def on_commit(*args: object) -> None:
        seen["commits"] += 1

    event.listen(database.engine, "before_cursor_execute", on_statement)
    event.listen(database.engine, "commit", on_commit)
    outcomes: Counter[str] = Counter()
    for raw, when in counted:
        seen.update(statements=0, commits=0)
        outcomes[inbox.receive(raw, source="pipe", received_at=when).outcome] += 1
        statements.append(seen["statements"])
        commits.append(seen["commits"])
    event.remove(database.engine, "before_cursor_execute", on_statement)
    event.remove(database.engine, "commit", on_commit)
    timed = letters[len(counted):]
    each: list[float] = []
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu = time.perf_counter(), time.process_time()
    for raw, when in timed:
        before = time.perf_counter()
        outcomes[inbox.receive(raw, source="pipe", received_at=when).outcome] += 1
        each.append(time.perf_counter() - before)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    if profiler is not None and profile:
        profiler.disable()
        profiler.dump_stats(profile)
    database.dispose()
    each.sort()
    return {
        "outcomes": dict(outcomes), "statements": statements, "commits": commits,
        "timed": len(timed), "seconds": elapsed, "cpu": cpu, "median": each[len(each) // 2],
    }


# --- the driver ------------------------------------------------------------------------------


def extract(revision: str, into: Path) -> Path:
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), revision], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def fresh_url(backend: str, label: str, workdir: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{workdir}/{label}.sqlite"
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(POSTGRES_URL)
    name = f"bench_ingest_{label}_{os.getpid()}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def drop(url: str) -> None:
    if not url.startswith("postgresql"):
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(url)
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{base.database}" WITH (FORCE)'))
    admin.dispose()


def run_variant(tree: Path, url: str, letters: int, profile: str | None = None) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", url, "--letters", str(letters),
         *(["--profile", profile] if profile else [])],
        env=env, cwd=tree, check=True, capture_output=True, text=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def postgres_reachable() -> bool:
    from sqlalchemy import create_engine, text

    engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
    except Exception:  # any driver error: no server
        return False
    finally:
        engine.dispose()


def profile_checkout(options: argparse.Namespace) -> None:
    import pstats

    backend = "sqlite" if options.backend == "both" else options.backend
    with tempfile.TemporaryDirectory() as tmp:
        url = fresh_url(backend, "profile", Path(tmp))
        try:
            result = run_variant(ROOT, url, options.letters, str(Path(options.profile).resolve()))
        finally:
            drop(url)
    stats = pstats.Stats(options.profile)
    calls = stats.total_calls  # type: ignore[attr-defined]
    print(f"{backend}: {result['timed']} letters profiled, {calls / result['timed']:,.0f} Python "
          f"calls a letter, {1000 * result['cpu'] / result['timed']:.1f} ms CPU a letter "
          "(with the profiler's overhead)")
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--backend", choices=("postgresql", "sqlite", "both"), default="both")
    parser.add_argument("--profile", metavar="FILE", help="profile this checkout alone")
    parser.add_argument("--worker", metavar="URL", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        print(json.dumps(worker(options.worker, options.letters, options.profile)))
        return
    if options.profile:
        profile_checkout(options)
        return

    backends = ["postgresql", "sqlite"] if options.backend == "both" else [options.backend]
    if "postgresql" in backends and not postgres_reachable():
        print(f"PostgreSQL at {POSTGRES_URL} unreachable: SQLite only")
        backends.remove("postgresql")
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "corrmail"],
                           capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        baseline_tree = extract(options.baseline, workdir)
        variants = {f"baseline {options.baseline}": baseline_tree,
                    f"this checkout ({head}{', corrmail/ modified' if dirty else ''})": ROOT}
        print(f"ingest: {options.letters} move letters per run, {options.rounds} round(s), "
              f"the first tenth counted, the rest timed")
        for backend in backends:
            runs: dict[str, list[dict[str, Any]]] = {label: [] for label in variants}
            for round_number in range(options.rounds):
                for index, (label, tree) in enumerate(variants.items()):
                    url = fresh_url(backend, f"r{round_number}v{index}", workdir)
                    try:
                        runs[label].append(run_variant(tree, url, options.letters))
                    finally:
                        drop(url)
            print(f"\n{backend}:")
            medians: dict[str, tuple[float, float, float]] = {}
            for label, results in runs.items():
                statements, commits = results[-1]["statements"], results[-1]["commits"]
                rates = [result["timed"] / result["seconds"] for result in results]
                cpu = [1000 * result["cpu"] / result["timed"] for result in results]
                typical = [1000 * result["median"] for result in results]
                medians[label] = (median(rates), median(cpu), median(typical))
                print(f"  {label}: outcomes {results[-1]['outcomes']}")
                print(f"    statements per letter: mean {mean(statements):.1f}, "
                      f"max {max(statements)}; commits per letter: {max(commits)}")
                print(f"    letters/s (wall): {', '.join(f'{rate:.1f}' for rate in rates)} "
                      f"(median {median(rates):.1f})")
                print(f"    median ms a letter: {', '.join(f'{ms:.1f}' for ms in typical)}; "
                      f"CPU ms a letter (this process): {', '.join(f'{ms:.1f}' for ms in cpu)}")
            (old_rate, old_cpu, old_ms), (new_rate, new_cpu, new_ms) = medians.values()
            print(f"  this checkout vs baseline: letters/s x{new_rate / old_rate:.2f}, "
                  f"median letter x{old_ms / new_ms:.2f} faster, CPU a letter x{old_cpu / new_cpu:.2f}"
                  " less")


if __name__ == "__main__":
    main()
