"""``corrmail poll``: fetching new messages from an IMAP mailbox, by UID, into the inbox.

Only UIDs above the last one handled are fetched (``BODY.PEEK[]``, so nothing is marked read:
the mailbox stays as the players' mail clients and the operator left it), in order.

The cursor — the folder's UIDVALIDITY and the last UID handled — is a row of ``imap_cursors``
keyed by (host, user, folder), so it lives and is backed up with the messages it points at. It
advances only after :meth:`Inbox.receive` returned for that UID, that is after the raw message
was committed and processed (or recorded as failed). A crash, a dropped connection or a database
outage in between leaves the cursor before the message, and the next poll fetches it again: the
inbox deduplicates by Message-ID and SHA-256, and a message stored but not yet processed is
processed when it arrives again. Nothing is lost and nothing is applied twice.

If the folder's UIDVALIDITY changes, the server renumbered it (RFC 3501 §2.3.1.1): the old UIDs
mean nothing, the cursor is reset to the new UIDVALIDITY and UID 0, and the folder is read again
from the start — every message already stored comes back as a duplicate.

Before migration 0006 the cursor was a JSON file (``var/imap-cursor-<account>.json`` or the
``--state`` path). The first poll that finds no row for its folder imports that file once and
renames it to ``….json.imported``.

TLS is verified against the system's CA store, or ``CORRMAIL_IMAP_CA_FILE`` for a server with a
private CA: imaplib alone would accept any certificate and hand the password to whoever answers.
"""

from __future__ import annotations

import datetime as dt
import imaplib
import json
import logging
import os
import re
import ssl
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from imap_tools import AND, MailBox, MailBoxUnencrypted
from imap_tools.errors import ImapToolsError, MailboxFolderSelectError, MailboxLoginError
from imap_tools.query import U
from sqlalchemy import ColumnElement, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from corrmail.config import SettingsError, whole_number
from corrmail.mail.errors import MailError
from corrmail.mail.inbox import Inbox, Source, TemporaryFailure
from corrmail.models import ImapFolderCursor, utcnow

__all__ = [
    "ImapSettings",
    "ImapSource",
    "ImapToolsSource",
    "ImapCursor",
    "ImapPoller",
    "ImapUnavailable",
    "ImapRefused",
    "PollReport",
    "open_source",
]

log = logging.getLogger(__name__)

_YES = ("1", "yes", "true", "on")
_NO = ("0", "no", "false", "off")


class ImapUnavailable(MailError):
    """The server could not be reached or dropped the connection: poll again later."""


class ImapRefused(MailError):
    """The server refused us (login, folder, certificate): the operator must fix the settings."""


@dataclass(frozen=True, slots=True)
class ImapSettings:
    host: str
    user: str
    password: str
    folder: str = "INBOX"
    port: int | None = None
    ssl: bool = True
    #: Trust this CA bundle for the server's certificate instead of the system store.
    ca_file: str | None = None
    #: Seconds for connecting and for every command after.
    timeout: float = 60.0

    @property
    def account(self) -> str:
        """The name the cursor file had before migration 0006 (``imap-cursor-<account>.json``)."""
        return re.sub(r"[^A-Za-z0-9.@-]+", "_", f"{self.user}@{self.host}-{self.folder}")

    @property
    def cursor_host(self) -> str:
        return self.host.strip().lower()  # host names are case-insensitive; one folder, one row

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ImapSettings:
        """``CORRMAIL_IMAP_HOST``, ``_USER``, ``_PASSWORD``, ``_FOLDER``, ``_PORT``, ``_SSL``,
        ``_CA_FILE``, ``_TIMEOUT``."""
        env = os.environ if env is None else env
        missing = [name for name in ("HOST", "USER", "PASSWORD") if not env.get(f"CORRMAIL_IMAP_{name}")]
        if missing:
            raise SettingsError(f"CORRMAIL_IMAP_{missing[0]}", "", "expected a value: polling IMAP needs it")
        raw_ssl = env.get("CORRMAIL_IMAP_SSL", "yes").strip().lower()
        if raw_ssl not in _YES + _NO:
            raise SettingsError("CORRMAIL_IMAP_SSL", raw_ssl, "expected yes or no")
        use_ssl = raw_ssl in _YES
        ca_file = env.get("CORRMAIL_IMAP_CA_FILE", "").strip() or None
        if ca_file is not None:
            if not use_ssl:
                raise SettingsError("CORRMAIL_IMAP_CA_FILE", ca_file,
                                    "expected no value when CORRMAIL_IMAP_SSL=no (nothing to verify)")
            if not Path(ca_file).is_file():
                raise SettingsError("CORRMAIL_IMAP_CA_FILE", ca_file, "expected a readable PEM file")
        folder = env.get("CORRMAIL_IMAP_FOLDER", "").strip() or "INBOX"
        return cls(
            host=env["CORRMAIL_IMAP_HOST"].strip(),
            user=env["CORRMAIL_IMAP_USER"],
            password=env["CORRMAIL_IMAP_PASSWORD"],
            folder=folder,
            port=whole_number(env, "CORRMAIL_IMAP_PORT", 0, maximum=65535) or None,
            ssl=use_ssl,
            ca_file=ca_file,
            timeout=float(whole_number(env, "CORRMAIL_IMAP_TIMEOUT", 60)),
        )


class ImapSource(Protocol):
    """What the poller needs of a mailbox (one folder, opened).

    A dropped connection surfaces as :class:`ImapUnavailable` from any of these.
    """

    def uidvalidity(self) -> int: ...

    def uids_after(self, uid: int) -> list[int]: ...

    def fetch_raw(self, uid: int) -> bytes | None: ...


@contextmanager
def _imap_errors(settings: ImapSettings) -> Iterator[None]:
    """imaplib's and imap-tools' exceptions, sorted into "try later" and "fix the settings"."""
    where = f"IMAP {settings.host}:{settings.port or (993 if settings.ssl else 143)}"
    try:
        yield
    except ssl.SSLCertVerificationError as error:
        raise ImapRefused(
            f"{where}: certificate not trusted ({error.verify_message}); "
            "set CORRMAIL_IMAP_CA_FILE to the CA that signed it"
        ) from error
    except (ssl.SSLEOFError, ssl.SSLZeroReturnError) as error:
        raise ImapUnavailable(f"{where}: connection closed during TLS ({error})") from error
    except ssl.SSLError as error:
        # A handshake that fails the same way every time: usually TLS spoken to a plain port.
        raise ImapRefused(
            f"{where}: TLS failed ({error.reason or error}); check CORRMAIL_IMAP_SSL and "
            "CORRMAIL_IMAP_PORT (implicit TLS is port 993)"
        ) from error
    except MailboxLoginError as error:
        raise ImapRefused(f"{where}: login as {settings.user!r} refused ({error})") from error
    except MailboxFolderSelectError as error:
        raise ImapRefused(f"{where}: cannot open folder {settings.folder!r} ({error})") from error
    except (OSError, imaplib.IMAP4.abort) as error:
        raise ImapUnavailable(
            f"{where}: {type(error).__name__}: {str(error) or 'connection lost'}"
        ) from error
    except (imaplib.IMAP4.error, ImapToolsError) as error:
        raise ImapRefused(f"{where}: {type(error).__name__}: {error}") from error


class ImapToolsSource:
    """An opened folder through imap-tools; raw bytes via the underlying imaplib client."""

    def __init__(self, mailbox: MailBox | MailBoxUnencrypted, settings: ImapSettings) -> None:
        self.mailbox = mailbox
        self.settings = settings
        self.folder = settings.folder

    def uidvalidity(self) -> int:
        with _imap_errors(self.settings):
            return int(self.mailbox.folder.status(self.folder, ["UIDVALIDITY"])["UIDVALIDITY"])

    def uids_after(self, uid: int) -> list[int]:
        with _imap_errors(self.settings):
            found = self.mailbox.uids(AND(uid=U(str(uid + 1), "*")))
        # "n:*" always matches the highest UID, even one below n (RFC 3501 §6.4.8).
        return sorted(int(value) for value in found if int(value) > uid)

    def fetch_raw(self, uid: int) -> bytes | None:
        """The message's bytes, or None when it was expunged since the search.

        A UID that no longer exists is answered OK with no data (RFC 3501 §6.4.8), and is passed
        over. NO or BAD is the server failing now: skipping the UID would lose the message, so
        the poll stops there and the next one asks again.
        """
        with _imap_errors(self.settings):
            status, data = self.mailbox.client.uid("fetch", str(uid), "(BODY.PEEK[])")
        if status != "OK":
            raise ImapUnavailable(
                f"IMAP {self.settings.host}: UID FETCH {uid} answered {status} {data!r}"
            )
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return item[1]
        return None


@dataclass(frozen=True, slots=True)
class ImapCursor:
    uidvalidity: int
    last_uid: int


@dataclass
class PollReport:
    fetched: int = 0
    new: int = 0
    duplicates: int = 0
    #: The folder's UIDVALIDITY changed: it was read again from the first UID.
    restarted: bool = False
    #: The pre-0006 cursor file this poll started from.
    imported: Path | None = None
    #: Why the poll stopped before the end (server gone, database unavailable); the cursor stays
    #: at the last message stored and the next poll continues from there.
    interrupted: str | None = None
    last_uid: int = 0


class ImapPoller:
    """Polls one folder (``settings.host``, ``.user``, ``.folder``) into ``inbox``."""

    def __init__(
        self,
        inbox: Inbox,
        settings: ImapSettings,
        *,
        legacy_cursor: Path | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.inbox = inbox
        self.database = inbox.database
        self.settings = settings
        self.legacy_cursor = legacy_cursor
        self.clock = clock

    # -- the cursor row -------------------------------------------------------------------------

    def _key(self) -> tuple[ColumnElement[bool], ...]:
        return (
            ImapFolderCursor.host == self.settings.cursor_host,
            ImapFolderCursor.username == self.settings.user,
            ImapFolderCursor.folder == self.settings.folder,
        )

    def load(self) -> ImapCursor | None:
        with self.database.session() as session:
            row = session.execute(
                select(ImapFolderCursor.uidvalidity, ImapFolderCursor.last_uid).where(*self._key())
            ).first()
        return None if row is None else ImapCursor(int(row.uidvalidity), int(row.last_uid))

    def _upsert(self, session: Session, cursor: ImapCursor, *, replace: bool) -> None:
        """Create the row; with ``replace``, also overwrite one of another UIDVALIDITY."""
        dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
        statement = dialect.insert(ImapFolderCursor).values(
            host=self.settings.cursor_host, username=self.settings.user,
            folder=self.settings.folder, uidvalidity=cursor.uidvalidity,
            last_uid=cursor.last_uid, updated_at=self.clock(),
        )
        if replace:
            # Only a row of another UIDVALIDITY is reset: a second poller that already reset it
            # and moved on under the new one keeps its progress.
            session.execute(statement.on_conflict_do_update(
                index_elements=["host", "username", "folder"],
                set_={"uidvalidity": cursor.uidvalidity, "last_uid": cursor.last_uid,
                      "updated_at": self.clock()},
                where=ImapFolderCursor.uidvalidity != cursor.uidvalidity,
            ))
        else:
            session.execute(statement.on_conflict_do_nothing())

    def reset(self, uidvalidity: int) -> ImapCursor:
        """The folder was renumbered (or never polled): start again from UID 0."""
        with self.database.transaction() as session:
            self._upsert(session, ImapCursor(uidvalidity, 0), replace=True)
        cursor = self.load()
        assert cursor is not None
        return cursor

    def advance(self, uidvalidity: int, uid: int) -> None:
        """Move past ``uid``: only forwards, and only within the same UIDVALIDITY."""
        with self.database.transaction() as session:
            session.execute(
                update(ImapFolderCursor)
                .where(*self._key(), ImapFolderCursor.uidvalidity == uidvalidity,
                       ImapFolderCursor.last_uid < uid)
                .values(last_uid=uid, updated_at=self.clock())
            )

    def import_legacy(self) -> ImapCursor | None:
        """The pre-0006 JSON cursor file, taken into the database once (see the module doc)."""
        path = self.legacy_cursor
        if path is None or not path.is_file():
            return None
        try:
            data = json.loads(path.read_text())
            cursor = ImapCursor(int(data["uidvalidity"]), int(data["last_uid"]))
        except (OSError, ValueError, KeyError, TypeError) as error:
            # A lost cursor costs one re-read of the folder (the inbox deduplicates), no more.
            log.warning("ignoring unreadable IMAP cursor file %s: %s", path, error)
            return None
        with self.database.transaction() as session:
            self._upsert(session, cursor, replace=False)
        try:
            path.replace(path.with_name(path.name + ".imported"))
        except OSError as error:  # the row exists now, so the file is never read again anyway
            log.warning("IMAP cursor imported but %s could not be renamed: %s", path, error)
        return self.load()

    # -- polling --------------------------------------------------------------------------------

    def poll(self, source: ImapSource) -> PollReport:
        """Ingest every message above the cursor.

        Stops early, cursor kept at the last message stored, when the inbox reports a temporary
        failure or the server goes away (:attr:`PollReport.interrupted`). :class:`ImapRefused`
        propagates: retrying will not help.
        """
        report = PollReport()
        cursor = self.load()
        if cursor is None and (cursor := self.import_legacy()) is not None:
            report.imported = self.legacy_cursor
        try:
            validity = source.uidvalidity()
            if cursor is None or cursor.uidvalidity != validity:
                report.restarted = cursor is not None
                cursor = self.reset(validity)
            report.last_uid = cursor.last_uid
            for uid in source.uids_after(cursor.last_uid):
                raw = source.fetch_raw(uid)
                if raw is not None:
                    report.fetched += 1
                    try:
                        receipt = self.inbox.receive(raw, source=Source.IMAP)
                    except TemporaryFailure as failure:
                        report.interrupted = str(failure)
                        break
                    if receipt.duplicate:
                        report.duplicates += 1
                    else:
                        report.new += 1
                self.advance(validity, uid)
                report.last_uid = uid
        except ImapUnavailable as error:
            report.interrupted = str(error)
        return report


@contextmanager
def open_source(settings: ImapSettings) -> Iterator[ImapToolsSource]:
    """Log in, select the folder, yield a source, log out (quietly, if the server is gone)."""
    with _imap_errors(settings):
        box: MailBox | MailBoxUnencrypted
        if settings.ssl:
            context = ssl.create_default_context(cafile=settings.ca_file)
            box = MailBox(settings.host, settings.port or 993, timeout=settings.timeout,
                          ssl_context=context)
        else:
            box = MailBoxUnencrypted(settings.host, settings.port or 143, timeout=settings.timeout)
        try:
            box.login(settings.user, settings.password, initial_folder=settings.folder)
        except BaseException:
            _close(box)
            raise
    try:
        yield ImapToolsSource(box, settings)
    finally:
        try:
            box.logout()
        except (OSError, imaplib.IMAP4.error, ImapToolsError):
            _close(box)


def _close(box: MailBox | MailBoxUnencrypted) -> None:
    try:
        box.client.shutdown()
    except (OSError, imaplib.IMAP4.error):
        pass
