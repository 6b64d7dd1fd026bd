"""Which cases are open: one definition, read by the referee's queue and the directors'
dashboard alike, so the dashboard's "open cases: N" is the length of the queue.

A case is open while it waits for someone — a party, an instance, a protest window. Closed
cases are not open, and neither is a decided case no party may protest any more
(:func:`~corrmail.referee.timing.decided_and_final`): it waits for nobody, only to be closed, and
the queue lists it apart ("to be closed") rather than as overdue (002 §4.1.12, §4.5.6).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import Case as PureCase
from adjudication import case_from_dict
from corrmail.games.cases import StoredCase
from corrmail.models import Case
from corrmail.referee.timing import decided_and_final

__all__ = ["is_open", "open_cases", "unclosed_cases"]


def unclosed_cases(session: Session, tournament_id: int) -> list[StoredCase]:
    """The tournament's cases not closed on record, oldest first, each read from its row."""
    return [StoredCase(row, case_from_dict(row.payload)) for row in session.scalars(
        select(Case).where(Case.tournament_id == tournament_id, Case.closed_at.is_(None))
        .order_by(Case.id))]


def is_open(case: PureCase, on: dt.date) -> bool:
    """Whether ``case`` still waits for someone on ``on`` (see the module's docstring)."""
    return not case.is_closed and not decided_and_final(case, on)


def open_cases(session: Session, tournament_id: int, on: dt.date) -> list[StoredCase]:
    """The tournament's open cases on ``on``, oldest first: those the referee's queue lists."""
    return [stored for stored in unclosed_cases(session, tournament_id)
            if is_open(stored.case, on)]
