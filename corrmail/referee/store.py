"""Cases in the database: the `adjudication` case in `Case.payload`, its revision beside it.

Every write goes through :func:`store_transition`, an ``UPDATE … WHERE revision = …``: of two
referees deciding the same case at once, the second finds no row at the revision he saw and gets
:class:`adjudication.CaseConflict` before any effect of his decision is carried out.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adjudication import Case as PureCase
from adjudication import CaseConflict, Transition, case_from_dict
from corrmail.models import Case, CaseType, utcnow

__all__ = ["CaseNotFound", "NotACaseFile", "StoredCase", "load_case", "insert_case",
           "store_transition"]


class CaseNotFound(LookupError):
    def __init__(self, case_id: int) -> None:
        super().__init__(f"no case {case_id}")
        self.case_id = case_id


class NotACaseFile(ValueError):
    """A row the `adjudication` package does not own: a protest letter waiting to be filed."""

    def __init__(self, case_id: int, case_type: str) -> None:
        super().__init__(f"case {case_id} is a {case_type} letter, not a case file")
        self.case_id = case_id
        self.case_type = case_type


LETTER_TYPES = frozenset({CaseType.PROTEST})
"""Rows the mail layer opens for a letter a referee must file into a case (002 §4.1.12)."""


@dataclass(frozen=True)
class StoredCase:
    """A case row with its payload read back into the package's case."""

    row: Case
    case: PureCase


def load_case(session: Session, case_id: int) -> StoredCase:
    row = session.get(Case, case_id)
    if row is None:
        raise CaseNotFound(case_id)
    if row.case_type in LETTER_TYPES:
        raise NotACaseFile(case_id, str(row.case_type))
    return StoredCase(row, case_from_dict(row.payload))


def _deadline(case: PureCase, today: dt.date) -> dt.date | None:
    deadline = case.deadline_on(today)
    return deadline.due if deadline is not None else None


def insert_case(
    session: Session,
    transition: Transition[PureCase],
    *,
    tournament_id: int,
    today: dt.date,
    game_id: int | None = None,
    participant_id: int | None = None,
    opened_by_id: int | None = None,
    letter_text: str = "",
) -> Case:
    """Store a newly opened case; flushed, so the caller has its id for letters and audit."""
    case = transition.case
    row = Case(
        case_type=CaseType(case.TYPE),
        tournament_id=tournament_id,
        game_id=game_id,
        participant_id=participant_id,
        state=case.state.value,
        deadline=_deadline(case, today),
        payload=_payload(case),
        revision=case.revision,
        opened_by_id=opened_by_id,
        letter_text=letter_text,
        closed_at=utcnow() if case.is_closed else None,
    )
    session.add(row)
    session.flush()
    return row


def store_transition(
    session: Session, stored: StoredCase, transition: Transition[PureCase], today: dt.date
) -> StoredCase:
    """Write the next case if the row still holds the revision the transition started from."""
    seen = stored.case.revision
    case = transition.case
    values: dict[str, Any] = {
        "state": case.state.value,
        "deadline": _deadline(case, today),
        "payload": _payload(case),
        "revision": case.revision,
        "closed_at": utcnow() if case.is_closed else None,
        "version": Case.version + 1,
    }
    result = session.execute(
        update(Case)
        .where(Case.id == stored.row.id, Case.revision == seen)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        actual = session.scalar(select(Case.revision).where(Case.id == stored.row.id))
        raise CaseConflict(case.case_id, seen, actual if actual is not None else -1)
    session.refresh(stored.row)
    return StoredCase(stored.row, case)


def _payload(case: PureCase) -> dict[str, Any]:
    payload: dict[str, Any] = case.to_dict()
    return payload
