"""Whom a letter goes to: the same person, address and language for a case's letters and a
bulletin's addressees, worked out the same way for both."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

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
        """The player, written to in his account's language (Russian without an account)."""
        account = session.scalar(select(User).where(User.player_id == participant.player_id))
        language = (account.locale if account is not None else None) or "ru"
        return cls(participant.player.name, participant.player.email, language,
                   participant=participant)

    @classmethod
    def official(cls, user: User) -> Recipient:
        return cls(user.display_name, user.email, user.locale or "ru", user=user)
