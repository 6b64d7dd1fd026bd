"""``corrmail games verify [CODE]`` and ``corrmail games rebuild [CODE]``: the stored game
states (:mod:`corrmail.games.state`) checked against, and recomputed from, every ledger."""

from __future__ import annotations

import click

from corrmail.commands import command_session, command_transaction
from corrmail.games.state import rebuild, verify
from corrmail.models import TournamentNotFound

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Add ``games`` to the ``corrmail`` group."""
    group.add_command(games)


@click.group()
def games() -> None:
    """Games: the state kept with each ledger (position, totals, clock, flags), and finished
    games imported from a PDN archive."""


@games.command("verify")
@click.argument("code", required=False)
def verify_command(code: str | None) -> None:
    """Replay every ledger (of tournament CODE) and compare it with the stored state; exit 1
    naming each game that differs."""
    with command_session() as session:
        try:
            differences = verify(session, code)
        except TournamentNotFound as error:
            raise click.ClickException(str(error)) from None
    for difference in differences:
        click.echo(difference.describe(), err=True)
    if differences:
        raise click.ClickException(
            f"{len(differences)} game(s) differ from their ledger; `corrmail games rebuild` "
            "recomputes them")
    click.echo("every stored game state matches its ledger")


@games.command("rebuild")
@click.argument("code", required=False)
def rebuild_command(code: str | None) -> None:
    """Recompute the stored state of every game (of tournament CODE) from its ledger."""
    try:
        with command_transaction() as (_, session):
            count = rebuild(session, code)
    except TournamentNotFound as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{count} game state(s) recomputed")
