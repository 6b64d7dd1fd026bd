"""Letters sent by the calendar: repeats (002 §4.3.4), first-move queries, digests, start sheets."""

from __future__ import annotations

import datetime as dt
from email import policy
from email.parser import BytesParser

from icalendar import Calendar

from corrmail.letters.scheduled import Schedule
from corrmail.models import Channel, Game, Participant, Tournament

D = dt.date(2026, 3, 2)


def run(email_game, today: dt.date):  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        return Schedule(email_game.writer).run(session, today)


def test_first_move_query_after_30_days(email_game) -> None:  # type: ignore[no-untyped-def]
    assert run(email_game, dt.date(2026, 3, 30)).first_move_queries == 0
    report = run(email_game, dt.date(2026, 3, 31))
    assert report.first_move_queries == 1
    queries = email_game.outbox(kind="first_move_query")
    assert {q.recipient for q in queries} == {email_game.white_email, email_game.black_email}
    assert "002 §4.3.4" in queries[0].subject
    assert run(email_game, dt.date(2026, 4, 1)).first_move_queries == 0, "sent once"


def test_unanswered_move_is_repeated_after_30_days_with_the_first_dates(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    assert run(email_game, D + dt.timedelta(days=29)).repeats == 0
    assert run(email_game, D + dt.timedelta(days=30)).repeats == 1
    [to_black] = email_game.outbox(to=email_game.black_email, kind="repeat")
    assert "c3-d4" in to_black.body_text and "— / — / 02.03.2026" in to_black.body_text
    assert "Дата повтора: 01.04.2026" in to_black.body_text
    assert email_game.outbox(to=email_game.white_email, kind="repeat"), "the sender gets a copy"
    assert run(email_game, D + dt.timedelta(days=30)).repeats == 0


def test_a_break_delays_the_repeat(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("black", "Беру перерыв с 05.03.26 по 14.03.26", dt.date(2026, 3, 1))
    email_game.send("white", "1. c3-d4", D)
    assert run(email_game, D + dt.timedelta(days=30)).repeats == 0
    assert run(email_game, D + dt.timedelta(days=40)).repeats == 1


def test_weekly_digest_on_mondays_lists_games_to_move(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    monday = dt.date(2026, 3, 9)
    assert run(email_game, monday - dt.timedelta(days=1)).digests == 0
    assert run(email_game, monday).digests == 1
    [digest] = email_game.outbox(kind="digest")
    assert digest.recipient == email_game.black_email
    assert "до просрочки" in digest.body_text and "2026-W11" in digest.subject
    assert run(email_game, monday).digests == 0


def test_start_sheet_with_calendar(email_game) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        tournament = session.get(Tournament, game.tournament_id)
        report = Schedule(email_game.writer).send_start_sheets(session, tournament)
    assert report.start_sheets == 2
    sheet = email_game.outbox(to=email_game.white_email, kind="start_sheet")[0]
    assert "01.03.2026" in sheet.body_text and "белыми" in sheet.body_text
    message = BytesParser(policy=policy.default).parsebytes(sheet.raw)
    [ics] = [part for part in message.iter_attachments() if part.get_content_type() == "text/calendar"]
    calendar = Calendar.from_ical(ics.get_content())
    starts = sorted(event.decoded("dtstart") for event in calendar.walk("VEVENT"))
    assert starts == [dt.date(2026, 3, 1), dt.date(2027, 2, 28)]


def test_end_of_play_asks_for_the_adjudication_file(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    end = dt.date(2027, 2, 28)
    assert run(email_game, end - dt.timedelta(days=1)).end_of_play == 0
    assert run(email_game, end).end_of_play == 2
    letters = email_game.outbox(kind="end_of_play")
    assert {letter.recipient for letter in letters} == {email_game.white_email, email_game.black_email}
    assert "10.03.2027" in letters[0].body_text and "002 §4.5.2" in letters[0].body_text
    assert run(email_game, end + dt.timedelta(days=1)).end_of_play == 0


def test_end_of_play_reaches_a_postal_player_through_the_steward(email_game) -> None:  # type: ignore[no-untyped-def]
    """White plays by post with an address on file: the notice of 002 §4.5.2 goes to the
    steward to post (002 §4.1.1), once; Black, by e-mail, gets his own with the calendar."""
    email_game.send("white", "1. c3-d4", D)
    with email_game.database.transaction() as session:
        white = session.get(Participant, email_game.white_id)
        assert white is not None
        white.channel = Channel.POST
    end = dt.date(2027, 2, 28)
    assert run(email_game, end).end_of_play == 2
    assert email_game.outbox(to=email_game.white_email, kind="end_of_play") == []
    [to_post] = email_game.outbox(to=email_game.steward_email, kind="end_of_play")
    assert "почтой для" in to_post.subject and "10.03.2027" in to_post.body_text
    [black] = email_game.outbox(to=email_game.black_email, kind="end_of_play")
    assert "почтой для" not in black.subject
    assert run(email_game, end + dt.timedelta(days=1)).end_of_play == 0
