"""A tournament's table and games as files: CSV for Excel, JSON, a printable text crosstable,
FIDE's TRF-16 report file and the PDN of every game.

Everything here formats what `corrmail.standings.results` (the table, computed by `scoring`) and
`notation` (the moves) already decided; no points are counted and no move is judged here.

CSV is written for the federation's Excel, which runs in a Russian locale: UTF-8 with a byte
order mark (so Cyrillic names open unmangled), ``;`` between fields and a decimal comma
(``6,5``), which is what Excel expects there. Machines read the JSON instead (points as
numbers, ``6.5``). The printable text crosstable is read by people and writes points as every
page does (``6½``, :func:`reader_points`). The TRF-16 file
is what rating offices and pairing programs exchange: `scoring.trf` writes it from the same
scoring tournament the table was computed from, with the places of the standings.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import jinja2

from corrmail.games.ledger import effective_letters
from corrmail.models import Game, GameResult, ResultKind, Role
from corrmail.models import Tournament as TournamentRow
from corrmail.standings.marks import marks_legend
from corrmail.standings.results import (
    TournamentTable,
    cell_text,
    round_cell_text,
)
from corrmail.standings.tiebreak_labels import tiebreak_label
from notation.game_position import initial_position
from notation.letters import play_moves
from notation.pdn import PdnGame, write_pdn
from notation.rules import GameType as BoardType
from scoring.trf import write_trf

__all__ = [
    "ExportedFiles",
    "export_files",
    "file_stem",
    "format_points",
    "games_pdn",
    "install_points_filter",
    "reader_points",
    "spreadsheet_safe",
    "standings_csv",
    "standings_json",
    "standings_text",
    "standings_trf",
]

CSV_DELIMITER = ";"

PDN_RESULTS = {
    GameResult.WHITE_WIN: "1-0",
    GameResult.BLACK_WIN: "0-1",
    GameResult.DRAW: "1/2-1/2",
    GameResult.DOUBLE_LOSS: "0-0",
}


def format_points(value: float | None, decimal: str = ".") -> str:
    """``6``, ``6.5`` (or ``6,5``), ``12.25``; ``""`` for a criterion without a value."""
    if value is None:
        return ""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", decimal)


_FRACTIONS = {0.25: "¼", 0.5: "½", 0.75: "¾"}


def reader_points(value: float | Decimal | None, decimal: str = ".") -> str:
    """Points as people read them on every page, paper and letter: ``6``, ``6½``, ``½``,
    ``12¼``, ``−1½`` (a Shmulyan coefficient below zero, with the minus sign). The rulebook
    counts in halves (000 §3.15.1), so points and the tiebreaks built from them (Buchholz,
    Sonneborn-Berger, Riga…) are multiples of a quarter and always read as fractions; only a
    value that is not (an average rating, 003 §9.1) is written with at most two decimals
    (``1533.33``, ``1533,33`` for a Russian reader: ``decimal`` is the reader's decimal mark).
    Files for programs keep :func:`format_points` (``6.5``, ``6,5`` in the CSV); the API keeps
    numbers (docs/rules/standings.md, "One reading of points")."""
    if value is None:
        return ""
    if not isinstance(value, int | float | Decimal):
        return str(value)
    number = float(value)
    sign, number = ("\u2212", -number) if number < 0 else ("", number)
    whole = int(number // 1)
    fraction = _FRACTIONS.get(round(number - whole, 6))
    if fraction is None:
        text = format_points(number, decimal)
        return text if text == "0" else sign + text
    return f"{sign}{whole or ''}{fraction}"


def decimal_mark(language: str | None) -> str:
    """The decimal mark a reader of ``language`` writes: a comma in Russian and Ukrainian
    (ГОСТ 8.417), a point in English."""
    return "," if language in ("ru", "uk") else "."


def install_points_filter(
    filters: MutableMapping[str, Callable[..., str]],
    reader_language: Callable[[str | None], str | None] = lambda template: None,
) -> None:
    """The one ``points`` filter of every template environment — the web pages, the printable
    papers (bulletins, final report, player's sheet) and the letters: points, match points
    and tiebreaks read alike everywhere (:func:`reader_points`), a decimal value (an average
    rating) with the decimal mark of the language being rendered, ``reader_language(name)``
    of the template being rendered (the letters' one environment writes both languages, each
    from its own folder)."""

    @jinja2.pass_context
    def points(context: jinja2.runtime.Context, value: float | Decimal | None) -> str:
        return reader_points(value, decimal_mark(reader_language(context.name)))

    filters["points"] = points


def _result_columns(table: TournamentTable) -> list[str]:
    if table.by_rounds:
        return [f"round {number}" for number in range(1, table.round_count + 1)]
    return [str(number) for number in table.crosstable.order]


def _result_cells(table: TournamentTable, index: int) -> list[str]:
    mark = table.marker(table.rows[index].start_no)
    if table.by_rounds:
        row = table.crosstable.rounds[index]
        return [round_cell_text(row[r] if r < len(row) else None, mark)
                for r in range(table.round_count)]
    return [
        "×" if index == column else cell_text(table.crosstable.matrix[index][column], mark)
        for column in range(len(table.crosstable.order))
    ]


def _header(table: TournamentTable) -> list[str]:
    return ["place", "start_no", "name", "club", "rating", *_result_columns(table), "points",
            "games", *table.tiebreaks]


PointsWriter = Callable[[float | None], str]
"""How a file writes points: :func:`reader_points` for people, :func:`_spreadsheet_points` for
the CSV."""


def _spreadsheet_points(value: float | None) -> str:
    """A number the federation's Excel reads in a Russian locale: ``6,5``."""
    return format_points(value, ",")


def _lines(table: TournamentTable, points: PointsWriter) -> list[list[str]]:
    lines = []
    for index, row in enumerate(table.rows):
        cells = _result_cells(table, index)
        lines.append([
            row.place, str(row.start_no), row.name, row.club,
            "" if row.rating is None else str(row.rating),
            *cells,
            points(row.points), str(row.games_played),
            *(points(row.tiebreaks.get(name)) for name in table.tiebreaks),
        ])
    return lines


def standings_csv(table: TournamentTable) -> bytes:
    """Standings with the crosstable, one row per player in standings order; columns: place,
    start number, name, club, rating, the results against each start number (in the order of
    the standings; a Swiss: each round's opponent, colour and result), points, games played
    and the tiebreaks in the tournament's order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    if table.teams:
        # A team event: the places are the teams' (000 §3.17.6), the players' rows follow
        # after an empty line as the boards' results.
        writer.writerow(spreadsheet_safe(_team_header(table)))
        writer.writerows(spreadsheet_safe(line) for line in _team_lines(table, _spreadsheet_points))
        writer.writerow([])
    writer.writerow(spreadsheet_safe(_header(table)))
    writer.writerows(spreadsheet_safe(line) for line in _lines(table, _spreadsheet_points))
    return buffer.getvalue().encode("utf-8-sig")


def standings_trf(table: TournamentTable) -> str:
    """The tournament as a TRF-16 file: code and title, dates, referee, time control, every
    player with his points and place, every round's opponent, colour and result (``+``/``-``
    for games not played, 002 §4.5.8), and the project's ``CM?`` lines for what TRF-16 has no
    field for (adjudicated and annulled games, withdrawals, the play-off)."""
    tournament = table.tournament
    referees = sorted(official.user.display_name for official in tournament.officials
                      if official.role is Role.REFEREE)
    header = {
        "start_date": tournament.start_date.strftime("%Y/%m/%d"),
        "end_date": tournament.end_date.strftime("%Y/%m/%d"),
        "players": str(len(table.rows)),
        "rated_players": str(sum(1 for row in table.rows if row.rating)),
        **({"chief_arbiter": ", ".join(referees)} if referees else {}),
        "time_control": f"{tournament.time_control_days} days / {tournament.time_control_moves} moves",
    }
    named = dataclasses.replace(table.scoring, name=f"{tournament.code} {tournament.title}".strip(),
                                header=header)
    return write_trf(named, {row.start_no: row.position for row in table.rows})


#: What makes a spreadsheet read a cell as a formula (or, for tab and CR, split it first).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cells: Iterable[object]) -> list[str]:
    """The cells of one CSV row, each beginning with a formula character quoted by a leading
    apostrophe (OWASP's advice against CSV injection): a player named ``=HYPERLINK(…)`` reaches
    the spreadsheet as text. Negative numbers (``-1``, ``-0,5``) stay numbers, and a lone ``-``
    (an empty crosstable cell) is no formula."""
    safe = []
    for cell in cells:
        text = "" if cell is None else str(cell)
        if len(text) > 1 and text.startswith(FORMULA_STARTS) and not _is_number(text):
            text = "'" + text
        safe.append(text)
    return safe


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ".").replace("\u2212", "-"))
    except ValueError:
        return False
    return text.lstrip("+-").replace(",", "").replace(".", "").isdigit()


def _team_header(table: TournamentTable) -> list[str]:
    return ["place", "team", "match_points", "game_points", *table.team_tiebreaks]


def _team_lines(table: TournamentTable, points: PointsWriter) -> list[list[str]]:
    return [
        [row.place, row.team, points(row.match_points), points(row.game_points),
         *(points(row.tiebreaks.get(name)) for name in table.team_tiebreaks)]
        for row in table.teams
    ]


def _columns(rows: list[list[str]]) -> list[str]:
    """Rows of cells as fixed-width lines."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def standings_json(table: TournamentTable) -> str:
    return json.dumps(table.as_dict(), ensure_ascii=False, indent=1)


def standings_text(table: TournamentTable) -> str:
    """The crosstable as a fixed-width page for printing or e-mail."""
    tournament = table.tournament
    header = _header(table)
    # Read by people: points as on every page (6½), not the CSV's numbers.
    lines = _lines(table, reader_points)
    header[0:5] = ["", "№", "", "", ""]
    # Read by people, not programs: the tiebreaks under their names, the CSV keeps the codes.
    labels = [tiebreak_label(name) for name in table.tiebreaks]
    if labels:
        header[-len(labels):] = [label.short for label in labels]
    # The club and rating columns make a printed crosstable too wide; the CSV keeps them.
    rows = [[line[0], line[1], line[2], *line[5:]] for line in [header, *lines]]
    text = [f"{tournament.code} — {tournament.title}", ""]
    team_labels = [tiebreak_label(name, team=True) for name in table.team_tiebreaks]
    if table.teams:
        team_header = ["", "team", "match pts", "game pts", *(label.short for label in team_labels)]
        text.extend(_columns([team_header, *_team_lines(table, reader_points)]))
        text.append("")
        text.append("team tiebreaks in order: " + "; ".join(
            f"{label.short} — {label.title} ({label.rule})" for label in team_labels))
        text.append("")
        text.append("boards:")
    text.extend(_columns(rows))
    text.append("")
    text.append(marks_legend(str) + " Tiebreaks in order: "
                + "; ".join(f"{label.short} — {label.title} ({label.rule})" for label in labels))
    return "\n".join(text) + "\n"


def _pdn_game(tournament: TournamentRow, game: Game, board_type: BoardType | None) -> PdnGame:
    headers = {
        "Event": f"{tournament.code} {tournament.title}",
        "Round": str(game.round),
        "White": game.white.player.name,
        "Black": game.black.player.name,
    }
    if game.result_kind is not None and game.result_kind is not ResultKind.PLAYED:
        headers["Termination"] = game.result_kind.value + (
            f" ({game.result_rule})" if game.result_rule else ""
        )
    pdn = PdnGame(headers=headers, result=PDN_RESULTS.get(game.result, "*")
                  if game.result is not None else "*")
    if board_type is None:
        return pdn
    pdn.game_type = board_type
    pdn.start = initial_position(board_type)
    plies = [ply for letter in effective_letters(game.letters) for ply in letter.moves_text.split()]
    played = play_moves(board_type, plies)
    pdn.moves = list(played.moves)
    if not played.complete:
        # The ledger is what was received; an unreadable move ends the record, said so.
        pdn.comments[len(pdn.moves)] = f"unreadable move on record: {plies[len(pdn.moves)]}"
    return pdn


def games_pdn(tournament: TournamentRow, include: Callable[[Game], bool] | None = None) -> str:
    """Every game of the tournament (those ``include`` lets through, when given), in round
    order, as one PDN file (moves as corrected, 002 §4.2.5). Game types the notation package
    cannot replay are written without moves."""
    try:
        board_type: BoardType | None = BoardType[tournament.game_type.name]
    except KeyError:
        board_type = None
    return "\n".join(
        write_pdn(_pdn_game(tournament, game, board_type)) for game in tournament.games
        if include is None or include(game)
    )


@dataclass(frozen=True)
class ExportedFiles:
    csv: Path
    json: Path
    text: Path
    trf: Path
    pdn: Path

    def __iter__(self) -> Iterator[Path]:
        return iter((self.csv, self.json, self.text, self.trf, self.pdn))


def file_stem(code: str) -> str:
    """The tournament code as a file name: Cyrillic kept, path separators replaced."""
    return "".join("_" if char in '/\\:*?"<>|' else char for char in code).strip(". ") or "tournament"


def export_files(table: TournamentTable, directory: Path) -> ExportedFiles:
    """Write ``<code>-standings.csv``, ``<code>-standings.json``, ``<code>-crosstable.txt``,
    ``<code>.trf`` and ``<code>.pdn`` into ``directory`` (created if missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = file_stem(table.tournament.code)
    files = ExportedFiles(
        csv=directory / f"{stem}-standings.csv",
        json=directory / f"{stem}-standings.json",
        text=directory / f"{stem}-crosstable.txt",
        trf=directory / f"{stem}.trf",
        pdn=directory / f"{stem}.pdn",
    )
    files.csv.write_bytes(standings_csv(table))
    files.json.write_text(standings_json(table), encoding="utf-8")
    files.text.write_text(standings_text(table), encoding="utf-8")
    files.trf.write_text(standings_trf(table), encoding="utf-8")
    files.pdn.write_text(games_pdn(table.tournament), encoding="utf-8")
    return files
