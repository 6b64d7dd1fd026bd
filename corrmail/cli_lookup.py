"""What the command-line tools look up from their arguments: the tournament a CODE names, the
user ``--by`` names and the day ``--today`` names, each read the same way in every command."""

from __future__ import annotations

import datetime as dt

import click
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.clock import today as service_today
from corrmail.config import Settings
from corrmail.models import Tournament, User

__all__ = ["day_by_option", "tournament_by_code", "user_by_option"]


def tournament_by_code(session: Session, code: str) -> Tournament:
    found = session.scalar(select(Tournament).where(Tournament.code == code))
    if found is None:
        raise click.ClickException(f"no tournament {code!r}")
    return found


def user_by_option(session: Session, login: str | None) -> User | None:
    """The user ``--by LOGIN`` names (matched exactly), or None without ``--by``."""
    if login is None:
        return None
    user = session.scalar(select(User).where(User.login == login))
    if user is None:
        raise click.BadParameter(f"no user {login!r}", param_hint="--by")
    return user


def day_by_option(settings: Settings, tournament: Tournament, day: dt.datetime | None) -> dt.date:
    """The day ``--today`` names, else the service's today where the tournament is played."""
    return day.date() if day is not None else service_today(settings.today, tournament.time_zone)
