"""The repeat of an unanswered move and the first-move query (002 §4.3.4), as the daily sweep and
the calendar send them, and as the dashboard and the game page show them.

002 §4.3.4: a player who gets no answer repeats his move by registered letter after 30 days. The
repeat is sent once; only when it too goes unanswered for 30 counted days is the next one due.
A letter to a player who plays by post goes to the steward, who posts it (002 §4.1.1). The
first move is queried 30 days after White's start: the start date, or the day after he got a
start sheet that reached him later (002 §4.3.2). Each test runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from corrmail.games import record_start_sheet_receipt
from corrmail.games.page import game_clock
from corrmail.games.state import stored_states
from corrmail.games.view import GameView
from corrmail.letters.repeats import REPEAT_ACTION
from corrmail.letters.scheduled import Schedule, ScheduleReport
from corrmail.models import AuditEntry, Channel, Game, Participant, Tournament, User
from corrmail.play.postcards import PostcardEntry, enter_postcard
from corrmail.referee.case_letters import case_letter_writer
from corrmail.sweep import SweepReport, sweep
from corrmail.tournaments.dashboard import DashboardFilter, dashboard_rows
from timekeeping import repeat_due

from .conftest import MAIL_SETTINGS, EmailGame

#: White e-mails his first move on D; Black does not answer.
D = dt.date(2026, 3, 2)
DUE = D + dt.timedelta(days=30)  # 1 April 2026 (no breaks)
DAY = dt.timedelta(days=1)


def _sweep(email_game: EmailGame, today: dt.date) -> SweepReport:
    with email_game.database.transaction() as session:
        return sweep(session, case_writer=case_letter_writer(MAIL_SETTINGS),
                     mail_writer=email_game.writer, today=today)


def _calendar(email_game: EmailGame, today: dt.date) -> ScheduleReport:
    with email_game.database.transaction() as session:
        return Schedule(email_game.writer).run(session, today)


def _set_channel(email_game: EmailGame, participant_id: int, channel: Channel) -> None:
    """The player plays by ``channel``; his address stays on file (given for his login)."""
    with email_game.database.transaction() as session:
        participant = session.get(Participant, participant_id)
        assert participant is not None
        participant.channel = channel


def _dashboard_row(email_game: EmailGame, today: dt.date,
                   wanted: DashboardFilter = DashboardFilter.ALL) -> list[object]:
    with email_game.database.session() as session:
        tournament = session.scalar(select(Tournament))
        assert tournament is not None
        return list(dashboard_rows(session, tournament, today, wanted=wanted))


def _repeat_records(email_game: EmailGame) -> list[dict[str, object]]:
    with email_game.database.session() as session:
        return [entry.detail for entry in session.scalars(
            select(AuditEntry).where(AuditEntry.action == REPEAT_ACTION).order_by(AuditEntry.id))]


# -- once, on consecutive days -----------------------------------------------------------------


def test_the_daily_sweep_sends_the_repeat_once_on_consecutive_days(email_game: EmailGame) -> None:
    """Before the fix the subject carried the day of the repeat, so each day's sweep found no
    letter with that subject and repeated the move again."""
    email_game.send("white", "1. c3-d4", D)
    counts = [_sweep(email_game, DUE + DAY * offset).mail.repeats for offset in range(-1, 8)]
    assert counts == [0, 1, 0, 0, 0, 0, 0, 0, 0]
    [to_black] = email_game.outbox(to=email_game.black_email, kind="repeat")
    [copy] = email_game.outbox(to=email_game.white_email, kind="repeat")
    assert "Дата повтора: 01.04.2026" in to_black.body_text and "c3-d4" in to_black.body_text
    assert copy.subject == to_black.subject
    [record] = _repeat_records(email_game)
    assert record["due"] == "2026-04-01" and record["on"] == "2026-04-01"
    assert sorted(record["to"]) == sorted([email_game.black_email, email_game.white_email])  # type: ignore[type-var]


def test_an_unanswered_repeat_is_repeated_again_thirty_days_later_and_not_before(
        email_game: EmailGame) -> None:
    """The repeat is the registered letter that stands for the move: when it too goes 30 days
    unanswered the rule asks again (002 §4.3.4). The calendar runs every day in between."""
    email_game.send("white", "1. c3-d4", D)
    assert _calendar(email_game, DUE).repeats == 1
    second = repeat_due(DUE)
    assert second == dt.date(2026, 5, 1)
    between = [_calendar(email_game, DUE + DAY * offset).repeats
               for offset in range(1, (second - DUE).days)]
    assert between == [0] * 29
    assert _calendar(email_game, second).repeats == 1
    assert _calendar(email_game, second + DAY).repeats == 0
    letters = email_game.outbox(to=email_game.black_email, kind="repeat")
    assert len(letters) == 2
    assert "Повтор от 01.04.2026 тоже остался без ответа 30 дней." in letters[1].body_text
    assert "Повтор от" not in letters[0].body_text
    assert [r["on"] for r in _repeat_records(email_game)] == ["2026-04-01", "2026-05-01"]


def test_an_answer_ends_the_wait_and_its_own_move_is_repeated_on_its_own_date(
        email_game: EmailGame) -> None:
    email_game.send("white", "1. c3-d4", D)
    assert _sweep(email_game, DUE).mail.repeats == 1
    reply = DUE + DAY * 3
    assert email_game.send("black", "1. c3-d4 f6-g5", reply).outcome == "move_relayed"
    assert _sweep(email_game, reply + DAY * 29).mail.repeats == 0, "White answers in time"
    assert _sweep(email_game, reply + DAY * 30).mail.repeats == 1
    # White has the copy of his own repeat, then Black's move repeated to him.
    copy, to_white = email_game.outbox(to=email_game.white_email, kind="repeat")
    assert "f6-g5" not in copy.body_text
    assert "f6-g5" in to_white.body_text and "Повтор от" not in to_white.body_text


# -- the dashboard -----------------------------------------------------------------------------


def test_the_dashboard_stops_calling_the_repeat_overdue_once_it_was_sent(
        email_game: EmailGame) -> None:
    email_game.send("white", "1. c3-d4", D)
    assert _dashboard_row(email_game, DUE - DAY, DashboardFilter.REPEAT_OVERDUE) == []
    [waiting] = _dashboard_row(email_game, DUE, DashboardFilter.REPEAT_OVERDUE)
    assert waiting.clock.repeat_due == DUE and waiting.clock.repeated_on is None  # type: ignore[attr-defined]
    _sweep(email_game, DUE)
    assert _dashboard_row(email_game, DUE, DashboardFilter.REPEAT_OVERDUE) == []
    assert _dashboard_row(email_game, DUE + DAY * 10, DashboardFilter.REPEAT_OVERDUE) == []
    [row] = _dashboard_row(email_game, DUE + DAY)
    assert row.clock.repeated_on == DUE  # type: ignore[attr-defined]
    assert row.clock.repeat_due == repeat_due(DUE)  # type: ignore[attr-defined]
    # The stored state keeps the move's own due date: the record of the repeat moves it on.
    with email_game.database.session() as session:
        [state] = stored_states(session, [email_game.game_id]).values()
        assert state.repeat_due == DUE
        game = session.get(Game, email_game.game_id)
        assert game is not None
        clock = game_clock(GameView(game), DUE + DAY)
        assert (clock.repeat_due, clock.repeated_on, clock.repeat_overdue) == (
            repeat_due(DUE), DUE, False), "the game page agrees with the dashboard"
    # Thirty days after the repeat, with no answer, the next one is overdue until it is sent.
    [again] = _dashboard_row(email_game, repeat_due(DUE), DashboardFilter.REPEAT_OVERDUE)
    assert again.clock.repeat_due == repeat_due(DUE)  # type: ignore[attr-defined]


# -- a partner who plays by post ---------------------------------------------------------------


def test_the_repeat_to_a_partner_who_plays_by_post_goes_to_the_steward(
        email_game: EmailGame) -> None:
    _set_channel(email_game, email_game.black_id, Channel.POST)
    email_game.send("white", "1. c3-d4", D)
    assert _sweep(email_game, DUE).mail.repeats == 1
    assert email_game.outbox(to=email_game.black_email, kind="repeat") == [], (
        "not to an address the postal player does not read")
    [to_steward] = email_game.outbox(to=email_game.steward_email, kind="repeat")
    assert to_steward.subject.endswith("— почтой для Седов Сергей")
    assert "Седов Сергей играет по почте: отправьте ему, пожалуйста, этот повтор заказным" in (
        to_steward.body_text)
    assert "Здравствуйте, Steward!" in to_steward.body_text
    assert "Здравствуйте, Седов Сергей!" in to_steward.body_text and "c3-d4" in to_steward.body_text
    [copy] = email_game.outbox(to=email_game.white_email, kind="repeat")
    assert "почтой" not in copy.subject and "Здравствуйте, Петров Иван!" in copy.body_text
    assert _sweep(email_game, DUE + DAY).mail.repeats == 0
    assert len(email_game.outbox(kind="repeat")) == 2


def test_without_a_steward_to_post_it_nothing_is_sent_and_the_repeat_stays_overdue(
        email_game: EmailGame) -> None:
    """Wrong input: the partner plays by post and no steward has an address. The repeat is not
    e-mailed to the player nor recorded as sent; the dashboard keeps it overdue for the steward."""
    _set_channel(email_game, email_game.black_id, Channel.POST)
    with email_game.database.transaction() as session:
        steward = session.scalar(select(User).where(User.login == "steward"))
        assert steward is not None
        steward.email = None
    email_game.send("white", "1. c3-d4", D)
    assert _sweep(email_game, DUE).mail.repeats == 0
    assert email_game.outbox(kind="repeat") == []
    assert _repeat_records(email_game) == []
    assert len(_dashboard_row(email_game, DUE + DAY, DashboardFilter.REPEAT_OVERDUE)) == 1


def test_a_postal_senders_copy_goes_to_the_steward(email_game: EmailGame) -> None:
    """White plays by post: his card was relayed to Black by e-mail. Black's repeat goes to
    Black; White's copy to the steward, not to the address White keeps for his login."""
    _set_channel(email_game, email_game.white_id, Channel.POST)
    card = PostcardEntry(sender_id=email_game.white_id, moves_text="1. c3-d4",
                         sent=f"{D:%d.%m.%y}", postmark=f"{D:%d.%m.%y}")
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        enter_postcard(session, game, card, None, today=D + DAY * 4, writer=email_game.writer)
    with email_game.database.session() as session:
        [state] = stored_states(session, [email_game.game_id]).values()
        due = state.repeat_due
    assert due is not None
    assert _calendar(email_game, due - DAY).repeats == 0
    assert _calendar(email_game, due).repeats == 1
    assert len(email_game.outbox(to=email_game.black_email, kind="repeat")) == 1
    assert email_game.outbox(to=email_game.white_email, kind="repeat") == []
    [copy] = email_game.outbox(to=email_game.steward_email, kind="repeat")
    assert copy.subject.endswith("— почтой для Петров Иван")
    assert _calendar(email_game, due + DAY).repeats == 0


def test_a_game_of_two_postal_players_is_left_to_them(email_game: EmailGame) -> None:
    _set_channel(email_game, email_game.white_id, Channel.POST)
    _set_channel(email_game, email_game.black_id, Channel.POST)
    assert _calendar(email_game, dt.date(2026, 4, 15)).first_move_queries == 0
    assert email_game.outbox(kind="first_move_query") == []


# -- the first-move query ----------------------------------------------------------------------


def _start_sheet_received(email_game: EmailGame, participant_id: int, day: dt.date) -> None:
    with email_game.database.transaction() as session:
        participant = session.get(Participant, participant_id)
        assert participant is not None
        record_start_sheet_receipt(session, participant, day, None)


def test_the_first_move_query_counts_from_a_late_start_sheet(email_game: EmailGame) -> None:
    """002 §4.3.2: White got his start sheet on 10 March, after the start (1 March): his play
    begins on 11 March, and the 30 days before the query count from then, not from the start."""
    _start_sheet_received(email_game, email_game.white_id, dt.date(2026, 3, 10))
    assert _sweep(email_game, dt.date(2026, 3, 31)).mail.first_move_queries == 0
    assert _sweep(email_game, dt.date(2026, 4, 9)).mail.first_move_queries == 0
    assert _sweep(email_game, dt.date(2026, 4, 10)).mail.first_move_queries == 1
    [query] = email_game.outbox(to=email_game.white_email, kind="first_move_query")
    assert "запрос первого хода от 10.04.2026" in query.subject
    assert "Игра началась 11.03.2026" in query.body_text
    assert email_game.outbox(to=email_game.black_email, kind="first_move_query")
    assert _sweep(email_game, dt.date(2026, 4, 11)).mail.first_move_queries == 0


def test_a_start_sheet_received_before_the_start_does_not_move_the_query(
        email_game: EmailGame) -> None:
    """Wrong input for the late start: a sheet received before the start date. Play begins on
    the start date (002 §4.3.2), so the query is due 30 days after it."""
    _start_sheet_received(email_game, email_game.white_id, dt.date(2026, 2, 20))
    assert _sweep(email_game, dt.date(2026, 3, 30)).mail.first_move_queries == 0
    assert _sweep(email_game, dt.date(2026, 3, 31)).mail.first_move_queries == 1
    [query] = email_game.outbox(to=email_game.white_email, kind="first_move_query")
    assert "Игра началась 01.03.2026" in query.body_text


def test_the_first_move_query_to_a_postal_white_goes_to_the_steward(
        email_game: EmailGame) -> None:
    _set_channel(email_game, email_game.white_id, Channel.POST)
    assert _calendar(email_game, dt.date(2026, 3, 31)).first_move_queries == 1
    assert email_game.outbox(to=email_game.white_email, kind="first_move_query") == []
    [to_steward] = email_game.outbox(to=email_game.steward_email, kind="first_move_query")
    assert to_steward.subject.endswith("— почтой для Петров Иван")
    assert "Белым: пришлите, пожалуйста, первый ход" in to_steward.body_text
    assert len(email_game.outbox(to=email_game.black_email, kind="first_move_query")) == 1
    assert _calendar(email_game, dt.date(2026, 4, 1)).first_move_queries == 0
