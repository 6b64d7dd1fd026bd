"""What the referee's final report (002 §4.1.7) and the bulletin (002 §4.1.8) must say: which
sanction was imposed (002 §4.1.9 names three the steward may give), claims that wait with their
game shown as suspended (002 §4.3.6), every break, the unfinished games by name, and the
deadlines as they ran on a past date even for cases decided later."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from adjudication import Side
from adjudication.sanction import SanctionKind
from corrmail.bulletins import build_bulletin, build_final_report, load_tournament
from corrmail.bulletins.content import to_json
from corrmail.bulletins.render import render_printable
from corrmail.models import Case, CaseType, Game, GameResult
from corrmail.referee.desk import Desk
from corrmail.referee.store import load_case

START = dt.date(2026, 9, 1)


def _sanction(league: Any, start_number: int, kind: SanctionKind, on: dt.date) -> None:
    def impose(desk: Desk, actor: Any, session: Any) -> None:
        desk.impose_sanction(actor, league.participant(session, start_number), sanction=kind,
                             rules_violated=("002 §4.2.3",), reasons="письмо без дат")

    league.desk("steward", on, impose)


def test_the_report_names_each_sanction_and_every_unfinished_game(league: Any) -> None:
    _sanction(league, 1, SanctionKind.WARNING, START + dt.timedelta(days=10))
    _sanction(league, 2, SanctionKind.REPRIMAND, START + dt.timedelta(days=11))
    _sanction(league, 3, SanctionKind.BULLETINS_WITHHELD, START + dt.timedelta(days=12))
    league.finish(1, GameResult.DRAW, START + dt.timedelta(days=20))
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        report = build_final_report(session, tournament, START + dt.timedelta(days=30))
        kinds = [line.sanction for line in report.decisions if line.case_type == "sanction"]
        assert kinds == ["warning", "reprimand", "bulletins_withheld"]
        finished = session.get(Game, league.games[1])
        assert finished is not None
        assert [g.game_id for g in report.unfinished] == [
            g for g in league.games if g != finished.id]
        assert all(g.white and g.black for g in report.unfinished)
        page = render_printable(to_json(report), language="ru")
        for word in ("замечание", "выговор", "лишение текущей информации",
                     "Незаконченные партии"):
            assert word in page
        assert "sanction " not in page and "imposed" not in page
        english = render_printable(to_json(report), language="en")
        assert "warning" in english and "reprimand" in english


def test_a_waiting_claim_is_listed_and_its_game_shown_suspended(league: Any) -> None:
    league.send_move(0, START + dt.timedelta(days=1))
    on = START + dt.timedelta(days=70)

    def claim(desk: Desk, actor: Any, session: Any) -> None:
        game = session.get(Game, league.games[0])
        desk.open_overstep_claim(actor, game, claimant=Side.WHITE)

    league.desk("referee", on, claim)
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        bulletin = build_bulletin(session, tournament, on + dt.timedelta(days=1))
        assert [c.game_id for c in bulletin.open_claims] == [league.games[0]]
        line = bulletin.open_claims[0]
        assert line.claimant != line.accused and line.opened_on == on
        clock = next(c for c in bulletin.clocks if c.game_id == league.games[0])
        assert clock.suspended and clock.days_left is None and clock.last_safe_reply is None
        report = build_final_report(session, tournament, on + dt.timedelta(days=1))
        assert [c.game_id for c in report.open_claims] == [league.games[0]]
        state = {g.game_id: g.state for g in report.unfinished}
        assert state[league.games[0]] == "suspended"
        assert league.games[0] not in {o.game_id for o in report.oversteps}
        page = render_printable(to_json(report), language="ru")
        assert "Заявки о просрочке, ждущие окончательного решения" in page
        assert "игра остановлена" in page


def test_every_break_reaches_the_report_and_a_past_bulletin_keeps_its_deadlines(
    league: Any,
) -> None:
    requested = START + dt.timedelta(days=5)
    league.special_break(2, requested, START + dt.timedelta(days=40), START + dt.timedelta(days=50))
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        report = build_final_report(session, tournament, START + dt.timedelta(days=90))
        assert [(b.start, b.state) for b in report.breaks] == [
            (START + dt.timedelta(days=40), "taken")]
        page = render_printable(to_json(report), language="ru")
        assert "Первый день" in page and "От кого" not in page
        bulletin = build_bulletin(session, tournament, START + dt.timedelta(days=45))
        assert [b.state for b in bulletin.breaks] == ["in_force"]


def test_a_bulletin_rebuilt_for_a_past_date_keeps_the_deadline_of_a_case_decided_later(
    league: Any,
) -> None:
    """An adjudication opened at the end of play has its analyses due ten days later
    (002 §4.5.2); a bulletin as of the day after the opening, rebuilt after the referee decided,
    still shows that deadline (it showed nothing before: the case had moved on)."""
    end = dt.date(2027, 8, 31)
    league.send_move(0, START)

    def open_all(desk: Desk, actor: Any, session: Any) -> None:
        desk.open_adjudications(load_tournament(session, league.code), actor)

    league.desk("referee", end, open_all)
    day_after = end + dt.timedelta(days=1)
    with league.database.session() as session:
        before = build_bulletin(session, load_tournament(session, league.code), day_after)
        due_then = [d for d in before.deadlines if d.game_id == league.games[0]]
        assert [d.due for d in due_then] == [end + dt.timedelta(days=10)]
        case_id = session.scalar(select(Case.id).where(
            Case.game_id == league.games[0], Case.case_type == CaseType.ADJUDICATION))

    def decide(desk: Desk, actor: Any, session: Any) -> None:
        stored = load_case(session, case_id)
        desk.decide(actor, case_id, revision=stored.case.revision, ruling="draw",
                    reasons="позиция равна")

    league.desk("referee", end + dt.timedelta(days=12), decide)
    with league.database.session() as session:
        rebuilt = build_bulletin(session, load_tournament(session, league.code), day_after)
        assert [d for d in rebuilt.deadlines if d.game_id == league.games[0]] == due_then


def _overstep_by_black(league: Any, index: int) -> None:
    """White moves on day 1; black, who received it on day 3, answers on day 80: 77 days for
    his first move, past the 50 days of the control (002 §4.3.5)."""
    league.send_move(index, START + dt.timedelta(days=1))
    league.send_move(index, START + dt.timedelta(days=80))


def test_the_final_report_lists_an_unclaimed_overstep_of_every_game_not_only_those_in_play(
    league: Any,
) -> None:
    """002 §4.1.7 and §4.3.5: the report lists every overstep the chart shows that nobody
    claimed — of a game finished since, of one sent to adjudication, of one still in play — and
    none of a game whose overstep is claimed."""
    for index in range(4):
        _overstep_by_black(league, index)
    league.finish(0, GameResult.DRAW, START + dt.timedelta(days=90))
    end = dt.date(2027, 8, 31)

    def claim(desk: Desk, actor: Any, session: Any) -> None:
        desk.open_overstep_claim(actor, session.get(Game, league.games[3]), claimant=Side.WHITE)

    league.desk("referee", START + dt.timedelta(days=85), claim)

    def open_all(desk: Desk, actor: Any, session: Any) -> None:
        desk.open_adjudications(load_tournament(session, league.code), actor)

    league.desk("referee", end, open_all)
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        report = build_final_report(session, tournament, end + dt.timedelta(days=1))
        states = {g.game_id: g.state for g in report.unfinished}
    assert states[league.games[1]] == "adjudication"
    listed = {o.game_id: o for o in report.oversteps}
    # The games in which no move was made are White's oversteps from the start (002 §4.3.2),
    # not adjudicated and so listed too (docs/rules/referee.md).
    never = {league.games[i] for i in range(4, len(league.games))}
    assert set(listed) == {league.games[0], league.games[1], league.games[2]} | never
    finished = listed[league.games[0]]
    assert (finished.player, finished.move, finished.total, finished.limit, finished.rule) == (
        "Попова Мария", 1, 77, 50, "002 §4.3.5")
    assert (finished.white, finished.black, finished.state) == (
        "Иванов Пётр", "Попова Мария", "finished")
    assert listed[league.games[1]].state == "adjudication"
    russian = render_printable(to_json(report), language="ru")
    section = russian.split("Просрочки, о которых ещё не заявлено")[1].split("<h2>")[0]
    assert "Иванов Пётр — Попова Мария" in section and "закончена" in section
    assert "на присуждении" in section
    english = render_printable(to_json(report), language="en")
    section = english.split("Oversteps not yet claimed")[1].split("<h2>")[0]
    assert "Иванов Пётр — Попова Мария" in section and "finished" in section
    assert "in adjudication" in section


def test_a_final_report_archived_before_its_oversteps_named_the_game_still_prints(
    league: Any,
) -> None:
    """An archived report keeps the JSON it was issued with; one from before the oversteps
    carried the game and its state prints them blank instead of failing."""
    _overstep_by_black(league, 1)
    with league.database.session() as session:
        report = to_json(build_final_report(session, load_tournament(session, league.code),
                                            START + dt.timedelta(days=90)))
    for line in report["oversteps"]:
        for field in ("white", "black", "state"):
            del line[field]
    page = render_printable(report, language="ru")
    assert "Просрочки, о которых ещё не заявлено" in page and "002 §4.3.5" in page


def test_an_overstep_already_ruled_on_is_not_listed_as_unclaimed(league: Any) -> None:
    """A game whose result was given for the overstep (002 §4.3.7) is not an unclaimed one;
    a game with the same chart but a played result is."""
    from corrmail.models import ResultKind

    for index in (0, 1):
        _overstep_by_black(league, index)
        league.finish(index, GameResult.WHITE_WIN, START + dt.timedelta(days=90))
    with league.database.transaction() as session:
        ruled = session.get(Game, league.games[0])
        assert ruled is not None
        ruled.result_kind = ResultKind.OVERSTEP
    with league.database.session() as session:
        report = build_final_report(session, load_tournament(session, league.code),
                                    START + dt.timedelta(days=100))
    listed = {o.game_id for o in report.oversteps}
    assert league.games[1] in listed and league.games[0] not in listed


def test_a_game_in_which_no_move_was_made_is_not_adjudicated_and_is_reported(
    league: Any,
) -> None:
    """002 §4.5.2 adjudicates the position "after his last move"; a game in which no move was
    made has none: White's clock ran from the start (002 §4.3.2), so at the end of play the
    game is no board for the referee to judge but an overstep (or unplayed game, 000 §3.15.2)
    to decide. No adjudication is opened; the final report keeps it among the unfinished games,
    does not count it as played, and lists White's overstep as not yet claimed."""
    _overstep_by_black(league, 0)  # a game begun
    end = dt.date(2027, 8, 31)

    def open_all(desk: Desk, actor: Any, session: Any) -> None:
        desk.open_adjudications(load_tournament(session, league.code), actor)

    league.desk("referee", end, open_all)
    with league.database.session() as session:
        games = {game_id: session.get(Game, game_id) for game_id in league.games}
        never = [g for g in games.values() if g is not None and g.state.value == "not_started"]
        assert never, "the league has games in which no move was made"
        adjudicated = set(session.scalars(select(Case.game_id).where(
            Case.case_type == CaseType.ADJUDICATION)))
        assert adjudicated == {league.games[0]}
        tournament = load_tournament(session, league.code)
        report = build_final_report(session, tournament, end + dt.timedelta(days=1))
    states = {g.game_id: g.state for g in report.unfinished}
    assert all(states[g.id] == "not_started" for g in never)
    assert report.statistics.played == 0 and report.statistics.adjudicated == 0
    unclaimed = {o.game_id: o for o in report.oversteps}
    assert {g.id for g in never} <= set(unclaimed)
