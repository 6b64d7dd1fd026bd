"""Bans the organizer recorded (002 §4.1.14) and the entries they bar.

"When a player stops playing without a good reason, the organization running the competition may
deprive him of the right to take part in its tournaments for up to three years" (002 §4.1.14).
The ban is recorded on the player's withdrawal case (`Desk.record_ban`); this module reads those
cases back through `adjudication` and answers the registration's question: may this person be
entered in a tournament that starts on this date?

Reading (docs/rules/referee.md): a ban bars every tournament that starts on or before the ban's
last day — taking part in a tournament is the right withdrawn, and it begins at the start.
A person is the same person as registration itself decides (`corrmail.tournaments.registration`): by e-mail
address, case ignored; a player without an e-mail (by post only) by his name, spaces and case
ignored, among banned players without an e-mail.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import case_from_dict
from adjudication.withdrawal import Withdrawal
from corrmail.models import Case, CaseType

__all__ = ["BAN_RULE", "Ban", "bans_in_force", "ban_barring"]

BAN_RULE = "002 §4.1.14"


@dataclass(frozen=True)
class Ban:
    """A recorded ban: who, until when (inclusive), and the case that records it."""

    player_id: int
    name: str
    email: str | None
    until: dt.date
    case_id: int


def bans_in_force(session: Session, starting_on: dt.date) -> list[Ban]:
    """Every ban that bars a tournament starting on ``starting_on`` (its last day not before)."""
    rows = session.scalars(
        select(Case).where(Case.case_type == CaseType.WITHDRAWAL).order_by(Case.id)
    ).all()
    bans = []
    for row in rows:
        case = case_from_dict(row.payload)
        if not isinstance(case, Withdrawal) or case.ban_until is None or row.participant is None:
            continue
        if case.ban_until >= starting_on:
            player = row.participant.player
            bans.append(Ban(player.id, player.name, player.email, case.ban_until, row.id))
    return bans


def ban_barring(bans: Sequence[Ban], *, name: str, email: str | None) -> Ban | None:
    """The ban (the longest, if several) that bars this person, or ``None``."""
    matching = [ban for ban in bans if _same_person(ban, name, email)]
    return max(matching, key=lambda ban: ban.until, default=None)


def _same_person(ban: Ban, name: str, email: str | None) -> bool:
    if email:
        return ban.email is not None and ban.email.casefold() == email.casefold()
    return ban.email is None and _name_key(ban.name) == _name_key(name)


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()
