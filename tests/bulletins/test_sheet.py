"""The player's own sheet by e-mail: a one-word letter «лист» (or «sheet») answered with his
games, clocks, days left, deadlines and the last bulletin."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from sqlalchemy import select

from corrmail.bulletins import is_sheet_request, issue, load_tournament
from corrmail.mail.inbox import Inbox
from corrmail.models import Game, OutboxMessage


@pytest.mark.parametrize("text", ["лист", "Лист.", "  SHEET  ", "«лист»", "аркуш",
                                  "лист\n\n-- \nИванов", "лист\n> 12. ab4 ba5"])
def test_one_word_is_a_sheet_request(text: str) -> None:
    assert is_sheet_request(text)


@pytest.mark.parametrize("text", ["", "лист 12. ab4", "пришлите лист", "c3-d4", "лист\nc3-d4"])
def test_anything_else_is_not(text: str) -> None:
    assert not is_sheet_request(text)


def test_sheet_letter_is_answered_with_the_sheet(league: Any) -> None:
    for ply in range(4):
        league.send_move(0, dt.date(2026, 9, 1) + dt.timedelta(days=9 * ply))
    with league.database.transaction() as session:
        issue(session, load_tournament(session, league.code), dt.date(2026, 10, 1))
    writer = league.writer()
    message = EmailMessage()
    message["From"] = "p1@example.org"
    message["To"] = writer.signer.reply_address(league.games[0], league.participants[0])
    message["Subject"] = "Re: партия"
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content("Лист\n")
    when = dt.datetime(2026, 10, 3, 9, 0, tzinfo=dt.UTC)
    receipt = Inbox(league.database, writer).receive(message.as_bytes(), source="pipe",
                                                      received_at=when)
    assert receipt.outcome == "player_sheet", receipt
    with league.database.session() as session:
        letter = session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "player_sheet")).one()
        assert letter.recipient == "p1@example.org"
        assert "на 03.10.2026" in letter.subject
        body = letter.body_text
        assert "Попова Мария" in body and "Смирнова Анна" in body
        assert "Последний бюллетень: № 1 на 01.10.2026" in body
        # No move was read from the letter: the ledger is unchanged.
        game = session.get(Game, league.games[0])
        assert game is not None and len(game.letters) == 4


def test_sheet_names_the_last_bulletin_the_player_may_read(league: Any) -> None:
    from corrmail.bulletins import build_player_sheet
    from corrmail.models import Participant

    with league.database.transaction() as session:
        issue(session, load_tournament(session, league.code), dt.date(2026, 10, 1))
    league.withhold_bulletins(1, dt.date(2026, 10, 5))
    with league.database.transaction() as session:
        issue(session, load_tournament(session, league.code), dt.date(2026, 10, 15))
    with league.database.session() as session:
        sanctioned = session.get(Participant, league.participants[0])
        other = session.get(Participant, league.participants[1])
        assert sanctioned is not None and other is not None
        on = dt.date(2026, 10, 20)
        last = build_player_sheet(session, sanctioned, on).last_bulletin
        assert last is not None and last[1:] == (1, dt.date(2026, 10, 1))
        last = build_player_sheet(session, other, on).last_bulletin
        assert last is not None and last[1:] == (2, dt.date(2026, 10, 15))
