"""A four-player postal round robin with its officials, replayable day by day.

`league` gives the tournament (Cyrillic names: the printable page must render them), its six
games paired from `scoring`'s Berger table, a steward, a referee and an organizer with logins,
and helpers that add what happens on a given date: a move letter, a result, a sanction or a
special break decided through the referee's desk (so the audit log holds real decisions).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudication.sanction import SanctionKind
from adjudication.special_break import BreakKind as SpecialBreakKind
from corrmail.db import Database
from corrmail.demo.moves import DEMO_MOVES
from corrmail.games.ledger import LetterInput, append_letter
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    Channel,
    Game,
    GameResult,
    GameState,
    Participant,
    Player,
    ResultKind,
    Role,
    Tournament,
    TournamentOfficial,
    User,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Desk, actor_for
from scoring.roundrobin import round_robin_games

TEST_PASSWORD = "correct horse battery"  # as in tests/conftest.py
START = dt.date(2026, 9, 1)
END = dt.date(2027, 8, 31)
NAMES = ("Иванов Пётр", "Смирнова Анна", "Кузнецов Олег", "Попова Мария")
MAIL = MailSettings(domain="corrmail.test", from_address="server@corrmail.test",
                    secret=b"bulletin tests")


@dataclass
class League:
    app: Flask
    database: Database
    tournament_id: int
    code: str
    participants: list[int]
    games: list[int]
    """Game ids in pairing order; game i plays the moves of ``DEMO_MOVES[i]``."""
    played: dict[int, int]
    """Game id -> plies already sent."""

    def writer(self) -> LetterWriter:
        return LetterWriter(MAIL)

    def client(self, login: str) -> FlaskClient:
        client = self.app.test_client()
        response = client.post("/login", data={"login": login, "password": TEST_PASSWORD})
        assert response.status_code == 302, response.data
        return client

    def send_move(self, index: int, sent: dt.date) -> None:
        """The next ply of game ``index``, sent on ``sent``; it answers the partner's letter,
        received two days after he sent it (a postal game)."""
        with self.database.transaction() as session:
            game = session.get(Game, self.games[index])
            assert game is not None
            ply = self.played.get(game.id, 0)
            previous = game.letters[-1].sent if game.letters else None
            append_letter(session, game, LetterInput(
                sender_id=game.white_id if ply % 2 == 0 else game.black_id,
                channel=Channel.POST,
                moves_text=DEMO_MOVES[index][ply],
                partner_sent=previous,
                received=previous + dt.timedelta(days=2) if previous else None,
                sent=sent,
                postmark_date=sent,
            ), None)
            game.state = GameState.IN_PLAY
            self.played[game.id] = ply + 1

    def finish(self, index: int, result: GameResult, on: dt.date) -> None:
        with self.database.transaction() as session:
            game = session.get(Game, self.games[index])
            assert game is not None
            game.result, game.result_kind = result, ResultKind.PLAYED
            game.state, game.result_on = GameState.FINISHED, on

    def desk(self, session_user: str, on: dt.date, action: Callable[..., object],
             **kwargs: object) -> object:
        """Run ``action(desk, actor, session)`` as ``session_user`` on ``on``, committed."""
        with self.database.transaction() as session:
            user = session.query(User).filter_by(login=session_user).one()
            actor = actor_for(session, user, self.tournament_id)
            desk = Desk(session, case_letter_writer(MAIL), on=on)
            return action(desk, actor, session, **kwargs)

    def withhold_bulletins(self, start_number: int, on: dt.date) -> None:
        def impose(desk: Desk, actor: object, session: object) -> None:
            participant = self.participant(session, start_number)
            desk.impose_sanction(actor, participant,  # type: ignore[arg-type]
                                 sanction=SanctionKind.BULLETINS_WITHHELD,
                                 rules_violated=("002 §4.5.1",),
                                 reasons="записи партий не присланы")
        self.desk("steward", on, impose)

    def special_break(self, start_number: int, on: dt.date, start: dt.date, end: dt.date) -> None:
        def request(desk: Desk, actor: object, session: object) -> int:
            participant = self.participant(session, start_number)
            done = desk.request_special_break(actor, participant,  # type: ignore[arg-type]
                                              break_kind=SpecialBreakKind.EXTRA, start=start,
                                              end=end, reason="болезнь")
            return done.stored.row.id

        case_id = self.desk("steward", on, request)

        def grant(desk: Desk, actor: object, session: object) -> None:
            from corrmail.referee.store import load_case
            stored = load_case(session, case_id)  # type: ignore[arg-type]
            desk.decide(actor, case_id, revision=stored.case.revision,  # type: ignore[arg-type]
                        ruling="granted", reasons="справка врача")
        self.desk("referee", on, grant)

    def participant(self, session: object, start_number: int) -> Participant:
        from sqlalchemy.orm import Session
        assert isinstance(session, Session)
        participant = session.query(Participant).filter_by(
            tournament_id=self.tournament_id, start_number=start_number).one()
        return participant


@pytest.fixture
def league(app: Flask, database: Database) -> League:
    with database.transaction() as session:
        tournament = Tournament(
            code="ЗКБ-1", title="Кубок заочников", game_type="russian",
            system="round_robin_single", channel="post", start_date=START, end_date=END,
            tiebreak_order=["sonneborn_berger", "koya"], status="running",
        )
        session.add(tournament)
        session.flush()
        participants = []
        for number, name in enumerate(NAMES, start=1):
            player = Player(name=name, email=f"p{number}@example.org",
                            postal_address=f"ул. Садовая, {number}")
            session.add(player)
            session.flush()
            entry = Participant(tournament_id=tournament.id, player_id=player.id,
                                start_number=number)
            session.add(entry)
            session.flush()
            participants.append(entry)
            user = User(login=f"player{number}", display_name=name,
                        email=f"p{number}@example.org", player_id=player.id)
            user.set_password(TEST_PASSWORD)
            user.grant(Role.PLAYER)
            session.add(user)
        for login, role in (("steward", Role.STEWARD), ("referee", Role.REFEREE),
                            ("organizer", Role.ORGANIZER)):
            user = User(login=login, display_name=login.title(), email=f"{login}@example.org")
            user.set_password(TEST_PASSWORD)
            user.grant(role)
            session.add(user)
            session.flush()
            if role is not Role.ORGANIZER:
                session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id,
                                               role=role))
        by_number = {p.start_number: p for p in participants}
        games = []
        for pairing in round_robin_games([1, 2, 3, 4]):
            game = Game(tournament_id=tournament.id, round=pairing.round,
                        white_id=by_number[pairing.white].id,
                        black_id=by_number[pairing.black].id)
            session.add(game)
            session.flush()
            games.append(game.id)
        ids = [p.id for p in participants]
        tournament_id, code = tournament.id, tournament.code
    return League(app, database, tournament_id, code, ids, games, {})
