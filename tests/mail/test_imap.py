"""``corrmail poll`` against a real IMAP server: Debian's Dovecot on loopback (tests/mail/dovecot.py).

The cursor lives in ``imap_cursors`` (migration 0006) and moves only after the inbox stored a
message; a renumbered folder (new UIDVALIDITY) is read again and the inbox's deduplication keeps
every letter applied once; a server that goes away mid-poll loses nothing.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from corrmail.config import SettingsError
from corrmail.mail.cli import poll
from corrmail.mail.imap import (
    ImapCursor,
    ImapPoller,
    ImapRefused,
    ImapSettings,
    ImapToolsSource,
    open_source,
)
from corrmail.mail.inbox import Inbox, Receipt, TemporaryFailure
from corrmail.models import ImapFolderCursor, InboundMessage
from tests.mail.dovecot import DOVECOT, PASSWORD, USER, Dovecot, start_dovecot

WHEN = dt.datetime(2026, 3, 2, 7, tzinfo=dt.UTC)
_folders = itertools.count(1)
#: For tests whose database statements are the ones the tests above already run on both backends:
#: the server side is what they check, and the module has to stay quick.
sqlite_only = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


def _require_dovecot() -> None:
    if not os.path.exists(DOVECOT):
        message = f"{DOVECOT} is missing; ./test installs Debian's dovecot-imapd"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    """One server per module (per xdist worker); each test polls a folder of its own."""
    _require_dovecot()
    server = start_dovecot()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def folder(dovecot: Dovecot) -> str:
    name = f"Turnir-{os.getpid()}-{next(_folders)}"
    dovecot.create_folder(name)
    return name


def settings_for(server: Dovecot, folder: str, *, tls: bool = False,
                 ca_file: str | None = None) -> ImapSettings:
    return ImapSettings(host="127.0.0.1", user=USER, password=PASSWORD, folder=folder,
                        port=server.tls_port if tls else server.port, ssl=tls, ca_file=ca_file,
                        timeout=20)


def env_for(email_game, db_url: str, server: Dovecot, folder: str, **extra: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    settings = email_game.writer.settings
    env = {
        "CORRMAIL_DATABASE_URL": db_url,
        "CORRMAIL_MAIL_SECRET": settings.secret.decode(),
        "CORRMAIL_MAIL_DOMAIN": settings.domain,
        "CORRMAIL_SMTP_HOST": "",
        "CORRMAIL_IMAP_HOST": "127.0.0.1",
        "CORRMAIL_IMAP_PORT": str(server.port),
        "CORRMAIL_IMAP_USER": USER,
        "CORRMAIL_IMAP_PASSWORD": PASSWORD,
        "CORRMAIL_IMAP_FOLDER": folder,
        "CORRMAIL_IMAP_SSL": "no",
        "CORRMAIL_IMAP_CA_FILE": "",
        "CORRMAIL_IMAP_TIMEOUT": "20",
    }
    env.update(extra)
    return env


def run_poll(env: dict[str, str], tmp_path: Path, *args: str) -> tuple[int, str]:
    # --state in tmp_path: the default (var/ of the checkout) must not be imported by a test.
    result = CliRunner().invoke(poll, ["--once", "--state", str(tmp_path / "old-cursor.json"),
                                       *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def moves(email_game) -> list[str]:  # type: ignore[no-untyped-def]
    """The moves of every letter in the game's ledger, in order."""
    return [letter.moves_text for letter in email_game.game().letters]


def inbound_rows(email_game) -> list[InboundMessage]:  # type: ignore[no-untyped-def]
    with email_game.database.session() as session:
        return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


def cursor_rows(email_game) -> list[tuple[str, str, str, int, int]]:  # type: ignore[no-untyped-def]
    with email_game.database.session() as session:
        return [tuple(row) for row in session.execute(select(  # type: ignore[misc]
            ImapFolderCursor.host, ImapFolderCursor.username, ImapFolderCursor.folder,
            ImapFolderCursor.uidvalidity, ImapFolderCursor.last_uid))]


def test_poll_ingests_once_and_follows_the_cursor(email_game, db_url: str, dovecot: Dovecot,  # type: ignore[no-untyped-def]
                                                   folder: str, tmp_path: Path) -> None:
    dovecot.append(folder, email_game.raw("white", "1. c3-d4", when=WHEN))
    dovecot.append(folder, email_game.raw("white", "Здравствуйте, Сергей!", when=WHEN))
    validity = dovecot.status(folder)["UIDVALIDITY"]
    env = env_for(email_game, db_url, dovecot, folder)

    code, output = run_poll(env, tmp_path)
    assert code == 0, output
    assert "fetched 2: new 2, duplicates 0, cursor at UID 2" in output
    rows = inbound_rows(email_game)
    # A greeting without a move is answered, not applied: both are stored once, from IMAP.
    assert [(row.source, row.outcome) for row in rows] == [("imap", "move_relayed"),
                                                           ("imap", "not_understood")]
    assert moves(email_game) == ["c3-d4"]
    assert cursor_rows(email_game) == [("127.0.0.1", USER, folder, validity, 2)]
    assert dovecot.status(folder)["UNSEEN"] == 2, "BODY.PEEK: the mailbox is left unread"

    code, output = run_poll(env, tmp_path)
    assert code == 0 and "fetched 0: new 0, duplicates 0, cursor at UID 2" in output
    assert len(inbound_rows(email_game)) == 2

    dovecot.append(folder, email_game.raw("black", "1. c3-d4 f6-g5", when=WHEN))
    code, output = run_poll(env, tmp_path)
    assert code == 0 and "fetched 1: new 1, duplicates 0, cursor at UID 3" in output
    assert moves(email_game) == ["c3-d4", "f6-g5"]
    assert cursor_rows(email_game) == [("127.0.0.1", USER, folder, validity, 3)]


def test_a_renumbered_folder_is_read_again_and_nothing_is_applied_twice(  # type: ignore[no-untyped-def]
        email_game, dovecot: Dovecot, folder: str) -> None:
    dovecot.append(folder, email_game.raw("white", "1. c3-d4", when=WHEN))
    dovecot.append(folder, email_game.raw("black", "1. c3-d4 f6-g5", when=WHEN))
    settings = settings_for(dovecot, folder)
    poller = ImapPoller(email_game.inbox, settings)
    with open_source(settings) as source:
        first = poller.poll(source)
    assert (first.new, first.restarted) == (2, False)
    old_validity = dovecot.status(folder)["UIDVALIDITY"]
    assert poller.load() == ImapCursor(old_validity, 2)

    # The server rebuilt its indexes: same messages, same UIDs, a new UIDVALIDITY. The old
    # cursor says "past UID 2", which no longer means anything.
    new_validity = old_validity + 1000
    dovecot.renumber(folder, new_validity)
    dovecot.append(folder, email_game.raw("white", "1... f6-g5 2. b2-c3", when=WHEN))
    with open_source(settings) as source:
        again = poller.poll(source)
    assert again.restarted
    assert (again.fetched, again.duplicates, again.new) == (3, 2, 1)
    assert poller.load() == ImapCursor(new_validity, 3)
    assert moves(email_game) == ["c3-d4", "f6-g5", "b2-c3"]
    assert len(inbound_rows(email_game)) == 3


def test_a_server_gone_mid_poll_loses_nothing(email_game, db_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _require_dovecot()
    server = start_dovecot()  # its own: this test stops it
    try:
        server.create_folder("INBOX.turnir")
        for side, text in (("white", "1. c3-d4"), ("black", "1. c3-d4 f6-g5"), ("white", "1... f6-g5 2. b2-c3")):
            server.append("INBOX.turnir", email_game.raw(side, text, when=WHEN))
        settings = settings_for(server, "INBOX.turnir")

        class StopsTheServer(Inbox):
            """The real inbox; the server is shut down once the first message is stored."""

            def receive(self, raw: bytes, **kwargs: object) -> Receipt:
                receipt = super().receive(raw, **kwargs)  # type: ignore[arg-type]
                server.stop()
                return receipt

        poller = ImapPoller(StopsTheServer(email_game.database, email_game.writer), settings)
        with open_source(settings) as source:
            cut = poller.poll(source)
        assert (cut.fetched, cut.new) == (1, 1)
        assert cut.interrupted is not None and "IMAP 127.0.0.1" in cut.interrupted
        validity = poller.load()
        assert validity is not None and validity.last_uid == 1, "only the stored message is passed"

        # While it is down the command says so and exits 75, as `ingest` does.
        env = env_for(email_game, db_url, server, "INBOX.turnir")
        code, output = run_poll(env, tmp_path)
        assert code == 75 and "poll interrupted" in output and "ConnectionRefusedError" in output

        server.start()
        code, output = run_poll(env, tmp_path)
        assert code == 0 and "fetched 2: new 2, duplicates 0, cursor at UID 3" in output
        rows = inbound_rows(email_game)
        assert [row.outcome for row in rows] == ["move_relayed"] * 3
        assert moves(email_game) == [
            "c3-d4", "f6-g5", "b2-c3"]
    finally:
        server.close()


@sqlite_only
def test_the_running_poller_rides_out_a_server_restart(email_game, db_url: str,  # type: ignore[no-untyped-def]
                                                      tmp_path: Path) -> None:
    """``corrmail poll`` as deployed (a process polling every interval, stopped by SIGTERM)."""
    _require_dovecot()
    server = start_dovecot()
    env = {**os.environ, **env_for(email_game, db_url, server, "INBOX")}
    process = subprocess.Popen(
        [sys.executable, "-m", "corrmail.mail", "poll", "--interval", "0.2",
         "--state", str(tmp_path / "old-cursor.json")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.extend(process.stderr or []), daemon=True)
    reader.start()

    def wait_for(what: str, condition: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 90
        while not condition():
            assert process.poll() is None, f"the poller exited: {''.join(errors)}"
            assert time.monotonic() < deadline, f"waited in vain for {what}: {''.join(errors)}"
            time.sleep(0.1)

    try:
        server.append("INBOX", email_game.raw("white", "1. c3-d4", when=WHEN))
        wait_for("the first letter", lambda: len(inbound_rows(email_game)) == 1)
        server.stop()
        wait_for("the poller to notice", lambda: any("poll interrupted" in line for line in errors))
        server.start()
        server.append("INBOX", email_game.raw("black", "1. c3-d4 f6-g5", when=WHEN))
        wait_for("the second letter", lambda: len(inbound_rows(email_game)) == 2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0, "".join(errors)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=60)
        server.close()
    assert moves(email_game) == ["c3-d4", "f6-g5"]
    assert [row[4] for row in cursor_rows(email_game)] == [2]


@sqlite_only
def test_the_cursor_waits_for_the_inbox(email_game, dovecot: Dovecot, folder: str) -> None:  # type: ignore[no-untyped-def]
    """A message the inbox could not store now (database unavailable) is fetched again."""
    for text in ("1. c3-d4", "Привет"):
        dovecot.append(folder, email_game.raw("white", text, when=WHEN))
    settings = settings_for(dovecot, folder)

    class DatabaseGoneAtSecond(Inbox):
        calls = 0

        def receive(self, raw: bytes, **kwargs: object) -> Receipt:
            DatabaseGoneAtSecond.calls += 1
            if DatabaseGoneAtSecond.calls == 2:
                raise TemporaryFailure("cannot store the message: the database is unavailable")
            return super().receive(raw, **kwargs)  # type: ignore[arg-type]

    poller = ImapPoller(DatabaseGoneAtSecond(email_game.database, email_game.writer), settings)
    with open_source(settings) as source:
        report = poller.poll(source)
    assert (report.new, report.last_uid) == (1, 1)
    assert report.interrupted == "cannot store the message: the database is unavailable"
    with open_source(settings) as source:
        report = poller.poll(source)
    assert (report.fetched, report.new, report.last_uid, report.interrupted) == (1, 1, 2, None)
    assert len(inbound_rows(email_game)) == 2


@sqlite_only
def test_a_message_expunged_after_the_search_is_passed_over(email_game, dovecot: Dovecot,  # type: ignore[no-untyped-def]
                                                           folder: str) -> None:
    """Another client deletes UID 1 between our UID SEARCH and our UID FETCH."""
    dovecot.append(folder, email_game.raw("white", "Удалю это письмо", when=WHEN))
    dovecot.append(folder, email_game.raw("white", "1. c3-d4", when=WHEN))
    settings = settings_for(dovecot, folder)

    class ExpungedMeanwhile(ImapToolsSource):
        def uids_after(self, uid: int) -> list[int]:
            found = super().uids_after(uid)
            with dovecot.client() as other:
                other.select(folder)
                other.uid("store", "1", "+FLAGS", "(\\Deleted)")
                other.expunge()
            return found

    poller = ImapPoller(email_game.inbox, settings)
    with open_source(settings) as opened:
        report = poller.poll(ExpungedMeanwhile(opened.mailbox, settings))
    assert (report.fetched, report.new, report.last_uid, report.interrupted) == (1, 1, 2, None)
    assert moves(email_game) == ["c3-d4"]


@sqlite_only
def test_tls_with_a_private_ca(email_game, db_url: str, dovecot: Dovecot, folder: str,  # type: ignore[no-untyped-def]
                               tmp_path: Path) -> None:
    dovecot.append(folder, email_game.raw("white", "1. c3-d4", when=WHEN))
    tls = {"CORRMAIL_IMAP_SSL": "yes", "CORRMAIL_IMAP_PORT": str(dovecot.tls_port)}
    env = env_for(email_game, db_url, dovecot, folder, **tls)

    # imaplib alone would accept the self-signed certificate; the poller verifies it.
    code, output = run_poll(env, tmp_path)
    assert code == 1
    assert "certificate not trusted" in output and "CORRMAIL_IMAP_CA_FILE" in output
    assert inbound_rows(email_game) == []

    env["CORRMAIL_IMAP_CA_FILE"] = str(dovecot.cert)
    plain_port = {**env, "CORRMAIL_IMAP_PORT": str(dovecot.port)}
    code, output = run_poll(plain_port, tmp_path)
    assert code == 1 and "TLS failed" in output and "CORRMAIL_IMAP_SSL" in output, output

    code, output = run_poll(env, tmp_path)
    assert code == 0 and "fetched 1: new 1" in output, output
    assert moves(email_game) == ["c3-d4"]


@sqlite_only
def test_refusals_are_one_clear_line(email_game, db_url: str, dovecot: Dovecot, folder: str,  # type: ignore[no-untyped-def]
                                     tmp_path: Path) -> None:
    env = env_for(email_game, db_url, dovecot, folder, CORRMAIL_IMAP_PASSWORD="wrong")
    code, output = run_poll(env, tmp_path)
    assert code == 1 and f"login as '{USER}' refused" in output

    env = env_for(email_game, db_url, dovecot, "Nowhere")
    code, output = run_poll(env, tmp_path)
    assert code == 1 and "cannot open folder 'Nowhere'" in output
    assert cursor_rows(email_game) == []


def test_the_old_cursor_file_is_imported_once(email_game, dovecot: Dovecot, folder: str,  # type: ignore[no-untyped-def]
                                              tmp_path: Path) -> None:
    handled = email_game.raw("white", "1. c3-d4", when=WHEN)
    dovecot.append(folder, handled)
    dovecot.append(folder, email_game.raw("black", "1. c3-d4 f6-g5", when=WHEN))
    validity = dovecot.status(folder)["UIDVALIDITY"]
    settings = settings_for(dovecot, folder)
    # Before migration 0006 the poller had stored UID 1 and its file said so.
    email_game.inbox.receive(handled, source="imap")
    old = tmp_path / f"imap-cursor-{settings.account}.json"
    old.write_text(json.dumps({"uidvalidity": validity, "last_uid": 1}))

    poller = ImapPoller(email_game.inbox, settings, legacy_cursor=old)
    with open_source(settings) as source:
        report = poller.poll(source)
    assert report.imported == old
    assert (report.fetched, report.new, report.duplicates, report.last_uid) == (1, 1, 0, 2), (
        "UID 1 is not read again")
    assert not old.exists() and (tmp_path / f"{old.name}.imported").exists()

    # A file that turns up again later is not read: the database has the cursor.
    old.write_text(json.dumps({"uidvalidity": validity, "last_uid": 0}))
    with open_source(settings) as source:
        report = poller.poll(source)
    assert (report.imported, report.fetched, report.last_uid) == (None, 0, 2)
    assert old.exists()


@sqlite_only
def test_an_unreadable_old_cursor_file_costs_one_reread(email_game, dovecot: Dovecot,  # type: ignore[no-untyped-def]
                                                        folder: str, tmp_path: Path) -> None:
    dovecot.append(folder, email_game.raw("white", "1. c3-d4", when=WHEN))
    old = tmp_path / "imap-cursor.json"
    old.write_text("{not json")
    settings = settings_for(dovecot, folder)
    with open_source(settings) as source:
        report = ImapPoller(email_game.inbox, settings, legacy_cursor=old).poll(source)
    assert (report.imported, report.new, report.last_uid) == (None, 1, 1)
    assert old.read_text() == "{not json", "left for the operator to look at"


@sqlite_only
def test_each_folder_has_its_own_cursor(email_game, dovecot: Dovecot) -> None:  # type: ignore[no-untyped-def]
    first, second = (f"{prefix}-{os.getpid()}-{next(_folders)}" for prefix in "AB")
    for name, texts in ((first, ("1. c3-d4",)), (second, ("Привет", "Ещё раз"))):
        dovecot.create_folder(name)
        for text in texts:
            dovecot.append(name, email_game.raw("white", text, when=WHEN))
    for name in (first, second):
        settings = settings_for(dovecot, name)
        with open_source(settings) as source:
            ImapPoller(email_game.inbox, settings).poll(source)
    assert sorted((row[2], row[4]) for row in cursor_rows(email_game)) == [(first, 1), (second, 2)]
    with email_game.database.session() as session:
        assert session.scalar(select(func.count()).select_from(InboundMessage)) == 3


# --- settings: every bad value is one line naming the variable (no server needed) ------------

BASE_ENV = {"CORRMAIL_IMAP_HOST": "imap.example.org", "CORRMAIL_IMAP_USER": "turnir",
            "CORRMAIL_IMAP_PASSWORD": "x"}


def test_settings_defaults_and_values(tmp_path: Path) -> None:
    settings = ImapSettings.from_env(BASE_ENV)
    assert (settings.folder, settings.port, settings.ssl, settings.ca_file, settings.timeout) == (
        "INBOX", None, True, None, 60.0)
    ca = tmp_path / "ca.pem"
    ca.write_text("pem")
    settings = ImapSettings.from_env({**BASE_ENV, "CORRMAIL_IMAP_HOST": "IMAP.Example.org",
                                      "CORRMAIL_IMAP_PORT": "1993", "CORRMAIL_IMAP_CA_FILE": str(ca),
                                      "CORRMAIL_IMAP_TIMEOUT": "15", "CORRMAIL_IMAP_FOLDER": "Турнир"})
    assert (settings.port, settings.ca_file, settings.timeout, settings.folder) == (
        1993, str(ca), 15.0, "Турнир")
    assert settings.cursor_host == "imap.example.org"
    assert ImapSettings.from_env({**BASE_ENV, "CORRMAIL_IMAP_SSL": "No"}).ssl is False


@pytest.mark.parametrize(("extra", "message"), [
    ({"CORRMAIL_IMAP_HOST": ""}, "CORRMAIL_IMAP_HOST='': expected a value: polling IMAP needs it"),
    ({"CORRMAIL_IMAP_PASSWORD": ""}, "CORRMAIL_IMAP_PASSWORD='': expected a value"),
    ({"CORRMAIL_IMAP_PORT": "imaps"}, "CORRMAIL_IMAP_PORT='imaps': expected a whole number from 1 to 65535"),
    ({"CORRMAIL_IMAP_PORT": "70000"}, "CORRMAIL_IMAP_PORT='70000': expected a whole number from 1 to 65535"),
    ({"CORRMAIL_IMAP_SSL": "maybe"}, "CORRMAIL_IMAP_SSL='maybe': expected yes or no"),
    ({"CORRMAIL_IMAP_TIMEOUT": "0"}, "CORRMAIL_IMAP_TIMEOUT='0': expected a whole number of at least 1"),
    ({"CORRMAIL_IMAP_CA_FILE": "/nonexistent/ca.pem"},
     "CORRMAIL_IMAP_CA_FILE='/nonexistent/ca.pem': expected a readable PEM file"),
    ({"CORRMAIL_IMAP_CA_FILE": "/srv/ca.pem", "CORRMAIL_IMAP_SSL": "no"},
     "CORRMAIL_IMAP_CA_FILE='/srv/ca.pem': expected no value when CORRMAIL_IMAP_SSL=no"),
])
def test_bad_settings(extra: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as raised:
        ImapSettings.from_env({**BASE_ENV, **extra})
    assert message in str(raised.value)


def test_the_command_names_a_bad_setting(tmp_path: Path) -> None:
    env = {"CORRMAIL_DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite", "CORRMAIL_MAIL_SECRET": "s",
           **BASE_ENV, "CORRMAIL_IMAP_SSL": "maybe"}
    result = CliRunner().invoke(poll, ["--once"], env=env)
    assert result.exit_code == 1
    assert "CORRMAIL_IMAP_SSL='maybe': expected yes or no" in result.output


def test_refused_is_not_retried(dovecot: Dovecot) -> None:
    with pytest.raises(ImapRefused, match="login as 'nobody-here' refused"):
        with open_source(ImapSettings(host="127.0.0.1", user="nobody-here", password="x",
                                      port=dovecot.port, ssl=False, timeout=20)):
            pass

