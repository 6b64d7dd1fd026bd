"""Importing finished games from a PDN archive (corrmail.games.pdn_import, ``corrmail games import-pdn``)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.games.pdn_import import check_archive, import_archive
from corrmail.models import AuditEntry, Game, GameImport, GameResult, GameState, Role, Tournament


def _archive(number: int) -> str:
    """Four games of tournament ``number`` made by make_tournament (players "Player N.k")."""
    p = [f"Player {number}.{k}" for k in range(1, 5)]
    return f"""% written by another program
[Event "Before the service"]
[Round "1"]
[White "{p[0]}"]
[Black "{p[1]}"]
[Date "2025.03.04"]
[Result "1-0"]
1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0

[Round "1"]
[White "{p[2]}"]
[Black "{p[3]}"]
[Result "0-1"]
1. c3d4 f6-g5 1/2-1/2

[Round "2"]
[White "{p[0]}"]
[Black "Nobody Known"]
[Result "1-0"]
1. c3-d4 1-0

[Round "2"]
[White "{p[2]}"]
[Black "{p[0]}"]
[Result "*"]
1. c3-d4 f6-g5 2. d4-e5 d6-c5 *
"""


@pytest.fixture
def run(db_url: str) -> Callable[..., Result]:
    def invoke(*args: str) -> Result:
        env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "x", "CORRMAIL_TODAY": ""}
        return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)

    return invoke


def test_check_reports_warnings_and_reasons_without_writing(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    made = make_tournament(players=4)
    number = int(made.title.rsplit(" ", 1)[1])
    with database.transaction() as session:
        tournament = session.get(Tournament, made.id)
        assert tournament is not None
        check = check_archive(session, tournament, _archive(number), "old.pdn")
        assert [g.importable for g in check.games] == [True, True, False, False]
        first, second, third, fourth = check.games
        assert first.round == 1 and first.result is GameResult.WHITE_WIN
        assert first.moves_text == "c3-d4 f6-g5 g3-h4 g7-f6"
        # The second game's result tag contradicts its movetext: the movetext's draw is kept.
        assert second.result is GameResult.DRAW
        assert any("squares written without a separator" in w for w in second.warnings)
        assert any("Result tag 0-1 contradicts" in w for w in second.warnings)
        assert third.problems == ["Nobody Known is not an entry of this tournament."]
        assert any("does not replay" in p for p in fourth.problems)
        assert any("No result" in p for p in fourth.problems)
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_import_adds_finished_games_once_and_keeps_their_source(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    made = make_tournament(players=4)
    number = int(made.title.rsplit(" ", 1)[1])
    with database.transaction() as session:
        tournament = session.get(Tournament, made.id)
        assert tournament is not None
        check = import_archive(session, tournament, _archive(number), "old.pdn", None)
        assert len(check.importable) == 2
    with database.transaction() as session:
        games = session.scalars(select(Game).order_by(Game.id)).all()
        assert [(g.round, g.state, g.result) for g in games] == [
            (1, GameState.FINISHED, GameResult.WHITE_WIN), (1, GameState.FINISHED, GameResult.DRAW)]
        imports = session.scalars(select(GameImport).order_by(GameImport.game_id)).all()
        assert [(i.source, i.game_number) for i in imports] == [("old.pdn", 1), ("old.pdn", 2)]
        assert '[GameType "25"]' in imports[0].pdn and imports[1].warnings
        assert session.scalar(select(func.count()).select_from(AuditEntry)
                              .where(AuditEntry.action == "game.import")) == 2
        tournament = session.get(Tournament, made.id)
        assert tournament is not None
        again = import_archive(session, tournament, _archive(number), "old.pdn", None)
        assert again.importable == []
        assert all("already on record" in g.problems[-1] for g in again.games[:2])
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 2


def test_cli_imports_and_prints_warnings(
    run: Callable[..., Result], tmp_path: Path, database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    made = make_tournament(players=4, code="PDN-1")
    number = int(made.title.rsplit(" ", 1)[1])
    archive = tmp_path / "old.pdn"
    archive.write_bytes(_archive(number).encode("cp1251"))
    dry = run("games", "import-pdn", "PDN-1", str(archive), "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "old.pdn: 4 games, 2 importable, 2 not" in dry.output
    assert "warning: move 1: squares written without a separator" in dry.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0
    done = run("games", "import-pdn", "PDN-1", str(archive))
    assert done.exit_code == 0 and "2 imported" in done.output, done.output
    assert "not imported: Nobody Known is not an entry" in done.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 2
    missing = run("games", "import-pdn", "NOPE", str(archive))
    assert missing.exit_code == 1 and "no tournament 'NOPE'" in missing.output


def test_organizer_page_checks_then_imports(
    organizer_client: FlaskClient, login: Callable[..., FlaskClient], database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    made = make_tournament(players=4, code="PDN-2")
    number = int(made.title.rsplit(" ", 1)[1])
    page = organizer_client.get("/tournaments/PDN-2")
    assert "/tournaments/PDN-2/games/import" in page.get_data(as_text=True)
    data = _archive(number).encode("utf-8")
    checked = organizer_client.post("/tournaments/PDN-2/games/import", data={
        "file": (io.BytesIO(data), "old.pdn")}, content_type="multipart/form-data")
    html = checked.get_data(as_text=True)
    assert checked.status_code == 200
    assert "squares written without a separator" in html and "Nobody Known не является участником" in html, html[-3000:]
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0
    imported = organizer_client.post("/tournaments/PDN-2/games/import", data={
        "file": (io.BytesIO(data), "old.pdn"), "write": "y"}, content_type="multipart/form-data")
    assert imported.status_code == 200
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 2
    for role in (Role.REFEREE, Role.STEWARD, Role.PLAYER):
        assert login(role).get("/tournaments/PDN-2/games/import").status_code == 403
