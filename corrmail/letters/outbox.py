"""Writing letters to the outbox, in the caller's transaction (the mailer sends them later)."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from corrmail.mail.compose import message_bytes
from corrmail.models import OutboxMessage, OutboxStatus


class IncompleteMessage(ValueError):
    def __init__(self, header: str) -> None:
        super().__init__(f"an outgoing message needs a {header} header")
        self.header = header


def enqueue(
    session: Session,
    message: EmailMessage,
    *,
    kind: str,
    envelope_sender: str | None = None,
    tournament_id: int | None = None,
    game_id: int | None = None,
    case_id: int | None = None,
) -> OutboxMessage:
    """Store `message` exactly as it will be sent; its Message-ID makes resends recognisable."""
    for header in ("Message-ID", "To", "From", "Subject"):
        if not message[header]:
            raise IncompleteMessage(header)
    body = message.get_body(preferencelist=("plain",))
    row = OutboxMessage(
        message_id=str(message["Message-ID"]),
        kind=kind,
        recipient=str(message["To"]),
        envelope_sender=envelope_sender or str(message["From"]),
        subject=str(message["Subject"]),
        body_text=body.get_content() if body is not None else "",
        raw=message_bytes(message),
        tournament_id=tournament_id,
        game_id=game_id,
        case_id=case_id,
    )
    session.add(row)
    session.flush()
    return row


def capture_pending(session: Session, now: dt.datetime) -> int:
    """With no SMTP relay, every due letter is kept as captured, readable in the outbox viewer."""
    due = select(OutboxMessage.id).where(
        OutboxMessage.status == OutboxStatus.PENDING, OutboxMessage.next_attempt_at <= now
    )
    result = session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.id.in_(due))
        .values(status=OutboxStatus.CAPTURED, sent_at=now, attempts=OutboxMessage.attempts + 1)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
