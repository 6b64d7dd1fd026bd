"""Five months of a tournament replayed date by date: each monthly bulletin's numbers are the
standings engine's and the time charts' on that date (002 §4.1.8), a player deprived of the
current information is skipped with the reason in the log (002 §4.1.9), every archived bulletin
is rebuilt identically from the final database, and the final report lists every decision the
audit log recorded (002 §4.1.7)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from click.testing import CliRunner
from sqlalchemy import select

from corrmail.bulletins import (
    build_bulletin,
    build_final_report,
    issue,
    load_tournament,
    rebuild,
    send_issue,
)
from corrmail.bulletins.build import records_decision
from corrmail.cli import main
from corrmail.games.view import GameView
from corrmail.models import AuditEntry, GameResult
from corrmail.models.bulletins import BulletinIssue, BulletinKind, DeliveryStatus
from corrmail.referee.tournament_view import scoring_tournament
from scoring.standings import standings
from timekeeping import NotToMoveError, reply_clock

START = dt.date(2026, 9, 1)
BULLETIN_DATES = [dt.date(2026, 10, 1), dt.date(2026, 11, 1), dt.date(2026, 12, 1),
                  dt.date(2027, 1, 1), dt.date(2027, 2, 1)]
PLIES = (14, 9, 10, 6, 12, 8)
"""Plies sent in each game over the replay (game 1 and game 3 end early with a result)."""
SANCTIONED = 3
SANCTION_ON = dt.date(2026, 11, 15)


def events() -> list[tuple[dt.date, str, tuple[Any, ...]]]:
    """What happens, by date: a letter every nine days in each game, two results, a sanction
    and a special break granted by the referee."""
    happening: list[tuple[dt.date, str, tuple[Any, ...]]] = []
    for index, plies in enumerate(PLIES):
        for ply in range(plies):
            happening.append((START + dt.timedelta(days=index + 9 * ply), "move", (index,)))
    happening.append((dt.date(2026, 10, 20), "finish", (3, GameResult.BLACK_WIN)))
    happening.append((dt.date(2026, 12, 10), "finish", (1, GameResult.WHITE_WIN)))
    happening.append((SANCTION_ON, "sanction", (SANCTIONED,)))
    happening.append((dt.date(2026, 12, 5), "break",
                      (2, dt.date(2026, 12, 20), dt.date(2027, 1, 10))))
    return sorted(happening, key=lambda item: item[0])


def expected_numbers(league: Any, on: dt.date) -> tuple[list[Any], dict[int, Any]]:
    """The engines' numbers from the database as it stands on ``on`` (nothing later exists)."""
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        rows = standings(scoring_tournament(tournament), tiebreaks=tournament.tiebreak_order)
        table = [(r.place, r.start_no, r.points, tuple(r.tiebreaks.items())) for r in rows]
        clocks = {}
        for game in tournament.games:
            if game.result is not None or not game.letters:
                continue
            view = GameView(game)
            chart = view.chart()
            side = view.side_to_move
            try:
                days_left: int | None = reply_clock(view.ledger(), side, chart=chart).days_left(on)
            except NotToMoveError:
                days_left = None
            clocks[game.id] = (chart.totals.white, chart.totals.black, side.value, days_left)
        return table, clocks


def test_monthly_bulletins_match_the_engines_and_are_reproducible(league: Any) -> None:
    pending = events()
    issued: list[int] = []
    for bulletin_date in BULLETIN_DATES:
        while pending and pending[0][0] <= bulletin_date:
            on, what, args = pending.pop(0)
            if what == "move":
                league.send_move(args[0], on)
            elif what == "finish":
                league.finish(args[0], args[1], on)
            elif what == "sanction":
                league.withhold_bulletins(args[0], on)
            else:
                league.special_break(args[0], on, args[1], args[2])
        table, clocks = expected_numbers(league, bulletin_date)
        assert any(isinstance(c[3], int) for c in clocks.values()), "clocks are running"
        with league.database.transaction() as session:
            tournament = load_tournament(session, league.code)
            row = issue(session, tournament, bulletin_date)
            deliveries = send_issue(session, league.writer(), row)
            content = row.content
            issued.append(row.id)
            status = {d.participant_id: d for d in deliveries if d.participant_id is not None}
            sanctioned = league.participants[SANCTIONED - 1]
            if bulletin_date > SANCTION_ON:
                skipped = status[sanctioned]
                assert skipped.status is DeliveryStatus.SKIPPED
                assert skipped.rule == "002 §4.1.9"
                assert "sanction" in skipped.reason and "002 §4.5.1" in skipped.reason
                assert skipped.outbox_message_id is None
            else:
                assert status[sanctioned].status is DeliveryStatus.QUEUED
            others = [d for pid, d in status.items() if pid != sanctioned]
            assert all(d.status is DeliveryStatus.QUEUED and d.outbox_message_id for d in others)

        assert [(s["place"], s["start_no"], s["points"],
                 tuple((name, value) for name, value in s["tiebreaks"]))
                for s in content["standings"]] == table
        assert {c["game_id"]: (c["white_days"], c["black_days"], c["to_move_side"],
                               c["days_left"])
                for c in content["clocks"]} == clocks
        assert sum(content["crosstable"]["points"]) == sum(points for _, _, points, _ in table)

    with league.database.session() as session:
        rows = [session.get(BulletinIssue, issue_id) for issue_id in issued]
        numbers = [(row.number, row.version, row.as_of) for row in rows if row is not None]
        assert numbers == [(n, 1, d) for n, d in enumerate(BULLETIN_DATES, start=1)]
        # The news of each bulletin are what happened after the previous one.
        finished_in = {row.number: [g["game_id"] for g in row.content["finished"]]
                       for row in rows if row is not None}
        assert [len(finished_in[n]) for n in range(1, 6)] == [0, 1, 0, 1, 0]
        january = rows[3]
        assert january is not None
        assert [b["in_force"] for b in january.content["breaks"]] == [True]
        assert [d["ruling"] for d in january.content["decisions"]] == ["granted"]
        assert rows[2] is not None
        assert [d["ruling"] for d in rows[2].content["decisions"]] == ["imposed"]
        # Reproducible: the final database rebuilds every bulletin exactly as it was issued.
        for row in rows:
            assert row is not None
            assert rebuild(session, row) == row.content, row.as_of


def test_cli_rebuilds_a_bulletin_at_any_date(league: Any, db_url: str,
                                             monkeypatch: Any) -> None:
    for on, what, args in events():
        if what == "move":
            league.send_move(args[0], on)
        elif what == "finish":
            league.finish(args[0], args[1], on)
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    result = CliRunner().invoke(main, ["bulletin", league.code, "--as-of", "2026-11-01",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        built = build_bulletin(session, tournament, dt.date(2026, 11, 1))
    assert printed["as_of"] == "2026-11-01"
    assert [s["points"] for s in printed["standings"]] == [s.points for s in built.standings]
    assert [c["days_left"] for c in printed["clocks"]] == [c.days_left for c in built.clocks]
    # Game 1 ended on 10.12.2026: on 01.11.2026 it is still in play, without a result.
    assert league.games[1] in [c["game_id"] for c in printed["clocks"]]

    html = CliRunner().invoke(main, ["report", league.code, "--as-of", "2027-02-01"])
    assert html.exit_code == 0, html.output
    assert "Кубок заочников" in html.output and "<svg" not in html.output

    missing = CliRunner().invoke(main, ["bulletin", "НЕТ-ТАКОГО", "--as-of", "2026-11-01"])
    assert missing.exit_code != 0 and "no tournament 'НЕТ-ТАКОГО'" in missing.output


def test_final_report_lists_every_decision_of_the_audit_log(league: Any) -> None:
    for on, what, args in events():
        if what == "move":
            league.send_move(args[0], on)
        elif what == "finish":
            league.finish(args[0], args[1], on)
        elif what == "sanction":
            league.withhold_bulletins(args[0], on)
        else:
            league.special_break(args[0], on, args[1], args[2])
    with league.database.transaction() as session:
        tournament = load_tournament(session, league.code)
        report = build_final_report(session, tournament, dt.date(2027, 2, 1))
        entries = session.scalars(
            select(AuditEntry).where(AuditEntry.tournament_id == tournament.id,
                                     AuditEntry.entity == "case")
        ).all()
        decided = {e.id for e in entries if records_decision(e)}
        assert decided, "the replay recorded decisions"
        assert {line.audit_id for line in report.decisions} == decided
        assert [(d.case_type, d.ruling, d.instance) for d in report.decisions] == [
            ("sanction", "imposed", "steward"), ("special_break", "granted", "referee")]
        assert report.decisions[0].rules == ("002 §4.1.9", "002 §4.5.1")
        assert report.tiebreak_rules[0][0] == "sonneborn_berger"
        stats = report.statistics
        assert (stats.games, stats.finished, stats.white_wins, stats.black_wins) == (6, 2, 1, 1)
        assert stats.average_moves == 4.0  # 9 plies → 5 moves, 6 plies → 3 moves
        # Before the sanction, the report has no decision at all.
        early = build_final_report(session, tournament, dt.date(2026, 11, 1))
        assert early.decisions == ()

        # The final report's distribution leaves out the player deprived of information.
        row = issue(session, tournament, dt.date(2027, 2, 1), kind=BulletinKind.FINAL_REPORT)
        deliveries = send_issue(session, league.writer(), row)
        skipped = [d.name for d in deliveries if d.status is DeliveryStatus.SKIPPED]
        assert skipped == ["Кузнецов Олег"]
        assert "organizer@example.org" in [d.address for d in deliveries
                                           if d.status is DeliveryStatus.QUEUED]


def test_penalties_are_listed_from_their_date_and_counted_in_the_clock(league: Any) -> None:
    from corrmail.models import Game, Penalty

    for ply in range(4):
        league.send_move(0, START + dt.timedelta(days=9 * ply))
    charged_on = START + dt.timedelta(days=30)
    with league.database.transaction() as session:
        game = session.get(Game, league.games[0])
        assert game is not None
        session.add(Penalty(game_id=game.id, participant_id=game.black_id, days=6,
                            rule="002 §4.2.11", reason="ход не повторён",
                            charged_on=charged_on, letter_id=game.letters[-1].id))
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        before = build_bulletin(session, tournament, charged_on - dt.timedelta(days=1))
        after = build_bulletin(session, tournament, charged_on)
        assert before.penalties == ()
        [line] = after.penalties
        assert (line.days, line.rule, line.player) == (6, "002 §4.2.11", "Попова Мария")
        clock_before = next(c for c in before.clocks if c.game_id == league.games[0])
        clock_after = next(c for c in after.clocks if c.game_id == league.games[0])
        assert clock_after.black_days == clock_before.black_days + 6
        report = build_final_report(session, tournament, charged_on)
        assert [p.reason for p in report.penalties] == ["ход не повторён"]
        later = build_bulletin(session, tournament, charged_on + dt.timedelta(days=30),
                               since=charged_on)
        assert later.penalties == ()  # already news in the previous bulletin
