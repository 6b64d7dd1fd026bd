"""How many refusal notices one address gets: an autoresponder must not talk with the server
for ever.

A machine that answers every letter without saying so (no ``Auto-Submitted``, no
``Precedence: bulk``) would get a refusal for every answer, and answer every refusal. The inbox
therefore sends at most :data:`PER_HOUR` refusal notices an hour and :data:`PER_DAY` a day to
one address — per game when the letter was attributed to a game, else per address. The letters
themselves are still stored and judged; only the notices beyond the limit stay unsent, kept in
the outbox as ``failed`` with the reason, so the referee sees what was held back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrmail.models import OutboxMessage, OutboxStatus, utcnow

__all__ = ["PER_HOUR", "PER_DAY", "notices_exhausted", "hold_back"]

PER_HOUR = 3
PER_DAY = 10


def notices_exhausted(session: Session, address: str, *, kinds: Collection[str],
                      game_id: int | None = None, leaving_out: Sequence[int] = ()) -> bool:
    """Whether ``address`` had its notices of ``kinds`` (in ``game_id``, when given) already."""
    now = utcnow()
    query = select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.kind.in_(list(kinds)),
        func.lower(OutboxMessage.recipient).contains(address.lower(), autoescape=True),
        OutboxMessage.created_at > now - dt.timedelta(days=1),
    )
    if game_id is not None:
        query = query.where(OutboxMessage.game_id == game_id)
    if leaving_out:
        query = query.where(OutboxMessage.id.not_in(list(leaving_out)))
    today = session.scalar(query) or 0
    hour = session.scalar(query.where(OutboxMessage.created_at > now - dt.timedelta(hours=1))) or 0
    return hour >= PER_HOUR or today >= PER_DAY


def hold_back(session: Session, letter_ids: Sequence[int], address: str, game_id: int) -> list[int]:
    """Keep the notices among ``letter_ids`` to ``address`` unsent when the limit is reached."""
    rows = [row for row in (session.get(OutboxMessage, letter_id) for letter_id in letter_ids)
            if row is not None and address.lower() in row.recipient.lower()
            and row.status is OutboxStatus.PENDING]
    if not rows or not notices_exhausted(session, address, kinds={row.kind for row in rows},
                                         game_id=game_id, leaving_out=letter_ids):
        return []
    for row in rows:
        row.status = OutboxStatus.FAILED
        row.last_error = (f"not sent: more than {PER_HOUR} notices an hour or {PER_DAY} a day "
                          "to this address in this game (a mail loop?)")
    return [row.id for row in rows]
