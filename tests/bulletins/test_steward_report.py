"""The steward's report to the referee (002 §4.1.8: the steward registers the finished games'
records, keeps the results, informs the players, decides their conflicts, informs the referee of
the course of play and reports to him at the end): built from the record as of a date, archived,
printable and downloadable on the web, and sent through the outbox to the referee alone."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from adjudication.sanction import SanctionKind
from corrmail import games
from corrmail.bulletins import build_steward_report, issue, load_tournament, send_issue
from corrmail.bulletins.content import to_json
from corrmail.bulletins.render import render_printable
from corrmail.models import Game, GameResult, OutboxMessage, User
from corrmail.models.bulletins import BulletinDelivery, BulletinKind, DeliveryStatus
from corrmail.referee.desk import Desk

START = dt.date(2026, 9, 1)
AS_OF = START + dt.timedelta(days=80)


def _course_of_play(league: Any) -> None:
    """Game 0: one letter on day 1, then nothing (its repeat date passes, 002 §4.3.4); game 3
    played and drawn; a penalty, a special break, a warning by the steward and a bulletin."""
    league.send_move(0, START + dt.timedelta(days=1))
    for ply in range(4):
        league.send_move(3, START + dt.timedelta(days=2 + 9 * ply))
    league.finish(3, GameResult.DRAW, START + dt.timedelta(days=40))
    with league.database.transaction() as session:
        game = session.get(Game, league.games[3])
        assert game is not None
        games.charge_penalty(session, game, game.black_id, 6, rule="002 §4.2.11",
                             reason="ход не повторён", on=START + dt.timedelta(days=20),
                             user=None)
    league.special_break(2, START + dt.timedelta(days=5), START + dt.timedelta(days=40),
                         START + dt.timedelta(days=50))

    def warn(desk: Desk, actor: Any, session: Any) -> None:
        desk.impose_sanction(actor, league.participant(session, 4), sanction=SanctionKind.WARNING,
                             rules_violated=("002 §4.2.6",), reasons="комментарий к партии")

    league.desk("steward", START + dt.timedelta(days=30), warn)
    with league.database.transaction() as session:
        issue(session, load_tournament(session, league.code), START + dt.timedelta(days=45))


def test_the_report_holds_what_002_4_1_8_asks_of_the_steward(league: Any) -> None:
    _course_of_play(league)
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        report = build_steward_report(session, tournament, AS_OF, steward="Steward")
    assert report.steward == "Steward" and report.referees == ("Referee",)
    # The course of every game he serves, in play or finished, with think time and penalties.
    assert sorted(g.game_id for g in report.games) == sorted(league.games)
    course = {g.game_id: g for g in report.games}
    drawn = course[league.games[3]]
    assert (drawn.state, drawn.result, drawn.moves, drawn.letters) == ("finished", "½-½", 2, 4)
    assert drawn.first_sent == START + dt.timedelta(days=2)
    assert drawn.finished_on == START + dt.timedelta(days=40)
    assert (drawn.white_penalty_days, drawn.black_penalty_days) == (0, 6)
    assert drawn.white_days is not None and drawn.black_days is not None
    waiting = course[league.games[0]]
    assert (waiting.state, waiting.letters, waiting.last_sent) == (
        "in_play", 1, START + dt.timedelta(days=1))
    assert course[league.games[1]].state == "not_started"
    # Delays: game 0's letter unanswered past its repeat date (002 §4.3.4).
    delays = {d.game_id: d for d in report.delays}
    delay = delays[league.games[0]]
    assert (delay.what, delay.since, delay.rule) == ("repeat", START + dt.timedelta(days=1),
                                                     "002 §4.3.4")
    assert delay.due <= AS_OF and delay.days == 79
    assert league.games[3] not in delays  # finished
    # The not-started games wait for a first move past the query date (002 §4.3.4).
    assert {d.what for d in report.delays if d.game_id != league.games[0]} <= {"first_move"}
    # Oversteps the chart or the clock shows (002 §4.3.5): game 0's black is past 50 days.
    assert league.games[0] in {o.game_id for o in report.oversteps}
    # Penalties, every break, the steward's own decisions, records, bulletins.
    assert [(p.days, p.rule) for p in report.penalties] == [(6, "002 §4.2.11")]
    assert [(b.start, b.state) for b in report.breaks] == [(START + dt.timedelta(days=40), "taken")]
    assert [(d.case_type, d.sanction, d.instance) for d in report.decisions] == [
        ("sanction", "warning", "steward")]
    assert [r.game_id for r in report.records] == [league.games[3]]
    assert [(b.number, b.as_of) for b in report.bulletins] == [(1, START + dt.timedelta(days=45))]
    assert {g.game_id for g in report.unfinished} == set(league.games) - {league.games[3]}


def test_a_report_as_of_an_earlier_date_knows_only_that_day(league: Any) -> None:
    _course_of_play(league)
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        early = build_steward_report(session, tournament, START + dt.timedelta(days=10))
    assert early.penalties == () and early.decisions == () and early.bulletins == ()
    assert early.delays == ()  # no repeat or query date has passed by day 10
    assert all(g.state != "finished" for g in early.games)


def test_the_printed_report_reads_in_russian_and_in_english(league: Any) -> None:
    _course_of_play(league)
    with league.database.session() as session:
        report = to_json(build_steward_report(session, load_tournament(session, league.code),
                                              AS_OF, steward="Steward"))
    russian = render_printable(report, language="ru")
    for text in ("Отчёт старосты судье", "Ход партий", "Задержки", "002 §4.3.4",
                 "Просрочки", "Штрафы", "Перерывы", "Решения старосты", "замечание",
                 "Записи партий", "Бюллетени, выпущенные для участников", "Иванов Пётр",
                 "002 §4.1.8"):
        assert text in russian, text
    for english in ("Course of the games", "Delays", "move letter unanswered", "steward_report",
                    "in_play", "not_started", "repeat"):
        assert english not in russian, english
    english_page = render_printable(report, language="en")
    assert "Steward's report to the referee" in english_page
    assert "Course of the games" in english_page and "Delays" in english_page


def test_issued_and_sent_to_the_referee_alone(league: Any) -> None:
    _course_of_play(league)
    with league.database.transaction() as session:
        tournament = load_tournament(session, league.code)
        steward = session.scalars(select(User).filter_by(login="steward")).one()
        row = issue(session, tournament, AS_OF, kind=BulletinKind.STEWARD_REPORT, user=steward)
        again = issue(session, tournament, AS_OF, kind=BulletinKind.STEWARD_REPORT,
                      user=steward)
        assert (row.number, again.number) == (1, 2)
        assert row.content["steward"] == "Steward" and row.content["kind"] == "steward_report"
        deliveries = send_issue(session, league.writer(), row)
        issue_id = row.id
    assert [(d.name, d.status) for d in deliveries] == [("Referee", DeliveryStatus.QUEUED)]
    with league.database.session() as session:
        sent = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "steward_report")).all()
        assert [m.recipient for m in sent] == ["referee@example.org"]
        assert "отчёт старосты судье № 1" in sent[0].subject
        assert "002 §4.1.8" in sent[0].body_text
        assert b"steward_report-" in sent[0].raw
        logged = session.scalars(select(BulletinDelivery).where(
            BulletinDelivery.issue_id == issue_id)).all()
        assert [d.user_id is not None and d.participant_id is None for d in logged] == [True]


def test_the_steward_previews_issues_prints_and_downloads_it_on_the_web(league: Any) -> None:
    _course_of_play(league)
    steward = league.client("steward")
    page = steward.get(f"/bulletins/{league.code}").get_data(as_text=True)
    assert 'id="steward-report-form"' in page and "Отчёт старосты судье" in page
    preview = steward.get(f"/bulletins/{league.code}/preview?as_of={AS_OF}&kind=steward_report")
    assert preview.status_code == 200
    shown = preview.get_data(as_text=True)
    assert "Отчёт старосты судье" in shown and "Староста: Steward" in shown
    issued = steward.post(f"/bulletins/{league.code}/issue",
                          data={"as_of": AS_OF.isoformat(), "kind": "steward_report"})
    assert issued.status_code == 302
    log = steward.get(issued.headers["Location"]).get_data(as_text=True)
    assert "Отчёт старосты судье 1" in log and "Referee" in log
    assert "Иванов Пётр" not in log  # no player is an addressee
    with league.database.session() as session:
        row = session.scalars(select(BulletinDelivery)).one()
        issue_id = row.issue_id
        assert row.status is DeliveryStatus.QUEUED and row.address == "referee@example.org"
    archive = steward.get(f"/bulletins/{league.code}").get_data(as_text=True)
    assert 'data-kind="steward_report"' in archive
    printed = steward.get(f"/bulletins/issues/{issue_id}/print")
    assert printed.status_code == 200 and "Ход партий" in printed.get_data(as_text=True)
    download = steward.get(f"/bulletins/issues/{issue_id}/download")
    assert download.status_code == 200
    disposition = download.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and "steward_report-" in disposition
    assert "Ход партий" in download.get_data(as_text=True)
    referee = league.client("referee")
    assert referee.get(f"/bulletins/issues/{issue_id}/print").status_code == 200
    # The referee's paper, not the players': a player neither reads nor downloads it.
    player = league.client("player1")
    assert player.get(f"/bulletins/issues/{issue_id}/print").status_code == 403
    assert player.get(f"/bulletins/issues/{issue_id}/download").status_code == 403
    assert 'data-kind="steward_report"' not in player.get(
        f"/bulletins/{league.code}").get_data(as_text=True)


def test_without_a_referee_the_report_is_kept_and_the_steward_told(league: Any) -> None:
    from corrmail.models import Role, TournamentOfficial

    with league.database.transaction() as session:
        for official in session.scalars(select(TournamentOfficial).where(
                TournamentOfficial.tournament_id == league.tournament_id,
                TournamentOfficial.role == Role.REFEREE)):
            session.delete(official)
    steward = league.client("steward")
    answer = steward.post(f"/bulletins/{league.code}/issue",
                          data={"as_of": AS_OF.isoformat(), "kind": "steward_report"},
                          follow_redirects=True)
    text = answer.get_data(as_text=True)
    assert "не отправлено: в турнире нет судьи" in text and "002 §4.1.8" in text
    with league.database.session() as session:
        assert session.scalars(select(BulletinDelivery)).all() == []
        assert session.scalars(select(OutboxMessage)).all() == []


def test_the_sending_log_says_why_in_russian(league: Any) -> None:
    """The log's reasons are stored in English; a Russian reader reads them in Russian: a player
    deprived of information (002 §4.1.9) and a referee without an e-mail address."""
    from corrmail.models import User as Account

    league.withhold_bulletins(3, START + dt.timedelta(days=20))
    with league.database.transaction() as session:
        session.scalars(select(Account).filter_by(login="referee")).one().email = None
    steward = league.client("steward")
    bulletin = steward.post(f"/bulletins/{league.code}/issue",
                            data={"as_of": AS_OF.isoformat(), "kind": "bulletin"})
    log = steward.get(bulletin.headers["Location"]).get_data(as_text=True)
    assert "лишён текущей информации взысканием" in log and "(002 §4.5.1)" in log
    assert "нет адреса электронной почты: староста отправит почтой" in log
    assert "information withheld" not in log and "no e-mail address" not in log
    report = steward.post(f"/bulletins/{league.code}/issue",
                          data={"as_of": AS_OF.isoformat(), "kind": "steward_report"})
    log = steward.get(report.headers["Location"]).get_data(as_text=True)
    assert "Referee" in log and "нет адреса электронной почты" in log


def test_the_command_line_prints_and_sends_it(league: Any, db_url: str, monkeypatch: Any) -> None:
    import json

    from click.testing import CliRunner

    from corrmail.cli import main

    _course_of_play(league)
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    printed = CliRunner().invoke(main, ["steward-report", league.code, "--as-of",
                                        AS_OF.isoformat(), "--by", "steward", "--format", "json"])
    assert printed.exit_code == 0, printed.output
    content = json.loads(printed.output)
    assert content["kind"] == "steward_report" and content["steward"] == "Steward"
    assert [d["what"] for d in content["delays"]][:1] and content["penalties"][0]["days"] == 6
    sent = CliRunner().invoke(main, ["steward-report", league.code, "--as-of", AS_OF.isoformat(),
                                     "--by", "steward", "--send", "--output", "/dev/null"])
    assert sent.exit_code == 0, sent.output
    assert "steward_report 1 v1" in sent.output and "Referee" in sent.output
    with league.database.session() as session:
        assert [m.recipient for m in session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "steward_report"))] == ["referee@example.org"]
    unknown = CliRunner().invoke(main, ["steward-report", league.code, "--by", "nobody"])
    assert unknown.exit_code != 0 and "nobody" in unknown.output


def test_a_first_move_delay_counts_from_whites_late_start_sheet(league: Any) -> None:
    """002 §4.3.2: White of a game not begun got his start sheet ten days after the start, so his
    play begins the day after; the delay (and its query date, 002 §4.3.4) count from then."""
    received = START + dt.timedelta(days=10)
    with league.database.transaction() as session:
        game = session.get(Game, league.games[1])
        assert game is not None
        games.record_start_sheet_receipt(session, game.white, received, None)

    def delay_of(as_of: dt.date) -> Any:
        with league.database.session() as session:
            report = build_steward_report(session, load_tournament(session, league.code), as_of)
        return {d.game_id: d for d in report.delays}.get(league.games[1])

    due = START + dt.timedelta(days=41)
    assert delay_of(due - dt.timedelta(days=1)) is None, "not yet 30 days from White's start"
    delay = delay_of(due)
    assert delay is not None
    assert (delay.what, delay.since, delay.due) == ("first_move", received + dt.timedelta(days=1), due)
