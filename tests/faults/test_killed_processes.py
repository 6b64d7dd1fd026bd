"""An ingest process killed with SIGKILL mid-batch, and the same letter delivered twice.

The mailer killed mid-batch is tested in tests/mail/test_mailer.py. Here an inbound batch (as an
IMAP poll or a queue flush delivers it) is cut off by SIGKILL while one message is being
processed: what was stored stays, what was not is redelivered by the MTA (the killed process
never confirmed it), and after the redelivery every message is stored once and answered once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import select

from corrmail.db import Database
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox, Source
from corrmail.mail.settings import MailSettings
from corrmail.models import InboundMessage, InboundStatus, OutboxMessage

MAIL = MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"k" * 16)
BATCH = 8
STALL_AT = 4  # the 4th message's processing is where the process dies


def message(number: int) -> bytes:
    return (
        f"From: player{number}@example.org\r\nTo: turnir@turnir.example\r\n"
        f"Subject: ход {number}\r\nMessage-ID: <batch{number}@example.org>\r\n\r\n"
        f"1. c3-d4\r\n"
    ).encode()


WORKER = f"""
import sys, time
from pathlib import Path
from corrmail.db import Database
from corrmail.mail.inbox import Inbox, Source
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings

url, marker, first = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
inbox = Inbox(Database(url), LetterWriter(MailSettings(
    domain="turnir.example", from_address="turnir@turnir.example", secret=b"k" * 16)))
original = Inbox._process

def stalling(self, session, inbound_id, **kwargs):
    receipt = original(self, session, inbound_id, **kwargs)  # written, not yet committed
    if inbound_id == {STALL_AT} and not marker.exists():
        session.flush()
        marker.write_text("stalled")
        time.sleep(600)  # SIGKILL arrives here
    return receipt

Inbox._process = stalling
for number in range(first, {BATCH} + 1):
    raw = (f"From: player{{number}}@example.org\\r\\nTo: turnir@turnir.example\\r\\n"
           f"Subject: ход {{number}}\\r\\nMessage-ID: <batch{{number}}@example.org>\\r\\n\\r\\n"
           f"1. c3-d4\\r\\n").encode()
    inbox.receive(raw, source=Source.IMAP)
    print(number, flush=True)  # the poller's confirmation: the MTA / IMAP cursor moves on
"""


def _run_worker(script: Path, db_url: str, marker: Path, first: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.Popen([sys.executable, str(script), db_url, str(marker), str(first)],
                            env=env, stdout=subprocess.PIPE, text=True)


def test_ingest_killed_mid_batch_loses_and_duplicates_nothing(db_url: str, tmp_path: Path) -> None:
    script = tmp_path / "ingest_worker.py"
    script.write_text(WORKER)
    marker = tmp_path / "stalled"
    worker = _run_worker(script, db_url, marker, 1)
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert time.monotonic() < deadline and worker.poll() is None, "the worker never stalled"
        time.sleep(0.05)
    worker.send_signal(signal.SIGKILL)
    confirmed = [int(line) for line in worker.communicate(timeout=30)[0].split()]
    assert worker.returncode == -signal.SIGKILL
    assert confirmed == [1, 2, 3]

    database = Database(db_url)
    with database.session() as session:
        rows = {row.message_id: row.status for row in session.scalars(select(InboundMessage))}
    assert rows["<batch4@example.org>"] is InboundStatus.STORED  # the raw bytes survived the kill
    assert len(rows) == STALL_AT

    # The MTA redelivers everything not confirmed: 4 (stored, unprocessed) and 5..8 (never seen).
    again = _run_worker(script, db_url, marker, STALL_AT)
    assert [int(line) for line in again.communicate(timeout=120)[0].split()] == list(range(4, 9))
    assert again.returncode == 0
    with database.session() as session:
        inbound = session.scalars(select(InboundMessage)).all()
        replies = Counter(row.recipient for row in session.scalars(select(OutboxMessage)))
    database.dispose()
    assert sorted(row.message_id or "" for row in inbound) == sorted(
        f"<batch{n}@example.org>" for n in range(1, BATCH + 1))
    assert {row.status for row in inbound} == {InboundStatus.REFUSED}
    assert replies == Counter({f"player{n}@example.org": 1 for n in range(1, BATCH + 1)}), \
        "each message answered exactly once"


def test_the_same_letter_delivered_twice_at_once_is_stored_and_answered_once(
    db_url: str,
) -> None:
    database = Database(db_url)
    inboxes = [Inbox(database, LetterWriter(MAIL)) for _ in range(2)]
    raw = message(42)
    start = threading.Barrier(len(inboxes))
    receipts = []

    def deliver(inbox: Inbox) -> None:
        start.wait()
        receipts.append(inbox.receive(raw, source=Source.LMTP))

    threads = [threading.Thread(target=deliver, args=(inbox,)) for inbox in inboxes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(receipt.duplicate for receipt in receipts) == [False, True]
    assert {receipt.inbound_id for receipt in receipts} == {receipts[0].inbound_id}
    # A third delivery, later and by another way in, is a duplicate too.
    assert inboxes[0].receive(raw, source=Source.PIPE).duplicate
    with database.session() as session:
        assert len(session.scalars(select(InboundMessage)).all()) == 1
        assert len(session.scalars(select(OutboxMessage)).all()) == 1
    database.dispose()
