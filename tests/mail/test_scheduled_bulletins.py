"""The mailer's calendar pass issues a due bulletin by itself (002 §4.1.8), once."""

from __future__ import annotations

import datetime as dt

from click.testing import CliRunner
from sqlalchemy import func, select

from corrmail.bulletins import set_schedule
from corrmail.mail.cli import mailer
from corrmail.models import Tournament
from corrmail.models.bulletins import BulletinIssue, BulletinSchedule


def _env(email_game, db_url: str, today: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    settings = email_game.writer.settings
    return {
        "CORRMAIL_DATABASE_URL": db_url,
        "CORRMAIL_MAIL_SECRET": settings.secret.decode(),
        "CORRMAIL_MAIL_DOMAIN": settings.domain,
        "CORRMAIL_SMTP_HOST": "",
        "CORRMAIL_TODAY": today,
    }


def test_the_mailer_pass_issues_a_due_bulletin_once(email_game, db_url: str) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", dt.date(2026, 3, 2))
    with email_game.database.transaction() as session:
        tournament = session.scalars(select(Tournament)).one()
        set_schedule(session, tournament, every=1, unit="month", next_on=dt.date(2026, 4, 1))

    before = CliRunner().invoke(mailer, ["--once"], env=_env(email_game, db_url, "2026-03-31"))
    assert before.exit_code == 0, before.output
    assert "0 bulletins" in before.output
    assert email_game.outbox(kind="bulletin") == []

    first = CliRunner().invoke(mailer, ["--once"], env=_env(email_game, db_url, "2026-04-01"))
    assert first.exit_code == 0, first.output
    assert "1 bulletins" in first.output
    sent = email_game.outbox(kind="bulletin")
    # Both players, the referee and the steward (002 §4.1.8), each already handed to the relay.
    assert {letter.recipient for letter in sent} == {
        email_game.white_email, email_game.black_email,
        email_game.referee_email, email_game.steward_email,
    }
    assert {str(letter.status) for letter in sent} == {"captured"}

    again = CliRunner().invoke(mailer, ["--once"], env=_env(email_game, db_url, "2026-04-01"))
    assert again.exit_code == 0, again.output
    assert "0 bulletins" in again.output
    assert len(email_game.outbox(kind="bulletin")) == len(sent)
    with email_game.database.session() as session:
        [issue] = session.scalars(select(BulletinIssue)).all()
        assert issue.as_of == dt.date(2026, 4, 1) and issue.number == 1
        assert session.scalar(select(func.min(BulletinSchedule.next_on))) == dt.date(2026, 5, 1)
