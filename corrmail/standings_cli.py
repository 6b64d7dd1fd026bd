"""``corrmail standings CODE`` and ``corrmail export CODE``: the table and the files of a
tournament from the command line (the same adapter and formats as the web pages)."""

from __future__ import annotations

from pathlib import Path

import click

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.exports import export_files, standings_csv, standings_json, standings_text
from corrmail.standings import TournamentNotFound, load_tournament, tournament_table

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Add ``standings`` and ``export`` to the ``corrmail`` group."""
    group.add_command(standings)
    group.add_command(export)


@click.command()
@click.argument("code")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="csv: UTF-8 with BOM, ';' and decimal commas (Excel).")
def standings(code: str, fmt: str) -> None:
    """Print the standings and crosstable of tournament CODE."""
    database = Database(Settings.from_env().database_url)
    try:
        with database.session() as session:
            try:
                table = tournament_table(load_tournament(session, code))
            except (TournamentNotFound, ValueError) as error:
                raise click.ClickException(str(error)) from None
            if fmt == "csv":
                click.echo(standings_csv(table), nl=False)
            else:
                click.echo(standings_json(table) if fmt == "json" else standings_text(table),
                           nl=fmt == "json")
    finally:
        database.dispose()


@click.command()
@click.argument("code")
@click.option("--output", "-o", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Directory to write the files into (created if missing).")
def export(code: str, output: Path) -> None:
    """Write the CSV, JSON, printable crosstable and PDN of every game of tournament CODE."""
    database = Database(Settings.from_env().database_url)
    try:
        with database.session() as session:
            try:
                table = tournament_table(load_tournament(session, code, with_letters=True))
            except (TournamentNotFound, ValueError) as error:
                raise click.ClickException(str(error)) from None
            for path in export_files(table, output):
                click.echo(str(path))
    finally:
        database.dispose()
