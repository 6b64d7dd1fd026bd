"""The officials of a tournament: its referee and its stewards (002 §4.1.6–4.1.8).

The organizing body appoints them (002 §4.1.6); one referee per tournament, any number of
stewards (each keeps the games the organizer gives him; without a steward the referee does his
work, 002 §4.1.8). A referee or steward sees and acts on the tournaments he serves, nothing else
(``corrmail.web.access``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.models import Role, Tournament, TournamentOfficial, User
from corrmail.people.accounts import AccountRefused, user_by_login

__all__ = ["OfficialRefused", "OfficialsChange", "StewardPost", "change_officials", "officials_of",
           "served_ids", "steward_post"]

SERVING_ROLES = (Role.REFEREE, Role.STEWARD)


class OfficialRefused(AccountRefused):
    """An appointment that cannot be made; nothing was changed."""


@dataclass(frozen=True)
class OfficialsChange:
    referee: str | None = None
    stewards: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()


def officials_of(session: Session, tournament: Tournament) -> list[TournamentOfficial]:
    return list(session.scalars(
        select(TournamentOfficial).where(TournamentOfficial.tournament_id == tournament.id)
        .order_by(TournamentOfficial.role, TournamentOfficial.user_id)
    ))


@dataclass(frozen=True)
class StewardPost:
    """Where a player who plays by post writes his cards: the steward and his address."""

    name: str
    address: str | None


def steward_post(session: Session, tournament: Tournament) -> StewardPost | None:
    """The official a postal player writes his cards to: the tournament's steward (002 §4.1.8;
    the first appointed who has an address), else its referee, who does a missing steward's work;
    at the address of his account, else of his own player's entry (a playing steward). None: no
    official is appointed yet."""
    for role in (Role.STEWARD, Role.REFEREE):
        serving = session.scalars(
            select(User).join(TournamentOfficial, TournamentOfficial.user_id == User.id)
            .where(TournamentOfficial.tournament_id == tournament.id,
                   TournamentOfficial.role == role)
            .order_by(TournamentOfficial.user_id)
        ).all()
        if serving:
            chosen = next((user for user in serving if _address_of(user)), serving[0])
            return StewardPost(chosen.display_name, _address_of(chosen))
    return None


def _address_of(user: User) -> str | None:
    return user.postal_address or (user.player.postal_address if user.player else None)


def served_ids(session: Session, user: User) -> set[int]:
    """The ids of the tournaments ``user`` serves as referee or steward."""
    return set(session.scalars(
        select(TournamentOfficial.tournament_id).where(TournamentOfficial.user_id == user.id)
    ))


def _account(session: Session, login: str, role: Role) -> User:
    user = user_by_login(session, login)
    if user is None:
        raise OfficialRefused("unknown_login", f"no account with the login {login!r}", login=login)
    if not user.active:
        raise OfficialRefused("inactive", f"{user.login} is deactivated", login=user.login)
    if not user.has_role(role):
        raise OfficialRefused(
            "lacks_role", f"{user.login} does not hold the role {role.value}; give it first",
            login=user.login, role=role.value)
    return user


def change_officials(session: Session, tournament: Tournament, change: OfficialsChange,
                     *, by: User | None) -> list[TournamentOfficial]:
    """Remove, then appoint; all or nothing (every login is checked before anything changes).

    A new referee replaces the one serving; stewards are added to those serving.
    """
    current = officials_of(session, tournament)
    removals: list[TournamentOfficial] = []
    for login in change.remove:
        user = user_by_login(session, login)
        rows = [row for row in current if user is not None and row.user_id == user.id]
        if not rows:
            raise OfficialRefused("not_serving", f"{login} does not serve {tournament.code}",
                                  login=login, tournament=tournament.code)
        removals.extend(rows)
    referee = _account(session, change.referee, Role.REFEREE) if change.referee else None
    stewards = [_account(session, login, Role.STEWARD) for login in change.stewards]
    if referee is not None:
        removals.extend(row for row in current if row.role is Role.REFEREE
                        and row.user_id != referee.id and row not in removals)
    for row in removals:
        session.delete(row)
        audit.record(session, user=by, action="tournament.official_removed", entity="tournament",
                     entity_id=tournament.id, tournament_id=tournament.id, rule="002 §4.1.6",
                     summary=f"{row.user.login}: {row.role.value}")
    session.flush()
    kept = {(row.user_id, row.role) for row in current if row not in removals}
    wanted: Sequence[tuple[User, Role]] = (
        ([(referee, Role.REFEREE)] if referee is not None else [])
        + [(steward, Role.STEWARD) for steward in stewards])
    for user, role in wanted:
        if (user.id, role) in kept:
            continue
        session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id, role=role))
        kept.add((user.id, role))
        audit.record(session, user=by, action="tournament.official_appointed",
                     entity="tournament", entity_id=tournament.id, tournament_id=tournament.id,
                     rule="002 §4.1.6", summary=f"{user.login}: {role.value}")
    session.flush()
    session.expire(tournament, ["officials"])
    return officials_of(session, tournament)
