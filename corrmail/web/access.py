"""Who may see what: officials see their tournaments' games, players their own games."""

from __future__ import annotations

from sqlalchemy import select

from corrmail.models import Game, Role, TournamentOfficial, User
from corrmail.web.database import db_session


def is_official_of(user: User, tournament_id: int) -> bool:
    if user.has_role(Role.ORGANIZER):
        return True
    return (
        db_session().scalar(
            select(TournamentOfficial.user_id).where(
                TournamentOfficial.user_id == user.id,
                TournamentOfficial.tournament_id == tournament_id,
            )
        )
        is not None
    )


def can_view_game(user: User, game: Game) -> bool:
    if is_official_of(user, game.tournament_id):
        return True
    return user.player_id is not None and user.player_id in (
        game.white.player_id,
        game.black.player_id,
    )
