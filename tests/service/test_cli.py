"""``corrmail tournament create|import-players|pair``, ``letter add`` and ``sweep``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    Case,
    CaseType,
    Game,
    Letter,
    OutboxMessage,
    Participant,
    Role,
    Tournament,
    TournamentChannel,
    User,
)
from corrmail.play.postcards import PostcardCheck

from .conftest import first_game

SPEC = {
    "code": "ЗКР-77", "title": "Кубок", "game_type": "russian", "system": "round_robin_double",
    "channel": "post", "start_date": "2026-09-01", "end_date": "2027-12-31",
    "tiebreak_order": [], "time_zone": "Europe/Moscow",
}


@pytest.fixture
def run(db_url: str) -> Callable[..., Result]:
    def invoke(*args: str) -> Result:
        env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "x", "CORRMAIL_TODAY": ""}
        return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)

    return invoke


def test_create_import_pair_and_enter_a_card(run: Callable[..., Result], tmp_path: Path,
                                             database: Database) -> None:
    spec = tmp_path / "t.json"
    spec.write_text(json.dumps(SPEC, ensure_ascii=False), encoding="utf-8")
    created = run("tournament", "create", "--file", str(spec))
    assert created.exit_code == 0, created.output
    again = run("tournament", "create", "--file", str(spec))
    assert again.exit_code == 1 and "taken" in again.output
    players = tmp_path / "players.csv"
    players.write_bytes("ФИО;Адрес\nИванов И.И.;Москва\nПетров П.П.;Тула\nСидоров С.С.;Орёл\n"
                        .encode("cp1251"))
    imported = run("tournament", "import-players", "ЗКР-77", str(players))
    assert imported.exit_code == 0, imported.output
    assert "3 player(s)" in imported.output
    paired = run("tournament", "pair", "ЗКР-77")
    assert paired.exit_code == 0 and "6 game(s)" in paired.output, paired.output
    with database.transaction() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == "ЗКР-77"))
        assert tournament is not None
        game_id = next(g.id for g in tournament.games if g.white_id and g.black_id)
    checked = run("letter", "add", str(game_id), "--from", "white", "--moves", "1. cd4",
                  "--sent", "01.09.26", "--check", "--today", "2026-09-03")
    assert checked.exit_code == 0 and "002 §4.2.2" in checked.output
    refused = run("letter", "add", str(game_id), "--from", "white", "--moves", "1. c3-d4",
                  "--sent", "31.09.26", "--today", "2026-09-03")
    assert refused.exit_code == 1 and "nothing stored" in refused.output
    entered = run("letter", "add", str(game_id), "--from", "white", "--moves", "1. c3-d4",
                  "--sent", "01.09.26", "--time", "0/0", "--today", "2026-09-03")
    assert entered.exit_code == 0 and "letter 1 entered" in entered.output, entered.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Letter)) == 1
        actions = set(session.scalars(select(AuditEntry.action)))
        assert {"tournament.create", "participant.import", "letter.postal"} <= actions


def test_letter_add_check_previews_what_will_be_stored(
        run: Callable[..., Result], database: Database, paired: Callable[..., int]) -> None:
    """``letter add --check`` shows the card as it will be stored and stores nothing; the same
    card twice is refused as a duplicate (002 §4.2.8); impossible dates whatever the move."""
    with database.transaction() as session:
        game_id = first_game(session, paired()).id
    first = run("letter", "add", str(game_id), "--from", "white", "--moves", "1. c3-d4",
                "--sent", "01.09.26", "--postmark", "01.09.26", "--time", "0/0",
                "--today", "2026-09-03")
    assert first.exit_code == 0, first.output
    card = ["letter", "add", str(game_id), "--from", "black", "--moves", "f6-g5",
            "--partner-sent", "01.09.26", "--received", "03.09.26", "--sent", "05.09.26",
            "--postmark", "05.09.26", "--today", "2026-09-06"]
    checked = run(*card, "--check")
    assert checked.exit_code == 0, checked.output
    for part in ("repeats (002 §4.2.9): 1. c3-d4", "moves as written: f6-g5",
                 "dates (002 §4.3.1): 01.09.2026 / 03.09.2026 / 05.09.2026",
                 "think time white/black: before", "002 §4.2.9:",
                 "play stops: 6 penalty days to the sender (002 §4.2.11)"):
        assert part in checked.output, (part, checked.output)
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Letter)) == 1
    assert run(*card).exit_code == 0
    again = run(*card)
    assert again.exit_code == 1 and "002 §4.2.8" in again.output
    wrong_dates = ["letter", "add", str(game_id), "--from", "black", "--partner-sent", "01.09.26",
                   "--received", "28.08.26", "--sent", "05.09.26", "--postmark", "05.09.26",
                   "--today", "2026-09-06", "--check"]
    for moves in ("1. c3-d4 f6-g5", "h6-d2"):
        refused = run(*wrong_dates, "--moves", moves)
        assert refused.exit_code == 1 and "002 §4.3.1" in refused.output, refused.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Letter)) == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "red"}, "unknown key(s): colour"),
        # The status is the tournament's life's (publish, close), not its regulations'.
        ({"status": "running"}, "unknown key(s): status"),
        ({"system": "knockout"}, "system:"),
        ({"start_date": "01.09.2026"}, "start_date:"),
        ({"end_date": "2026-08-01"}, "end of play"),
    ],
)
def test_create_refuses_bad_files(run: Callable[..., Result], tmp_path: Path,
                                  database: Database, change: dict[str, str], message: str) -> None:
    spec = tmp_path / "t.json"
    spec.write_text(json.dumps({**SPEC, **change}), encoding="utf-8")
    result = run("tournament", "create", "--file", str(spec))
    assert result.exit_code == 1 and message in result.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == 0


def test_import_with_a_bad_row_imports_nothing(run: Callable[..., Result], tmp_path: Path,
                                               make_tournament: Callable[..., Tournament],
                                               database: Database) -> None:
    tournament = make_tournament(players=0, code="CSV-1")
    players = tmp_path / "players.csv"
    players.write_text("name,address,rating\nA,Town,1500\nB,Town,high\n", encoding="utf-8")
    result = run("tournament", "import-players", "CSV-1", str(players))
    assert result.exit_code == 1 and "line 3" in result.output
    # The column as the file heads it, not the service's key.
    assert 'line 3, column “rating”: high is not a whole number' in result.output
    with database.transaction() as session:
        count = select(func.count()).select_from(Participant).where(
            Participant.tournament_id == tournament.id)
        assert session.scalar(count) == 0


def test_import_players_invites_by_mail_as_the_web_does(
        run: Callable[..., Result], tmp_path: Path, make_tournament: Callable[..., Tournament],
        database: Database) -> None:
    """``--invite`` gives each imported player with an e-mail and no account a login and queues
    his set-password letter, as the web's import does; with no mail server the links are printed
    for the operator to hand over. A player whose e-mail has an account already, or who has no
    e-mail, is passed over; without ``--invite`` no account is made."""
    make_tournament(players=0, code="MAIL-1", channel=TournamentChannel.EMAIL)
    make_tournament(players=0, code="MAIL-2", channel=TournamentChannel.EMAIL)
    added = run("user", "add", "olga", "--name", "Olga", "--email", "olga@example.org",
                "--role", "referee")
    assert added.exit_code == 0, added.output
    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnna Ivanova,anna@example.org\nBoris Petrov,boris@example.org\n"
                       "Olga Referee,OLGA@example.org\n", encoding="utf-8")
    plain = run("tournament", "import-players", "MAIL-2", str(players))
    assert plain.exit_code == 0 and "invitation" not in plain.output, plain.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(User)) == 1
    invited = run("tournament", "import-players", "MAIL-1", str(players), "--invite")
    assert invited.exit_code == 0, invited.output
    assert "MAIL-1: 3 player(s) imported" in invited.output
    assert "MAIL-1: 2 invitation(s) queued" in invited.output
    assert "kept unsent" in invited.output  # no CORRMAIL_SMTP_HOST: captured
    with database.transaction() as session:
        accounts = {u.login: u for u in session.scalars(select(User))}
        assert set(accounts) == {"olga", "anna", "boris"}
        assert accounts["anna"].player is not None
        assert accounts["anna"].player.name == "Anna Ivanova"
        assert accounts["anna"].has_role(Role.PLAYER)
        letters = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "invitation")).all()
        assert sorted(m.recipient for m in letters) == [
            "anna@example.org", "boris@example.org", "olga@example.org"]  # olga's from user add
    for login in ("anna", "boris"):
        line = next(x for x in invited.output.splitlines() if f"{login}@example.org>" in x)
        assert "/reset/" in line or "http" in line, line


def test_invitation_links_point_at_the_configured_site(
        db_url: str, tmp_path: Path, make_tournament: Callable[..., Tournament],
        database: Database) -> None:
    """A command's invitation links use CORRMAIL_BASE_URL as the settings read it at start-up;
    a malformed one is refused by the settings before anything is imported."""
    make_tournament(players=0, code="MAIL-3", channel=TournamentChannel.EMAIL)
    players = tmp_path / "players.csv"
    players.write_text("name,email\nAnna Ivanova,anna@example.org\n", encoding="utf-8")

    def invoke(base_url: str) -> Result:
        env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "x", "CORRMAIL_TODAY": "",
               "CORRMAIL_BASE_URL": base_url}
        return CliRunner().invoke(main, ["tournament", "import-players", "MAIL-3", str(players),
                                         "--invite"], env=env)

    refused = invoke("turnir.example")
    assert refused.exit_code != 0 and "CORRMAIL_BASE_URL" in refused.output, refused.output
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(Participant)) == 0
    invited = invoke("https://turnir.example/")
    assert invited.exit_code == 0, invited.output
    assert "anna@example.org>: https://turnir.example/password/welcome#" in invited.output


def _state(database: Database) -> tuple[int, int, int]:
    with database.transaction() as session:
        return (session.scalar(select(func.count()).select_from(OutboxMessage)) or 0,
                session.scalar(select(func.count()).select_from(Case)) or 0,
                session.scalar(select(func.count()).select_from(Letter)) or 0)


def test_sweep_repeats_and_opens_adjudication_once(
        run: Callable[..., Result], paired: Callable[..., int], database: Database,
        card: Callable[..., PostcardCheck], login: Callable[..., FlaskClient]) -> None:
    """Run twice on the same day: the second run sends and opens nothing (idempotent)."""
    email_id = paired(players=2, channel=TournamentChannel.EMAIL, end_date=dt.date(2027, 8, 31))
    ending_id = paired(players=2, end_date=dt.date(2026, 10, 1))
    with database.transaction() as session:
        email_game, ending_game = first_game(session, email_id).id, first_game(session, ending_id).id
    card(email_game, "white", dt.date(2026, 9, 2), moves_text="1. c3-d4", sent="01.09.26")
    card(ending_game, "white", dt.date(2026, 9, 2), moves_text="1. c3-d4", sent="01.09.26")
    first = run("sweep", "--today", "2026-10-05")
    assert first.exit_code == 0, first.output
    assert "1 repeat(s)" in first.output
    assert "adjudications opened: 1" in first.output
    after_first = _state(database)
    second = run("sweep", "--today", "2026-10-05")
    assert second.exit_code == 0, second.output
    assert _state(database) == after_first
    assert "0 repeat(s)" in second.output
    with database.transaction() as session:
        cases = session.scalars(select(Case.case_type).where(Case.game_id == ending_game)).all()
        assert cases == [CaseType.ADJUDICATION]
        game = session.get(Game, ending_game)
        assert game is not None and game.state.value == "adjudication"
    # The game page and the dashboard show the open case.
    organizer = login(Role.ORGANIZER)
    with database.transaction() as session:
        code = session.scalar(select(Tournament.code).where(Tournament.id == ending_id))
    for path in (f"/games/{ending_game}", f"/dashboard/{code}?filter=cases"):
        page = organizer.get(path)
        assert page.status_code == 200 and "/cases/" in page.get_data(as_text=True), path
    # Black has let 50 days pass by 2 November: the server opens the claim in the e-mail game.
    later = run("sweep", "--today", "2026-11-02")
    assert "oversteps detected: 1" in later.output and "overstepped (002 §4.3.5)" in later.output
    with database.transaction() as session:
        claims = session.scalars(select(Case.case_type).where(Case.game_id == email_game)).all()
        assert claims == [CaseType.OVERSTEP_CLAIM]
    assert run("sweep", "--today", "2026-11-02").exit_code == 0
    with database.transaction() as session:
        claims = session.scalars(select(Case.case_type).where(Case.game_id == email_game)).all()
        assert claims == [CaseType.OVERSTEP_CLAIM]


def test_import_and_check_print_one_finding_a_line(
        run: Callable[..., Result], tmp_path: Path, database: Database,
        make_tournament: Callable[..., Tournament], paired: Callable[..., int]) -> None:
    """Each line the commands print stands on its own line, on stdout and stderr alike (the
    walk found the output run together; in the CLI runner and a terminal it is not)."""
    make_tournament(players=0, code="CSV-2")
    players = tmp_path / "players.csv"
    players.write_text("name,address\nA,Town\nB,Town\n", encoding="utf-8")
    imported = run("tournament", "import-players", "CSV-2", str(players))
    assert imported.exit_code == 0, imported.output
    assert imported.stdout.splitlines() == ["CSV-2: 2 player(s) imported (utf-8)"]
    assert imported.stderr.splitlines() == ["CSV-2: 2/2 players"]
    refused_file = tmp_path / "bad.csv"
    refused_file.write_text("name,address,rating\nA,Town,x\nB,,y\n", encoding="utf-8")
    refused = run("tournament", "import-players", "CSV-2", str(refused_file))
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        "Error: nothing imported:",
        "line 2, column “rating”: x is not a whole number",
        "line 3, column “rating”: y is not a whole number",
        "line 3, column “address”: a postal tournament needs the address (002 §4.3.2)",
    ]
    with database.transaction() as session:
        game_id = first_game(session, paired()).id
    checked = run("letter", "add", str(game_id), "--from", "white", "--moves", "1. cd4",
                  "--sent", "01.09.26", "--check", "--today", "2026-09-03")
    lines = checked.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "moves as written", "dates (002 §4.3.1)", "think time white/black", "002 §4.2.2",
        "play stops"], lines
    assert ("002 §4.2.2: cd4 is written in short notation -> the sender replaces the move; the "
            "sender's days of thinking and correcting count; play stops until the sender "
            "corrects the move;") in checked.stdout
    wrong = run("letter", "add", str(game_id), "--from", "black", "--moves", "1. c3-d4",
                "--sent", "01.09.26", "--check", "--today", "2026-09-03")
    assert wrong.exit_code == 1
    assert wrong.stderr.splitlines() == [
        "error 002 §4.2.8: this player is not to move; the partner is",
        "Error: postcard would not be entered"]
