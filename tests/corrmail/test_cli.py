"""`corrmail db upgrade`, `corrmail demo` (idempotent) and the capture mailer."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from corrmail.cli import main
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.demo import DEMO_CODE, DEMO_PASSWORD
from corrmail.mailer_loop import CaptureLoop, RelayConfigured
from corrmail.models import (
    Game,
    GameResult,
    GameState,
    Letter,
    OutboxMessage,
    OutboxStatus,
    ResultKind,
    Tournament,
    User,
)


def test_upgrade_then_demo_twice_loads_one_demo(empty_db_url: str) -> None:
    runner = CliRunner()
    env = {"CORRMAIL_DATABASE_URL": empty_db_url, "CORRMAIL_SECRET_KEY": "x"}
    upgraded = runner.invoke(main, ["db", "upgrade"], env=env)
    assert upgraded.exit_code == 0, upgraded.output
    first = runner.invoke(main, ["demo"], env=env)
    assert first.exit_code == 0, first.output
    assert "director" in first.output and DEMO_PASSWORD in first.output
    second = runner.invoke(main, ["demo"], env=env)
    assert second.exit_code == 0, second.output

    database = Database(empty_db_url)
    try:
        with database.session() as session:
            assert session.scalar(select(func.count()).select_from(Tournament)) == 1
            assert session.scalar(select(func.count()).select_from(User)) == 9
            tournament = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
            assert tournament is not None and len(tournament.participants) == 6
            games = tournament.games
            assert len(games) == 15
            finished = [g for g in games if g.state is GameState.FINISHED]
            assert sorted(g.result_kind for g in finished) == [
                ResultKind.OVERSTEP,
                ResultKind.PLAYED,
            ]
            overstep = next(g for g in finished if g.result_kind is ResultKind.OVERSTEP)
            assert overstep.result is GameResult.WHITE_WIN and overstep.result_rule == "002 §4.3.6"
            assert all(g.letters for g in games if g.state is GameState.IN_PLAY)
            first_letter = session.scalars(select(Letter).order_by(Letter.id)).first()
            assert first_letter is not None and first_letter.partner_sent is None
            later = session.scalars(select(Letter).where(Letter.sequence == 2)).first()
            assert later is not None and later.partner_sent and later.received and later.sent
            assert session.scalar(select(func.count()).select_from(Game)) == 15
    finally:
        database.dispose()


def test_capture_loop_marks_pending_letters_captured(
    demo_tournament: Tournament, settings: Settings, database: Database
) -> None:
    loop = CaptureLoop(database, settings)
    assert loop.run_once() == 1
    assert loop.run_once() == 0
    with database.session() as session:
        (message,) = session.scalars(select(OutboxMessage))
        assert message.status is OutboxStatus.CAPTURED and message.attempts == 1


def test_capture_loop_refuses_to_swallow_mail_meant_for_a_relay(tmp_path: Path) -> None:
    settings = Settings(database_url="sqlite://", secret_key="x", smtp_host="smtp.example.org")
    with pytest.raises(RelayConfigured, match="smtp.example.org"):
        CaptureLoop(Database("sqlite://"), settings)


def test_demo_letters_are_legal_and_carry_the_counted_fraction(
    demo_tournament: Tournament, database: Database
) -> None:
    """Every move replays with `notation`; every declared fraction is `timekeeping`'s count."""
    from notation.full import parse_full
    from notation.position import Position
    from notation.rules import GameType

    with database.session() as session:
        tournament = session.get(Tournament, demo_tournament.id)
        assert tournament is not None
        for game in tournament.games:
            position = Position.initial(GameType.RUSSIAN)
            for letter in game.letters:
                if letter.moves_text:
                    position = position.play(parse_full(position, letter.moves_text))
                    assert (
                        f"Время: {letter.declared_white_days}/{letter.declared_black_days}."
                        in letter.raw_text
                    )
        overstepped = next(g for g in tournament.games if g.result_kind is ResultKind.OVERSTEP)
        assert overstepped.result_on is not None and overstepped.result_on <= dt.date(2026, 11, 20)
