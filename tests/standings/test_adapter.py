"""Database rows → `scoring.model.Tournament` (the one adapter, `corrmail.standings.results`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from corrmail.db import Database
from corrmail.models import GameResult, Participant, ResultKind, Tournament
from corrmail.standings.results import (
    MissingStartNumber,
    TournamentNotFound,
    cell_text,
    load_tournament,
    scoring_tournament,
    tournament_table,
)
from scoring.result import GameResult as ScoringResult
from scoring.standings import standings
from tests.standings.conftest import CYRILLIC_NAME, add_games


def test_results_reach_scoring_with_forfeits_adjudication_and_pending_games(
    database: Database, results_tournament: Tournament
) -> None:
    """Runs on SQLite and PostgreSQL: the loading query is the adapter's own."""
    with database.session() as session:
        scoring = scoring_tournament(load_tournament(session, "КР-1"))
    by_pair = {(g.white, g.black): g for g in scoring.games}
    assert by_pair[1, 2].result is ScoringResult.WHITE_WINS
    assert by_pair[3, 4].result is ScoringResult.BLACK_FORFEIT_WIN
    assert by_pair[1, 3].result is ScoringResult.DRAW and by_pair[1, 3].adjudicated
    assert by_pair[2, 4].result is ScoringResult.DOUBLE_FORFEIT
    assert by_pair[1, 4].result is ScoringResult.PENDING
    assert not by_pair[2, 3].adjudicated
    assert scoring.players[0].name == CYRILLIC_NAME and scoring.players[0].club == "Казань"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_table_uses_the_tournament_tiebreak_order_and_scorings_points(
    database: Database, results_tournament: Tournament
) -> None:
    with database.session() as session:
        table = tournament_table(load_tournament(session, "КР-1"))
        expected = standings(table.scoring, tiebreaks=["sonneborn_berger", "wins"])
    assert table.tiebreaks == ("sonneborn_berger", "wins")
    assert [row.as_dict() for row in table.rows] == [row.as_dict() for row in expected]
    points = {row.start_no: row.points for row in table.rows}
    assert points == {1: 1.5, 2: 0.5, 3: 1.0, 4: 1.0}
    assert table.rows[0].start_no == 1 and table.rows[0].place == "1"
    assert table.rows[-1].start_no == 2 and table.rows[-1].place == "4"
    assert list(table.crosstable.order) == [row.start_no for row in table.rows]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_cells_print_pluses_minuses_and_adjudication_marks(
    database: Database, results_tournament: Tournament
) -> None:
    with database.session() as session:
        table = tournament_table(load_tournament(session, "КР-1"))
    index = {number: i for i, number in enumerate(table.crosstable.order)}

    def cell(row: int, column: int) -> str:
        return cell_text(table.crosstable.matrix[index[row]][index[column]])

    assert cell(4, 3) == "+" and cell(3, 4) == "−"
    assert cell(1, 3) == "½*" and cell(3, 1) == "½*"
    assert cell(2, 4) == "−" and cell(4, 2) == "−"
    assert cell(1, 4) == ""  # pending
    assert cell(1, 2) == "1" and cell(2, 1) == "0"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_equal_players_share_a_place(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament(players=2, tiebreak_order=["direct_encounter"])
    add_games(database, tournament, ((1, 1, 2, GameResult.DRAW, ResultKind.PLAYED),))
    with database.session() as session:
        table = tournament_table(load_tournament(session, tournament.code))
    assert [row.place for row in table.rows] == ["1-2", "1-2"]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_withdrawn_player_with_every_game_annulled_takes_no_place(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    """002 §4.5.3: the referee annulled every game of the player who left."""
    import datetime as dt

    tournament = make_tournament(players=3)
    add_games(database, tournament, (
        (1, 1, 2, GameResult.WHITE_WIN, ResultKind.PLAYED),
        (2, 3, 1, GameResult.ANNULLED, ResultKind.DECIDED),
        (3, 2, 3, GameResult.ANNULLED, ResultKind.DECIDED),
    ))
    with database.transaction() as session:
        row = session.get(Tournament, tournament.id)
        assert row is not None
        row.participants[2].withdrawn_on = dt.date(2026, 10, 1)
    with database.session() as session:
        table = tournament_table(load_tournament(session, tournament.code))
    placed = {row.start_no: row.place for row in table.rows}
    assert placed[1] == "1" and placed[2] == "2"
    assert 3 not in placed or placed[3] == ""


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_unknown_codes_and_players_without_start_numbers_are_refused(
    database: Database, results_tournament: Tournament
) -> None:
    with database.session() as session, pytest.raises(TournamentNotFound) as missing:
        load_tournament(session, "нет")
    assert missing.value.code == "нет"
    with database.transaction() as session:
        row = session.get(Tournament, results_tournament.id)
        assert row is not None
        participant: Participant = row.participants[-1]
        participant.start_number = None
    with database.session() as session:
        tournament = load_tournament(session, "КР-1")
        with pytest.raises(MissingStartNumber, match="002 §4.3.2"):
            tournament_table(tournament)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_oversteps_and_referee_decisions_are_marked_as_ordinary_results(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    """002 §4.3.7: a loss on time is a loss (not a minus), marked †; a decision is marked ‡."""
    tournament = make_tournament(players=3)
    add_games(database, tournament, (
        (1, 1, 2, GameResult.BLACK_WIN, ResultKind.OVERSTEP),
        (2, 3, 1, GameResult.DRAW, ResultKind.DECIDED),
        (3, 2, 3, GameResult.WHITE_WIN, ResultKind.PLAYED),
    ))
    with database.session() as session:
        table = tournament_table(load_tournament(session, tournament.code))
    index = {number: i for i, number in enumerate(table.crosstable.order)}

    def cell(row: int, column: int) -> str:
        return cell_text(table.crosstable.matrix[index[row]][index[column]], table.marker(row))

    assert cell(1, 2) == "0†" and cell(2, 1) == "1†"
    assert cell(1, 3) == "½‡" and cell(3, 1) == "½‡"
    assert cell(2, 3) == "1" and cell(3, 2) == "0"
    assert {row.start_no: row.games_played for row in table.rows} == {1: 2, 2: 2, 3: 2}


def test_the_table_is_the_same_from_game_rows_as_from_loaded_games(
    database: Database, results_tournament: Tournament
) -> None:
    """Pages load the tournament without its games and read them as plain rows; the PDN and
    the CLI load them. Both give the same table, pending, forfeit and adjudicated games included."""
    with database.session() as session:
        loaded = tournament_table(load_tournament(session, results_tournament.code))
    with database.session() as session:
        bare = load_tournament(session, results_tournament.code, with_games=False)
        assert "games" not in bare.__dict__
        from_rows = tournament_table(bare)
        assert "games" not in bare.__dict__  # read as rows, not loaded behind the page's back
    assert from_rows.as_dict() == loaded.as_dict()
    assert from_rows.scoring == loaded.scoring
