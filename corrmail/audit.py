"""The audit log: every state change, who made it, and under which rule."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from corrmail.models import AuditEntry, User


def record(
    session: Session,
    *,
    user: User | None,
    action: str,
    entity: str,
    entity_id: int | None,
    tournament_id: int | None = None,
    rule: str | None = None,
    summary: str = "",
    detail: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add an entry in the caller's transaction, so the change and its record commit together."""
    entry = AuditEntry(
        user_id=user.id if user is not None else None,
        action=action,
        entity=entity,
        entity_id=entity_id,
        tournament_id=tournament_id,
        rule=rule,
        summary=summary,
        detail=detail or {},
    )
    session.add(entry)
    return entry
