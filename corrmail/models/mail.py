"""Mail in and out: the outbox the mailer drains, the raw inbound messages, the IMAP cursors."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, ForeignKey, Index, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from corrmail.models.base import Base, utcnow
from corrmail.models.enums import InboundStatus, OutboxStatus, enum_column


class OutboxMessage(Base):
    """A letter to send, written in the same transaction as the change that causes it.

    `raw` is the complete RFC 5322 message as it will go out, so a resend after a crash is
    byte-identical (same Message-ID). A worker owns a row while `lease_until` is in the future.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    kind: Mapped[str] = mapped_column(String(40))  # e.g. "move", "start_sheet", "case.overstep.claim_opened"
    recipient: Mapped[str] = mapped_column(String(320))
    envelope_sender: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(String(998))
    body_text: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    case_id: Mapped[int | None] = mapped_column(ForeignKey("cases.id"))
    status: Mapped[OutboxStatus] = mapped_column(
        enum_column(OutboxStatus), default=OutboxStatus.PENDING
    )
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    lease_owner: Mapped[str | None] = mapped_column(String(120))
    lease_until: Mapped[dt.datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[dt.datetime | None]


class InboundMessage(Base):
    """A received message stored raw before anything is parsed; duplicates collide on the keys."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[str | None] = mapped_column(String(998), unique=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    source: Mapped[str] = mapped_column(String(20))  # "pipe", "smtp", "imap"
    envelope_sender: Mapped[str | None] = mapped_column(String(320))
    received_at: Mapped[dt.datetime]
    status: Mapped[InboundStatus] = mapped_column(
        enum_column(InboundStatus), default=InboundStatus.STORED
    )
    outcome: Mapped[str | None] = mapped_column(String(60))  # machine-readable, e.g. "move_relayed"
    outcome_detail: Mapped[str | None] = mapped_column(Text)
    # The receiving MTA's Authentication-Results, kept as evidence (corrmail.mail.envelope).
    auth_results: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[dt.datetime | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ImapFolderCursor(Base):
    """How far ``corrmail poll`` has read one IMAP folder: its UIDVALIDITY and the last UID stored.

    ``last_uid`` only moves after :meth:`corrmail.mail.inbox.Inbox.receive` has committed the
    message, so a crash re-reads at most the message in hand (the inbox deduplicates it). UIDs and
    UIDVALIDITY are unsigned 32-bit numbers (RFC 3501 §2.3.1.1): too large for a signed INTEGER.
    """

    __tablename__ = "imap_cursors"

    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    username: Mapped[str] = mapped_column(String(320), primary_key=True)
    folder: Mapped[str] = mapped_column(String(255), primary_key=True)
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    last_uid: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
