"""The repeats of unanswered moves on record (002 §4.3.4), read the same way by the calendar that
sends them and by the pages that show the next one.

002 §4.3.4: a player who gets no answer repeats his move by registered letter after 30 days.
The repeat is itself the registered letter that stands for the move: when it too goes
unanswered for 30 (counted) days, the rule asks again, and only then. So a wait has a first due
date, 30 counted days after the move left for the partner (:func:`timekeeping.repeat_due_of`),
and after each repeat sent the next one is due 30 counted days after that repeat.

The server records each repeat it sends as an audit entry (``letter.repeated``) naming the game,
the letter repeated, the due date it answered (the wait's first due date) and the day it was
sent. A wait is known by its game and its first due date: a reply from the partner starts a new
wait (a new first due date), so the repeats of the old one no longer count.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.models import AuditEntry
from timekeeping import NO_BREAKS, BreakCalendar, repeat_due

__all__ = ["REPEAT_ACTION", "RepeatsOnRecord", "next_repeat_due", "record_repeat", "repeats_on_record"]

REPEAT_ACTION = "letter.repeated"
REPEAT_RULE = "002 §4.3.4"


def next_repeat_due(first_due: dt.date, sent: Iterable[dt.date],
                    breaks: BreakCalendar = NO_BREAKS) -> dt.date:
    """The day the next repeat of a wait is due: its first due date, or 30 counted days after
    the last repeat sent (002 §4.3.4)."""
    latest = max(sent, default=None)
    return first_due if latest is None else repeat_due(latest, breaks)


class RepeatsOnRecord:
    """The days each wait's repeats were sent: ``(game id, first due date) → days``."""

    def __init__(self, entries: Iterable[tuple[int, dt.date, dt.date]] = ()) -> None:
        self._sent: dict[tuple[int, dt.date], list[dt.date]] = defaultdict(list)
        for game_id, due, on in entries:
            self._sent[(game_id, due)].append(on)

    def sent(self, game_id: int, first_due: dt.date) -> Sequence[dt.date]:
        return sorted(self._sent.get((game_id, first_due), ()))

    def last_sent(self, game_id: int, first_due: dt.date) -> dt.date | None:
        days = self.sent(game_id, first_due)
        return days[-1] if days else None

    def next_due(self, game_id: int, first_due: dt.date,
                 breaks: BreakCalendar = NO_BREAKS) -> dt.date:
        return next_repeat_due(first_due, self.sent(game_id, first_due), breaks)


def repeats_on_record(session: Session, *, tournament_id: int,
                      game_id: int | None = None) -> RepeatsOnRecord:
    """One query: the repeats the server sent in the tournament (or in one of its games)."""
    query = select(AuditEntry.entity_id, AuditEntry.detail).where(
        AuditEntry.action == REPEAT_ACTION, AuditEntry.tournament_id == tournament_id)
    if game_id is not None:
        query = query.where(AuditEntry.entity_id == game_id)
    entries = []
    for entity_id, detail in session.execute(query):
        try:
            entries.append((int(entity_id), dt.date.fromisoformat(detail["due"]),
                            dt.date.fromisoformat(detail["on"])))
        except (KeyError, TypeError, ValueError):
            continue  # not written by record_repeat: no repeat it can vouch for
    return RepeatsOnRecord(entries)


def record_repeat(session: Session, *, tournament_id: int, game_id: int, letter_id: int,
                  first_due: dt.date, on: dt.date, to: Sequence[str]) -> AuditEntry:
    """Record that the server repeated ``letter_id`` on ``on`` (002 §4.3.4), in the caller's
    transaction, with the letters that carried it."""
    return audit.record(
        session, user=None, action=REPEAT_ACTION, entity="game", entity_id=game_id,
        tournament_id=tournament_id, rule=REPEAT_RULE,
        summary=f"move letter {letter_id} repeated on {on.isoformat()}",
        detail={"letter_id": letter_id, "due": first_due.isoformat(), "on": on.isoformat(),
                "to": list(to)},
    )
