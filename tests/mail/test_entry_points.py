"""Two of the three ways in — ``ingest`` (pipe), ``receive`` (SMTP/LMTP listener) — and the
``mailer`` command. The third, ``poll`` (IMAP), is tested against Dovecot in test_imap.py."""

from __future__ import annotations

import asyncio
import datetime as dt
import subprocess
import sys
from pathlib import Path

import aiosmtplib
from click.testing import CliRunner

from corrmail.mail.cli import ingest, mailer
from corrmail.mail.inbox import EX_TEMPFAIL
from corrmail.mail.listener import InboxHandler, ListenerController
from corrmail.models import InboundStatus

D = dt.date(2026, 3, 2)


def env_for(email_game, db_url: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    settings = email_game.writer.settings
    return {
        "CORRMAIL_DATABASE_URL": db_url,
        "CORRMAIL_MAIL_SECRET": settings.secret.decode(),
        "CORRMAIL_MAIL_DOMAIN": settings.domain,
        "CORRMAIL_SMTP_HOST": "",
    }


def test_ingest_reads_stdin_and_honours_received_at(email_game, db_url: str) -> None:  # type: ignore[no-untyped-def]
    raw = email_game.raw("white", "1. c3-d4", when=dt.datetime(2026, 3, 2, tzinfo=dt.UTC))
    runner = CliRunner()
    result = runner.invoke(ingest, ["--received-at", "2026-03-05T23:30:00+00:00"], input=raw,
                           env=env_for(email_game, db_url))
    assert result.exit_code == 0, result.output
    assert "processed move_relayed" in result.output
    # 23:30 UTC on 5 March is 6 March in Moscow: the tournament's day is the postmark.
    [letter] = email_game.game().letters
    assert letter.sent == dt.date(2026, 3, 6)
    again = runner.invoke(ingest, [], input=raw, env=env_for(email_game, db_url))
    assert again.exit_code == 0 and "(duplicate)" in again.output


def test_ingest_exits_75_when_the_database_is_unavailable(tmp_path: Path) -> None:
    env = {"CORRMAIL_DATABASE_URL": f"sqlite:///{tmp_path}/missing/dir/db.sqlite",
           "CORRMAIL_MAIL_SECRET": "s", "PATH": "/usr/bin:/bin"}
    completed = subprocess.run(
        [sys.executable, "-m", "corrmail.mail", "ingest"], input=b"From: a@b\r\n\r\nhi\r\n",
        env=env, capture_output=True, timeout=60,
    )
    assert completed.returncode == EX_TEMPFAIL, completed.stderr
    assert b"temporary failure" in completed.stderr


def test_ingest_rejects_a_bad_received_at(email_game, db_url: str) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(ingest, ["--received-at", "yesterday"], input=b"x",
                                env=env_for(email_game, db_url))
    assert result.exit_code == 2 and "--received-at" in result.output


def test_mailer_once_in_captured_mode(email_game, db_url: str) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    result = CliRunner().invoke(mailer, ["--once", "--no-schedule"], env=env_for(email_game, db_url))
    assert result.exit_code == 0, result.output
    assert "captured 1" in result.output
    [letter] = email_game.outbox()
    assert str(letter.status) == "captured"
    # CORRMAIL_TODAY replays a day: 30 days after the move the calendar repeats it (002 §4.3.4).
    env = {**env_for(email_game, db_url), "CORRMAIL_TODAY": "2026-04-01"}
    replay = CliRunner().invoke(mailer, ["--once"], env=env)
    assert "calendar: 1 repeats" in replay.output and "captured 2" in replay.output


def test_smtp_listener_stores_and_processes(email_game) -> None:  # type: ignore[no-untyped-def]
    handler = InboxHandler(email_game.inbox, email_game.writer.settings.domain)
    port = _free_port()
    controller = ListenerController(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        raw = email_game.raw("white", "1. c3-d4", when=dt.datetime(2026, 3, 2, tzinfo=dt.UTC))
        address = email_game.writer.signer.reply_address(email_game.game_id, email_game.white_id)

        async def deliver() -> str:
            _, answer = await aiosmtplib.send(
                raw, sender=email_game.white_email, recipients=[address],
                hostname="127.0.0.1", port=port, start_tls=False,
            )
            return answer

        assert "move_relayed" in asyncio.run(deliver())

        async def relay_attempt() -> None:
            await aiosmtplib.send(raw, sender="a@b.example", recipients=["someone@gmail.example"],
                                  hostname="127.0.0.1", port=port, start_tls=False)

        try:
            asyncio.run(relay_attempt())
            raise AssertionError("relaying must be refused")
        except aiosmtplib.SMTPRecipientsRefused as refused:
            assert refused.recipients[0].code == 550
    finally:
        controller.stop()
    with email_game.database.session() as session:
        from sqlalchemy import select

        from corrmail.models import InboundMessage

        row = session.scalars(select(InboundMessage)).one()
        assert row.source == "smtp" and row.status is InboundStatus.PROCESSED
        assert row.envelope_sender == email_game.white_email


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_misconfiguration_is_one_clear_line(tmp_path: Path) -> None:
    env = {"CORRMAIL_DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite", "CORRMAIL_MAIL_SECRET": "s",
           "CORRMAIL_SMTP_HOST": "relay.example", "CORRMAIL_SMTP_SECURITY": "ssl3"}
    result = CliRunner().invoke(mailer, ["--once"], env=env)
    assert result.exit_code == 1
    assert "CORRMAIL_SMTP_SECURITY='ssl3': expected starttls, tls or none" in result.output


def test_lmtp_listener(email_game) -> None:  # type: ignore[no-untyped-def]
    import smtplib

    handler = InboxHandler(email_game.inbox, email_game.writer.settings.domain, lmtp=True)
    port = _free_port()
    controller = ListenerController(handler, hostname="127.0.0.1", port=port, lmtp=True)
    controller.start()
    try:
        raw = email_game.raw("white", "1. c3-d4", when=dt.datetime(2026, 3, 2, tzinfo=dt.UTC))
        address = email_game.writer.signer.reply_address(email_game.game_id, email_game.white_id)
        with smtplib.LMTP("127.0.0.1", port) as client:
            refused = client.sendmail(email_game.white_email, [address], raw)
        assert refused == {}
    finally:
        controller.stop()
    with email_game.database.session() as session:
        from sqlalchemy import select

        from corrmail.models import InboundMessage

        row = session.scalars(select(InboundMessage)).one()
        assert (row.source, row.outcome) == ("lmtp", "move_relayed")
