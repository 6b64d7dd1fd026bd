"""A tournament's life from an empty database: the CLI and the web on the same service."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from corrmail.cli import main

MAIL_SECRET = "life-secret"
MAIL_DOMAIN = "turnir.example"


@pytest.fixture
def cli_env(db_url: str) -> dict[str, str]:
    """The environment of a `corrmail` command on this test's database (the app's secret key,
    so a link made by the command opens in the test app)."""
    return {
        "CORRMAIL_DATABASE_URL": db_url,
        "CORRMAIL_SECRET_KEY": "test-secret",
        "CORRMAIL_MAIL_SECRET": MAIL_SECRET,
        "CORRMAIL_MAIL_DOMAIN": MAIL_DOMAIN,
        "CORRMAIL_SMTP_HOST": "",
        "CORRMAIL_BASE_URL": "http://localhost",
    }


@pytest.fixture
def corrmail(cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """corrmail("user", "add", ..., input=None) -> the command's result."""
    for name, value in cli_env.items():
        monkeypatch.setenv(name, value)

    def run(*args: str, input: str | bytes | None = None) -> Result:
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run


import datetime as dt  # noqa: E402

from corrmail.db import Database  # noqa: E402
from corrmail.models import (  # noqa: E402
    Channel,
    GameType,
    Participant,
    Player,
    Role,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)

CODE = "ЗКР-2026"
START = dt.date(2026, 9, 1)
END = dt.date(2027, 8, 31)
PLAYERS = (
    ("Петров Иван", "petrov@mail.example", None, Channel.EMAIL),
    ("Седов Сергей", "sedov@mail.example", None, Channel.EMAIL),
    ("Орлов Олег", None, "620000, Екатеринбург, ул. Ленина, 1", Channel.POST),
)


@pytest.fixture
def draft(database: Database, make_user: Callable[..., object]) -> int:
    """A mixed round robin in draft: two e-mail players and a postal one, a referee and two
    stewards with accounts but not yet appointed. Returns the tournament id."""
    make_user("ref", Role.REFEREE)
    make_user("stew1", Role.STEWARD)
    make_user("stew2", Role.STEWARD)
    with database.transaction() as session:
        tournament = Tournament(code=CODE, title="Заочный кубок", game_type=GameType.RUSSIAN,
                                system=TournamentSystem.ROUND_ROBIN_SINGLE,
                                channel=TournamentChannel.MIXED, start_date=START, end_date=END,
                                status=TournamentStatus.DRAFT)
        session.add(tournament)
        session.flush()
        for number, (name, email, address, channel) in enumerate(PLAYERS, start=1):
            player = Player(name=name, email=email, postal_address=address)
            session.add(player)
            session.flush()
            session.add(Participant(tournament_id=tournament.id, player_id=player.id,
                                    start_number=number, channel=channel))
        session.flush()
        return tournament.id
