"""Whom a letter goes to: the same person, address and language for a case's letters, a
bulletin's addressees and a game's letters, worked out the same way for all of them.

How a player plays (:func:`channel_of`) decides where his game letters go
(:func:`game_letter_addressees`): to his own address when the server relays his partner's letters
by e-mail, else to each steward of his tournament, who posts it to him (002 §4.1.1)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.letters.write import DEFAULT_LANGUAGE
from corrmail.models import (
    Channel,
    Participant,
    Role,
    TournamentChannel,
    TournamentOfficial,
    User,
)

__all__ = [
    "Recipient", "channel_of", "game_letter_addressees", "plays_by_email", "stewards_with_address",
]


@dataclass(frozen=True)
class Recipient:
    """``email`` is ``None`` for a player who plays by post (his letter is posted instead);
    ``user`` is set for an official, a player is known by ``participant``. ``posts_to`` is the
    player a steward posts this letter to, when it is written to the steward for him."""

    name: str
    email: str | None
    language: str
    participant: Participant | None = None
    user: User | None = None
    posts_to: Participant | None = None

    @classmethod
    def player(cls, session: Session, participant: Participant) -> Recipient:
        """The player, written to in his own letter language (the director's or his own choice),
        never in the language of whoever's action wrote the letter."""
        player = participant.player
        return cls(player.name, player.email, player.language or DEFAULT_LANGUAGE,
                   participant=participant)

    @classmethod
    def official(cls, user: User, *, posts_to: Participant | None = None) -> Recipient:
        return cls(user.display_name, user.email, user.locale or DEFAULT_LANGUAGE, user=user,
                   posts_to=posts_to)


def channel_of(participant: Participant) -> Channel:
    """How this player plays: his own channel, else the tournament's; a mixed tournament plays
    by e-mail with those who gave an address and by post with the others (002 §4.1.1)."""
    if participant.channel is not None:
        return participant.channel
    channel = participant.tournament.channel
    if channel is TournamentChannel.PHONE:
        return Channel.PHONE
    if channel is TournamentChannel.POST:
        return Channel.POST
    if channel is TournamentChannel.EMAIL:
        return Channel.EMAIL
    return Channel.EMAIL if participant.player.email else Channel.POST


def plays_by_email(participant: Participant) -> bool:
    """Whether the server relays the partner's letters to ``participant`` by e-mail: he plays by
    e-mail or on the web (:func:`channel_of`) and has an address. A postal or telephone player
    gets them from the steward, even with an address on file (he may have given one for his
    start sheet or his login)."""
    return channel_of(participant) in (Channel.EMAIL, Channel.WEB) and bool(participant.player.email)


def stewards_with_address(session: Session, tournament_id: int) -> list[User]:
    """The tournament's stewards who can be written to, in the order they were made officials'
    accounts (the others see what they have to post on their dashboard)."""
    return [user for user in session.scalars(
        select(User).join(TournamentOfficial, TournamentOfficial.user_id == User.id)
        .where(TournamentOfficial.tournament_id == tournament_id,
               TournamentOfficial.role == Role.STEWARD)
        .order_by(User.id)
    ) if user.email]


def game_letter_addressees(session: Session, participant: Participant) -> list[Recipient]:
    """Where a game letter meant for ``participant`` goes: to him when he plays by e-mail or on
    the web (:func:`plays_by_email`), else to each steward of the tournament with an address,
    who posts it to him (002 §4.1.1) — not to an address he gave for his login or start sheet
    and does not read for play."""
    if plays_by_email(participant):
        return [Recipient.player(session, participant)]
    return [Recipient.official(steward, posts_to=participant)
            for steward in stewards_with_address(session, participant.tournament_id)]
