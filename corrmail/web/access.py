"""Who may see what: officials see their tournaments' games, players their own games."""

from __future__ import annotations

from flask import abort
from flask_login import current_user
from sqlalchemy import select

from corrmail.models import (
    Case,
    CaseType,
    Game,
    Participant,
    Role,
    Tournament,
    TournamentOfficial,
    User,
)
from corrmail.web.database import db_session


def tournament_or_404(code: str) -> Tournament:
    tournament = db_session().scalar(select(Tournament).where(Tournament.code == code))
    if tournament is None:
        abort(404)
    return tournament


def participant_or_404(tournament: Tournament, participant_id: int) -> Participant:
    """A participant of ``tournament``; an id from another tournament is as unknown as none."""
    participant = db_session().get(Participant, participant_id)
    if participant is None or participant.tournament_id != tournament.id:
        abort(404)
    return participant


def official_tournament(code: str) -> Tournament:
    """The tournament ``code`` if the current user serves it (or directs every tournament):
    404 when there is none, 403 when it is not theirs."""
    return for_officials(tournament_or_404(code))


def for_officials(tournament: Tournament) -> Tournament:
    """``tournament`` if the current user serves it (or directs every tournament); 403 when it
    is not his."""
    if not is_official_of(current_user, tournament.id):
        abort(403)
    return tournament


def is_official_of(user: User, tournament_id: int, *, serving_as: Role | None = None) -> bool:
    """Whether ``user`` serves the tournament (as ``serving_as`` when given: the referee, say);
    an organizer directs every tournament."""
    if user.has_role(Role.ORGANIZER):
        return True
    query = select(TournamentOfficial.user_id).where(
        TournamentOfficial.user_id == user.id, TournamentOfficial.tournament_id == tournament_id
    )
    if serving_as is not None:
        query = query.where(TournamentOfficial.role == serving_as)
    return db_session().scalar(query) is not None


def can_view_game(user: User, game: Game) -> bool:
    if is_official_of(user, game.tournament_id):
        return True
    return user.player_id is not None and user.player_id in (
        game.white.player_id,
        game.black.player_id,
    )


def letters_kept_from(user: User, game: Game) -> set[int]:
    """Letters of ``game`` whose text ``user`` may not read: an overstep claim, with the reply
    held in it, stays with the claimant and the officials until the referee decides
    (002 §4.3.6). Officials read every letter; a player his own and the partner's others."""
    if is_official_of(user, game.tournament_id) or user.player_id is None:
        return set()
    claims = db_session().scalars(
        select(Case).where(Case.game_id == game.id, Case.case_type == CaseType.OVERSTEP_CLAIM,
                           Case.closed_at.is_(None))
    ).all()
    kept = set()
    for claim in claims:
        claimant = game.white if claim.participant_id == game.white_id else game.black
        if claimant.player_id == user.player_id:
            continue
        kept |= {letter.id for letter in game.letters
                 if letter.sender_id == claim.participant_id and claim.letter_text
                 and letter.raw_text == claim.letter_text}
    return kept
def visible_tournament_ids(user: User) -> set[int] | None:
    """The tournaments ``user`` may see: every one for an organizer (None), else those he serves
    as referee or steward and those he plays in, nothing else."""
    if user.has_role(Role.ORGANIZER):
        return None
    session = db_session()
    served = set(session.scalars(
        select(TournamentOfficial.tournament_id).where(TournamentOfficial.user_id == user.id)))
    if user.player_id is not None:
        served |= set(session.scalars(select(Participant.tournament_id).where(
            Participant.player_id == user.player_id)))
    return served


def may_see_tournament(user: User, tournament_id: int) -> bool:
    visible = visible_tournament_ids(user)
    return visible is None or tournament_id in visible
