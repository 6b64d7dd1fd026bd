"""Cases in the database: the `adjudication` case in `Case.payload`, its revision beside it.

Writing case rows is the game core's (:mod:`corrmail.games.cases`); every write goes through
:func:`store_transition`, an ``UPDATE … WHERE revision = …``: of two
referees deciding the same case at once, the second finds no row at the revision he saw and gets
:class:`adjudication.CaseConflict` before any effect of his decision is carried out.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from adjudication import case_from_dict
from corrmail.games.cases import StoredCase, insert_case, store_transition
from corrmail.models import Case

__all__ = ["CaseNotFound", "StoredCase", "load_case", "insert_case",
           "store_transition"]


class CaseNotFound(LookupError):
    def __init__(self, case_id: int) -> None:
        super().__init__(f"no case {case_id}")
        self.case_id = case_id


def load_case(session: Session, case_id: int) -> StoredCase:
    row = session.get(Case, case_id)
    if row is None:
        raise CaseNotFound(case_id)
    return StoredCase(row, case_from_dict(row.payload))
