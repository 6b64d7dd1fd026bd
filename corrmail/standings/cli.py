"""``corrmail standings CODE``, ``corrmail export CODE`` and ``corrmail playoff CODE ORDER``: the
table and the files of a tournament from the command line (the same adapter and formats as the
web pages), and the recorded play-off that decides places (000 §3.16.2, §3.17.6)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from corrmail.commands import command_session, command_transaction
from corrmail.standings.exports import (
    export_files,
    standings_csv,
    standings_json,
    standings_text,
    standings_trf,
)
from corrmail.standings.playoff import (
    PlayoffRefused,
    PlayoffSyntaxError,
    clear_playoff,
    record_playoff,
)
from corrmail.standings.results import (
    TournamentNotFound,
    TournamentTable,
    load_tournament,
    tournament_table,
)

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Add ``standings`` and ``export`` to the ``corrmail`` group."""
    group.add_command(standings)
    group.add_command(export)
    group.add_command(playoff)


@contextmanager
def _table(code: str, *, with_letters: bool = False) -> Iterator[TournamentTable]:
    """The table of CODE, read in one session; an unknown code or a table scoring cannot compute
    ends the command with the reason, while what the caller then does with it is not caught."""
    with command_session() as session:
        try:
            table = tournament_table(load_tournament(session, code, with_letters=with_letters))
        except (TournamentNotFound, ValueError) as error:
            raise click.ClickException(str(error)) from None
        yield table


@click.command()
@click.argument("code")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv", "trf"]), default="text",
              show_default=True, help="csv: UTF-8 with BOM, ';' and decimal commas (Excel); "
              "trf: FIDE's TRF-16 report file.")
def standings(code: str, fmt: str) -> None:
    """Print the standings and crosstable of tournament CODE."""
    with _table(code) as table:
        if fmt == "csv":
            click.echo(standings_csv(table), nl=False)
        elif fmt == "trf":
            click.echo(standings_trf(table), nl=False)
        else:
            click.echo(standings_json(table) if fmt == "json" else standings_text(table),
                       nl=fmt == "json")


@click.command()
@click.argument("code")
@click.option("--output", "-o", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Directory to write the files into (created if missing).")
def export(code: str, output: Path) -> None:
    """Write the CSV, JSON, printable crosstable, TRF-16 and PDN of every game of tournament CODE."""
    with _table(code, with_letters=True) as table:
        for path in export_files(table, output):
            click.echo(str(path))


@click.command()
@click.argument("code")
@click.argument("order", required=False, default="")
@click.option("--teams", is_flag=True, help="A team play-off (team names) instead of players' start numbers.")
@click.option("--clear", "remove", is_flag=True, help="Remove the recorded play-off.")
def playoff(code: str, order: str, teams: bool, remove: bool) -> None:
    """Record the outcome of a play-off of tournament CODE (000 §3.16.2): ORDER lists the groups
    in finishing order, '/' between places, e.g. "3 7 / 5" (3 and 7 share, then 5); with
    --teams, team names ("Казань / Уфа", 000 §3.17.6). Nothing is stored if it does not fit."""
    if remove == bool(order):
        raise click.UsageError("give the finishing ORDER, or --clear to remove the recorded play-off")
    with command_transaction() as (_, session):
        try:
            tournament = load_tournament(session, code)
            if remove:
                removed = clear_playoff(session, tournament, None, teams=teams)
                click.echo("play-off removed" if removed else "no play-off was recorded")
                return
            recorded = record_playoff(session, tournament, order, None, teams=teams)
        except (TournamentNotFound, PlayoffSyntaxError, PlayoffRefused) as error:
            raise click.ClickException(str(error)) from None
        click.echo("play-off recorded: " + " / ".join(", ".join(g) for g in recorded.groups))
