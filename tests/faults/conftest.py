"""Fixtures of the fault tests: letters in the outbox, a stoppable SMTP server, a clock, and a
PostgreSQL server of the tests' own that they may stop, crash and restart.

``private_postgres`` (module scope) is that server: a cluster made with ``initdb`` in a fresh
temporary directory, listening on a free loopback port (TCP only, trust auth), with one migrated
template database. The shared server at 127.0.0.1:5432 serves every xdist worker at once and
must never be restarted; each worker gets its own private cluster instead (own directory, own
port), stopped and deleted when the module ends, whether its tests passed or not. Run as root,
the server runs as the ``postgres`` user (PostgreSQL refuses to run as root); as anyone else, as
that user. The binaries come from ``CORRMAIL_TEST_PG_BINDIR``, ``pg_ctl`` on the ``PATH``, or
the newest ``/usr/lib/postgresql/<version>/bin`` (Debian). Without them the tests fail under
``CI`` and are skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import datetime as dt
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from corrmail.db import Database
from corrmail.letters.outbox import enqueue
from corrmail.mail.compose import OutgoingLetter, build_message
from corrmail.migrate import upgrade

T0 = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)


class FakeClock:
    def __init__(self, now: dt.datetime = T0) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def put_letters(database: Database, count: int, *, at: dt.datetime = T0) -> list[str]:
    """``count`` letters due at ``at``; returns their Message-IDs."""
    ids = []
    with database.transaction() as session:
        for number in range(count):
            message_id = f"<fault{number}@turnir.example>"
            row = enqueue(session, build_message(OutgoingLetter(
                message_id=message_id, from_address="turnir@turnir.example",
                to=[f"player{number}@example.org"], subject=f"Ход {number}",
                text=f"Мой ход: {number}\n", date=at,
            )), kind="move")
            row.next_attempt_at = at
            row.envelope_sender = "bounce@turnir.example"
            ids.append(message_id)
    return ids


@dataclass
class Recorder:
    """An aiosmtpd handler that keeps every accepted message's Message-ID."""

    message_ids: list[str] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from email import message_from_bytes

        message = message_from_bytes(bytes(envelope.original_content or envelope.content))
        self.message_ids.append(str(message["Message-ID"]))
        return "250 OK"


# --- a PostgreSQL server of our own ------------------------------------------------------------


def _postgres_bindir() -> Path:
    """Where ``initdb`` and ``pg_ctl`` are; raises LookupError naming every place looked at."""
    looked = []
    configured = os.environ.get("CORRMAIL_TEST_PG_BINDIR")
    if configured:
        looked.append(configured)
        if (Path(configured) / "pg_ctl").exists():
            return Path(configured)
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    looked.append("pg_ctl on PATH")
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                    key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    if debian:
        return debian[-1].parent
    looked.append("/usr/lib/postgresql/*/bin")
    raise LookupError(f"no PostgreSQL server binaries (initdb, pg_ctl) in {', '.join(looked)}")


def _server_user() -> str | None:
    """The user to run the server as: ``postgres`` for root (the server refuses root), else us."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise LookupError(
            "running as root, and there is no 'postgres' user to run the server as") from None
    return "postgres"


class PrivatePostgres:
    """A PostgreSQL cluster in a temporary directory, for tests that stop and restart it."""

    def __init__(self, bindir: Path, user: str | None) -> None:
        self.bindir = bindir
        self.user = user
        self.root = Path(tempfile.mkdtemp(prefix=f"corrmail-pg-{_worker()}-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self._names = count(1)
        if user is not None:
            os.chown(self.root, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        group = pwd.getpwnam(self.user).pw_gid if self.user else None
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]], user=self.user, group=group,
            extra_groups=[] if self.user else None, capture_output=True,
            text=True, check=check, timeout=120, cwd=self.root,
            env={**os.environ, "LC_ALL": "C.UTF-8", "PGTZ": "UTC"},
        )

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync", "--no-instructions")
        with (self.data / "postgresql.conf").open("a") as conf:
            # TCP on loopback only; no Unix socket, so nothing else on the machine can collide.
            # fsync off: an immediate stop kills processes, not the machine, so every write the
            # server made is still in the page cache and crash recovery is exercised all the same.
            conf.write("listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\n"
                       "fsync = off\nmax_connections = 60\ntimezone = 'UTC'\n")

    def start(self) -> None:
        """Start the server (crash recovery included) and wait until it accepts connections."""
        for _ in range(5):
            if not self.port:
                self.port = free_port()
            logged = self.log.stat().st_size if self.log.exists() else 0
            started = self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log),
                                "-w", "-t", "60", "-o", f"-p {self.port}", check=False)
            if started.returncode == 0:
                return
            if "could not bind" not in self.log.read_text(errors="replace")[logged:]:
                break
            self.port = 0  # another process took the port between probing and binding
        raise RuntimeError(f"private PostgreSQL did not start: {started.stderr}\n"
                           f"{self.log.read_text(errors='replace')[-2000:]}")

    def stop(self, mode: str) -> None:
        """``immediate`` kills every server process at once, like a crash (recovery on the next
        start); ``fast`` rolls back open transactions and disconnects every client."""
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "60")

    def running(self) -> bool:
        return self._run("pg_ctl", "status", "-D", str(self.data), check=False).returncode == 0

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str | None = None) -> str:
        """A new database (a copy of ``template``); returns its URL."""
        name = f"db{next(self._names)}"
        admin = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as connection:
                # A file copy costs a checkpoint, which with fsync off is cheaper than writing
                # the whole template through the WAL (the default strategy).
                connection.execute(text(
                    f'CREATE DATABASE "{name}" STRATEGY FILE_COPY'
                    + (f' TEMPLATE "{template}"' if template else "")
                ))
        finally:
            admin.dispose()
        return self.url(name)

    def destroy(self) -> None:
        if self.data.exists() and self.running():
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w", check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


TEMPLATE = "corrmail_template"


@pytest.fixture(scope="module")
def private_postgres() -> Iterator[PrivatePostgres]:
    """A running private server whose ``TEMPLATE`` database is migrated; deleted at the end."""
    try:
        server = PrivatePostgres(_postgres_bindir(), _server_user())
    except LookupError as error:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL restart tests: {error}", pytrace=False)
        pytest.skip(f"!!! POSTGRESQL RESTART TESTS SKIPPED !!! {error}")
    try:
        server.init()
        server.start()
        template_url = server.create_database()
        upgrade(template_url)
        admin = create_engine(server.url(), isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(
                f'ALTER DATABASE "{make_url(template_url).database}" RENAME TO "{TEMPLATE}"'))
        admin.dispose()
        yield server
    finally:
        server.destroy()
