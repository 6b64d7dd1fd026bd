"""What the command-line tools look up from their arguments: the tournament a CODE names and
the user ``--by`` names, each refused with the same words in every command."""

from __future__ import annotations

import click
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.models import Tournament, User

__all__ = ["tournament_by_code", "user_by_option"]


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
