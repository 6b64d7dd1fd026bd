"""Bearer tokens for the JSON API; the database keeps only their SHA-256."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.models import ApiToken, User, utcnow


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(session: Session, user: User, name: str) -> str:
    """Create a token for `user`; the returned plaintext is shown once and never stored."""
    token = secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, name=name, token_sha256=_digest(token)))
    session.flush()
    return token


def authenticate(session: Session, token: str) -> User | None:
    row = session.scalar(
        select(ApiToken).where(
            ApiToken.token_sha256 == _digest(token), ApiToken.revoked_at.is_(None)
        )
    )
    if row is None or not row.user.active:
        return None
    now = utcnow()
    # The tokens page shows the last use to the minute: writing (and committing) the token row
    # once a minute shows the same, where a write on every request made each API call a
    # transaction, and concurrent calls with one token queue on its row lock.
    if row.last_used_at is None or _minute(row.last_used_at) != _minute(now):
        row.last_used_at = now
    return row.user


def _minute(moment: dt.datetime) -> dt.datetime:
    return moment.replace(second=0, microsecond=0)


def revoke_tokens(session: Session, user: User, name: str | None = None) -> int:
    """Revoke the user's live tokens (only those called ``name``, if given); how many."""
    query = select(ApiToken).where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
    if name is not None:
        query = query.where(ApiToken.name == name)
    rows = list(session.scalars(query))
    for row in rows:
        row.revoked_at = utcnow()
    return len(rows)


def user_tokens(session: Session, user: User) -> list[ApiToken]:
    """The user's tokens, newest first, revoked ones included (their dates are the record)."""
    return list(session.scalars(
        select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id.desc())))


def revoke_token(session: Session, user: User, token_id: int) -> bool:
    """Revoke the user's own token ``token_id``; False when it is not theirs or not live."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user.id or row.revoked_at is not None:
        return False
    row.revoked_at = utcnow()
    return True
