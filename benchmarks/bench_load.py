"""Load: gunicorn + PostgreSQL holding a generated federation, on loopback, bounded.

0. **Federation** — ``corrmail.demo.federation`` (default 1,000 players, 200 tournaments,
   101,200 games, ≈2 million letters, every letter a legal move) generated once into a template
   database named after its size and labelled with its spec; ``--reuse`` keeps a template of
   the same spec. Each run works on a fresh copy of it (``CREATE DATABASE … TEMPLATE``, seconds).
1. **Web** — ``corrmail serve --gunicorn`` configured as production's defaults configure it
   (``--web-workers`` and ``--web-threads`` override them); ``--clients``
   threads, each logged in as the director, send a realistic mix (directors' dashboard of a
   tournament 10 %, game pages 50 %, standings 20 %, the JSON API 20 %) until ``--requests`` are
   done or ``--seconds`` have passed. Reported: p50/p95/p99 latency per kind and overall,
   throughput, errors, and the CPU seconds of gunicorn and of PostgreSQL.
2. **Ingest** — three bursts of ``--letters`` e-mail replies, each to its own in-play games:
   the player on move repeats the partner's last move and answers with a legal one, signed
   with the game's genuine reply token. Received by 1, 2 and 4 processes in parallel (each runs
   ``Inbox.receive`` on its share, as ``corrmail ingest`` does): letters/s and the scaling.
3. **Mailer** — the outbox letters of burst k (the moves relayed to the partners), drained by
   1, 2 and 4 ``Mailer`` processes into an SMTP sink on loopback: letters/s and the scaling.
4. **Profile** — ``--profile-letters`` more letters ingested by one process under cProfile:
   the share of time spent waiting on PostgreSQL, and the top functions.

Each burst stops after ``--burst-seconds`` and each drain after ``--drain-seconds``, and reports
how many letters it handled. Between phases the tables the bursts fill are vacuumed and, during
bursts and drains, analysed every 5 s — autovacuum's work on a production server; this host's
PostgreSQL runs with ``autovacuum = off``. ``--phases`` picks web, pages (each kind alone,
profiled) and mail (bursts, drains, ingest profile).
Run: ``.venv/bin/python benchmarks/bench_load.py`` (the issue's scale; generation ≈15 min on
2 cores, then ``--reuse``); ``--scale 0.2 --letters 1000`` for a quicker run.
Results: docs/benchmarks/load.md.
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
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import httpx
from sqlalchemy import create_engine, func, select, text, update
from sqlalchemy.engine import Engine, make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corrmail.db import Database  # noqa: E402
from corrmail.demo.federation import CODE_PREFIX, FederationSpec, game_pool, generate_federation  # noqa: E402
from corrmail.demo.tournament import load_demo  # noqa: E402
from corrmail.migrate import upgrade  # noqa: E402
from corrmail.models import (  # noqa: E402
    Game,
    GameState,
    Letter,
    OutboxMessage,
    OutboxStatus,
    Participant,
    Player,
    Tournament,
    User,
)
from corrmail.ops.web import WebSettings, worker_class  # noqa: E402
from corrmail.people.api_tokens import issue_token  # noqa: E402

POSTGRES = os.environ.get("CORRMAIL_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
DATABASE = "corrmail_bench_load"
#: Bumped whenever generate_federation writes something different for the same spec.
FEDERATION_FORMAT = 2
SECRET = "bench-load-secret-key-0123456789"
MAIL_SECRET = "bench-load-mail-secret-0123456789ab"
#: The web mix, in tenths: dashboard 10 %, game pages 50 %, standings 20 %, API standings 20 %.
MIX = {"dashboard": 1, "game": 5, "standings": 2, "api": 2}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]


def database_url(name: str) -> str:
    return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)


def admin_engine() -> Engine:
    return create_engine(make_url(POSTGRES).set(database="postgres"), isolation_level="AUTOCOMMIT")


def spec_label(spec: FederationSpec) -> str:
    """What the template was generated from; a changed generator or spec means a new template."""
    return f"corrmail federation {FEDERATION_FORMAT}: {spec!r}"


def template_name(spec: FederationSpec) -> str:
    return f"{DATABASE}_{spec.players}p_{spec.tournaments}t"


def prepared_template(spec: FederationSpec, *, reuse: bool) -> str:
    """The federation is generated once into a template database per size (labelled with its
    spec by a database comment); with ``reuse`` a template of the same spec is kept, so runs
    can be repeated without the ≈15 min of generation. Returns the template's name."""
    TEMPLATE = template_name(spec)  # noqa: N806 - a constant of this run
    admin = admin_engine()
    label = spec_label(spec)
    with admin.connect() as connection:
        found = connection.execute(text(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = :name"
        ), {"name": TEMPLATE}).first()
        if reuse and found is not None and found[0] == label:
            print(f"federation: reusing database {TEMPLATE} ({label})")
            admin.dispose()
            return TEMPLATE
        connection.execute(text(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{TEMPLATE}"'))
    build(database_url(TEMPLATE), spec)
    with admin.connect() as connection:
        # Set last: a generation cut short leaves an unlabelled template, never reused.
        connection.execute(text(f'COMMENT ON DATABASE "{TEMPLATE}" IS \'{label}\''))
    admin.dispose()
    return TEMPLATE


def fresh_copy(TEMPLATE: str) -> str:  # noqa: N803
    """Each run works on a copy of the template: its ingest and mailer leave the template as it was."""
    started = time.perf_counter()
    admin = admin_engine()
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{DATABASE}" TEMPLATE "{TEMPLATE}" STRATEGY FILE_COPY'))
    admin.dispose()
    url = database_url(DATABASE)
    upgrade(url)  # migrations added since the template was generated
    database = Database(url)
    with database.session() as session:
        letters = session.scalar(select(func.count()).select_from(Letter))
        games = session.scalar(select(func.count()).select_from(Game))
        players = session.scalar(select(func.count()).select_from(Player))
    database.dispose()
    print(f"database: {DATABASE} copied from {TEMPLATE} in {time.perf_counter() - started:.0f} s: "
          f"{players} players, {games} games, {letters} letters (demo included)")
    return url


def build(url: str, spec: FederationSpec) -> None:
    started = time.perf_counter()
    upgrade(url)
    database = Database(url)
    with database.transaction() as session:
        load_demo(session)
    summary = generate_federation(database, spec)
    with database.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(text("VACUUM ANALYZE"))
    database.dispose()
    print(f"federation: {summary.players} players, {summary.tournaments} tournaments, "
          f"{summary.games} games, {summary.letters} letters in {time.perf_counter() - started:.0f} s")


def api_token(url: str) -> str:
    database = Database(url)
    with database.transaction() as session:
        director = session.scalar(select(User).where(User.login == "director"))
        assert director is not None
        token = issue_token(session, director, "bench")
    database.dispose()
    return token


def environment(url: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "CORRMAIL_DATABASE_URL": url, "CORRMAIL_SECRET_KEY": SECRET,
            "CORRMAIL_MAIL_SECRET": MAIL_SECRET, "CORRMAIL_MAIL_DOMAIN": "turnir.example",
            "CORRMAIL_BASE_URL": "http://127.0.0.1",
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


def web_load(url: str, token: str, *, workers: int | None, threads: int | None, clients: int,
             requests: int, seconds: float) -> None:
    database = Database(url)
    with database.session() as session:
        codes = list(session.scalars(select(Tournament.code).where(Tournament.code.startswith(CODE_PREFIX))))
        game_ids = list(session.scalars(select(Game.id)))
    database.dispose()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # gunicorn as production runs it (corrmail.ops.web's defaults) unless told otherwise.
    chosen = {name: str(value) for name, value in (("CORRMAIL_WEB_WORKERS", workers),
                                                   ("CORRMAIL_WEB_THREADS", threads))
              if value is not None}
    env = environment(url, **chosen)
    web = WebSettings.from_env(env)
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/corrmail"), "serve", "--gunicorn", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(120):
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        kinds = [kind for kind, weight in MIX.items() for _ in range(weight)]
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
        with CpuMeter() as meter:
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
    print(f"web: {web.workers} gunicorn workers × {web.threads} thread(s) "
          f"({worker_class(web)}), {clients} clients, {len(every)} requests "
          f"in {wall:.1f} s = {len(every) / wall:.1f} req/s; errors: {dict(errors) or 'none'}")
    print(f"  {meter.summary()}")
    print(f"  {'kind':<10} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for kind, values in sorted(latencies.items()) + [("all", every)]:
        print(f"  {kind:<10} {len(values):>6} {percentile(values, 50):>8.1f} "
              f"{percentile(values, 95):>8.1f} {percentile(values, 99):>8.1f}")


def web_profile(url: str, token: str, samples: int) -> None:
    """Each kind of request alone, in this process (Flask test client, no gunicorn, no other
    client): CPU and wall time of one request, then a cProfile of the costliest kind — what
    each request costs when nothing competes, and where that cost goes."""
    import cProfile
    import pstats
    import statistics

    os.environ.update(environment(url))
    from corrmail.app import create_app

    app = create_app()
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    data = {"login": "director", "password": "demo2026"}
    if match:
        data["csrf_token"] = match.group(1)
    assert client.post("/login", data=data).status_code == 302
    database = Database(url)
    with database.session() as session:
        codes = list(session.scalars(select(Tournament.code).where(Tournament.code.startswith(CODE_PREFIX))
                                     .order_by(Tournament.id).limit(samples)))
        game_ids = list(session.scalars(select(Game.id).order_by(Game.id.desc()).limit(samples)))
    database.dispose()
    api = {"Authorization": f"Bearer {token}"}
    requests: dict[str, list[tuple[str, dict[str, str]]]] = {
        "dashboard": [(f"/dashboard/{code}", {}) for code in codes],
        "game": [(f"/games/{game_id}", {}) for game_id in game_ids],
        "standings": [(f"/tournaments/{code}/standings", {}) for code in codes],
        "api": [(f"/api/v1/tournaments/{code}/standings", api) for code in codes],
    }
    print(f"web alone (one request at a time, Flask test client in this process, {samples} each):")
    medians: dict[str, float] = {}
    for kind, paths in requests.items():
        client.get(paths[0][0], headers=paths[0][1])  # warm: templates compiled, caches filled
        walls, cpus = [], []
        for path, headers in paths:
            wall, cpu = time.perf_counter(), time.process_time()
            status = client.get(path, headers=headers).status_code
            walls.append(1000 * (time.perf_counter() - wall))
            cpus.append(1000 * (time.process_time() - cpu))
            assert status == 200, (path, status)
        median_cpu = statistics.median(cpus)
        medians[kind] = median_cpu
        print(f"  {kind:<10} median {statistics.median(walls):7.1f} ms wall, {median_cpu:7.1f} ms CPU")
    shares = {kind: MIX[kind] * cpu for kind, cpu in medians.items()}
    print("  share of the mix's CPU (weight × CPU): " + ", ".join(
        f"{kind} {100 * share / sum(shares.values()):.0f} %" for kind, share in shares.items()))
    costliest = max(medians, key=lambda kind: medians[kind])
    largest = max(shares, key=lambda kind: shares[kind])
    for kind, why in ((costliest, "the costliest request"), (largest, "the largest share of the mix")):
        if why != "the costliest request" and kind == costliest:
            continue
        profile = cProfile.Profile()
        path, headers = requests[kind][-1]
        profile.enable()
        client.get(path, headers=headers)
        profile.disable()
        print(f"  profile of {why}, {kind} ({path}), corrmail and domain code:")
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(r"corrmail|notation|timekeeping|scoring|jinja2/environment", 18)


# --- CPU by process group -----------------------------------------------------------------------


class CpuMeter:
    """CPU seconds spent by the processes of a phase, sampled from /proc: the benchmark's own
    children (gunicorn, ingest and mailer workers) and the PostgreSQL backends serving the
    benchmark's database (their process title names it), apart from other users of the host."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[str, float]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.tick = os.sysconf("SC_CLK_TCK")
        self.wall = 0.0
        self.baseline: dict[int, float] = {}

    def __enter__(self) -> CpuMeter:
        self._sample(os.getpid())
        self.baseline = {pid: seconds for pid, (_, seconds) in self.seen.items()}
        self.started = time.perf_counter()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.wall = time.perf_counter() - self.started

    def _run(self) -> None:
        mine = os.getpid()
        while not self.stop.is_set():
            self._sample(mine)
            self.stop.wait(0.5)
        self._sample(mine)

    def _sample(self, mine: int) -> None:
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                    command = handle.read().replace(b"\0", b" ").decode(errors="replace")
                with open(f"/proc/{entry.name}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            group = None
            if command.startswith("postgres:") and f" {DATABASE} " in command:
                group = "postgres"
            elif int(entry.name) == mine:
                group = "bench"
            elif int(fields[1]) in (mine, *self.seen_parents()):
                group = "python"
            if group is not None:
                self.seen[int(entry.name)] = (group, (int(fields[11]) + int(fields[12])) / self.tick)

    def seen_parents(self) -> tuple[int, ...]:
        return tuple(pid for pid, (group, _) in self.seen.items() if group == "python")

    def summary(self) -> str:
        totals: dict[str, float] = defaultdict(float)
        for pid, (group, seconds) in self.seen.items():
            totals[group] += seconds - self.baseline.get(pid, 0.0)
        return (f"CPU in {self.wall:.0f} s wall: corrmail processes {totals['python']:.1f} s, "
                f"PostgreSQL backends of {DATABASE} {totals['postgres']:.1f} s, "
                f"this process (load generator, SMTP sink) {totals['bench']:.1f} s; "
                f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


# --- 2. ingest and 3. mailer -----------------------------------------------------------------------

INGEST_WORKER = r"""
import cProfile, os, pstats, sys, time
from corrmail.mail.service import MailService
from corrmail.mail.inbox import Source
deadline, paths = float(sys.argv[1]), sys.argv[2:]
service = MailService.from_env()
inbox = service.inbox()
profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
started, cpu = time.perf_counter(), time.process_time()
outcomes = {}
done = 0
if profile:
    profile.enable()
for path in paths:
    if time.time() > deadline:
        break
    receipt = inbox.receive(open(path, "rb").read(), source=Source.PIPE)
    outcomes[receipt.outcome] = outcomes.get(receipt.outcome, 0) + 1
    done += 1
if profile:
    profile.disable()
    profile.dump_stats(os.environ["BENCH_PROFILE"])
print(repr((time.perf_counter() - started, time.process_time() - cpu, done, outcomes)))
service.close()
"""

MAILER_WORKER = r"""
import asyncio, sys, time
from corrmail.mail.service import MailService
service = MailService.from_env()
mailer = service.mailer(batch_size=100, worker=sys.argv[1])
deadline = float(sys.argv[2])

async def drain():
    sent = 0
    while time.time() < deadline:
        report = await mailer.run_once()
        sent += report.sent
        if report.handled == 0 and report.lost_lease == 0:
            break
    return sent

started, cpu = time.perf_counter(), time.process_time()
sent = asyncio.run(drain())
print(repr((time.perf_counter() - started, time.process_time() - cpu, sent)))
service.close()
"""


def write_letters(url: str, spec: FederationSpec, count: int, skip: int, directory: Path) -> list[Path]:
    """``count`` replies, one per in-play generated game (from the ``skip``-th on), each from
    the player on move, signed with the game's genuine reply token: the partner's last move
    repeated (002 §4.2.9) and a legal move of one's own, as a player writes them."""
    from corrmail.mail.settings import MailSettings
    from corrmail.mail.tokens import TokenSigner

    mail = MailSettings(domain="turnir.example", from_address="turnir@turnir.example",
                        secret=MAIL_SECRET.encode())
    signer = TokenSigner(mail.secret, mail.domain)
    pool = game_pool(spec.seed)
    database = Database(url)
    with database.session() as session:
        rows = session.execute(
            select(Game.id, Game.white_id, Game.black_id)
            .join(Tournament, Tournament.id == Game.tournament_id)
            .where(Tournament.code.startswith(CODE_PREFIX), Game.state == GameState.IN_PLAY)
            .order_by(Game.id).offset(skip).limit(count)
        ).all()
        emails = dict(session.execute(
            select(Participant.id, Player.email).join(Player, Player.id == Participant.player_id)
        ).tuples().all())
    database.dispose()
    if len(rows) < count:
        raise SystemExit(f"only {len(rows)} unused in-play games for a burst of {count}")
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, row in enumerate(rows):
        game = pool[row.id % len(pool)]
        mover = row.white_id if len(game.moves) % 2 == 0 else row.black_id
        raw = (f"From: {emails[mover]}\r\nTo: {signer.reply_address(row.id, mover)}\r\n"
               f"Subject: Re: ход\r\nMessage-ID: <burst{skip}-{number}@example.org>\r\n"
               "Content-Type: text/plain; charset=utf-8\r\n\r\n"
               f"Ваш ход {game.moves[-1]}, мой ход {game.next_move}.\r\n").encode()
        path = directory / f"{number:06d}.eml"
        path.write_bytes(raw)
        paths.append(path)
    return paths


def run_ingest(url: str, paths: list[Path], processes: int, limit: float,
               profile: Path | None = None) -> tuple[float, float, int, dict[str, int], CpuMeter]:
    shares = [paths[i::processes] for i in range(processes)]
    deadline = time.time() + limit
    extra = {"BENCH_PROFILE": str(profile)} if profile else {}
    with CpuMeter() as meter, Autoanalyze(url):
        started = time.perf_counter()
        workers = [subprocess.Popen([sys.executable, "-c", INGEST_WORKER, str(deadline), *map(str, share)],
                                    env=environment(url, **extra), stdout=subprocess.PIPE, text=True)
                   for share in shares]
        outcomes: dict[str, int] = defaultdict(int)
        done = 0
        cpu = 0.0
        for worker in workers:
            _, used, count, counted = eval(worker.communicate()[0])  # noqa: S307 - our own child's repr
            done += count
            cpu += used
            for outcome, n in counted.items():
                outcomes[outcome] += n
        wall = time.perf_counter() - started
    return wall, cpu, done, dict(outcomes), meter


def ingest_burst(url: str, spec: FederationSpec, letters: int, workdir: Path, limit: float) -> list[tuple[int, int]]:
    """The three bursts go to three disjoint sets of games; returns each burst's outbox id range."""
    print(f"ingest: a burst of {letters} move letters (genuine tokens, the player on move, "
          f"a legal move), at most {limit:.0f} s a burst")
    baseline = None
    ranges = []
    for round_number, processes in enumerate((1, 2, 4)):
        paths = write_letters(url, spec, letters, round_number * letters, workdir / f"burst{processes}")
        vacuum(url)
        first = outbox_max(url)
        wall, cpu, done, outcomes, meter = run_ingest(url, paths, processes, limit)
        ranges.append((first, outbox_max(url)))
        rate = done / wall
        baseline = baseline or rate
        print(f"  {processes} process(es): {done} of {len(paths)} letters in {wall:.1f} s = {rate:.1f} letters/s "
              f"(×{rate / baseline:.2f}); {1000 * wall * processes / max(done, 1):.0f} ms a letter per process, "
              f"{1000 * cpu / max(done, 1):.0f} ms of it CPU in the worker; outcomes {outcomes}")
        print(f"    {meter.summary()}")
    return ranges


def vacuum(url: str) -> None:
    """VACUUM ANALYZE the tables the bursts fill, between phases (untimed): the CI PostgreSQL of
    this project runs with ``autovacuum = off``, and without it the planner keeps the copied
    template's statistics (an empty outbox and inbox) and the outbox resets leave dead rows in
    the mailer's index — a production server's autovacuum does this work in the background."""
    database = Database(url)
    with database.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(text(
            "VACUUM ANALYZE outbox, inbound_messages, letters, games, audit_log"))
    database.dispose()


class Autoanalyze:
    """ANALYZE of the tables that grow from empty during a burst, every few seconds, in a thread —
    what autovacuum's autoanalyze does on a production server (after 50 rows plus 10 %), and what
    this host's ``autovacuum = off`` leaves undone. Without it the plans that psycopg prepares in
    a long-lived ingest process are made for the empty tables of the copied template (sequential
    scans of ``inbound_messages`` for the claim) and stay so while the table grows to 10,000
    rows: the first burst then costs PostgreSQL 8 ms a letter instead of 2."""

    TABLES = "inbound_messages, outbox, audit_log"

    def __init__(self, url: str, every: float = 5.0) -> None:
        self.url, self.every = url, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Autoanalyze:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def _run(self) -> None:
        database = Database(self.url)
        with database.engine.connect() as connection:
            autocommit = connection.execution_options(isolation_level="AUTOCOMMIT")
            while not self.stop.wait(self.every):
                autocommit.execute(text(f"ANALYZE {self.TABLES}"))
        database.dispose()


def outbox_max(url: str) -> int:
    database = Database(url)
    with database.session() as session:
        value = session.scalar(select(func.max(OutboxMessage.id))) or 0
    database.dispose()
    return int(value)


def ingest_profile(url: str, spec: FederationSpec, letters: int, skip: int, workdir: Path) -> None:
    """One process under cProfile on fresh games: where a letter's time goes."""
    import pstats

    paths = write_letters(url, spec, letters, skip, workdir / "profile")
    vacuum(url)
    target = workdir / "ingest.prof"
    wall, cpu, done, outcomes, meter = run_ingest(url, paths, 1, 3600, profile=target)
    print(f"ingest profile: {done} letters in one process under cProfile, {wall:.1f} s "
          f"({1000 * wall / done:.0f} ms a letter, {1000 * cpu / done:.0f} ms CPU); {meter.summary()}")
    stats = pstats.Stats(str(target))
    total = stats.total_tt  # type: ignore[attr-defined]
    # psycopg's Connection.wait blocks until PostgreSQL answers: its cumulative time is the time
    # spent waiting on the server (round trips plus the server's work), the rest is Python.
    waiting = sum(
        cumulative for (file, _, name), (_, _, _, cumulative, _) in stats.stats.items()  # type: ignore[attr-defined]
        if file.endswith("psycopg/connection.py") and name == "wait"
    )
    print(f"  profiled time {total:.1f} s; waiting on PostgreSQL (psycopg Connection.wait) "
          f"{waiting:.1f} s ({100 * waiting / total:.0f} %)")
    stats.sort_stats("tottime").print_stats(12)
    stats.sort_stats("cumulative").print_stats(25)


def mailer_drain(url: str, ranges: list[tuple[int, int]], limit: float) -> None:
    """Drain k sends exactly the letters burst k wrote (the other letters are set aside as sent)."""
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
        print(f"mailer: the outbox letters of each burst to an SMTP sink on loopback, at most {limit:.0f} s a drain")
        baseline = None
        for processes, (low, high) in zip((1, 2, 4), ranges, strict=True):
            with database.transaction() as session:
                session.execute(update(OutboxMessage).where(OutboxMessage.status == OutboxStatus.PENDING)
                                .values(status=OutboxStatus.SENT))
                session.execute(update(OutboxMessage).where(OutboxMessage.id > low, OutboxMessage.id <= high).values(
                    status=OutboxStatus.PENDING, lease_owner=None, lease_until=None, attempts=0,
                    next_attempt_at=text("created_at")).execution_options(synchronize_session=False))
            vacuum(url)
            env = environment(url, CORRMAIL_SMTP_HOST="127.0.0.1", CORRMAIL_SMTP_PORT=str(port),
                              CORRMAIL_SMTP_SECURITY="none")
            deadline = time.time() + limit
            with CpuMeter() as meter, Autoanalyze(url):
                started = time.perf_counter()
                workers = [subprocess.Popen([sys.executable, "-c", MAILER_WORKER, f"bench{n}", str(deadline)],
                                            env=env, stdout=subprocess.PIPE, text=True)
                           for n in range(processes)]
                results = [eval(w.communicate()[0]) for w in workers]  # noqa: S307
                wall = time.perf_counter() - started
            sent = sum(r[2] for r in results)
            cpu = sum(r[1] for r in results)
            rate = sent / wall
            baseline = baseline or rate
            print(f"  {processes} process(es): {sent} of {high - low} sent in {wall:.1f} s = {rate:.1f} letters/s "
                  f"(×{rate / baseline:.2f}); {1000 * cpu / max(sent, 1):.1f} ms CPU a letter in the workers")
            print(f"    {meter.summary()}")
    finally:
        sink.stop()
        database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the federation")
    parser.add_argument("--web-workers", type=int, default=None,
                        help="gunicorn worker processes (default: production's, 2 × cores + 1)")
    parser.add_argument("--web-threads", type=int, default=None,
                        help="threads per worker (default: production's, 1: sync workers)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--letters", type=int, default=10_000)
    parser.add_argument("--reuse", action="store_true",
                        help=f"keep the generated federation ({DATABASE}_<size>) if its spec is the same")
    parser.add_argument("--burst-seconds", type=float, default=900, help="time limit of each ingest burst")
    parser.add_argument("--drain-seconds", type=float, default=600, help="time limit of each mailer drain")
    parser.add_argument("--profile-letters", type=int, default=300,
                        help="letters ingested under cProfile after the bursts (0: none)")
    parser.add_argument("--profile-pages", type=int, default=5,
                        help="requests of each kind timed alone after the load, then profiled (0: none)")
    parser.add_argument("--phases", default="web,pages,mail", type=lambda text: set(text.split(",")),
                        help="which of web (the load), pages (each kind alone, profiled), "
                             "mail (ingest bursts, mailer drains, ingest profile) to run")
    parser.add_argument("--generate-only", action="store_true", help="only generate the federation")
    options = parser.parse_args()
    spec = FederationSpec(players=max(23, int(1000 * options.scale)),
                          tournaments=max(1, int(200 * options.scale)))
    template = prepared_template(spec, reuse=options.reuse)
    if options.generate_only:
        return
    url = fresh_copy(template)
    token = api_token(url)
    if "web" in options.phases:
        web_load(url, token, workers=options.web_workers, threads=options.web_threads,
                 clients=options.clients,
                 requests=options.requests, seconds=options.seconds)
    if options.profile_pages and "pages" in options.phases:
        web_profile(url, token, options.profile_pages)
    if "mail" not in options.phases:
        return
    with tempfile.TemporaryDirectory() as workdir:
        letters = options.letters
        ranges = ingest_burst(url, spec, letters, Path(workdir), options.burst_seconds)
        mailer_drain(url, ranges, options.drain_seconds)
        if options.profile_letters:
            ingest_profile(url, spec, options.profile_letters, 3 * letters, Path(workdir))


if __name__ == "__main__":
    main()
