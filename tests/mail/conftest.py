"""Fixtures of the mail tests: a real SMTP server on loopback (aiosmtpd) that records and can
be told to fail."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Received:
    envelope_from: str
    recipients: list[str]
    message: EmailMessage
    raw: bytes


@dataclass
class RecordingHandler:
    """Accepts mail and keeps it; ``fail_next`` replies make the next DATA commands fail."""

    received: list[Received] = field(default_factory=list)
    fail_next: list[str] = field(default_factory=list)
    attempts: int = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.attempts += 1
        if self.fail_next:
            return self.fail_next.pop(0)
        raw = bytes(envelope.original_content or envelope.content)
        parsed = BytesParser(policy=policy.default).parsebytes(raw)
        assert isinstance(parsed, EmailMessage)
        self.received.append(
            Received(envelope.mail_from, list(envelope.rcpt_tos), parsed, raw)
        )
        return "250 Message accepted for delivery"

    def message_ids(self) -> list[str]:
        return [str(item.message["Message-ID"]) for item in self.received]


@dataclass
class SmtpServer:
    host: str
    port: int
    handler: RecordingHandler


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    handler = RecordingHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield SmtpServer("127.0.0.1", port, handler)
    finally:
        controller.stop()


# --- an e-mail game ----------------------------------------------------------------------------

import datetime as dt  # noqa: E402
import itertools  # noqa: E402
from email.utils import format_datetime, make_msgid  # noqa: E402

from sqlalchemy import select  # noqa: E402

from corrmail.db import Database  # noqa: E402
from corrmail.games.state import verify  # noqa: E402
from corrmail.letters.write import LetterWriter  # noqa: E402
from corrmail.mail.inbox import Inbox, Receipt, Source  # noqa: E402
from corrmail.mail.settings import MailSettings  # noqa: E402
from corrmail.models import (  # noqa: E402
    Game,
    GameState,
    GameType,
    OutboxMessage,
    Participant,
    Player,
    Role,
    Tournament,
    TournamentChannel,
    TournamentOfficial,
    TournamentStatus,
    TournamentSystem,
    User,
)

MAIL_SETTINGS = MailSettings(
    domain="turnir.example", from_address="Турнир <turnir@turnir.example>", secret=b"test-secret"
)
MOSCOW = dt.timezone(dt.timedelta(hours=3))


@dataclass
class EmailGame:
    """Two e-mail players in one game of a running tournament, and the server's inbox."""

    database: Database
    inbox: Inbox
    writer: LetterWriter
    game_id: int
    white_id: int
    black_id: int
    white_email: str
    black_email: str
    referee_email: str
    steward_email: str
    counter: itertools.count = field(default_factory=lambda: itertools.count(1))

    def participant(self, side: str) -> int:
        return self.white_id if side == "white" else self.black_id

    def email_of(self, side: str) -> str:
        return self.white_email if side == "white" else self.black_email

    def raw(self, side: str, text: str, *, when: dt.datetime, sender: str | None = None,
            to: str | None = None, subject: str = "Re: ход") -> bytes:
        number = next(self.counter)
        address = to or self.writer.signer.reply_address(self.game_id, self.participant(side))
        lines = [
            f"From: {sender or self.email_of(side)}",
            f"To: {address}",
            f"Subject: {subject}",
            f"Date: {format_datetime(when)}",
            f"Message-ID: {make_msgid(idstring=f'p{number}', domain='example.org')}",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "",
            text,
        ]
        return "\r\n".join(lines).encode()

    def send(self, side: str, text: str, day: dt.date, **kwargs: object) -> Receipt:
        when = dt.datetime.combine(day, dt.time(10, 0), MOSCOW)
        raw = self.raw(side, text, when=when, **kwargs)  # type: ignore[arg-type]
        return self.inbox.receive(raw, source=Source.PIPE, received_at=when)

    def outbox(self, *, to: str | None = None, kind: str | None = None) -> list[OutboxMessage]:
        with self.database.session() as session:
            query = select(OutboxMessage).order_by(OutboxMessage.id)
            if to:
                query = query.where(OutboxMessage.recipient == to)
            if kind:
                query = query.where(OutboxMessage.kind == kind)
            return list(session.scalars(query))

    def game(self) -> Game:
        """The game with its letters, loaded and detached (no session is left open)."""
        with self.database.session() as session:
            game = session.get(Game, self.game_id)
            assert game is not None
            game.letters  # noqa: B018  (load while the session is open)
            session.expunge_all()
        return game


@pytest.fixture
def email_game(db_url: str) -> Iterator[EmailGame]:
    """Built on the bare database (no Flask app): the mail layer does not need one."""
    database = Database(db_url)
    with database.transaction() as session:
        tournament = Tournament(
            code="ЗЧ-2026/3", title="Заочный чемпионат", game_type=GameType.RUSSIAN,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.EMAIL,
            start_date=dt.date(2026, 3, 1), end_date=dt.date(2027, 2, 28),
            status=TournamentStatus.RUNNING,
        )
        session.add(tournament)
        session.flush()
        entrants = []
        for number, (name, email) in enumerate(
            (("Петров Иван", "ivan.petrov@mail.example"), ("Седов Сергей", "sedov@yandex.example")),
            start=1,
        ):
            player = Player(name=name, email=email)
            session.add(player)
            session.flush()
            entrant = Participant(tournament_id=tournament.id, player_id=player.id, start_number=number)
            session.add(entrant)
            entrants.append(entrant)
        session.flush()
        white, black = entrants
        game = Game(tournament_id=tournament.id, round=1, white_id=white.id, black_id=black.id,
                    state=GameState.IN_PLAY)
        session.add(game)
        officials = []
        for login, role in (("referee", Role.REFEREE), ("steward", Role.STEWARD)):
            user = User(login=login, display_name=login.title(), email=f"{login}@federation.example")
            user.set_password("x" * 12)
            session.add(user)
            session.flush()
            session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id, role=role))
            officials.append(user.email)
        session.flush()
        ids = (game.id, white.id, black.id, "ivan.petrov@mail.example", "sedov@yandex.example")
    writer = LetterWriter(MAIL_SETTINGS)
    inbox = Inbox(database, writer)
    yield EmailGame(database, inbox, writer, *ids, referee_email=officials[0],
                    steward_email=officials[1])
    # Whatever the test sent, every stored game state equals the replay of its ledger.
    with database.session() as session:
        differences = verify(session)
        session.rollback()
    database.dispose()
    assert not differences, [difference.describe() for difference in differences]
