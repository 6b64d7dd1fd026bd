"""Games entered from a PDN archive of games played before the service was used."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from corrmail.models.base import Base, utcnow
from corrmail.models.games import Game
from corrmail.models.people import User


class GameImport(Base):
    """Where an imported game came from: the file, its record as read, and the reader's warnings.

    The game itself is an ordinary finished ``Game``; its moves were never letters, so they are
    kept here (full notation, one move a word) next to the PDN record they were read from.
    """

    __tablename__ = "game_imports"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    source: Mapped[str] = mapped_column(String(300))
    game_number: Mapped[int]  # position of the game in the file, from 1
    pdn: Mapped[str] = mapped_column(Text)
    moves_text: Mapped[str] = mapped_column(Text, default="")
    warnings: Mapped[list[str]] = mapped_column(JSON, default=list)
    imported_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    imported_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship()
    imported_by: Mapped[User | None] = relationship()
