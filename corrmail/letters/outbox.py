"""Writing letters to the outbox, in the caller's transaction (the mailer sends them later)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from email.message import EmailMessage
from typing import cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.orm import Session, make_transient_to_detached

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
    bounce_address: Callable[[int], str] | None = None,
    tournament_id: int | None = None,
    game_id: int | None = None,
    case_id: int | None = None,
) -> OutboxMessage:
    """:func:`enqueue` of a letter already written to bytes
    (:func:`corrmail.mail.compose.compose_letter`); ``bounce_address``: the envelope sender
    made from the new row's id (a bounce names the letter it came back for).

    The row is one INSERT (all its columns returned, defaults included) and, with a bounce
    address, one UPDATE, both through the session, and joins the session as a row read from
    it: a flush of the unit of work for it, then an UPDATE at commit, cost the intake more than
    writing the letter's bytes."""
    missing = letter.lacks()
    if missing is not None:
        raise IncompleteMessage(missing)
    values = {
        "message_id": letter.message_id,
        "kind": kind,
        "recipient": letter.recipient,
        "envelope_sender": envelope_sender or letter.sender,
        "subject": letter.subject,
        "body_text": letter.body_text,
        "raw": letter.raw,
        "tournament_id": tournament_id,
        "game_id": game_id,
        "case_id": case_id,
    }
    # The session's unwritten rows are flushed, as the flush of the outbox row did (a caller
    # may read the ids of rows it added before posting a letter).
    session.flush()
    fields = dict(session.execute(_INSERT_OUTBOX, values).one()._mapping)
    if bounce_address is not None:
        fields["envelope_sender"] = bounce_address(fields["id"])
        session.execute(_SET_ENVELOPE_SENDER, {"row_id": fields["id"],
                                               "sender": fields["envelope_sender"]})
    row = OutboxMessage(**fields)
    make_transient_to_detached(row)
    session.add(row)
    return row


_OUTBOX = cast(Table, OutboxMessage.__table__)
#: One statement object each (SQLAlchemy computes their cache keys once).
_INSERT_OUTBOX = _OUTBOX.insert().returning(*_OUTBOX.c)
_SET_ENVELOPE_SENDER = (_OUTBOX.update().where(_OUTBOX.c.id == bindparam("row_id"))
                        .values(envelope_sender=bindparam("sender")))


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
