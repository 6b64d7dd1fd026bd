"""The standings page, the printable crosstable and the exports (CSV, JSON, TRF-16, PDN, text)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.models import GameResult, ResultKind, Tournament, TournamentSystem
from corrmail.standings.exports import (
    export_files,
    format_points,
    games_pdn,
    standings_text,
    standings_trf,
)
from corrmail.standings.results import load_tournament, tournament_table
from notation.pdn import read_pdn
from scoring.standings import standings
from scoring.trf import load_trf
from tests.standings.conftest import CYRILLIC_NAME, add_games

CODE = "КР-1"


@pytest.fixture
def db_url(sqlite_url: str) -> str:
    """SQLite only: these tests are about formats; the adapter's query runs on both backends."""
    return sqlite_url


def test_page_shows_places_marks_and_tiebreaks(
    player_client: FlaskClient, results_tournament: Tournament
) -> None:
    page = player_client.get(f"/tournaments/{CODE}/standings").get_data(as_text=True)
    assert CYRILLIC_NAME in page
    assert '<td class="place">1</td>' in page
    assert "+</span>" in page and "−</span>" in page
    assert '<span class="result adjudicated" title="' in page and "½<sup>*</sup>" in page
    assert "† " in page and "‡ " in page  # the legend of the marks
    # The columns carry the rulebook's names (001 §5.4.8.3, §5.4.8.2), in the regulations' order,
    # with the full rule in the tooltip; the code names stay in the exports only.
    berger = ('<th class="num" title="Система коэффициентов Зонненборна-Бергера: очки участников, '
              "у которых игрок выиграл, и половина очков участников, с которыми он сыграл вничью "
              '(001 §5.4.8.3.1, 003 §9.13)">Зонненборн-Бергер</th>')
    wins = '(000 §3.16.3, 001 §5.4.8.2)">Победы</th>'
    assert berger in page and wins in page
    assert page.index(berger) < page.index(wins)
    assert "1. Зонненборн-Бергер — Система коэффициентов Зонненборна-Бергера" in page  # legend
    assert "sonneborn_berger" not in page and "wins" not in page


def test_english_page_shows_english_tiebreak_labels(
    player_client: FlaskClient, results_tournament: Tournament
) -> None:
    with player_client.session_transaction() as session:
        session["locale"] = "en"
    page = player_client.get(f"/tournaments/{CODE}/standings").get_data(as_text=True)
    assert ('title="Sonneborn-Berger coefficient: points of the opponents beaten plus half the '
            'points of the opponents drawn with (001 §5.4.8.3.1, 003 §9.13)">Sonneborn-Berger</th>'
            in page)
    assert ">Wins</th>" in page
    assert "sonneborn_berger" not in page and ">wins<" not in page
    printable = player_client.get(f"/tournaments/{CODE}/crosstable/print").get_data(as_text=True)
    assert ">Sonneborn-Berger</th>" in printable and "sonneborn_berger" not in printable


def test_printable_crosstable_is_a_page_of_its_own(
    player_client: FlaskClient, results_tournament: Tournament
) -> None:
    response = player_client.get(f"/tournaments/{CODE}/crosstable/print")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "@page" in page and "site" not in page  # no navigation header on paper
    assert CYRILLIC_NAME in page
    assert ">Зонненборн-Бергер</th>" in page and ">Победы</th>" in page
    assert "sonneborn_berger" not in page


def test_csv_opens_in_excel_with_cyrillic(
    player_client: FlaskClient, results_tournament: Tournament
) -> None:
    response = player_client.get(f"/tournaments/{CODE}/standings.csv")
    assert response.status_code == 200
    assert response.data.startswith(b"\xef\xbb\xbf")  # the BOM Excel needs to read UTF-8
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:5] == ["place", "start_no", "name", "club", "rating"]
    assert rows[0][-2:] == ["sonneborn_berger", "wins"]
    first = rows[1]
    assert first[:4] == ["1", "1", CYRILLIC_NAME, "Казань"]
    assert first[rows[0].index("points")] == "1,5"  # decimal comma for a Russian Excel
    forfeit_winner = next(row for row in rows[1:] if row[1] == "4")
    assert forfeit_winner[rows[0].index("3")] == "+"


def test_json_export_is_the_table(
    player_client: FlaskClient, database: Database, results_tournament: Tournament
) -> None:
    response = player_client.get(f"/tournaments/{CODE}/standings.json")
    data = json.loads(response.data)
    with database.session() as session:
        expected = tournament_table(load_tournament(session, CODE)).as_dict()
    assert data == json.loads(json.dumps(expected))
    assert data["tiebreaks"] == ["sonneborn_berger", "wins"]
    assert data["standings"][0]["name"] == CYRILLIC_NAME


def test_pdn_holds_every_game_with_its_moves(
    organizer_client: FlaskClient, demo_tournament: Tournament
) -> None:
    # An official reads every game; a player only their own (tests/ops/test_attack_findings.py).
    response = organizer_client.get(f"/tournaments/{DEMO_CODE}/games.pdn")
    assert response.status_code == 200
    games = read_pdn(response.get_data(as_text=True))
    assert len(games) == 15
    assert all(not game.errors for game in games)
    assert sum(len(game.moves) for game in games) > 0
    assert {game.result for game in games} >= {"1-0", "*"}
    assert games[0].headers["Event"].startswith(DEMO_CODE)


def test_unknown_tournament_is_404_and_anonymous_users_log_in(
    client: FlaskClient, player_client: FlaskClient, results_tournament: Tournament
) -> None:
    assert player_client.get("/tournaments/NONE/standings").status_code == 404
    assert player_client.get("/tournaments/NONE/games.pdn").status_code == 404
    assert client.get(f"/tournaments/{CODE}/standings").status_code == 302


def test_text_and_files_export(
    database: Database, demo_tournament: Tournament, tmp_path: Path
) -> None:
    with database.session() as session:
        table = tournament_table(load_tournament(session, DEMO_CODE, with_letters=True))
        text = standings_text(table)
        files = export_files(table, tmp_path / "out")
        pdn = games_pdn(table.tournament)
    assert text.splitlines()[0].startswith(DEMO_CODE)
    assert "adjudicated" in text.splitlines()[-1]
    assert text.splitlines()[2].split()[-2:] == ["Sonneborn-Berger", "Koya"]  # people read names
    assert "Koya — Koya system: points scored against" in text.splitlines()[-1]
    assert "sonneborn_berger" not in text and "koya" not in text
    assert sorted(path.name for path in files) == sorted([
        f"{DEMO_CODE}-standings.csv", f"{DEMO_CODE}-standings.json",
        f"{DEMO_CODE}-crosstable.txt", f"{DEMO_CODE}.trf", f"{DEMO_CODE}.pdn",
    ])
    assert files.pdn.read_text(encoding="utf-8") == pdn
    assert files.trf.read_text(encoding="utf-8") == standings_trf(table)


def test_trf_export_reads_back_as_the_same_table(
    player_client: FlaskClient, database: Database, results_tournament: Tournament
) -> None:
    """The organizer's TRF-16 (JOURNEYS: exports for the rating office) is the table: read back
    by `scoring.trf`, every player has the same points and place as on the page, and the
    header carries the code and title, dates and time control."""
    response = player_client.get(f"/tournaments/{CODE}/standings.trf")
    assert response.status_code == 200
    assert "%D0%9A%D0%A0-1.trf" in response.headers["Content-Disposition"]  # «КР-1.trf»
    text = response.get_data(as_text=True)
    with database.session() as session:
        table = tournament_table(load_tournament(session, CODE))
        tournament = table.tournament
        assert text == standings_trf(table)
        first_line = f"012 {tournament.code} {tournament.title}"
        start = tournament.start_date.strftime("%Y/%m/%d")
        days, moves = tournament.time_control_days, tournament.time_control_moves
    lines = text.splitlines()
    assert lines[0] == first_line
    assert f"042 {start}" in lines and f"122 {days} days / {moves} moves" in lines
    read = load_trf(text)
    assert {p.start_no: p.name for p in read.players}[table.rows[0].start_no] == table.rows[0].name
    again = {row.start_no: (row.points, row.place) for row in standings(read, table.tiebreaks)}
    assert again == {row.start_no: (row.points, row.place) for row in table.rows}
    # The place column of each 001 line is the standings' position.
    placed = {int(line[4:8]): int(line[84:89]) for line in lines if line.startswith("001 ")}
    assert placed == {row.start_no: row.position for row in table.rows}


def test_trf_leaves_an_unrated_players_rating_blank(
    player_client: FlaskClient, database: Database, results_tournament: Tournament
) -> None:
    """TRF-16's rating field (columns 49–52) is blank for a player without a rating: a 0 there
    would reach the rating office as a rating of zero. A rated player keeps his."""
    with database.transaction() as session:
        row = session.get(Tournament, results_tournament.id)
        assert row is not None
        rated = next(p for p in row.participants if p.start_number == 2)
        rated.rating = 1850
    text = player_client.get(f"/tournaments/{CODE}/standings.trf").get_data(as_text=True)
    fields = {int(line[4:8]): line[48:52] for line in text.splitlines() if line.startswith("001 ")}
    assert fields == {1: "    ", 2: "1850", 3: "    ", 4: "    "}
    assert {p.start_no: p.rating for p in load_trf(text).players} == {1: None, 2: 1850, 3: None,
                                                                       4: None}


@pytest.mark.parametrize(("path", "content_type"), [
    ("standings.csv", "text/csv; charset=utf-8"),
    ("standings.trf", "text/plain; charset=utf-8"),
    ("games.pdn", "application/x-draughts-pdn; charset=utf-8"),
    ("standings.json", "application/json"),
])
def test_downloads_name_their_charset_once(
    player_client: FlaskClient, results_tournament: Tournament, path: str, content_type: str
) -> None:
    """Werkzeug appended a second «; charset=utf-8» to a text type that named one already."""
    response = player_client.get(f"/tournaments/{CODE}/{path}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == content_type


def test_points_are_printed_without_trailing_zeros() -> None:
    assert [format_points(v) for v in (6.0, 6.5, 12.25, None)] == ["6", "6.5", "12.25", ""]
    assert format_points(6.5, ",") == "6,5"


def test_a_swiss_is_printed_by_rounds(
    player_client: FlaskClient, database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    """000 §3.14–3.18: a Swiss table lists each round's opponent, colour and result."""
    tournament = make_tournament(players=4, code="SW-1", system=TournamentSystem.SWISS)
    add_games(database, tournament, (
        (1, 1, 3, GameResult.WHITE_WIN, ResultKind.PLAYED),
        (1, 4, 2, GameResult.DRAW, ResultKind.ADJUDICATED),
        (2, 2, 1, GameResult.BLACK_WIN, ResultKind.FORFEIT),
    ))
    page = player_client.get("/tournaments/SW-1/standings").get_data(as_text=True)
    assert ">Т1</th>" in page and ">Т2</th>" in page and '<td class="self">' not in page  # Т = тур
    rows = list(csv.reader(io.StringIO(
        player_client.get("/tournaments/SW-1/standings.csv").data.decode("utf-8-sig")),
        delimiter=";"))
    assert rows[0][5:7] == ["round 1", "round 2"]
    first = next(row for row in rows[1:] if row[1] == "1")
    assert first[5:7] == ["3w1", "2b+"]
    second = next(row for row in rows[1:] if row[1] == "2")
    assert second[5] == "4b½*"
