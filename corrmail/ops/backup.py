"""Back up a running federation and restore it on a new host with nothing lost.

A backup is a directory::

    manifest.json        format, time, dialect, Alembic revision, row counts, SHA-256 of each file
    database.pgdump      PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot)
    database.sqlite      SQLite: the online backup API (consistent while the service writes)
    letters.tar          every raw letter: ``inbound/<id>.eml`` as received, ``outbox/<id>.eml`` as sent
    letters.jsonl        one line per letter: kind, id, Message-ID, SHA-256, arrival, source

The letters archive is written *after* the database dump, so it holds every letter the dump
holds and possibly a few that arrived in between. It is readable without corrmail (any mail
client opens an ``.eml``), which is what a referee needs when a letter is disputed years later.

:func:`restore` refuses a damaged backup (checksums) or a target that already holds a schema,
loads the dump, checks that the restored database is at the backup's revision and that every
letter in it is byte-identical to the archive, and hands letters that arrived after the dump to
``replay`` (``corrmail restore`` feeds them to the inbox, which stores and processes them once).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.engine import URL, make_url

from corrmail.db import Database
from corrmail.migrate import current_revision
from corrmail.models import Game, InboundMessage, Letter, OutboxMessage, Tournament

__all__ = [
    "BACKUP_FORMAT",
    "BackupError",
    "BackupManifest",
    "ChecksumMismatch",
    "LetterMismatch",
    "RestoreReport",
    "RestoreTargetNotEmpty",
    "ArchivedLetter",
    "backup",
    "restore",
    "read_manifest",
]

BACKUP_FORMAT = "corrmail-backup/1"
MANIFEST = "manifest.json"
LETTERS_TAR = "letters.tar"
LETTERS_INDEX = "letters.jsonl"
POSTGRES_DUMP = "database.pgdump"
SQLITE_COPY = "database.sqlite"
# Rows are streamed in batches this large: two million letters must not sit in memory at once.
_STREAM_BATCH = 500

Replay = Callable[["ArchivedLetter", bytes], None]


class BackupError(RuntimeError):
    """A backup or restore step failed; the message says which and why."""


class ChecksumMismatch(BackupError):
    def __init__(self, path: Path, expected: str, actual: str) -> None:
        super().__init__(f"{path}: SHA-256 {actual} differs from the manifest's {expected}")
        self.path = path
        self.expected = expected
        self.actual = actual


class RestoreTargetNotEmpty(BackupError):
    def __init__(self, url: str, tables: list[str]) -> None:
        super().__init__(
            f"{url} already holds tables ({', '.join(sorted(tables)[:5])}…); restore into a new, "
            "empty database"
        )
        self.url = url
        self.tables = tables


class LetterMismatch(BackupError):
    def __init__(self, kind: str, row_id: int, reason: str) -> None:
        super().__init__(f"{kind} letter {row_id}: {reason}")
        self.kind = kind
        self.row_id = row_id


@dataclass(frozen=True, slots=True)
class ArchivedLetter:
    """One line of ``letters.jsonl``."""

    kind: str  # "inbound" or "outbox"
    id: int
    message_id: str | None
    sha256: str  # of the archived bytes
    key_sha256: str | None = None  # inbound: the row's own key (of the full message as received)
    source: str | None = None
    envelope_sender: str | None = None
    received_at: str | None = None

    @property
    def member(self) -> str:
        return f"{self.kind}/{self.id}.eml"


@dataclass(frozen=True)
class BackupManifest:
    format: str
    created_at: str
    dialect: str
    revision: str | None
    database_file: str
    counts: dict[str, int]
    files: dict[str, str] = field(default_factory=dict)  # name -> SHA-256

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)


@dataclass
class RestoreReport:
    manifest: BackupManifest
    letters_checked: int = 0
    replayed: list[ArchivedLetter] = field(default_factory=list)


# --- backing up ---------------------------------------------------------------------------------


def backup(database_url: str, directory: Path, *, clock: Callable[[], dt.datetime] | None = None) -> BackupManifest:
    """Write a backup of ``database_url`` into ``directory`` (created; must not hold files)."""
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        raise BackupError(f"{directory} is not empty; every backup gets a directory of its own")
    directory.mkdir(parents=True, exist_ok=True)
    url = make_url(database_url)
    database = Database(database_url)
    try:
        revision = current_revision(database.engine)
        counts = _counts(database)
        if url.get_backend_name() == "postgresql":
            database_file = POSTGRES_DUMP
            _pg_dump(url, directory / database_file)
        elif url.get_backend_name() == "sqlite":
            database_file = SQLITE_COPY
            _sqlite_copy(_sqlite_path(url), directory / database_file)
        else:
            raise BackupError(f"cannot back up a {url.get_backend_name()} database")
        _write_letters(database, directory)
    finally:
        database.dispose()
    now = (clock or (lambda: dt.datetime.now(dt.UTC)))()
    files = {name: _sha256_file(directory / name) for name in (database_file, LETTERS_TAR, LETTERS_INDEX)}
    manifest = BackupManifest(
        format=BACKUP_FORMAT,
        created_at=now.isoformat(timespec="seconds"),
        dialect=url.get_backend_name(),
        revision=revision,
        database_file=database_file,
        counts=counts,
        files=files,
    )
    (directory / MANIFEST).write_text(manifest.to_json() + "\n", encoding="utf-8")
    return manifest


def _counts(database: Database) -> dict[str, int]:
    with database.session() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Tournament, Game, Letter, InboundMessage, OutboxMessage)
        }


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The URL for pg_dump/pg_restore, and an environment carrying the password (never argv)."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    executable = shutil.which(command[0])
    if executable is None:
        raise BackupError(f"{command[0]} is not installed (Debian: apt-get install postgresql-client)")
    result = subprocess.run([executable, *command[1:]], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{what} failed ({result.returncode}): {result.stderr.strip()}")


def _pg_dump(url: URL, target: Path) -> None:
    dsn, env = _libpq(url)
    _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={target}", dsn],
         env, "pg_dump")


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("an in-memory SQLite database cannot be backed up")
    return Path(url.database)


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy even while the mailer writes (WAL included)."""
    if not source.is_file():
        raise BackupError(f"no SQLite database at {source}")
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    with sqlite3.connect(target) as dst:
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file


def _write_letters(database: Database, directory: Path) -> None:
    with (
        database.session() as session,
        tarfile.open(directory / LETTERS_TAR, "w") as archive,
        (directory / LETTERS_INDEX).open("w", encoding="utf-8") as index,
    ):
        inbound = session.execute(
            select(InboundMessage.id, InboundMessage.message_id, InboundMessage.sha256,
                   InboundMessage.raw, InboundMessage.source, InboundMessage.envelope_sender,
                   InboundMessage.received_at)
            .order_by(InboundMessage.id)
            .execution_options(yield_per=_STREAM_BATCH)
        )
        for row in inbound:
            entry = ArchivedLetter(
                kind="inbound", id=row.id, message_id=row.message_id, sha256=_sha256(row.raw),
                key_sha256=row.sha256, source=row.source, envelope_sender=row.envelope_sender,
                received_at=row.received_at.isoformat(),
            )
            _add(archive, index, entry, row.raw, row.received_at)
        outbox = session.execute(
            select(OutboxMessage.id, OutboxMessage.message_id, OutboxMessage.raw,
                   OutboxMessage.created_at)
            .order_by(OutboxMessage.id)
            .execution_options(yield_per=_STREAM_BATCH)
        )
        for sent in outbox:
            entry = ArchivedLetter(kind="outbox", id=sent.id, message_id=sent.message_id,
                                   sha256=_sha256(sent.raw))
            _add(archive, index, entry, sent.raw, sent.created_at)


def _add(archive: tarfile.TarFile, index: io.TextIOBase, entry: ArchivedLetter, raw: bytes,
         moment: dt.datetime) -> None:
    info = tarfile.TarInfo(entry.member)
    info.size = len(raw)
    info.mtime = int(moment.timestamp())
    info.mode = 0o640
    archive.addfile(info, io.BytesIO(raw))
    index.write(json.dumps(asdict(entry), ensure_ascii=False, sort_keys=True) + "\n")


# --- restoring ----------------------------------------------------------------------------------


def read_manifest(directory: Path) -> BackupManifest:
    """The manifest, after checking every file against its SHA-256."""
    path = Path(directory) / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BackupError(f"{directory} holds no {MANIFEST}: not a corrmail backup") from None
    except json.JSONDecodeError as error:
        raise BackupError(f"{path}: not JSON ({error})") from None
    if data.get("format") != BACKUP_FORMAT:
        raise BackupError(f"{path}: format {data.get('format')!r}, expected {BACKUP_FORMAT!r}")
    manifest = BackupManifest(**data)
    for name, expected in manifest.files.items():
        actual = _sha256_file(Path(directory) / name)
        if actual != expected:
            raise ChecksumMismatch(Path(directory) / name, expected, actual)
    return manifest


def restore(directory: Path, database_url: str, *, replay: Replay | None = None) -> RestoreReport:
    """Load the backup in ``directory`` into the new, empty database at ``database_url``.

    Letters in the archive that the dump lacks (they arrived while the backup ran) go to
    ``replay``; without one they are only reported.
    """
    directory = Path(directory)
    manifest = read_manifest(directory)
    url = make_url(database_url)
    if url.get_backend_name() != manifest.dialect:
        raise BackupError(
            f"the backup is of a {manifest.dialect} database; restore it into {manifest.dialect}, "
            f"not {url.get_backend_name()}"
        )
    if manifest.dialect == "postgresql":
        _ensure_postgres_database(url)
        _refuse_non_empty(database_url)
        dsn, env = _libpq(url)
        _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error",
              "--single-transaction", f"--dbname={dsn}", str(directory / manifest.database_file)],
             env, "pg_restore")
    else:
        target = _sqlite_path(url)
        if target.exists() and target.stat().st_size > 0:
            _refuse_non_empty(database_url)
        target.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(directory / manifest.database_file, target)

    database = Database(database_url)
    try:
        if manifest.dialect == "postgresql":
            # pg_restore brings no planner statistics: until ANALYZE the planner takes every
            # table for empty and keeps sequential-scan plans (seen in the load benchmark).
            with database.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(text("ANALYZE"))
        revision = current_revision(database.engine)
        if revision != manifest.revision:
            raise BackupError(f"restored revision {revision}, the backup has {manifest.revision}")
        report = RestoreReport(manifest)
        missing = _verify_letters(database, directory, report)
    finally:
        database.dispose()
    for entry, raw in missing:
        if replay is not None:
            replay(entry, raw)
        report.replayed.append(entry)
    return report


def _ensure_postgres_database(url: URL) -> None:
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": url.database}
            ).first()
            if exists is None:
                quoted = admin.dialect.identifier_preparer.quote(str(url.database))
                connection.execute(text(f"CREATE DATABASE {quoted}"))
    finally:
        admin.dispose()


def _refuse_non_empty(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        tables = inspect(engine).get_table_names()
    finally:
        engine.dispose()
    if tables:
        raise RestoreTargetNotEmpty(make_url(database_url).render_as_string(hide_password=True), tables)


def _archived(directory: Path) -> Iterator[tuple[ArchivedLetter, bytes]]:
    with (
        (directory / LETTERS_INDEX).open(encoding="utf-8") as index,
        tarfile.open(directory / LETTERS_TAR) as archive,
    ):
        for line in index:
            entry = ArchivedLetter(**json.loads(line))
            member = archive.extractfile(entry.member)
            if member is None:
                raise LetterMismatch(entry.kind, entry.id, f"{entry.member} missing from {LETTERS_TAR}")
            raw = member.read()
            if _sha256(raw) != entry.sha256:
                raise LetterMismatch(entry.kind, entry.id, "archived bytes differ from the index")
            yield entry, raw


def _verify_letters(
    database: Database, directory: Path, report: RestoreReport
) -> list[tuple[ArchivedLetter, bytes]]:
    """Every restored letter equals its archived bytes; returns archived letters the dump lacks."""
    missing: list[tuple[ArchivedLetter, bytes]] = []
    raw_of = {
        "inbound": lambda row_id: select(InboundMessage.raw).where(InboundMessage.id == row_id),
        "outbox": lambda row_id: select(OutboxMessage.raw).where(OutboxMessage.id == row_id),
    }
    with database.session() as session:
        for entry, raw in _archived(directory):
            stored = session.scalar(raw_of[entry.kind](entry.id))
            if stored is None:
                if entry.kind == "inbound":
                    missing.append((entry, raw))
                continue
            if _sha256(stored) != entry.sha256:
                raise LetterMismatch(entry.kind, entry.id, "restored bytes differ from the archive")
            report.letters_checked += 1
    return missing


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
