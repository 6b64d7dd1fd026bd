"""A game between two players who both log in: White moves on the web, Black by e-mail or on
the web; the service's "today" is set per step (``WebGame.on``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox, Receipt, Source
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    Game,
    GameState,
    OutboxMessage,
    Participant,
    Role,
    Tournament,
    TournamentChannel,
    User,
)
from corrmail.play.web_moves import WebLetter, submit_web_letter

PASSWORD = "correct horse battery"
START = dt.date(2026, 9, 1)


@dataclass
class WebGame:
    app: Flask
    database: Database
    game_id: int
    white_id: int
    black_id: int
    white_email: str
    black_email: str
    tournament_code: str
    counter: int = 0

    def on(self, day: dt.date) -> None:
        """Set the service's "today" (the server's date of the next letter)."""
        settings: Settings = self.app.config["CORRMAIL_SETTINGS"]
        self.app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(settings, today=day)

    def client(self, login: str) -> FlaskClient:
        client = self.app.test_client()
        response = client.post("/login", data={"login": login, "password": PASSWORD})
        assert response.status_code == 302, response.data
        return client

    def writer(self) -> LetterWriter:
        settings: Settings = self.app.config["CORRMAIL_SETTINGS"]
        return LetterWriter(MailSettings.from_env(secret_fallback=settings.secret_key))

    def play(self, side: str, move: str, day: dt.date, **extra: object) -> str:
        """A web letter straight through the service (for setting up positions)."""
        self.on(day)
        with self.database.transaction() as session:
            game = session.get(Game, self.game_id)
            assert game is not None
            participant = game.white if side == "white" else game.black
            outcome = submit_web_letter(session, game, participant,
                                        WebLetter(move=move, **extra),  # type: ignore[arg-type]
                                        today=day, writer=self.writer())
        return outcome.code

    def email(self, side: str, text: str, day: dt.date) -> Receipt:
        """A letter by e-mail to the game's reply address, through the real inbox."""
        from email.utils import format_datetime, make_msgid

        self.counter += 1
        writer = self.writer()
        participant = self.white_id if side == "white" else self.black_id
        when = dt.datetime.combine(day, dt.time(10, 0), dt.UTC)
        raw = "\r\n".join([
            f"From: {self.white_email if side == 'white' else self.black_email}",
            f"To: {writer.signer.reply_address(self.game_id, participant)}",
            "Subject: Re: ход", f"Date: {format_datetime(when)}",
            f"Message-ID: {make_msgid(idstring=f'w{self.counter}', domain='example.org')}",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit", "", text]).encode()
        self.on(day)
        return Inbox(self.database, writer).receive(raw, source=Source.PIPE, received_at=when)

    def outbox(self, *, to: str | None = None, kind: str | None = None) -> list[OutboxMessage]:
        with self.database.session() as session:
            query = select(OutboxMessage).order_by(OutboxMessage.id)
            if to:
                query = query.where(OutboxMessage.recipient == to)
            if kind:
                query = query.where(OutboxMessage.kind == kind)
            return list(session.scalars(query))

    def plies(self) -> list[str]:
        with self.database.session() as session:
            game = session.get(Game, self.game_id)
            assert game is not None
            return [ply for letter in game.letters for ply in letter.moves_text.split()]

    def letters(self) -> list[tuple[str, str, str]]:
        """(sender side, channel, moves) of every letter."""
        with self.database.session() as session:
            game = session.get(Game, self.game_id)
            assert game is not None
            return [("white" if letter.sender_id == self.white_id else "black",
                     letter.channel.value, letter.moves_text) for letter in game.letters]

    def black_name(self) -> str:
        with self.database.session() as session:
            participant = session.get(Participant, self.black_id)
            assert participant is not None
            return participant.player.name

    def state(self) -> tuple[str, str | None]:
        with self.database.session() as session:
            game = session.get(Game, self.game_id)
            assert game is not None
            return game.state.value, game.result.value if game.result else None


@pytest.fixture
def web_game(app: Flask, database: Database, make_tournament: Callable[..., Tournament],
             make_user: Callable[..., User]) -> WebGame:
    tournament = make_tournament(players=4, code="ЗЧ-WEB", channel=TournamentChannel.MIXED,
                                 start_date=START)
    with database.transaction() as session:
        entrants = session.scalars(
            select(Participant).where(Participant.tournament_id == tournament.id)
            .order_by(Participant.start_number)).all()
        white, black, third, fourth = entrants
        game = Game(tournament_id=tournament.id, round=1, white_id=white.id, black_id=black.id,
                    state=GameState.IN_PLAY)
        other = Game(tournament_id=tournament.id, round=1, white_id=third.id,
                     black_id=fourth.id, state=GameState.IN_PLAY)
        session.add_all([game, other])
        session.flush()
        players = (white.player, black.player, third.player)
        ids = (game.id, white.id, black.id, white.player.email, black.player.email)
    for login, player in zip(("white", "black", "third"), players, strict=True):
        make_user(login, Role.PLAYER, player=player)
    web = WebGame(app, database, *ids, tournament_code=tournament.code)  # type: ignore[arg-type]
    web.on(START + dt.timedelta(days=2))
    return web


@pytest.fixture
def other_game_id(web_game: WebGame) -> int:
    """The game between the tournament's third and fourth players."""
    with web_game.database.session() as session:
        return int(session.scalar(select(Game.id).where(Game.id != web_game.game_id)) or 0)
