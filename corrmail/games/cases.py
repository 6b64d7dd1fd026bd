"""Case rows: opening a case, storing each transition, and the protest letters a referee files.

The `adjudication` case lives in ``Case.payload`` with its revision beside it. Every later write
is :func:`store_transition`, an ``UPDATE … WHERE revision = …``: of two referees deciding the same
case at once, the second finds no row at the revision he saw and gets
:class:`adjudication.CaseConflict` before any effect of his decision is carried out. Who may act,
and the effects, are the referee's desk's (:mod:`corrmail.referee.desk`), which calls these.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adjudication import Case as PureCase
from adjudication import CaseConflict, Transition
from corrmail.models import Case, CaseType, ProtestLetter, utcnow

__all__ = ["StoredCase", "attach_case_text", "file_protest_letter_row", "insert_case", "receive_protest_letter",
           "store_transition"]


@dataclass(frozen=True)
class StoredCase:
    """A case row with its payload read back into the package's case."""

    row: Case
    case: PureCase


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


def attach_case_text(row: Case, text: str) -> None:
    """Text kept on the case for the officials: the record of an e-mail game (002 §4.5.1)."""
    row.letter_text = text


def receive_protest_letter(
    session: Session, *, tournament_id: int, game_id: int, participant_id: int, text: str,
    protest: str, received: dt.date,
) -> ProtestLetter:
    """A protest that came by e-mail and contests no case its sender may protest now, kept as a
    letter for the referee to file into the case it contests (002 §4.1.12); its days count from
    the day it arrived."""
    row = ProtestLetter(tournament_id=tournament_id, game_id=game_id,
                        participant_id=participant_id, text=text, protest=protest,
                        received=received)
    session.add(row)
    session.flush()
    return row


def file_protest_letter_row(letter: ProtestLetter, case_row: Case) -> None:
    """The protest letter is filed into ``case_row``."""
    letter.filed_case_id = case_row.id
    letter.filed_at = utcnow()
