"""Letters, the steward's forwardings of them and audit entries are append-only (002 §4.1.13,
§4.2.5): the ORM refuses edits."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, UOWTransaction

from corrmail.models.cases import AuditEntry
from corrmail.models.games import Forwarding, Letter

APPEND_ONLY = (Letter, Forwarding, AuditEntry)


class AppendOnlyViolation(ValueError):
    """An attempt to change or delete a ledger row; corrections are new rows."""

    def __init__(self, row: object, operation: str) -> None:
        super().__init__(
            f"{row!r} is append-only: {operation} refused; record a correction instead (002 §4.2.5)"
        )
        self.row = row
        self.operation = operation


@event.listens_for(Session, "before_flush")
def _refuse_ledger_edits(session: Session, flush_context: UOWTransaction, instances: Any) -> None:
    for row in session.deleted:
        if isinstance(row, APPEND_ONLY):
            raise AppendOnlyViolation(row, "delete")
    for row in session.dirty:
        if isinstance(row, APPEND_ONLY) and session.is_modified(row, include_collections=False):
            raise AppendOnlyViolation(row, "update")
