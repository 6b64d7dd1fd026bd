"""An overstep claimed by e-mail (the mail layer opens the case) is decided in the referee's queue:
the claim carries the recomputed chart and the letter, and the rejection charges the penalty."""

from __future__ import annotations

import datetime as dt
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox, Source
from corrmail.mail.settings import MailSettings
from corrmail.models import Case, GameState, Penalty, Tournament, TournamentChannel

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

MOSCOW = dt.timezone(dt.timedelta(hours=3))


def send(cup: Cup, inbox: Inbox, writer: LetterWriter, game_id: int, participant_id: int,
         sender: str, text: str, day: dt.date) -> str:
    when = dt.datetime.combine(day, dt.time(10, 0), MOSCOW)
    raw = "\r\n".join([
        f"From: {sender}",
        f"To: {writer.signer.reply_address(game_id, participant_id)}",
        "Subject: Re: ход",
        f"Date: {format_datetime(when)}",
        f"Message-ID: {make_msgid(domain='example.org')}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 8bit",
        "",
        text,
    ]).encode()
    return inbox.receive(raw, source=Source.PIPE, received_at=when).outcome


def test_email_claim_is_decided_through_the_queue(cup: Cup, set_today) -> None:
    with cup.database.transaction() as session:
        tournament = session.get(Tournament, cup.tournament_id)
        assert tournament is not None
        tournament.channel = TournamentChannel.EMAIL
        game = cup.game(session, *sorted(cup.games)[0])
        game_id, white, black = game.id, game.white, game.black
        white_id, black_id = white.id, black.id
        white_email, black_email = white.player.email, black.player.email
    writer = LetterWriter(MailSettings(domain="turnir.example", from_address="turnir@turnir.example",
                                       secret=b"test-secret"))
    inbox = Inbox(cup.database, writer)
    start = dt.date(2026, 9, 1)
    assert send(cup, inbox, writer, game_id, white_id, white_email, "1. c3-d4", start) \
        == "move_relayed"
    assert send(cup, inbox, writer, game_id, black_id, black_email, "1. c3-d4 f6-g5",
                start + dt.timedelta(days=3)) == "move_relayed"
    claimed = start + dt.timedelta(days=20)
    assert send(cup, inbox, writer, game_id, white_id, white_email,
                "Объявляю просрочку времени.", claimed) == "overstep_claimed"
    with cup.database.session() as session:
        row = session.scalars(select(Case)).one()
        assert row.payload["chart_shows_overstep"] is False  # black answered in 3 days
        assert "просрочку" in row.letter_text
        assert row.game.state is GameState.SUSPENDED
        case_id = row.id
    set_today(claimed)
    page = cup.client("referee").get("/cases/").data.decode()
    assert f'data-case="{case_id}"' in page
    # Rejecting a claim the chart does not support needs no reasons; confirming it would.
    text = cup.act("referee", case_id, "decide", 422, ruling="confirmed")
    assert "002 §4.3.8" in text or "002 §4.3.7" in text
    cup.act("referee", case_id, "decide", ruling="rejected")
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert row.game.state is GameState.IN_PLAY
        penalty = session.scalars(select(Penalty)).one()
        assert (penalty.participant_id, penalty.days, penalty.case_id) == (white_id, 6, case_id)
        assert {m.recipient for m in cup.outbox(session, "case.overstep.rejected")} == {
            white_email, black_email, "steward@example.org"}


def test_server_detects_an_overstep_in_an_email_game(cup: Cup, set_today, monkeypatch) -> None:
    from click.testing import CliRunner

    from corrmail.cli import main
    from corrmail.models import Channel

    with cup.database.transaction() as session:
        tournament = session.get(Tournament, cup.tournament_id)
        assert tournament is not None
        tournament.channel = TournamentChannel.EMAIL
    pair = sorted(cup.games)[0]
    cup.play(*pair, [("c3-d4", dt.date(2026, 9, 1), None)], channel=Channel.EMAIL)
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", cup.database.url)
    monkeypatch.setenv("CORRMAIL_SECRET_KEY", "test")
    runner = CliRunner()
    # Fifty days of the first ten moves' fifty are used on 21.10: black may still reply that day.
    on_the_limit = runner.invoke(main, ["cases", "sweep", "--today", "2026-10-21"])
    assert on_the_limit.exit_code == 0, on_the_limit.output
    assert "oversteps detected" not in on_the_limit.output
    over = runner.invoke(main, ["cases", "sweep", "--today", "2026-10-22"])
    # Only the game in play: the fourteen never begun wait for the first-move query.
    assert f"{cup.code}: oversteps detected: 1\n" in over.output
    again = runner.invoke(main, ["cases", "sweep", "--today", "2026-10-23"])
    assert "oversteps detected" not in again.output
    with cup.database.session() as session:
        row = session.scalars(select(Case)).one()
        assert row.payload["detected_by_server"] is True
        assert row.payload["claimant"] == "white"
        assert row.game.state is GameState.SUSPENDED
        assert "002 §4.3.5" in row.letter_text
        told = {m.recipient for m in cup.outbox(session, "case.overstep.claim_opened")}
        assert f"p1-{pair[1]}@example.org" in told and "referee@example.org" in told
        case_id = row.id
    # The referee still decides, after the accused's ten days (002 §4.3.8).
    set_today(dt.date(2026, 11, 2))
    cup.act("referee", case_id, "decide", ruling="confirmed")
    with cup.database.session() as session:
        game = cup.game(session, *pair)
        assert game.result is not None and game.result.value == "white_win"
