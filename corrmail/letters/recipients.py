"""Whom a letter goes to: the same person, address and language for a case's letters and a
bulletin's addressees, worked out the same way for both."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from corrmail.letters.write import DEFAULT_LANGUAGE
from corrmail.models import Participant, User

__all__ = ["Recipient"]


@dataclass(frozen=True)
class Recipient:
    """``email`` is ``None`` for a player who plays by post (his letter is posted instead);
    ``user`` is set for an official, a player is known by ``participant``."""

    name: str
    email: str | None
    language: str
    participant: Participant | None = None
    user: User | None = None

    @classmethod
    def player(cls, session: Session, participant: Participant) -> Recipient:
        """The player, written to in his own letter language (the director's or his own choice),
        never in the language of whoever's action wrote the letter."""
        player = participant.player
        return cls(player.name, player.email, player.language or DEFAULT_LANGUAGE,
                   participant=participant)

    @classmethod
    def official(cls, user: User) -> Recipient:
        return cls(user.display_name, user.email, user.locale or DEFAULT_LANGUAGE, user=user)
