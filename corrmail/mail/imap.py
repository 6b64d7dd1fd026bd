"""``corrmail poll``: fetching new messages from an IMAP mailbox, by UID, into the inbox.

Only UIDs above the last one handled are fetched (``BODY.PEEK[]``, so nothing is marked read),
in order; the cursor advances after each message is stored. If the folder's UIDVALIDITY changes
the server renumbered it, and polling starts again from the first UID. The cursor is kept in a
small JSON file (``var/imap-cursor-<account>.json`` by default): because the inbox deduplicates
by Message-ID and content hash, a lost cursor costs one re-read of the folder and nothing else.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from imap_tools import AND, MailBox, MailBoxUnencrypted
from imap_tools.query import U

from corrmail.mail.inbox import Inbox, Source, TemporaryFailure
from corrmail.mail.settings import SettingsError

__all__ = ["ImapSettings", "ImapSource", "ImapToolsSource", "ImapCursor", "ImapPoller", "PollReport"]


@dataclass(frozen=True, slots=True)
class ImapSettings:
    host: str
    user: str
    password: str
    folder: str = "INBOX"
    port: int | None = None
    ssl: bool = True

    @property
    def account(self) -> str:
        return re.sub(r"[^A-Za-z0-9.@-]+", "_", f"{self.user}@{self.host}-{self.folder}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ImapSettings:
        """``CORRMAIL_IMAP_HOST``, ``_USER``, ``_PASSWORD``, ``_FOLDER``, ``_PORT``, ``_SSL``."""
        env = os.environ if env is None else env
        missing = [name for name in ("HOST", "USER", "PASSWORD") if not env.get(f"CORRMAIL_IMAP_{name}")]
        if missing:
            raise SettingsError(f"CORRMAIL_IMAP_{missing[0]}", "", "a value: polling IMAP needs it")
        port = env.get("CORRMAIL_IMAP_PORT")
        return cls(
            host=env["CORRMAIL_IMAP_HOST"],
            user=env["CORRMAIL_IMAP_USER"],
            password=env["CORRMAIL_IMAP_PASSWORD"],
            folder=env.get("CORRMAIL_IMAP_FOLDER", "INBOX"),
            port=int(port) if port else None,
            ssl=env.get("CORRMAIL_IMAP_SSL", "yes").lower() not in ("0", "no", "false"),
        )


class ImapSource(Protocol):
    """What the poller needs of a mailbox (one folder, opened)."""

    def uidvalidity(self) -> int: ...

    def uids_after(self, uid: int) -> list[int]: ...

    def fetch_raw(self, uid: int) -> bytes | None: ...


class ImapToolsSource:
    """An opened folder through imap-tools; raw bytes via the underlying imaplib client."""

    def __init__(self, mailbox: MailBox | MailBoxUnencrypted, folder: str) -> None:
        self.mailbox = mailbox
        self.folder = folder

    def uidvalidity(self) -> int:
        return int(self.mailbox.folder.status(self.folder, ["UIDVALIDITY"])["UIDVALIDITY"])

    def uids_after(self, uid: int) -> list[int]:
        found = self.mailbox.uids(AND(uid=U(str(uid + 1), "*")))
        # "n:*" always matches the highest UID, even one below n (RFC 3501 §6.4.8).
        return sorted(int(value) for value in found if int(value) > uid)

    def fetch_raw(self, uid: int) -> bytes | None:
        status, data = self.mailbox.client.uid("fetch", str(uid), "(BODY.PEEK[])")
        if status != "OK":
            return None
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
    restarted: bool = False


class ImapPoller:
    def __init__(self, inbox: Inbox, state_path: Path) -> None:
        self.inbox = inbox
        self.state_path = state_path

    def load(self) -> ImapCursor | None:
        try:
            data = json.loads(self.state_path.read_text())
            return ImapCursor(int(data["uidvalidity"]), int(data["last_uid"]))
        except (FileNotFoundError, ValueError, KeyError, TypeError):
            return None

    def save(self, cursor: ImapCursor) -> None:
        self.state_path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.state_path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"uidvalidity": cursor.uidvalidity, "last_uid": cursor.last_uid}))
        temporary.replace(self.state_path)  # atomic: a crash leaves the old cursor or the new

    def poll(self, source: ImapSource) -> PollReport:
        """Ingest every message above the cursor; stop (cursor kept) on a temporary failure."""
        report = PollReport()
        validity = source.uidvalidity()
        cursor = self.load()
        if cursor is None or cursor.uidvalidity != validity:
            report.restarted = cursor is not None
            cursor = ImapCursor(validity, 0)
        for uid in source.uids_after(cursor.last_uid):
            raw = source.fetch_raw(uid)
            if raw is not None:
                report.fetched += 1
                try:
                    receipt = self.inbox.receive(raw, source=Source.IMAP)
                except TemporaryFailure:
                    break
                if receipt.duplicate:
                    report.duplicates += 1
                else:
                    report.new += 1
            cursor = ImapCursor(validity, uid)
            self.save(cursor)
        return report


@contextmanager
def open_source(settings: ImapSettings) -> Iterator[ImapToolsSource]:
    """Log in, select the folder, yield a source, log out."""
    box_class = MailBox if settings.ssl else MailBoxUnencrypted
    box = box_class(settings.host, settings.port) if settings.port else box_class(settings.host)
    with box.login(settings.user, settings.password, initial_folder=settings.folder) as mailbox:
        yield ImapToolsSource(mailbox, settings.folder)
