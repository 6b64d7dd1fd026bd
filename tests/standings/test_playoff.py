"""Recording a play-off (000 §3.16.2): web page, command line, refusals that store nothing, and a
table that stays readable when a later correction breaks the recorded play-off."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.models import AuditEntry, Game, GameResult, ResultKind, Role, Tournament
from tests.standings.conftest import add_games

W, D, B = GameResult.WHITE_WIN, GameResult.DRAW, GameResult.BLACK_WIN
P = ResultKind.PLAYED
# 2 scores 2, 1 and 4 are level on 1.5, 3 scores 1.
FINISHED = (
    (1, 1, 2, D, P), (1, 3, 4, D, P),
    (2, 1, 3, W, P), (2, 2, 4, W, P),
    (3, 1, 4, B, P), (3, 2, 3, D, P),
)


@pytest.fixture
def finished(database: Database, make_tournament: Callable[..., Tournament]) -> Tournament:
    tournament = make_tournament(players=4, code="ПО-1", tiebreak_order=["sonneborn_berger"])
    add_games(database, tournament, FINISHED)
    return tournament


def _stored(database: Database, tournament: Tournament) -> list[list[int]] | None:
    with database.session() as session:
        row = session.get(Tournament, tournament.id)
        assert row is not None
        return row.playoff


def _places(client: FlaskClient, code: str) -> list[tuple[str, int]]:
    response = client.get(f"/tournaments/{code}/standings.json")
    assert response.status_code == 200
    return [(row["place"], row["start_no"]) for row in json.loads(response.data)["standings"]]


def test_a_recorded_playoff_decides_the_places_everywhere(
    organizer_client: FlaskClient, finished: Tournament, database: Database
) -> None:
    code = finished.code
    before = _places(organizer_client, code)
    assert before[0] == ("1", 2) and before[3] == ("4", 3)
    # Sonneborn-Berger puts 1 ahead of 4 (1 drew the winner); the play-off was won by 4.
    assert [n for _, n in before] == [2, 1, 4, 3]
    page = organizer_client.get(f"/tournaments/{code}/playoff")
    assert page.status_code == 200
    # The level group's points read as on every page (reader_points): 1½, never 1.5.
    html = page.get_data(as_text=True)
    assert "1½" in html and "1.5" not in html
    response = organizer_client.post(f"/tournaments/{code}/playoff", data={"order": "4 / 1", "teams": "0"})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _places(organizer_client, code) == [("1", 2), ("2", 4), ("3", 1), ("4", 3)]
    assert _stored(database, finished) == [[4], [1]]
    shown = organizer_client.get(f"/tournaments/{code}/standings").get_data(as_text=True)
    assert "(000 §3.16.2)" in shown and "4 / 1" in shown
    with database.session() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "tournament.playoff")).one()
        assert entry.rule == "000 §3.16.2" and "4 / 1" in entry.summary
    # a shared result of the play-off: both keep places 2-3
    organizer_client.post(f"/tournaments/{code}/playoff", data={"order": "1, 4", "teams": "0"})
    assert _places(organizer_client, code)[1:3] == [("2-3", 1), ("2-3", 4)]
    cleared = organizer_client.post(f"/tournaments/{code}/playoff/clear", data={"teams": "0"})
    assert cleared.status_code == 302
    assert _stored(database, finished) is None
    assert _places(organizer_client, code) == before


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ("4 / x", "x is not a start number"),
        ("4 / 0", "0 is not a start number"),
        ("2 / 1", "level on points (000 §3.16.2)"),
        ("9 / 1", "[9] take no place"),
        ("4 / 4", "listed twice"),
        ("4", "two or more participants (000 §3.16.2)"),
        ("4 / / 1", "group 2 is empty"),
        ("", "nothing written"),
    ],
)
def test_a_playoff_that_does_not_fit_is_refused_and_nothing_is_stored(
    referee_client: FlaskClient, login: Callable[..., FlaskClient], finished: Tournament,
    database: Database, order: str, message: str,
) -> None:
    organizer = login(Role.ORGANIZER)
    organizer.post(f"/tournaments/{finished.code}/playoff", data={"order": "1 / 4", "teams": "0"})
    organizer.post("/locale", data={"locale": "en"})  # the English wording; Russian: below
    response = organizer.post(f"/tournaments/{finished.code}/playoff", data={"order": order, "teams": "0"})
    assert response.status_code == 200
    assert message in response.get_data(as_text=True).replace("&#39;", "'")
    assert _stored(database, finished) == [[1], [4]]  # the earlier record is untouched


@pytest.mark.parametrize(
    ("order", "russian", "english"),
    [
        ("2 / 1", "только между участниками с равным количеством очков (000 §3.16.2)",
         "level on points"),
        ("9 / 1", "[9] не занимают места в этой таблице", "take no place"),
    ],
)
def test_the_tables_refusal_reads_in_russian_on_a_russian_page(
    login: Callable[..., FlaskClient], finished: Tournament, database: Database, order: str,
    russian: str, english: str,
) -> None:
    """The scoring engine refuses by a code the page words (000 §3.16.2), not in its English."""
    organizer = login(Role.ORGANIZER)
    organizer.post("/locale", data={"locale": "ru"})
    response = organizer.post(f"/tournaments/{finished.code}/playoff", data={"order": order, "teams": "0"})
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 200 and russian in page
    assert english not in page and "the table refuses" not in page
    assert _stored(database, finished) is None


@pytest.mark.parametrize(
    ("order", "russian", "english"),
    [
        ("4 / x", "x — не стартовый номер", "is not a start number"),
        ("4 / 4", "участник указан дважды", "listed twice"),
        ("4", "между двумя и более участниками (000 §3.16.2)", "two or more participants"),
        ("4 / / 1", "группа 2 пуста", "is empty"),
        ("", "ничего не написано", "nothing written"),
    ],
)
def test_a_refused_playoff_reads_in_russian_on_a_russian_page(
    login: Callable[..., FlaskClient], finished: Tournament, order: str, russian: str,
    english: str,
) -> None:
    organizer = login(Role.ORGANIZER)
    organizer.post("/locale", data={"locale": "ru"})
    response = organizer.post(f"/tournaments/{finished.code}/playoff", data={"order": order, "teams": "0"})
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 200 and 'lang="ru"' in page
    assert "не удаётся прочитать итог дополнительного соревнования" in page and russian in page
    assert english not in page and "cannot read the play-off" not in page


def test_no_playoff_while_a_game_has_no_result(
    organizer_client: FlaskClient, database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament(players=4, code="ПО-2")
    add_games(database, tournament, (*FINISHED[:5], (3, 2, 3, None, None)))
    organizer_client.post("/locale", data={"locale": "en"})
    response = organizer_client.post(f"/tournaments/{tournament.code}/playoff", data={"order": "4 / 1", "teams": "0"})
    assert "1 game(s) of ПО-2 have no result yet" in response.get_data(as_text=True)
    organizer_client.post("/locale", data={"locale": "ru"})
    russian = organizer_client.post(f"/tournaments/{tournament.code}/playoff",
                                    data={"order": "4 / 1", "teams": "0"}).get_data(as_text=True)
    assert "в ПО-2 партий без результата: 1" in russian and "(000 §3.16.2)" in russian
    assert "have no result yet" not in russian
    assert _stored(database, tournament) is None


def test_only_the_tournaments_referee_or_a_director_records_a_playoff(
    login: Callable[..., FlaskClient], client: FlaskClient, finished: Tournament, database: Database
) -> None:
    url = f"/tournaments/{finished.code}/playoff"
    assert client.get(url).status_code == 302  # to the login page
    for role in (Role.STEWARD, Role.PLAYER):
        assert login(role).post(url, data={"order": "4 / 1", "teams": "0"}).status_code == 403
    # a referee who is not an official of this tournament
    assert login(Role.REFEREE).post(url, data={"order": "4 / 1", "teams": "0"}).status_code == 403
    assert _stored(database, finished) is None


def test_a_correction_after_the_playoff_leaves_the_table_readable(
    organizer_client: FlaskClient, finished: Tournament, database: Database
) -> None:
    code = finished.code
    organizer_client.post(f"/tournaments/{code}/playoff", data={"order": "4 / 1", "teams": "0"})
    with database.transaction() as session:  # the referee corrects round 3: 1 beat 4 after all
        game = session.scalars(select(Game).where(Game.tournament_id == finished.id, Game.round == 3)
                               .order_by(Game.id)).first()
        assert game is not None
        game.result = W
    assert _places(organizer_client, code)[0] == ("1", 1)  # 2.5 points, no longer level with 4
    standings_page = organizer_client.get(f"/tournaments/{code}/standings")
    assert standings_page.status_code == 200 and "больше не соответствует таблице" in standings_page.get_data(as_text=True)
    page = organizer_client.get(f"/tournaments/{code}/playoff").get_data(as_text=True)
    assert "больше не соответствует таблице" in page
    assert "только между участниками с равным количеством очков (000 §3.16.2)" in page
    assert "больше не соответствует таблице" in standings_page.get_data(as_text=True)
    assert "level on points" not in page + standings_page.get_data(as_text=True)
    organizer_client.post("/locale", data={"locale": "en"})
    page = organizer_client.get(f"/tournaments/{code}/playoff").get_data(as_text=True)
    assert "level on points" in page


def test_playoff_from_the_command_line(
    finished: Tournament, database: Database, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    runner = CliRunner()
    result = runner.invoke(main, ["playoff", finished.code, "4 / 1"])
    assert result.exit_code == 0, result.output
    assert "play-off recorded: 4 / 1" in result.output
    assert _stored(database, finished) == [[4], [1]]
    refused = runner.invoke(main, ["playoff", finished.code, "2 / 3"])
    assert refused.exit_code == 1 and "level on points (000 §3.16.2)" in refused.output
    assert _stored(database, finished) == [[4], [1]]
    assert runner.invoke(main, ["playoff", finished.code]).exit_code == 2  # ORDER or --clear
    cleared = runner.invoke(main, ["playoff", finished.code, "--clear"])
    assert cleared.exit_code == 0 and "play-off removed" in cleared.output
    assert _stored(database, finished) is None
