"""Writing letters to the outbox, in the caller's transaction (the mailer sends them later)."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from corrmail.mail.compose import ComposedLetter, composed_from_message
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
    return enqueue_composed(session, composed_from_message(message), kind=kind,
                            envelope_sender=envelope_sender, tournament_id=tournament_id,
                            game_id=game_id, case_id=case_id)


def enqueue_composed(
    session: Session,
    letter: ComposedLetter,
    *,
    kind: str,
    envelope_sender: str | None = None,
    tournament_id: int | None = None,
    game_id: int | None = None,
    case_id: int | None = None,
) -> OutboxMessage:
    """:func:`enqueue` of a letter already written to bytes
    (:func:`corrmail.mail.compose.compose_letter`)."""
    missing = letter.lacks()
    if missing is not None:
        raise IncompleteMessage(missing)
    row = OutboxMessage(
        message_id=letter.message_id,
        kind=kind,
        recipient=letter.recipient,
        envelope_sender=envelope_sender or letter.sender,
        subject=letter.subject,
        body_text=letter.body_text,
        raw=letter.raw,
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
