"""``corrmail api-token issue|revoke LOGIN``: bearer tokens for the JSON API (docs/api.md)."""

from __future__ import annotations

import click
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.commands import command_transaction
from corrmail.models import User
from corrmail.people.api_tokens import issue_token, revoke_tokens

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Add ``api-token`` to the ``corrmail`` group."""
    group.add_command(api_token)


@click.group("api-token")
def api_token() -> None:
    """Bearer tokens for /api/v1; a token sees what its user sees."""


def _user(session: Session, login: str) -> User:
    user = session.scalar(select(User).where(User.login == login))
    if user is None:
        raise click.ClickException(f"no user with the login {login!r}")
    return user


@api_token.command("issue")
@click.argument("login")
@click.option("--name", required=True, help="What the token is for, e.g. 'federation website'.")
def issue(login: str, name: str) -> None:
    """Print a new token for LOGIN (shown once; only its SHA-256 is stored)."""
    with command_transaction() as (_, session):
        token = issue_token(session, _user(session, login), name)
    click.echo(token)


@api_token.command("revoke")
@click.argument("login")
@click.option("--name", default=None, help="Only the tokens with this name (default: all).")
def revoke(login: str, name: str | None) -> None:
    """Revoke LOGIN's tokens."""
    with command_transaction() as (_, session):
        count = revoke_tokens(session, _user(session, login), name)
    click.echo(f"{count} token(s) revoked")
