"""A small round robin with its officials, players' logins and a settable "today".

`cup` builds a tournament of six players with all fifteen games paired from the Berger table
(`scoring.roundrobin`), a referee and a steward bound to it, an organizer, and a login for
everyone. `set_today(date)` replays the tournament on that day (`CORRMAIL_TODAY`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.db import Database
from corrmail.games.ledger import LetterInput, append_letter
from corrmail.models import (
    AuditEntry,
    Case,
    Channel,
    Game,
    GameResult,
    GameState,
    OutboxMessage,
    Participant,
    ResultKind,
    Role,
    Tournament,
    TournamentOfficial,
    User,
)
from scoring.roundrobin import round_robin_games

TEST_PASSWORD = "correct horse battery"  # as in tests/conftest.py

START = dt.date(2026, 9, 1)
END = dt.date(2027, 8, 31)


@dataclass
class Cup:
    """The tournament under test and everyone's logged-in client."""

    app: Flask
    database: Database
    tournament_id: int
    code: str
    participants: list[int]
    games: dict[tuple[int, int], int]
    """(white start number, black start number) -> game id."""
    clients: dict[str, FlaskClient] = field(default_factory=dict)

    def client(self, who: str) -> FlaskClient:
        """``referee``, ``referee2``, ``steward``, ``organizer`` or ``player1``…``player6``."""
        if who not in self.clients:
            self.clients[who] = self._log_in(who)
        return self.clients[who]

    def _log_in(self, login: str) -> FlaskClient:
        client = self.app.test_client()
        response = client.post("/login", data={"login": login, "password": TEST_PASSWORD})
        assert response.status_code == 302, response.data
        return client

    def game(self, session: Session, white: int, black: int) -> Game:
        game = session.get(Game, self.games[(white, black)])
        assert game is not None
        return game

    def participant_id(self, start_number: int) -> int:
        with self.database.session() as session:
            found = session.scalar(select(Participant.id).where(
                Participant.tournament_id == self.tournament_id,
                Participant.start_number == start_number))
        assert found is not None
        return found

    def game_between(self, first: int, second: int) -> int:
        return self.games.get((first, second)) or self.games[(second, first)]

    def finish(self, white: int, black: int, result: GameResult) -> None:
        with self.database.transaction() as session:
            game = self.game(session, white, black)
            game.result, game.result_kind = result, ResultKind.PLAYED
            game.state = GameState.FINISHED
            game.result_on = START + dt.timedelta(days=100)

    def play(self, white: int, black: int, letters: list[tuple[str, dt.date, dt.date | None]],
             channel: Channel = Channel.POST) -> None:
        """Append letters (moves, sent, received), alternating from white."""
        with self.database.transaction() as session:
            game = self.game(session, white, black)
            previous_sent: dt.date | None = None
            for index, (moves, sent, received) in enumerate(letters):
                sender = game.white_id if index % 2 == 0 else game.black_id
                append_letter(session, game, LetterInput(
                    sender_id=sender, channel=channel, moves_text=moves,
                    partner_sent=previous_sent, received=received, sent=sent,
                    postmark_date=sent), None)
                previous_sent = sent
            game.state = GameState.IN_PLAY

    def case_row(self, session: Session, case_id: int) -> Case:
        row = session.get(Case, case_id)
        assert row is not None
        return row

    def revision(self, case_id: int) -> int:
        with self.database.session() as session:
            return self.case_row(session, case_id).revision

    def post(self, who: str, url: str, status: int = 303, **data: object) -> str:
        """POST as ``who`` and check the status; returns the page text (or the redirect)."""
        response = self.client(who).post(url, data=data)
        text = response.data.decode()
        assert response.status_code == status, text
        return response.headers.get("Location", "") if status == 303 else text

    def act(self, who: str, case_id: int, action: str, status: int = 303, **data: object) -> str:
        """An action on a case, with the revision the user has just read."""
        return self.post(who, f"/cases/{case_id}/{action}", status,
                         revision=self.revision(case_id), **data)

    def audit(self, session: Session, action: str) -> list[AuditEntry]:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action)
                                    .order_by(AuditEntry.id)))

    def outbox(self, session: Session, kind: str) -> list[OutboxMessage]:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                    .order_by(OutboxMessage.id)))


#: The line a case letter to a steward opens with when he is to post it to a player (002 §4.1.1).
_POSTS_TO = re.compile(r"(?:Письмо для игрока|A letter for) (.+?), (?:играющего|who plays)")


def delivered(messages: list[OutboxMessage]) -> list[str]:
    """Where each letter went, sorted: its address, and for a letter a steward is to post on,
    ``steward@example.org → Player 1.6`` with the player the letter names as its reader."""
    found = []
    for message in messages:
        posted = _POSTS_TO.search(message.body_text)
        found.append(f"{message.recipient} → {posted.group(1)}" if posted else message.recipient)
    return sorted(found)


@pytest.fixture
def set_today(app: Flask) -> Callable[[dt.date], None]:
    def set_day(day: dt.date) -> None:
        app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(
            app.config["CORRMAIL_SETTINGS"], today=day
        )

    return set_day


@pytest.fixture
def cup(
    app: Flask,
    database: Database,
    make_tournament: Callable[..., Tournament],
    make_user: Callable[..., User],
    set_today: Callable[[dt.date], None],
) -> Cup:
    tournament = make_tournament(players=6, code="CUP-1", start_date=START, end_date=END)
    referee = make_user("referee", Role.REFEREE)
    referee2 = make_user("referee2", Role.REFEREE)
    steward = make_user("steward", Role.STEWARD)
    make_user("organizer", Role.ORGANIZER)
    make_user("outsider", Role.REFEREE)  # a referee of some other tournament
    games: dict[tuple[int, int], int] = {}
    with database.transaction() as session:
        for user, role in ((referee, Role.REFEREE), (referee2, Role.REFEREE),
                           (steward, Role.STEWARD)):
            session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id,
                                           role=role))
        entries = list(session.scalars(
            select(Participant).where(Participant.tournament_id == tournament.id)
            .order_by(Participant.start_number)
        ))
        by_number = {p.start_number: p for p in entries}
        for paired in round_robin_games(sorted(by_number)):  # type: ignore[arg-type]
            game = Game(tournament_id=tournament.id, round=paired.round,
                        white_id=by_number[paired.white].id, black_id=by_number[paired.black].id,
                        state=GameState.IN_PLAY)
            session.add(game)
            session.flush()
            games[(paired.white, paired.black)] = game.id
        players = [(p.start_number, p.player) for p in entries]
    for number, player in players:
        make_user(f"player{number}", Role.PLAYER, player=player)
    set_today(START + dt.timedelta(days=60))
    return Cup(app, database, tournament.id, tournament.code, [p.id for p in entries], games)
