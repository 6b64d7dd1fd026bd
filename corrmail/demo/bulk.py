"""What the generators of large data sets share to write fast: primary keys assigned by the
generator, so rows go in with bulk Core inserts in batches and no round trip per row; PostgreSQL's
id sequences are then moved past the assigned keys. The inserts themselves stay in the
generators, the only modules allowed to write letters as plain rows (tests/test_game_core.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from corrmail.models import Base, Game, Letter, Participant, Player, Tournament

__all__ = ["GENERATED_TABLES", "advance_sequences", "first_free_id", "in_batches"]

#: The tables a generator fills with keys of its own.
GENERATED_TABLES: tuple[type[Base], ...] = (Player, Tournament, Participant, Game, Letter)


def first_free_id(session: Session, model: Any) -> int:
    """The first key above every row ``model``'s table holds (existing rows are kept)."""
    return (session.scalar(select(func.max(model.id))) or 0) + 1


def in_batches(rows: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    """``rows`` in lists of ``size`` (the last one shorter), one insert statement each: few
    statements, none too large for the driver."""
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def advance_sequences(session: Session) -> None:
    """Keys were assigned by the generator; PostgreSQL's sequences must continue after them (an
    empty table's sequence is left as it is)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for model in GENERATED_TABLES:
        name = model.__tablename__
        session.execute(text(
            f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT max(id) FROM {name}))"
        ))
