"""Load: gunicorn + PostgreSQL holding a generated federation, on loopback, bounded.

1. **Web** — a federation (``corrmail.ops.federation``; default 1,000 players, 200 tournaments,
   101,200 games, ≈1 million letters) in a fresh PostgreSQL database; ``corrmail serve
   --gunicorn`` with ``--web-workers`` processes; ``--clients`` threads, each logged in as the
   director, send a realistic mix (directors' dashboard of a tournament 10 %, game pages 50 %,
   standings 20 %, the JSON API 20 %) until ``--requests`` are done or ``--seconds`` have passed.
   Reported: p50/p95/p99 latency per kind and overall, throughput, errors.
2. **Ingest** — a burst of ``--letters`` e-mail replies (genuine reply tokens and senders, a draw
   offer each) received by 1, 2 and 4 processes in parallel (each runs ``Inbox.receive`` on its
   share, as ``corrmail ingest`` does): letters/s and the scaling.
3. **Mailer** — the outbox the burst filled, drained by 1, 2 and 4 ``Mailer`` processes into an
   SMTP sink on loopback: letters/s and the scaling.

Run: ``.venv/bin/python benchmarks/bench_load.py`` — the issue's scale: generating the federation
takes ≈8 min on 2 cores and the 10,000-letter bursts ≈10–20 min each at the measured rates, so use
``--letters 1000`` and ``--scale 0.2`` for a quicker run. Results: docs/benchmarks/load.md.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import httpx
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corrmail.api_tokens import issue_token  # noqa: E402
from corrmail.db import Database  # noqa: E402
from corrmail.demo import load_demo  # noqa: E402
from corrmail.migrate import upgrade  # noqa: E402
from corrmail.models import (  # noqa: E402
    Game,
    OutboxMessage,
    OutboxStatus,
    Participant,
    Player,
    Tournament,
    User,
)
from corrmail.ops.federation import CODE_PREFIX, FederationSpec, generate_federation  # noqa: E402

POSTGRES = os.environ.get("CORRMAIL_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
DATABASE = "corrmail_bench_load"
SECRET = "bench-load-secret-key-0123456789"
MAIL_SECRET = "bench-load-mail-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]


def fresh_database() -> str:
    base = make_url(POSTGRES)
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{DATABASE}"'))
    admin.dispose()
    return base.set(database=DATABASE).render_as_string(hide_password=False)


def build(url: str, spec: FederationSpec) -> str:
    started = time.perf_counter()
    upgrade(url)
    database = Database(url)
    with database.transaction() as session:
        load_demo(session)
    summary = generate_federation(database, spec)
    with database.transaction() as session:
        director = session.scalar(select(User).where(User.login == "director"))
        assert director is not None
        token = issue_token(session, director, "bench")
    with database.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(text("VACUUM ANALYZE"))
    database.dispose()
    print(f"federation: {summary.players} players, {summary.tournaments} tournaments, "
          f"{summary.games} games, {summary.letters} letters in {time.perf_counter() - started:.0f} s")
    return token


def environment(url: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "CORRMAIL_DATABASE_URL": url, "CORRMAIL_SECRET_KEY": SECRET,
            "CORRMAIL_MAIL_SECRET": MAIL_SECRET, "CORRMAIL_MAIL_DOMAIN": "turnir.example",
            "CORRMAIL_LOG_LEVEL": "WARNING", **extra}


# --- 1. the web --------------------------------------------------------------------------------


def logged_in_client(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    page = client.get("/login").text
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    data = {"login": "director", "password": "demo2026"}
    if match:
        data["csrf_token"] = match.group(1)
    answer = client.post("/login", data=data)
    assert answer.status_code == 302, answer.status_code
    return client


def web_load(url: str, token: str, *, workers: int, clients: int, requests: int, seconds: float) -> None:
    database = Database(url)
    with database.session() as session:
        codes = list(session.scalars(select(Tournament.code).where(Tournament.code.startswith(CODE_PREFIX))))
        game_ids = list(session.scalars(select(Game.id)))
    database.dispose()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/corrmail"), "serve", "--gunicorn", "--port", str(port)],
        env=environment(url, CORRMAIL_WEB_WORKERS=str(workers), CORRMAIL_WEB_THREADS="4"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(120):
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        kinds = (["dashboard"] * 1 + ["game"] * 5 + ["standings"] * 2 + ["api"] * 2)
        latencies: dict[str, list[float]] = defaultdict(list)
        errors: dict[str, int] = defaultdict(int)
        budget = threading.Semaphore(requests)
        deadline = time.monotonic() + seconds
        lock = threading.Lock()

        def client_loop(seed: int) -> None:
            rng = random.Random(seed)
            client = logged_in_client(base)
            api = httpx.Client(base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"})
            while time.monotonic() < deadline and budget.acquire(blocking=False):
                kind = rng.choice(kinds)
                code = rng.choice(codes)
                if kind == "dashboard":
                    request = (client, f"/dashboard/{code}")
                elif kind == "game":
                    request = (client, f"/games/{rng.choice(game_ids)}")
                elif kind == "standings":
                    request = (client, f"/tournaments/{code}/standings")
                else:
                    request = (api, f"/api/v1/tournaments/{code}/standings")
                started = time.perf_counter()
                try:
                    status = request[0].get(request[1]).status_code
                except httpx.TransportError as error:  # a worker killed by its timeout, say
                    status = type(error).__name__  # type: ignore[assignment]
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    latencies[kind].append(elapsed)
                    if status != 200:
                        errors[f"{kind} {status}"] += 1
            client.close()
            api.close()

        logged = [threading.Thread(target=client_loop, args=(n,)) for n in range(clients)]
        started = time.perf_counter()
        for thread in logged:
            thread.start()
        for thread in logged:
            thread.join()
        wall = time.perf_counter() - started
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(60)
    every = [v for values in latencies.values() for v in values]
    print(f"web: {workers} gunicorn workers × 4 threads, {clients} clients, {len(every)} requests "
          f"in {wall:.1f} s = {len(every) / wall:.1f} req/s; errors: {dict(errors) or 'none'}")
    print(f"  {'kind':<10} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for kind, values in sorted(latencies.items()) + [("all", every)]:
        print(f"  {kind:<10} {len(values):>6} {percentile(values, 50):>8.1f} "
              f"{percentile(values, 95):>8.1f} {percentile(values, 99):>8.1f}")


# --- 2. ingest and 3. mailer -----------------------------------------------------------------------

INGEST_WORKER = r"""
import datetime as dt, sys, time
from corrmail.mail.service import MailService
from corrmail.mail.inbox import Source
paths = sys.argv[1:]
service = MailService.from_env()
inbox = service.inbox()
started = time.perf_counter()
outcomes = {}
for path in paths:
    receipt = inbox.receive(open(path, "rb").read(), source=Source.PIPE)
    outcomes[receipt.outcome] = outcomes.get(receipt.outcome, 0) + 1
print(repr((time.perf_counter() - started, outcomes)))
service.close()
"""

MAILER_WORKER = r"""
import asyncio, sys, time
from corrmail.mail.service import MailService
service = MailService.from_env()
mailer = service.mailer(batch_size=100, worker=sys.argv[1])
started = time.perf_counter()
report = asyncio.run(mailer.drain())
print(repr((time.perf_counter() - started, report.sent)))
service.close()
"""


def write_letters(url: str, count: int, directory: Path, offset: int) -> list[Path]:
    from corrmail.mail.settings import MailSettings
    from corrmail.mail.tokens import TokenSigner

    mail = MailSettings(domain="turnir.example", from_address="turnir@turnir.example",
                        secret=MAIL_SECRET.encode())
    signer = TokenSigner(mail.secret, mail.domain)
    database = Database(url)
    with database.session() as session:
        rows = session.execute(
            select(Game.id, Game.white_id, Player.email)
            .join(Participant, Participant.id == Game.white_id)
            .join(Player, Player.id == Participant.player_id)
            .order_by(Game.id).limit(count)
        ).all()
    database.dispose()
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, row in enumerate(rows):
        raw = (f"From: {row.email}\r\nTo: {signer.reply_address(row.id, row.white_id)}\r\n"
               f"Subject: Re: ход\r\nMessage-ID: <burst{offset}-{number}@example.org>\r\n"
               "Content-Type: text/plain; charset=utf-8\r\n\r\nПредлагаю ничью.\r\n").encode()
        path = directory / f"{number:06d}.eml"
        path.write_bytes(raw)
        paths.append(path)
    return paths


def ingest_burst(url: str, letters: int, workdir: Path) -> None:
    print(f"ingest: a burst of {letters} letters (draw offers with genuine tokens)")
    baseline = None
    for round_number, processes in enumerate((1, 2, 4)):
        paths = write_letters(url, letters, workdir / f"burst{processes}", round_number)
        shares = [paths[i::processes] for i in range(processes)]
        started = time.perf_counter()
        workers = [subprocess.Popen([sys.executable, "-c", INGEST_WORKER, *map(str, share)],
                                    env=environment(url), stdout=subprocess.PIPE, text=True)
                   for share in shares]
        outcomes: dict[str, int] = defaultdict(int)
        for worker in workers:
            _, counted = eval(worker.communicate()[0])  # noqa: S307 - our own child's repr
            for outcome, n in counted.items():
                outcomes[outcome] += n
        wall = time.perf_counter() - started
        rate = len(paths) / wall
        baseline = baseline or rate
        print(f"  {processes} process(es): {len(paths)} letters in {wall:.1f} s = {rate:.0f} letters/s "
              f"(×{rate / baseline:.2f}); outcomes {dict(outcomes)}")


def mailer_drain(url: str) -> None:
    from aiosmtpd.controller import Controller

    class Sink:
        count = 0

        async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
            Sink.count += 1
            return "250 OK"

    port = free_port()
    sink = Controller(Sink(), hostname="127.0.0.1", port=port)
    sink.start()
    database = Database(url)
    try:
        with database.session() as session:
            total = len(session.scalars(select(OutboxMessage.id)).all())
        print(f"mailer: {total} outbox letters to an SMTP sink on loopback")
        baseline = None
        for processes in (1, 2, 4):
            with database.transaction() as session:
                session.execute(OutboxMessage.__table__.update().values(
                    status=OutboxStatus.PENDING, lease_owner=None, lease_until=None, attempts=0,
                    next_attempt_at=text("created_at")))
            env = environment(url, CORRMAIL_SMTP_HOST="127.0.0.1", CORRMAIL_SMTP_PORT=str(port),
                              CORRMAIL_SMTP_SECURITY="none")
            started = time.perf_counter()
            workers = [subprocess.Popen([sys.executable, "-c", MAILER_WORKER, f"bench{n}"], env=env,
                                        stdout=subprocess.PIPE, text=True) for n in range(processes)]
            sent = sum(eval(w.communicate()[0])[1] for w in workers)  # noqa: S307
            wall = time.perf_counter() - started
            rate = sent / wall
            baseline = baseline or rate
            print(f"  {processes} process(es): {sent} sent in {wall:.1f} s = {rate:.0f} letters/s (×{rate / baseline:.2f})")
    finally:
        sink.stop()
        database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the federation")
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--letters", type=int, default=10_000)
    parser.add_argument("--reuse", action="store_true", help="keep the database of the last run")
    options = parser.parse_args()
    spec = FederationSpec(players=max(23, int(1000 * options.scale)),
                          tournaments=max(1, int(200 * options.scale)))
    base = make_url(POSTGRES)
    url = base.set(database=DATABASE).render_as_string(hide_password=False)
    if options.reuse:
        database = Database(url)
        with database.transaction() as session:
            director = session.scalar(select(User).where(User.login == "director"))
            assert director is not None
            token = issue_token(session, director, "bench")
        database.dispose()
    else:
        url = fresh_database()
        token = build(url, spec)
    web_load(url, token, workers=options.web_workers, clients=options.clients,
             requests=options.requests, seconds=options.seconds)
    import tempfile

    with tempfile.TemporaryDirectory() as workdir:
        ingest_burst(url, min(options.letters, 101_200), Path(workdir))
    mailer_drain(url)


if __name__ == "__main__":
    main()
