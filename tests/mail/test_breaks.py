"""Breaks announced by e-mail and by a steward's postal entry (002 §4.4.1–§4.4.3), through the
real inbox, on SQLite and PostgreSQL: one judgement for every channel (the game core's
``record_break``), a refused break stores nothing and uses nothing up, and the letters say what
was written, what stands and who was told — to the announcer, every partner and the steward."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.utils import format_datetime, make_msgid

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.games import BreakRefused
from corrmail.games.state import verify
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox, Receipt, Source
from corrmail.models import (
    Break,
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
from corrmail.play.postcards import record_break_notice
from tests.mail.conftest import MAIL_SETTINGS, MOSCOW

D = dt.date


@dataclass
class Field:
    """Смирнова plays Иванов (e-mail, reads English) and Орлов (by post); Петров plays Иванов.
    The steward has an address; the second steward has none."""

    database: Database
    inbox: Inbox
    writer: LetterWriter
    ids: dict[str, int]
    games: dict[str, int]
    steward_user_id: int
    counter: itertools.count = field(default_factory=lambda: itertools.count(1))

    def send(self, who: str, game: str, text: str, day: dt.date) -> Receipt:
        number = next(self.counter)
        when = dt.datetime.combine(day, dt.time(10, 0), MOSCOW)
        raw = "\r\n".join([
            f"From: {EMAILS[who]}",
            f"To: {self.writer.signer.reply_address(self.games[game], self.ids[who])}",
            "Subject: Re: ход", f"Date: {format_datetime(when)}",
            f"Message-ID: {make_msgid(idstring=f'b{number}', domain='example.org')}",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit", "", text]).encode()
        return self.inbox.receive(raw, source=Source.PIPE, received_at=when)

    def outbox(self) -> list[tuple[str, str, str]]:
        """(recipient, kind, language-telling subject) of every letter written, in order."""
        with self.database.session() as session:
            return [(row.recipient, row.kind, row.subject) for row in
                    session.scalars(select(OutboxMessage).order_by(OutboxMessage.id))]

    def letter(self, to: str, kind: str) -> OutboxMessage:
        with self.database.session() as session:
            [row] = session.scalars(select(OutboxMessage).where(
                OutboxMessage.recipient == to, OutboxMessage.kind == kind)).all()
            return row

    def breaks(self, who: str = "smirnova") -> list[tuple[dt.date, dt.date, dt.date | None]]:
        with self.database.session() as session:
            return [(row.start_date, row.end_date, row.announced_on) for row in session.scalars(
                select(Break).where(Break.participant_id == self.ids[who]).order_by(Break.id))]


NAMES = {"smirnova": "Смирнова Анна", "ivanov": "Иванов Пётр", "orlov": "Орлов Андрей",
         "petrov": "Петров Олег"}
EMAILS = {"smirnova": "smirnova@mail.example", "ivanov": "ivanov@mail.example", "orlov": "",
          "petrov": "petrov@mail.example"}
STEWARD = "steward@federation.example"
CODE = "Э-2026"


@pytest.fixture
def field_of_play(db_url: str) -> Iterator[Field]:
    database = Database(db_url)
    with database.transaction() as session:
        tournament = Tournament(
            code=CODE, title="Заочный турнир", game_type=GameType.RUSSIAN,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.MIXED,
            start_date=D(2026, 9, 1), end_date=D(2027, 8, 31), status=TournamentStatus.RUNNING)
        session.add(tournament)
        session.flush()
        ids: dict[str, int] = {}
        for number, who in enumerate(NAMES, start=1):
            player = Player(name=NAMES[who], email=EMAILS[who] or None,
                            language="en" if who == "ivanov" else "ru")
            session.add(player)
            session.flush()
            entrant = Participant(tournament_id=tournament.id, player_id=player.id,
                                  start_number=number)
            session.add(entrant)
            session.flush()
            ids[who] = entrant.id
            if who == "ivanov":  # he reads his letters in English
                user = User(login="ivanov", display_name=NAMES[who], email=EMAILS[who],
                            locale="en", player_id=player.id)
                user.set_password("x" * 12)
                session.add(user)
        games = {}
        for name, white, black in (("g1", "smirnova", "ivanov"), ("g2", "orlov", "smirnova"),
                                   ("g3", "petrov", "ivanov")):
            game = Game(tournament_id=tournament.id, round=1, white_id=ids[white],
                        black_id=ids[black], state=GameState.IN_PLAY)
            session.add(game)
            session.flush()
            games[name] = game.id
        users = []
        for login, email in (("steward", STEWARD), ("steward2", None)):
            user = User(login=login, display_name=login.title(), email=email)
            user.set_password("x" * 12)
            session.add(user)
            session.flush()
            session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id,
                                           role=Role.STEWARD))
            users.append(user.id)
    writer = LetterWriter(MAIL_SETTINGS)
    yield Field(database, Inbox(database, writer), writer, ids, games, users[0])
    with database.session() as session:
        differences = verify(session)
        session.rollback()
    database.dispose()
    assert not differences, [difference.describe() for difference in differences]


def test_a_break_announced_after_it_ended_is_refused_and_uses_nothing_up(
        field_of_play: Field) -> None:
    """(A) 002 §4.4.2: the notice comes «до его начала»; announced after its end it would count
    in no game, so it is refused, stored nowhere, told to nobody but the sender — and the real
    break of the year is still his."""
    receipt = field_of_play.send("smirnova", "g1", "Беру перерыв с 01.12.2026 по 05.12.2026",
                                 D(2026, 12, 12))
    assert receipt.outcome == "break_refused"
    assert field_of_play.breaks() == []
    assert [(to, kind) for to, kind, _ in field_of_play.outbox()] == [
        (EMAILS["smirnova"], "break_refused")]
    refused = field_of_play.letter(EMAILS["smirnova"], "break_refused")
    assert refused.subject == f"{CODE}: перерыв не предоставлен — игра продолжается"
    assert ("Ваше сообщение «беру перерыв с 01.12.2026 по 05.12.2026» не принято, перерыв не "
            "предоставлен:\n  • 002 §4.4.2: перерыв объявлен после его окончания: о перерыве "
            "сообщают до его начала, а объявленный после окончания не засчитывается ни в одной "
            "партии (объявлен 12.12.2026)\n\nНичего не записано, и отклонённое сообщение не "
            "расходует перерыв года (002 §4.4.1).") in refused.body_text
    # Her real break is then hers: nothing was used up.
    real = field_of_play.send("smirnova", "g1", "Беру перерыв с 20.12.2026 по 25.12.2026",
                              D(2026, 12, 13))
    assert real.outcome == "break_recorded"
    assert field_of_play.breaks() == [(D(2026, 12, 20), D(2026, 12, 25), D(2026, 12, 13))]


def test_a_break_announced_after_it_began_counts_from_the_announcement(
        field_of_play: Field) -> None:
    """002 §4.4.2 «засчитывается со дня его объявления»: a late notice stands, and every letter
    says from which day it counts."""
    receipt = field_of_play.send("smirnova", "g1", "Беру перерыв с 01.12.2026 по 10.12.2026",
                                 D(2026, 12, 3))
    assert receipt.outcome == "break_recorded"
    assert field_of_play.breaks() == [(D(2026, 12, 1), D(2026, 12, 10), D(2026, 12, 3))]
    mine = field_of_play.letter(EMAILS["smirnova"], "break_confirmed")
    assert ("Перерыв объявлен после его начала: он засчитывается со дня объявления, с "
            "03.12.2026 (002 §4.4.2).") in mine.body_text
    partner = field_of_play.letter(EMAILS["ivanov"], "break_notice")
    assert ("It was announced after it began, so it counts from the day of the announcement, "
            "03.12.2026 (002 §4.4.2).") in partner.body_text


def test_a_break_overlapping_or_continuing_the_one_taken_is_refused(field_of_play: Field) -> None:
    """(B) 002 §4.4.1: December's break cut to its 30 days (20.12–18.01) and a January break from
    15.01 (overlapping) or 19.01 (the next day) would be one break of 37 days: refused, stored
    nowhere, told to nobody but her; with a day of play between, it is 2027's break."""
    first = field_of_play.send("smirnova", "g1", "Беру перерыв с 20.12.2026 по 31.01.2027",
                               D(2026, 12, 11))
    assert first.outcome == "break_recorded"
    taken = [(D(2026, 12, 20), D(2027, 1, 18), D(2026, 12, 11))]
    assert field_of_play.breaks() == taken
    written = len(field_of_play.outbox())
    for number, first_day in enumerate(("15.01.2027", "19.01.2027"), start=1):
        receipt = field_of_play.send("smirnova", "g1",
                                     f"Беру перерыв с {first_day} по 25.01.2027",
                                     D(2026, 12, 12))
        assert receipt.outcome == "break_refused"
        assert field_of_play.breaks() == taken
        letters = field_of_play.outbox()
        assert [(to, kind) for to, kind, _ in letters[written:]] == [
            (EMAILS["smirnova"], "break_refused")]
        written = len(letters)
        with field_of_play.database.session() as session:
            refused = session.scalars(select(OutboxMessage).where(
                OutboxMessage.kind == "break_refused").order_by(OutboxMessage.id)).all()[number - 1]
        assert (f"Ваше сообщение «беру перерыв с {first_day} по 25.01.2027» не принято, перерыв "
                "не предоставлен:\n  • 002 §4.4.1: перерыв пересекается с уже взятым перерывом "
                "или продолжает его без перерыва в игре: один перерыв длится не более 30 дней "
                "(ваш перерыв с 20.12.2026 по 18.01.2027)\n") in refused.body_text
    later = field_of_play.send("smirnova", "g1", "Беру перерыв с 20.01.2027 по 25.01.2027",
                               D(2026, 12, 12))
    assert later.outcome == "break_recorded"
    assert field_of_play.breaks() == [*taken, (D(2027, 1, 20), D(2027, 1, 25), D(2026, 12, 12))]


def test_a_break_over_30_days_quotes_what_she_wrote_and_says_what_stands(
        field_of_play: Field) -> None:
    """(C) The partners' letter quotes her words, not the dates after the cut; she is told in
    her own letter, every reason on its own line."""
    field_of_play.send("smirnova", "g1", "Беру перерыв с 20.12.2026 по 31.01.2027",
                       D(2026, 12, 11))
    partner = field_of_play.letter(EMAILS["ivanov"], "break_notice")
    assert partner.subject == f"{CODE}: Смирнова Анна takes a break from 20.12.2026 to 18.01.2027"
    assert ("Смирнова Анна announces: «беру перерыв с 20.12.2026 по 31.01.2027».\n"
            "The break was announced on 11.12.2026 (server postmark).\n"
            "The break lasts 43 days, and at most 30 are allowed: only its first 30 days count,\n"
            "from 20.12.2026 to 18.01.2027 (002 §4.4.1).\n") in partner.body_text
    assert "«беру перерыв с 20.12.2026 по 18.01.2027»" not in partner.body_text
    mine = field_of_play.letter(EMAILS["smirnova"], "break_shortened")
    assert mine.subject == f"{CODE}: перерыв засчитан не полностью: с 20.12.2026 по 18.01.2027"
    assert ("Перерыв длится 43 дня, а допускается не более 30: засчитываются только первые 30 "
            "дней,\nс 20.12.2026 по 18.01.2027 (002 §4.4.1).\n") in mine.body_text
    assert ":  •" not in mine.body_text


def test_an_accepted_break_is_confirmed_to_her_and_told_to_every_partner_and_the_steward(
        field_of_play: Field) -> None:
    """(C) 002 §4.4.2 «всем партнерам, с которыми игра не закончена, и старосте»: the partner
    by e-mail in his language, the postal partner through the steward, who is told whom to
    write to; she gets her confirmation naming them; the players of other games get nothing."""
    receipt = field_of_play.send("smirnova", "g1", "Беру перерыв с 20.12.2026 по 25.12.2026",
                                 D(2026, 12, 10))
    assert receipt.outcome == "break_recorded"
    assert sorted((to, kind) for to, kind, _ in field_of_play.outbox()) == sorted([
        (EMAILS["ivanov"], "break_notice"), (STEWARD, "break_notice"),
        (EMAILS["smirnova"], "break_confirmed")])
    mine = field_of_play.letter(EMAILS["smirnova"], "break_confirmed")
    assert mine.subject == f"{CODE}: ваш перерыв с 20.12.2026 по 25.12.2026 записан"
    assert ("Ваше сообщение «беру перерыв с 20.12.2026 по 25.12.2026» получено 10.12.2026\n"
            "и записано во всех ваших неоконченных партиях турнира (002 §4.4.1).\n\n"
            "Перерыв с 20.12.2026 по 25.12.2026: 6 дней, обе даты включены (002 §4.4.3).\n\n"
            "Уведомление о перерыве отправлено (002 §4.4.2):\n"
            "  • Иванов Пётр\n"
            "  • Орлов Андрей — играет по почте, уведомление перешлёт староста\n"
            "  • староста турнира\n") in mine.body_text
    partner = field_of_play.letter(EMAILS["ivanov"], "break_notice")
    assert partner.subject == f"{CODE}: Смирнова Анна takes a break from 20.12.2026 to 25.12.2026"
    assert ("Смирнова Анна announces: «беру перерыв с 20.12.2026 по 25.12.2026».\n"
            "The break was announced on 10.12.2026 (server postmark).\n"
            "The break runs from 20.12.2026 to 25.12.2026: 6 days, both dates included "
            "(002 §4.4.3).\n") in partner.body_text
    steward = field_of_play.letter(STEWARD, "break_notice")
    assert steward.subject == f"{CODE}: Смирнова Анна берёт перерыв с 20.12.2026 по 25.12.2026"
    assert ("Партнёры, играющие по почте, получают уведомление от вас (002 §4.4.2): "
            "Орлов Андрей.") in steward.body_text


def _postal_notice(field_of_play: Field, first: dt.date, last: dt.date, postmark: dt.date) -> None:
    """The steward enters Орлов's registered notice, as the postal entry does."""
    with field_of_play.database.transaction() as session:
        orlov = session.get(Participant, field_of_play.ids["orlov"])
        steward = session.get(User, field_of_play.steward_user_id)
        assert orlov is not None and steward is not None
        record_break_notice(session, orlov, first, last, postmark, steward,
                            writer=field_of_play.writer)


def test_a_steward_enters_a_postal_break_notice_judged_and_told_as_an_e_mail_one(
        field_of_play: Field) -> None:
    """The postal entry goes through the same judgement: past or joining breaks refused with
    nothing stored; a break that stands is told to the partner by e-mail and the other
    stewards (the one who entered it knows), not to the postal announcer."""
    with pytest.raises(BreakRefused) as refused:
        _postal_notice(field_of_play, D(2026, 12, 1), D(2026, 12, 5), D(2026, 12, 12))
    assert [(v.rule, v.code) for v in refused.value.violations] == [
        ("002 §4.4.2", "break_announced_after_end")]
    assert field_of_play.breaks("orlov") == [] and field_of_play.outbox() == []
    _postal_notice(field_of_play, D(2026, 12, 20), D(2027, 1, 31), D(2026, 12, 11))
    assert field_of_play.breaks("orlov") == [(D(2026, 12, 20), D(2027, 1, 18), D(2026, 12, 11))]
    assert [(to, kind) for to, kind, _ in field_of_play.outbox()] == [
        (EMAILS["smirnova"], "break_notice")]
    told = field_of_play.letter(EMAILS["smirnova"], "break_notice")
    assert "Орлов Андрей сообщает: «беру перерыв с 20.12.2026 по 31.01.2027»." in told.body_text
    with pytest.raises(BreakRefused) as joined:
        _postal_notice(field_of_play, D(2027, 1, 10), D(2027, 1, 25), D(2026, 12, 14))
    assert [v.code for v in joined.value.violations] == ["break_joins_another"]
    assert len(field_of_play.breaks("orlov")) == 1 and len(field_of_play.outbox()) == 1
