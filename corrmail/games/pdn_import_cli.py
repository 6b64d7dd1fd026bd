"""``corrmail games import-pdn CODE FILE``: finished games from a PDN archive (corrmail.games.pdn_import)."""

from __future__ import annotations

from pathlib import Path

import click

from corrmail.commands import command_transaction, tournament_by_code, user_by_option
from corrmail.games.cli import games
from corrmail.games.pdn_import import (
    ArchiveCheck,
    ArchiveError,
    check_archive,
    decode_archive,
    import_archive,
)


def register(group: click.Group) -> None:
    """Add ``games import-pdn`` to the ``corrmail games`` group (one group for games)."""
    if "games" not in group.commands:
        group.add_command(games)


@games.command("import-pdn")
@click.argument("code")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--by", "login", default=None, help="Who imports, for the audit log.")
@click.option("--dry-run", is_flag=True, help="Check and report only; write nothing.")
def import_pdn(code: str, path: Path, login: str | None, dry_run: bool) -> None:
    """Import the finished games of a PDN archive into tournament CODE.

    Every game is checked as `python -m notation check` checks it; warnings are printed with
    their game. Games that cannot be imported are listed with the reason and skipped."""
    with command_transaction() as (_settings, session):
        tournament = tournament_by_code(session, code)
        user = user_by_option(session, login)
        try:
            text = decode_archive(path.read_bytes())
        except ArchiveError as error:
            raise click.ClickException(str(error)) from error
        if dry_run:
            check = check_archive(session, tournament, text, path.name)
        else:
            check = import_archive(session, tournament, text, path.name, user)
        _report(check, dry_run)


def _report(check: ArchiveCheck, dry_run: bool) -> None:
    for game in check.games:
        label = f"game {game.number} (round {game.round or '?'}: {game.white or '?'} - {game.black or '?'})"
        for warning in game.warnings:
            click.echo(f"{label}: warning: {warning}")
        for problem in game.problems:
            click.echo(f"{label}: not imported: {problem}")
    verb = "importable" if dry_run else "imported"
    click.echo(
        f"{check.source}: {len(check.games)} games, {len(check.importable)} {verb}, "
        f"{len(check.games) - len(check.importable)} not, {check.warning_count} warnings"
    )
