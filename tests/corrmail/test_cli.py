"""`corrmail db upgrade`, `corrmail demo` (idempotent) and the capture mailer."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from adjudication import case_from_dict
from corrmail.cli import main
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.letters.outbox import IncompleteMessage, capture_pending, enqueue
from corrmail.models import (
    Case,
    Game,
    GameResult,
    GameState,
    Letter,
    OutboxMessage,
    OutboxStatus,
    ResultKind,
    Tournament,
    User,
    utcnow,
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
            # The result comes from the referee's confirmation of the partner's claim (002 §4.3.7),
            # not straight from the chart (tests/corrmail/test_demo_results.py follows the path).
            assert overstep.result is GameResult.WHITE_WIN and overstep.result_rule == "002 §4.3.7"
            assert all(g.letters for g in games if g.state is GameState.IN_PLAY)
            first_letter = session.scalars(select(Letter).order_by(Letter.id)).first()
            assert first_letter is not None and first_letter.partner_sent is None
            later = session.scalars(select(Letter).where(Letter.sequence == 2)).first()
            assert later is not None and later.partner_sent and later.received and later.sent
            assert session.scalar(select(func.count()).select_from(Game)) == 15
    finally:
        database.dispose()


def test_captured_mode_keeps_due_letters_for_the_outbox_viewer(
    demo_tournament: Tournament, database: Database
) -> None:
    # The start sheet notice. The referee's decision on the overstep claim is not e-mailed: both
    # players play by post, so it is the steward's to post (002 §4.1.1; the demo's steward has no
    # address, so it is listed for him, tests/corrmail/test_demo_results.py).
    with database.transaction() as session:
        assert capture_pending(session, utcnow()) == 1
        assert capture_pending(session, utcnow()) == 0
    with database.session() as session:
        messages = session.scalars(select(OutboxMessage)).all()
        assert len(messages) == 1
        assert [m.kind for m in messages] == ["start_sheet"]
        assert all(m.status is OutboxStatus.CAPTURED and m.attempts == 1 for m in messages)


def test_outbox_refuses_a_message_without_message_id(session: Session) -> None:
    message = EmailMessage()
    message["To"], message["From"], message["Subject"] = "a@example.org", "b@example.org", "x"
    with pytest.raises(IncompleteMessage, match="Message-ID"):
        enqueue(session, message, kind="test")


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
        row = session.scalar(select(Case).where(Case.game_id == overstepped.id))
        assert row is not None
        claim = case_from_dict(row.payload)
        # Claimed the day after the limit ran out, which was before the demo's last letters.
        assert claim.opened_on <= dt.date(2026, 11, 21)
        assert overstepped.result_on is not None and overstepped.result_on > claim.opened_on


@pytest.mark.parametrize("command", [
    ["db", "upgrade"], ["db", "current"], ["demo"], ["user", "list"], ["sweep"],
    ["standings", DEMO_CODE],
])
def test_a_malformed_setting_stops_a_command_with_one_line(empty_db_url: str,
                                                           command: list[str]) -> None:
    """Every command reads the settings once, checked (corrmail.config.Settings); a value it
    cannot use stops the command before anything is read or written, with the variable named
    on one line instead of a traceback."""
    env = {"CORRMAIL_DATABASE_URL": empty_db_url, "CORRMAIL_SECRET_KEY": "x",
           "CORRMAIL_BASE_URL": "turnir.example"}
    result = CliRunner().invoke(main, command, env=env)
    assert result.exit_code == 1, (command, result.output, result.exception)
    assert result.output.strip().splitlines() == [
        "Error: CORRMAIL_BASE_URL='turnir.example': expected the site's address, "
        "e.g. https://turnir.example.org"]
    # Nothing was written: the database has no schema yet.
    ok = CliRunner().invoke(main, ["db", "current"],
                            env={**env, "CORRMAIL_BASE_URL": "https://turnir.example"})
    assert ok.exit_code != 0 or "behind" in ok.output, ok.output
