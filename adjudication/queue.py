"""The referee's queue: open cases, overdue first, then by the date that matters next."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from adjudication.case import Case
from adjudication.deadlines import Awaiting, Deadline


@dataclass(frozen=True)
class QueueEntry:
    """One open case as the queue page shows it."""

    case: Case
    deadline: Deadline | None
    awaiting: Awaiting | None
    days_overdue: int
    """Days past the deadline; 0 when in time or without a deadline."""

    @property
    def overdue(self) -> bool:
        return self.days_overdue > 0


def referee_queue(
    cases: Iterable[Case], today: date, *, awaiting: Awaiting | None = None
) -> list[QueueEntry]:
    """Open cases in the order a referee should take them.

    Overdue cases come first, the longest overdue at the top; then cases with a deadline, the
    nearest first; then cases no rule puts a date on, oldest first. Ties go by case id so the
    order is stable, its numbers read as numbers (the adjudication of game 3 before game 10). ``awaiting`` keeps only the cases waiting for that instance (or the players).
    """
    entries = []
    for case in cases:
        if case.is_closed:
            continue
        deadline = case.deadline_on(today)
        who = case.awaiting_on(today)
        if awaiting is not None and who is not awaiting:
            continue
        late = -deadline.days_left(today) if deadline and deadline.is_overdue(today) else 0
        entries.append(QueueEntry(case, deadline, who, late))
    return sorted(entries, key=_order)


def _natural(case_id: str) -> tuple[str | int, ...]:
    """``ЗКР-2026/adjudication/3/…`` before ``…/10/…``: text and numbers alternate in every
    id split this way, so the parts compare position by position."""
    return tuple(int(part) if index % 2 else part
                 for index, part in enumerate(re.split(r"(\d+)", case_id)))


def _order(entry: QueueEntry) -> tuple[int, date, tuple[str | int, ...]]:
    if entry.overdue and entry.deadline is not None:
        return (0, entry.deadline.due, _natural(entry.case.case_id))
    if entry.deadline is not None:
        return (1, entry.deadline.due, _natural(entry.case.case_id))
    return (2, entry.case.opened_on, _natural(entry.case.case_id))
