"""The right to change a tournament's draw or standing (publish, pair, close, a round's
publication or redraw) for the rest of a transaction."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.games.append import take_sqlite_write_lock
from corrmail.models import Tournament

__all__ = ["lock_tournament"]


def lock_tournament(session: Session, tournament_id: int) -> None:
    """Hold tournament ``tournament_id`` until this transaction ends, then read it afresh.

    A double click on «Publish» sends two requests a few milliseconds apart; each read the
    tournament (no games yet, still a draft) before either wrote, and both drew the round robin.
    PostgreSQL locks the tournament row (``FOR UPDATE``); SQLite has no row locks and pysqlite
    begins a transaction only at the first write, so there the database's write lock is taken
    first (``BEGIN IMMEDIATE``). Whatever this session read before the lock may be stale, so it
    is expired after it: the second request then sees the games and sheets of the first."""
    session.flush()
    take_sqlite_write_lock(session)
    session.execute(select(Tournament.id).where(Tournament.id == tournament_id).with_for_update())
    session.expire_all()
