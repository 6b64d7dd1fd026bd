"""Mail benchmarks: ingesting move letters, and the mailer's throughput to a local SMTP server.

1. **Ingest**: ``--letters`` (10,000) move letters of ``--letters/10`` games, ten plies each
   (random legal games from ``notation.playouts``), each letter repeating the partner's move and
   making its own, fed to :meth:`Inbox.receive` in arrival order on SQLite. Compared in the same
   run with the reading alone (``parse_inbound`` + ``read_letter``, no database), which is the
   floor the whole pipeline cannot beat.
2. **Mailer**: ``--outbox`` (2,000) letters sent to an aiosmtpd sink on loopback by 1, 2 and 4
   mailer processes at once, on PostgreSQL (``FOR UPDATE SKIP LOCKED``) when reachable and on
   SQLite (leases under the write lock); every letter must arrive exactly once.

Usage: .venv/bin/python benchmarks/bench_mail.py [--letters N] [--outbox N] [--skip-ingest]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from email.utils import format_datetime, make_msgid
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlalchemy import create_engine, select, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corrmail.db import Database  # noqa: E402
from corrmail.letters.outbox import enqueue  # noqa: E402
from corrmail.letters.write import LetterWriter  # noqa: E402
from corrmail.mail.compose import OutgoingLetter, build_message  # noqa: E402
from corrmail.mail.content import read_letter  # noqa: E402
from corrmail.mail.correspondence import numbered  # noqa: E402
from corrmail.mail.inbound import parse_inbound  # noqa: E402
from corrmail.mail.inbox import Inbox  # noqa: E402
from corrmail.mail.settings import MailSettings  # noqa: E402
from corrmail.migrate import upgrade  # noqa: E402
from corrmail.models import (  # noqa: E402
    Game,
    GameState,
    GameType,
    OutboxMessage,
    Participant,
    Player,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)
from notation.playouts import random_game  # noqa: E402
from notation.position import Position  # noqa: E402
from notation.rules import GameType as BoardType  # noqa: E402

SETTINGS = MailSettings("bench.example", "turnir@bench.example", b"bench-secret")
MOSCOW = dt.timezone(dt.timedelta(hours=3))
PLIES = 10
POSTGRES_URL = os.environ.get(
    "CORRMAIL_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


# --- 1. ingest -------------------------------------------------------------------------------


def legal_games(count: int, seed: int = 7) -> list[list[tuple[Position, object]]]:
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        moves = random_game(BoardType.RUSSIAN, rng, max_plies=PLIES)
        if len(moves) < PLIES:
            continue
        position = Position.initial(BoardType.RUSSIAN)
        plies = []
        for move in moves:
            plies.append((position, move))
            position = position.play(move)
        games.append(plies)
    return games


def build_ingest_db(url: str, game_count: int) -> list[tuple[int, int, int, str, str]]:
    upgrade(url)
    database = Database(url)
    rows = []
    with database.transaction() as session:
        tournament = Tournament(
            code="BENCH", title="Benchmark", game_type=GameType.RUSSIAN,
            system=TournamentSystem.SWISS, channel=TournamentChannel.EMAIL,
            start_date=dt.date(2026, 1, 1), end_date=dt.date(2027, 12, 31),
            status=TournamentStatus.RUNNING,
        )
        session.add(tournament)
        session.flush()
        for number in range(game_count):
            pair = []
            for side in ("w", "b"):
                player = Player(name=f"{side}{number}", email=f"{side}{number}@players.example")
                session.add(player)
                session.flush()
                entrant = Participant(tournament_id=tournament.id, player_id=player.id)
                session.add(entrant)
                pair.append((entrant, player.email))
            session.flush()
            game = Game(tournament_id=tournament.id, round=1, white_id=pair[0][0].id,
                        black_id=pair[1][0].id, state=GameState.IN_PLAY)
            session.add(game)
            session.flush()
            rows.append((game.id, pair[0][0].id, pair[1][0].id, pair[0][1], pair[1][1]))
    database.dispose()
    return rows


def letters_for(games: list, ids: list) -> list[tuple[bytes, dt.datetime]]:
    writer = LetterWriter(SETTINGS)
    letters = []
    for ply in range(PLIES):
        when = dt.datetime(2026, 1, 2, 10, tzinfo=MOSCOW) + dt.timedelta(days=2 * ply)
        for plies, (game_id, white_id, black_id, white_email, black_email) in zip(games, ids, strict=True):
            white_moves = ply % 2 == 0
            sender_id, email = (white_id, white_email) if white_moves else (black_id, black_email)
            body = numbered(plies[max(ply - 1, 0): ply + 1], max(ply - 1, 0))
            raw = "\r\n".join([
                f"From: {email}",
                f"To: {writer.signer.reply_address(game_id, sender_id)}",
                "Subject: Re: ход",
                f"Date: {format_datetime(when)}",
                f"Message-ID: {make_msgid(domain='players.example')}",
                "Content-Type: text/plain; charset=utf-8",
                "",
                f"Здравствуйте!\r\n{body}\r\nС уважением.",
            ]).encode()
            letters.append((raw, when))
    return letters


def bench_ingest(letter_count: int) -> None:
    games = legal_games(letter_count // PLIES)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/ingest.sqlite"
        ids = build_ingest_db(url, len(games))
        letters = letters_for(games, ids)

        started = time.perf_counter()
        for raw, _ in letters:
            parsed = parse_inbound(raw)
            read_letter(parsed.text)
        reading = time.perf_counter() - started

        database = Database(url)
        inbox = Inbox(database, LetterWriter(SETTINGS))
        outcomes: Counter[str] = Counter()
        started = time.perf_counter()
        for raw, when in letters:
            outcomes[inbox.receive(raw, source="pipe", received_at=when).outcome] += 1
        full = time.perf_counter() - started
        with database.session() as session:
            outbox = session.scalar(select(text("count(*)")).select_from(OutboxMessage))
        database.dispose()
    n = len(letters)
    print(f"ingest: {n} move letters in {len(games)} games on SQLite")
    print(f"  outcomes: {dict(outcomes)}; outbox letters written: {outbox}")
    print(f"  reading only (parse + content): {reading:.2f} s = {n / reading:,.0f} letters/s")
    print(f"  full pipeline (store, authenticate, check, ledger, relay): {full:.2f} s = "
          f"{n / full:,.0f} letters/s, {1000 * full / n:.1f} ms/letter "
          f"({full / reading:.0f}x the reading alone)")


# --- 2. mailer -------------------------------------------------------------------------------


class Sink:
    def __init__(self) -> None:
        self.ids: list[str] = []
        self.arrivals: list[float] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        for line in envelope.content.split(b"\r\n"):
            if line.lower().startswith(b"message-id:"):
                with self.lock:
                    self.ids.append(line.split(b":", 1)[1].strip().decode())
                    self.arrivals.append(time.perf_counter())
                break
        return "250 OK"


WORKER = """
import asyncio, sys
from corrmail.db import Database
from corrmail.mail.mailer import Mailer
from corrmail.mail.settings import Security, SmtpSettings
from corrmail.mail.transport import SmtpTransport
url, port, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
settings = SmtpSettings("127.0.0.1", port, Security.NONE, timeout=30)
mailer = Mailer(Database(url), lambda: SmtpTransport(settings), worker=name, batch_size=50)
asyncio.run(mailer.drain())
"""


def fill_outbox(url: str, count: int) -> None:
    database = Database(url)
    with database.transaction() as session:
        for number in range(count):
            message = build_message(OutgoingLetter(
                message_id=f"<bench{number}@bench.example>", from_address="turnir@bench.example",
                to=[f"p{number}@players.example"], subject=f"Ход {number}",
                text="Здравствуйте!\n8. c3-d4\n" * 5, date=dt.datetime.now(dt.UTC),
            ))
            row = enqueue(session, message, kind="bench")
            row.next_attempt_at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    database.dispose()


def reset(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        if url.startswith("postgresql"):
            connection.execute(text("TRUNCATE outbox, audit_log RESTART IDENTITY CASCADE"))
        else:
            connection.execute(text("DELETE FROM outbox"))
    engine.dispose()


def bench_mailer(url: str, label: str, count: int, workers: int, script: Path) -> float:
    reset(url)
    fill_outbox(url, count)
    sink = Sink()
    port = _free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    processes = [subprocess.Popen([sys.executable, str(script), url, str(port), f"w{n}"], env=env)
                 for n in range(workers)]
    for process in processes:
        process.wait()
    elapsed = time.perf_counter() - started
    controller.stop()
    duplicates = len(sink.ids) - len(set(sink.ids))
    assert len(set(sink.ids)) == count and duplicates == 0, (len(sink.ids), duplicates)
    # Process start-up (importing corrmail) is not sending: time the first to the last arrival.
    sending = max(sink.arrivals) - min(sink.arrivals)
    print(f"  {label}, {workers} worker(s): {count} letters, each exactly once; "
          f"{elapsed:.2f} s with start-up, sending {sending:.2f} s = {count / sending:,.0f} letters/s")
    return sending


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=10_000)
    parser.add_argument("--outbox", type=int, default=2_000)
    parser.add_argument("--skip-ingest", action="store_true")
    args = parser.parse_args()
    if not args.skip_ingest:
        bench_ingest(args.letters)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "worker.py"
        script.write_text(WORKER)
        print(f"mailer: {args.outbox} letters to aiosmtpd on loopback")
        backends = [("SQLite", f"sqlite:///{tmp}/mailer.sqlite")]
        try:
            engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            engine.dispose()
            bench_url = POSTGRES_URL.rsplit("/", 1)[0] + "/corrmail_bench"
            admin = create_engine(POSTGRES_URL.rsplit("/", 1)[0] + "/postgres",
                                  isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.execute(text("DROP DATABASE IF EXISTS corrmail_bench WITH (FORCE)"))
                connection.execute(text("CREATE DATABASE corrmail_bench"))
            admin.dispose()
            backends.insert(0, ("PostgreSQL", bench_url))
        except Exception as error:  # no server: SQLite only, said so
            print(f"  (PostgreSQL unreachable, skipped: {type(error).__name__})")
        for label, url in backends:
            upgrade(url)
            single = bench_mailer(url, label, args.outbox, 1, script)
            for workers in (2, 4):
                elapsed = bench_mailer(url, label, args.outbox, workers, script)
                print(f"    speed-up over one worker: {single / elapsed:.2f}x")


if __name__ == "__main__":
    main()
